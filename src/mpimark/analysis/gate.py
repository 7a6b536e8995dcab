"""The regression gate: three outcomes, decided on launches (docs/analysis.md, "Regression gate").

The gate looks at the geometric-mean ratio B/A of the whole table and of
each benchmark (of every comparison, where a study compares several
implementations with a baseline), each with its interval over launches.
The intervals are simultaneous (Bonferroni: each at 1 - alpha/m for m
geomeans), so the chance that any of them misses its true ratio is at most
alpha whichever way the gate decides:

- slower (exit 3): some lower bound lies above 1 + threshold;
- not slower (exit 0): every upper bound lies below 1 + threshold;
- undecided (exit 4): neither: too few launches for an interval, or an
  interval that straddles 1 + threshold. The decision then says how many
  launches a side would likely decide, from the launch-to-launch spread seen.

Row verdicts are information; they do not decide.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from mpimark.analysis.geomeans import Geomean, launches_needed, MAX_LAUNCHES_NEEDED
from mpimark.analysis.launches import Comparison

NOT_SLOWER, SLOWER, UNDECIDED = "not slower", "slower", "undecided"
EXIT_STATUS = {NOT_SLOWER: 0, SLOWER: 3, UNDECIDED: 4}


@dataclass(frozen=True)
class Scope:
    """One geomean the gate looks at: which comparison (B's name) and the estimate at the gate's level."""
    name: str  # B's label, "" with a single comparison
    estimate: Geomean


@dataclass(frozen=True)
class Decision:
    outcome: str  # NOT_SLOWER, SLOWER or UNDECIDED
    threshold: float  # 0.05: 5 %
    alpha: float
    level: float  # each interval's level; together they cover at 1 - alpha
    scopes: list[Scope]
    slower: list[Scope]  # lower bound above 1 + threshold
    open: list[Scope]  # no interval, or one that straddles 1 + threshold
    launches_needed: int | None  # a side, to likely decide the open scopes; None: unknown (one launch a side)

    @property
    def exit_status(self) -> int:
        return EXIT_STATUS[self.outcome]


def _scopes(comparison: Comparison) -> list[Geomean]:
    if comparison.overall is None:
        return []
    # With one benchmark the whole table is that benchmark: one geomean, not two copies of it.
    if len(comparison.benchmarks) == 1:
        return [comparison.overall]
    return [comparison.overall, *comparison.benchmarks.values()]


def decide(compared: Sequence[tuple[str, Comparison]], threshold: float, alpha: float = 0.05) -> Decision:
    """The gate over one comparison ([("", comparison)]) or a baseline's comparisons with each other series."""
    found = [(name, g) for name, comparison in compared for g in _scopes(comparison)]
    level = 1 - alpha / max(1, len(found))
    scopes = [Scope(name, g.at(level)) for name, g in found]
    limit = 1 + threshold
    slower = [s for s in scopes if s.estimate.side(limit) == 1]
    open_ = [s for s in scopes if s.estimate.side(limit) != -1]
    if slower:
        outcome = SLOWER
    elif scopes and not open_:
        outcome = NOT_SLOWER
    else:
        outcome = UNDECIDED
    needed = None
    if outcome == UNDECIDED and open_:
        counts = [launches_needed(s.estimate, threshold, level) for s in open_]
        needed = None if None in counts else max(counts)
    return Decision(outcome, threshold, alpha, level, scopes, slower, open_, needed)


def needed_text(decision: Decision) -> str:
    """How many launches a side would likely decide, in words."""
    if decision.launches_needed is None:
        return ("one launch a side shows no launch-to-launch spread, so no interval: measure at least 2 a side "
                "(5 or more is typical) and the gate will say how many more it needs")
    if decision.launches_needed > MAX_LAUNCHES_NEEDED:
        return (f"the ratio sits on the threshold: more than {MAX_LAUNCHES_NEEDED} launches a side would be needed "
                "to tell; the difference is as large as the threshold")
    return f"about {decision.launches_needed} launches a side would likely decide (80 % chance, from the spread seen)"
