"""Whether a results database is intact before anything is written to it, at a cost kept off the common case.

A database that failed `PRAGMA quick_check` used to accept imports and
runs, writing into a file whose free-page list or b-trees may be broken
(which can overwrite live pages). Store checks each database it opens for
writing (problem()) and refuses a damaged one with SQLite's reason; reading
commands still read it, so what is left can be exported.

quick_check reads every page: 0.5 to 0.85 s for a 422 MB database with the
file in the page cache (1.2 to 2 ms per MB; benchmarks/README.md), more from disk.
A database below CHECK_ALWAYS_BYTES is checked at every open for writing. A
larger one is checked when it is not as mpimark last left it after a check:
at close (remember()) the file's inode, size and modification time are kept
in the cache directory, and a later open skips the check only while they are
the same and no -wal file is beside it (no write since, by anything). A file
changed behind mpimark's back (another program, a copy, dd) is checked again.
Damage that keeps all three (failing hardware) is not looked for; SQLite
still reports a damaged page when it reads it ("malformed"), which Store
turns into one line.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from pathlib import Path

from mpimark.paths import cache_dir, read_cached_json, write_cached

CHECK_ALWAYS_BYTES = 64 << 20  # quick_check of 64 MiB: about 80 ms from the page cache
PROBLEMS_SHOWN = 3


def problem(conn: sqlite3.Connection, path: Path) -> str | None:
    """What PRAGMA quick_check finds wrong with the database (its first lines), None when it is intact or
    unchanged since mpimark last left it checked."""
    stamp = _stamp(path)
    if stamp is not None and stamp == _remembered(path):
        return None
    found = [row[0] for row in conn.execute(f"PRAGMA quick_check({PROBLEMS_SHOWN})")]
    if found == ["ok"]:
        return None
    # One line: a row may hold several, under a "*** in database main ***" heading.
    lines = [line for row in found for line in row.splitlines() if line.strip() and not line.startswith("***")]
    return "; ".join(lines[:PROBLEMS_SHOWN])


def remember(path: Path) -> None:
    """After mpimark closed a database it checked and wrote: the file as it is now is intact."""
    stamp = _stamp(path)
    if stamp is None:
        return
    write_cached(_stamp_file(path), json.dumps(stamp))  # unwritten, the next open checks again: slower, not wrong


def _stamp(path: Path) -> list | None:
    """The file's inode, size and modification time, when it is big enough to be worth remembering and has
    no -wal beside it (another connection is open, or one ended without checkpointing)."""
    try:
        found = os.stat(path)
    except OSError:
        return None
    if found.st_size < CHECK_ALWAYS_BYTES or os.path.exists(f"{path}-wal"):
        return None
    return [found.st_ino, found.st_size, found.st_mtime_ns]


def _stamp_file(path: Path) -> Path:
    name = hashlib.sha256(str(path.resolve()).encode()).hexdigest()[:32]
    return cache_dir() / "intact" / f"{name}.json"


def _remembered(path: Path) -> list | None:
    found = read_cached_json(_stamp_file(path))
    return found if isinstance(found, list) else None
