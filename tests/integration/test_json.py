"""The JSON Lines stream (-json FILE) of the same runs as test_layout: schema,
record order, one result per text row with the same values, and the
internal consistency of every result."""

from __future__ import annotations

import os
import statistics

import pytest
from mpimark.records.results import read_records, validate_record

from . import imbtext
from .conftest import CORE, close, match_tables

RANKS = [2, 3, 4]


@pytest.mark.parametrize("n", RANKS)
def test_every_line_validates_against_the_schema(full_run, n):
    run = full_run(n)
    lines = run.json_path.read_text(encoding="utf-8").splitlines()
    assert lines and all(line.strip() for line in lines)
    assert len(lines) == len(run.records)
    for number, record in enumerate(run.records, 1):
        try:
            validate_record(record)
        except ValueError as exc:
            pytest.fail(f"line {number}: {exc}")
    assert len(read_records(run.json_path)) == len(lines)  # the package's reader agrees


@pytest.mark.parametrize("n", RANKS)
def test_record_order(full_run, n):
    run = full_run(n)
    types = [r["type"] for r in run.records]
    assert types[0] == "run" and types[-1] == "end"
    assert types.count("run") == 1 and types.count("end") == 1
    end = run.end_record
    assert end["status"] == "complete"
    assert end["results"] == types.count("result")
    assert end["elapsed_s"] > 0


@pytest.mark.parametrize("n", RANKS)
def test_run_record(full_run, n):
    run = full_run(n)
    rec = run.run_record
    assert rec["schema_version"] == 1
    assert rec["tool"]["name"] == "mpimark-core"
    assert rec["suite"] == "mpi1"
    assert rec["command_line"] == [str(CORE), *run.cmd[4:]]
    assert rec["processes"] == n
    assert rec["oversubscribed"] == (n > rec["cores_online"])
    assert rec["benchmarks"] == imbtext.ALL == run.report.benchmarks  # the -include'd ones first, as IMB
    assert rec["mpi"]["thread_level_provided"] == "MPI_THREAD_SINGLE"
    opts = rec["options"]
    assert (opts["msglog"], opts["msgspersample"], opts["time_s"], opts["npmin"]) == ("0:4", 50, 10, 2)
    assert (opts["multi"], opts["check"], opts["data_type"], opts["red_data_type"]) == (None, "off", "byte", "float")


@pytest.mark.parametrize("n", RANKS)
def test_run_record_says_where_every_rank_ran(full_run, n):
    rec = full_run(n).run_record
    assert rec["nodes"] == len(rec["hosts"]) == 1  # one machine
    assert rec["ranks_per_node"] == [n]
    assert [r["rank"] for r in rec["ranks"]] == list(range(n))
    allowed = os.sched_getaffinity(0)
    for rank in rec["ranks"]:
        assert rank["host"] == rec["hosts"][0]
        assert rank["cpu"] in allowed
        cpus = _cpu_list(rank["cpus"])
        assert rank["cpu"] in cpus and cpus <= allowed
        assert "env" not in rank  # no MPIMARK_RECORD_ENV


def _cpu_list(text: str) -> set[int]:
    """ "0-3,8" -> {0, 1, 2, 3, 8}"""
    cpus = set()
    for part in text.split(","):
        first, _, last = part.partition("-")
        cpus.update(range(int(first), int(last or first) + 1))
    return cpus


@pytest.mark.parametrize("n", RANKS)
def test_benchmark_start_event_per_table(full_run, n):
    run = full_run(n)
    tables = run.report.tables
    starts = run.events("benchmark_start")
    assert [(e["benchmark"], e["processes"]) for e in starts] == [t.key for t in tables]
    assert [e["sizes"] for e in starts] == [len(t.rows) for t in tables]
    assert [e["groups"] for e in starts] == [1] * len(tables)


@pytest.mark.parametrize("n", RANKS)
def test_results_match_text_tables_value_for_value(full_run, n):
    run = full_run(n)
    results = run.results()
    assert match_tables(run.report, results) == []
    for rec in results:
        assert (rec["multi"], rec["groups"], rec["group"], rec["status"]) == (None, 1, None, "ok")
        assert rec["defects"] is None and rec["needed_gb"] is None  # no -check, nothing skipped


