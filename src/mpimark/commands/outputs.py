"""Files a command writes while it uses a results database: never that database or its -wal/-shm.

`run --json DB` once replaced the database with the stream, `export -o DB`
truncated it to 0 bytes and `report -o DB` wrote HTML over it. Every output
path (a file, or each file a command writes into an output directory) is
checked here before anything is launched or written: the same file by its
resolved path (symlinks, `..`) or, where both exist, by device and inode
(a hard link), not just the same string.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

import click

from mpimark.storage.store import default_path

# What SQLite keeps beside a database: the write-ahead log, its shared-memory index and, for a database
# in rollback mode (an old copy), the rollback journal. Writing any of them corrupts the database.
SIDE_FILES = ("", "-wal", "-shm", "-journal")


def database_files(db: str | Path | None) -> list[Path]:
    """The results database (db, or the default when None) and its side files, resolved."""
    path = Path(db).expanduser() if db else default_path()
    resolved = path.resolve()
    return [resolved.with_name(resolved.name + suffix) for suffix in SIDE_FILES]


def _same_file(output: Path, target: Path) -> bool:
    if output == target:
        return True
    try:
        return os.path.samefile(output, target)  # a hard link, or a path the resolve did not see through
    except OSError:
        return False  # one of them does not exist: then the resolved paths decide, as above


def refuse_database(outputs: Iterable[str | Path], db: str | Path | None, option: str) -> None:
    """click.UsageError (exit 2, one line) when one of outputs is the results database db or one of its side files."""
    files = database_files(db)
    for output in outputs:
        resolved = Path(output).expanduser().resolve()
        hit = next((target for target in files if _same_file(resolved, target)), None)
        if hit is not None:
            side = hit.name[len(files[0].name):]
            what = f"the results database's {side} file" if side else "the results database"
            raise click.UsageError(f"{option} {output} is {what} ({hit}): writing it would destroy the stored runs; "
                                   "give another file")
