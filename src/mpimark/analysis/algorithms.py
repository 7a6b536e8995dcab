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
