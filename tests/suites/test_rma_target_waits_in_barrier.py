"""IMB-RMA's targets wait in MPI_Barrier while their origins work: every IMB-RMA
benchmark ends with MPI_Barrier after the origin's completion call. The core
keeps that order (engine.c, timed_loop's end barrier): rma_order.c, loaded
into the core with LD_PRELOAD, counts on every rank the collectives other
than MPI_Barrier entered after a one-sided operation and before the next
MPI_Barrier. Collectives match in order, so any such call means a target
waited in it while an origin still needed the target's progress; under
Intel MPI that made a flush wait tens of milliseconds (benchmarks/README.md,
"RMA: the target's collective"). Every rma benchmark, both modes, at 2 and
3 ranks under Open MPI, and with `-sync window` (its own timed loop) and
`-min_samples` (repeated loops) at 2."""

from __future__ import annotations

import re

import pytest

from integration import imbtext

from .conftest import non_default, preload_probe, run_with

TINY = ("-msglog", "0:2", "-iter", "3,40,3", "-time", "10")
LINE = re.compile(r"^rma_order rank (\d+): (\d+) (\S+)$", re.MULTILINE)


# -min_samples repeats each measured loop (IMB runs one): every repetition must end in the barrier too.
@pytest.mark.parametrize("n,sync", [(2, ()), (3, ()), (2, ("-sync", "window")), (2, ("-min_samples", "5"))],
                         ids=["2", "3", "2-sync-window", "2-min-samples"])
def test_no_rank_waits_in_another_collective_while_an_origin_works(n, sync):
    mpi, library = preload_probe("openmpi", "rma_order.c")
    extra = non_default("rma")
    run = run_with(mpi, n, "rma", *(["-include", ",".join(extra)] if extra else []), *TINY, *sync, timeout=300,
                   program=["env", f"LD_PRELOAD={library}", str(mpi.core)])
    assert run.returncode == 0, run.describe()
    # The probe was loaded and every benchmark ran, so the count covers them all.
    assert {r["benchmark"] for r in run.results()} == set(imbtext.SUITES["rma"].all), run.describe()
    lines = LINE.findall(run.stderr)
    assert sorted(int(rank) for rank, _, _ in lines) == list(range(n)), run.describe()
    assert [(rank, calls) for rank, count, calls in lines if int(count)] == [], run.describe()
