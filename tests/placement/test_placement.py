"""Ranks on the hosts and in the numbers asked for, settings in every rank, under Open MPI and MPICH.

Two fake hosts (conftest.py), two ranks on each: the core's run record says
where every rank ran, the store keeps what was asked for, `show` and `runs`
print both, and a run launched by hand is imported from its stream.
"""

from __future__ import annotations

import json
import os
import subprocess

import pytest

from mpimark.execution import build
from mpimark.records.results import read_records
from mpimark.storage.store import Store

from .conftest import FAKE_RSH, LAUNCHER_ARGS, LAUNCHER_ENV, launcher_args, mpimark, MPIS, TIMEOUT_S

# Two sizes, 20 iterations each: 4 MPICH ranks on 2 cores busy-poll (an Allreduce takes ~10 ms), and
# -time only caps the time, so a larger plan would skip sizes on a loaded machine.
SMALL = ("-msglog", "0:1", "-iter", "20", "-iter_policy", "off", "-time", "60")
BENCHMARKS = ("mpi1", "PingPong", "Allreduce", *SMALL)
SETTING = "MPIMARK_TEST_SETTING"


def hosts_of(run: dict) -> list[str]:
    return [rank["host"] for rank in run["ranks"]]


def cpus(text: str) -> set[int]:
    found = set()
    for part in text.split(","):
        first, _, last = part.partition("-")
        found.update(range(int(first), int(last or first) + 1))
    return found


@pytest.mark.parametrize("name", MPIS)
def test_two_hosts_two_ranks_each(need, fake_hosts, rsh_log, tmp_path, name):
    impl = need(name)
    db, stream = tmp_path / "results.db", tmp_path / "run.jsonl"
    # The setting in mpimark's own environment too: the ranks must get --env's value, through the launcher.
    result = mpimark(impl, "run", *BENCHMARKS, "-n", "4", "--mpi", name, "--hosts", "mm-node1,mm-node2", "--ppn", "2",
                     "--env", f"{SETTING}=through the launcher", *launcher_args(impl),
                     "--db", str(db), "--json", str(stream), env={SETTING: "mpimark's own"})
    assert result.returncode == 0, result.stderr

    run = read_records(stream)[0]  # the core's stream, checked against the schema
    assert run["hosts"] == ["mm-node1", "mm-node2"] and run["nodes"] == 2
    assert run["ranks_per_node"] == [2, 2]
    assert hosts_of(run) == ["mm-node1", "mm-node1", "mm-node2", "mm-node2"]  # filled in order, 2 at a time
    assert [rank["env"] for rank in run["ranks"]] == [{SETTING: "through the launcher"}] * 4
    # The launcher reached each host through the stand-in for ssh, not as this machine.
    reached = {line.split()[0] for line in rsh_log.read_text().splitlines()}
    assert reached == {"mm-node1", "mm-node2"}

    with Store(db) as store:
        row = store.run(1)
    assert (row.status, row.processes, row.nodes, row.ranks_per_node) == ("complete", 4, 2, [2, 2])
    assert row.placement == {"hosts": ["mm-node1", "mm-node2"], "hostfile": None, "ppn": 2, "bind": None,
                             "env": {SETTING: "through the launcher"}, "launcher_args": LAUNCHER_ARGS[impl.kind]}
    words = {"openmpi": ["--host", "mm-node1:2,mm-node2:2", "-x", f"{SETTING}=through the launcher"],
             "mpich": ["-hosts", "mm-node1,mm-node2", "-ppn", "2", "-genv", SETTING, "through the launcher"]}[name]
    assert " ".join(words) in " ".join(row.launch_command)

    shown = mpimark(impl, "show", "1", "--db", str(db)).stdout
    assert ("placement: hosts mm-node1,mm-node2; 2 per node; env MPIMARK_TEST_SETTING=through the launcher"
            in shown)
    assert "ranks: 2 nodes × 2 ranks per node; mm-node1: ranks 0-1 on cpus" in shown
    assert f"rank env: {SETTING}=through the launcher in all 4 ranks" in shown
    listed = mpimark(impl, "runs", "--db", str(db)).stdout
    assert "2 × 2" in listed


