"""`mpimark run` end to end: launched, streamed, stored, read back."""

from __future__ import annotations

import json

import pytest

from mpimark.execution import build, launch
from mpimark.records.results import core_records, read_records
from mpimark.storage.store import Store

from .conftest import mpimark


@pytest.mark.parametrize("name", ["openmpi", "mpich"])
def test_a_run_is_stored_field_for_field(need, name, db, tmp_path):
    impl = need(name)
    json_path = tmp_path / "run.jsonl"
    # -time only caps iterations (at most -iter's 1000 anyway) and sets the time-out ((sizes - 1) * time):
    # 30 s rather than 0.2 keeps a busy-polling MPI on a loaded machine (MPICH ranks descheduled for
    # milliseconds) clear of time-outs, which skip sizes, without making an unloaded run any longer.
    result = mpimark("run", "mpi1", "PingPong", "Allreduce", "-n", "2", "-msglog", "0:3", "-time", "30",
                     "--mpi", name, "--db", str(db), "--json", str(json_path))
    assert result.returncode == 0, result.stderr
    assert "# Benchmarking PingPong" in result.stdout and "# Benchmarking Allreduce" in result.stdout
    assert result.stderr.splitlines()[-1] == f"mpimark: stored as run 1 in {db}"

    written = read_records(json_path)  # the core's own file, checked against the schema
    with Store(db) as store:
        row, stored = store.run(1), store.records(1)
    assert core_records(stored) == written
    assert [r["kind"] for r in stored if r not in written] == ["machine"]  # mpimark's own, after the run record
    assert [r["type"] for r in written][0] == "run" and written[-1]["type"] == "end"
    assert {r["benchmark"] for r in written if r["type"] == "result"} == {"PingPong", "Allreduce"}
    assert row.results == sum(r["type"] == "result" for r in written) == written[-1]["results"]
    assert (row.status, row.status_message, row.mpi_name, row.requested_processes, row.processes) == (
        "complete", None, name, 2, 2)
    assert row.mpi_library_version == written[0]["mpi"]["library_version"] == impl.library_version
    assert row.launch_command[0] == impl.mpiexec and row.launch_command[-2:] == ["-json", str(json_path)]


def test_the_launcher_of_one_mpi_with_a_core_of_another(need, tmp_path):
    openmpi, mpich = need("openmpi"), need("mpich")
    for launcher, core_for in ((openmpi, mpich), (mpich, openmpi)):
        json_path = tmp_path / f"{launcher.name}.jsonl"
        argv, env = launch.command(launcher, 2, build.ensure_core(core_for), "mpi1",
                                   ["PingPong", "-msglog", "0:2", "-time", "0.2"], json_path)
        outcome = launch.run(argv, env, json_path, lambda record: None, impl=launcher, processes=2, quiet=True)
        assert outcome.status == "failed"
        assert f"the launcher of {launcher.name} ({launcher.vendor} {launcher.version})" in outcome.message
        assert f"built for {core_for.vendor} {core_for.version}" in outcome.message
        # One singleton wrote the file, the others /dev/null: whole lines, one run record.
        lines = json_path.read_text().splitlines()
        assert [json.loads(line)["type"] for line in lines].count("run") == 1 and "\0" not in json_path.read_text()


def test_out_of_memory_rows_exit_3(need, db):
    need("openmpi")
    result = mpimark("run", "mpi1", "PingPong", "-n", "2", "-msglog", "18:19", "-mem", "0.0001", "-iter", "10",
                     "--mpi", "openmpi", "--quiet", "--db", str(db))
    assert result.returncode == 3, result.stderr  # the core's status: some sizes did not fit in memory
    assert "did not fit in memory" in result.stderr.splitlines()[-1]
    assert "needs 0.5 MB per process" in result.stderr and "0.000 GB" not in result.stderr  # a unit that fits
    with Store(db) as store:
        assert store.run(1).status == "incomplete"


def test_two_launches_are_stored_as_one_measurement(need, db):
    need("openmpi")
    result = mpimark("run", "--launches", "2", "mpi1", "PingPong", "-n", "2", "-msglog", "0:2", "-time", "30",
                     "--mpi", "openmpi", "--quiet", "--db", str(db))
    assert result.returncode == 0, result.stderr
    assert result.stderr.splitlines()[-1] == (f"mpimark: stored 2 launches as runs 1-2 (measurement 1) in {db}: "
                                              "mpimark compare 1-2 OTHER")
    with Store(db) as store:
        rows = [store.run(1), store.run(2)]
        assert store.measurement_runs(1) == [1, 2]
    assert [(row.status, row.measurement, row.processes, row.results) for row in rows] == [
        ("complete", 1, 2, 4), ("complete", 1, 2, 4)]  # PingPong at 0, 1, 2 and 4 bytes (-msglog 0:2 and 0)
    assert rows[0].launch_command[:-1] == rows[1].launch_command[:-1]  # one condition; each its own stream file
    compared = mpimark("compare", "1", "2-2", "--db", str(db))  # run 1: its measurement (1-2), against run 2 alone
    assert compared.returncode == 0, compared.stderr
    assert "(runs 1, 2)" in compared.stdout and "(run 2)" in compared.stdout


def test_two_live_launches_one_a_side_never_fail_the_gate_and_say_launches_decide(need, db):
    # Issue 22: two identical 2-rank Allreduce launches failed the old gate against each other in both
    # directions (their samples taken as independent evidence). One launch a side decides nothing.
    need("openmpi")
    for _ in range(2):
        result = mpimark("run", "mpi1", "Allreduce", "-n", "2", "-msglog", "0:10", "-time", "30",
                         "--mpi", "openmpi", "--quiet", "--db", str(db))
        assert result.returncode == 0, result.stderr
    for a, b in (("1", "2"), ("2", "1")):
        gated = mpimark("compare", a, b, "--fail-if-slower", "5%", "--db", str(db))
        assert gated.returncode == 4, gated.stdout + gated.stderr
        assert "Launches decide" in gated.stdout and "UNDECIDED (exit 4)" in gated.stdout
        assert all(line.rstrip("│ ").endswith("?") for line in gated.stdout.splitlines()
                   if line.startswith("│ Allreduce"))
