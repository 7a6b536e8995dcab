"""`mpimark matrix --until-decided` in words (analysis/sequential.py): the plan of looks, a line per look,
and how the sequence ended."""

from __future__ import annotations

from mpimark.analysis.gate import Decision, NOT_SLOWER, SLOWER
from mpimark.analysis.geomeans import MAX_LAUNCHES_NEEDED
from mpimark.analysis.launches import ALL_ROWS
from mpimark.analysis.sequential import Plan
from mpimark.presentation.comparison import geomean_text

# Why a sequence ended (commands/until_decided.py).
DECIDED, LAUNCHES_SPENT, MINUTES_SPENT, STOPPED = "decided", "launches", "minutes", "stopped"


def plan_line(sequence: Plan, threshold: float) -> str:
    k = len(sequence.checkpoints)
    return (f"until decided at {threshold * 100:g}%: looks after {', '.join(map(str, sequence.checkpoints))} "
            f"launches a side, each at alpha {sequence.alpha:g}/{k} = {sequence.look_alpha:.2g}, so that all "
            f"{k} together decide wrongly at most {sequence.alpha * 100:g}% of the time")


def _verdict(decision: Decision) -> str:
    limit = f"x{1 + decision.threshold:.3g}"
    if decision.outcome == SLOWER:
        return f"slower than {limit}: decided"
    if decision.outcome == NOT_SLOWER:
        return f"not slower than {limit}: decided"
    needed = decision.launches_needed
    if needed is None:
        return "undecided"
    if needed > MAX_LAUNCHES_NEEDED:
        return "undecided, the ratio sits on the threshold"
    return f"undecided, about {needed} a side would decide"


def look_line(launches: int, number: int, sequence: Plan, decision: Decision, baseline: str) -> str:
    """"after 5 launches a side (look 2 of 6, 99.6% intervals): mpich/openmpi geomean 1.080 [0.970, 1.210]:
    undecided, about 14 a side would decide": the whole table's geomean of each comparison."""
    ratios = "; ".join(f"{s.name}/{baseline} geomean {geomean_text(s.estimate)}"
                       for s in decision.scopes if s.estimate.scope == ALL_ROWS)
    return (f"after {launches} launch{'es' if launches != 1 else ''} a side (look {number} of "
            f"{len(sequence.checkpoints)}, {decision.level * 100:.3g}% intervals): "
            f"{ratios or 'no row with a value on both sides'}: {_verdict(decision)}")


def end_line(reason: str, launches: int, seconds: float, budget: str) -> str:
    """How the sequence ended: decided, its budget (said as budget, the option) spent, or stopped."""
    said = f"{launches} launch{'es' if launches != 1 else ''} a side ({seconds / 60:.1f} minutes)"
    if reason == DECIDED:
        return f"decided after {said}"
    if reason in (LAUNCHES_SPENT, MINUTES_SPENT):
        return f"budget spent ({budget}): undecided after {said}"
    return f"stopped in round {launches} ({seconds / 60:.1f} minutes): a launch did not complete"
