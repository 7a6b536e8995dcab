"""An OSU Micro-Benchmarks run in OSU's own text layout (docs/osu.md): imported (OSU's C programs,
OMB-Py) or the core's osu suite (`mpimark run osu NAME`).

`mpimark show` prints what the programs printed: per test the title (with
the version the file named), the lines of how it ran (window and
synchronisation, pairs and window size, Datatype), the column header and
one row per size, with OSU 7.4's widths (sizes left in 10 characters,
figures right in 18 with two decimals, Iterations in 12; without a Size
column the first figure as wide as its `# <name>` header). The columns are
the fields the rows hold, in OSU's order, under the headers the program
prints (records/osu_columns.py, the facts' `columns`). `-T all` gives one
Datatype block per datatype, as OSU prints it.

Not given back: lines that were not OSU's (the launcher's), and columns OSU
7.4 does not print (kept in the JSON and CSV exports under their own names).

A core run's records hold more than OSU prints (repetitions, an average
time beside a bandwidth, a collective's minimum and maximum): its columns
are the program's own (the facts' `columns`; osu_mbw_mr's Messages/s not
with -R 0), the -f ones where -f was given, and the optional ones its rows
have (Validation, the tail columns, Transmit Size): its run record's options
say which (`full`, `print_rate`; `vary_window`: osu_mbw_mr -V's tables,
osu_matrix.py). Its title carries the version of the suite's facts ("OSU
Micro-Benchmarks 7.4").
"""

from __future__ import annotations

from collections.abc import Iterator

from mpimark.presentation import osu_matrix
from mpimark.records import osu_columns
from mpimark.records.benchmarks import core_catalog, lookup

# The store's suites of OSU runs: an import (storage/importers/osu.py), the core's osu suite.
SUITES = ("imported:osu", osu_columns.SUITE)
NBC_FORMULA = "# Overall = Coll. Init + Compute + MPI_Test + MPI_Wait"
_TEST_FIELDS = ("benchmark", "accelerator", *osu_columns.SETTINGS.values(), "window_size")
# The columns OSU prints only with -f (print_only_header, print_only_header_nbc in osu_util_mpi.c): a
# latency table's Min, Max and Iterations; a non-blocking one's Coll. Init, MPI_Test, MPI_Wait, Min and Max
# Comm. (a non-blocking table never prints the first three, which a core run's records hold all the same).
FULL_COLUMNS = frozenset(("t_min_usec", "t_max_usec", "repetitions"))
NBC_FULL_COLUMNS = frozenset(("coll_init_usec", "mpi_test_usec", "mpi_wait_usec", "min_comm_usec", "max_comm_usec"))
# Columns of any program, printed where a row has them (-c, -D).
OPTIONAL_COLUMNS = frozenset(("validation", osu_columns.TRANSMIT_SIZE.field))


def owns(suite: str | None) -> bool:
    """Whether a stored run of this suite is OSU output, shown in OSU's layout and not IMB's."""
    return suite in SUITES


def text(records: list[dict]) -> str:
    """OSU's text of one run's records."""
    run = next((r for r in records if r["type"] == "run"), None)
    results = [r for r in records if r["type"] == "result"]
    core_run = run is not None and run.get("suite") == osu_columns.SUITE
    if core_run:
        version, options = suite_version(), run.get("options") or {}
        if options.get("vary_window"):  # osu_mbw_mr -V: its rows say their window, the options that it varied
            results = [{**r, "window_varied": True} for r in results]
    else:
        version = next((r.get("source", {}).get("version") for r in records
                        if r["type"] == "event" and r.get("kind") == "import"), None)
        options = None
    return "".join(_test(block, version, options) for block in _tests(results)) + (_stop(results) if core_run else "")


def _stop(results: list[dict]) -> str:
    """The core's last line after a failed validation (OSU's, with the core's exit status, 4), or "". The
    atomic one-sided tests go on after their "failed" rows, as OSU's do, and print no such line."""
    failed = next((r for r in results if r.get("validation") == "Fail"), None)
    if failed is None:
        return ""
    return f"DATA VALIDATION ERROR: {failed['benchmark']} exited with status 4 on message size {failed['bytes']}.\n"


def suite_version() -> str | None:
    """The OSU version the core's suite has the definitions of: the last word of its title."""
    table = core_catalog().suite(osu_columns.SUITE)
    last = table.title.rsplit(" ", 1)[-1] if table else ""
    return last if last[:1].isdigit() else None


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
    if osu_matrix.is_varied(last) or osu_matrix.is_varied(row):
        return not osu_matrix.same_table(last, row)
    if any(last.get(f) != row.get(f) for f in _TEST_FIELDS):
        return True
    if row.get("window_creation") and row["datatype"] != last["datatype"]:
        return True  # a one-sided test prints its title and window lines again for each datatype of -T
    return row["datatype"] == last["datatype"] and row["bytes"] <= last["bytes"]


