"""Plots of series of runs: time and bandwidth against message size, time against process count.

matplotlib's object API (Figure, no pyplot): no global state, no GUI
backend, nothing left open between figures. Every function returns a
Figure or None (nothing to draw); write() saves it. Which number a record
stands for (median or IMB figure, its CI, bandwidth) is figures.py's call.
"""

from __future__ import annotations

import io
import statistics
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from matplotlib.figure import Figure
from matplotlib.ticker import LogLocator, NullLocator, ScalarFormatter

from mpimark.records.figures import bandwidth_mbs, is_collective, safe_name, table_key, time_ci_usec, time_usec, title
from mpimark.storage.selection import Series

MIB = 1 << 20
FIGSIZE = (7.5, 4.6)  # inches; at 100 dpi a plot fits a report page's width
DPI = 100


@dataclass(frozen=True)
class Plot:
    name: str  # file name without suffix
    title: str
    figure: Figure


def _text(label: str) -> str:
    # matplotlib reads $...$ as math and hides labels starting with "_";
    # library strings and host names are plain text.
    label = label.replace("$", r"\$")
    return " " + label if label.startswith("_") else label


def _figure(heading: str, xlabel: str, ylabel: str) -> tuple[Figure, object]:
    figure = Figure(figsize=FIGSIZE, dpi=DPI, layout="constrained")
    axes = figure.add_subplot()
    axes.set_title(_text(heading), fontsize=11)
    axes.set_xlabel(xlabel)
    axes.set_ylabel(ylabel)
    axes.grid(True, which="major", alpha=0.35)
    axes.grid(True, which="minor", alpha=0.12)
    return figure, axes


def _finish(figure: Figure, axes, drawn: int) -> Figure | None:
    if not drawn:
        return None
    axes.legend(fontsize=8, loc="best")
    return figure


Lines = list[tuple[Series, list[dict]]]  # per series, its rows of one table


def tables_of(series: list[Series]) -> dict[tuple, Lines]:
    """Per table key (figures.table_key), each series' measured rows sorted by size."""
    tables: dict[tuple, list[tuple[Series, list[dict]]]] = {}
    for s in series:
        rows: dict[tuple, list[dict]] = {}
        for record in s.results:
            if time_usec(record) is not None or bandwidth_mbs(record) is not None:
                rows.setdefault(table_key(record), []).append(record)
        for key, records in rows.items():
            tables.setdefault(key, []).append((s, sorted(records, key=lambda r: r["bytes"])))
    return tables


def _points(records: list[dict], x_field: str, value: Callable[[dict], float | None],
            band: Callable[[dict], tuple[float, float] | None]) -> list[tuple[int, float, tuple | None]]:
    """(x, y, band) per x on log axes (x > 0, y > 0). A series with several runs
    (launches) at one x shows the median of their values and, as the band,
    their range; one run shows its own confidence interval."""
    by_x: dict[int, list[dict]] = {}
    for record in records:
        if record[x_field] > 0 and (value(record) or 0) > 0:  # log axes have no 0
            by_x.setdefault(record[x_field], []).append(record)
    points = []
    for x in sorted(by_x):
        group = by_x[x]
        if len(group) == 1:
            points.append((x, value(group[0]), band(group[0])))
        else:
            values = [value(r) for r in group]
            points.append((x, statistics.median(values), (min(values), max(values))))
    return points


def _draw(axes, label: str, points: list[tuple[int, float, tuple | None]]) -> None:
    line, = axes.plot([p[0] for p in points], [p[1] for p in points], marker="o", markersize=3,
                      linewidth=1.2, label=_text(label))
    banded = [p for p in points if p[2] is not None]
    if banded:
        axes.fill_between([p[0] for p in banded], [p[2][0] for p in banded], [p[2][1] for p in banded],
                          color=line.get_color(), alpha=0.22, linewidth=0)


def _size_plot(heading: str, ylabel: str, lines: list[tuple[Series, list[dict]]],
               value: Callable[[dict], float | None],
               band: Callable[[dict], tuple[float, float] | None]) -> Figure | None:
    figure, axes = _figure(heading, "message size [bytes]", ylabel)
    drawn = 0
    for s, records in lines:
        points = _points(records, "bytes", value, band)  # the 0-byte row stays in the tables only
        if points:
            _draw(axes, s.label, points)
            drawn += 1
    axes.set_xscale("log", base=2)
    axes.set_yscale("log")
    axes.xaxis.set_major_locator(LogLocator(base=2, numticks=12))
    return _finish(figure, axes, drawn)


def _bandwidth_band(record: dict) -> tuple[float, float] | None:
    ci = time_ci_usec(record)
    if ci is None or ci[0] <= 0:
        return None
    # Bandwidth falls as time rises: the slow end of the interval is the low bandwidth.
    return bandwidth_mbs(record, ci[1]), bandwidth_mbs(record, ci[0])


