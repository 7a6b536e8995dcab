"""One self-contained HTML report of series of runs: metadata, plots, tables.

Layout after the seeds: per benchmark the plots and RIKEN's tables (time in
seconds and throughput in MB/s for each size; collectives with a column per
process count); with several series (implementations), the Aramco study's
tables (PingPong/PingPing at one size, Sendrecv/Exchange bandwidth and
collective times against process count, one column per implementation).

Everything the report shows that came from outside (host names, command
lines, library strings, file names) goes through jinja2 with autoescape on;
plots are PNG data URIs; the page loads nothing from anywhere.
"""

from __future__ import annotations

import base64
import shlex
import statistics
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timezone

import jinja2

from mpimark import __version__
from mpimark.presentation import placement, plots
from mpimark.records.figures import bandwidth_mbs, is_collective, table_key, time_usec, title
from mpimark.records.placement import describe as describe_placement
from mpimark.storage.selection import LoadedRun, Series

SINGLE_TRANSFER = ("PingPong", "PingPing")
PARALLEL_TRANSFER = ("Sendrecv", "Exchange")
NOTE = ("Times are the median of mpimark's samples (the plots' bands: its 95 % confidence interval) where "
        "mpimark measured the row, else the imported suite's own figure (IMB: t for the PingPong family, "
        "t_avg otherwise). Bandwidths are IMB's MB/s (10^6 bytes/s) at that time. Several runs of one "
        "implementation at one point show their median (bands: their range).")


@dataclass
class Table:
    caption: str
    headers: list[str]
    rows: list[list[str]]
    numeric: bool = True  # cells right-aligned, as numbers


@dataclass
class Image:
    title: str
    data_uri: str


@dataclass
class Section:
    title: str
    images: list[Image] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)


def _png(plot: plots.Plot) -> Image:
    encoded = base64.b64encode(plots.render(plot.figure, "png")).decode("ascii")
    return Image(plot.title, f"data:image/png;base64,{encoded}")


def _value(records: list[dict], figure: Callable[[dict], float | None]) -> float | None:
    values = [v for v in map(figure, records) if v is not None]
    return statistics.median(values) if values else None


def _seconds(usec: float | None) -> str:
    return "-" if usec is None else f"{usec * 1e-6:.2E}"  # RIKEN's layout: 1.05E-06


