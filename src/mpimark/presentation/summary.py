"""The summary of a results file: one table per benchmark x processes (x group).

One column list drives every format, so the terminal table, markdown, CSV
and JSON cannot disagree about what a column holds. Renderers return text
(or rich renderables) and never write: the CLI decides where output goes.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from rich.console import Group
from rich.table import Table
from rich.text import Text

from mpimark.presentation import hosts as host_list, long_table
from mpimark.presentation.cells import csv_writer, markdown, terminal, text as cell_text
from mpimark.records.figures import bandwidth_mbs, t_avg_usec
from mpimark.records.mpi_library import one_line
from mpimark.records import simulation
from mpimark.records.results import TableKey

Tables = dict[TableKey, list[dict]]


def _distribution(field: str) -> Callable[[dict], float | None]:
    return lambda result: (result["distribution"] or {}).get(field)


@dataclass(frozen=True)
class Column:
    key: str  # JSON export name; units in the name, like the stream's fields
    header: str  # table and CSV header; units in brackets
    value: Callable[[dict], object]
    decimals: int | None = None  # None: shown as is (integers, words)
    optional: bool = False  # shown only where some row has a value (the overlap figures)


def _overlap(field: str) -> Callable[[dict], float | None]:
    return lambda result: (result.get("overlap") or {}).get(field)


def _ci_width(result: dict) -> float | None:
    width = (result.get("ci_target") or {}).get("half_width")
    return None if width is None else 100 * width


COLUMNS = (
    Column("bytes", "bytes", lambda r: r["bytes"]),
    Column("repetitions", "repetitions", lambda r: r["repetitions"]),
    Column("t_avg_usec", "t_avg[usec]", t_avg_usec, 2),
    Column("median_usec", "median[usec]", _distribution("median_usec"), 2),
    Column("ci95_low_usec", "CI95 low[usec]", _distribution("ci_low_usec"), 2),
    Column("ci95_high_usec", "CI95 high[usec]", _distribution("ci_high_usec"), 2),
    # IMB's MB/s is of t_max; beside the median it is the bandwidth at the median (figures.bandwidth_mbs).
    Column("mbytes_per_sec_at_median", "MB/s at median", lambda r: bandwidth_mbs(r), 2),
    # IMB-NBC, MPI-4 and Truly_passive_put: the figures of the rank with the largest t_ovrl
    # (t_avg and the median above are of t_ovrl there).
    Column("t_pure_usec", "t_pure[usec]", _overlap("t_pure_usec"), 2, optional=True),
    Column("t_cpu_usec", "t_CPU[usec]", _overlap("t_cpu_usec"), 2, optional=True),
    Column("overlap_percent", "overlap[%]", _overlap("overlap_percent"), 2, optional=True),
    # -sync window's dropped samples and -ci_target's width reached and stop reason (docs/measurement.md).
    Column("invalid_samples", "invalid", lambda r: (r.get("window") or {}).get("invalid_samples"), optional=True),
    Column("ci_half_width_percent", "CI ±[%]", _ci_width, 2, optional=True),
    Column("ci_stop", "CI stop", lambda r: (r.get("ci_target") or {}).get("stop"), optional=True),
    # -check: wrong elements received, shown only for a checked run.
    Column("defects", "defects", lambda r: r.get("defects"), optional=True),
    Column("status", "status", lambda r: r["status"]),
)


def _numeric(column: Column) -> bool:
    return column.key not in ("status", "ci_stop")


def _present(results: list[dict], columns: tuple[Column, ...]) -> tuple[Column, ...]:
    """columns less the optional ones no result has a value for."""
    return tuple(c for c in columns if not c.optional or any(c.value(r) is not None for r in results))


def _shown_columns(results: list[dict], columns: tuple[Column, ...] = COLUMNS) -> tuple[Column, ...]:
    # People reading a table need the status only where something went wrong.
    columns = _present(results, columns)
    if all(r["status"] == "ok" for r in results):
        return tuple(c for c in columns if c.key != "status")
    return columns


def _key_fields(tables: Tables) -> tuple[str, ...]:
    # The mode only for runs that have one (IMB-EXT, IMB-RMA), so other runs keep their columns.
    return tuple(f for f in TableKey._fields if f != "mode" or any(k.mode is not None for k in tables))


def _cell(column: Column, result: dict) -> str:
    value = column.value(result)
    if value is None:
        return "-"
    return f"{value:.{column.decimals}f}" if column.decimals is not None else str(value)


def describe_run(run: dict) -> str:
    """One line saying which MPI ran where and when."""
    hosts = host_list.of_run(run)  # the first few of a large job's hosts, and how many more
    line = f"{one_line(run['mpi']['library_version'])} | {run['processes']} processes on {hosts} | {run['start_utc']}"
    # A simulated run says so wherever this line is shown (show, --stats, summary, markdown): its times are a model's.
    simulated = simulation.of_run(run)
    return line if simulated is None else f"{line} | {one_line(simulation.phrase(simulated))}"


def to_rich(run: dict | None, tables: Tables) -> Group:
    """run None: a stored run killed before the core wrote its run record."""
    return Group(*rich_parts(run, tables.items()))


def rich_parts(run: dict | None, tables: Iterable[tuple[TableKey, list[dict]]], width: int | None = None) -> Iterator:
    """to_rich's parts one at a time, from tables read one at a time (Store.iter_tables): printed one by
    one they give to_rich's text, holding one table. width: the console's; given, a table of more than
    long_table.LONG_ROWS rows that fits it is written by long_table (the same text, without rich's layout)."""
    if run:
        yield cell_text(describe_run(run), style="dim")
    for key, results in tables:
        columns = _shown_columns(results)
        if width is not None and len(results) > long_table.LONG_ROWS:
            cells = [[terminal(_cell(c, r)) for c in columns] for r in results]
            table_lines = long_table.lines(terminal(key.title()), [c.header for c in columns],
                                           [_numeric(c) for c in columns], cells, width)
            del cells  # the lines hold the same text
            if table_lines is not None:
                yield from long_table.texts(table_lines, [None if r["status"] == "ok" else "yellow" for r in results])
                continue
        # Text, not str: rich would read "[usec]" in a header as markup; stored names through cells.terminal.
        table = Table(title=cell_text(key.title()), title_justify="left")
        for column in columns:
            # fold, never an ellipsis: on a narrow terminal a header or a figure wraps but stays whole.
            table.add_column(Text(column.header), justify="right" if _numeric(column) else "left", overflow="fold")
        for result in results:
            style = None if result["status"] == "ok" else "yellow"
            table.add_row(*(cell_text(_cell(c, result)) for c in columns), style=style)
        yield table


def to_markdown(run: dict | None, tables: Tables, *, columns: tuple[Column, ...] = COLUMNS,
                heading: str = "# mpimark summary", description: Sequence[str] | None = None) -> str:
    """export.py passes its own columns, heading and description (a run without a run record)."""
    return "".join(markdown_chunks(run, tables.items(), columns=columns, heading=heading, description=description))


def markdown_chunks(run: dict | None, tables: Iterable[tuple[TableKey, list[dict]]], *,
                    columns: tuple[Column, ...] = COLUMNS, heading: str = "# mpimark summary",
                    description: Sequence[str] | None = None) -> Iterator[str]:
    """to_markdown's text a table at a time, from tables read one at a time (Store.iter_tables);
    description: its paragraphs (default: the run record's line)."""
    # Names, hosts and library strings come from outside: markdown() keeps them text, each paragraph one line.
    paragraphs = description if description is not None else [describe_run(run)]
    yield "\n".join([heading, "", "\n\n".join(markdown(p, cell=False) for p in paragraphs)])
    for key, results in tables:
        shown = _shown_columns(results, columns)
        lines = ["", f"## {markdown(key.title(), cell=False)}", ""]
        lines.append("| " + " | ".join(markdown(c.header) for c in shown) + " |")
        lines.append("|" + "|".join("---:" if _numeric(c) else "---" for c in shown) + "|")
        lines += ["| " + " | ".join(markdown(_cell(c, r)) for c in shown) + " |" for r in results]
        yield "\n" + "\n".join(lines)
    yield "\n"


def to_csv(run: dict, tables: Tables) -> str:
    # One long table: a CSV file holds one table, so the key goes in columns.
    out = io.StringIO()
    writer = csv_writer(out)
    fields = _key_fields(tables)
    columns = _present([r for results in tables.values() for r in results], COLUMNS)
    writer.writerow([*fields, *(c.header for c in columns)])
    for key, results in tables.items():
        for result in results:
            values = [*(getattr(key, f) for f in fields), *(c.value(result) for c in columns)]
            writer.writerow(values)
    return out.getvalue()


def to_json(run: dict, tables: Tables) -> str:
    fields = _key_fields(tables)
    columns = _present([r for results in tables.values() for r in results], COLUMNS)
    document = {
        "run": run,
        "tables": [
            {**{f: getattr(key, f) for f in fields}, "rows": [{c.key: c.value(r) for c in columns} for r in results]}
            for key, results in tables.items()
        ],
    }
    return json.dumps(document, indent=2) + "\n"


EXPORTS = {"markdown": to_markdown, "csv": to_csv, "json": to_json}
