"""The self-check's "loaded" verdict comes from competition for the cores
measured during the noise probe (docs/measurement.md, "Self-checks before
measuring"), not from the 1-minute load average: launches back to back on a
quiet machine are not flagged (issue 22, item 7), and real competing busy
processes are.

This machine is shared: the quiet case is tested only when the test itself
finds the machine quiet before the launches, and skips, saying what it saw,
otherwise."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from .corerun import run_core

SHORT = ("mpi1", "PingPong", "-msglog", "0:2", "-iter", "10")
RANKS = 2


def runnable_beyond_me(seconds: float = 1.0, samples: int = 20) -> float:
    """Tasks runnable on this machine besides the reading process itself, on average over a few samples."""
    seen = []
    for _ in range(samples):
        with open("/proc/loadavg", encoding="ascii") as f:
            seen.append(int(f.read().split()[3].split("/")[0]) - 1)  # the reader is running while it reads
        time.sleep(seconds / samples)
    return sum(seen) / len(seen)


def loaded_warnings(run) -> list[str]:
    return [e["message"] for e in run.events("loaded") if e["level"] == "warning"]


def only_machine(run) -> dict:
    machines = run.run_record["selfcheck"]["machines"]
    assert len(machines) == 1 and machines[0]["rank"] == 0, machines  # one machine, read by its lowest rank
    return machines[0]


def test_back_to_back_launches_on_a_quiet_machine_are_not_loaded():
    cores = os.cpu_count() or 1
    free = max(cores - RANKS, 0)
    before = runnable_beyond_me()
    if before > free + 0.5:
        pytest.skip(f"other work on this machine: {before:.1f} tasks runnable on average for {cores} cores; "
                    "the quiet case cannot be tested now")
    first = run_core(RANKS, *SHORT)
    second = run_core(RANKS, *SHORT)  # right after: the first launch's ranks are in the load average now
    for run in (first, second):
        assert run.returncode == 0, run.describe()
    check = second.run_record["selfcheck"]
    machine = only_machine(second)
    if check["loaded"]:
        after = runnable_beyond_me()
        if after > free + 0.5:
            pytest.skip(f"other work started during the test ({after:.1f} tasks runnable for {cores} cores)")
        pytest.fail(f"a quiet machine ({before:.1f} and {after:.1f} tasks runnable before and after) was called "
                    f"loaded: {loaded_warnings(second)}; {machine}")
    assert not loaded_warnings(second)
    assert machine["ranks"] == RANKS and machine["cores"] == cores and machine["runnable_samples"] >= 5
    # The ranks themselves were seen running: the count covers them, and nothing is negative.
    assert machine["runnable_max"] >= 1 and machine["beyond_ranks_mean"] >= 0
    # The load average is still recorded, as context.
    assert all(r["load_average_1min"] is not None for r in check["ranks"])


def test_competing_busy_processes_make_it_loaded():
    cores = os.cpu_count() or 1
    spinners = cores + RANKS  # every core taken twice over, whatever the machine
    procs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(spinners)]
    try:
        time.sleep(0.5)  # all of them running before the launch
        run = run_core(RANKS, *SHORT)
    finally:
        for p in procs:
            p.kill()
        for p in procs:
            p.wait()
    assert run.returncode == 0, run.describe()
    check = run.run_record["selfcheck"]
    machine = only_machine(run)
    rule = check["competition_rule"]
    # The spinners are runnable at every sample (other work on the machine only adds to them).
    assert machine["beyond_ranks_mean"] >= spinners - 0.5, machine
    assert machine["beyond_ranks_mean"] > max(cores - RANKS, 0) + rule["slack_tasks"]
    assert machine["loaded"] and check["loaded"]
    [message] = loaded_warnings(run)
    assert message.startswith(f"loaded machine: {machine['beyond_ranks_mean']:.1f} tasks runnable beyond the "
                              f"{RANKS} ranks on average ({machine['runnable_samples']} samples) during the 0.05 s "
                              f"noise probe on the machine of rank 0, which has {cores} cores"), message
    assert "CPU steal" in message
