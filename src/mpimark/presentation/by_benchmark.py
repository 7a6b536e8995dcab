"""A selection's tables and collectives read from the store a benchmark at a time (report, plot).

The series come loaded without their results (selection.load(..., results=False)); each table (or
collective) is handed over with the series narrowed to the rows of its benchmark (and process count),
in the order plots.tables_of and plots.collectives_of give them, so what is drawn and written is the
same as from the whole run, in memory bounded by one benchmark's rows instead of the run's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TypeVar

from mpimark.presentation import plots
from mpimark.records.figures import table_key
from mpimark.storage.selection import LoadedRun, marked_waiting, Series, with_results_of
from mpimark.storage.store import Store

T = TypeVar("T")


def order(store: Store, series: list[Series]) -> tuple[list[tuple], list[str]]:
    """The table keys of plots.tables_of and the benchmarks of plots.collectives_of, in their order, from
    the results read one at a time: first appearance, series after series, as those functions order them."""
    keys: dict[tuple, None] = {}
    collectives: dict[str, None] = {}
    for s in series:
        for run in s.runs:
            _first_appearances(store, run, keys, collectives)
    return list(keys), list(collectives)


def _first_appearances(store: Store, run: LoadedRun, keys: dict[tuple, None], collectives: dict[str, None]) -> None:
    """order()'s pass over one run (a function of its own: a loop variable would keep the run's last row
    while the next run is read)."""
    job = (run.run or {}).get("processes")
    for record in store.iter_results(run.row.id):
        record = marked_waiting(record, job)
        if plots.size_row(record):
            keys.setdefault(table_key(record))
        if plots.scalable(record):
            collectives.setdefault(record["benchmark"])


def tables(store: Store, series: list[Series], keys: list[tuple],
           make: Callable[[tuple, plots.Lines, list[Series]], T]) -> Iterator[T]:
    """Per table key (in the order given): make(key, its lines (plots.tables_of), the series narrowed to its
    benchmark and process count). What make returns must not hold the rows: a benchmark's rows are let
    go before the next benchmark's are read (a caller's loop variable would hold them over the read)."""
    narrow, lines, loaded = series, {}, None
    for key in keys:
        table = key[0]
        if loaded != (table.benchmark, table.processes):  # a benchmark's tables at one count share rows
            loaded = (table.benchmark, table.processes)
            narrow = lines = None  # the previous benchmark's rows, freed before the next are read
            narrow = with_results_of(store, series, (table.benchmark,), table.processes)
            lines = plots.tables_of(narrow)
        yield make(key, lines[key], narrow)


def each(store: Store, series: list[Series], benchmarks: list[str],
         make: Callable[[str, list[Series]], T]) -> Iterator[T]:
    """Per benchmark (in the order given; e.g. the collectives of order()): make(benchmark, the series
    narrowed to its rows), the rows let go before the next benchmark's are read (as tables)."""
    for benchmark in benchmarks:
        yield make(benchmark, with_results_of(store, series, (benchmark,)))
