"""Runs that end early: Ctrl-C, a rank killed, the watchdog. Each keeps what it finished."""

from __future__ import annotations

import os
import signal
import subprocess
import time

import pytest

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
    assert records == complete_records(json_path)  # every whole line the core wrote, nothing else
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
    assert records == complete_records(json_path)
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
    assert row.status == "failed" and records == complete_records(json_path)
    assert_no_process_left(str(json_path))
