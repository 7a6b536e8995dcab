"""`mpimark mpi list` and `mpimark build` on this machine's MPIs."""

from __future__ import annotations

import os
import shutil

import pytest

from .conftest import ROOT, mpimark

DEBIAN = {  # name: (Debian's wrapper, its launchers, vendor)
    "openmpi": ("/usr/bin/mpicc.openmpi", ("/usr/bin/mpiexec.openmpi",), "Open MPI"),
    "mpich": ("/usr/bin/mpicc.mpich", ("/usr/bin/mpiexec.hydra", "/usr/bin/mpiexec.mpich"), "MPICH"),
}


@pytest.mark.parametrize("name", sorted(DEBIAN))
def test_mpi_list_finds_debians_mpis(name):
    wrapper, launchers, vendor = DEBIAN[name]
    if not os.path.exists(wrapper):
        pytest.skip(f"{wrapper} is not installed")
    result = mpimark("mpi", "list")
    assert result.returncode == 0, result.stderr
    rows = [[cell.strip() for cell in line.strip("│").split("│")] for line in result.stdout.splitlines() if "│" in line]
    row = next((r for r in rows if r[0] == name), None)
    assert row is not None, result.stdout
    assert row[1] == vendor and row[2][0].isdigit() and row[3] in ("3.1", "4.0", "4.1", "5.0")
    assert row[4] in launchers and row[5] == "system"


def test_the_build_cache_rebuilds_after_a_source_change_only(available, tmp_path):
    if not available:
        pytest.skip("no MPI on this machine")
    name = next(iter(available))
    source = tmp_path / "core"
    shutil.copytree(ROOT / "core", source)
    env = {"MPIMARK_SOURCE": str(source), "XDG_CACHE_HOME": str(tmp_path / "cache")}

    first = mpimark("build", "--mpi", name, env=env)
    assert first.returncode == 0, first.stderr
    core = first.stdout.strip()
    assert core.startswith(str(tmp_path / "cache" / "mpimark" / "build" / name)) and os.access(core, os.X_OK)
    assert "building the core" in first.stderr
    built = os.stat(core).st_mtime_ns

    again = mpimark("build", "--mpi", name, env=env)
    assert (again.returncode, again.stdout.strip(), again.stderr) == (0, core, "")
    os.utime(source / "src" / "main.c")  # touched, not changed: the content decides
    assert mpimark("build", "--mpi", name, env=env).stderr == ""
    assert os.stat(core).st_mtime_ns == built

    with open(source / "src" / "main.c", "a") as stream:
        stream.write("/* changed */\n")
    rebuilt = mpimark("build", "--mpi", name, env=env)
    assert rebuilt.returncode == 0 and rebuilt.stdout.strip() == core
    assert "building the core" in rebuilt.stderr
    assert os.stat(core).st_mtime_ns > built
