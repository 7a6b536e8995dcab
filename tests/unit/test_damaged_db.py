"""A damaged database is refused for writing with SQLite's reason, and still read (issue 23, 5); a -wal/-shm
left read-only by a session on a read-only database no longer fails every write without saying why."""

from __future__ import annotations

import os
import pickle
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from mpimark.storage import intact
from mpimark.storage.store import Store, StoreError

from .cli_helpers import assert_one_error_line, invoke

IMB_TEXT = Path(__file__).parent / "data" / "import" / "imb_2021.txt"
FREELIST_REASON = "Main freelist: size is 0 but should be 7"


def _damage(db: Path) -> None:
    """The header's count of free pages set to 7 with no free page: PRAGMA quick_check's FREELIST_REASON."""
    data = bytearray(db.read_bytes())
    data[36:40] = (7).to_bytes(4, "big")
    db.write_bytes(bytes(data))


@pytest.fixture
def damaged(tmp_path) -> Path:
    db = tmp_path / "results.db"
    assert invoke("import", str(IMB_TEXT), "--db", str(db)).exit_code == 0
    _damage(db)
    return db


def test_writes_to_a_damaged_database_are_refused_with_the_reason(damaged):
    before = damaged.read_bytes()
    line = assert_one_error_line(invoke("import", str(IMB_TEXT), "--again", "--db", str(damaged)))
    assert f"{damaged} is damaged (SQLite's quick_check: {FREELIST_REASON}); nothing is written to it" in line
    assert ".recover" in line
    with pytest.raises(StoreError, match="is damaged"):
        Store(damaged)  # what `mpimark run` opens before it launches
    assert damaged.read_bytes() == before


def test_a_damaged_database_can_still_be_read(damaged):
    exported = invoke("export", "1", "--format", "csv", "--db", str(damaged))
    assert exported.exit_code == 0 and len(exported.stdout.splitlines()) == 8
    with Store(damaged, for_reading=True) as store, pytest.raises(StoreError, match="is damaged"):
        store.delete_run(1)  # a reading command that writes (runs: recover) is checked at its first write


def test_a_big_database_is_checked_again_once_changed(tmp_path, monkeypatch):
    monkeypatch.setattr(intact, "CHECK_ALWAYS_BYTES", 0)  # every database counts as big
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    db = tmp_path / "results.db"
    Store(db).close()  # checked, and remembered as intact
    assert list((tmp_path / "cache" / "mpimark" / "intact").iterdir())
    kept = os.stat(db)
    _damage(db)
    os.utime(db, ns=(kept.st_atime_ns, kept.st_mtime_ns))
    Store(db).close()  # as mpimark left it (inode, size, time): not read again, as documented in intact.py
    os.utime(db, ns=(kept.st_atime_ns, kept.st_mtime_ns + 1))  # touched behind mpimark's back
    with pytest.raises(StoreError, match=FREELIST_REASON):
        Store(db)


def _as_nobody(work) -> object:
    """work() in a child process running as the user nobody: its result, or the text of its StoreError."""
    if os.geteuid() != 0:
        pytest.skip("needs root, to play a second user")
    read, write = os.pipe()
    child = os.fork()
    if child == 0:
        try:
            os.setgid(65534)
            os.setuid(65534)
            try:
                answer = work()
            except StoreError as exc:
                answer = str(exc)
            except BaseException as exc:  # noqa: BLE001 - the test shows it, whatever it is
                answer = repr(exc)
            os.write(write, pickle.dumps(answer))
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as stream:
        answer = pickle.loads(stream.read())
    os.waitpid(child, 0)
    return answer


def _begin(db: Path) -> int:
    with Store(db) as store:
        return store.begin_run(launch_command=["mpiexec"], environment={}, mpi_name=None, mpi_prefix=None,
                               requested_processes=2, suite="mpi1")


@pytest.fixture
def read_only_session() -> Iterator[Path]:
    """A database of nobody's that nobody read while it was read-only (SQLite then leaves a -wal and a -shm
    with the database's mode, 0444), and then made writable again."""
    directory = Path(tempfile.mkdtemp(prefix="mpimark-nobody-"))  # not under tmp_path: nobody cannot reach it
    shutil.chown(directory, "nobody")
    db = directory / "results.db"

    def read_while_read_only():
        Store(db).close()
        db.chmod(0o444)
        with Store(db, for_reading=True) as store:
            store.runs()
        db.chmod(0o644)
        return sorted(p.name for p in directory.iterdir() if not os.access(p, os.W_OK))

    try:
        assert _as_nobody(read_while_read_only) == ["results.db-shm", "results.db-wal"]
        yield db
    finally:
        shutil.rmtree(directory)


def test_own_side_files_left_read_only_are_made_writable(read_only_session):
    # Before: "cannot use the results database ...: attempt to write a readonly database", and nothing more.
    assert _as_nobody(lambda: _begin(read_only_session)) == 1


def test_another_users_read_only_side_file_says_what_to_do(read_only_session):
    shm = Path(f"{read_only_session}-shm")
    shutil.chown(shm, "root")
    answer = _as_nobody(lambda: _begin(read_only_session))
    assert f"{shm} cannot be written" in answer and f"rm {shm}" in answer
