"""The `mpimark` command against the real MPI installations of this machine.

Builds go to a cache private to the test session (XDG_CACHE_HOME), results
to a database per test; every subprocess has a time limit, so nothing hangs.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mpimark.execution import mpi

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT_S = 120
# A run that gives its first results within a fraction of a second and then
# takes half a minute or more: a fixed 10000 iterations per size, up to 16 MiB.
LONG_RUN = ("mpi1", "PingPong", "-msglog", "0:24", "-iter", "10000", "-iter_policy", "off", "-time", "60")


@pytest.fixture(scope="session")
def available(system_mpis) -> dict[str, mpi.MpiImpl]:
    return system_mpis


@pytest.fixture
def db(tmp_path) -> Path:
    return tmp_path / "results.db"


def command(*args: str) -> list[str]:
    return [sys.executable, "-m", "mpimark.cli", *args]


def mpimark(*args: str, timeout: float = TIMEOUT_S, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(command(*args), capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, **(env or {})})


def complete_records(path: Path) -> list[dict]:
    """The whole lines of a results file being written (a last, partial line is left out)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return []
    return [json.loads(line) for line in text.split("\n")[:-1] if line.strip()]


def wait_for_results(path: Path, count: int, job: subprocess.Popen, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while sum(r["type"] == "result" for r in complete_records(path)) < count:
        if job.poll() is not None:
            pytest.fail(f"mpimark ended (status {job.returncode}) before {count} results: {job.stderr.read()}")
        if time.monotonic() > deadline:
            job.kill()
            pytest.fail(f"no {count} results in {timeout} s")
        time.sleep(0.05)


def processes_mentioning(text: str) -> list[int]:
    """Processes whose command line holds text (a run's unique -json path)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit() and int(entry) != os.getpid():
            try:
                cmdline = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            except OSError:
                continue
            if text in cmdline:
                found.append(int(entry))
    return found


def process_name(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return ""


def assert_no_process_left(text: str, within: float = 5) -> None:
    deadline = time.monotonic() + within
    while True:
        alive = [pid for pid in processes_mentioning(text)
                 if Path(f"/proc/{pid}/stat").exists() and Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"]
        if not alive:
            return
        if time.monotonic() > deadline:
            pytest.fail(f"processes of the run still there: {[(p, process_name(p)) for p in alive]}")
        time.sleep(0.1)
