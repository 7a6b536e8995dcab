"""The core's own JSON Lines stream as a stored run: a run launched by hand, with any launcher.

`srun mpimark-core mpi1 -json r.jsonl`, then `mpimark import r.jsonl`: every
record is checked against the schema (records/results.py) and stored as it
is, so the run is shown, exported, compared and reported like one that
`mpimark run` launched. The stream's records are kept unchanged (no import
event is added: `export --format json` gives the file back); where it came
from is the run's status message.

A stream cut off (the job killed at its time limit, a node lost) is stored
as an incomplete run with every whole record it holds: a last line without
its end is dropped, and a missing end record makes the run incomplete. A
malformed line anywhere else is an error, and nothing is stored.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from mpimark.records.benchmarks import Catalog, catalog
from mpimark.records.results import parse_record
from mpimark.storage.importers.common import benchmark_name, fail, plausible_name
from mpimark.storage.store import fits_integer, MAX_INTEGER, Store

# The run record's suite -> the word mpimark stores runs under (the core's tool word).
SUITE_WORDS = {"b_eff": "beff"}


@dataclass
class Stream:
    """One results stream, read and checked. Its records are not kept: rows() reads them from the file
    again, one at a time (importers/imb.py does the same), so a stream of any size is stored in bounded
    memory."""

    path: Path
    run: dict  # the run record, the stream's first
    rows: Callable[[], Iterator[dict]]  # every record, the run record first, on every call
    count: int  # result records
    status: str  # complete | incomplete
    notes: list[str] = field(default_factory=list)  # why it is incomplete
    fmt: str = "jsonl"

    @property
    def records(self) -> list[dict]:
        """Every record at once (small files, tests); storing goes through rows()."""
        return list(self.rows())

    @property
    def results(self) -> list[dict]:
        return [r for r in self.rows() if r["type"] == "result"]


def looks_like(text: str) -> bool:
    """Whether a file's text is a JSON Lines stream (its first non-blank character opens an object)."""
    return text.lstrip().startswith("{")


def parse(path: Path, lines: Callable[[], Iterable[str]]) -> Stream:
    """Read and check every record once, keeping the run record and counts; lines() gives the file's lines
    (split at \\n alone, as the core writes them) from the start on every call."""
    run: dict | None = None
    kept = results = 0  # records stored, result records among them
    end: dict | None = None
    facts: Catalog | None = None  # the names' facts, once the run record is read
    notes: list[str] = []
    for number, line in enumerate(lines(), 1):
        if not line.strip():
            continue
        try:
            record = parse_record(line)
        except json.JSONDecodeError as exc:
            if not line.endswith("\n"):  # the last line, without its end: the core was stopped while writing it
                notes.append(f"its last line (line {number}) is cut off and was left out")
                break
            raise fail(path, number, f"not JSON: {exc.msg} (column {exc.colno})") from None
        except ValueError as exc:
            raise fail(path, number, f"{exc}; check it with 'mpimark validate {path}'") from None
        if run is None and record["type"] != "run":
            raise fail(path, number, f"the first record must be 'run', not {record['type']!r}: not a stream "
                                     "of mpimark-core -json")
        if run is not None and record["type"] == "run":
            raise fail(path, number, "a second run record: two streams written into one file?")
        if end is not None:
            raise fail(path, number, f"a {record['type']} record after the end record")
        if run is None:
            facts = _facts(path, number, record)
        _check_names(path, number, record, facts)
        _check_integers(path, number, record)
        run = run or record
        end = record if record["type"] == "end" else end
        results += record["type"] == "result"
        kept += 1
    if run is None:
        raise fail(path, None, "no records (an empty file)")
    if end is None:
        notes.append("the stream has no end record (the job ended before the core finished): stored as incomplete")
        status = "incomplete"
    elif end["status"] != "complete":
        notes.append("some message sizes were skipped (the end record says incomplete)")
        status = "incomplete"
    else:
        status = "complete"
    return Stream(path, run, lambda: _records(lines(), kept), results, status, notes)


def _check_integers(path: Path, line: int, record: dict) -> None:
    """Every integer the database keeps in a column (a record's, its distribution's) within SQLite's 64 bits:
    the schema sets no upper bound, and a size of 10^23 bytes would fail only when stored, away from its line."""
    for name, value in itertools.chain(record.items(), (record.get("distribution") or {}).items()):
        if type(value) is int and not fits_integer(value):
            raise fail(path, line, f"its {name} {value} is beyond the integers the results database stores "
                                   f"(at most {MAX_INTEGER})")


def _facts(path: Path, line: int, run: dict) -> Catalog:
    """The facts the stream's names are checked against: its run record's benchmark_facts (their names
    plausible too: they are stored with the run), then the core's."""
    own = run.get("benchmark_facts")
    if own:
        plausible_name(path, line, "suite name in benchmark_facts", own["name"])
        for facts in own["benchmarks"]:
            plausible_name(path, line, "benchmark name in benchmark_facts", facts["name"])
    return catalog([run])


def _check_names(path: Path, line: int, record: dict, facts: Catalog | None) -> None:
    """A record's suite and benchmark names, as every importer checks them (common.benchmark_name)."""
    if "suite" in record:
        plausible_name(path, line, "suite name", record["suite"])
    if "benchmark" in record:
        benchmark_name(path, line, record["benchmark"], record.get("suite"), facts)


def _records(lines: Iterable[str], kept: int) -> Iterator[dict]:
    """The first kept records of the lines (checked by parse(): a cut last line is not among them)."""
    records = (json.loads(line) for line in lines if line.strip())
    yield from itertools.islice(records, kept)


def store(store: Store, stream: Stream, mpi_name: str | None = None, sha256: str | None = None) -> int:
    """Store the stream as a run (Store.add_run: in batches, nothing kept of a failed import); returns its id."""
    run = stream.run
    message = f"imported from {stream.path}" + (f"; {'; '.join(stream.notes)}" if stream.notes else "")
    return store.add_run(launch_command=list(run.get("command_line") or []), environment={},
                         mpi_name=mpi_name, mpi_prefix=None, requested_processes=run["processes"],
                         started_utc=run.get("start_utc"),  # when the core started, not the import
                         suite=SUITE_WORDS.get(run["suite"], run["suite"]), records=stream.rows(),
                         status=stream.status, message=message, source_sha256=sha256)
