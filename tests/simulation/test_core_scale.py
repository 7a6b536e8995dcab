"""The run record at scale (docs/results-format.md, "Per-rank fields past the bound"): up to 64 world ranks the
core lists every rank (hosts, ranks per node, each rank's placement, clock offsets); past it, a simulated run of
80 ranks on 80 simulated hosts carries counts, ranges and the extreme ranks instead, unless MPIMARK_PER_RANK=1
asks for every rank; and the front end reads and stores both forms alike."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from mpimark.cli import cli
from mpimark.records import per_rank, placement
from mpimark.records.results import validate_record
from mpimark.storage.store import Store

from .conftest import run_smpi, write_flat_platform

BOUND = 64  # PER_RANK_LIST_MAX, core/src/engine/sysinfo.h
SHORT = ("mpi1", "Allreduce", "-msglog", "0:2", "-iter", "10", "-selfcheck", "off")
ENV = {"MPIMARK_RECORD_ENV": "MPIMARK_SCALE_TEST"}


def simulated(smpi_core, tmp_path, ranks: int, env: dict | None = None) -> tuple[list[dict], str]:
    platform = write_flat_platform(tmp_path / "platform", ranks)
    stream = tmp_path / f"run{ranks}.jsonl"
    run = run_smpi(smpi_core, platform, ranks, *SHORT, "-npmin", str(ranks), "-json", str(stream),
                   env={**ENV, **(env or {})}, timeout=300)
    assert run.returncode == 0, run.describe()
    records = [json.loads(line) for line in stream.read_text().splitlines() if line.strip()]
    for record in records:
        validate_record(record)
    return records, str(stream)


@pytest.fixture(scope="module")
def past_bound(smpi_core, tmp_path_factory):
    return simulated(smpi_core, tmp_path_factory.mktemp("scale80"), 80)


def test_under_the_bound_every_rank_is_listed(smpi_core, tmp_path):
    records, _ = simulated(smpi_core, tmp_path, 8)
    run = records[0]
    assert run["per_rank"] == {"bound": BOUND, "listed": True}
    assert run["hosts"] == [f"host-{i}" for i in range(8)] and "hosts_omitted" not in run
    assert run["nodes"] == 8 and run["ranks_per_node"] == [1] * 8
    assert [r["rank"] for r in run["ranks"]] == list(range(8))
    assert [r["host"] for r in run["ranks"]] == run["hosts"]
    assert all(r["env"] == {"MPIMARK_SCALE_TEST": None} for r in run["ranks"])
    assert len(run["clock_sync"]["ranks"]) == 8 and "ranks_omitted" not in run["clock_sync"]
    assert run["startup_s"] >= 0


def test_past_the_bound_the_record_is_summarized(past_bound):
    records, _ = past_bound
    run, end = records[0], records[-1]
    assert run["processes"] == 80
    assert run["per_rank"] == {"bound": BOUND, "listed": False}
    assert run["nodes"] == 80
    # Each simulated host is a machine of its own (not the one kernel the simulation runs on).
    assert run["oversubscribed"] is False
    assert run["hosts"] == [f"host-{i}" for i in range(BOUND)] and run["hosts_omitted"] == 80 - BOUND
    assert "ranks" not in run and "ranks_per_node" not in run
    assert run["ranks_per_node_counts"] == [[1, 80]]
    summary = run["ranks_summary"]
    assert summary["ranks"] == 80 and summary["cpu"]["unknown"] + (summary["cpu"]["max"] is not None) >= 1
    assert sum(count for _, count in summary["cpus"]["values"]) + summary["cpus"]["other_ranks"] == 80
    assert summary["env"] == {"MPIMARK_SCALE_TEST": {"values": [[None, 80]], "other_ranks": 0}}
    clock = run["clock_sync"]
    assert clock["ranks"][0]["rank"] == 0 and len(clock["ranks"]) + clock["ranks_omitted"] == 80
    assert len(clock["ranks"]) <= 8
    assert len(end["clock_check"]["ranks"]) + end["clock_check"]["ranks_omitted"] == 80
    results = [r for r in records if r["type"] == "result"]
    assert [r["bytes"] for r in results] == [0, 4] and all(r["processes"] == 80 for r in results)


def test_per_rank_data_when_asked(smpi_core, tmp_path):
    records, _ = simulated(smpi_core, tmp_path, 72, env={"MPIMARK_PER_RANK": "1"})
    run = records[0]
    assert run["per_rank"] == {"bound": BOUND, "listed": True}
    assert len(run["hosts"]) == 72 and len(run["ranks"]) == 72 and run["ranks_per_node"] == [1] * 72
    assert len(run["clock_sync"]["ranks"]) == 72


def test_the_front_end_reads_both_forms(past_bound, smpi_core, tmp_path):
    records, stream = past_bound
    run = records[0]
    assert per_rank.ranks_per_node(run) == [1] * 80
    assert placement.nodes_by_ranks(run) == "80 × 1"
    assert placement.rank_env(run) == {"MPIMARK_SCALE_TEST": [None]}
    small, small_stream = simulated(smpi_core, tmp_path, 4)
    assert placement.nodes_by_ranks(small[0]) == "4 × 1"
    db = tmp_path / "store.db"
    for path in (stream, small_stream):
        result = CliRunner().invoke(cli, ["import", path, "--db", str(db)])
        assert result.exit_code == 0, result.output
    with Store(db, for_reading=True) as store:
        rows = sorted(store.runs(), key=lambda row: row.processes)
    assert [(row.processes, row.nodes, row.ranks_per_node) for row in rows] == [(4, 4, [1] * 4), (80, 80, [1] * 80)]
    shown = CliRunner().invoke(cli, ["show", str(rows[1].id), "--db", str(db)])
    assert shown.exit_code == 0, shown.output
    assert "ranks: 80 nodes × 1 rank per node" in shown.output
    assert "binding: not bound" in shown.output or "binding: each rank on one CPU" in shown.output
