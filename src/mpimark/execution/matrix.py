"""`mpimark matrix`: one study of the same benchmarks under several MPI implementations.

The plan: every implementation at every process count, in rounds. A round
launches each (process count, implementation) once, the implementations side
by side within a process count:

    round 1: openmpi -n 2, mpich -n 2, impi -n 2, openmpi -n 4, mpich -n 4, impi -n 4
    round 2: the same again, ...

so that slow drift of the machine (other jobs, heat, a daemon waking up) hits
every implementation alike instead of whichever happened to run during it,
and `--launches K` gives K launches of each (K rounds), the unit compare
replicates (reference/method.md §4.4, docs/analysis.md). With a seed each round is shuffled as well
(random.Random(seed)), so no implementation always runs right after the same
other one; the seed is kept in the study's plan (studies.add_plan).

commands/recording.run_matrix launches the plan, each launch recorded as
`mpimark run` records its one; this module holds the plan and its figures
only, and knows nothing of the store. Names, builds and printing are the
command's (commands/study_cmds.py).
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from mpimark.execution.mpi import MpiImpl


@dataclass(frozen=True)
class Member:
    """An implementation of the study: its label (what --mpi named), what it is, its core."""

    label: str
    impl: MpiImpl
    core: Path


@dataclass(frozen=True)
class Launch:
    index: int  # 1-based position in the order
    round: int  # 1-based
    label: str
    processes: int


@dataclass(frozen=True)
class Done:
    launch: Launch
    run_id: int
    status: str  # store.FINAL_STATUSES
    message: str | None
    results: int
    seconds: float
    load_before: float  # the 1-minute load average when the launch started


def plan(labels: Sequence[str], counts: Sequence[int], launches: int, seed: int | None = None) -> list[Launch]:
    """The launches in order: `launches` rounds of every (process count, implementation), shuffled with a seed."""
    if launches < 1:
        raise ValueError(f"launches must be at least 1, not {launches}")
    shuffle = random.Random(seed).shuffle if seed is not None else None
    order: list[Launch] = []
    for number in range(1, launches + 1):
        cells = [(label, n) for n in counts for label in labels]
        if shuffle:
            shuffle(cells)
        order += [Launch(len(order) + i + 1, number, label, n) for i, (label, n) in enumerate(cells)]
    return order


# Suites whose command line is not IMB-MPI1's (docs/p2p-mt.md, docs/osu.md): they take no -npmin, and each
# of their launches runs on its own process count anyway.
OWN_COMMAND_LINES = ("p2p", "mt", "osu")


def core_args(args: Sequence[str], processes: int, suite: str = "mpi1") -> list[str]:
    """IMB's options for a launch of `processes` ranks: `-npmin N` added unless given (or the suite takes
    another command line: OWN_COMMAND_LINES).

    Each launch then measures the collectives at its own process count only,
    not again at every smaller power of two (which the launches at those
    counts measure without waiting ranks). PingPong and the other two-rank
    benchmarks still run in the larger jobs, as IMB runs them: 2 ranks, the
    rest waiting in a barrier; compare, plot and report keep those rows apart
    (selection.with_waiting).
    """
    given = any(word.lower() == "-npmin" for word in args)
    return list(args) if given or suite in OWN_COMMAND_LINES else [*args, "-npmin", str(processes)]


def estimate_left(done: Sequence[Done], left: Sequence[Launch]) -> float | None:
    """Seconds the launches left will take: each as the mean of its (implementation, count) so far,
    else the mean of all so far; None before the first launch ended."""
    if not done:
        return None
    overall = statistics.fmean(d.seconds for d in done)
    cells: dict[tuple[str, int], list[float]] = {}
    for d in done:
        cells.setdefault((d.launch.label, d.launch.processes), []).append(d.seconds)
    return sum(statistics.fmean(cells.get((x.label, x.processes), [overall])) for x in left)


@dataclass(frozen=True)
class Cell:
    """One implementation at one process count, over its launches."""

    label: str
    processes: int
    launches: int
    complete: int
    results: int
    run_ids: tuple[int, ...]
    median_seconds: float


def summary(done: Sequence[Done], labels: Sequence[str], counts: Sequence[int]) -> list[Cell]:
    """Per implementation and process count (in the plan's order): launches, complete ones, results, runs."""
    cells = []
    for label in labels:
        for n in counts:
            mine = [d for d in done if d.launch.label == label and d.launch.processes == n]
            if mine:
                cells.append(Cell(label, n, len(mine), sum(d.status == "complete" for d in mine),
                                  sum(d.results for d in mine), tuple(d.run_id for d in mine),
                                  statistics.median(d.seconds for d in mine)))
    return cells
