"""Issue 22: how compare's geomean interval over launches and the regression gate behave on synthetic launches.

    .venv/bin/python benchmarks/launch_calibration.py [--trials N] [--seed S]

The launches come from tests/unit/launch_model.py (a launch effect shared by every row of a launch, a
per-row launch effect, sample noise inside each launch). Prints, per launches a side:
- the coverage of the true ratio by compare's 95 % t interval and by a percentile bootstrap over launches
  (what the interval would be if launches were resampled: docs/analysis.md says why it is not);
- the gate's outcomes (threshold 5 %) for identical conditions (A/A) and for 1.1x and 1.5x slowdowns;
- `matrix --until-decided`'s looks (analysis/sequential.py, budget 30) against a fixed 10 launches a side.
Runs in two minutes on 2 cores with the default 1000 trials.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "unit"))
from launch_model import launches  # noqa: E402

from mpimark.analysis import gate, sequential  # noqa: E402
from mpimark.analysis.launches import compare_launches  # noqa: E402

TRUE_RATIO = 1.2


def _summaries(compared, side: str) -> numpy.ndarray:
    rows = [r for r in compared.rows if r.carries_data]
    return numpy.log(numpy.array([r.values_a if side == "a" else r.values_b for r in rows])).mean(axis=0)


def coverage(rng, count: int, trials: int) -> tuple[float, float]:
    t_cover = boot_cover = 0
    for _ in range(trials):
        compared = compare_launches(launches(rng, count), launches(rng, count, TRUE_RATIO))
        g = compared.overall
        t_cover += g.low <= TRUE_RATIO <= g.high
        a, b = _summaries(compared, "a"), _summaries(compared, "b")
        resampled = (b[rng.integers(0, count, (2000, count))].mean(1) - a[rng.integers(0, count, (2000, count))].mean(1))
        low, high = numpy.exp(numpy.percentile(resampled, [2.5, 97.5]))
        boot_cover += low <= TRUE_RATIO <= high
    return t_cover / trials, boot_cover / trials


def outcomes(rng, count: int, factor: float, trials: int) -> dict[str, float]:
    found = {gate.NOT_SLOWER: 0, gate.SLOWER: 0, gate.UNDECIDED: 0}
    for _ in range(trials):
        compared = compare_launches(launches(rng, count), launches(rng, count, factor))
        found[gate.decide([("", compared)], 0.05).outcome] += 1
    return {k: v / trials for k, v in found.items()}


def until_decided(rng, factor: float, trials: int, budget: int = 30) -> tuple[dict, float, dict, int]:
    """Sequences looked at as `matrix --until-decided` does, and the first 10 launches of each as a fixed
    design: (outcomes, mean launches a side used, the fixed design's outcomes, opposite decisions)."""
    plan = sequential.plan(budget)
    found, fixed = dict.fromkeys((gate.NOT_SLOWER, gate.SLOWER, gate.UNDECIDED), 0), \
        dict.fromkeys((gate.NOT_SLOWER, gate.SLOWER, gate.UNDECIDED), 0)
    used, opposite = 0, 0
    for _ in range(trials):
        a, b = launches(rng, budget, samples=5), launches(rng, budget, factor, samples=5)
        for n in plan.checkpoints:
            decision = sequential.look(plan, [("", compare_launches(a[:n], b[:n]))], 0.05)
            if sequential.decided(decision):
                break
        ten = gate.decide([("", compare_launches(a[:10], b[:10]))], 0.05).outcome
        found[decision.outcome] += 1
        fixed[ten] += 1
        used += n
        opposite += {decision.outcome, ten} == {gate.SLOWER, gate.NOT_SLOWER}
    return found, used / trials, fixed, opposite


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=22)
    options = parser.parse_args()
    rng = numpy.random.default_rng(options.seed)
    print(f"coverage of a true ratio of {TRUE_RATIO} by 95 % intervals, {options.trials} comparisons each")
    print("| launches a side | t interval (compare) | percentile bootstrap over launches |")
    print("|---:|---:|---:|")
    for count in (3, 5, 10):
        t, boot = coverage(rng, count, options.trials)
        print(f"| {count} | {t:.1%} | {boot:.1%} |")
    trials = max(1, options.trials // 5)
    print(f"\ngate --fail-if-slower 5% (two benchmarks: 3 geomeans), {trials} comparisons each")
    print("| launches a side | B/A true | not slower (0) | slower (3) | undecided (4) |")
    print("|---:|---:|---:|---:|---:|")
    for count in (3, 5, 10, 20):
        for factor in (1.0, 1.1, 1.5):
            share = outcomes(rng, count, factor, trials)
            print(f"| {count} | {factor} | {share[gate.NOT_SLOWER]:.0%} | {share[gate.SLOWER]:.0%} | "
                  f"{share[gate.UNDECIDED]:.0%} |")
    gate.launches_needed = lambda estimate, threshold, level: None  # advice only: it decides nothing
    print(f"\n--until-decided (looks at {', '.join(map(str, sequential.plan(30).checkpoints))} a side) against "
          f"the first 10 a side, {trials} sequences each; outcomes as not slower / slower / undecided")
    print("| B/A true | until decided | mean launches a side | fixed 10 a side | opposite decisions |")
    print("|---:|---|---:|---|---:|")
    for factor in (1.0, 1.1, 1.5):
        found, used, fixed, opposite = until_decided(rng, factor, trials)
        def counts(d):
            return " / ".join(str(d[o]) for o in (gate.NOT_SLOWER, gate.SLOWER, gate.UNDECIDED))
        print(f"| {factor} | {counts(found)} | {used:.1f} | {counts(fixed)} | {opposite} |")


if __name__ == "__main__":
    main()
