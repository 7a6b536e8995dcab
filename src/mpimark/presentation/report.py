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
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime, timezone

import jinja2

from mpimark import __version__
from mpimark.analysis import seeds
from mpimark.analysis.geomeans import Geomean, MAX_LAUNCHES_NEEDED
from mpimark.analysis.launches import ADVISED_LAUNCHES, Comparison, ComparisonRow, compare_launches
from mpimark.analysis.statistics import CORRECTION_NAMES, DEFAULT_CORRECTION, MIN_SAMPLES
from mpimark.presentation import by_benchmark, hosts as host_list, placement, plots, rigour
from mpimark.presentation.selfcheck_notes import Alerts
from mpimark.presentation.tools import beff
from mpimark.records import machine, simulation
from mpimark.records.figures import bandwidth_mbs, key, table_key, time_ci_usec, time_usec, title
from mpimark.records.mpi_library import one_line
from mpimark.records.placement import describe as describe_placement
from mpimark.storage.selection import (by_placement, iter_marked, LoadedRun, run_label, Series, streamed,
                                       with_results_of)
from mpimark.storage import simulated
from mpimark.storage.simulated import by_simulation
from mpimark.storage.store import Store

SINGLE_TRANSFER = ("PingPong", "PingPing")
PARALLEL_TRANSFER = ("Sendrecv", "Exchange")
NOTE = ("Times are the median of mpimark's samples (the plots' bands and the tables' [low, high]: its 95 % "
        "confidence interval) where mpimark measured the row, else the imported suite's own figure (IMB: t for "
        "the PingPong family, t_avg otherwise). Bandwidths are IMB's MB/s (10^6 bytes/s) at that time. Several "
        "runs of one implementation at one point show their median (bands and [low, high]: their range).")
COMPARISON_NOTE = ("Each implementation is compared with {base} launch by launch, as `mpimark compare STUDY` "
                   "does: each run is one launch, valued by the median of its samples (which describe that launch "
                   "only). IMPL/{base} is the ratio of the medians of the launch values (above 1: slower), "
                   "[low, high] its 95 % interval over launches (from 4 launches a side), followed by the verdict: "
                   "slower or faster when the two-sided Mann-Whitney U test on the launch values is significant at "
                   "0.05 after {correction} over all rows compared, ~ when it is not (the difference may be noise, "
                   "however large the ratio), ? when there are too few launches to test (one launch a side: "
                   "launches decide; measure with --launches " + str(ADVISED_LAUNCHES) + " or more); p is the "
                   "corrected p value. " + "\u26a0" + ": a run behind the cell raised a self-check warning, "
                   "listed under the table.")
WARNED = " \u26a0"  # the mark on a cell, a ranking or a table drawn from a run whose self-checks warned
STATUS_LABELS = {"timeout": "timed out", "out_of_memory": "skipped: out of memory",
                 "int_overflow": "skipped: count overflows int"}


@dataclass
class Table:
    caption: str
    headers: list[str]
    rows: list[list[str]]
    numeric: bool = True  # cells right-aligned, as numbers
    notes: list[str] = field(default_factory=list)  # shown under the table, open: the self-checks' warnings


@dataclass
class Image:
    title: str
    data_uri: str


@dataclass
class Section:
    title: str
    images: list[Image] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    note: str = ""


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


NO_DATA = "0 (no data moved)"


def _mbs(value: float | None) -> str:
    """A bandwidth cell: a 0-byte row moved nothing, which is 0 MB/s measured, not a missing figure."""
    return NO_DATA if value == 0 else _fixed(value)


def _shown(value: float | None, text: Callable[[float], str]) -> str | None:
    """The cell of a value, or None where there is none (the caller says why)."""
    return None if value is None else text(value)


# -- metadata -------------------------------------------------------------------


def started(moment: str | None) -> str:
    """A run's start for a column headed UTC: an imported log's Date names no zone (importers.common
    .asctime_start) and says so."""
    if not moment:
        return "-"
    return moment if moment.endswith("Z") else f"{moment} (the log's local time, no zone given)"


def _import_source(run: LoadedRun) -> str | None:
    event = next((r for r in run.records if r["type"] == "event" and r.get("kind") == "import"), None)
    return None if event is None else event.get("message")


def overview(series: list[Series]) -> Table:
    """One row per series: what it is and which runs it holds; the runs' details close the page."""
    rows = []
    for s in series:
        libraries = list(dict.fromkeys(one_line(run.row.mpi_library_version) for run in s.runs))
        statuses: dict[str, int] = {}
        for run in s.runs:
            statuses[run.row.status] = statuses.get(run.row.status, 0) + 1
        counts = sorted({run.row.processes or run.row.requested_processes for run in s.runs})
        hosts = sorted({host for run in s.runs for host in run.row.hosts})
        # A run past the core's bound lists its first hosts only; its node count says how many it had.
        most_nodes = max((run.row.nodes or 0 for run in s.runs), default=0)
        rows.append([s.label, "; ".join(filter(None, libraries)) or "-", ", ".join(map(str, counts)),
                     ", ".join(str(run.row.id) for run in s.runs),
                     ", ".join(f"{n} {status}" for status, n in statuses.items()), host_list.listed(hosts, most_nodes) or "-",
                     ", ".join(sorted({placement.shape(run.row.nodes, run.row.ranks_per_node) for run in s.runs}
                                      - {""})) or "-",
                     "; ".join(sorted({describe_placement(run.row.placement) for run in s.runs}))])
    return Table("Series", ["series", "MPI library", "processes", "run ids", "status", "hosts", "nodes × ranks",
                            "placement"], rows, numeric=False)


