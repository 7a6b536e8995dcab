"""From the command line's RUN and STUDY selectors to labelled series of stored runs.

A selector is a run id (`12`), runs by id (`12-16`, `12,13,15`, `12-14,20`:
one series of those runs), a study (`mpi-eval`: one series per
implementation in it) or one implementation of a study (`mpi-eval:openmpi`).
A run id that is a launch of a measurement (`mpimark run --launches N`)
stands for the whole measurement, every launch of it: what compare, plot and
report take as one condition (docs/analysis.md); `12-12` names run 12 alone,
and so do show and export (measurements=False).
A series is what one line of a plot or one column of a report table shows:
one implementation, possibly over several runs (process counts, launches).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property

from mpimark.storage import studies
from mpimark.records.mpi_library import label as library_label
from mpimark.storage.store import fits_integer, MAX_INTEGER, RunRow, Store, StoreError


@dataclass(frozen=True)
class LoadedRun:
    row: RunRow
    records: list[dict]

    @property
    def run(self) -> dict | None:
        """The core's run record (None for imported runs and runs killed before it)."""
        return next((r for r in self.records if r["type"] == "run"), None)

    @cached_property
    def results(self) -> list[dict]:
        """Found once: report and compare ask for them per benchmark, and a run may hold 10^6."""
        return [r for r in self.records if r["type"] == "result"]


@dataclass(frozen=True)
class Series:
    label: str
    runs: tuple[LoadedRun, ...]
    family: str = ""  # the implementation a placement's series belongs to (by_placement): its colour

    @property
    def implementation(self) -> str:
        return self.family or self.label

    @cached_property
    def results(self) -> list[dict]:
        return [r for run in self.runs for r in run.results]


def run_label(row: RunRow) -> str:
    """The MPI library as a legend names it: "Open MPI 4.1.4" from its long version string."""
    return library_label(row.mpi_library_version) or row.mpi_name or f"run {row.id}"


def _load(store: Store, run_id: int, results: bool = True) -> LoadedRun:
    """results False: the run's records without its results (the run and end records, the events)."""
    row = store.readable_run(run_id)
    records = store.records(run_id) if results else store.context_records(run_id)
    return LoadedRun(row, with_waiting(records))


def with_results_of(store: Store, series: list[Series], benchmarks: tuple[str, ...],
                    processes: int | None = None) -> list[Series]:
    """Series loaded without results (load(..., results=False)) with the result records of some benchmarks
    (at one process count): a report a benchmark at a time holds one benchmark's rows, not a whole run's."""
    return [Series(s.label, tuple(LoadedRun(run.row, with_waiting(
        [*run.records, *store.results_of(run.row.id, benchmarks, processes)])) for run in s.runs), s.family)
            for s in series]


def iter_marked(store: Store, run: LoadedRun, benchmarks: tuple[str, ...] | None = None) -> Iterator[dict]:
    """The run's records (benchmarks given: its result records of those) as with_waiting gives them, read
    one at a time from the store (a run loaded with or without its results): a run of any size in
    bounded memory. Consume it before the next call on store."""
    job = (run.run or {}).get("processes")
    records = store.iter_records(run.row.id) if benchmarks is None else store.iter_results_of(run.row.id, benchmarks)
    return (marked_waiting(record, job) for record in records)


def streamed(store: Store, series: Series) -> Iterator[Iterator[dict]]:
    """The series' runs' result records, each run read from the store as it is consumed (as iter_marked),
    one run after the other: what statistics.compare_launches reads (results alone), for runs of any size.
    Not the run record: already loaded, and with every rank of a 4,096-rank run listed, 1.2 MB to parse."""
    return ((marked_waiting(record, (run.run or {}).get("processes")) for record in store.iter_results(run.row.id))
            for run in series.runs)


