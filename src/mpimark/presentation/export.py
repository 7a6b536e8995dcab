"""A stored run as JSON Lines, CSV, Markdown or IMB text.

Every exporter takes the run's row and its records (Store.run, Store.records)
and returns text; the CLI decides where it goes.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable, Iterable, Iterator

from mpimark.presentation import imb_programs, imb_text, tools
from mpimark.presentation.cells import csv_writer, terminal
from mpimark.presentation.summary import Column, COLUMNS as SUMMARY_COLUMNS, describe_run, markdown_chunks
from mpimark.records import simulation
from mpimark.records.figures import table_key
from mpimark.records.results import group_results, schema, TableKey
from mpimark.storage.store import RunRow

# -- json: the stream as the core wrote it ------------------------------------


def _number(value: int | float) -> str:
    if isinstance(value, int):
        return str(value)
    # The core prints doubles with "%.12g"; use that spelling whenever it
    # keeps the value and still reads back as a float, so a stored run exports
    # to the core's own bytes and a float never comes back as an int.
    if not math.isfinite(value):
        raise ValueError(f"{value} is not valid JSON")  # as results.read_records says
    short = format(value, ".12g")
    return short if float(short) == value and any(c in short for c in ".e") else repr(value)


def _string(text: str) -> str:
    # The core's escaping (json_escape in core/src/util/jsonw.c): \" \\ \n \r \t,
    # other control characters as \u00xx, everything else as is (UTF-8).
    special = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}
    return '"' + "".join(special.get(c) or (f"\\u{ord(c):04x}" if ord(c) < 0x20 else c) for c in text) + '"'


def core_json(value: object) -> str:
    """One JSON value in the core's compact layout."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return _number(value)
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, dict):
        return "{" + ",".join(f"{_string(k)}:{core_json(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ",".join(core_json(v) for v in value) + "]"
    raise TypeError(f"not a JSON value: {type(value).__name__}")


def to_json(row: RunRow, records: list[dict]) -> str:
    """JSON Lines: readable by results.read_records, and so importable again."""
    return "".join(core_json(record) + "\n" for record in records)


# -- csv: one row per result ---------------------------------------------------


def _scalar_fields(kind: str) -> list[str]:
    # The schema's field order; lists and objects (samples_ns, distribution) are not scalars.
    properties = schema()["$defs"][kind]["properties"]
    return [name for name, spec in properties.items() if not _compound(spec)]


def _compound(spec: dict) -> bool:
    types = spec.get("type", [])
    types = [types] if isinstance(types, str) else types
    return "array" in types or "object" in types or "oneOf" in spec


def to_csv(row: RunRow, records: list[dict]) -> str:
    return "".join(csv_chunks(row.id, lambda: (r for r in records if r["type"] == "result"), row.simulation))


def csv_chunks(run_id: int, results: Callable[[], Iterable[dict]], simulated: dict | None = None) -> Iterator[str]:
    """to_csv's text some rows at a time. results() gives the run's result records from the start on
    every call: read twice (the columns first, then the rows), none held, for a run of any size.

    simulated: the run's simulation (RunRow.simulation); a simulated run's rows end with the columns
    simulated (True) and platform, so a row read apart from its run still says its times are a model's
    (a measured run's export keeps the columns it always had)."""
    marks = [] if not simulated else [True, simulation.platform_name(simulated) or ""]  # as study exports write it
    distribution_fields = _scalar_fields("distribution")
    # The schema's fields that the run's results have (an IMB run gets no empty column of OSU's overlap
    # figures), in the schema's order; fields the schema does not know yet after them.
    known = {"type", *schema()["$defs"]["result"]["properties"]}
    present: set[str] = set()
    extra: dict[str, None] = {}  # in the order first seen
    overlap = False
    for result in results():
        present.update(result)
        extra.update((k, None) for k, v in result.items() if k not in known and not isinstance(v, (dict, list)))
        overlap = overlap or bool(result.get("overlap"))
    fields = [name for name in _scalar_fields("result") if name in present]
    fields += [k for k in extra if k not in fields]
    # The overlap figures (IMB-NBC, MPI-4, Truly_passive_put) flattened, rank as overlap_rank.
    overlap_fields = _scalar_fields("overlap") if overlap else []
    out = io.StringIO()
    writer = csv_writer(out)
    writer.writerow(["run_id", *fields, *distribution_fields,
                     *(f"overlap_{f}" if f == "rank" else f for f in overlap_fields),
                     *(("simulated", "platform") if marks else ())])
    for count, result in enumerate(results(), 1):
        distribution = result.get("distribution") or {}
        overlap_values = result.get("overlap") or {}
        writer.writerow([run_id, *(result.get(f) for f in fields), *(distribution.get(f) for f in distribution_fields),
                         *(overlap_values.get(f) for f in overlap_fields), *marks])
        if count % 4096 == 0:  # a chunk some thousand rows long, not one per row
            yield out.getvalue()
            out.seek(0)
            out.truncate()
    yield out.getvalue()


# -- markdown: one table per benchmark x process count (x group) ----------------