def run_metadata(series: Series, run: LoadedRun) -> list[tuple[str, str]]:
    row, record = run.row, run.run or {}
    mpi = record.get("mpi") or {}
    fields = [
        ("series", series.label), ("run", str(row.id)), ("status", row.status + (
            f" ({row.status_message})" if row.status_message else "")),
        ("suite", row.suite), ("MPI library", one_line(row.mpi_library_version)),
        ("MPI standard", row.mpi_standard_version or ""),
        ("MPI installation", " in ".join(filter(None, (row.mpi_name, row.mpi_prefix)))),
        ("thread level", mpi.get("thread_level_provided", "")),
        ("processes", str(row.processes or row.requested_processes)),
        ("hosts", host_list.listed(row.hosts, row.nodes)),
        ("nodes × ranks per node", placement.shape(row.nodes, row.ranks_per_node)),
        *((name, value) for name, _, value in (line.partition(": ") for line in placement.lines(row.placement, record))),
        ("started (UTC)", started(record.get("start_utc") or row.started_utc)),
        ("launch command", shlex.join(row.launch_command)),
        ("core command", shlex.join(record.get("command_line", []))),
        ("environment", " ".join(f"{k}={v}" for k, v in row.environment.items())),
        ("oversubscribed", {True: "yes: ranks outnumber cores", False: "no"}.get(record.get("oversubscribed"), "")),
        ("simulation", simulation.details(row.simulation) if row.simulation else ""),
        ("self-checks", rigour.selfcheck_summary(run.run)),
        ("warnings", "; ".join(rigour.warnings(run.records))),
        *((f"machine: {name}", value) for name, value in machine.facts(run.records).items()),
        ("imported from", _import_source(run) or ""),
    ]
    return [(name, value) for name, value in fields if value]


# -- per benchmark: RIKEN's tables ------------------------------------------------


def missing(skipped: dict[int, str] | None, size: int) -> str:
    """What a cell without a value says: why the size was not measured, not "-"."""
    skipped = skipped or {}
    if size in skipped:
        return STATUS_LABELS.get(skipped[size], skipped[size].replace("_", " "))
    earlier = [s for s, status in skipped.items() if s < size and status == "timeout"]
    if earlier:
        return f"not run: timed out at {plots.size_label(min(earlier))} B"
    return "not measured"


def size_table(key: tuple, lines: plots.Lines, skipped: dict[str, dict[int, str]] | None = None) -> Table:
    """Time [s] and throughput [MB/s] for each size, a column pair per series; unmeasured sizes say why."""
    skipped = skipped or {}
    sizes = sorted({r["bytes"] for _, records in lines for r in records}
                   | {size for s, _ in lines for size in skipped.get(s.label, {})})
    several = len(lines) > 1
    headers = ["Message size [bytes]"]
    columns: list[tuple[str, list[dict], Callable]] = []
    for s, records in lines:
        prefix = f"{s.label}: " if several else ""
        headers.append(f"{prefix}Communication time [sec]")
        columns.append((s.label, records, lambda rs: _shown(_value(rs, time_usec), _seconds)))
        if any(bandwidth_mbs(r) is not None for r in records):
            headers.append(f"{prefix}Throughput [MB/s]")
            columns.append((s.label, records, lambda rs: _shown(_value(rs, bandwidth_mbs), _mbs)))
    by_size = [(label, _by_size(records), cell) for label, records, cell in columns]
    rows = [[str(size)] + [cell(found.get(size, [])) or missing(skipped.get(label), size)
                           for label, found, cell in by_size]
            for size in sizes]
    return Table(title(key), headers, rows)


def _by_size(records: list[dict]) -> dict[int, list[dict]]:
    """The records per size, in their order: looked up per row of a table (searching the records for each
    size was quadratic, most of a report's time with thousands of sizes per table)."""
    found: dict[int, list[dict]] = {}
    for record in records:
        found.setdefault(record["bytes"], []).append(record)
    return found


def process_table(benchmark: str, series: list[Series]) -> Table | None:
    """RIKEN's collective table: time [s] per size, a column per series and process count."""
    collective = plots.collectives_of(series).get(benchmark, [])
    if len({r["processes"] for r in collective}) < 2:
        return None
    headers, columns, spans = ["Message size [bytes]"], [], spans_nodes(series)
    for s in series:
        mine = [r for r in s.results if plots.scalable(r) and r["benchmark"] == benchmark]
        for processes in sorted({r["processes"] for r in mine}):
            where = _on_nodes(s, processes, benchmark) if spans else ""
            headers.append(f"{s.label}: {processes} procs{where}" if len(series) > 1 else f"{processes} procs{where}")
            columns.append([r for r in mine if r["processes"] == processes])
    by_size = [_by_size(column) for column in columns]
    rows = [[str(size)] + [_seconds(_value(found.get(size, []), time_usec)) for found in by_size]
            for size in sorted({r["bytes"] for r in collective})]
    return Table(f"{benchmark}: communication time [sec]", headers, rows)


