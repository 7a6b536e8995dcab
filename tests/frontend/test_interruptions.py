"""Runs that end early: Ctrl-C, a rank killed, the watchdog. Each keeps what it finished."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from mpimark.records.results import core_records
from mpimark.storage.store import Store

from .conftest import LONG_RUN, assert_no_process_left, command, complete_records, process_name, \
    processes_mentioning, wait_for_results

GIVE_UP_S = 30  # an interruption that takes longer than this is a failure


def start(name: str, db, json_path, *extra: str) -> subprocess.Popen:
    return subprocess.Popen(command("run", *LONG_RUN, "-n", "2", "--mpi", name, "--quiet", "--db", str(db),
                                    "--json", str(json_path), *extra),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def finish(job: subprocess.Popen) -> tuple[str, float]:
    started = time.monotonic()
    try:
        _, err = job.communicate(timeout=GIVE_UP_S)
    except subprocess.TimeoutExpired:
        job.kill()
        pytest.fail(f"mpimark did not end within {GIVE_UP_S} s")
    return err, time.monotonic() - started


def stored(db) -> tuple:
    with Store(db) as store:
        return store.run(1), store.records(1)


@pytest.mark.parametrize("name", ["openmpi", "mpich"])
def test_ctrl_c_keeps_the_finished_rows_and_marks_the_run_interrupted(need, name, db, tmp_path):
    need(name)
    json_path = tmp_path / "run.jsonl"
    job = start(name, db, json_path)
    wait_for_results(json_path, 3, job)
    job.send_signal(signal.SIGINT)
    err, took = finish(job)
    assert job.returncode == 130, err
    assert err.splitlines()[-1].startswith("mpimark: error: run 1 interrupted: the job was ended on SIGINT; the ")
    row, records = stored(db)
    assert row.status == "interrupted" and row.results >= 3
    assert core_records(records) == complete_records(json_path)  # every whole line the core wrote, nothing else
    assert_no_process_left(str(json_path))
    print(f"{name}: interrupted run ended {took:.2f} s after SIGINT")


@pytest.mark.parametrize("name", ["openmpi", "mpich"])
def test_a_killed_rank_keeps_the_rows_and_marks_the_run_incomplete(need, name, db, tmp_path):
    need(name)
    json_path = tmp_path / "run.jsonl"
    job = start(name, db, json_path)
    wait_for_results(json_path, 3, job)
    ranks = [pid for pid in processes_mentioning(str(json_path)) if process_name(pid) == "mpimark-core"]
    assert len(ranks) == 2, ranks
    os.kill(ranks[-1], signal.SIGKILL)
    err, took = finish(job)
    assert job.returncode == 1, err
    line = err.splitlines()[-1]
    assert line.startswith("mpimark: error: run 1 incomplete: a rank died: ") and "before the run's end record" in line
    row, records = stored(db)
    assert row.status == "incomplete" and row.results >= 3
    assert core_records(records) == complete_records(json_path)
    assert_no_process_left(str(json_path))
    print(f"{name}: run with a killed rank ended {took:.2f} s after the kill")


def test_the_watchdog_ends_a_long_run(available, db, tmp_path):
    if not available:
        pytest.skip("no MPI on this machine")
    json_path = tmp_path / "run.jsonl"
    started = time.monotonic()
    job = start(next(iter(available)), db, json_path, "--timeout", "3")
    err, _ = finish(job)
    took = time.monotonic() - started
    assert job.returncode == 1 and took < 10, (took, err)
    assert "failed: timed out after 3 s (--timeout); the job was killed" in err.splitlines()[-1]
    row, records = stored(db)
    assert row.status == "failed" and core_records(records) == complete_records(json_path)
    assert_no_process_left(str(json_path))


def _stream_beside(db, job: subprocess.Popen) -> Path:
    """The stream file of the one launch under way, beside the database (recording.run_stored)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        found = list(Path(f"{db}.streams").glob("*.jsonl"))
        if found:
            return found[0]
        if job.poll() is not None:
            pytest.fail(f"mpimark ended (status {job.returncode}): {job.stderr.read()}")
        time.sleep(0.05)
    pytest.fail("no stream file beside the database")


@pytest.mark.parametrize("name", ["openmpi", "mpich"])
def test_a_killed_mpimark_leaves_no_job_and_its_run_is_recovered(need, name, db):
    """kill -9 of mpimark while a rank is stopped: the guard ends the job; `runs` stores the stream."""
    need(name)
    job = subprocess.Popen(command("run", *LONG_RUN, "-n", "2", "--mpi", name, "--quiet", "--db", str(db)),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    stream = _stream_beside(db, job)
    wait_for_results(stream, 3, job)
    ranks = [pid for pid in processes_mentioning(str(stream)) if process_name(pid) == "mpimark-core"]
    assert len(ranks) == 2, ranks
    os.kill(ranks[-1], signal.SIGSTOP)  # as when the issue was found: a rank stopped at that moment
    job.kill()
    job.communicate(timeout=GIVE_UP_S)
    assert_no_process_left(str(stream), within=15)
    assert stored(db)[0].status == "running"
    result = subprocess.run(command("runs", "--db", str(db)), capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "run 1: mpimark (pid" in result.stderr and "died during the run" in result.stderr
    row, records = stored(db)
    assert row.status == "incomplete" and row.results >= 3
    assert records == complete_records(stream) or not stream.exists()
    assert not stream.exists() and list(Path(f"{db}.streams").iterdir()) == []  # nothing left behind


def test_sighup_ends_a_run_like_sigterm(need, db, tmp_path):
    need("openmpi")
    json_path = tmp_path / "run.jsonl"
    job = start("openmpi", db, json_path)
    wait_for_results(json_path, 3, job)
    job.send_signal(signal.SIGHUP)  # the terminal went away
    err, _ = finish(job)
    assert job.returncode == 130, err
    assert "interrupted: the job was ended on SIGHUP" in err.splitlines()[-1]
    assert stored(db)[0].status == "interrupted"
    assert_no_process_left(str(json_path))
