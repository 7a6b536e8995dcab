"""IMB 2021's Ireduce passes i mod np as the root of its overlap loop (t_ovrl) whatever -root_shift says,
while its _pure loop (t_pure) follows -root_shift (root 0 by default). The core does the same under
-imb_compat 2021 (the default) and keeps -root_shift's root in both loops under -imb_compat guide
(docs/imb-compatibility.md). ireduce_roots.c, loaded with LD_PRELOAD, counts every rank's MPI_Ireduce
calls per root. Open MPI, 3 ranks: with a fixed root 0 no call would name root 1 or 2."""

from __future__ import annotations

import re

import pytest

from .conftest import preload_probe, run_with

TINY = ("nbc", "Ireduce", "-npmin", "3", "-msgsize", "4,1024", "-iter", "40", "-time", "10")
LINE = re.compile(r"^ireduce_roots rank (\d+):((?: \d+)+)$", re.MULTILINE)


def roots_per_rank(*options: str) -> dict[int, list[int]]:
    mpi, library = preload_probe("openmpi", "ireduce_roots.c")
    run = run_with(mpi, 3, *TINY, *options, timeout=300, program=["env", f"LD_PRELOAD={library}", str(mpi.core)])
    assert run.returncode == 0, run.describe()
    assert {r["benchmark"] for r in run.results()} == {"Ireduce"}, run.describe()
    counts = {int(rank): [int(n) for n in calls.split()] for rank, calls in LINE.findall(run.stderr)}
    assert sorted(counts) == [0, 1, 2], run.describe()
    return counts


@pytest.mark.parametrize("options", [(), ("-imb_compat", "2021")], ids=["default", "2021"])
def test_the_overlap_loop_rotates_the_root_as_imb_2021(options):
    for rank, calls in roots_per_rank(*options).items():
        # t_pure's loop names root 0 only; the overlap loop (and its untimed sizing loops) every rank in turn
        assert calls[1] > 0 and calls[2] > 0, (rank, calls)
        assert calls[0] > calls[1] and abs(calls[1] - calls[2]) <= 8, (rank, calls)


def test_the_guide_keeps_root_shifts_root_in_both_loops():
    for rank, calls in roots_per_rank("-imb_compat", "guide").items():
        assert calls[0] > 0 and calls[1:] == [0, 0], (rank, calls)
    for rank, calls in roots_per_rank("-imb_compat", "guide", "-root_shift", "on").items():
        # every loop (calibration, warm-up, timed) starts at root 0: the roots are not even
        assert min(calls) > 0, (rank, calls)