# -- across implementations: the Aramco study's tables ------------------------------


def _plain(records: list[dict], benchmark: str) -> list[dict]:
    return list(filter(_plain_benchmark(benchmark), records))


def _not_measured(records: list[dict], benchmark: str) -> list[dict]:
    return [r for r in records if r["benchmark"] == benchmark and r.get("multi") is None
            and r.get("group") is None and table_key(r)[1] == "" and r.get("status", "ok") != "ok"]


@dataclass(frozen=True)
class Verdicts:
    """Per implementation label its comparison with the baseline (the first series), and the self-check
    warnings of every run, to stand beside the verdicts drawn from them."""
    comparisons: dict[str, Comparison]
    alerts: Alerts

    def get(self, label: str) -> Comparison | None:
        return self.comparisons.get(label)

    def cell(self, base: Series, s: Series, records: list[dict]) -> tuple[str, list[str]]:
        """s's verdict against base at the rows `records` (one key), marked where a run behind it warned,
        and those warnings ("mpich's runs 7, 9: oversubscribed: 4 ranks on 2 cores")."""
        row = _row_of(self.get(s.label), records)
        if row is None:
            return verdict_cell(None), []
        notes = [f"{side.label}'s {line}" for side, launches in ((base, row.launches_a), (s, row.launches_b))
                 for line in self.alerts.lines(side, launches, row.key.benchmark)]
        return verdict_cell(row) + (WARNED if notes else ""), notes


def verdicts(series: list[Series], correction: str = DEFAULT_CORRECTION, store: Store | None = None,
             alerts: Alerts | None = None) -> Verdicts:
    """Each series after the first compared with the first, as `mpimark compare STUDY` does.
    store given: the series loaded without results, each run read from the store as it is compared
    (compare_launches keeps a row per key and run, not the run). alerts: the runs' warnings, if read."""
    def runs(s: Series):
        return [run.records for run in s.runs] if store is None else streamed(store, s)
    return Verdicts({s.label: compare_launches(runs(series[0]), runs(s), correction=correction)
                     for s in series[1:]}, alerts or Alerts(series))


def _row_of(comparison: Comparison | None, records: list[dict]) -> ComparisonRow | None:
    if comparison is None or not records:
        return None
    wanted = key(records[0])
    return next((row for row in comparison.rows if row.key == wanted), None)


def verdict_cell(row: ComparisonRow | None) -> str:
    """"2× [1.9, 2.1] slower (p 0.008)", "1.02× [0.97, 1.1] ~ (p 0.6)", "2× ? (one launch a side: launches
    decide)": the ratio of the launch medians, its interval over launches, the verdict on launch values."""
    if row is None or row.ratio is None:
        return "not compared"
    ratio = f"{row.ratio:.3g}×" + ("" if row.ratio_low is None else f" [{row.ratio_low:.3g}, {row.ratio_high:.3g}]")
    if row.p_adjusted is None:
        if max(row.n_a, row.n_b) == 1:
            return f"{ratio} ? (one launch a side: launches decide)"
        return f"{ratio} ? ({row.n_a} launches against {row.n_b}: a verdict needs {MIN_SAMPLES} a side)"
    return f"{ratio} {row.marker} (p {row.p_adjusted:.2g})"


def _spread(records: list[dict], figure: Callable[[dict], float | None],
            band: Callable[[dict], tuple[float, float] | None]) -> str | None:
    """The value with its interval: the 95 % CI of one run's median, or the range of several runs' values."""
    value = _value(records, figure)
    if value is None:
        return None
    if value == 0 and figure is bandwidth_mbs:
        return NO_DATA
    values = [v for v in map(figure, records) if v is not None]
    interval = band(records[0]) if len(values) == 1 else (min(values), max(values))
    if not interval:
        return _fixed(value)
    return f"{_fixed(value)} [{_fixed(interval[0])}, {_fixed(interval[1])}]"


def _bandwidth_band(record: dict) -> tuple[float, float] | None:
    ci = time_ci_usec(record)
    if ci is None or ci[0] <= 0:
        return None
    return bandwidth_mbs(record, ci[1]), bandwidth_mbs(record, ci[0])


Columns = tuple[list[str], list[list[str]], list[str]]  # headers, per series its cells under them, notes


def single_transfer_columns(series: list[Series], benchmark: str, chosen: int, found_verdicts: Verdicts | None
                            ) -> Columns | None:
    """One benchmark's columns of the single transfer table (None if no series ran it: no columns): they
    need its rows alone, so a report can read them a benchmark at a time."""
    if not any(_plain(s.results, benchmark) for s in series):
        return None
    compared = found_verdicts is not None and len(series) > 1
    headers = [f"{benchmark} [MB/s]", f"{benchmark} time [usec]"]
    if compared:
        headers.append(f"{benchmark}: IMPL/{series[0].label}")
    cells, notes = [], []
    for s in series:
        found = [r for r in _plain(s.results, benchmark) if r["bytes"] == chosen]
        skipped = {r["bytes"]: r["status"] for r in _not_measured(s.results, benchmark)}
        row = [_spread(found, bandwidth_mbs, _bandwidth_band) or missing(skipped, chosen),
               _spread(found, time_usec, time_ci_usec) or missing(skipped, chosen)]
        if compared and s is series[0]:
            row.append("baseline")
        elif compared:
            cell, warned = found_verdicts.cell(series[0], s, found)
            row.append(cell)
            notes += warned
        cells.append(row)
    return headers, cells, notes


