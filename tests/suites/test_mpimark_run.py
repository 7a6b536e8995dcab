"""`mpimark run SUITE` for ext, rma, nbc and mpi4: a tiny run is stored, and
`mpimark export RUN --format imb` gives back the core's own text (MODE
blocks, overlap columns, the CPU_Exploit block), `show` its tables and
`show --stats` one table per mode with the overlap figures.

The cores come from the front end's build cache (the user's, as `mpimark
run` itself uses), each run goes to a database of its own."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from integration import imbtext
from integration.corerun import load_env

from .conftest import get_mpi, non_default

WIDTH = 13
TINY = ("-msglog", "0:3", "-iter", "5,40,5", "-time", "10")
# suite -> (MPI, extra core options). mpi4 needs an MPI-4 library (MPICH here);
# it runs without -check there, as MPICH 4.0.2's persistent Allgather/Gather/Scatter
# deliver wrong data (known_bugs.py) and -check would make the run fail.
CASES = {"ext": ("openmpi", ("-check",)), "rma": ("openmpi", ("-check",)), "nbc": ("openmpi", ("-check",)),
         "mpi4": ("mpich", ())}


def mpimark(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    load_env()
    env = {**os.environ, "TZ": "UTC"}  # the core prints local time, the export UTC
    return subprocess.run([sys.executable, "-m", "mpimark.cli", *args], capture_output=True, text=True,
                          timeout=timeout, env=env)


def same_field(a: str, b: str) -> bool:
    """Equal, or the same number one unit apart in its last decimal: the export rounds the
    stream's 12 significant digits, the core its double, which differ on a rounding boundary."""
    if a == b:
        return True
    x, y = a.strip(), b.strip()
    if len(a) != len(b) or "." not in x or "." not in y or len(x.split(".")[1]) != len(y.split(".")[1]):
        return False
    try:
        return abs(float(x) - float(y)) <= 1.000001 * 10 ** -len(x.split(".")[1])
    except ValueError:
        return False


def text_differences(core: str, exported: str) -> list[str]:
    a, b = core.split("\n"), exported.split("\n")
    if len(a) != len(b):
        return [f"{len(a)} lines from the core, {len(b)} exported"]
    bad = []
    for number, (x, y) in enumerate(zip(a, b), 1):
        if x == y:
            continue
        fields_x = [x[k:k + WIDTH] for k in range(0, len(x), WIDTH)]
        fields_y = [y[k:k + WIDTH] for k in range(0, len(y), WIDTH)]
        if len(x) % WIDTH or len(fields_x) != len(fields_y) or not all(map(same_field, fields_x, fields_y)):
            bad.append(f"line {number}: core {x!r}, export {y!r}")
    return bad


@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    """suite -> (mpimark run's result, database): one tiny stored run per suite."""
    cache: dict[str, tuple[subprocess.CompletedProcess, str]] = {}

    def get(suite: str):
        if suite not in cache:
            name, extra = CASES[suite]
            get_mpi(name)  # skips without that MPI; builds MPICH's core once
            db = str(tmp_path_factory.mktemp(suite) / "results.db")
            include = ["-include", ",".join(non_default(suite))] if non_default(suite) else []
            result = mpimark("run", suite, *include, *extra, *TINY, "-n", "2", "--mpi", name, "--db", db)
            cache[suite] = (result, db)
        return cache[suite]

    return get


@pytest.mark.parametrize("suite", sorted(CASES))
def test_run_is_stored_and_exports_as_the_core_printed_it(stored, suite):
    result, db = stored(suite)
    assert result.returncode == 0, result.stderr
    assert result.stderr.splitlines()[-1] == f"mpimark: stored as run 1 in {db}"
    rep = imbtext.parse(result.stdout)  # the core's text, as mpimark run passed it through
    rules = imbtext.SUITES[suite]
    assert rep.part == rules.part and rep.benchmarks == rules.all
    assert rep.table_keys == imbtext.suite_tables(rules, rules.all, 2)
    exported = mpimark("export", "1", "--format", "imb", "--db", db)
    assert exported.returncode == 0, exported.stderr
    assert text_differences(result.stdout, exported.stdout) == []
    assert imbtext.parse(exported.stdout).table_keys == rep.table_keys


@pytest.mark.parametrize("suite", sorted(CASES))
def test_show_prints_the_tables_and_the_statistics(stored, suite):
    result, db = stored(suite)
    shown = mpimark("show", "1", "--db", db)
    assert shown.returncode == 0, shown.stderr
    # From the blank line before the first table to the last row: what show prints after its own lines.
    tables = result.stdout[result.stdout.index("\n\n#-") + 1:result.stdout.rindex("\n\n\n# All processes") + 1]
    assert text_differences(tables, shown.stdout[shown.stdout.index("\n\n#-") + 1:]) == []
    stats = mpimark("show", "1", "--stats", "--db", db)
    assert stats.returncode == 0, stats.stderr
    rules = imbtext.SUITES[suite]
    for name, q, mode in imbtext.suite_tables(rules, rules.all, 2):
        title = f"{name}, {q} processes" + (f", {mode.replace('_', '-')}" if mode else "")
        assert title in stats.stdout, title
    assert ("overlap[%]" in stats.stdout) == rules.overlap


def test_mpi4_under_an_mpi3_library_is_refused():
    mpi = get_mpi("openmpi")
    if mpi.standard >= (4, 0):
        pytest.skip("this Open MPI implements MPI-4")
    result = mpimark("run", "mpi4", "-n", "2", "--mpi", "openmpi", "--db", os.devnull)
    assert result.returncode == 2
    assert "the mpi4 suite needs an MPI 4.0 library; openmpi (Open MPI " in result.stderr
    assert "implements MPI 3.1" in result.stderr
