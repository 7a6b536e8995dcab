"""Imports write in batches (Store.add_run): other writers get the lock between two, and an import that
fails, is interrupted or is killed leaves no run that could pass for a whole one."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from mpimark.commands import recording
from mpimark.storage import store as store_module
from mpimark.storage.store import IMPORTING, Store, StoreError

from .cli_helpers import invoke
from .records import end_record, result_record, run_record

META = {"launch_command": ["import"], "suite": "imported:imb", "requested_processes": 2, "mpi_name": None,
        "mpi_prefix": None, "source_sha256": "ab" * 32}


@pytest.fixture
def small_batches(monkeypatch):
    monkeypatch.setattr(store_module, "IMPORT_BATCH_ROWS", 3)


def rows(count: int, then=None):
    """A stream of count results; then(k) is called before the k-th (0-based) is handed over."""
    yield run_record()
    for k in range(count):
        if then:
            then(k)
        yield result_record(bytes=k, count=k)
    yield end_record()


def test_another_writer_gets_the_lock_during_an_import(tmp_path, small_batches):
    """The other writer (a run beginning) waits at most 0.2 s, in the middle of the import: before, an
    import held the lock from its first row to its last."""
    db = tmp_path / "results.db"
    other_runs = []
    with Store(db) as importer, Store(db, timeout_s=0.2) as other:
        def meanwhile(k):
            if k in (4, 7):  # a batch or more has been written: the run exists, the lock is free
                other_runs.append(other.begin_run(launch_command=["mpiexec"], environment={}, mpi_name="openmpi",
                                                  mpi_prefix=None, requested_processes=2, suite="mpi1"))
                assert importer.run(1).status == "running" and importer.run(1).results > 0

        run_id = importer.add_run(records=rows(10, meanwhile), status="complete", message="imported", **META)
        assert importer.run(run_id).status == "complete" and importer.run(run_id).results == 10
        assert [r.id for r in importer.runs()] == [3, 2, 1] and other_runs == [2, 3]


def test_a_writer_in_another_thread_waits_a_batch_not_the_import(tmp_path, monkeypatch):
    """Real time: each batch is slow to read (0.05 s a record); the other writer asks every 0.02 s."""
    monkeypatch.setattr(store_module, "IMPORT_BATCH_ROWS", 2)
    db = tmp_path / "results.db"
    Store(db).close()
    waits, done = [], threading.Event()

    def writer():
        with Store(db, timeout_s=5) as other:
            while not done.is_set():
                asked = time.monotonic()
                with other.transaction():
                    pass
                waits.append(time.monotonic() - asked)
                time.sleep(0.02)

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        with Store(db) as importer:
            importer.add_run(records=rows(20, lambda k: time.sleep(0.05)), status="complete", message=None, **META)
    finally:
        done.set()
        thread.join()
    assert len(waits) > 10 and max(waits) < 0.5, waits  # the whole import takes more than 1 s


@pytest.mark.parametrize("interruption", [ValueError("line 9: broken"), KeyboardInterrupt()])
def test_an_import_that_fails_half_way_leaves_nothing(tmp_path, small_batches, interruption):
    def fail(k):
        if k == 7:  # batches written already
            raise interruption

    with Store(tmp_path / "results.db") as store:
        with pytest.raises(type(interruption)):
            store.add_run(records=rows(10, fail), status="complete", message=None, **META)
        assert store.runs() == [] and store.query("SELECT count(*) FROM results") == [(0,)]
        assert store.run_of_source(META["source_sha256"]) is None  # so the file may be imported again


def test_a_run_being_imported_says_so(tmp_path, small_batches):
    seen = []
    with Store(tmp_path / "results.db") as store:
        def look(k):
            if k == 5:
                row = store.run(1)
                seen.append((row.status, row.status_message, row.owner["import"], row.owner["pid"]))

        store.add_run(records=rows(8, look), status="complete", message="imported from x", **META)
        assert seen == [("running", IMPORTING, True, os.getpid())]
        assert store.run(1).status_message == "imported from x"


def test_a_killed_import_is_known_and_recover_deletes_it(tmp_path):
    """SIGKILL half way: the batches written stay, as a 'running' run of a dead mpimark marked as an import;
    `runs` says so and recover deletes it."""
    db = tmp_path / "results.db"
    script = textwrap.dedent(f"""
        import os, signal, sys
        sys.path[:0] = {[str(Path(__file__).parent.parent.parent), str(Path(__file__).parent.parent.parent / "src")]}
        from mpimark.storage import store as store_module
        from tests.unit.test_import_batches import META, rows
        store_module.IMPORT_BATCH_ROWS = 3
        def die(k):
            if k == 7:
                os.kill(os.getpid(), signal.SIGKILL)
        with store_module.Store({str(db)!r}) as store:
            store.add_run(records=rows(10, die), status="complete", message=None, **META)
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == -9, done.stderr
    with Store(db) as store:
        row = store.run(1)
        assert (row.status, row.owner["import"], row.results) == ("running", True, 5)  # two batches of 3 records
        messages = []
        assert recording.recover(store, lambda run_id, why: messages.append(why)) == [1]
        assert store.runs() == [] and "died while importing it" in messages[0]


def test_a_bad_final_status_stores_nothing(tmp_path):
    with Store(tmp_path / "results.db") as store:
        with pytest.raises(StoreError, match="a run ends"):
            store.add_run(records=rows(2), status="done", message=None, **META)
        assert store.runs() == []


def test_commands_during_an_import(tmp_path, small_batches):
    """runs lists the run as being imported; show, export and compare (a selection) say it is not all there,
    rather than show part of it as a run."""
    db = tmp_path / "results.db"
    said = []
    with Store(db) as store:
        def read(k):
            if k == 4:
                said.extend(invoke(*command, "--db", str(db)) for command in
                            (("runs",), ("show", "1"), ("export", "1"), ("compare", "1", "1")))

        store.add_run(records=rows(6, read), status="complete", message=None, **META)
    listed, *refused = said
    assert listed.exit_code == 0 and "being imported" in listed.stdout
    for result in refused:
        assert result.exit_code != 0 and "run 1 is being imported: not all of its records are stored yet" in (
            result.stderr), result.stderr
    assert invoke("show", "1", "--db", str(db)).exit_code == 0
