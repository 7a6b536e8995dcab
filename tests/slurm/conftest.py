"""mpimark under a real Slurm: the one-node Slurm of scripts/slurm-local.sh.

The session starts it when it is not running (root with apt-get: it installs
slurm-wlm and munge) and skips every test here, saying why, where it cannot.
Builds go to a cache private to the session, and each job's directory and
results database to the test's own tmp_path.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mpimark.execution import mpi

ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT_S = 600  # apt-get install slurm-wlm on a fresh machine
TIMEOUT_S = 180


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: takes a minute or more (a job's time limit running out)")


@pytest.fixture(scope="session")
def slurm() -> None:
    """A running Slurm, or a skip saying why there is none."""
    script = ROOT / "scripts" / "slurm-local.sh"
    # Under pytest-xdist two workers may get here at once: one starts Slurm,
    # the other waits and finds it running.
    with open(Path(os.environ.get("TMPDIR", "/tmp")) / "mpimark-tests-slurm.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        _start_slurm(script)


def _start_slurm(script: Path) -> None:
    status = subprocess.run(["bash", str(script), "status"], capture_output=True, text=True)
    if status.returncode == 0:
        return
    if os.geteuid() != 0:
        pytest.skip("no Slurm running, and starting scripts/slurm-local.sh needs root")
    if shutil.which("slurmctld") is None and shutil.which("apt-get") is None:
        pytest.skip("no Slurm, and no apt-get to install slurm-wlm")
    try:
        started = subprocess.run(["bash", str(script), "start"], capture_output=True, text=True,
                                 timeout=START_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        pytest.skip(f"scripts/slurm-local.sh start did not finish in {START_TIMEOUT_S} s")
    if started.returncode != 0:
        why = (started.stderr.strip().splitlines() or ["no message"])[-1]
        pytest.skip(f"scripts/slurm-local.sh start failed: {why}")


@pytest.fixture(scope="session")
def available(system_mpis) -> dict[str, mpi.MpiImpl]:
    return system_mpis


def mpimark(*args: str, db: Path, timeout: float = TIMEOUT_S, prefix: tuple[str, ...] = (),
            cwd: Path | None = None) -> subprocess.CompletedProcess:
    """mpimark ARGS with --db-like MPIMARK_DB, optionally under a prefix (salloc -n 2)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("SLURM_")}  # pytest may itself run in a job
    env["MPIMARK_DB"] = str(db)
    return subprocess.run([*prefix, sys.executable, "-m", "mpimark.cli", *args], capture_output=True, text=True,
                          timeout=timeout, env=env, cwd=cwd)


def wait_for(predicate, timeout: float, what: str, step: float = 1.0):
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            pytest.fail(f"{what}: not within {timeout} s")
        time.sleep(step)
