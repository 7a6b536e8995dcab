"""What goes wrong before or at the start of a run ends in one clear line."""

from __future__ import annotations

import os
import sqlite3

import pytest

from mpimark.storage.store import Store

from .conftest import mpimark


def error_lines(result) -> list[str]:
    assert "Traceback" not in result.stderr
    return [line for line in result.stderr.splitlines() if line.startswith("mpimark: error: ")]


def test_unknown_implementation(available):
    result = mpimark("run", "PingPong", "-n", "2", "--mpi", "no-such-mpi")
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        f"mpimark: error: unknown MPI implementation 'no-such-mpi'; found: {', '.join(available)} "
        "(see 'mpimark mpi list')"]


def test_unknown_benchmark_is_the_cores_one_line(available, db):
    if not available:
        pytest.skip("no MPI on this machine")
    for name in available:
        result = mpimark("run", "mpi1", "NoSuchBenchmark", "-n", "2", "--mpi", name, "--db", str(db))
        assert result.returncode == 2  # the core's exit status for bad input, passed on
        assert error_lines(result) == [
            "mpimark: error: unknown benchmark 'NoSuchBenchmark' in suite mpi1; run 'mpimark list mpi1' "
            "to see the names (nothing stored)"]
        with Store(db) as store:
            assert store.runs() == []  # no empty failed run for a typo
        # No launcher epilogue ("Primary job terminated normally, ..."): ours and the error only.
        assert all(line.startswith("mpimark: ") for line in result.stderr.splitlines()), result.stderr


def test_a_prefix_without_a_compiler(tmp_path):
    result = mpimark("run", "PingPong", "-n", "2", "--mpi-prefix", str(tmp_path))
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        f"mpimark: error: no MPI C compiler at {tmp_path}/bin/mpicc; give --mpi-prefix the directory that holds bin/mpicc"]


def test_a_database_locked_for_longer_than_the_wait(available, db):
    if not available:
        pytest.skip("no MPI on this machine")
    Store(db).close()  # an mpimark database, which another process is writing
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        result = mpimark("run", "PingPong", "-n", "2", "-msglog", "0:1", "--db", str(db), timeout=60,
                         env={"MPIMARK_LOCK_WAIT_S": "1"})
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert result.returncode == 1
    [line] = error_lines(result)
    # The holder (this test's process) is named, so the user knows whom they wait for.
    assert line.startswith(f"mpimark: error: the results database {db} stayed locked by another process "
                           f"(open in pid {os.getpid()} (")
    assert line.endswith("for 1 s (MPIMARK_LOCK_WAIT_S): could not begin the run; try again once it is done, "
                         "or use --db")
    assert "Traceback" not in result.stderr
    with Store(db) as store:
        assert store.runs() == []  # nothing launched, nothing half stored


@pytest.mark.parametrize("command", [("run", "PingPong", "-n", "2"), ("matrix", "--mpi", "openmpi", "-n", "2"),
                                     ("algorithms", "study", "Allreduce", "-n", "2")])
@pytest.mark.parametrize("value, why", [("0", "0 launches measure nothing"), ("-1", "-1 launches measure nothing"),
                                        ("abc", "'abc' is not a number of launches"),
                                        ("1001", "1001 is more launches than one command makes (1000)")])
def test_a_bad_launch_count_launches_nothing(db, command, value, why):
    result = mpimark(*command, "--launches", value, "--db", str(db))
    assert result.returncode == 2
    assert len(result.stderr.splitlines()) == 1 and why in error_lines(result)[0]
    assert not db.exists()  # nothing built, launched or stored: the option is read first
