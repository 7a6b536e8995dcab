"""The verdicts of an algorithm study: per operation, process count and size, the best algorithm.

Pure functions on stored records. Each arm (one algorithm of one operation,
or the library's default) has one or more launches; as in compare_launches,
one launch gives the samples of that launch, several give one median per
launch (launches are the experimental unit, method.md §4.4). An arm whose
launch was not shown to run the forced algorithm, or whose rows carry
`-check` defects, is left out of the ranking with the reason.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from mpimark.analysis.statistics import MIN_SAMPLES, mann_whitney_u, median, median_ci, smallest_p
from mpimark.records.figures import time_usec

NOT_FORCED = "algorithm_not_forced"  # the event kind a study adds to a run that did not show its algorithm


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
    median_usec: float
    ci_low_usec: float | None
    ci_high_usec: float | None
    samples_usec: tuple[float, ...]


@dataclass(frozen=True)
class Row:
    op: str
    processes: int
    bytes: int
    entries: tuple[Entry, ...]  # ranked: fastest first
    best: Entry
    default: Entry | None
    speedup: float | None  # default's median / best's median
    p_value: float | None  # best against default; None: not tested (too few samples, or best is the default)
    significant: bool
    excluded: tuple[tuple[str, str], ...] = ()  # (algorithm, why) left out of this row's ranking


@dataclass(frozen=True)
class Verdict:
    rows: list[Row]
    excluded_runs: list[tuple[int, str, str]] = field(default_factory=list)  # (run id, label, why)
    unfinished: list[tuple[int, str, str]] = field(default_factory=list)  # (run id, label, status): filled by the caller


def _samples(record: dict) -> list[float]:
    return [s / 1000 for s in record.get("samples_ns") or []]


def run_problem(records: Sequence[dict]) -> str | None:
    """Why a run's rows may not be ranked: the study's not-forced mark."""
    for r in records:
        if r.get("type") == "event" and r.get("kind") == NOT_FORCED:
            return r.get("message") or "the algorithm was not shown to be forced"
    return None


def evaluate(arms: Mapping[str, Arm], runs: Mapping[str, Sequence[tuple[int, Sequence[dict]]]],
             alpha: float = 0.05) -> Verdict:
    """Rank the arms of each (operation, processes, bytes); runs: label -> [(run id, records)]."""
    excluded_runs: list[tuple[int, str, str]] = []
    per_cell: dict[tuple[str, int, int], dict[str, list[dict]]] = {}
    for label, launches in runs.items():
        arm = arms[label]
        for run_id, records in launches:
            why = run_problem(records)
            if why:
                excluded_runs.append((run_id, label, why))
                continue
            for r in records:
                if r.get("type") != "result" or r.get("benchmark", "").lower() != arm.op.lower():
                    continue
                if r.get("group") is not None or time_usec(r) is None:
                    continue
                cell = (arm.op, r["processes"], r["bytes"])
                per_cell.setdefault(cell, {}).setdefault(label, []).append(r)
    rows = []
    for (op, processes, size), by_label in sorted(per_cell.items()):
        entries, excluded = [], []
        for label, records in by_label.items():
            arm = arms[label]
            defects = sum(r.get("defects") or 0 for r in records)
            if defects:
                excluded.append((arm.name, f"wrong data: {defects} defects (-check)"))
                continue
            if len(records) > 1:
                samples = [median(_samples(r)) if _samples(r) else time_usec(r) for r in records]
            else:
                samples = _samples(records[0]) or [time_usec(records[0])]
            ci = median_ci(samples)
            entries.append(Entry(arm, median(samples), ci.low if ci else None, ci.high if ci else None,
                                 tuple(samples)))
        if not entries:
            continue
        entries.sort(key=lambda e: e.median_usec)
        best = entries[0]
        default = next((e for e in entries if e.arm.id is None), None)
        speedup = p = None
        significant = False
        if default is not None and best.median_usec > 0:
            speedup = default.median_usec / best.median_usec
            n_a, n_b = len(best.samples_usec), len(default.samples_usec)
            if best is not default and min(n_a, n_b) >= MIN_SAMPLES and smallest_p(n_a, n_b) <= alpha:
                p = mann_whitney_u(best.samples_usec, default.samples_usec).p_value
                significant = p <= alpha
        rows.append(Row(op, processes, size, tuple(entries), best, default, speedup, p, significant,
                        tuple(excluded)))
    return Verdict(rows, excluded_runs)


def winners(verdict: Verdict, significant_only: bool = False) -> dict[tuple[str, int], list[tuple[int, Arm]]]:
    """Per (operation, processes): (bytes, winning forced arm) in size order; the default where it won
    (or, with significant_only, where the best did not beat it significantly) is left out."""
    found: dict[tuple[str, int], list[tuple[int, Arm]]] = {}
    for row in verdict.rows:
        choice = row.best.arm
        if choice.id is None or (significant_only and row.default is not None and not row.significant):
            continue
        found.setdefault((row.op, row.processes), []).append((row.bytes, choice))
    return found


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
    p_value: float | None  # two-sided Mann-Whitney; None: too few samples to test
    verdict: str  # faster | slower | same (not significant) | untested (too few samples for any p <= alpha)


def gains(verdict: Verdict, alpha: float = 0.05) -> list[Gain]:
    """Per operation x processes x bytes of a verify study: the tuned arm against the default."""
    found = []
    for row in verdict.rows:
        default = next((e for e in row.entries if e.arm.id is None and e.arm.name == "default"), None)
        tuned = next((e for e in row.entries if e.arm.name == TUNED), None)
        if default is None or tuned is None or tuned.median_usec <= 0:
            continue
        n_a, n_b = len(tuned.samples_usec), len(default.samples_usec)
        p = None
        if min(n_a, n_b) >= MIN_SAMPLES and smallest_p(n_a, n_b) <= alpha:
            p = mann_whitney_u(tuned.samples_usec, default.samples_usec).p_value
        gain = default.median_usec / tuned.median_usec
        if p is None:
            what = "untested"
        elif p <= alpha:
            what = "faster" if gain > 1 else "slower"
        else:
            what = "same"
        found.append(Gain(row.op, row.processes, row.bytes, default, tuned, gain, p, what))
    return found
