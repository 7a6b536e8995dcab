"""The OSU suite's collectives, blocking (allgather ... scatterv, barrier) and non-blocking (iallgather ...
iscatterv, ibarrier), run by the real core: every program under Open MPI and MPICH at 2 ranks and at 4
with -c (OSU's validation) and -f, OSU 7.4's text layout against real OSU captures
(tests/unit/data/osu), the records' samples against the printed figures, -c finding one element that an
MPI call failed to move (faults.c), in place (-l), roots (-k), datatypes (-T), -M and the counts OSU uses.

MPICH busy-polls: its 4-rank runs on 2 cores get one size, 2 iterations and no warm-up."""

from __future__ import annotations

import statistics
from pathlib import Path

import pytest

from integration.corerun import close, same_printed

from . import osutext
from .conftest import get_mpi, preload_probe, run_with

CAPTURES = Path(__file__).resolve().parents[1] / "unit" / "data" / "osu"
BLOCKING = ("allgather", "allgatherv", "allreduce", "alltoall", "alltoallv", "alltoallw", "barrier", "bcast",
            "gather", "gatherv", "reduce", "reduce_scatter", "reduce_scatter_block", "scatter", "scatterv")
NONBLOCKING = tuple(f"i{name}" for name in BLOCKING)
NO_SIZE = {"barrier", "ibarrier"}
ROOTED = {"gather", "gatherv", "reduce", "scatter", "scatterv"}
IN_PLACE = set(BLOCKING) - {"barrier", "bcast"}
# (MPI, ranks) -> OSU options: sizes, iterations, warm-up. MPICH at 4 ranks on 2 cores: one size, 2 iterations.
PLANS = {
    ("openmpi", 2): ("-m", "1:16", "-i", "20", "-x", "2"),
    ("openmpi", 4): ("-m", "1:16", "-i", "10", "-x", "1"),
    ("mpich", 2): ("-m", "1:16", "-i", "20", "-x", "2"),
    ("mpich", 4): ("-m", "8:8", "-i", "2", "-x", "0"),
}
QUIET = ("-selfcheck", "off")


def capture(name: str) -> str:
    """A real OSU 7.4 output, without what the launcher printed after it."""
    return (CAPTURES / f"{name}.txt").read_text().split("\n---", 1)[0].rstrip("\n") + "\n"


def sizes(plan: tuple[str, ...]) -> list[int]:
    low, high = (int(x) for x in plan[1].split(":"))
    out, size = [], low
    while size <= high:
        out.append(size)
        size *= 2
    return out


def options_for(name: str) -> tuple[str, ...]:
    """-f everywhere, -c where the program takes it (barrier and ibarrier do not)."""
    return ("-f",) if name in NO_SIZE else ("-f", "-c")


def check_figures(run, name: str, iterations: int, expected_sizes: list[int]) -> None:
    """The records against the text and their own samples: one record per printed row, the sizes asked
    for, OSU's iterations, Validation Pass, samples (the rank average per iteration) whose mean is the
    printed average, and the figures that follow from others (min <= avg <= max; NBC's overlap)."""
    results = run.results(f"osu_{name}")
    printed = osutext.rows(run.stdout)
    assert len(printed) == len(results) and results, run.describe()
    assert [r["bytes"] for r in results] == ([0] if name in NO_SIZE else expected_sizes), run.describe()
    for rec, row in zip(results, printed):
        samples = rec["samples_ns"]
        assert rec["repetitions"] == iterations == len(samples), rec
        assert all(s > 0 for s in samples), rec
        # The JSON keeps 0.1 ns of both (the samples of 4 ranks' averages have quarters of a ns).
        assert close(rec["t_avg_usec"], statistics.fmean(samples) / 1e3, rel=1e-6, abs_=1e-4), rec
        first = 0 if name in NO_SIZE else 1   # the column of the average (barrier's rows have no size)
        if name not in NO_SIZE:
            assert int(row[0]) == rec["bytes"]
        assert same_printed(rec["t_avg_usec"], row[first], 2), (row, rec)
        if "-c" in options_for(name):
            assert rec["validation"] == "Pass" and rec["defects"] == 0 and row[-1] == "Pass", rec
        if name.startswith("i"):
            compute, pure, overall = rec["compute_usec"], rec["pure_comm_usec"], rec["t_avg_usec"]
            assert rec["min_comm_usec"] <= pure <= rec["max_comm_usec"], rec
            assert close(rec["overlap_percent"], max(0.0, 100 - (overall - compute) / pure * 100), rel=1e-6,
                         abs_=1e-6), rec
            # -f's columns: Overall, Compute, Coll. Init, MPI_Test, MPI_Wait, Pure, Min, Max, Overlap
            assert same_printed(compute, row[first + 1], 2) and same_printed(pure, row[first + 5], 2), (row, rec)
            assert same_printed(rec["overlap_percent"], row[first + 8], 2), (row, rec)
        else:
            assert rec["t_min_usec"] <= rec["t_avg_usec"] <= rec["t_max_usec"], rec
            # -f's Iterations column
            assert int(row[first + 3]) == iterations, row