def single_transfer_of(series: list[Series], chosen: int, columns: list[Columns | None]) -> Table | None:
    """The single transfer table at the chosen size from its benchmarks' columns."""
    columns = [c for c in columns if c is not None]
    if not columns:
        return None
    rows = [[s.label, *(cell for _, cells, _ in columns for cell in cells[i])] for i, s in enumerate(series)]
    return Table(f"Single transfer benchmarks at {chosen} bytes",
                 ["MPI implementation", *(header for headers, _, _ in columns for header in headers)], rows,
                 notes=list(dict.fromkeys(note for _, _, notes in columns for note in notes)))


def against_processes(series: list[Series], benchmark: str, size: int | None, what: str,
                      figure: Callable[[dict], float | None], found_verdicts: Verdicts | None = None,
                      band: Callable[[dict], tuple[float, float] | None] = time_ci_usec) -> Table | None:
    """One benchmark's figure against process count at one size, a column per series (with its interval),
    and per series after the first its time ratio to the first with the test's verdict."""
    records = {s.label: _plain(s.results, benchmark) for s in series}
    chosen = plots.scaling_size([r for rs in records.values() for r in rs], size)
    if chosen is None:
        return None
    counts = sorted({r["processes"] for rs in records.values() for r in rs if r["bytes"] == chosen})
    spans = spans_nodes(series)
    headers = ["processes", *(["nodes × ranks"] if spans else [])]
    for i, s in enumerate(series):
        headers.append(s.label)
        if found_verdicts is not None and i > 0:
            headers.append(f"{s.label}/{series[0].label} time")
    rows, notes = [], []
    for n in counts:
        row = [str(n), *([_shapes(series, n, benchmark)] if spans else [])]
        for i, s in enumerate(series):
            here = [r for r in records[s.label] if r["processes"] == n and r["bytes"] == chosen]
            skipped = {r["bytes"]: r["status"] for r in _not_measured(s.results, benchmark) if r["processes"] == n}
            row.append(_spread(here, figure, band) or missing(skipped, chosen))
            if found_verdicts is not None and i > 0:
                cell, warned = found_verdicts.cell(series[0], s, here)
                row.append(cell)
                notes += [f"{n} processes: {note}" for note in warned]
        rows.append(row)
    if not rows:
        return None
    return Table(f"{benchmark}: {what} at {chosen} bytes", headers, rows, notes=list(dict.fromkeys(notes)))


Each = Callable[[Iterable[str], Callable[[str, list[Series]], object]], list]


def comparison_tables(series: list[Series], size: int | None, found_verdicts: Verdicts | None = None
                      ) -> list[Table]:
    """The comparison section's tables of series loaded with their results."""
    def each(benchmarks, make):
        return [make(benchmark, series) for benchmark in benchmarks]
    return _comparison_tables(series, size, found_verdicts, each,
                              [r for s in series for b in SINGLE_TRANSFER for r in _plain(s.results, b)],
                              {r["benchmark"] for s in series for r in s.results if plots.scalable(r)})


def _comparison_tables(series: list[Series], size: int | None, found_verdicts: Verdicts | None, each: Each,
                       single_transfer_points: list[dict], collectives: Iterable[str]) -> list[Table]:
    """The single transfer table at its size (plots.scaling_size of the points: the PingPong family's plain
    rows, or their bytes and processes), then per parallel transfer benchmark and per collective a table
    against process count; each(benchmarks, make) calls make(benchmark, the series with that benchmark's
    rows), so a stored report reads a benchmark at a time."""
    chosen = plots.scaling_size(single_transfer_points, size)
    tables = []
    if chosen is not None:
        columns = each(SINGLE_TRANSFER, lambda b, narrow: single_transfer_columns(narrow, b, chosen, found_verdicts))
        tables.append(single_transfer_of(series, chosen, columns))
    tables += each(PARALLEL_TRANSFER, lambda b, narrow: against_processes(
        narrow, b, size, "bandwidth [MB/s]", bandwidth_mbs, found_verdicts, _bandwidth_band))
    tables += each(sorted(collectives), lambda b, narrow: against_processes(
        narrow, b, size, "time [usec]", time_usec, found_verdicts))
    return [t for t in tables if t is not None]


# -- the seeds' analyses ---------------------------------------------------------------


def spans_nodes(series: list[Series]) -> bool:
    """Whether any run of the selection ran on more than one node: then tables against process count say
    on how many nodes each count ran."""
    return any((run.row.nodes or 1) > 1 for s in series for run in s.runs)


def _on_nodes(s: Series, processes: int, benchmark: str) -> str:
    """" on 2 nodes" (" on 1, 2 nodes" when the series' runs differ) where a benchmark ran at one process
    count; "" if unknown."""
    nodes = sorted({run.row.nodes for run in s.runs if run.row.nodes
                    and any(r["processes"] == processes and r["benchmark"] == benchmark for r in run.results)})
    if not nodes:
        return ""
    return f" on {', '.join(map(str, nodes))} node{'s' if nodes != [1] else ''}"