def _fixed(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


# -- metadata -------------------------------------------------------------------


def _import_source(run: LoadedRun) -> str | None:
    event = next((r for r in run.records if r["type"] == "event" and r.get("kind") == "import"), None)
    return None if event is None else event.get("message")


def overview(series: list[Series]) -> Table:
    """One row per series: what it is and which runs it holds; the runs' details close the page."""
    rows = []
    for s in series:
        libraries = list(dict.fromkeys(run.row.mpi_library_version or "" for run in s.runs))
        statuses: dict[str, int] = {}
        for run in s.runs:
            statuses[run.row.status] = statuses.get(run.row.status, 0) + 1
        counts = sorted({run.row.processes or run.row.requested_processes for run in s.runs})
        hosts = sorted({host for run in s.runs for host in run.row.hosts})
        rows.append([s.label, "; ".join(filter(None, libraries)) or "-", ", ".join(map(str, counts)),
                     ", ".join(str(run.row.id) for run in s.runs),
                     ", ".join(f"{n} {status}" for status, n in statuses.items()), ", ".join(hosts) or "-",
                     ", ".join(sorted({placement.shape(run.row.nodes, run.row.ranks_per_node) for run in s.runs}
                                      - {""})) or "-",
                     "; ".join(sorted({describe_placement(run.row.placement) for run in s.runs}))])
    return Table("Series", ["series", "MPI library", "processes", "runs", "status", "hosts", "nodes × ranks",
                            "placement"], rows, numeric=False)


def run_metadata(series: Series, run: LoadedRun) -> list[tuple[str, str]]:
    row, record = run.row, run.run or {}
    mpi = record.get("mpi") or {}
    fields = [
        ("series", series.label), ("run", str(row.id)), ("status", row.status + (
            f" ({row.status_message})" if row.status_message else "")),
        ("suite", row.suite), ("MPI library", row.mpi_library_version or ""),
        ("MPI standard", row.mpi_standard_version or ""),
        ("MPI installation", " in ".join(filter(None, (row.mpi_name, row.mpi_prefix)))),
        ("thread level", mpi.get("thread_level_provided", "")),
        ("processes", str(row.processes or row.requested_processes)),
        ("hosts", ", ".join(row.hosts)),
        ("nodes × ranks per node", placement.shape(row.nodes, row.ranks_per_node)),
        *((name, value) for name, _, value in (line.partition(": ") for line in placement.lines(row.placement, record))),
        ("started (UTC)", record.get("start_utc") or row.started_utc),
        ("launch command", shlex.join(row.launch_command)),
        ("core command", shlex.join(record.get("command_line", []))),
        ("environment", " ".join(f"{k}={v}" for k, v in row.environment.items())),
        ("oversubscribed", {True: "yes: ranks outnumber cores", False: "no"}.get(record.get("oversubscribed"), "")),
        ("imported from", _import_source(run) or ""),
    ]
    return [(name, value) for name, value in fields if value]


# -- per benchmark: RIKEN's tables ------------------------------------------------


def size_table(key: tuple, lines: plots.Lines) -> Table:
    """Time [s] and throughput [MB/s] for each size, a column pair per series."""
    sizes = sorted({r["bytes"] for _, records in lines for r in records})
    several = len(lines) > 1
    headers = ["Message size [bytes]"]
    columns: list[tuple[list[dict], Callable]] = []
    for s, records in lines:
        prefix = f"{s.label}: " if several else ""
        headers.append(f"{prefix}Communication time [sec]")
        columns.append((records, lambda rs: _seconds(_value(rs, time_usec))))
        if any(bandwidth_mbs(r) is not None for r in records):
            headers.append(f"{prefix}Throughput [MB/s]")
            columns.append((records, lambda rs: _fixed(_value(rs, bandwidth_mbs))))
    rows = [[str(size)] + [cell([r for r in records if r["bytes"] == size]) for records, cell in columns]
            for size in sizes]
    return Table(title(key), headers, rows)


def process_table(benchmark: str, series: list[Series]) -> Table | None:
    """RIKEN's collective table: time [s] per size, a column per series and process count."""
    collective = plots.collectives_of(series).get(benchmark, [])
    if len({r["processes"] for r in collective}) < 2:
        return None
    headers, columns = ["Message size [bytes]"], []
    for s in series:
        mine = [r for r in s.results if plots.scalable(r) and r["benchmark"] == benchmark]
        for processes in sorted({r["processes"] for r in mine}):
            headers.append(f"{s.label}: {processes} procs" if len(series) > 1 else f"{processes} procs")
            columns.append([r for r in mine if r["processes"] == processes])
    rows = [[str(size)] + [_seconds(_value([r for r in column if r["bytes"] == size], time_usec))
                           for column in columns]
            for size in sorted({r["bytes"] for r in collective})]
    return Table(f"{benchmark}: communication time [sec]", headers, rows)


# -- across implementations: the Aramco study's tables ------------------------------


def _plain(records: list[dict], benchmark: str) -> list[dict]:
    return [r for r in records if r["benchmark"] == benchmark and r.get("multi") is None
            and r.get("group") is None and table_key(r)[1] == "" and time_usec(r) is not None]


def single_transfer_table(series: list[Series], size: int | None) -> Table | None:
    chosen = plots.scaling_size([r for s in series for b in SINGLE_TRANSFER for r in _plain(s.results, b)], size)
    if chosen is None:
        return None
    headers = ["MPI implementation"]
    for benchmark in SINGLE_TRANSFER:
        headers += [f"{benchmark} [MB/s]", f"{benchmark} time [usec]"]
    rows = []
    for s in series:
        row = [s.label]
        for benchmark in SINGLE_TRANSFER:
            found = [r for r in _plain(s.results, benchmark) if r["bytes"] == chosen]
            row += [_fixed(_value(found, bandwidth_mbs)), _fixed(_value(found, time_usec))]
        rows.append(row)
    if all(cell == "-" for row in rows for cell in row[1:]):
        return None
    return Table(f"Single transfer benchmarks at {chosen} bytes", headers, rows)


def against_processes(series: list[Series], benchmark: str, size: int | None, what: str,
                      figure: Callable[[dict], float | None]) -> Table | None:
    """One benchmark's figure against process count at one size, a column per series."""
    records = {s.label: _plain(s.results, benchmark) for s in series}
    chosen = plots.scaling_size([r for rs in records.values() for r in rs], size)
    if chosen is None:
        return None
    counts = sorted({r["processes"] for rs in records.values() for r in rs if r["bytes"] == chosen})
    rows = [[str(n)] + [_fixed(_value([r for r in records[s.label] if r["processes"] == n and r["bytes"] == chosen],
                                      figure)) for s in series] for n in counts]
    if not rows or all(cell == "-" for row in rows for cell in row[1:]):
        return None
    return Table(f"{benchmark}: {what} at {chosen} bytes", ["processes", *(s.label for s in series)], rows)


def comparison_tables(series: list[Series], size: int | None) -> list[Table]:
    tables = [single_transfer_table(series, size)]
    tables += [against_processes(series, b, size, "bandwidth [MB/s]", bandwidth_mbs) for b in PARALLEL_TRANSFER]
    collectives = sorted({r["benchmark"] for s in series for r in s.results if is_collective(r)})
    tables += [against_processes(series, b, size, "time [usec]", time_usec) for b in collectives]
    return [t for t in tables if t is not None]


# -- the page ---------------------------------------------------------------------


def sections(series: list[Series], size: int | None) -> list[Section]:
    out = []
    for key, lines in plots.tables_of(series).items():
        out.append(Section(title(key), [_png(p) for p in plots.table_plots(key, lines)], [size_table(key, lines)]))
    for benchmark in plots.collectives_of(series):
        plot = plots.scaling_plot(benchmark, series, size)
        table = process_table(benchmark, series)
        if plot or table:
            out.append(Section(f"{benchmark} against process count", [_png(plot)] if plot else [],
                               [table] if table else []))
    return out


def _environment() -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.PackageLoader("mpimark.presentation", "templates"), autoescape=True,
                              undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)


def render(series: list[Series], size: int | None = None) -> str:
    """The report as one HTML document."""
    return _environment().get_template("report.html.j2").render(
        version=__version__,
        generated=datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC"),
        series=series,
        overview=overview(series),
        runs=[run_metadata(s, run) for s in series for run in s.runs],
        comparison=comparison_tables(series, size) if len(series) > 1 else [],
        sections=sections(series, size),
        note=NOTE,
    )
