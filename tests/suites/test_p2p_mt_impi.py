"""The p2p and mt suites against the real IMB-P2P and IMB-MT of the Intel MPI
wheel (`mpimark mpi install impi` ships both in its bin/): the same command
line gives the same tables (names, stencil grids, process and thread lines,
window lines, column headers), the same rows (#bytes, #repetitions) and the
same invalid-process-count lines. Only the figures differ (another library,
a loaded machine).

The core runs under Open MPI (build/core), IMB under Intel MPI: what is
compared does not depend on the library. IMB-MT needs Intel's OpenMP runtime
libiomp5.so, which the wheel leaves out (the intel-openmp wheel has it; it is
looked for on LD_LIBRARY_PATH and in this Python's lib/)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from integration.corerun import run_core

from . import ptpmt_text

P2P_ARGS = ("-msglog", "0:2", "-iter", "10", "-pause", "0")
MT_ARGS = ("-thread_level", "multiple", "-count", "1,2", "-repeat", "10", "-warmup", "1")
MT_ENV = {"OMP_NUM_THREADS": "2", "OMP_WAIT_POLICY": "passive"}


@pytest.fixture(scope="module")
def impi(system_mpis):
    impl = next((i for i in system_mpis.values() if i.kind == "impi"), None)
    if impl is None:
        pytest.skip("no Intel MPI: its wheel is not installed here (`mpimark mpi install impi` downloads "
                    "impi-rt/impi-devel from PyPI)")
    return impl


def run_imb(impi, program: str, n: int, args: tuple[str, ...], extra_env: dict | None = None) -> str:
    binary = Path(impi.prefix) / "bin" / program
    if not binary.exists():
        pytest.skip(f"the Intel MPI wheel at {impi.prefix} has no {program}")
    env = {**os.environ, **impi.env, **(extra_env or {}), "I_MPI_FABRICS": "shm"}
    paths = [impi.env.get("LD_LIBRARY_PATH", ""), os.environ.get("LD_LIBRARY_PATH", ""), str(Path(sys.prefix) / "lib")]
    env["LD_LIBRARY_PATH"] = ":".join(p for p in paths if p)
    result = subprocess.run([impi.mpiexec, "-n", str(n), str(binary), *args], capture_output=True, text=True,
                            timeout=180, env=env)
    if result.returncode != 0 and "libiomp5" in result.stderr:
        pytest.skip(f"{program} needs libiomp5.so (Intel's OpenMP runtime, the intel-openmp wheel), not found here")
    assert result.returncode == 0, result.stderr
    return result.stdout


def shape(text: ptpmt_text.Text) -> list[tuple]:
    """What must be the same: every table's title, lines and columns, and its rows' sizes and repetitions."""
    return [(t.name, t.grid, t.processes, t.threads, t.window, t.ok, t.columns,
             [row[:t.columns.index("#repetitions") + 1] for row in t.rows]) for t in text.tables]


def size_lines(text: ptpmt_text.Text) -> list[str]:
    return [line for line in text.header if "message length" in line or line.startswith("# List of")]


@pytest.mark.parametrize("n", (2, 4))
def test_p2p_tables_match_imb_p2p(impi, n):
    theirs = ptpmt_text.parse(run_imb(impi, "IMB-P2P", n, P2P_ARGS))
    ours = run_core(n, "p2p", *P2P_ARGS, json=False, timeout=120)
    assert ours.returncode == 0, ours.stderr
    mine = ptpmt_text.parse(ours.stdout)
    assert shape(mine) == shape(theirs)
    assert mine.invalid == theirs.invalid
    assert size_lines(mine) == size_lines(theirs)


def test_mt_tables_match_imb_mt(impi):
    theirs = ptpmt_text.parse(run_imb(impi, "IMB-MT", 2, MT_ARGS, MT_ENV))
    ours = run_core(2, "mt", *MT_ARGS, json=False, env=MT_ENV, timeout=120)
    assert ours.returncode == 0, ours.stderr
    assert shape(ptpmt_text.parse(ours.stdout)) == shape(theirs)
