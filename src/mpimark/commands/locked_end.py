"""The end of a launch stored in a database another process may hold locked (issue 23, 2).

A launch's last records and its outcome wait for the write lock, up to
locking.lock_wait_s(), with news on stderr. Should it never free, the run
stays 'running' in the database with its records safe in the stream file,
and a note beside that file (STREAM.ended.json: the outcome, and mpimark's
machine event if it was not stored) tells `mpimark recover` that this
mpimark did not die: it ended the run and could not store it. recover then
stores the rest of the stream and finishes the run with that outcome.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from mpimark.commands import note
from mpimark.execution import launch
from mpimark.storage import locking
from mpimark.storage.store import Store, StoreError, StoreLocked

SUFFIX = ".ended.json"


def note_path(stream: Path) -> Path:
    return stream.with_name(stream.name + SUFFIX)


def store_end(store: Store, queue: locking.RecordQueue, outcome: launch.Outcome, stream: Path,
              machine_event: dict) -> None:
    """queue's waiting records and the run's outcome, waiting for the lock; past the wait, StoreError saying
    where the rows are and how to store them, and the note for recover left beside the stream."""

    def store_all() -> None:
        queue.store_waiting()
        store.finish_run(queue.run_id, outcome.status, outcome.message)

    wait_s = locking.lock_wait_s()
    try:
        locking.when_free(store, store_all, f"store the last {len(queue.waiting)} record(s) of run {queue.run_id} "
                                            "and its end", wait_s=wait_s, news=note)
    except StoreLocked:
        unstored = len(queue.waiting)
        _leave(stream, outcome, machine_event if machine_event in queue.waiting else None)
        raise StoreError(f"the results database {store.path} stayed locked for {wait_s:g} s: run {queue.run_id} "
                         f"ended {outcome.status} with {unstored} record(s) not stored, safe in {stream}; "
                         "'mpimark recover' stores them once the other process is done") from None


def _leave(stream: Path, outcome: launch.Outcome, machine_event: dict | None) -> None:
    ended = {"status": outcome.status, "message": outcome.message, "pid": os.getpid(), "machine_event": machine_event}
    try:
        note_path(stream).write_text(json.dumps(ended), encoding="utf-8")
    except OSError:
        pass  # then recover finds the stream alone and takes this mpimark for dead: the rows are still stored


def ended(stream: Path) -> dict | None:
    """The note store_end left beside stream, or None (the mpimark of the run died)."""
    try:
        found = json.loads(note_path(stream).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return found if isinstance(found, dict) and found.get("status") else None


def with_machine_event(records: list[dict], ended_note: dict) -> list[dict]:
    """The stream's records with mpimark's machine event put back after the run record, where it was
    waiting when the run ended (not stored, so not counted by Store.recover_run)."""
    event = ended_note.get("machine_event")
    position = next((i + 1 for i, r in enumerate(records) if r.get("type") == "run"), None)
    if not event or position is None:
        return records
    return [*records[:position], event, *records[position:]]
