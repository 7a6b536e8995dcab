"""Intel MPI (the impi-rt wheel, `mpimark mpi install impi`): list, a two-algorithm study at 2 ranks, tune.

Intel MPI exposes no MPI_T control variable for I_MPI_ADJUST_<OP> (2021.18.1 has only
MPIR_CVAR_ADJUST_SENDRECV_REPLACE*), so the forced id cannot be read back: I_MPI_DEBUG=6 shows that
the library took the variable (it echoes it), not which code ran (an id it lacks is echoed too).
"""

from __future__ import annotations

import os
import subprocess

import pytest

from mpimark.execution import build
from mpimark.storage import studies
from mpimark.storage.store import Store
from tests.algorithms.conftest import mpimark, ok

TINY = ("-msglog", "0:4", "-time", "1", "-iter", "20", "-check")


@pytest.fixture
def impi(available):
    impl = next((i for i in available.values() if i.kind == "impi"), None)
    if impl is None:
        pytest.skip("no Intel MPI: its wheel is not installed here (`mpimark mpi install impi` downloads "
                    "impi-rt/impi-devel from PyPI)")
    return impl


def test_impi_list_study_and_tune(impi, tmp_path):
    listed = ok(mpimark("algorithms", "list", "--mpi", impi.name, "Allreduce", "Alltoall")).stdout
    assert "I_MPI_ADJUST_ALLREDUCE=2" in listed and "not verifiable" in listed
    db = str(tmp_path / "r.db")
    ok(mpimark("algorithms", "study", "Allreduce", "--mpi", impi.name, "-n", "2", "--algorithms", "Allreduce:1,2",
               "--study", "i", "--db", db, *TINY))
    with Store(db) as store:
        assert sorted(m.implementation for m in studies.members(store, "i")) == [
            "Allreduce:Rabenseifner's", "Allreduce:Recursive doubling", "Allreduce:default"]
    out = tmp_path / "adjust.sh"
    ok(mpimark("algorithms", "tune", "i", "-o", str(out), "--db", db))
    assert out.read_text().startswith("export I_MPI_ADJUST_ALLREDUCE='")


def test_impi_takes_the_adjust_variable(impi):
    core = build.ensure_core(impi)
    env = {**os.environ, **impi.env, "I_MPI_ADJUST_ALLREDUCE": "2", "I_MPI_DEBUG": "6"}
    run = subprocess.run([impi.mpiexec, "-n", "2", str(core), "mpi1", "Allreduce", *TINY], env=env,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert "I_MPI_ADJUST_ALLREDUCE=2" in run.stdout + run.stderr
