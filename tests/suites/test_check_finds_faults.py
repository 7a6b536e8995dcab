"""-check is not vacuous: with one MPI call made to move one element less
(faults.c, loaded into the core with LD_PRELOAD), the defects appear in
exactly the benchmarks that use that call, at every size that moves data,
and nowhere else (but where a known bug puts them anyway). ext, rma and nbc
under Open MPI, mpi4 under MPICH (the MPI-4 library here), at 2 ranks."""

from __future__ import annotations


import pytest

from integration import imbtext

from . import known_bugs
from .conftest import non_default, preload_probe, run_with

TINY = ("-msglog", "0:2", "-iter", "3,40,3", "-time", "10")

PUTS = {"ext": {"Window", "Unidir_Put", "Bidir_Put"},
        "rma": {"Unidir_put", "Bidir_put", "Put_local", "Put_all_local", "One_put_all", "All_put_all", "Exchange_put",
                "Truly_passive_put"}}
GETS = {"ext": {"Unidir_Get", "Bidir_Get"},
        "rma": {"Unidir_get", "Bidir_get", "Get_local", "Get_all_local", "One_get_all", "All_get_all", "Exchange_get"}}
# (suite, fault) -> the benchmarks whose data it spoils
FAULTS: dict[tuple[str, str], set[str]] = {
    ("ext", "put"): PUTS["ext"], ("ext", "get"): GETS["ext"], ("ext", "accumulate"): {"Accumulate"},
    ("rma", "put"): PUTS["rma"], ("rma", "get"): GETS["rma"], ("rma", "accumulate"): {"Accumulate"},
    ("rma", "get_accumulate"): {"Get_accumulate"}, ("rma", "fetch_and_op"): {"Fetch_and_op"},
    ("rma", "compare_and_swap"): {"Compare_and_swap"},
    **{("nbc", name.lower()): {name, f"{name}_pure"} for name in (
        "Ibcast", "Iallgather", "Iallgatherv", "Igather", "Igatherv", "Iscatter", "Iscatterv", "Ialltoall",
        "Ialltoallv", "Ireduce", "Ireduce_scatter", "Iallreduce")},
    **{("mpi4", f"{name.lower()}_init"): {f"{name}_persist", f"{name}_persist_pure"} for name in (
        "Bcast", "Allgather", "Allgatherv", "Gather", "Gatherv", "Scatter", "Scatterv", "Alltoall", "Alltoallv",
        "Reduce", "Reduce_scatter", "Allreduce")},
}


@pytest.mark.parametrize("suite,fault", sorted(FAULTS), ids=lambda v: v)
def test_check_finds_the_fault_where_it_is(suite, fault):
    mpi, library = preload_probe("mpich" if suite == "mpi4" else "openmpi", "faults.c")
    extra = non_default(suite)
    args = [suite, *(["-include", ",".join(extra)] if extra else []), "-check", *TINY]
    run = run_with(mpi, 2, *args, timeout=120, env={"MPIMARK_FAULT": fault},
                   program=["env", f"LD_PRELOAD={library}", str(mpi.core)])
    spoiled = FAULTS[(suite, fault)]
    results = run.results()
    assert {r["benchmark"] for r in results} == set(imbtext.SUITES[suite].all), run.describe()
    assert run.returncode == 4, run.describe()  # -check found wrong data
    wrong = {(r["benchmark"], r["processes"], r["mode"], r["bytes"]) for r in results if r["defects"]}
    must = {(r["benchmark"], r["processes"], r["mode"], r["bytes"]) for r in results if r["bytes"] > 0 and (
        r["benchmark"] in spoiled or known_bug_shows(mpi, suite, r))}
    assert wrong == must


def known_bug_shows(mpi, suite: str, rec: dict) -> bool:
    bug = known_bugs.persistent_bug(mpi.name, mpi.version, suite, rec["benchmark"])
    return bug is not None and rec["processes"] in known_bugs.DEFECTS_AT[bug]


def test_mpibench_C_does_mpibench_s_work_in_every_call():
    """mpiBench's -C, by behaviour: every call's received data and the whole send buffer (-e times the
    processes, past the message) are checked, so a fault in either is seen in every call of every
    size; Allreduce is not checked inside the timing (mpiBench checks no reduction) but once after it."""
    mpi, library = preload_probe("openmpi", "faults.c")
    for fault in ("bcast", "bcast_send_tail"):
        run = run_with(mpi, 2, "mpibench", "-C", "-b", "1", "-e", "16", "-i", "20", "-t", "0", "Bcast", "Allreduce",
                       timeout=120, env={"MPIMARK_FAULT": fault},
                       program=["env", f"LD_PRELOAD={library}", str(mpi.core)])
        assert run.returncode == 4, run.describe()  # wrong data found
        bcast, allreduce = run.results("Bcast"), run.results("Allreduce")
        assert [r["bytes"] for r in bcast] == [1, 2, 4, 8, 16], run.describe()
        assert all(r["check"] == "every" for r in bcast) and all(r["check"] == "once" for r in allreduce)
        # One wrong element per timed call at least (the non-root's last, or the root's byte past the message).
        assert all(r["defects"] >= r["repetitions"] == 20 for r in bcast), run.describe()
        assert all(r["defects"] == 0 for r in allreduce), run.describe()