@pytest.mark.parametrize("name", MPIS)
@pytest.mark.parametrize("bind", ["core", "none"])
def test_binding_shows_in_each_ranks_cpus(need, fake_hosts, tmp_path, name, bind):
    impl = need(name)
    stream = tmp_path / "run.jsonl"
    result = mpimark(impl, "run", "mpi1", "PingPong", *SMALL, "-n", "4", "--mpi", name,
                     "--hosts", "mm-node1,mm-node2", "--bind", bind, *launcher_args(impl),
                     "--db", str(tmp_path / "results.db"), "--json", str(stream))
    assert result.returncode == 0, result.stderr
    run = read_records(stream)[0]
    allowed = os.sched_getaffinity(0)
    assert hosts_of(run) == ["mm-node1", "mm-node1", "mm-node2", "mm-node2"]  # no --ppn: ceil(4 / 2)
    for rank in run["ranks"]:
        assert rank["cpu"] in cpus(rank["cpus"])
        if bind == "core":
            assert len(cpus(rank["cpus"])) <= 2  # one core (its hardware threads)
        else:
            assert cpus(rank["cpus"]) == allowed
    if bind == "core" and len(allowed) >= 2:  # two ranks of a host on two different cores
        for host in ("mm-node1", "mm-node2"):
            mine = [cpus(r["cpus"]) for r in run["ranks"] if r["host"] == host]
            assert not mine[0] & mine[1]


def test_a_hostfile_with_counts_and_fewer_ranks(need, fake_hosts, tmp_path):
    impl = need("mpich")
    hostfile = tmp_path / "nodes"
    hostfile.write_text("# two ranks on each\nmm-node1 slots=2\nmm-node2:2\n")
    stream = tmp_path / "run.jsonl"
    result = mpimark(impl, "run", "mpi1", "PingPong", *SMALL, "-n", "3", "--mpi", "mpich",
                     "--hostfile", str(hostfile), "--db", str(tmp_path / "results.db"), "--json", str(stream))
    assert result.returncode == 0, result.stderr
    run = read_records(stream)[0]
    assert hosts_of(run) == ["mm-node1", "mm-node1", "mm-node2"] and run["ranks_per_node"] == [2, 1]


@pytest.mark.parametrize("name", MPIS)
def test_a_run_launched_by_hand_is_imported_from_its_stream(need, fake_hosts, tmp_path, name):
    impl = need(name)
    core = build.ensure_core(impl)
    stream = tmp_path / "by-hand.jsonl"
    where = {"openmpi": ["--host", "mm-node1:2,mm-node2:2", "-x", f"{SETTING}=by hand",
                         "-x", f"MPIMARK_RECORD_ENV={SETTING}", *(["--allow-run-as-root"] if os.geteuid() == 0 else []),
                         *LAUNCHER_ARGS["openmpi"]],
             "mpich": ["-hosts", "mm-node1,mm-node2", "-ppn", "2", "-genv", SETTING, "by hand",
                       "-genv", "MPIMARK_RECORD_ENV", SETTING]}[name]
    job = subprocess.run([impl.mpiexec, *where, "-n", "4", str(core), *BENCHMARKS, "-json", str(stream)],
                         capture_output=True, text=True, timeout=TIMEOUT_S,
                         env={**os.environ, **impl.env, **LAUNCHER_ENV[impl.kind]})
    assert job.returncode == 0, job.stderr
    db = tmp_path / "results.db"
    imported = mpimark(impl, "import", str(stream), "--mpi", name, "--db", str(db))
    assert imported.returncode == 0, imported.stderr
    with Store(db) as store:
        row, records = store.run(1), store.records(1)
    assert records == [json.loads(line) for line in stream.read_text().splitlines()]
    assert (row.status, row.suite, row.mpi_name, row.nodes, row.ranks_per_node) == ("complete", "mpi1", name, 2, [2, 2])
    assert f"rank env: {SETTING}=by hand in all 4 ranks" in mpimark(impl, "show", "1", "--db", str(db)).stdout
    assert str(FAKE_RSH)  # (the launcher reached the hosts through it: LAUNCHER_ENV)