def _shapes(series: list[Series], processes: int, benchmark: str) -> str:
    """The nodes × ranks per node of the runs in which a benchmark ran at a process count: "1 × 4, 2 × 2"."""
    return ", ".join(sorted({placement.shape(run.row.nodes, run.row.ranks_per_node) for s in series
                             for run in s.runs
                             if any(r["processes"] == processes and r["benchmark"] == benchmark
                                    for r in run.results)} - {""})) or "-"


def conditions_table(series: list[Series]) -> Table:
    """RIKEN's measurement conditions: per run its library, options, nodes, processes per node, compiler."""
    headers = ["run", "series", "MPI library", "options", "processes", "nodes", "processes per node",
               "compiler and flags of the core", "hosts", "load before → after"]
    rows = []
    for s in series:
        for run in s.runs:
            record, row = run.run or {}, run.row
            # The core's command line as given (the options chosen, not every default), without its output file.
            words = list(record.get("command_line") or [])[1:]
            if "-json" in words:
                at = words.index("-json")
                del words[at:at + 2]
            options = shlex.join(words)
            ranks = row.ranks_per_node or []
            found = machine.facts(run.records)
            rows.append([str(row.id), s.label, run_label(row), options or "-",
                         str(row.processes or row.requested_processes), "-" if row.nodes is None else str(row.nodes),
                         ", ".join(map(str, sorted(set(ranks)))) or "-", found["compiler and flags"],
                         host_list.listed(row.hosts, row.nodes) or "-", found["load before → after"]])
    return Table("Measurement conditions", headers, rows, numeric=False)


MACHINE_NAMES = ("host", "CPU model", "sockets", "cores", "memory", "NICs/HCAs", "binding")


def machine_table(series: list[Series]) -> Table:
    """Per run the machine it ran on, as the core (rank 0's node) and mpimark (the launching host) recorded it;
    "not recorded" where neither did (a run launched by hand, by Slurm, or imported from text)."""
    rows = [[str(run.row.id), s.label, *(machine.facts(run.records)[name] for name in MACHINE_NAMES)]
            for s in series for run in s.runs]
    return Table("Machine (rank 0's node as the core recorded it; NICs/HCAs and physical cores from the launching "
                 "host where mpimark launched the run; binding: each rank's allowed CPUs)",
                 ["run", "series", *MACHINE_NAMES], rows, numeric=False)


def _plain_benchmark(benchmark: str) -> Callable[[dict], bool]:
    return lambda r: (r["benchmark"] == benchmark and r.get("multi") is None and r.get("group") is None
                      and table_key(r)[1] == "" and time_usec(r) is not None)


def alltoall_section(series: list[Series], size: int | None) -> Section | None:
    """RIKEN's Alltoall throughput (size × processes / time) against process count at one size."""
    select = _plain_benchmark("Alltoall")
    chosen = plots.scaling_size([r for s in series for r in s.results if select(r)], size)
    if not chosen:
        return None
    rows_of = {s.label: [r for r in s.results if select(r) and r["bytes"] == chosen] for s in series}
    counts = sorted({r["processes"] for rs in rows_of.values() for r in rs})
    def cell(s: Series, n: int) -> str:
        value = _value([r for r in rows_of[s.label] if r["processes"] == n], seeds.alltoall_throughput_mbs)
        skipped = {r["bytes"]: r["status"] for r in _not_measured(s.results, "Alltoall") if r["processes"] == n}
        return _mbs(value) if value is not None else missing(skipped, chosen)

    rows = [[str(n), _shapes(series, n, "Alltoall"),
             *(cell(s, n) for s in series)] for n in counts]
    table = Table(f"Alltoall throughput [MB/s] at {chosen} bytes (size × processes / time)",
                  ["processes", "nodes × ranks", *(s.label for s in series)], rows)
    plot = plots.against_processes(f"Alltoall-throughput-{chosen}B", f"Alltoall throughput, {chosen} bytes",
                                   "throughput [MB/s]", series, lambda r: select(r) and r["bytes"] == chosen,
                                   seeds.alltoall_throughput_mbs)
    return Section("Alltoall throughput against process count", [_png(plot)] if plot else [], [table])


STARTUP = (("startup_since_launch", "since launch"), ("startup_since_first_entry", "since the first process started"))


def startup_section(series: list[Series]) -> Section | None:
    """Start-up time (to the end of the first barrier, the slowest rank) against process count and nodes."""
    for benchmark, counted in STARTUP:
        def select(r: dict, benchmark=benchmark) -> bool:
            return r["benchmark"] == benchmark and r.get("phase") == "first_barrier_done" and \
                r.get("t_max_usec") is not None
        if any(select(r) for s in series for r in s.results):
            break
    else:
        return None
    seconds = lambda r: r["t_max_usec"] / 1e6  # noqa: E731
    points = sorted({(r["processes"], run.row.nodes or 1) for s in series for run in s.runs for r in run.results
                     if select(r)})
    rows = []
    for processes, nodes in points:
        row = [str(processes), str(nodes)]
        for s in series:
            found = [r for run in s.runs if (run.row.nodes or 1) == nodes for r in run.results
                     if select(r) and r["processes"] == processes]
            row.append(_seconds(_value(found, lambda r: r["t_max_usec"])) if found else "not measured")
        rows.append(row)
    table = Table(f"Start-up time [s] {counted} to the end of the first MPI_Barrier (slowest rank; median of launches)",
                  ["processes", "nodes", *(s.label for s in series)], rows)
    plot = plots.against_processes("startup-time", "MPI start-up time", f"seconds {counted}", series, select, seconds)
    return Section("Start-up time against process count and nodes", [_png(plot)] if plot else [], [table])


