"""Other suites' text output (IMB, OSU Micro-Benchmarks, mpiBench, b_eff's .sum/.short), and the core's own
stream, as stored runs.

parse_file() reads and checks a whole file and returns how to read its
records again (Parsed.rows), or raises ImportFormatError naming file and
line. An IMB file, the one format whose logs reach hundreds of MB, may be
parsed without that check (check=False, as `mpimark import` does): its rows
are then checked as they are stored, in one read, and a bad line deletes
what was stored of the file (Store.add_run). Each
file becomes one run (suite `imported:<format>`) holding an `import` event,
which says where the records came from and what the file's header said,
and the result records. There is no `run` record: its fields (timer
self-test, load, cores) are things the other suites do not report; what a
file does say of the run (its start, the MPI library) goes into the run's
columns (Parsed.run_columns), and the import's own time into the event.

The core's own JSON Lines stream (format `jsonl`, a run launched by hand)
is stored as it is, with its run record: see jsonl.py.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path

from mpimark.storage.importers import beff, imb, jsonl, mpibench, osu
from mpimark.storage.importers.common import fail, ImportFormatError, Parsed
from mpimark.storage.store import ImportEnd, Store

FORMATS = ("imb", "osu", "mpibench", "beff", "jsonl")
FORMAT_NAMES = {"imb": "IMB text", "osu": "OSU Micro-Benchmarks", "mpibench": "mpiBench",
                "beff": "b_eff's .sum/.short", "jsonl": "mpimark-core's JSON Lines"}

_SIGNS = (
    ("imb", re.compile(r"^#\s*(Benchmarking\s|.*Intel ?\(R\) MPI Benchmark)", re.M)),
    ("osu", re.compile(r"^#\s*(OSU\s|OMB[\s-])", re.M)),  # OSU's C programs; OMB-Py's "# OMB Python", "# OMB-Py"
    ("mpibench", re.compile(r"^(START mpiBench|\s*\S+\s+Bytes:\s)", re.M)),
    # b_eff's files all begin so, but its .plot (refused with what to import instead: beff.py).
    ("beff", re.compile(rf"^SECTION-HEAD-BEGIN\s*$|{beff.PLOT_HEAD.pattern}", re.M)),
)

__all__ = ["FORMATS", "ImportFormatError", "Parsed", "detect", "file_sha256", "parse_file", "store_parsed"]


HEAD_BYTES = 1 << 16  # what detect() looks at: every format says what it is near the top


def detect(path: Path, text: str) -> str:
    if jsonl.looks_like(text):
        return "jsonl"
    for fmt, sign in _SIGNS:
        if sign.search(text):
            return fmt
    raise fail(path, None, "not IMB, OSU, mpiBench or b_eff output nor mpimark-core's JSON Lines (no '# Benchmarking', "
                           "'# OSU ... Test', '<Op> Bytes:' or 'SECTION-HEAD-BEGIN' line, no JSON object); if it is "
                           "one of them, say which with --format")


def _head(path: Path) -> str:
    """The first HEAD_BYTES of the file as text (a character cut at the end is dropped)."""
    try:
        with path.open("rb") as f:
            data = f.read(HEAD_BYTES)
    except OSError as exc:
        raise fail(path, None, f"cannot read: {exc.strerror or exc}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        if len(data) == HEAD_BYTES and exc.start >= len(data) - 3:
            return data[:exc.start].decode("utf-8")
        raise fail(path, None, f"not a UTF-8 text file ({exc.reason} at byte {exc.start})") from None


def _lines(path: Path, newline: str = "") -> Iterator[str]:
    """The file's lines, read as they are needed (a file of any size takes a buffer's worth of memory).

    newline as open()'s: "" ends a line at \\n, \\r or \\r\\n, "\\n" at \\n alone."""
    try:
        with path.open(encoding="utf-8", newline=newline) as f:
            yield from f
    except UnicodeDecodeError as exc:
        raise fail(path, None, f"not a UTF-8 text file ({exc.reason})") from None
    except OSError as exc:
        raise fail(path, None, f"cannot read: {exc.strerror or exc}") from None


