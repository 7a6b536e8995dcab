"""The seeds' analyses from known inputs: Allreduce ≈ Reduce + Bcast, the ranking, Alltoall throughput."""

from __future__ import annotations

import pytest

from mpimark.analysis import seeds

from .records import result_record


def _row(benchmark: str, processes: int, size: int, usec: float, spread: float = 0.01) -> dict:
    samples = [usec * 1000 * (1 + spread * (i - 5) / 5) for i in range(11)]
    return result_record(benchmark=benchmark, processes=processes, bytes=size, count=size, samples_ns=samples,
                         distribution={**result_record()["distribution"], "median_usec": usec})


def test_allreduce_against_reduce_plus_bcast():
    run = [_row("Allreduce", 4, 1024, 30.0), _row("Reduce", 4, 1024, 10.0), _row("Bcast", 4, 1024, 5.0),
           _row("Allreduce", 4, 8, 3.0), _row("Reduce", 4, 8, 2.0)]  # no Bcast at 8 bytes: no check
    checks = seeds.allreduce_consistency([run])
    assert len(checks) == 1
    check = checks[0]
    assert (check.processes, check.bytes, check.allreduce_usec, check.reduce_usec, check.bcast_usec) == \
        (4, 1024, 30.0, 10.0, 5.0)
    assert check.ratio == pytest.approx(2.0)


def test_ranking_with_significance():
    sizes = (8, 1024, 1 << 20)
    fast = [[_row("Bcast", 4, s, 10.0) for s in sizes]]
    slow = [[_row("Bcast", 4, 8, 10.0), _row("Bcast", 4, 1024, 30.0), _row("Bcast", 4, 1 << 20, 20.0)]]
    ranking = {(r.size_range, r.processes): r for r in seeds.rank({"slow": slow, "fast": fast})}
    small = ranking[("0 B - 1 KiB", 4)]
    assert [label for label, _ in small.order] == ["fast", "slow"] and small.rows == 2
    assert small.order[1][1] == pytest.approx((10.0 * 30.0) ** 0.5 / 10.0)
    # 11 samples a side: 1024 bytes is significant after Holm over 2 rows; 8 bytes (equal samples) is not.
    assert (small.lead_significant, small.lead_reversed, small.tested) == (1, 0, 2)
    large = ranking[("over 64 KiB", 4)]
    assert large.order[0][0] == "fast" and large.order[1][1] == pytest.approx(2.0) and large.lead_significant == 1
    assert ("1 KiB - 64 KiB", 4) not in ranking  # no size in that range


def test_alltoall_throughput():
    assert seeds.alltoall_throughput_mbs(_row("Alltoall", 4, 1 << 20, 1000.0)) == pytest.approx(4 * 1048576 / 1000)
