"""An imported OSU Micro-Benchmarks run (OSU's C programs, OMB-Py) in OSU's own text layout (docs/osu.md).

`mpimark show` prints what the programs printed: per test the title (with
the version the file named), the lines of how it ran (window and
synchronisation, pairs and window size, Datatype), the column header and
one row per size, with OSU 7.4's widths (sizes left in 10 characters,
figures right in 18 with two decimals, Iterations in 12; without a Size
column the first figure as wide as its `# <name>` header). The columns are
the fields the rows hold, in OSU's order, under the headers the program
prints (records/osu_columns.py, the facts' `columns`). `-T all` gives one
Datatype block per datatype, as OSU prints it.

Not given back: lines that were not OSU's (the launcher's), columns OSU 7.4
does not print (kept in the JSON and CSV exports under their own names), and
osu_latency_mp's narrower figures (printed 18 wide here).
"""

from __future__ import annotations

from collections.abc import Iterator

from mpimark.records import osu_columns
from mpimark.records.benchmarks import lookup

SUITES = ("imported:osu",)  # the store's suite of an OSU import (storage/importers/osu.py)
NBC_FORMULA = "# Overall = Coll. Init + Compute + MPI_Test + MPI_Wait"
_TEST_FIELDS = ("benchmark", "accelerator", *osu_columns.SETTINGS.values(), "window_size")


def owns(suite: str | None) -> bool:
    """Whether a stored run of this suite is OSU output, shown in OSU's layout and not IMB's."""
    return suite in SUITES


def text(records: list[dict]) -> str:
    """OSU's text of one run's records."""
    version = next((r.get("source", {}).get("version") for r in records
                    if r["type"] == "event" and r.get("kind") == "import"), None)
    return "".join(_test(block, version) for block in _tests([r for r in records if r["type"] == "result"]))


def _tests(results: list[dict]) -> Iterator[list[dict]]:
    """The rows in tests as OSU printed them: a test ends where the program or how it ran changes, or where
    the sizes start again within one datatype (two runs one after another; each barrier row is a test)."""
    block: list[dict] = []
    for row in results:
        if block and _starts_a_test(block[-1], row):
            yield block
            block = []
        block.append(row)
    if block:
        yield block


def _starts_a_test(last: dict, row: dict) -> bool:
    if any(last.get(f) != row.get(f) for f in _TEST_FIELDS):
        return True
    return row["datatype"] == last["datatype"] and row["bytes"] <= last["bytes"]


def _test(rows: list[dict], version: str | None) -> str:
    first = rows[0]
    facts = dict(lookup(first["benchmark"], first["suite"]).facts)
    lines = [f"# {label}: {first[name]}" for label, name in osu_columns.SETTINGS.items()
             if name in osu_columns.BEFORE_TITLE and first.get(name) is not None]
    if facts.get("blank_line_first"):
        lines.append("")
    lines.append("# " + _title(facts["header"], first.get("accelerator")) + (f" v{version}" if version else ""))
    if first["benchmark"] == "osu_init":
        return "\n".join(lines + [_init_line(row) for row in rows]) + "\n"
    if facts.get("overlap"):
        lines += [NBC_FORMULA, ""]
    if first.get("window_size") is not None:
        lines.append(f"# [ pairs: {first['processes'] // 2} ] [ window size: {first['window_size']} ]")
    lines += [f"# {label}: {first[name]}" for label, name in osu_columns.SETTINGS.items()
              if name not in osu_columns.BEFORE_TITLE and first.get(name) is not None]
    sized = facts["columns"][0] in osu_columns.SIZE_HEADERS
    columns = _columns(rows, facts["columns"])
    datatype = None
    for row in rows:
        if row["datatype"] != datatype:
            datatype = row["datatype"]
            if facts.get("datatype_line") and datatype != "none":
                lines.append(f"# Datatype: {datatype}.")
            lines.append(_header(columns, facts["columns"][0] if sized else None))
        lines.append(_row(row, columns, sized))
    return "\n".join(lines) + "\n"


def _title(header: str, accelerator: str | None) -> str:
    # OSU puts the accelerator after "MPI": "OSU MPI-CUDA Latency Test".
    return header.replace("OSU MPI", f"OSU MPI-{accelerator}", 1) if accelerator else header


def _columns(rows: list[dict], headers: list[str]) -> list[osu_columns.Column]:
    """The columns the rows have, in OSU's order, under the program's own spelling of its first figures."""
    spelled = {c.field: c for c in (osu_columns.column(h) for h in headers) if c is not None}
    present = {k for row in rows for k, v in row.items() if v is not None}
    columns, seen = [], set()
    for column in osu_columns.COLUMNS:
        if column.field in present and column.field not in seen:
            columns.append(spelled.get(column.field, column))
            seen.add(column.field)
    columns += [c for c in (osu_columns.tail_column(k) for k in rows[0]) if c is not None]
    if osu_columns.TRANSMIT_SIZE.field in present:
        columns.append(osu_columns.TRANSMIT_SIZE)
    return columns


def _header(columns: list[osu_columns.Column], size: str | None) -> str:
    if size is not None:
        return f"{'# ' + size:<10}" + "".join(f"{c.header:>{c.width}}" for c in columns)
    return "# " + columns[0].header + "".join(f"{c.header:>{c.width}}" for c in columns[1:])


def _row(row: dict, columns: list[osu_columns.Column], sized: bool) -> str:
    cells = [f"{row['bytes']:<10d}"] if sized else []
    for index, column in enumerate(columns):
        # Without a Size column OSU prints the first figure as wide as its "# <name>" header.
        width = column.width if sized or index else len(column.header) + 2
        value = row.get(column.field)
        if value is None:
            cells.append(" " * width)
        elif column.kind == "float":
            cells.append(f"{value:{width}.2f}")
        else:
            cells.append(f"{value:>{width}}")
    return "".join(cells)


def osu_init_text(processes: int, low: int, high: int, mean: int) -> str:
    """osu_init's line from its figures (whole ms): an imported osu_init's, and the core's start-up tool's."""
    return f"nprocs: {processes}, min: {low} ms, max: {high} ms, avg: {mean} ms"


def _init_line(row: dict) -> str:
    """osu_init's line: MPI_Init's time over the ranks in whole milliseconds, as it printed them."""
    return osu_init_text(row["processes"], *(int(row[f] / 1000) for f in ("t_min_usec", "t_max_usec", "t_avg_usec")))
