"""From the command line's RUN and STUDY selectors to labelled series of stored runs.

A selector is a run id (`12`), a study (`mpi-eval`: one series per
implementation in it) or one implementation of a study (`mpi-eval:openmpi`).
A series is what one line of a plot or one column of a report table shows:
one implementation, possibly over several runs (process counts, launches).
"""

from __future__ import annotations

from dataclasses import dataclass

from mpimark import studies
from mpimark.store import RunRow, Store, StoreError


@dataclass(frozen=True)
class LoadedRun:
    row: RunRow
    records: list[dict]

    @property
    def run(self) -> dict | None:
        """The core's run record (None for imported runs and runs killed before it)."""
        return next((r for r in self.records if r["type"] == "run"), None)

    @property
    def results(self) -> list[dict]:
        return [r for r in self.records if r["type"] == "result"]


@dataclass(frozen=True)
class Series:
    label: str
    runs: tuple[LoadedRun, ...]

    @property
    def results(self) -> list[dict]:
        return [r for run in self.runs for r in run.results]


def run_label(row: RunRow) -> str:
    """The MPI library as a legend names it: "Open MPI v4.1.4" from its long version string."""
    if row.mpi_library_version:
        return row.mpi_library_version.split(",")[0].strip() or f"run {row.id}"
    return row.mpi_name or f"run {row.id}"


def _load(store: Store, run_id: int) -> LoadedRun:
    return LoadedRun(store.run(run_id), store.records(run_id))


def resolve(store: Store, selector: str) -> list[Series]:
    """The series one selector stands for; StoreError when it names nothing."""
    if selector.isdigit():
        run = _load(store, int(selector))
        return [Series(run_label(run.row), (run,))]
    study, _, implementation = selector.partition(":")
    found = [m for m in studies.members(store, study) if not implementation or m.implementation == implementation]
    if not found:
        known = sorted({m.implementation for m in studies.members(store, study)})
        if known:
            raise StoreError(f"study {study!r} has no implementation {implementation!r}; it has "
                             f"{', '.join(known)}")
        raise StoreError(f"{selector!r} is neither a run id nor a study in {store.path}; "
                         "'mpimark runs' and 'mpimark study list' show what is stored")
    by_label: dict[str, list[LoadedRun]] = {}
    for member in found:
        by_label.setdefault(member.implementation, []).append(_load(store, member.run_id))
    return [Series(label, tuple(runs)) for label, runs in by_label.items()]


def load(store: Store, selectors: list[str] | tuple[str, ...]) -> list[Series]:
    """Every selector's series, in order; equal labels get the run id (or a count) added."""
    series = [s for selector in selectors for s in resolve(store, selector)]
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