# The matrix: every collective at 4 ranks under both MPIs; at 2 ranks only with MPIMARK_SLOW=1
# (the 4-rank runs take every code path the 2-rank ones do, and 60 launches more cost the suite 2 minutes).
MATRIX = [pytest.param(*plan, marks=() if plan[1] == 4 else pytest.mark.slow) for plan in sorted(PLANS)]


@pytest.mark.parametrize("mpi_name,ranks", MATRIX, ids=lambda v: str(v))
@pytest.mark.parametrize("name", BLOCKING + NONBLOCKING)
def test_every_collective_runs_validates_and_reports(name, mpi_name, ranks):
    mpi = get_mpi(mpi_name)
    plan = PLANS[(mpi_name, ranks)]
    run = run_with(mpi, ranks, "osu", name, *options_for(name), *plan, *QUIET, timeout=180)
    assert run.returncode == 0, run.describe()
    # ibarrier runs OSU's counts for large messages, which -i sets too.
    check_figures(run, name, int(plan[3]), sizes(plan))


@pytest.mark.parametrize("name,options,capture_name", [
    ("allreduce", ("-T", "all"), "allreduce_T_all"),
    ("barrier", (), "barrier"),
    ("barrier", ("-f",), "barrier_f"),
    ("bcast", ("-f", "-c", "-z"), "bcast_f_c_z"),
    ("reduce", ("-T", "mpi_float"), "reduce_float"),
    ("iallreduce", (), "iallreduce"),
    ("iallreduce", ("-f",), "iallreduce_f"),
    ("ibarrier", ("-f",), "ibarrier_f"),
    ("ibcast", ("-f", "-c"), "ibcast_f_c"),
])
def test_text_is_osus_layout(name, options, capture_name):
    run = run_with(get_mpi("openmpi"), 2, "osu", name, *options, "-m", "1:64", "-i", "20", "-x", "2", *QUIET)
    assert run.returncode == 0, run.describe()
    osutext.assert_same_layout(run.stdout, capture(capture_name))


def test_validation_failure_is_osus_fail_row():
    """OSU stops at the first size whose check fails, after printing its row with Fail in Validation."""
    mpi, library = preload_probe("openmpi", "faults.c")
    run = run_with(mpi, 2, "osu", "ialltoall", "-c", "-m", "1:4", "-i", "5", "-x", "1", *QUIET,
                   env={"MPIMARK_FAULT": "ialltoall"}, program=["env", f"LD_PRELOAD={library}", str(mpi.core)])
    assert run.returncode == 4, run.describe()
    assert [row[-1] for row in osutext.rows(run.stdout)] == ["Fail"], run.describe()


