"""Whether the launches of a series are one condition: what compare may pool in one row.

A measurement is one or more launches of one condition (docs/analysis.md);
compare pools the launches of a side row by row (figures.key: benchmark,
processes, mode, group, size). A series made by hand (`12-16`, a study's
implementation) can hold launches that are not one condition: another MPI
library, the ranks placed on other nodes, a job of another size whose rows
share a key (-multi rows of a 2- and a 4-rank job). mixed_launches says so,
one line per difference, for the rows where it would happen; rows that only
one kind of launch measured (Allreduce at 2 and at 4 ranks) are apart
already and are not reasons.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable

from mpimark.records import placement, simulation
from mpimark.records.figures import key
from mpimark.records.mpi_library import label as library_label
from mpimark.storage.selection import LoadedRun, marked_waiting, selector_of, Series
from mpimark.storage.store import RunRow, Store

# What a launch must share with the launches it is pooled with: (what it is called, its value for a run,
# None: not recorded, which differs from nothing; and what sets runs apart before they are compared: the
# placement of jobs of another size differs as a matter of course, and is said as their size).
ASPECTS: tuple[tuple[str, Callable[[RunRow], Hashable | None], Callable[[RunRow], Hashable]], ...] = (
    ("MPI library", lambda row: library_label(row.mpi_library_version) or row.mpi_library_version, lambda row: 0),
    ("placement (nodes x ranks per node)", lambda row: placement.shape(row.nodes, row.ranks_per_node),
     lambda row: row.processes),
    ("job size (processes)", lambda row: row.processes, lambda row: 0),
    # A simulated launch (SimGrid SMPI) gives the model's times: never pooled with measured ones, nor with
    # launches simulated on another platform.
    ("machine (measured, or simulated on a platform)", lambda row: simulation.condition(row.simulation),
     lambda row: 0),
)


def mixed_launches(series: Series, store: Store | None = None) -> list[str]:
    """Why the series' launches are not one condition: one line per aspect that differs between runs
    pooled in the same rows ([] when they are one condition).

    The rows each run measured are read from store when given (cheap: keys, not samples; what a series
    loaded with results=False needs), else from the runs' loaded results.
    """
    rows_of = {run.row.id: _keys(run, store) for run in series.runs}
    runs = {run.row.id: run.row for run in series.runs}
    every_key: set[tuple] = set().union(*rows_of.values())
    reasons = []
    for name, value_of, apart in ASPECTS:
        # Per row, the runs measuring it grouped by their value; a row with two values pools unlike launches.
        mixed: dict[tuple, int] = {}
        for row_key in every_key:
            values: dict[Hashable, dict[Hashable, list[int]]] = {}
            for run_id, keys in rows_of.items():
                value = value_of(runs[run_id])
                if row_key in keys and value is not None:
                    values.setdefault(apart(runs[run_id]), {}).setdefault(value, []).append(run_id)
            for found in values.values():
                if len(found) > 1:
                    groups = tuple(sorted((str(v), tuple(ids)) for v, ids in found.items()))
                    mixed[groups] = mixed.get(groups, 0) + 1
        for groups, count in sorted(mixed.items(), key=lambda item: -item[1]):
            sides = "; ".join(f"{value} (run{'s' if len(ids) > 1 else ''} {selector_of(list(ids))})"
                              for value, ids in groups)
            reasons.append(f"{series.label}: {count} row{'s' if count > 1 else ''} would pool launches that "
                           f"differ in {name}: {sides}")
    return reasons


def _keys(run: LoadedRun, store: Store | None) -> set[tuple]:
    """The keys (figures.key) of the rows the run measured."""
    if store is None:
        return {key(record) for record in run.results}
    job = run.row.processes
    return {key(marked_waiting(record, job)) for record in _stored_rows(store, run.row.id)}


def _stored_rows(store: Store, run_id: int) -> Iterable[dict]:
    """The run's result rows as far as their key goes, read by SQL (the samples stay on disk)."""
    rows = store.query(
        "SELECT DISTINCT benchmark, processes, multi, grp, bytes, json_extract(record, '$.mode'),"
        " json_extract(record, '$.communicator') FROM results WHERE run_id = ?", (run_id,))
    for benchmark, processes, multi, group, size, mode, communicator in rows:
        yield {"type": "result", "benchmark": benchmark, "processes": processes, "multi": multi, "group": group,
               "bytes": size, "mode": mode, "communicator": communicator}
