"""Studies: named sets of stored runs, each run under an implementation label.

A study is what `mpimark matrix` produces (the same benchmarks run with
several MPI implementations, process counts, launches), and what compare,
plot and report take as `STUDY` or `STUDY:impl`. Only membership is kept
here; the runs themselves are ordinary runs of the store.

The tables (study_runs, study_plans) are created by the store's migration 2
(store.py); rows go when their run goes (ON DELETE CASCADE).

The boundary the matrix command calls:  add_run(store, study, run_id, implementation)
and, once per invocation, add_plan(store, study, plan): what it was asked to run
and in which order (the implementations, process counts, launches, the shuffle
seed), kept as JSON in the table study_plans.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import datetime, timezone

from mpimark.storage.store import Store, StoreError

@dataclass(frozen=True)
class Member:
    study: str
    implementation: str
    run_id: int


def check_name(study: str) -> None:
    """Study names must not look like run ids or selectors (`12`, `12-16`, `12,13`, `a:b`)."""
    if not study or re.fullmatch(r"[\d,-]+", study) or ":" in study or study != study.strip():
        raise StoreError(f"{study!r} cannot name a study: use a name that is not run ids (12, 12-16, 12,13) and "
                         "has no ':' or surrounding spaces")


def _now() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def add_plan(store: Store, study: str, plan: dict) -> None:
    """Record what a `mpimark matrix` invocation set out to run in study (JSON-serialisable plan)."""
    check_name(study)
    with store.transaction() as conn:
        conn.execute("INSERT INTO study_plans (study, added_utc, plan) VALUES (?, ?, ?)",
                     (study, _now(), json.dumps(plan, separators=(",", ":"))))


def plans(store: Store, study: str) -> list[dict]:
    """The plans recorded for study, oldest first, each with its added_utc and its launches: the launches
    of each condition (plans written before --launches was named so call it "repeat")."""
    rows = store.query("SELECT added_utc, plan FROM study_plans WHERE study = ? ORDER BY rowid", (study,))
    return [_with_launches({"added_utc": added, **json.loads(plan)}) for added, plan in rows]


def _with_launches(plan: dict) -> dict:
    launches = plan.get("launches", plan.get("repeat"))
    # "repeat" stays given as well while `study list` (commands/analysis_cmds.py) still reads that key.
    return {**plan, "launches": launches, "repeat": launches} if launches is not None else plan


def add_run(store: Store, study: str, run_id: int, implementation: str | None = None) -> Member:
    """Put a stored run into a study; implementation defaults to the run's MPI name.

    Adding a run again replaces its implementation label.
    """
    check_name(study)
    row = store.run(run_id)  # StoreError when there is no such run
    label = implementation or row.mpi_name or f"run{run_id}"
    with store.transaction() as conn:
        conn.execute("INSERT OR REPLACE INTO study_runs (study, implementation, run_id, added_utc)"
                     " VALUES (?, ?, ?, ?)", (study, label, run_id, _now()))
    return Member(study, label, run_id)


def members(store: Store, study: str | None = None) -> list[Member]:
    """The runs of one study (or of all), by study, implementation, run id."""
    query = "SELECT study, implementation, run_id FROM study_runs"
    rows = (store.query(query + " WHERE study = ? ORDER BY 1, 2, 3", (study,)) if study is not None
            else store.query(query + " ORDER BY 1, 2, 3"))
    return [Member(*row) for row in rows]
