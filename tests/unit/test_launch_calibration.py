"""Calibration of compare and the gate on synthetic launches (launch effect + sample noise, fixed seeds):
false alarms, power and coverage as issue 22 asks them of launches as the unit of evidence."""

from __future__ import annotations

import numpy
import pytest

from mpimark.analysis import gate
from mpimark.analysis.launches import compare_launches

from .launch_model import launches, ONE_BENCHMARK

TRIALS = 200


def _decisions(seed: int, count: int, factor: float, threshold: float, trials: int = TRIALS, **model):
    rng = numpy.random.default_rng(seed)
    out = []
    for _ in range(trials):
        compared = compare_launches(launches(rng, count, **model), launches(rng, count, factor, **model))
        out.append((compared, gate.decide([("", compared)], threshold)))
    return out


def _share(decisions, outcome: str) -> float:
    return sum(d.outcome == outcome for _, d in decisions) / len(decisions)


def test_identical_conditions_are_almost_never_called_slower():
    # A/A at the strictest threshold (any slowdown at all): at most 5 % false alarms over 200 comparisons.
    decisions = _decisions(11, 5, 1.0, 0.0)
    assert _share(decisions, gate.SLOWER) <= 0.05
    # ... and the row verdicts, information, keep their false discovery rate too: few rows are called anything.
    called = sum(r.marker in ("slower", "faster") for c, _ in decisions for r in c.rows)
    assert called / sum(len(c.rows) for c, _ in decisions) <= 0.05


def test_identical_conditions_pass_a_five_percent_gate_or_say_how_many_launches_would():
    # With 3 % launch spread, 5 launches a side leave the intervals of 3 geomeans (98.3 % each) about
    # +-5 % wide: the gate often cannot yet rule out 5 %, and must then say so, never "slower".
    decisions = _decisions(12, 5, 1.0, 0.05)
    assert _share(decisions, gate.SLOWER) <= 0.05
    undecided = [d for _, d in decisions if d.outcome == gate.UNDECIDED]
    assert all(d.launches_needed is not None and d.launches_needed > 5 for d in undecided)
    # With 20 a side it decides almost always.
    assert _share(_decisions(15, 20, 1.0, 0.05, trials=50), gate.NOT_SLOWER) >= 0.9


def test_a_uniform_slowdown_of_half_is_caught_with_five_launches_a_side():
    decisions = _decisions(13, 5, 1.5, 0.05)
    assert _share(decisions, gate.SLOWER) >= 0.99


def test_ten_percent_is_caught_with_ten_launches_a_side_at_three_percent_launch_spread():
    decisions = _decisions(14, 10, 1.10, 0.05, launch_spread=0.03, rows=ONE_BENCHMARK)
    assert _share(decisions, gate.SLOWER) >= 0.80


def _coverage(seed: int, count: int, trials: int = 1000) -> float:
    rng = numpy.random.default_rng(seed)
    covered = 0
    for _ in range(trials):
        overall = compare_launches(launches(rng, count), launches(rng, count, 1.2)).overall
        covered += overall.low <= 1.2 <= overall.high
    return covered / trials


@pytest.mark.parametrize("count", [5, 10])
def test_the_geomean_interval_covers_the_true_ratio_95_percent_of_the_time(count):
    assert 0.93 <= _coverage(100 + count, count) <= 0.97


def test_with_three_launches_a_side_the_interval_errs_on_the_wide_side():
    # Welch's degrees of freedom, estimated from 3 launches a side, are fewer than the 4 a pooled t would
    # take: the interval is wider than it need be (about 97 %; benchmarks/README.md), never narrower.
    assert 0.94 <= _coverage(103, 3) <= 0.99


def test_the_row_intervals_cover_the_true_ratio_at_least_95_percent_of_the_time():
    # Hodges-Lehmann on launch values is distribution-free: at least its level (it is conservative).
    rng = numpy.random.default_rng(21)
    covered = total = 0
    for _ in range(100):
        for row in compare_launches(launches(rng, 6), launches(rng, 6, 1.2)).rows:
            total += 1
            covered += row.ratio_low <= 1.2 <= row.ratio_high
    assert covered / total >= 0.93


def test_one_launch_a_side_is_undecided_and_says_launches_decide():
    rng = numpy.random.default_rng(3)
    compared = compare_launches(launches(rng, 1), launches(rng, 1, 1.5))
    assert compared.overall.ratio == pytest.approx(1.5, rel=0.1) and compared.overall.low is None
    assert all(r.marker == "?" and r.p_value is None for r in compared.rows)
    assert any("Launches decide" in w for w in compared.warnings)
    decision = gate.decide([("", compared)], 0.05)
    assert decision.outcome == gate.UNDECIDED and decision.exit_status == 4 and decision.launches_needed is None


def test_undecided_says_how_many_launches_would_decide():
    # 4 % slower against a 5 % threshold, 3 launches a side: the interval straddles 1.05.
    rng = numpy.random.default_rng(8)
    compared = compare_launches(launches(rng, 3, rows=ONE_BENCHMARK), launches(rng, 3, 1.0, rows=ONE_BENCHMARK))
    decision = gate.decide([("", compared)], 0.01)
    if decision.outcome == gate.UNDECIDED:
        assert decision.launches_needed is not None and decision.launches_needed > 3
    # A projection that is right about the direction: with the launches it asks for, the gate decides.
    needed = decision.launches_needed or 3
    bigger = compare_launches(launches(rng, needed, rows=ONE_BENCHMARK), launches(rng, needed, rows=ONE_BENCHMARK))
    assert gate.decide([("", bigger)], 0.01).outcome == gate.NOT_SLOWER
