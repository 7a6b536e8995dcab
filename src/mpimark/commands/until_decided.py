"""`mpimark matrix --until-decided`: rounds of launches until the regression gate decides or the budget ends.

The rounds are matrix's (execution/matrix.plan: every implementation at every
process count once a round, in the same interleaved order as a fixed
`--launches N`). After each round whose launches a side are a planned look
(analysis/sequential.py), the study is compared as `mpimark compare STUDY`
compares it (analysis_cmds.study_comparisons: each implementation against the
first) and gated at the look's share of alpha. Launching stops at the first
look that decides, at the launches budget, before a round that would likely
end after the minutes budget, or after a round in which a launch did not
complete (the command then exits 1, as matrix does). Stopped between
checkpoints, it looks once more at what ran, in the place of the planned
looks that will not happen. An interrupted launch (Ctrl-C) ends it at once:
exit 130, what ran stays stored, `mpimark compare STUDY` compares it later.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from mpimark.analysis import sequential
from mpimark.analysis.gate import Decision
from mpimark.commands.analysis_cmds import study_comparisons
from mpimark.execution import matrix
from mpimark.presentation import sequential_text
from mpimark.presentation.gate_text import Gated
from mpimark.storage.store import Store


@dataclass(frozen=True)
class Ended:
    reason: str  # sequential_text.DECIDED, LAUNCHES_SPENT, MINUTES_SPENT or STOPPED
    launches: int  # a side: the rounds that ran
    seconds: float
    decision: Decision | None  # the last look's; None when no look was made
    gated: Gated


def study_gated(store: Store, study: str) -> Gated:
    """The study's implementations each compared with the first, as `mpimark compare STUDY` gates them."""
    _, base, pairs = study_comparisons(store, study)
    return [(base.label, label, compared) for label, compared in pairs]


def rounds_of(planned: Sequence[matrix.Launch]) -> list[list[matrix.Launch]]:
    rounds: dict[int, list[matrix.Launch]] = {}
    for launch in planned:
        rounds.setdefault(launch.round, []).append(launch)
    return [rounds[number] for number in sorted(rounds)]


def launch_until_decided(rounds: Sequence[Sequence[matrix.Launch]],
                         launch_round: Callable[[Sequence[matrix.Launch]], list[matrix.Done]],
                         look_at: Callable[[], Gated], sequence: sequential.Plan, threshold: float,
                         max_seconds: float | None, say: Callable[[str], None],
                         clock: Callable[[], float] = time.monotonic) -> Ended:
    """Launch round after round, look at the planned checkpoints, stop as the module's doc says.

    launch_round runs a round's launches (stored in the study) and returns what ended; look_at compares
    the study as it stands; say prints a look's line.
    """
    start, decision, gated, looked, ran = clock(), None, [], 0, 0

    def look() -> None:
        nonlocal decision, gated, looked
        gated = look_at()
        decision = sequential.look(sequence, [(b, c) for _, b, c in gated], threshold)
        looked = ran
        number = sum(1 for at in sequence.checkpoints if at < ran) + 1
        say(sequential_text.look_line(ran, number, sequence, decision, gated[0][0] if gated else "A"))

    def ended(reason: str) -> Ended:
        return Ended(reason, ran, clock() - start, decision, gated)

    def last_look(reason: str) -> Ended:
        # Launching ends between checkpoints: a last look, where the launches give an interval, takes the
        # place of the planned looks that will not happen.
        if ran >= 2 and looked != ran:
            look()
        return ended(reason)

    for launches in rounds[:sequence.budget]:
        if ran and max_seconds is not None and (clock() - start) * (ran + 1) / ran > max_seconds:
            end = last_look(sequential_text.MINUTES_SPENT)  # the next round would likely end after the budget
            return replace(end, reason=sequential_text.DECIDED) if sequential.decided(end.decision) else end
        finished = launch_round(launches)
        ran += 1
        if any(d.status == "interrupted" for d in finished):
            return ended(sequential_text.STOPPED)
        if len(finished) < len(launches) or any(d.status != "complete" for d in finished):
            return last_look(sequential_text.STOPPED)
        if ran in sequence.checkpoints:
            look()
            if sequential.decided(decision):
                return ended(sequential_text.DECIDED)
    return ended(sequential_text.LAUNCHES_SPENT)
