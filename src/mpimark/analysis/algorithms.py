"""The verdicts of an algorithm study: per operation, process count and size, the best algorithm.

Pure functions on stored records. Each arm (one algorithm of one operation,
or the library's default) has one or more launches, each valued by its own
figure of the row (the median of its samples): the launch is the unit of
evidence, as in compare (docs/analysis.md, "The model"); the samples inside a
launch describe that launch only. A winner is *decided* where the interval
over launches of its time against the default's (or, where the default is
best, against the runner-up's) lies below 1. An arm whose launch was not
shown to run the forced algorithm, or whose rows carry `-check` defects, is
left out of the ranking with the reason.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from mpimark.analysis import geomeans
from mpimark.analysis.geomeans import Geomean
from mpimark.analysis.statistics import median, median_ci
from mpimark.records.figures import time_usec

NOT_FORCED = "algorithm_not_forced"  # the event kind a study adds to a run that did not show its algorithm
LEVEL = 0.95  # each row's interval


@dataclass(frozen=True)
class Arm:
    """What a study label stands for."""

    label: str  # Allreduce:ring, Allreduce:default
    op: str
    name: str  # the algorithm's name, or "default"
    id: int | None  # None: the library's default


@dataclass(frozen=True)
class Entry:
    arm: Arm
    median_usec: float  # the median of its launch values
    ci_low_usec: float | None  # that median's 95 % interval over launches; None: too few launches
    ci_high_usec: float | None
    launches_usec: tuple[float, ...]  # one value per launch: the launch's median
    runs: tuple[int, ...] = ()  # the runs (launches) behind them

    @property
    def geomean_usec(self) -> float:
        """The geometric mean of its launch values, what best/rival compares (so the arms are ranked by it);
        the median where a launch timed 0."""
        if min(self.launches_usec) <= 0:
            return self.median_usec
        return math.exp(math.fsum(math.log(v) for v in self.launches_usec) / len(self.launches_usec))


@dataclass(frozen=True)
class Row:
    op: str
    processes: int
    bytes: int
    entries: tuple[Entry, ...]  # ranked by their geometric means over launches: fastest first
    best: Entry
    default: Entry | None
    speedup: float | None  # default's geometric mean over launches / best's
    rival: Entry | None = None  # what the best is measured against: the default, or the runner-up where it won
    estimate: Geomean | None = None  # best / rival over launches with its interval; None: no rival or a 0 time
    launches_needed: int | None = None  # a side, to likely decide an undecided row; None: unknown
    excluded: tuple[tuple[str, str], ...] = ()  # (algorithm, why) left out of this row's ranking

    @property
    def decided(self) -> bool:
        """The best beats its rival over launches: the interval of best / rival lies below 1."""
        return self.estimate is not None and self.estimate.side() == -1


@dataclass(frozen=True)
class Verdict:
    rows: list[Row]
    excluded_runs: list[tuple[int, str, str]] = field(default_factory=list)  # (run id, label, why)
    unfinished: list[tuple[int, str, str]] = field(default_factory=list)  # (run id, label, status): filled by the caller


def run_problem(records: Sequence[dict]) -> str | None:
    """Why a run's rows may not be ranked: the study's not-forced mark."""
    for r in records:
        if r.get("type") == "event" and r.get("kind") == NOT_FORCED:
            return r.get("message") or "the algorithm was not shown to be forced"
    return None


def against(a: Entry, b: Entry) -> Geomean | None:
    """b / a over their launches with its interval (geomeans.py: a t interval on the launches' logs; one launch
    a side gives none); None where a launch timed 0."""
    if min(a.launches_usec) <= 0 or min(b.launches_usec) <= 0:
        return None
    return geomeans.geomean(b.arm.label, geomeans.strata([(a.runs, b.runs, a.launches_usec, b.launches_usec)]),
                            LEVEL)


def _entry(arm: Arm, launches: list[tuple[int, dict]]) -> Entry:
    values = tuple(time_usec(r) for _, r in launches)
    ci = median_ci(values) if len(values) > 1 else None
    return Entry(arm, median(values), ci.low if ci else None, ci.high if ci else None, values,
                 tuple(run for run, _ in launches))


def _row(op: str, processes: int, size: int, entries: list[Entry], excluded: list[tuple[str, str]]) -> Row:
    entries.sort(key=lambda e: e.geomean_usec)
    best = entries[0]
    default = next((e for e in entries if e.arm.id is None), None)
    speedup = default.geomean_usec / best.geomean_usec if default is not None and best.geomean_usec > 0 else None
    rival = default if default is not None and default is not best else (entries[1] if len(entries) > 1 else None)
    estimate = None if rival is None else against(rival, best)
    needed = None
    if estimate is not None and estimate.side() != -1:
        needed = geomeans.launches_needed(estimate, 0.0, LEVEL)
    return Row(op, processes, size, tuple(entries), best, default, speedup, rival, estimate, needed, tuple(excluded))


def evaluate(arms: Mapping[str, Arm], runs: Mapping[str, Sequence[tuple[int, Sequence[dict]]]]) -> Verdict:
    """Rank the arms of each (operation, processes, bytes); runs: label -> [(run id, records)], one launch each."""
    excluded_runs: list[tuple[int, str, str]] = []
    per_cell: dict[tuple[str, int, int], dict[str, list[tuple[int, dict]]]] = {}
    for label, launches in runs.items():
        arm = arms[label]
        for run_id, records in launches:
            why = run_problem(records)
            if why:
                excluded_runs.append((run_id, label, why))
                continue
            seen = set()
            for r in records:
                if r.get("type") != "result" or r.get("benchmark", "").lower() != arm.op.lower():
                    continue
                cell = (arm.op, r["processes"], r["bytes"])
                if r.get("group") is not None or time_usec(r) is None or cell in seen:
                    continue
                seen.add(cell)  # a launch's row counts once
                per_cell.setdefault(cell, {}).setdefault(label, []).append((run_id, r))
    rows = []
    for (op, processes, size), by_label in sorted(per_cell.items()):
        entries, excluded = [], []
        for label, launches in by_label.items():
            defects = sum(r.get("defects") or 0 for _, r in launches)
            if defects:
                excluded.append((arms[label].name, f"wrong data: {defects} defects (-check)"))
                continue
            entries.append(_entry(arms[label], launches))
        if entries:
            rows.append(_row(op, processes, size, entries, excluded))
    return Verdict(rows, excluded_runs)


def chosen(verdict: Verdict, include_undecided: bool = False) -> Verdict:
    """The rows `tune` writes: the best where it is decided against the default; elsewhere the library's
    default (its own selection), or with include_undecided the best all the same (marked by the caller)."""
    return Verdict([r if r.decided or include_undecided or r.default is None or r.best is r.default
                    else replace(r, best=r.default) for r in verdict.rows], verdict.excluded_runs, verdict.unfinished)


# -- the message size a library's selection compares ------------------------------------------------
#
# IMB's message size is per rank: the buffer of Allreduce, Bcast and Reduce, the block sent to each
# rank (Alltoall), each rank's contribution (Allgather, Gather, Scatter, their v-variants), and the
# whole vector of Reduce_scatter(_block). The libraries' selection rules compare other sizes
# (docs/algorithms.md, "Which size a rule compares"):
#
# - Open MPI coll_tuned (coll_tuned_decision_dynamic.c): count x type size for Allreduce, Bcast,
#   Reduce and the reduce-scatters (their sum of counts); x communicator size for Alltoall,
#   Allgather, Gather and Scatter; the average contribution for Allgatherv; always 0 for Barrier and
#   Alltoallv; type size x communicator size (not the count) for Scan and Exscan.
# - MPICH csel (src/mpi/coll/src/csel.c): avg_msg_size (count x type size) is defined for Allreduce,
#   Bcast, Reduce and Alltoall only (any other collective asserts); total_msg_size is the
#   communicator's total (x communicator size) for those and for the gathers and scatters, the sum of
#   counts for the reduce-scatters; neither is defined for Barrier, Scan and Exscan.

SIZE_FREE = None  # the library's rule does not depend on the message size

_OMPI_FACTOR = {"Allreduce": 1, "Bcast": 1, "Reduce": 1, "Reduce_scatter": 1, "Reduce_scatter_block": 1,
                "Allgatherv": 1, "Alltoall": "np", "Allgather": "np", "Gather": "np", "Scatter": "np"}
_MPICH_MEASURE = {"Allreduce": ("avg_msg_size", 1), "Bcast": ("avg_msg_size", 1), "Reduce": ("avg_msg_size", 1),
                  "Alltoall": ("avg_msg_size", 1), "Allgather": ("total_msg_size", "np"),
                  "Allgatherv": ("total_msg_size", "np"), "Alltoallv": ("total_msg_size", "np"),
                  "Gather": ("total_msg_size", "np"), "Scatter": ("total_msg_size", "np"),
                  "Reduce_scatter": ("total_msg_size", 1), "Reduce_scatter_block": ("total_msg_size", 1)}


def size_measure(kind: str, op: str) -> tuple[str, object] | None:
    """(the rule's size condition, factor on IMB's bytes: 1 or 'np'); None where the size is not looked at.

    kind: openmpi (condition 'bytes', the rule's lower bound) or mpich (avg_msg_size / total_msg_size).
    """
    if kind == "openmpi":
        factor = _OMPI_FACTOR.get(op)
        return None if factor is None else ("bytes", factor)
    if kind == "mpich":
        return _MPICH_MEASURE.get(op)
    return ("bytes", 1)  # Intel MPI's I_MPI_ADJUST ranges: message size as the benchmark gives it


def library_bytes(kind: str, op: str, imb_bytes: int, processes: int) -> int | None:
    """IMB's message size as the library's rule compares it (None: the rule does not look at it)."""
    measure = size_measure(kind, op)
    if measure is None:
        return SIZE_FREE
    return imb_bytes * (processes if measure[1] == "np" else 1)


# -- tune --verify: the tuned file against the library's default ------------------------------------

TUNED = "tuned"  # the name of the verify study's tuned arm


@dataclass(frozen=True)
class Gain:
    """One size of a verify study: the tuned file's arm against the default."""

    op: str
    processes: int
    bytes: int
    default: Entry
    tuned: Entry
    gain: float  # default's median / tuned's median (> 1: the tuned file is faster)
    estimate: Geomean | None  # tuned / default over launches with its interval; None where a launch timed 0
    verdict: str  # faster | slower | undecided (the interval holds 1) | untested (one launch a side: no interval)


def gains(verdict: Verdict) -> list[Gain]:
    """Per operation x processes x bytes of a verify study: the tuned arm against the default, over launches."""
    found = []
    for row in verdict.rows:
        default = next((e for e in row.entries if e.arm.id is None and e.arm.name == "default"), None)
        tuned = next((e for e in row.entries if e.arm.name == TUNED), None)
        if default is None or tuned is None or tuned.median_usec <= 0:
            continue
        estimate = against(default, tuned)
        if estimate is None or estimate.low is None:
            what = "untested"
        else:
            what = {-1: "faster", 1: "slower", 0: "undecided"}[estimate.side()]
        found.append(Gain(row.op, row.processes, row.bytes, default, tuned, default.median_usec / tuned.median_usec,
                          estimate, what))
    return found
