"""Read the core's JSON Lines results stream (docs/results-format.md).

Every line is checked against the packaged schema as it is read, so code
further on can trust field names and types. A bad line stops the read with
one ResultsError naming file and line: a results file is evidence, and
silently skipping part of it would misreport a run.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from mpimark.records import record_check

if TYPE_CHECKING:
    import jsonschema

SCHEMA_VERSION = 1
SCHEMA_RESOURCE = f"schema/results-v{SCHEMA_VERSION}.schema.json"


class ResultsError(Exception):
    """A results file that cannot be read or does not follow the schema."""


class TableKey(NamedTuple):
    """What one summary table is about; result rows sharing it differ only in size."""

    benchmark: str
    multi: int | None
    processes: int
    group: int | None
    # aggregate, non_aggregate: IMB-EXT/RMA's two tables of one benchmark; mpiBench's communicator (table_mode)
    mode: str | None = None

    def title(self) -> str:
        # The text output names multiple mode "Multi-<Name>" (as IMB does).
        name = self.benchmark if self.multi is None else f"Multi-{self.benchmark}"
        title = f"{name}, {self.processes} processes"
        if self.group is not None:
            title += f", group {self.group}"
        return title if self.mode is None else f"{title}, {self.mode.replace('_', '-')}"


@lru_cache(maxsize=1)
def schema() -> dict:
    return json.loads(files("mpimark.records").joinpath(SCHEMA_RESOURCE).read_text("utf-8"))


@lru_cache(maxsize=1)
def _validator() -> jsonschema.protocols.Validator:
    # Imported here, not at the top: it costs about 0.1 s, and most commands
    # (runs, show, export, report) start without reading a stream.
    import jsonschema

    cls = jsonschema.validators.validator_for(schema())
    cls.check_schema(schema())
    return cls(schema())


def validate_record(record: object) -> None:
    """Raise ValueError with a one-line reason if record breaks the schema.

    record_check answers most records fast; jsonschema, the reference, is asked only when it says no:
    for the reason, and to overrule it where the compiled check is stricter."""
    if record_check.valid(record):
        return
    from jsonschema.exceptions import best_match

    error = best_match(_validator().iter_errors(record))
    if error is not None:
        kind = record.get("type") if isinstance(record, dict) else None
        subject = f"{kind} record" if isinstance(kind, str) else "record"
        where = f" at {error.json_path}" if error.path else ""
        raise ValueError(f"{subject}{where}: {error.message}")


def _reject_constant(name: str) -> float:
    # Python's json accepts NaN and Infinity; the JSON standard, and so every
    # other reader of the stream, does not.
    raise ValueError(f"{name} is not valid JSON")


def parse_record(line: str) -> dict:
    """One line of the stream as a record, checked against the schema.

    Raises json.JSONDecodeError (not JSON) or ValueError (breaks the schema).
    """
    record = json.loads(line, parse_constant=_reject_constant)
    validate_record(record)
    return record


def read_records(path: str | Path) -> list[dict]:
    """All records of a results file, validated; blank lines are skipped."""
    try:
        with open(path, encoding="utf-8") as stream:
            lines = stream.readlines()
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise ResultsError(f"{path}: cannot read: {reason}") from None
    records = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            record = parse_record(line)
        except json.JSONDecodeError as exc:
            raise ResultsError(f"{path}:{number}: not JSON: {exc.msg} (column {exc.colno})") from None
        except ValueError as exc:
            raise ResultsError(f"{path}:{number}: {exc}") from None
        if not records and record["type"] != "run":
            raise ResultsError(f"{path}:{number}: the first record must be 'run', not {record['type']!r}")
        records.append(record)
    if not records:
        raise ResultsError(f"{path}: no records (empty file)")
    return records


WORLD = "MPI_COMM_WORLD"


def communicator(record: dict) -> str | None:
    """The sub-communicator a row was measured on (mpiBench's -d and -p levels: "CartDim-1of2",
    "PartSize-4"); None for MPI_COMM_WORLD and rows of other suites. Rows of one operation and size on
    different communicators are different measurements. The core's mpiBench and the importer write the
    label as `comm`; imports stored before did as `communicator` (Store.TABLE_MODE_SQL reads both too)."""
    label = record.get("comm") or record.get("communicator")
    return None if label in (None, WORLD) else str(label)


def table_mode(record: dict) -> str | None:
    """TableKey.mode of a result: IMB-EXT/RMA's aggregate or non_aggregate, or the communicator."""
    return record.get("mode") or communicator(record)


def group_results(records: list[dict]) -> dict[TableKey, list[dict]]:
    """Result records by table, tables and rows in the order the core wrote them."""
    tables: dict[TableKey, list[dict]] = {}
    for record in records:
        if record["type"] == "result":
            key = TableKey(record["benchmark"], record["multi"], record["processes"], record["group"],
                           table_mode(record))
            tables.setdefault(key, []).append(record)
    return tables


# The kinds of the events mpimark itself adds to a stored run: the launching
# host's machine facts (right after the run record), and what the launcher's
# stderr said of a launch that failed without the core saying why (last;
# execution/launch.py). Every other record is the core's, as it wrote it.
MACHINE_EVENT = "machine"
LAUNCHER_STDERR_EVENT = "launcher_stderr"


def core_records(records: list[dict]) -> list[dict]:
    """The records of a stored run that the core wrote: without mpimark's own events."""
    return [r for r in records
            if not (r.get("type") == "event" and r.get("kind") in (MACHINE_EVENT, LAUNCHER_STDERR_EVENT))]