def table_plots(key: tuple, lines: Lines) -> list[Plot]:
    """One table's plots: time (median, CI band) and, where there is one, bandwidth against size."""
    heading = title(key)
    table, extra = key
    base = "-".join(filter(None, (safe_name(table.benchmark), f"np{table.processes}",
                                  None if table.multi is None else f"multi{table.multi}",
                                  None if table.group is None else f"g{table.group}",
                                  safe_name(extra) if extra else None)))
    plots = []
    latency = _size_plot(heading, "time [usec]", lines, time_usec, time_ci_usec)
    if latency is not None:
        plots.append(Plot(f"{base}-time", f"{heading}: time", latency))
    bandwidth = _size_plot(heading, "bandwidth [MB/s, 10^6 B/s]", lines, bandwidth_mbs, _bandwidth_band)
    if bandwidth is not None:
        plots.append(Plot(f"{base}-bandwidth", f"{heading}: bandwidth", bandwidth))
    return plots


def size_plots(series: list[Series]) -> list[Plot]:
    """Per benchmark and process count (and group, mode): time and bandwidth against size."""
    return [plot for key, lines in tables_of(series).items() for plot in table_plots(key, lines)]


def scalable(record: dict) -> bool:
    """A measured plain row of a collective: what time-against-process-count plots and tables show.

    Multi-mode groups and imported modes (communicators) are other measurements.
    """
    return (is_collective(record) and record.get("multi") is None and table_key(record)[1] == "" and time_usec(record) is not None)


def scaling_size(records: list[dict], size: int | None) -> int | None:
    """The size a process-count plot or table shows: the one asked for, else 1 MiB, else the
    largest size, preferring sizes measured at two or more process counts (a line needs two points)."""
    counts: dict[int, set[int]] = {}
    for record in records:
        counts.setdefault(record["bytes"], set()).add(record["processes"])
    if set(counts) == {0}:  # Barrier moves no data: its one size is the only choice
        return 0
    if size is not None or not counts:
        return size if size in counts else None
    candidates = [s for s, processes in counts.items() if len(processes) > 1] or list(counts)
    return MIB if MIB in candidates else max(candidates)


def collectives_of(series: list[Series]) -> dict[str, list[dict]]:
    """Per collective benchmark, the scalable rows of every series."""
    collectives: dict[str, list[dict]] = {}
    for s in series:
        for record in filter(scalable, s.results):
            collectives.setdefault(record["benchmark"], []).append(record)
    return collectives


def scaling_plot(benchmark: str, series: list[Series], size: int | None = None) -> Plot | None:
    """Time against process count at one message size, one line per series; None with under two counts."""
    chosen = scaling_size(collectives_of(series).get(benchmark, []), size)
    rows = {s.label: [r for r in s.results if scalable(r) and r["benchmark"] == benchmark and r["bytes"] == chosen]
            for s in series}
    if chosen is None or len({r["processes"] for mine in rows.values() for r in mine}) < 2:
        return None
    heading = f"{benchmark}, {chosen} bytes"
    figure, axes = _figure(heading, "processes", "time [usec]")
    drawn = 0
    for s in series:
        points = _points(rows[s.label], "processes", time_usec, time_ci_usec)
        if points:
            _draw(axes, s.label, points)
            drawn += 1
    axes.set_xscale("log", base=2)
    axes.set_yscale("log")
    # Process counts read better as numbers than as powers of two; tick the measured ones.
    axes.set_xticks(sorted({r["processes"] for mine in rows.values() for r in mine}))
    axes.xaxis.set_major_formatter(ScalarFormatter())
    axes.xaxis.set_minor_locator(NullLocator())
    figure = _finish(figure, axes, drawn)
    return None if figure is None else Plot(f"{safe_name(benchmark)}-scaling-{chosen}B", heading, figure)


def scaling_plots(series: list[Series], size: int | None = None) -> list[Plot]:
    """Per collective: time against process count at one message size."""
    plots = [scaling_plot(benchmark, series, size) for benchmark in collectives_of(series)]
    return [p for p in plots if p is not None]


def render(figure: Figure, fmt: str) -> bytes:
    """The figure as PNG or SVG bytes. No date in the metadata, so equal data give equal files."""
    out = io.BytesIO()
    metadata = {"Software": None} if fmt == "png" else {"Date": None}
    figure.savefig(out, format=fmt, metadata=metadata)
    return out.getvalue()


def write(plots: list[Plot], directory: Path, fmt: str) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    paths = []
    for plot in plots:
        path = directory / f"{plot.name}.{fmt}"
        path.write_bytes(render(plot.figure, fmt))
        paths.append(path)
    return paths
