"""A run that ends while another process holds the database's write lock (issue 23, 2; no MPI needed).

A second sqlite3 connection holds BEGIN EXCLUSIVE, as a long import did, from just after the run was begun.
Released after a moment, the run must end complete with every row; never released within the bound
(MPIMARK_LOCK_WAIT_S), the rows must be safe in the stream, the run left for `recover`, which must not take
a live mpimark for dead and, once it is gone, must finish the run with the outcome that mpimark saw.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from mpimark.commands import recording
from mpimark.records.results import MACHINE_EVENT, core_records, read_records
from mpimark.storage import locking
from mpimark.storage.store import owner_now, Store, StoreError

from .test_launch import FAKE, IMPL

MACHINE = {"cpu_model": "test CPU"}


class Locker:
    """Another connection to the database that takes the write lock (BEGIN EXCLUSIVE) and gives it back."""

    def __init__(self, db: Path) -> None:
        self.conn = sqlite3.connect(db, isolation_level=None, check_same_thread=False)

    def hold(self) -> None:
        self.conn.execute("BEGIN EXCLUSIVE")

    def release(self) -> None:
        if self.conn.in_transaction:
            self.conn.execute("COMMIT")


@pytest.fixture
def locked_run(tmp_path, monkeypatch):
    """run_stored of the fake launcher's complete run (5 records), the lock taken right after the run began
    (when mpimark reads the machine's facts) and released after release_after seconds (None: never)."""
    db = tmp_path / "results.db"
    Store(db).close()  # created, as `mpimark run` finds it
    locker = Locker(db)
    monkeypatch.setattr(locking, "NEWS_EVERY_S", 0.2)
    monkeypatch.setattr(recording.launch, "command",
                        lambda impl, n, core, suite, args, json_path, placement, srun, simulation:
                        ([sys.executable, str(FAKE), "complete", "-json", str(json_path)], dict(os.environ)))

    def run(release_after: float | None):
        def facts(core):
            locker.hold()
            if release_after is not None:
                threading.Timer(release_after, locker.release).start()
            return MACHINE

        monkeypatch.setattr(recording.machine, "facts", facts)
        store = Store(db, timeout_s=0.1)
        try:
            return store, recording.run_stored(store, IMPL, 2, "core", "mpi1", [], quiet=True)
        except StoreError as exc:
            return store, exc

    yield db, locker, run
    locker.release()
    locker.conn.close()


def test_the_run_waits_for_the_lock_and_is_stored_whole(locked_run, monkeypatch, capfd):
    db, _, run = locked_run
    monkeypatch.setenv(locking.LOCK_WAIT_ENV, "30")
    store, (run_id, outcome) = run(release_after=1.5)  # the fake's run takes about 0.3 s: it ends locked
    assert outcome.status == "complete"
    assert "is locked by another process; waiting to store the last" in capfd.readouterr().err
    row = store.run(run_id)
    assert (row.status, row.results) == ("complete", 2)
    records = store.records(run_id)
    assert [r["type"] for r in records] == ["run", "event", "event", "result", "result", "end"]
    assert records[1]["kind"] == MACHINE_EVENT  # mpimark's machine event, in its place after the run record
    assert not Path(row.stream_path).exists()  # stored: the scratch stream is gone
    store.close()


def test_a_lock_that_never_frees_leaves_the_rows_safe_for_recover(locked_run, monkeypatch):
    db, locker, run = locked_run
    monkeypatch.setenv(locking.LOCK_WAIT_ENV, "1")
    store, error = run(release_after=None)
    assert isinstance(error, StoreError)
    row = store.runs()[0]  # readers are not blocked by the writer's lock (WAL)
    stream = Path(row.stream_path)
    assert f"stayed locked for 1 s: run {row.id} ended complete with 6 record(s) not stored, safe in {stream}; " \
           "'mpimark recover' stores them" in str(error)
    streamed = read_records(stream)
    assert row.status == "running" and row.results == 0 and len(streamed) == 5
    locker.release()
    # The mpimark of the run still runs (here: this process): recover leaves its run alone.
    assert recording.recover(store) == []
    with store.transaction() as conn:  # now that mpimark is gone
        conn.execute("UPDATE runs SET owner = ? WHERE id = ?", (json.dumps({**owner_now(), "start": -1}), row.id))
    assert recording.recover(store) == [row.id]
    done = store.run(row.id)
    assert done.status == "complete" and "ended the run complete but found the database locked" in done.status_message
    records = store.records(row.id)
    assert core_records(records) == streamed
    assert [r.get("kind") for r in records].count(MACHINE_EVENT) == 1 and records[1]["kind"] == MACHINE_EVENT
    assert not stream.exists() and not Path(f"{stream}.ended.json").exists()
    store.close()


def test_the_news_names_the_process_holding_the_lock(tmp_path, monkeypatch):
    db = tmp_path / "results.db"
    Store(db).close()
    holder = subprocess.Popen([sys.executable, "-c", "import sqlite3, sys, time; c = sqlite3.connect(sys.argv[1], "
                               "isolation_level=None); c.execute('BEGIN EXCLUSIVE'); print('held', flush=True); "
                               "time.sleep(60)", str(db)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline() == "held\n"
        monkeypatch.setattr(locking, "NEWS_EVERY_S", 0.2)
        news: list[str] = []
        with Store(db, timeout_s=0.1) as store, pytest.raises(StoreError) as refused:
            locking.when_free(store, lambda: store.delete_run(1), "delete run 1", wait_s=0.5, news=news.append)
        assert news and all(f"(open in pid {holder.pid} ({sys.executable} -c import sqlite3" in line for line in news)
        assert "stayed locked by another process" in str(refused.value) and "could not delete run 1" in str(refused.value)
    finally:
        holder.kill()
        holder.wait()