def _check_distribution(rec: dict) -> list[str]:
    d, s = rec["distribution"], rec["samples_ns"]
    where = f"{rec['benchmark']}/{rec['processes']}/{rec['bytes']}"
    bad = []
    if d is None:
        return [f"{where}: no distribution"]
    if d["samples"] != len(s):
        bad.append(f"{where}: samples {d['samples']} != len(samples_ns) {len(s)}")
    n, b, reps = d["samples"], d["batch_size"], rec["repetitions"]
    if not b * n >= reps > b * (n - 1):
        bad.append(f"{where}: batch {b} x samples {n} does not cover repetitions {reps}")
    order = ["min_usec", "p5_usec", "q1_usec", "median_usec", "q3_usec", "p95_usec", "max_usec"]
    values = [d[k] for k in order]
    if values != sorted(values):
        bad.append(f"{where}: quantiles out of order {values}")
    if n >= 6:
        if not d["ci_low_usec"] <= d["median_usec"] <= d["ci_high_usec"]:
            bad.append(f"{where}: median outside its CI")
        if not (d["ci_level"] == 0.95 and d["ci_level"] <= d["ci_coverage"] <= 1):
            bad.append(f"{where}: ci_level/coverage {d['ci_level']} {d['ci_coverage']}")
    elif (d["ci_low_usec"], d["ci_high_usec"], d["ci_coverage"]) != (None, None, None):
        bad.append(f"{where}: CI given for {n} < 6 samples")
    # the raw samples (0.1 ns resolution) are the distribution's data
    tol = 1e-4 + 1e-9 * d["max_usec"]
    if s:
        us = sorted(x / 1000 for x in s)
        for key, value in (("min_usec", us[0]), ("max_usec", us[-1]), ("median_usec", statistics.median(us))):
            if abs(d[key] - value) > tol:
                bad.append(f"{where}: {key} {d[key]} but samples say {value}")
        # per batch the slowest rank: their iteration-weighted mean >= the slowest rank's mean
        weights = [b] * (n - 1) + [reps - b * (n - 1)]
        mean_of_max = sum(w * x for w, x in zip(weights, s)) / reps / 1000
        if mean_of_max < rec["t_max_usec"] - tol:
            bad.append(f"{where}: samples' mean {mean_of_max} below t_max {rec['t_max_usec']}")
    return bad


@pytest.mark.parametrize("n", RANKS)
def test_distribution_fields_are_consistent(full_run, n):
    problems = [p for rec in full_run(n).results() for p in _check_distribution(rec)]
    assert problems == []


@pytest.mark.parametrize("n", RANKS)
def test_time_fields(full_run, n):
    for rec in full_run(n).results():
        assert 0 <= rec["t_min_usec"] <= rec["t_avg_usec"] <= rec["t_max_usec"], rec["benchmark"]


@pytest.mark.parametrize("n", RANKS)
def test_bandwidth_follows_imb_factors(full_run, n):
    """MB/s = factor * bytes / t_max (PingPong family 1, Sendrecv 2, Exchange 4);
    Uniband/Biband: msg/s = factor * 10^6 * window * pairs / t_max, MB/s = msg/s * bytes / 10^6;
    collectives and Barrier report no bandwidth."""
    window = full_run(n).run_record["options"]["window_size"]
    assert window == 256
    for rec in full_run(n).results():
        name, t, size = rec["benchmark"], rec["t_max_usec"], rec["bytes"]
        where = f"{name}/{rec['processes']}/{size}"
        if name in imbtext.MSGRATE:
            rate = imbtext.BW_FACTOR[name] * 1e6 * window * (rec["processes"] // 2) / t
            assert close(rec["msgs_per_sec"], rate, 1e-9), where
            assert close(rec["mbytes_per_sec"], rate * size / 1e6, 1e-9, 1e-9), where
        elif name in imbtext.BW_FACTOR:
            assert rec["msgs_per_sec"] is None, where
            assert close(rec["mbytes_per_sec"], imbtext.BW_FACTOR[name] * size / t, 1e-9, 1e-9), where
        else:
            assert rec["mbytes_per_sec"] is None and rec["msgs_per_sec"] is None, where


@pytest.mark.parametrize("n", RANKS)
def test_counts_and_datatypes(full_run, n):
    for rec in full_run(n).results():
        name = rec["benchmark"]
        if name in imbtext.SYNC:
            assert rec["bytes"] == 0
        elif name in imbtext.REDUCTIONS:
            assert rec["datatype"] == "MPI_FLOAT" and rec["count"] * 4 == rec["bytes"], name
        else:
            assert rec["datatype"] == "MPI_BYTE" and rec["count"] == rec["bytes"], name