BEFF_HEADERS = ["series", "run", "processes", "mode", "b_eff [MB/s]", "b_eff/size [MB/s]",
                "bandwidth per PE at Lmax [MB/s]", "ping-pong latency [usec]", "ping-pong bandwidth [MB/s]",
                "Lmax [MByte]"]


def beff_section(series: list[Series]) -> Section | None:
    """b_eff against process count: one figure per run (over every length and pattern, stored at Lmax), so
    drawn, and tabled as HLRS publishes it, against the processes, never as a point at one message size."""
    found = [(s, run, r) for s in series for run in s.runs for r in run.results if beff.is_summary(r)]
    if not found:
        return None
    found.sort(key=lambda item: (series.index(item[0]), item[2]["processes"], item[1].row.id))
    rows = [[s.label, str(run.row.id), str(r["processes"]), r.get("mode") or "official",
             *("-" if value is None else f"{value:.3f}" for value in beff.published(r))]
            for s, run, r in found]
    table = Table("b_eff as HLRS publishes it (MB/s = 10^6 bytes/s, all processes unless per PE; only the official "
                  "mode gives a b_eff to publish)", BEFF_HEADERS, rows)
    plot = plots.against_processes("b_eff-processes", "b_eff against process count", "b_eff [MB/s, 10^6 B/s]",
                                   series, beff.is_summary, lambda r: r["b_eff_mbytes_per_sec"])
    return Section("b_eff against process count", [_png(plot)] if plot else [], [table])


CONSISTENCY = ("Allreduce", "Reduce", "Bcast")


def _interval(estimate: Geomean) -> str:
    """"1.20× [1.10, 1.31]": a geometric-mean ratio with its interval over launches, or alone without one."""
    return f"{estimate.ratio:.2f}×" + ("" if estimate.low is None else f" [{estimate.low:.2f}, {estimate.high:.2f}]")


def _consistency_cell(c: seeds.Consistency) -> str:
    if c.verdict > 0:
        return f"{_interval(c.estimate)} Allreduce slower: compose it, or tune its algorithm"
    if c.verdict < 0:
        return f"{_interval(c.estimate)} Allreduce faster"
    if c.estimate.low is None:
        return f"{_interval(c.estimate)} ? (one launch: launches decide)"
    return f"{_interval(c.estimate)} ~ (undecided)"


def consistency_tables(series: list[Series], size: int | None, store: Store | None = None,
                       alerts: Alerts | None = None) -> list[Table]:
    """Per implementation: Allreduce against Reduce + Bcast (IMB's Aramco check), at a few sizes, decided over
    launches (each launch's ratio of its own three rows). store given: the series loaded without results, the
    three benchmarks' rows read one at a time (a launch's three rows at a time are kept: the rows of three
    benchmarks held at once were a report's largest load)."""
    alerts = alerts or Alerts(series)
    tables = []
    for s in series:
        checks = seeds.allreduce_consistency([run.records if store is None else iter_marked(store, run, CONSISTENCY)
                                              for run in s.runs])
        if not checks:
            continue
        shown = {8, 1024, 65536, 1 << 20} | ({size} if size else set())
        rows = [c for c in checks if c.bytes in shown] or checks
        slower, faster = (sum(1 for c in checks if c.verdict == v) for v in (1, -1))
        notes = [f"{s.label}'s {line}" for benchmark in CONSISTENCY for line in alerts.lines(s, None, benchmark)]
        tables.append(Table(
            f"{s.label}: Allreduce ≈ Reduce + Bcast? (of {len(checks)} points, Allreduce decided slower at {slower}, "
            f"faster at {faster}, undecided at {len(checks) - slower - faster}; geometric mean of each launch's "
            f"ratio, 95 % interval over launches)" + (WARNED if notes else ""),
            ["processes", "bytes", "Allreduce [usec]", "Reduce [usec]", "Bcast [usec]", "Reduce + Bcast [usec]",
             "Allreduce / (Reduce + Bcast)", "launches"],
            [[str(c.processes), str(c.bytes), _fixed(c.allreduce_usec), _fixed(c.reduce_usec), _fixed(c.bcast_usec),
              _fixed(c.reduce_usec + c.bcast_usec), _consistency_cell(c), str(c.estimate.launches_b)]
             for c in rows], notes=list(dict.fromkeys(notes))))
    return tables


def rankings(series: list[Series]) -> list[seeds.Ranking]:
    """seeds.rank of the series (the tools' rows left out), benchmark after benchmark in sorted order."""
    return seeds.rank({s.label: [[r for r in run.records if r.get("suite") not in plots.TOOL_SUITES]
                                 for run in s.runs] for s in series})