def with_waiting(records: list[dict]) -> list[dict]:
    """The records, rows that ran on fewer ranks than the job had marked `waiting: N` (figures.mode).

    IMB runs PingPong on 2 ranks of a 4-rank job (and, without -npmin, the
    collectives on 2 and then on 4): such a row is another measurement than
    the same row of a 2-rank job, and must not be pooled with it. Multi-mode
    rows keep every rank busy; imported runs have no run record to say.
    """
    run = next((r for r in records if r["type"] == "run"), None)
    job = run.get("processes") if run else None
    if not job:
        return records
    return [marked_waiting(r, job) for r in records]


def marked_waiting(record: dict, job: int | None) -> dict:
    """One record as with_waiting() gives it, in a job of that many processes (None: not known)."""
    if job and record["type"] == "result" and record.get("multi") is None and 0 < record.get("processes", job) < job:
        return {**record, "waiting": job - record["processes"]}
    return record


# Runs by id: 12, 12-16, 12,13,15, 12-14,20 (a study's name cannot look like this: studies.check_name).
RUN_IDS = re.compile(r"\d+(-\d+)?(,\d+(-\d+)?)*")


def run_ranges(selector: str) -> list[tuple[int, int]] | None:
    """The (first, last) ranges of run ids a selector names (None: it is not a run selector); StoreError
    for a range that runs backwards (16-12)."""
    if not RUN_IDS.fullmatch(selector):
        return None
    ranges = []
    for part in selector.split(","):
        low, _, high = part.partition("-")
        first, last = int(low), int(high or low)
        if last < first:
            raise StoreError(f"{part}: a range of runs goes from the lower id to the higher ({high}-{low})")
        if not fits_integer(last):  # SQLite could not even look it up
            raise StoreError(f"{part}: no run has an id beyond {MAX_INTEGER}; 'mpimark runs' lists the stored runs")
        ranges.append((first, last))
    return ranges


def selector_of(ids: list[int]) -> str:
    """The selector naming exactly these runs: "12-16", "12,13,15", "12-14,20"."""
    parts: list[str] = []
    for run_id in sorted(set(ids)):
        if parts and run_id == int(parts[-1].rpartition("-")[2]) + 1:
            parts[-1] = f"{parts[-1].partition('-')[0]}-{run_id}"
        else:
            parts.append(str(run_id))
    return ",".join(parts)


def _named_runs(store: Store, selector: str, ranges: list[tuple[int, int]], measurements: bool) -> list[int]:
    """The ids the ranges name, each of which must be stored; one run id alone: the runs of its
    measurement (measurements True). Read from the store by range: `1-99999999` is one query."""
    ids: set[int] = set()
    for first, last in ranges:
        found = [int(row[0]) for row in store.query("SELECT id FROM runs WHERE id BETWEEN ? AND ? ORDER BY id",
                                                     (first, last))]
        missing = next((i for i, run_id in enumerate(found, first) if i != run_id), None)
        if missing is None and len(found) < last - first + 1:
            missing = first + len(found)
        if missing is not None:
            store.run(missing)  # StoreError: no run N, and where the stored ones are listed
        ids.update(found)
    if measurements and selector.isdigit():
        measurement = store.run(ranges[0][0]).measurement
        if measurement is not None:
            return store.measurement_runs(measurement)
    return sorted(ids)


