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

import json
from dataclasses import dataclass, field
from pathlib import Path

from mpimark.records.results import parse_record
from mpimark.storage.importers.common import fail
from mpimark.storage.store import Store

# The run record's suite -> the word mpimark stores runs under (the core's tool word).
SUITE_WORDS = {"b_eff": "beff"}


@dataclass
class Stream:
    """One results stream, read and checked."""

    path: Path
    records: list[dict]
    status: str  # complete | incomplete
    notes: list[str] = field(default_factory=list)  # why it is incomplete
    fmt: str = "jsonl"

    @property
    def run(self) -> dict:
        return self.records[0]

    @property
    def results(self) -> list[dict]:
        return [r for r in self.records if r["type"] == "result"]


def looks_like(text: str) -> bool:
    """Whether a file's text is a JSON Lines stream (its first non-blank character opens an object)."""
    return text.lstrip().startswith("{")


def parse(path: Path, text: str) -> Stream:
    lines = text.split("\n")
    cut = lines.pop() if lines else ""  # after the last newline: "" for a whole file, else a line being written
    records: list[dict] = []
    notes: list[str] = []
    numbered = [(number, line) for number, line in enumerate(lines, 1) if line.strip()]
    cut_number = len(lines) + 1 if cut.strip() else None
    if cut_number:
        numbered.append((cut_number, cut))
    for number, line in numbered:
        try:
            record = parse_record(line)
        except json.JSONDecodeError as exc:
            if number == cut_number:  # the core was stopped while writing it
                notes.append(f"its last line (line {number}) is cut off and was left out")
                break
            raise fail(path, number, f"not JSON: {exc.msg} (column {exc.colno})") from None
        except ValueError as exc:
            raise fail(path, number, f"{exc}; check it with 'mpimark validate {path}'") from None
        if not records and record["type"] != "run":
            raise fail(path, number, f"the first record must be 'run', not {record['type']!r}: not a stream "
                                     "of mpimark-core -json")
        if records and record["type"] == "run":
            raise fail(path, number, "a second run record: two streams written into one file?")
        if any(r["type"] == "end" for r in records):
            raise fail(path, number, f"a {record['type']} record after the end record")
        records.append(record)
    if not records:
        raise fail(path, None, "no records (an empty file)")
    end = next((r for r in records if r["type"] == "end"), None)
    if end is None:
        notes.append("the stream has no end record (the job ended before the core finished): stored as incomplete")
        status = "incomplete"
    elif end["status"] != "complete":
        notes.append("some message sizes were skipped (the end record says incomplete)")
        status = "incomplete"
    else:
        status = "complete"
    return Stream(path, records, status, notes)


def store(store: Store, stream: Stream, mpi_name: str | None = None) -> int:
    """Store the stream as a run, in one transaction (a killed import leaves nothing behind); returns its id."""
    run = stream.run
    message = f"imported from {stream.path}" + (f"; {'; '.join(stream.notes)}" if stream.notes else "")
    return store.add_run(launch_command=list(run.get("command_line") or []), environment={},
                         mpi_name=mpi_name, mpi_prefix=None, requested_processes=run["processes"],
                         suite=SUITE_WORDS.get(run["suite"], run["suite"]), records=list(stream.records),
                         status=stream.status, message=message)