def _ci95(result: dict) -> str | None:
    distribution = result["distribution"] or {}
    low, high = distribution.get("ci_low_usec"), distribution.get("ci_high_usec")
    return None if low is None or high is None else f"[{low:.2f}, {high:.2f}]"


MARKDOWN_COLUMNS = (
    Column("bytes", "bytes", lambda r: r["bytes"]),
    # How a row ran where its table holds rows that ran otherwise (OSU's -T all: MPI_INT, MPI_FLOAT rows
    # next to MPI_CHAR's): figures.table_key's mode, which a table's title does not name.
    Column("mode", "mode", lambda r: table_key(r)[1] or None, optional=True),
    Column("repetitions", "repetitions", lambda r: r["repetitions"]),
    Column("t_min_usec", "t_min[usec]", lambda r: r["t_min_usec"], 2),
    Column("t_max_usec", "t_max[usec]", lambda r: r["t_max_usec"], 2),
    Column("t_avg_usec", "t_avg[usec]", lambda r: r["t_avg_usec"], 2),
    Column("mbytes_per_sec", "MB/s", lambda r: r["mbytes_per_sec"], 2),
    Column("median_usec", "median[usec]", lambda r: (r["distribution"] or {}).get("median_usec"), 2),
    Column("ci95_usec", "CI95 [usec]", _ci95),
    *(c for c in SUMMARY_COLUMNS if c.optional),  # the overlap figures, where a table has them
    Column("status", "status", lambda r: r["status"]),
)


def describe(row: RunRow, records: list[dict] | None = None) -> str:
    """One line of what the store knows about a run (the core's own line is summary.describe_run).

    A start-up run's duration is the start-up it measured (records given): the core's own clock starts
    after MPI_Init, and "core ran 0.0 s" would hide it."""
    parts = [f"run {row.id}: {row.status}" + (f" ({row.status_message})" if row.status_message else "")]
    if row.mpi_name:
        parts.append(row.mpi_name + (f" in {row.mpi_prefix}" if row.mpi_prefix else ""))
    parts.append(f"{row.requested_processes} processes requested")
    parts.append(f"started {row.started_utc}")
    started_up = tools.startup.duration(tools.startup.launch(records)) \
        if records and tools.module_for(records, row.suite) is tools.startup else None
    if started_up:
        parts.append(started_up)
    if row.elapsed_s is not None:
        parts.append(f"core ran {row.elapsed_s:.3f} s after MPI_Init" if started_up else
                     f"core ran {row.elapsed_s:.1f} s")
    return " | ".join(parts)


def to_markdown_export(row: RunRow, records: list[dict]) -> str:
    run = next((r for r in records if r["type"] == "run"), None)
    return "".join(markdown_export_chunks(row, run, group_results(records).items()))


def markdown_export_chunks(row: RunRow, run: dict | None, tables: Iterable[tuple[TableKey, list[dict]]]
                           ) -> Iterator[str]:
    """to_markdown_export's text a table at a time, from tables read one at a time (Store.iter_tables)."""
    description = [describe(row), *([describe_run(run)] if run else [])]
    return markdown_chunks(run, tables, columns=MARKDOWN_COLUMNS, heading=f"# mpimark run {row.id}",
                           description=description)


# -- imb: the core's text output, regenerated ---------------------------------


def to_imb(row: RunRow, records: list[dict]) -> str:
    # The core's tools print their own text, not IMB's: b_eff's table, mpiBench's lines, RIKEN's table.
    # A text to read (and cat): an escape sequence in a stored host or message is written out, not obeyed.
    if tools.is_tool_run(records, row.suite):
        return terminal(tools.text(records, row.suite), layout=True)
    return terminal(imb_text.imb_text(records), layout=True)


FORMATS: dict[str, Callable[[RunRow, list[dict]], str]] = {
    "json": to_json,
    "csv": to_csv,
    "markdown": to_markdown_export,
    "imb": to_imb,
}


def export(row: RunRow, records: list[dict], fmt: str) -> str:
    return FORMATS[fmt](row, records)


def streams(row: RunRow, run: dict | None, fmt: str) -> bool:
    """Whether export_chunks writes this run in this format (JSON Lines, and IMB text of an IMB suite
    that prints IMB's header: IMB-P2P's and IMB-MT's own layouts go through to_imb)."""
    if fmt == "json":
        return True
    return (fmt == "imb" and tools.module_for([run] if run else [], row.suite) is None
            and not imb_programs.owns(run))


def export_chunks(run: dict | None, records: Iterable[dict], fmt: str) -> Iterator[str]:
    """export() piece by piece from records read once, for a run of any size (where streams() says so)."""
    if fmt == "json":
        for record in records:
            yield core_json(record) + "\n"
        return
    ended = False

    def noting_the_end(items: Iterable[dict]) -> Iterator[dict]:
        nonlocal ended
        for record in items:
            ended = ended or record["type"] == "end"
            yield record

    if run:
        yield terminal(imb_text.header(run), layout=True)
    yield from (terminal(chunk, layout=True) for chunk in imb_text.table_chunks(noting_the_end(records), run))
    if ended:
        yield imb_text.CLOSING