def _step(step: seeds.Step) -> str:
    """" < mpich" where the launches decide it, else " ~ mpich (undecided: ...)"."""
    if step.decided:
        return f" < {step.slower}"
    if step.launches_needed is None:
        return f" ~ {step.slower} (one launch a side: launches decide)"
    if step.launches_needed > MAX_LAUNCHES_NEEDED:
        return f" ~ {step.slower} (undecided: the difference is too small for any sane number of launches to tell)"
    return f" ~ {step.slower} (undecided: {step.launches_needed} launches a side would tell)"


def ranking_table(found: list[seeds.Ranking], series: list[Series], alerts: Alerts) -> Table | None:
    """The rankings: "a < b" only where the launches decide it (the interval of b/a excludes 1), else "a ~ b"
    with the launches that would tell; a ranking drawn from runs whose self-checks warned is marked and the
    warnings listed under the table."""
    if not found:
        return None
    by_label = {s.label: s for s in series}
    rows, notes = [], []
    for r in found:
        warned = [f"{r.benchmark} {r.processes} processes: {label}'s {line}"
                  for label, launches in r.launches.items() if label in by_label
                  for line in alerts.lines(by_label[label], launches, r.benchmark)]
        notes += warned
        order = r.order[0][0] + "".join(map(_step, r.steps)) + (WARNED if warned else "")
        ratios = "; ".join(f"{step.slower}/{step.faster} {_interval(step.estimate)}" for step in r.steps)
        launches = "; ".join(f"{label} {len(ids)}" for label, ids in r.launches.items())
        rows.append([r.benchmark, str(r.processes), r.size_range, str(r.rows), order, ratios, launches])
    return Table("Ranking per benchmark and size range, decided over launches: each implementation against the "
                 "one before it by the geometric mean of the time ratio over the sizes all implementations "
                 "measured, with its 95 % interval over launches; < where the interval lies above 1, ~ where it "
                 "holds 1 (undecided) or where one launch a side gives none",
                 ["benchmark", "processes", "sizes", "rows", "fastest first", "time ratio [95 % interval]",
                  "launches"], rows, numeric=False, notes=list(dict.fromkeys(notes)))


# -- the page ---------------------------------------------------------------------


def sections(series: list[Series], size: int | None) -> list[Section]:
    style, skipped = plots.styles(series), plots.skipped_by_table(series)
    tables = plots.tables_of(series)
    many = plots.many_counts(list(tables))
    out = with_counts_sections(list(tables), [table_section(key, lines, skipped.get(key, {}), style,
                                                            plots.family(key) not in many)
                                              for key, lines in tables.items()],
                               many, lambda found: plots.counts_plots(found, series))
    for benchmark in plots.collectives_of(series):
        out += filter(None, [collective_section(benchmark, series, size)])
    return out + list(filter(None, [beff_section(series)]))


def table_section(key: tuple, lines: plots.Lines, skipped: dict[str, dict[int, str]], style: dict,
                  figures: bool = True) -> Section:
    """One table's plots and RIKEN's table: time and throughput against size (figures False: its
    benchmark is drawn at all its process counts at once, plots.counts_plots)."""
    return Section(title(key), [_png(p) for p in plots.table_plots(key, lines, style, skipped)] if figures else [],
                   [size_table(key, lines, skipped)])


def with_counts_sections(keys: list[tuple], table_sections: list[Section], many: set[tuple],
                         draw: Callable[[tuple], list[plots.Plot]]) -> list[Section]:
    """The table sections (one per key, in order) with, before the first table of each family measured at
    many process counts (plots.many_counts), a section of its figures: draw(family)."""
    first = {}
    for i, table in enumerate(keys):
        first.setdefault(plots.family(table), i)
    out = list(table_sections)
    for found in sorted(many, key=lambda f: first[f], reverse=True):  # from the end: indices stay valid
        counts = len({k[0].processes for k in keys if plots.family(k) == found})
        modes = ", ".join(str(m) for m in (None if found[2] is None else f"group {found[2]}", found[3], found[4]) if m)
        title_ = (f"{'Multi-' if found[1] is not None else ''}{found[0]} at {counts} process counts"
                  + (f" ({modes})" if modes else ""))
        out.insert(first[found], Section(title_, [_png(p) for p in draw(found)]))
    return out


def collective_section(benchmark: str, series: list[Series], size: int | None) -> Section | None:
    plot = plots.scaling_plot(benchmark, series, size)
    table = process_table(benchmark, series)
    if plot or table:
        return Section(f"{benchmark} against process count", [_png(plot)] if plot else [], [table] if table else [])
    return None


def _environment() -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.PackageLoader("mpimark.presentation", "templates"), autoescape=True,
                              undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)


def runs_table(series: list[Series]) -> Table:
    """One line per run; its details (run_metadata) one click away."""
    rows = []
    for s in series:
        for run in s.runs:
            row = run.row
            rows.append([str(row.id), s.label, row.status, str(row.processes or row.requested_processes),
                         placement.shape(row.nodes, row.ranks_per_node) or "-", row.suite,
                         started((run.run or {}).get("start_utc") or row.started_utc)])
    return Table("Runs", ["run", "series", "status", "processes", "nodes × ranks", "suite", "started (UTC)"], rows,
                 numeric=False)