def test_tails_are_percentiles_of_the_rank_average():
    """-z for collectives (OSU's omb_get_stats): the per-iteration times summed over ranks, divided by
    their number, sorted, element n*p/100 - 1 in whole numbers; our samples are that rank average."""
    run = run_with(get_mpi("openmpi"), 4, "osu", "allreduce", "-z", "-m", "4:8", "-i", "20", "-x", "2", *QUIET)
    assert run.returncode == 0, run.describe()
    for rec in run.results("osu_allreduce"):
        ordered = sorted(rec["samples_ns"])
        for p in (50, 90, 99):
            # samples_ns are written to 0.1 ns
            assert rec[f"p{p}_tail_lat_us"] == pytest.approx(ordered[20 * p // 100 - 1] / 1e3, abs=1e-4), rec


# (program, the MPI call faults.c shortens by one element)
FAULTS = [("alltoall", "alltoall"), ("ialltoall", "ialltoall"), ("iallreduce", "iallreduce"), ("ibcast", "ibcast"),
          ("igatherv", "igatherv"), ("iscatterv", "iscatterv"), ("ireduce_scatter", "ireduce_scatter")]


@pytest.mark.parametrize("name,fault", FAULTS, ids=[f[0] for f in FAULTS])
def test_c_finds_a_collective_one_element_short(name, fault):
    """-c: with the data call moving one element less, the first size fails (Validation Fail, defects
    counted), the run stops there and exits 4; the same run with a fault in a call the program does not
    make passes every size."""
    mpi, library = preload_probe("openmpi", "faults.c")
    args = ("osu", name, "-c", "-m", "1:8", "-i", "5", "-x", "1", *QUIET)
    program = ["env", f"LD_PRELOAD={library}", str(mpi.core)]
    spoiled = run_with(mpi, 2, *args, env={"MPIMARK_FAULT": fault}, program=program)
    assert spoiled.returncode == 4, spoiled.describe()
    results = spoiled.results(f"osu_{name}")
    # ireduce_scatter gives each of 2 ranks half an element at 1 byte: rank 1 gets nothing to lose there.
    assert [r["bytes"] for r in results] == [1], spoiled.describe()
    assert results[0]["validation"] == "Fail" and results[0]["defects"] > 0
    clean = run_with(mpi, 2, *args, env={"MPIMARK_FAULT": "put"}, program=program)
    assert clean.returncode == 0, clean.describe()
    assert [(r["bytes"], r["validation"], r["defects"]) for r in clean.results(f"osu_{name}")] == [
        (s, "Pass", 0) for s in (1, 2, 4, 8)]


# In place: one program of each buffer layout (all, rooted, v, reduce_scatter; blocking and not) by
# default, every one with MPIMARK_SLOW=1.
IN_PLACE_SAMPLE = {"allgatherv", "allreduce", "gather", "ireduce", "iscatterv", "ireduce_scatter", "ialltoall"}


@pytest.mark.parametrize("mpi_name,ranks", [("openmpi", 4), pytest.param("mpich", 2, marks=pytest.mark.slow)])
@pytest.mark.parametrize("name", [name if name in IN_PLACE_SAMPLE else pytest.param(name, marks=pytest.mark.slow)
                                  for name in sorted(IN_PLACE) + sorted(f"i{n}" for n in IN_PLACE)])
def test_in_place_and_rotating_roots_deliver_the_data(name, mpi_name, ranks):
    """-l (MPI_IN_PLACE where OSU puts it), with -k rotate for the rooted ones and every datatype: -c
    passes, so the in-place layouts and each root's data are right."""
    roots = ("-k", "rotate") if name.lstrip("i") in ROOTED else ()
    run = run_with(get_mpi(mpi_name), ranks, "osu", name, "-l", *roots, "-c", "-T", "all", "-m", "1:16", "-i", "4",
                   "-x", "1", *QUIET, timeout=180)
    assert run.returncode == 0, run.describe()
    results = run.results(f"osu_{name}")
    assert [r["datatype"] for r in results] == ["MPI_CHAR"] * 5 + ["MPI_INT"] * 3 + ["MPI_FLOAT"] * 3
    assert all(r["validation"] == "Pass" for r in results), run.describe()


def test_osu_iteration_counts_for_barriers():
    """OSU's defaults: osu_barrier runs the small-message counts (1000 iterations), osu_ibarrier the
    large-message ones (100)."""
    mpi = get_mpi("openmpi")
    for name, iterations in (("barrier", 1000), ("ibarrier", 100)):
        run = run_with(mpi, 2, "osu", name, *QUIET)
        assert run.returncode == 0, run.describe()
        assert [r["repetitions"] for r in run.results(f"osu_{name}")] == [iterations], run.describe()


def test_nbc_test_calls_are_timed_apart():
    """-t N: N MPI_Test calls inside the compute, their time in MPI_Test(us), not in Compute; without -t
    OSU makes none."""
    mpi = get_mpi("openmpi")
    plan = ("-f", "-m", "4:8", "-i", "20", "-x", "2", *QUIET)
    tested = run_with(mpi, 2, "osu", "iallreduce", "-t", "8", *plan)
    untested = run_with(mpi, 2, "osu", "iallreduce", *plan)
    assert tested.returncode == untested.returncode == 0, tested.describe() + untested.describe()
    assert all(r["mpi_test_usec"] > 0 for r in tested.results("osu_iallreduce"))
    assert all(r["mpi_test_usec"] == 0 for r in untested.results("osu_iallreduce"))


@pytest.mark.parametrize("name,ranks,largest", [("alltoall", 2, 524288), ("allreduce", 2, 1048576),
                                                ("igather", 4, 262144)])
def test_mem_limit_caps_the_largest_size_as_osu(name, ranks, largest):
    """-M: the gather/scatter/all-to-all kinds need the largest size times the processes, the reductions
    and bcast the largest size; OSU lowers the largest size to fit."""
    run = run_with(get_mpi("openmpi"), ranks, "osu", name, "-M", "1048576", "-m", "131072:1048576", "-i", "2",
                   "-x", "0", *QUIET, timeout=180)
    assert run.returncode == 0, run.describe()
    assert max(r["bytes"] for r in run.results(f"osu_{name}")) == largest, run.describe()


@pytest.mark.parametrize("name,args,words", [
    ("gather", ("-k", "fixed:5"), "-k"),     # OSU: the root must be a rank
    ("bcast", ("-l",), "-l"),                # OSU's bcast takes no -l (nor -k)
    ("bcast", ("-k", "rotate"), "-k"),
    ("allreduce", ("-t", "2"), "-t"),        # -t is the non-blocking ones' option
    ("barrier", ("-c",), "-c"),
])
def test_bad_input_is_one_line_and_exit_2(name, args, words):
    run = run_with(get_mpi("openmpi"), 2, "osu", name, *args, "-m", "1:1", "-i", "2", "-x", "0", *QUIET)
    assert run.returncode == 2, run.describe()
    lines = run.core_stderr()
    assert len(set(lines)) == 1 and words in lines[0], run.describe()
    assert not run.results()