def _test(rows: list[dict], version: str | None, options: dict | None = None) -> str:
    """One test's text; options: a core run's OSU options (its run record's), None where the rows hold only
    the columns OSU printed (an import)."""
    first = rows[0]
    facts = dict(lookup(first["benchmark"], first["suite"]).facts)
    lines = [f"# {label}: {first[name]}" + osu_columns.SETTING_ENDS.get(name, "")
             for label, name in osu_columns.SETTINGS.items()
             if name in osu_columns.BEFORE_TITLE and first.get(name) is not None]
    if facts.get("blank_line_first"):
        lines.append("")
    lines.append("# " + _title(facts["header"], first.get("accelerator")) + (f" v{version}" if version else ""))
    if first["benchmark"] == "osu_init":
        return "\n".join(lines + [_init_line(row) for row in rows]) + "\n"
    if facts.get("overlap"):
        lines += [NBC_FORMULA, ""]
    pairs = first.get("pairs") or first["processes"] // 2  # osu_mbw_mr's
    if osu_matrix.is_varied(first):
        return "\n".join(lines + osu_matrix.lines(rows, pairs, bool(facts.get("datatype_line")))) + "\n"
    # osu_mbw_mr's line (its "MB/s" header, not osu_bw's "Bandwidth (MB/s)"): other programs may keep a
    # window size in their records without OSU printing it.
    if first.get("window_size") is not None and "MB/s" in facts["columns"]:
        lines.append(f"# [ pairs: {pairs} ] [ window size: {first['window_size']} ]")
    lines += [f"# {label}: {first[name]}" for label, name in osu_columns.SETTINGS.items()
              if name not in osu_columns.BEFORE_TITLE and first.get(name) is not None]
    sized = facts["columns"][0] in osu_columns.SIZE_HEADERS
    columns = [c for c in _columns(rows, facts["columns"]) if _printed(c.field, facts, options)]
    datatype = None
    for row in rows:
        if row["datatype"] != datatype:
            datatype = row["datatype"]
            if facts.get("datatype_line") and datatype != "none":
                lines.append(f"# Datatype: {datatype}.")
            lines.append(_header(columns, facts["columns"][0] if sized else None))
        lines.append(_row(row, columns, sized, _figure_width(first["benchmark"], columns)))
    return "\n".join(lines) + "\n"


def _printed(field: str, facts: dict, options: dict | None) -> bool:
    """Whether OSU prints a row's field as a column of this program's table, given the run's options (-f,
    -R 0: osu_mbw_mr without Messages/s); options None: an import's row, which holds only what OSU printed."""
    if options is None or field in OPTIONAL_COLUMNS or osu_columns.TAIL_FIELD.match(field):
        return True
    if field == "msgs_per_sec" and options.get("print_rate") in (0, False):
        return False
    own = {c.field for c in (osu_columns.column(h) for h in facts["columns"]) if c is not None}
    if field in own:
        return True
    if not options.get("full"):
        return False
    return field in (NBC_FULL_COLUMNS if facts.get("overlap") else FULL_COLUMNS)


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


def _figure_width(benchmark: str, columns: list[osu_columns.Column]) -> int | None:
    """A program's own width of its figures under OSU's header, where it prints one (osu_latency_mp without
    -c), else None: each column's."""
    narrow = osu_columns.NARROW_FIGURES.get(benchmark)
    return narrow if narrow and all(c.kind == "float" for c in columns) else None


def _row(row: dict, columns: list[osu_columns.Column], sized: bool, figure_width: int | None = None) -> str:
    cells = [f"{row['bytes']:<10d}"] if sized else []
    for index, column in enumerate(columns):
        # Without a Size column OSU prints the first figure as wide as its "# <name>" header.
        width = figure_width or (column.width if sized or index else len(column.header) + 2)
        value = row.get(column.field)
        if value is None:
            cells.append(" " * width)
        elif column.kind == "float":
            cells.append(f"{value:{width}.2f}")
        else:
            cells.append(f"{value:>{width}}")
    return "".join(cells).rstrip()  # a column without values at the end (osu_multi_lat's -z) prints nothing


def osu_init_text(processes: int, low: int, high: int, mean: int) -> str:
    """osu_init's line from its figures (whole ms): an imported osu_init's, and the core's start-up tool's."""
    return f"nprocs: {processes}, min: {low} ms, max: {high} ms, avg: {mean} ms"


def _init_line(row: dict) -> str:
    """osu_init's line: MPI_Init's time over the ranks in whole milliseconds, as it printed them."""
    return osu_init_text(row["processes"], *(int(row[f] / 1000) for f in ("t_min_usec", "t_max_usec", "t_avg_usec")))
