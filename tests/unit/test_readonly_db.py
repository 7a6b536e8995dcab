"""A results database that cannot be written (read-only file system, another user's directory) can be read."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from mpimark.storage import store as store_module
from mpimark.storage.store import Store, StoreError

from .cli_helpers import invoke
from .conftest import store_records
from .records import end_record, result_record, run_record


def _fill(path):
    with Store(path) as store:
        store_records(store, [run_record(), result_record(), end_record()], status="complete")
        store_records(store, [run_record(), result_record(), end_record()], status="complete")


def _read_commands(db) -> list:
    return [invoke("runs", "--db", str(db)), invoke("show", "1", "--db", str(db)),
            invoke("export", "1", "--format", "csv", "--db", str(db)),
            invoke("compare", "1", "2", "--db", str(db))]


def test_an_unwritable_database_is_opened_read_only(tmp_path, monkeypatch):
    db = tmp_path / "results.db"
    _fill(db)
    monkeypatch.setattr(store_module, "writable", lambda path: False)  # as on a read-only file system
    for result in _read_commands(db):
        assert result.exit_code == 0, result.output
    with Store(db, for_reading=True) as store:
        assert store.readonly and store.run(1).status == "complete"
        with pytest.raises(StoreError):
            store.finish_run(1, "failed")


def test_an_older_unwritable_database_says_what_to_do(tmp_path, monkeypatch):
    db = tmp_path / "results.db"
    _fill(db)
    with Store(db) as store:
        store.query("PRAGMA user_version = 1")
    monkeypatch.setattr(store_module, "writable", lambda path: False)
    with pytest.raises(StoreError, match="older mpimark .* copy it somewhere writable"):
        Store(db, for_reading=True)


@pytest.fixture
def read_only_mount(tmp_path):
    """A small tmpfs remounted read-only (root only; skipped where mounting is not allowed)."""
    where = tmp_path / "ro"
    where.mkdir()
    if shutil.which("mount") is None or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(where)],
                                                       capture_output=True).returncode:
        pytest.skip("cannot mount a tmpfs here (needs root)")
    try:
        yield where
    finally:
        subprocess.run(["umount", str(where)], capture_output=True)


def test_a_database_on_a_read_only_file_system(read_only_mount):
    db = read_only_mount / "results.db"
    _fill(db)
    assert subprocess.run(["mount", "-o", "remount,ro", str(read_only_mount)], capture_output=True).returncode == 0
    for result in _read_commands(db):
        assert result.exit_code == 0, result.output
    assert "complete" in _read_commands(db)[0].stdout
