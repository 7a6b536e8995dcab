"""The library bugs of known_bugs.py, each shown where it applies, and the
same runs where it does not (another MPI, or Open MPI's other one-sided
component): what fails is the library, not mpimark."""

from __future__ import annotations

import pytest

from integration import imbtext
from integration.corerun import core_stderr_lines, match_tables

from . import known_bugs
from .conftest import get_mpi, non_default, run_with

SMALL = ("-msglog", "0:3", "-iter", "10,40,10", "-time", "10")


def test_every_reproducer_is_in_the_repository():
    assert known_bugs.reproducers_exist() == []


def test_mpi4_on_an_mpi3_library():
    """Open MPI 4.1 implements MPI 3.1: the suite says so in one line and exits 0."""
    mpi = get_mpi("openmpi")
    if mpi.standard >= (4, 0):
        pytest.skip(f"openmpi {mpi.version} implements MPI-4")
    run = run_with(mpi, 2, "mpi4", "-check")
    assert run.returncode == 0, run.describe()
    assert run.stdout == ("mpimark-core: the mpi4 suite needs an MPI-4 library; this one implements MPI "
                          f"{mpi.standard[0]}.{mpi.standard[1]}, so the suite is skipped\n")
    assert core_stderr_lines(run.stderr) == [] and run.records == []


@pytest.mark.parametrize("n", [3, 4])
@pytest.mark.parametrize("benchmark", sorted(known_bugs.MPICH_SCATTER.benchmarks))
def test_mpich_persistent_scatter_ends_the_run_on_3_or_more(n, benchmark):
    mpi = get_mpi("mpich")
    bug = known_bugs.MPICH_SCATTER
    if not bug.applies(mpi.name, mpi.version, "mpi4", benchmark):
        pytest.skip(f"mpich {mpi.version}: not the version of the known bug")
    assert benchmark in known_bugs.aborting(mpi.name, mpi.version, "mpi4", n)
    # hydra sometimes kills the ranks before MPICH's abort message reaches stderr (2 launches of 15
    # here ended with exit 15 and an empty stderr), so a launch that printed nothing is tried again.
    for _attempt in range(3):
        run = run_with(mpi, n, "mpi4", benchmark, "-npmin", str(n), "-check", "-msgsize", "64", "-iter", "2",
                       "-iter_policy", "off", "-warm_up", "off", timeout=120)
        assert run.returncode != 0, run.describe()
        if run.stderr.strip():
            break
    assert known_bugs.ABORT_SIGNATURE.search(run.stderr), run.describe()
    # It dies in its first table, on n processes: the table opened, no row written.
    assert f"# Benchmarking {benchmark} \n# #processes = {n} \n" in run.stdout
    assert run.results() == [] and [e["benchmark"] for e in run.events("benchmark_start")] == [benchmark]
    pytest.xfail(bug.reason())


# The cases of the Open MPI bug: a one-process communicator, and groups creating windows at once.
OSC_CASES = {"npmin1": (2, ("-npmin", "1")), "multi0": (4, ("-multi", "0")), "multi1": (4, ("-multi", "1"))}


def one_sided_args(suite: str) -> list[str]:
    extra = non_default(suite)
    return [suite, *(["-include", ",".join(extra)] if extra else []), "-check", *SMALL]


def assert_clean(run, suite: str, n: int, options: tuple[str, ...]) -> None:
    assert run.returncode == 0, run.describe()
    assert core_stderr_lines(run.stderr) == [], run.describe()
    rep = run.report
    rules = imbtext.SUITES[suite]
    multi = int(options[1]) if options[0] == "-multi" else None
    npmin = int(options[1]) if options[0] == "-npmin" else 2
    expected = imbtext.suite_tables(rules, rules.all, n, npmin)
    assert rep.table_keys == expected
    for t in rep.tables:
        assert t.columns == imbtext.suite_columns(rules, t.name, multi=multi, check=True), t.name
        # -multi: the 2-process tables run as two groups at once, named Multi-<Name>.
        assert t.multi_prefix == (multi is not None and t.processes == 2), t.name
    assert match_tables(rep, run.results()) == []
    assert all(rec["defects"] == 0 for rec in run.results()), [
        (rec["benchmark"], rec["processes"], rec["group"], rec["defects"]) for rec in run.results() if rec["defects"]]


# -multi 1 fails as -multi 0 does (same groups, same windows), and a hang costs OSC_HANG_S: one is shown.
@pytest.mark.parametrize("case", ["npmin1", "multi0"])
@pytest.mark.parametrize("suite", ["ext", "rma"])
def test_open_mpi_osc_rdma_cannot_create_these_windows(suite, case):
    mpi = get_mpi("openmpi")
    bug = known_bugs.osc_rdma_bug(mpi.name, mpi.version, suite)
    if bug is None:
        pytest.skip(f"openmpi {mpi.version}: not the version of the known bug")
    n, options = OSC_CASES[case]
    run = run_with(mpi, n, *one_sided_args(suite), *options, timeout=known_bugs.OSC_HANG_S, allow_timeout=True)
    if case != "npmin1" and run.returncode == 0:  # the -multi race did not strike this time
        assert_clean(run, suite, n, options)
        return
    assert run.returncode != 0, run.describe()  # an abort, or (None) a hang
    assert any(sig.search(run.stderr) for sig in known_bugs.WIN_CREATE_SIGNATURES), run.describe()[:5000]
    # It dies in a table whose windows live on one process (deterministic: the first such table)
    # or in groups running at once (a race: any such table).
    rules = imbtext.SUITES[suite]
    tables = imbtext.suite_tables(rules, rules.all, n, 1 if case == "npmin1" else 2)
    begun = [e["benchmark"] for e in run.events("benchmark_start")]
    if case == "npmin1":
        assert begun[-1] == next(name for name, q, _ in tables if q == 1)
    else:
        assert run.events("benchmark_start")[-1]["processes"] == 2 and run.events("benchmark_start")[-1]["groups"] == 2
    pytest.xfail(bug.reason())


@pytest.mark.parametrize("case", sorted(OSC_CASES))
@pytest.mark.parametrize("suite", ["ext", "rma"])
def test_open_mpi_with_osc_pt2pt_runs_them(suite, case):
    """The workaround docs/imb-compatibility.md gives: the same runs, all data right."""
    mpi = get_mpi("openmpi")
    n, options = OSC_CASES[case]
    run = run_with(mpi, n, *one_sided_args(suite), *options, timeout=120, env={"OMPI_MCA_osc": "pt2pt"})
    assert_clean(run, suite, n, options)


@pytest.mark.parametrize("case", ["npmin1", "multi0"])
@pytest.mark.parametrize("suite", ["ext", "rma"])
def test_mpich_creates_these_windows(suite, case):
    mpi = get_mpi("mpich")
    n, options = OSC_CASES[case]
    if mpi.oversubscribed(n):  # busy-polling MPICH: a few benchmarks, one size (conftest.py)
        pick = {"ext": ["Window", "Unidir_Put", "Accumulate"], "rma": ["Unidir_get", "One_put_all", "Accumulate"]}
        run = run_with(mpi, n, suite, *pick[suite], "-check", "-msgsize", "64", "-iter", "2,40,2",
                       "-iter_policy", "off", "-warm_up", "off", *options, timeout=180)
        assert run.returncode == 0, run.describe()
        assert {r["benchmark"] for r in run.results()} == set(pick[suite])
        assert match_tables(run.report, run.results()) == []
        assert all(rec["defects"] == 0 for rec in run.results())
        return
    run = run_with(mpi, n, *one_sided_args(suite), *options, timeout=180)
    assert_clean(run, suite, n, options)