def resolve(store: Store, selector: str, results: bool = True, measurements: bool = True) -> list[Series]:
    """The series one selector stands for; StoreError when it names nothing. results: as _load's.

    measurements: a run id alone stands for every launch of its measurement (see the module's doc).
    """
    ranges = run_ranges(selector)
    if ranges is not None:
        loaded = tuple(_load(store, run_id, results) for run_id in _named_runs(store, selector, ranges, measurements))
        return [Series(run_label(loaded[0].row), loaded)]
    study, _, implementation = selector.partition(":")
    found = [m for m in studies.members(store, study) if not implementation or m.implementation == implementation]
    if not found:
        known = sorted({m.implementation for m in studies.members(store, study)})
        if known:
            raise StoreError(f"study {study!r} has no implementation {implementation!r}; it has "
                             f"{', '.join(known)}")
        raise StoreError(f"{selector!r} is neither a run id nor a study in {store.path} (runs: 12, 12-16, 12,13); "
                         "'mpimark runs' and 'mpimark study list' show what is stored")
    by_label: dict[str, list[LoadedRun]] = {}
    for member in found:
        by_label.setdefault(member.implementation, []).append(_load(store, member.run_id, results))
    # The order `mpimark matrix --mpi` gave, where a plan says it; else by label.
    planned = [i["label"] for plan in studies.plans(store, study) for i in plan.get("implementations", [])]
    rank: dict[str, int] = {}
    for position, label in enumerate(planned):
        rank.setdefault(label, position)
    ordered = sorted(by_label, key=lambda label: rank.get(label, len(planned)))
    return [Series(label, tuple(by_label[label])) for label in ordered]


def load(store: Store, selectors: list[str] | tuple[str, ...], results: bool = True,
         measurements: bool = True) -> list[Series]:
    """Every selector's series, in order; equal labels get the run id (or a count) added. results,
    measurements: as resolve's."""
    series = [s for selector in selectors for s in resolve(store, selector, results, measurements)]
    counts: dict[str, int] = {}
    for s in series:
        counts[s.label] = counts.get(s.label, 0) + 1
    unique, seen = [], {}
    for s in series:
        label = s.label
        if counts[label] > 1:
            seen[label] = seen.get(label, 0) + 1
            label = f"{label} (run {s.runs[0].row.id})" if len(s.runs) == 1 else f"{label} #{seen[label]}"
        unique.append(Series(label, s.runs))
    return unique


NOT_RECORDED = "nodes not recorded"


def per_node(row: RunRow) -> str | None:
    """Ranks per node as a run's record says: "2", "1-2" (uneven); None when not recorded (imported text)."""
    if not row.nodes or not row.ranks_per_node:
        return None
    low, high = min(row.ranks_per_node), max(row.ranks_per_node)
    return str(low) if low == high else f"{low}-{high}"


def by_placement(series: list[Series]) -> list[Series]:
    """The series split by ranks per node where the selection's runs were placed differently.

    4 ranks on one node and 4 ranks on two nodes are different measurements
    (shared memory against the network); against process count a series of
    one ranks-per-node keeps its line (2 ranks on 1 node, 4 on 2, 8 on 4).
    Only a selection in which some process count ran on different nodes ×
    ranks per node is split: each series by ranks per node, every label
    saying it ("Open MPI 4.1.4, 2 ranks/node"), keeping its implementation
    (family). 2 and 4 ranks on one node, or 2 ranks per node on 1, 2 and 4
    nodes, are returned as they are (the tables say each count's nodes).
    """
    shapes: dict[int, set[tuple]] = {}
    for s in series:
        for run in s.runs:
            if per_node(run.row) is not None:
                count = run.row.processes or run.row.requested_processes
                shapes.setdefault(count, set()).add((run.row.nodes, tuple(sorted(run.row.ranks_per_node))))
    if all(len(found) < 2 for found in shapes.values()):
        return series
    out = []
    for s in series:
        if s.family:  # split already
            out.append(s)
            continue
        groups: dict[str | None, list[LoadedRun]] = {}
        for run in s.runs:
            groups.setdefault(per_node(run.row), []).append(run)
        for ranks in sorted(groups, key=lambda g: (g is None, _number(g))):
            suffix = NOT_RECORDED if ranks is None else f"{ranks} ranks/node"
            out.append(Series(f"{s.label}, {suffix}", tuple(groups[ranks]), s.implementation))
    return out


def _number(ranks: str | None) -> tuple[int, str]:
    return (int(ranks.split("-")[0]), ranks) if ranks else (0, "")
