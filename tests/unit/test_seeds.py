"""The seeds' analyses from known inputs: Allreduce ≈ Reduce + Bcast, the ranking, Alltoall throughput."""

from __future__ import annotations

import math

import pytest

from mpimark.analysis import seeds

from .records import result_record


def _row(benchmark: str, processes: int, size: int, usec: float, spread: float = 0.01) -> dict:
    samples = [usec * 1000 * (1 + spread * (i - 5) / 5) for i in range(11)]
    return result_record(benchmark=benchmark, processes=processes, bytes=size, count=size, samples_ns=samples,
                         distribution={**result_record()["distribution"], "median_usec": usec})


def test_allreduce_against_reduce_plus_bcast_over_launches():
    def launch(level: float) -> list[dict]:
        return [_row("Allreduce", 4, 1024, 30.0 * level), _row("Reduce", 4, 1024, 10.0 * level),
                _row("Bcast", 4, 1024, 5.0 * level * level), _row("Allreduce", 4, 8, 3.0),
                _row("Reduce", 4, 8, 2.0)]  # no Bcast at 8 bytes: no check
    levels = (1.0, 1.1, 0.9, 1.05)
    checks = seeds.allreduce_consistency([launch(level) for level in levels])
    assert len(checks) == 1
    check = checks[0]
    assert (check.processes, check.bytes, check.allreduce_usec, check.reduce_usec) == (4, 1024, 30.75, 10.25)
    # Each launch's own ratio, paired: 30 l / (10 l + 5 l^2); their geometric mean, a t interval on the logs.
    ratios = [30 * level / (10 * level + 5 * level * level) for level in levels]
    assert check.ratio == pytest.approx(math.prod(ratios) ** (1 / 4))
    assert check.estimate.low < check.ratio < check.estimate.high and check.estimate.df == pytest.approx(3)
    assert check.estimate.low > 1 and check.verdict == 1  # twice as slow as composing it, in every launch
    one = seeds.allreduce_consistency([launch(1.0)])[0]
    assert one.ratio == pytest.approx(2.0) and one.estimate.low is None and one.verdict == 0


def _sides(levels_a, levels_b, slowdown):
    """Bcast at 4 processes, 8 B to 1 MiB: a launch per level, B `slowdown` times A's time."""
    sizes = (8, 1024, 1 << 20)
    return {"slow": [[_row("Bcast", 4, s, 10.0 * slowdown * level) for s in sizes] for level in levels_b],
            "fast": [[_row("Bcast", 4, s, 10.0 * level) for s in sizes] for level in levels_a]}


def test_a_ranking_from_one_launch_a_side_is_not_decided():
    # 11 samples a side, B's all twice A's: one launch a side is a ratio, not a ranking
    ranking = {r.size_range: r for r in seeds.rank(_sides([1.0], [1.0], 2.0))}
    small = ranking["0 B - 1 KiB"]
    assert [label for label, _ in small.order] == ["fast", "slow"] and small.rows == 2
    assert small.order[1][1] == pytest.approx(2.0)
    (step,) = small.steps
    assert (step.faster, step.slower) == ("fast", "slow") and step.estimate.ratio == pytest.approx(2.0)
    assert step.estimate.low is None and not step.decided and step.launches_needed is None
    assert small.launches == {"slow": (0,), "fast": (0,)}
    assert "1 KiB - 64 KiB" not in ranking  # no size in that range


def test_five_launches_a_side_of_a_clear_difference_decide_the_ranking():
    levels = [1.0, 1.03, 0.98, 1.01, 0.97]
    ranking = {r.size_range: r for r in seeds.rank(_sides(levels, levels[::-1], 1.5))}
    large = ranking["over 64 KiB"]
    (step,) = large.steps
    assert [label for label, _ in large.order] == ["fast", "slow"] and step.decided
    assert step.estimate.ratio == pytest.approx(1.5) and 1 < step.estimate.low < 1.5 < step.estimate.high
    assert large.launches == {"slow": (0, 1, 2, 3, 4), "fast": (0, 1, 2, 3, 4)}
    # the same launches without the slowdown: undecided, and no number of launches would tell
    (same,) = {r.size_range: r for r in seeds.rank(_sides(levels, levels[::-1], 1.0))}["over 64 KiB"].steps
    assert not same.decided and same.estimate.low < 1 < same.estimate.high


def test_a_step_within_the_noise_says_how_many_launches_would_tell():
    levels = [1.0, 1.03, 0.98, 1.01, 0.97]
    (step,) = {r.size_range: r for r in seeds.rank(_sides(levels, levels[::-1], 1.01))}["over 64 KiB"].steps
    assert not step.decided and 5 < step.launches_needed < 1000


def test_three_implementations_rank_in_steps():
    levels = [1.0, 1.03, 0.98, 1.01, 0.97]
    sides = {**_sides(levels, levels, 2.0), "same": [[_row("Bcast", 4, 1 << 20, 20.2 * level)] for level in levels]}
    (large,) = [r for r in seeds.rank(sides) if r.size_range == "over 64 KiB"]
    assert [label for label, _ in large.order] == ["fast", "slow", "same"]
    assert [(s.faster, s.slower, s.decided) for s in large.steps] == [("fast", "slow", True), ("slow", "same", False)]
    assert large.order[2][1] == pytest.approx(2.02)


def test_alltoall_throughput():
    assert seeds.alltoall_throughput_mbs(_row("Alltoall", 4, 1 << 20, 1000.0)) == pytest.approx(4 * 1048576 / 1000)
