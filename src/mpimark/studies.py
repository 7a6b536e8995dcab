"""Studies: named sets of stored runs, each run under an implementation label.

A study is what `mpimark matrix` produces (the same benchmarks run with
several MPI implementations, process counts, launches), and what compare,
plot and report take as `STUDY` or `STUDY:impl`. Only membership is kept
here; the runs themselves are ordinary runs of the store.

The table lives in the results database next to the store's own tables but
outside its migrations (store.py is another module's contract): it is
created with CREATE TABLE IF NOT EXISTS on first use, needs no version
number, and rows go when their run goes (ON DELETE CASCADE). Should store.py
ever take studies over, its migration can adopt this table as it is.

The boundary the matrix command calls:  add_run(store, study, run_id, implementation)
and, once per invocation, add_plan(store, study, plan): what it was asked to run
and in which order (the implementations, process counts, rounds, the shuffle
seed), kept as JSON in the table study_plans.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone

from mpimark.store import Store, StoreError

TABLE = """CREATE TABLE IF NOT EXISTS study_runs (
    study TEXT NOT NULL,
    implementation TEXT NOT NULL,
    run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    added_utc TEXT NOT NULL,
    PRIMARY KEY (study, run_id)
)"""


PLANS = """CREATE TABLE IF NOT EXISTS study_plans (
    study TEXT NOT NULL,
    added_utc TEXT NOT NULL,
    plan TEXT NOT NULL
)"""


@dataclass(frozen=True)
class Member:
    study: str
    implementation: str
    run_id: int


def check_name(study: str) -> None:
    """Study names must not look like run ids or selectors (`12`, `a:b`)."""
    if not study or study.isdigit() or ":" in study or study != study.strip():
        raise StoreError(f"{study!r} cannot name a study: use a name that is not a number and has no ':' "
                         "or surrounding spaces")


@contextmanager
def _connection(store: Store) -> Iterator[sqlite3.Connection]:
    # Our own connection to the store's file: Store opened (and migrated) it
    # already, and WAL mode lets both connections work side by side.
    try:
        conn = sqlite3.connect(store.path, timeout=5.0)
    except sqlite3.Error as exc:
        raise StoreError(f"cannot open {store.path}: {exc}") from None
    try:
        conn.execute("PRAGMA foreign_keys=ON")
        conn.execute(TABLE)
        conn.execute(PLANS)
        with conn:  # one transaction, committed on success
            yield conn
    except sqlite3.Error as exc:
        raise StoreError(f"cannot use the studies in {store.path}: {exc}") from None
    finally:
        conn.close()


def _now() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def add_plan(store: Store, study: str, plan: dict) -> None:
    """Record what a `mpimark matrix` invocation set out to run in study (JSON-serialisable plan)."""
    check_name(study)
    with _connection(store) as conn:
        conn.execute("INSERT INTO study_plans (study, added_utc, plan) VALUES (?, ?, ?)",
                     (study, _now(), json.dumps(plan, separators=(",", ":"))))


def plans(store: Store, study: str) -> list[dict]:
    """The plans recorded for study, oldest first, each with its added_utc."""
    with _connection(store) as conn:
        rows = conn.execute("SELECT added_utc, plan FROM study_plans WHERE study = ? ORDER BY rowid",
                            (study,)).fetchall()
    return [{"added_utc": added, **json.loads(plan)} for added, plan in rows]


def add_run(store: Store, study: str, run_id: int, implementation: str | None = None) -> Member:
    """Put a stored run into a study; implementation defaults to the run's MPI name.

    Adding a run again replaces its implementation label.
    """
    check_name(study)
    row = store.run(run_id)  # StoreError when there is no such run
    label = implementation or row.mpi_name or f"run{run_id}"
    with _connection(store) as conn:
        conn.execute("INSERT OR REPLACE INTO study_runs (study, implementation, run_id, added_utc)"
                     " VALUES (?, ?, ?, ?)", (study, label, run_id, _now()))
    return Member(study, label, run_id)


def members(store: Store, study: str | None = None) -> list[Member]:
    """The runs of one study (or of all), by study, implementation, run id."""
    query = "SELECT study, implementation, run_id FROM study_runs"
    with _connection(store) as conn:
        rows = (conn.execute(query + " WHERE study = ? ORDER BY 1, 2, 3", (study,)) if study is not None
                else conn.execute(query + " ORDER BY 1, 2, 3")).fetchall()
    return [Member(*row) for row in rows]
