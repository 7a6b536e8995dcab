"""The looks of `matrix --until-decided` (analysis/sequential.py): the schedule, alpha split over the looks,
and sequences of synthetic launches (launch_model.py) looked at as the command looks at a study."""

from __future__ import annotations

import statistics

import numpy
import pytest

from mpimark.analysis import gate, sequential
from mpimark.analysis.launches import compare_launches

from .launch_model import launches

SEQUENCES = 200
# Two benchmarks of two sizes: three geomeans for the gate, as in a real comparison, at a third of the
# cost of launch_model's twelve rows (the sequences compare 1,200 times).
ROWS = [("PingPong", 8, 0.4), ("PingPong", 4096, 0.8), ("Allreduce", 8, 1.1), ("Allreduce", 4096, 2.2)]


def test_looks_are_about_one_and_a_half_times_apart_up_to_the_budget():
    assert sequential.plan(30).checkpoints == (3, 5, 8, 12, 18, 30)
    assert sequential.plan(27).checkpoints == (3, 5, 8, 12, 18, 27)
    assert sequential.plan(20).checkpoints == (3, 5, 8, 12, 20)  # 18 is left out: the look at 20 follows at once
    assert sequential.plan(3).checkpoints == (3,)
    assert sequential.plan(2).checkpoints == (2,)
    long = sequential.plan(1000).checkpoints
    assert long[-1] == 1000 and len(long) == 15
    assert all(1.3 <= b / a <= 1.7 for a, b in zip(long, long[1:-1]))


def test_each_look_spends_its_share_of_alpha():
    sequence = sequential.plan(30, alpha=0.05)
    assert sequence.look_alpha == pytest.approx(0.05 / 6) and sequence.budget == 30
    assert sequential.plan(3, alpha=0.1).look_alpha == pytest.approx(0.1)


@pytest.mark.parametrize("launches_, alpha", [(1, 0.05), (0, 0.05), (10, 0), (10, 1)])
def test_a_plan_without_an_interval_or_an_error_rate_is_refused(launches_, alpha):
    with pytest.raises(ValueError):
        sequential.plan(launches_, alpha)


def _sequences(seed: int, factor: float, threshold: float, budget: int = 30, alpha_each: float | None = None):
    """SEQUENCES sequences, each looked at as the command does: (outcome, launches a side when it stopped).

    alpha_each: spend this at every look instead of the plan's share (the naive sequence)."""
    rng = numpy.random.default_rng(seed)
    sequence = sequential.plan(budget)
    out = []
    for _ in range(SEQUENCES):
        # 5 samples a launch: the launch value is their median, the launch level is what matters here.
        a, b = launches(rng, budget, samples=5, rows=ROWS), launches(rng, budget, factor, samples=5, rows=ROWS)
        for n in sequence.checkpoints:
            compared = [("", compare_launches(a[:n], b[:n]))]
            decision = (sequential.look(sequence, compared, threshold) if alpha_each is None
                        else gate.decide(compared, threshold, alpha_each))
            if sequential.decided(decision):
                break
        out.append((decision.outcome, n))
    return out


@pytest.fixture(autouse=True)
def _no_advice(monkeypatch):
    # How many launches would decide is advice: it changes no outcome, and where every look is
    # undecided on the threshold it is most of the time these sequences take.
    monkeypatch.setattr(gate, "launches_needed", lambda estimate, threshold, level: None)


def _share(found, outcome: str) -> float:
    return sum(o == outcome for o, _ in found) / len(found)


def test_identical_conditions_on_the_threshold_are_rarely_decided_over_the_whole_sequence():
    # A/A at threshold 0: the true ratio sits on the limit, so any decision is wrong. Six looks, each at
    # alpha/6: at most 5 % of 200 sequences end decided, "slower" or "not slower".
    found = _sequences(31, 1.0, 0.0)
    assert _share(found, gate.SLOWER) <= 0.05
    assert _share(found, gate.UNDECIDED) >= 0.95
    # Why alpha is split: the same sequences looked at with the full alpha at every look decide wrongly
    # more often than alpha (13 of 200 here).
    naive = _sequences(31, 1.0, 0.0, alpha_each=0.05)
    assert 1 - _share(naive, gate.UNDECIDED) > max(0.05, 1 - _share(found, gate.UNDECIDED))


def test_identical_conditions_pass_a_five_percent_gate_with_fewer_launches_than_the_budget():
    found = _sequences(32, 1.0, 0.05)
    assert _share(found, gate.SLOWER) == 0
    assert _share(found, gate.NOT_SLOWER) >= 0.9
    assert statistics.fmean(n for _, n in found) < 25  # of 30 a side: most stop at 12 or 18


def test_a_slowdown_of_half_is_decided_slower_within_two_looks():
    found = _sequences(33, 1.5, 0.05)
    assert _share(found, gate.SLOWER) == 1
    assert max(n for _, n in found) <= 5
    assert statistics.fmean(n for _, n in found) < 4
