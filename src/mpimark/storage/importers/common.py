"""What the importers share: the error they raise, numbers from text, and result records.

An importer turns another suite's text output into result records of
docs/results-format.md. It knows only what the text says, so records carry
null where the text has no figure (the distribution always; times for
bandwidth-only tables; repetitions where no iteration count is printed),
and an empty samples_ns: no samples were kept.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from mpimark.errors import MpimarkError
from mpimark.records.benchmarks import BenchmarkClass, Catalog, core_catalog, lookup
from mpimark.storage.store import fits_integer, MAX_INTEGER

# Bytes per element of the MPI datatypes the suites name; count = bytes / size.
DATATYPE_BYTES = {
    "MPI_BYTE": 1, "MPI_CHAR": 1, "MPI_SIGNED_CHAR": 1, "MPI_UNSIGNED_CHAR": 1, "MPI_SHORT": 2,
    "MPI_INT": 4, "MPI_UNSIGNED": 4, "MPI_FLOAT": 4, "MPI_LONG": 8, "MPI_DOUBLE": 8,
    "MPI_LONG_LONG": 8, "MPIX_C_FLOAT16": 2, "MPIX_C_BF16": 2,
}


class ImportFormatError(MpimarkError):
    """A file that is not what its format says; the message names file and line."""


def fail(path: Path, line: int | None, reason: str) -> ImportFormatError:
    return ImportFormatError(f"{path}:{line}: {reason}" if line else f"{path}: {reason}")


@dataclass
class Parsed:
    """One imported file: how to read its result records again, and what its header said.

    The records are not kept: rows() reads them from the file again, one at a
    time, so a file of any size is stored with bounded memory. The file is read
    and checked already, and the counts below known, except for an IMB file
    parsed without check (imb.parse): there a read of its rows to their end
    checks them and sets the counts.
    """

    path: Path
    fmt: str  # imb, osu, mpibench
    rows: Callable[[], Iterator[dict]]  # the result records, in file order, on every call
    count: int  # how many rows() gives
    max_processes: int
    source: dict = field(default_factory=dict)  # tool, version, date, hosts, ... as the file says
    command_line: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # assumptions the importer had to make
    incomplete: str | None = None  # why the file holds less than a whole run (stored as incomplete), or None
    warnings: list[str] = field(default_factory=list)  # what the user should hear at once (also in notes)
    # Columns of the stored run the file states (Store.add_run): started_utc, mpi_library_version,
    # mpi_standard_version; without them the run starts at the import and its library is unknown.
    run_columns: dict = field(default_factory=dict)
    # The rows as the store takes them, where the importer gives some as their compact split (imb.py); else rows.
    stored: Callable[[], Iterator[dict | tuple]] | None = None

    @property
    def results(self) -> list[dict]:
        """Every record at once (small files, tests); storing goes through rows()."""
        return list(self.rows())

    @property
    def status(self) -> str:
        return "incomplete" if self.incomplete else "complete"


# A benchmark name as the tools write theirs (PingPong, Reduce_scatter_block, osu_latency, b_eff_length,
# Alltoallv): a letter, then letters, digits and _ . + -. Nothing a terminal, a spreadsheet or Markdown acts on,
# no path separator (plots are files named after benchmarks), and short enough for a table's column.
NAME = re.compile(r"[A-Za-z][A-Za-z0-9_.+-]{0,63}")


def plausible_name(path: Path, line: int | None, what: str, name: object) -> str:
    """name if it is one (NAME), else an error naming file, line and the name as repr() shows it."""
    if not isinstance(name, str) or not NAME.fullmatch(name):
        raise fail(path, line, f"{what} {name!r}: not a plausible name (a letter, then letters, digits and "
                               "_ . + -, at most 64 characters)")
    return name


def benchmark_name(path: Path, line: int | None, name: object, suite: str | None = None,
                   facts: Catalog | None = None) -> str:
    """The one check of a benchmark name from outside, at import: a plausible name (NAME) that the facts know
    (default: the core's, then the peers'; a stream's own benchmark_facts first).

    A name nothing describes would be stored and then break show, report and export of every run with it."""
    plausible_name(path, line, "benchmark name", name)
    if (facts or core_catalog()).find(name, suite) is None:
        where = f"suite {suite!r}" if suite else "any suite"
        raise fail(path, line, f"unknown benchmark {name!r} in {where}: neither the core's benchmarks nor the "
                               "file's own facts describe it ('mpimark list' shows the known ones)")
    return name


def asctime_start(text: str) -> str | None:
    """The start of a run as the runs table keeps it, from the C library's asctime() text that IMB's `# Date`
    and b_eff's `Date of measurement` lines hold ("Thu Nov 26 20:09:39 2026"); None if it is not one.

    Those are the local time of the host that ran the tool and name no time zone, so none is added:
    "2026-11-26T20:09:39", where a run mpimark launched has "...Z"."""
    try:
        moment = datetime.strptime(" ".join(text.split()), "%a %b %d %H:%M:%S %Y")
    except ValueError:
        return None
    return moment.strftime("%Y-%m-%dT%H:%M:%S")


def number(text: str, path: Path, line: int, column: str, *, integer: bool = False) -> float | int:
    """A non-negative number of a table cell, or an error naming the cell.

    A whole number is read exactly (through float, 9223372036854775807 became 2^63) and must fit the
    database's 64-bit integers (store.MAX_INTEGER)."""
    try:
        value = int(text) if integer and text.strip().isdigit() else float(text)
    except ValueError:
        raise fail(path, line, f"{text!r} in column {column!r} is not a number") from None
    if value != value or value in (float("inf"), float("-inf")) or value < 0:
        raise fail(path, line, f"{text!r} in column {column!r} is not a non-negative finite number")
    if integer:
        if value != int(value):
            raise fail(path, line, f"{text!r} in column {column!r} is not a whole number")
        if not fits_integer(int(value)):
            raise fail(path, line, f"{text!r} in column {column!r} is beyond the integers the results database "
                                   f"stores (at most {MAX_INTEGER})")
        return int(value)
    return value


def slug(name: str) -> str:
    """A field name for a column we keep but the record format does not know ("P50 Tail Lat(us)")."""
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")


def result_record(*, benchmark: str, suite: str, processes: int, size: int, datatype: str,
                  status: str = "ok", repetitions: int | None = None, t_min_usec: float | None = None,
                  t_max_usec: float | None = None, t_avg_usec: float | None = None,
                  mbytes_per_sec: float | None = None, msgs_per_sec: float | None = None,
                  defects: int | None = None, multi: int | None = None, groups: int = 1,
                  group: int | None = None, needed_gb: float | None = None, extra: dict | None = None) -> dict:
    """A result record in the stream's field order; extra fields (the source's own columns) go last."""
    record = {
        "type": "result", "benchmark": benchmark, "suite": suite, "processes": processes, "multi": multi,
        "groups": groups, "group": group, "bytes": size, "count": size // DATATYPE_BYTES.get(datatype, 1),
        "datatype": datatype, "status": status, "repetitions": repetitions, "t_min_usec": t_min_usec,
        "t_max_usec": t_max_usec, "t_avg_usec": t_avg_usec, "mbytes_per_sec": mbytes_per_sec,
        "msgs_per_sec": msgs_per_sec, "defects": defects, "needed_gb": needed_gb,
        "distribution": None, "samples_ns": [],
    }
    record.update(extra or {})
    return record


def datatype_for(benchmark: str, data_type: str, reduction_type: str, suite: str | None = None) -> str:
    """Reductions move the reduction datatype, Barrier none, the rest the plain one (as the core).

    The benchmark is the core's (its facts); UnknownBenchmark for a name no suite of the core has."""
    found = lookup(benchmark, suite)
    if found.cls is BenchmarkClass.SYNC:
        return "none"
    return reduction_type if found.reduction else data_type