def render(series: list[Series], size: int | None = None, correction: str = DEFAULT_CORRECTION) -> str:
    """The report as one HTML document; runs placed differently (ranks per node) are series of their own."""
    series = by_simulation(by_placement(series))  # simulated runs a series of their own, labelled so
    alerts = Alerts(series)
    found = verdicts(series, correction, alerts=alerts) if len(series) > 1 else None
    return _page(series, correction, found, comparison_tables(series, size, found) if found else [],
                 sections(series, size), [x for x in (alltoall_section(series, size), startup_section(series)) if x],
                 consistency_tables(series, size, alerts=alerts),
                 ranking_table(rankings(series), series, alerts) if found else None)


def _page(series: list[Series], correction: str, found: Verdicts | None, comparison: list[Table],
          found_sections: list[Section], riken: list[Section], consistency: list[Table],
          ranking: Table | None) -> str:
    return _environment().get_template("report.html.j2").render(
        version=__version__,
        generated=datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC"),
        series=series,
        overview=overview(series),
        runs=[run_metadata(s, run) for s in series for run in s.runs],
        runs_table=runs_table(series),
        comparison=comparison,
        comparison_note=COMPARISON_NOTE.format(base=series[0].label, correction=CORRECTION_NAMES[correction])
        if found else "",
        comparison_warnings=[*_simulation_warnings(series, found),
                             *(f"{label}: {w}" for label, c in (found.comparisons if found else {}).items()
                               for w in c.warnings)],
        simulation_notes=simulated.notes(series),
        sections=found_sections,
        conditions=conditions_table(series),
        machine=machine_table(series),
        riken=riken,
        consistency=consistency,
        ranking=ranking,
        note=NOTE,
        band_note=plots.BAND_NOTE,
    )


def _simulation_warnings(series: list[Series], found: Verdicts | None) -> list[str]:
    """Each series compared with the baseline across measured and simulated (or two platforms): said so."""
    if not found:
        return []
    base = series[0]

    def sim(s: Series) -> dict | None:
        return next((run.row.simulation for run in s.runs if run.row.simulation), None)

    return [f"{s.label}: {line}" for s in series[1:]
            for line in simulation.mixing([(base.label, sim(base)), (s.label, sim(s))])]


def render_stored(store: Store, series: list[Series], size: int | None = None,
                  correction: str = DEFAULT_CORRECTION) -> str:
    """render() of series loaded without their results (selection.load(..., results=False)), read a
    benchmark at a time (by_benchmark): the same page, in memory bounded by one benchmark's rows.

    Several series are compared with the first row by row over every benchmark (the correction counts
    every row): each run is read from the store as it is compared, keeping a row per key and run; the
    comparison tables and the ranking then read their benchmarks one at a time as the sections do.
    """
    placed = by_simulation(by_placement(series))  # simulated runs a series of their own, labelled so
    keys, collectives = by_benchmark.order(store, placed)
    style, many = plots.styles(placed), plots.many_counts(keys)
    out = with_counts_sections(keys, list(by_benchmark.tables(store, placed, keys, lambda key, lines, narrow:
                                                              table_section(key, lines, plots.skipped_sizes(
                                                                  key, narrow), style, plots.family(key) not in many))),
                               many, lambda found: plots.counts_plots(found, with_results_of(store, placed,
                                                                                             (found[0],))))
    out += filter(None, by_benchmark.each(store, placed, collectives, lambda benchmark, narrow:
                                          collective_section(benchmark, narrow, size)))
    out += filter(None, [beff_section(with_results_of(store, placed, ("b_eff",)))])
    riken = [alltoall_section(with_results_of(store, placed, ("Alltoall",)), size),
             startup_section(with_results_of(store, placed, tuple(name for name, _ in STARTUP)))]
    alerts = Alerts(placed)
    consistency = consistency_tables(placed, size, store, alerts)
    if len(placed) == 1:
        return _page(placed, correction, None, [], out, [x for x in riken if x], consistency, None)
    found = verdicts(placed, correction, store, alerts)
    benchmarks = sorted({table.benchmark for table, _ in keys})
    ranking = ranking_table([r for found_here in by_benchmark.each(store, placed, benchmarks, lambda _, narrow:
                                                                    rankings(narrow))
                             for r in found_here], placed, alerts)
    return _page(placed, correction, found, stored_comparison_tables(store, placed, collectives, size, found), out,
                 [x for x in riken if x], consistency, ranking)


def _plain_points(store: Store, run: LoadedRun, benchmarks: tuple[str, ...]) -> set[tuple[int, int]]:
    """The (size, processes) of a run's plain rows of some benchmarks (what plots.scaling_size looks at),
    its rows read one at a time."""
    return {(r["bytes"], r["processes"]) for r in iter_marked(store, run, benchmarks)
            if _plain_benchmark(r["benchmark"])(r)}


def stored_comparison_tables(store: Store, series: list[Series], collectives: list[str], size: int | None,
                             found_verdicts: Verdicts) -> list[Table]:
    """comparison_tables() of series loaded without their results, a benchmark's rows at a time (the size
    of the single transfer table from one pass over its benchmarks' rows, keeping their sizes)."""
    plain = set().union(*(_plain_points(store, run, SINGLE_TRANSFER) for s in series for run in s.runs))
    return _comparison_tables(series, size, found_verdicts,
                              lambda benchmarks, make: list(by_benchmark.each(store, series, list(benchmarks), make)),
                              [{"bytes": b, "processes": n} for b, n in sorted(plain)], collectives)
