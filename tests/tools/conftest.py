"""The core's three tools through the `mpimark` commands, under the real MPIs of this machine.

Every test launches `python -m mpimark.cli` as a user would, with a database
and an output directory of its own, and a time limit. The cores come from
the session's private build cache (tests/conftest.py; mpimark builds what is missing).

Open MPI runs with OMPI_MCA_mpi_yield_when_idle=1: this machine is shared with
other jobs, and Open MPI's busy polling with two ranks on two cores made a
b_eff -short -test run take 49 s instead of 4 s when other jobs held the
cores. MPICH (ch4:ucx) has no such switch: oversubscribed (3 and 4 ranks on
2 cores) every synchronisation costs a scheduler time slice, so b_eff, whose
shortest mode still makes about 2500 pattern measurements, takes minutes
there (54 s and 102 s at a load average of 5-7, 196 s and over 240 s at 11-17).
So every tool runs MPICH at 2 ranks and Open MPI at 2, 3 and 4; MPICH's 3 and
4 are marked slow (cases(); MPIMARK_SLOW=1 runs them).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from mpimark.execution import mpi

ROOT = Path(__file__).resolve().parents[2]
ENV_FILE = ROOT / ".venv" / "mpimark-env.sh"
TIMEOUT_S = 240
QUIET_OPEN_MPI = {"OMPI_MCA_mpi_yield_when_idle": "1"}
RANKS = (2, 3, 4)
MPIS = ("openmpi", "mpich")


def cases():
    """(MPI, ranks) for every MPI at every count, as pytest params "mpich-4". MPICH's oversubscribed
    counts (3 and 4 ranks on 2 cores) are marked slow: its ranks busy-poll, so they cost several
    times Open MPI's (mpibench 14 s against 3 s, under load), and Open MPI's 3 and 4 already check
    what the count changes (communicators, rows per rank, the tables); MPICH's own launch path is
    checked at 2 ranks. MPIMARK_SLOW=1 runs them."""
    for name in MPIS:
        for n in RANKS:
            marks = [pytest.mark.slow] if name == "mpich" and n > 2 else []
            yield pytest.param(name, n, marks=marks, id=f"{name}-{n}")


@pytest.fixture(scope="session", autouse=True)
def setup_env() -> None:
    """What scripts/setup.sh exports (PATH, Open MPI's root permission), as a user's shell has it."""
    if not ENV_FILE.is_file():
        pytest.fail(f"{ENV_FILE} is missing: run 'bash scripts/setup.sh' first", pytrace=False)
    out = subprocess.run(["bash", "-c", f'. "{ENV_FILE}" && env -0'], check=True, capture_output=True,
                         timeout=30).stdout.decode()
    for item in out.split("\0"):
        key, _, value = item.partition("=")
        if key and key not in ("_", "SHLVL", "PWD", "OLDPWD"):
            os.environ[key] = value


@pytest.fixture(scope="session")
def available(setup_env) -> dict[str, mpi.MpiImpl]:
    return {impl.name: impl for impl in mpi.discover()[0] if impl.kind != mpi.SMPI}  # not the simulator


def mpimark(*args: str, timeout: float = TIMEOUT_S, env: dict[str, str] | None = None,
            cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mpimark.cli", *args], capture_output=True, text=True,
                          timeout=timeout, env={**os.environ, **QUIET_OPEN_MPI, **(env or {})}, cwd=cwd)


def ok(result: subprocess.CompletedProcess) -> subprocess.CompletedProcess:
    assert result.returncode == 0, f"exit {result.returncode}\n{result.stderr}\n{result.stdout[-3000:]}"
    assert "Traceback" not in result.stderr
    return result


def error_line(result: subprocess.CompletedProcess, exit_code: int = 1) -> str:
    """The failure's one `mpimark: error:` line (mpimark's own notes may come before it)."""
    assert result.returncode == exit_code, f"exit {result.returncode}\n{result.stderr}"
    assert "Traceback" not in result.stderr
    errors = [line for line in result.stderr.splitlines() if line.startswith("mpimark: error: ")]
    assert len(errors) == 1, result.stderr
    assert all(line.startswith("mpimark: ") for line in result.stderr.splitlines()), result.stderr
    return errors[0]


def stored_as(result: subprocess.CompletedProcess) -> list[int]:
    """The run ids of `mpimark: stored as run(s) ...`."""
    line = next(line for line in result.stderr.splitlines() if line.startswith("mpimark: stored as run"))
    ids = line.split("stored as run", 1)[1].lstrip("s ").split(" in ")[0]
    if "-" in ids:
        first, last = ids.split("-")
        return list(range(int(first), int(last) + 1))
    return [int(i) for i in ids.split(", ")]