def parse_file(path: str | Path, fmt: str = "auto", processes: int | None = None,
               check: bool = True) -> Parsed | jsonl.Stream:
    """The records of one file; processes is the count for outputs that do not print it (OSU collectives).

    Every format is read as a stream, at least twice (checked now, its rows again when stored), so a file
    of any size is imported in bounded memory; IMB text without check only once, when stored (store_parsed
    checks it then, to its end).
    """
    path = Path(path)
    if fmt == "auto":
        fmt = detect(path, _head(path))
    if fmt == "jsonl":
        return jsonl.parse(path, lambda: _lines(path, newline="\n"))
    if fmt == "imb":
        parsed = imb.parse(path, lambda: _lines(path), check)
        if not check:
            return parsed
    elif fmt == "osu":
        parsed = osu.parse(path, lambda: _lines(path), processes)
    elif fmt == "mpibench":
        parsed = mpibench.parse(path, lambda: _lines(path), processes)
    elif fmt == "beff":
        parsed = beff.parse(path, lambda: _lines(path))
    else:
        raise ValueError(f"unknown import format {fmt!r}")
    _require_rows(parsed)
    return parsed


def _require_rows(parsed: Parsed) -> None:
    if not parsed.count:
        raise fail(parsed.path, None, f"{FORMAT_NAMES[parsed.fmt]} output without a single result row")


def import_event(parsed: Parsed) -> dict:
    """The event that says where a run's records came from (and what the importer assumed)."""
    header = "; ".join(f"{k}: {v}" for k, v in parsed.source.items())
    message = f"imported {parsed.count} results from {parsed.path} ({FORMAT_NAMES[parsed.fmt]}"
    message += f"; {header})" if header else ")"
    if parsed.notes:
        message += "; " + "; ".join(parsed.notes)
    if parsed.incomplete:
        message += f"; incomplete: {parsed.incomplete}"
    # The run's start is the file's where it says one (Parsed.run_columns); the import's own time is kept here.
    return {"type": "event", "level": "info", "kind": "import", "message": message,
            "source_format": parsed.fmt, "source_file": str(parsed.path), "source": parsed.source,
            "notes": parsed.notes, "imported_utc": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")}


def file_sha256(path: Path) -> str:
    """The SHA-256 of a file's bytes, read a MiB at a time: what tells an import of the same file again."""
    digest = hashlib.sha256()
    try:
        with path.open("rb") as f:
            while chunk := f.read(1 << 20):
                digest.update(chunk)
    except OSError as exc:
        raise fail(path, None, f"cannot read: {exc.strerror or exc}") from None
    return digest.hexdigest()


def store_parsed(store: Store, parsed: Parsed | jsonl.Stream, mpi_name: str | None = None,
                 sha256: str | None = None) -> int:
    """Store one parsed file as a run, in batches (Store.add_run); returns its id.

    Should the file be found bad (a Parsed of IMB text not checked yet is checked now), the database fail
    half way, or the import be interrupted, nothing of the file is kept; an mpimark killed outright leaves a
    run marked as being imported, which `mpimark recover` deletes. The counts of parsed (count, notes, ...)
    are known once it returns. sha256 (the file's, file_sha256) is stored with the run for
    Store.run_of_source.
    """
    if isinstance(parsed, jsonl.Stream):
        return jsonl.store(store, parsed, mpi_name, sha256)

    def ending() -> ImportEnd:  # the rows are read: their counts are known now
        _require_rows(parsed)
        message = f"imported from {parsed.path}" + (f"; {parsed.incomplete}" if parsed.incomplete else "")
        return ImportEnd(first=import_event(parsed), status=parsed.status, message=message,
                         requested_processes=parsed.max_processes)

    return store.add_run(
        launch_command=parsed.command_line, environment={}, mpi_name=mpi_name, mpi_prefix=None,
        requested_processes=parsed.max_processes,  # 0 until a file read as it is stored is read (ending)
        suite=f"imported:{parsed.fmt}", source_sha256=sha256, records=(parsed.stored or parsed.rows)(),
        ending=ending, **parsed.run_columns)
