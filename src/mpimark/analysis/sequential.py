"""Deciding while launching: the looks of `mpimark matrix --until-decided` (docs/analysis.md, "Until decided").

Launching until the gate decides looks at the data again and again; each look
that may stop the sequence is another chance of a wrong decision, so a gate
that is right 95 % of the time at one look is right less often over ten
looks at the same error rate. Two rules keep the whole sequence at alpha:

- the looks are planned before the first launch, at a fixed schedule of
  launches a side (3, 5, 8, 12, 18, 27, ...: about 1.5 times apart, so a
  large difference stops early and a small one is not looked at after every
  launch for nothing), ending at the budget;
- each look spends alpha / (number of planned looks) (Bonferroni over the
  looks, inside which the gate splits its share again over its geomeans).
  By the union bound the chance that any look decides wrongly is at most
  alpha, whenever the sequence stops. Bonferroni is conservative where the
  looks are correlated (they share launches); a Pocock boundary would spend
  less, but needs the correlation of looks at unequal spacing, and the
  union bound needs nothing.

A look the plan did not make (the minutes ran out between checkpoints) takes
the place of the planned looks that will not happen, at the same alpha.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from mpimark.analysis import gate
from mpimark.analysis.launches import Comparison

FIRST_LOOK = 3  # launches a side: 2 give an interval with 1 degree of freedom, too wide at alpha / looks
GROWTH = 1.5  # the next look at about 1.5 times the launches of the last
# A planned look this close to the budget is left out: the look at the budget follows it at once.
NEAR_BUDGET = 1.25
DEFAULT_MAX_LAUNCHES = 30


@dataclass(frozen=True)
class Plan:
    """The planned looks (launches a side at each) and the error rate of the whole sequence."""
    checkpoints: tuple[int, ...]
    alpha: float

    @property
    def look_alpha(self) -> float:
        """What each look spends: alpha over the planned looks."""
        return self.alpha / len(self.checkpoints)

    @property
    def budget(self) -> int:
        return self.checkpoints[-1]


def plan(max_launches: int = DEFAULT_MAX_LAUNCHES, alpha: float = 0.05) -> Plan:
    """The looks up to max_launches a side (at least 2): 3, 5, 8, 12, 18, 27, ..., and max_launches itself."""
    if max_launches < 2:
        raise ValueError(f"a look needs 2 launches a side for an interval, not {max_launches}")
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be between 0 and 1, not {alpha}")
    looks, at = [], FIRST_LOOK
    while at * NEAR_BUDGET <= max_launches:
        looks.append(at)
        at = math.floor(at * GROWTH + 0.5)
    return Plan((*looks, max_launches), alpha)


def look(sequence: Plan, compared: Sequence[tuple[str, Comparison]], threshold: float) -> gate.Decision:
    """The gate at one look: its decision at the look's share of alpha."""
    return gate.decide(compared, threshold, sequence.look_alpha)


def decided(decision: gate.Decision | None) -> bool:
    """Whether a look decided (None: no look was made)."""
    return decision is not None and decision.outcome != gate.UNDECIDED
