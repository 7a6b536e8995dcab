"""Plots of series of runs: time and bandwidth against message size, time against process count.

matplotlib's object API (Figure, no pyplot): no global state, no GUI
backend, nothing left open between figures. Every function returns a
Figure or None (nothing to draw); write() saves it. Which number a record
stands for (median or IMB figure, its CI, bandwidth) is figures.py's call.
"""

from __future__ import annotations

import io
import re
import statistics
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter, LogLocator, NullLocator, ScalarFormatter

from mpimark.presentation.cells import terminal
from mpimark.presentation.tools import beff
from mpimark.records.figures import bandwidth_mbs, is_collective, safe_name, table_key, time_ci_usec, time_usec, title
from mpimark.storage.selection import Series

MIB = 1 << 20
FIGSIZE = (7.5, 4.6)  # inches; at 100 dpi a plot fits a report page's width
DPI = 100
# One colour and marker per series, fixed by the series' place in the whole selection, so that an
# implementation has the same colour in every plot of a report (matplotlib's tab10, colour-blind friendlier
# than its default cycle's order of use).
PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22",
           "#17becf")
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "<", ">", "*")
# A band reaching further than this factor beyond the medians' range is clipped (and the plot says so).
CLIP_FACTOR = 4.0
BAND_NOTE = ("band: the 95 % confidence interval of the median (one run), or the range of the runs' values "
             "(several runs of a series at one point)")

BAND_SHORT = "band: 95 % CI of the median (one run) or range of the runs"

Style = tuple[str, str]  # colour, marker
# The start-up tool's rows (MPI_Init, the first barrier) are no collectives to scale: the report has a section.
TOOL_SUITES = ("startup",)


def styles(series: list[Series]) -> dict[str, Style]:
    """Per series label its colour and marker: the colour by its implementation's place in the selection,
    the marker by that place too and, for an implementation's series of several placements
    (selection.by_placement), by the placement's place within it."""
    families = list(dict.fromkeys(s.implementation for s in series))
    seen: dict[str, int] = {}
    out = {}
    for s in series:
        family = families.index(s.implementation)
        variant = seen[s.implementation] = seen.get(s.implementation, -1) + 1
        out[s.label] = (PALETTE[family % len(PALETTE)], MARKERS[(family + variant) % len(MARKERS)])
    return out


def size_label(value: float, _position=None) -> str:
    """1, 512, 1K, 64K, 1M, 1G: binary multiples, as IMB's sizes."""
    if value < 1:
        return ""
    for unit, factor in (("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10)):
        if value >= factor:
            scaled = value / factor
            return f"{scaled:g}{unit}"
    return f"{value:g}"


@dataclass(frozen=True)
class Plot:
    name: str  # file name without suffix
    title: str
    figure: Figure


def _text(label: str) -> str:
    # matplotlib reads $...$ as math and hides labels starting with "_"; library strings and host names are
    # plain text, their control characters written out (cells.terminal) as the font has no glyph for them.
    label = terminal(label).replace("$", r"\$")
    return " " + label if label.startswith("_") else label


def new_figure(heading: str, xlabel: str, ylabel: str) -> tuple[Figure, object]:
    """An empty plot in the package's one style (size, title, grid); also the algorithm study's."""
    figure = Figure(figsize=FIGSIZE, dpi=DPI, layout="constrained")
    axes = figure.add_subplot()
    axes.set_title(_text(heading), fontsize=11)
    axes.set_xlabel(xlabel)
    axes.set_ylabel(ylabel)
    axes.grid(True, which="major", alpha=0.35)
    axes.grid(True, which="minor", alpha=0.12)
    return figure, axes


def finish_figure(figure: Figure, axes, drawn: int, notes: list[str] | None = None) -> Figure | None:
    """The legend and the notes under the axes; None when no series was drawn."""
    if not drawn:
        return None
    axes.legend(fontsize=8, loc="best")
    if notes:
        # Below the axis label, inside the layout (constrained layout makes room for axes texts).
        axes.annotate("; ".join(notes), xy=(0, 0), xycoords="axes fraction", xytext=(0, -42),
                      textcoords="offset points", fontsize=7, color="#555", ha="left", va="top")
    return figure


def _clip(axes, drawn_points: list[list[tuple[int, float, tuple | None]]]) -> list[str]:
    """Keep one wild band from stretching the y axis: limit it to CLIP_FACTOR beyond the medians."""
    values = [p[1] for points in drawn_points for p in points]
    bands = [b for points in drawn_points for _, _, b in points if b is not None]
    if not values or not bands:
        return []
    low, high = min(values) / CLIP_FACTOR, max(values) * CLIP_FACTOR
    if min(b[0] for b in bands) >= low and max(b[1] for b in bands) <= high:
        return []
    bottom, top = axes.get_ylim()
    axes.set_ylim(max(bottom, low), min(top, high))
    return [f"bands clipped at {CLIP_FACTOR:g}x beyond the medians' range"]


Lines = list[tuple[Series, list[dict]]]  # per series, its rows of one table


def size_row(record: dict) -> bool:
    """A measured row that plots and tables against message size show (b_eff's summary is drawn against
    process count instead: tools.beff.against_size)."""
    return (time_usec(record) is not None or bandwidth_mbs(record) is not None) and beff.against_size(record)


def tables_of(series: list[Series]) -> dict[tuple, Lines]:
    """Per table key (figures.table_key), each series' measured rows sorted by size."""
    tables: dict[tuple, list[tuple[Series, list[dict]]]] = {}
    for s in series:
        rows: dict[tuple, list[dict]] = {}
        for record in s.results:
            if size_row(record):
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


def draw_series(axes, label: str, points: list[tuple[int, float, tuple | None]], style: Style | None = None,
          offset: float = 1.0) -> None:
    """A series' line (its colour and marker) with its band; offset multiplies x (to show hidden points)."""
    colour, marker = style or (None, "o")
    xs = [p[0] * offset for p in points]
    line, = axes.plot(xs, [p[1] for p in points], marker=marker, markersize=4, linewidth=1.2,
                      label=_text(label), color=colour, markerfacecolor="none" if offset != 1.0 else None)
    banded = [(x, p) for x, p in zip(xs, points) if p[2] is not None]
    if banded:
        axes.fill_between([x for x, _ in banded], [p[2][0] for _, p in banded], [p[2][1] for _, p in banded],
                          color=line.get_color(), alpha=0.22, linewidth=0)


def _mark_skipped(axes, skipped: dict[int, str], style: Style | None) -> None:
    """An x on the bottom edge at each size a series did not measure (timed out, out of memory)."""
    if not skipped:
        return
    colour = style[0] if style else None
    axes.plot(list(skipped), [0.0] * len(skipped), linestyle="none", marker="x", markersize=7, color=colour,
              clip_on=False, transform=axes.get_xaxis_transform())


def _size_plot(heading: str, ylabel: str, lines: list[tuple[Series, list[dict]]],
               value: Callable[[dict], float | None],
               band: Callable[[dict], tuple[float, float] | None],
               style: dict[str, Style] | None = None, skipped: dict[str, dict[int, str]] | None = None
               ) -> Figure | None:
    figure, axes = new_figure(heading, "message size [bytes]", ylabel)
    drawn, all_points, notes = 0, [], []
    for s, records in lines:
        points = _points(records, "bytes", value, band)  # the 0-byte row stays in the tables only
        if points:
            draw_series(axes, s.label, points, (style or {}).get(s.label))
            all_points.append(points)
            drawn += 1
    axes.set_xscale("log", base=2)
    axes.set_yscale("log")
    axes.xaxis.set_major_locator(LogLocator(base=2, numticks=12))
    axes.xaxis.set_major_formatter(FuncFormatter(size_label))
    notes += _clip(axes, all_points)
    marked = False
    for s, _ in lines:
        gaps = {size: why for size, why in ((skipped or {}).get(s.label) or {}).items() if size > 0}
        _mark_skipped(axes, gaps, (style or {}).get(s.label))
        marked = marked or bool(gaps)
    if marked:
        notes.append("x on the axis: sizes not measured (timed out or skipped)")
    if any(p[2] for points in all_points for p in points):
        notes.insert(0, BAND_SHORT)
    return finish_figure(figure, axes, drawn, notes)


def _bandwidth_band(record: dict) -> tuple[float, float] | None:
    ci = time_ci_usec(record)
    if ci is None or ci[0] <= 0:
        return None
    # Bandwidth falls as time rises: the slow end of the interval is the low bandwidth.
    return bandwidth_mbs(record, ci[1]), bandwidth_mbs(record, ci[0])


def skipped_sizes(key: tuple, series: list[Series]) -> dict[str, dict[int, str]]:
    """Per series label, the sizes of this table it did not measure and why (the result's status)."""
    return skipped_by_table(series).get(key, {})


def skipped_by_table(series: list[Series]) -> dict[tuple, dict[str, dict[int, str]]]:
    """skipped_sizes of every table, from one pass over the rows (one pass per table took most of the
    time of a plot or report of a run of hundreds of tables)."""
    out: dict[tuple, dict[str, dict[int, str]]] = {}
    for s in series:
        measured: dict[tuple, set[int]] = {}
        failed: dict[tuple, list[dict]] = {}
        for r in s.results:
            key = table_key(r)
            if time_usec(r) is not None:
                measured.setdefault(key, set()).add(r["bytes"])
            if r.get("status", "ok") != "ok":
                failed.setdefault(key, []).append(r)
        for key, rows in failed.items():
            for r in rows:
                if r["bytes"] not in measured.get(key, set()):
                    out.setdefault(key, {}).setdefault(s.label, {})[r["bytes"]] = r["status"]
    return out


def table_plots(key: tuple, lines: Lines, style: dict[str, Style] | None = None,
                skipped: dict[str, dict[int, str]] | None = None) -> list[Plot]:
    """One table's plots: time (median, CI band) and, where there is one, bandwidth against size."""
    heading = title(key)
    table, extra = key
    base = "-".join(filter(None, (safe_name(table.benchmark), f"np{table.processes}",
                                  None if table.multi is None else f"multi{table.multi}",
                                  None if table.group is None else f"g{table.group}",
                                  safe_name(extra) if extra else None)))
    plots = []
    latency = _size_plot(heading, "time [usec]", lines, time_usec, time_ci_usec, style, skipped)
    if latency is not None:
        plots.append(Plot(f"{base}-time", f"{heading}: time", latency))
    bandwidth = _size_plot(heading, "bandwidth [MB/s, 10^6 B/s]", lines, bandwidth_mbs, _bandwidth_band, style,
                           skipped)
    if bandwidth is not None:
        plots.append(Plot(f"{base}-bandwidth", f"{heading}: bandwidth", bandwidth))
    return plots


def size_plots(series: list[Series]) -> list[Plot]:
    """Per benchmark and process count (and group, mode): time and bandwidth against size."""
    style, skipped = styles(series), skipped_by_table(series)
    many = many_counts(list(tables_of(series)))
    return [plot for key, lines in tables_of(series).items() if family(key) not in many
            for plot in table_plots(key, lines, style, skipped.get(key, {}))] + [
        plot for found in many for plot in counts_plots(found, series)]


# -- a benchmark at many process counts ------------------------------------------
# IMB's npmin progression measures a benchmark at 2, 4, ..., P processes: log2 P tables. Past MANY_COUNTS
# of them, one figure per count would be a wall of near-alike figures (36 for three benchmarks at 4,096
# ranks, each about half a second to draw: report and plot took 20 s): such a benchmark gets one figure
# per series instead, time (and bandwidth) against size with a line per process count. Its tables stay
# one per count; the process-count plot is unchanged. Runs of up to 16 ranks (2, 4, 8, 16) are not affected.
MANY_COUNTS = 4
_WAITING = re.compile(r"\s*\b\d+ waiting$")


def family(key: tuple) -> tuple:
    """A table key without its process count (and the waiting ranks that follow from it): the tables one
    figure of counts_plots draws, a line each."""
    table, extra = key
    return table.benchmark, table.multi, table.group, table.mode, _WAITING.sub("", extra)


def many_counts(keys: list[tuple]) -> set[tuple]:
    """The families of these table keys measured at more than MANY_COUNTS process counts."""
    counts: dict[tuple, set[int]] = {}
    for key in keys:
        counts.setdefault(family(key), set()).add(key[0].processes)
    return {found for found, processes in counts.items() if len(processes) > MANY_COUNTS}


@dataclass(frozen=True)
class _Count:
    label: str  # what _size_plot reads of a series


def _count_styles(counts: list[int]) -> dict[str, Style]:
    """A colour per process count, light to dark as the count grows (viridis: readable in grey too)."""
    from matplotlib import colormaps
    from matplotlib.colors import to_hex

    ramp = colormaps["viridis"]
    last = max(len(counts) - 1, 1)
    return {f"{n} processes": (to_hex(ramp(0.9 * i / last)), MARKERS[i % len(MARKERS)]) for i, n in enumerate(counts)}


def counts_plots(found: tuple, series: list[Series]) -> list[Plot]:
    """Per series, a family's time (and bandwidth) against size with a line per process count."""
    tables = {key: lines for key, lines in tables_of(series).items() if family(key) == found}
    counts = sorted({key[0].processes for key in tables})
    skipped = skipped_by_table(series)
    style = _count_styles(counts)
    benchmark, multi, group, mode, extra = found
    name = "-".join(filter(None, (safe_name(benchmark), f"np{counts[0]}-{counts[-1]}",
                                  None if multi is None else f"multi{multi}", None if group is None else f"g{group}",
                                  safe_name(mode) if mode else None, safe_name(extra) if extra else None)))
    plots = []
    for s in series:
        lines = [(_Count(f"{key[0].processes} processes"), rows) for key, key_lines in
                 sorted(tables.items(), key=lambda item: item[0][0].processes)
                 for mine, rows in key_lines if mine.label == s.label]
        if not lines:
            continue
        gaps = {f"{key[0].processes} processes": skipped.get(key, {}).get(s.label, {}) for key in tables}
        heading = (f"{'Multi-' if multi is not None else ''}{benchmark}, {counts[0]} to {counts[-1]} processes"
                   + (f" ({extra})" if extra else "") + f": {s.label}")  # the series, as a legend would name it
        base = name + (f"-{safe_name(s.label)}" if len(series) > 1 else "")
        what = f"{heading}, a line per process count"
        latency = _size_plot(heading, "time [usec]", lines, time_usec, time_ci_usec, style, gaps)
        if latency is not None:
            plots.append(Plot(f"{base}-time", f"{what}: time", _legend_beside(latency)))
        bandwidth = _size_plot(heading, "bandwidth [MB/s, 10^6 B/s]", lines, bandwidth_mbs, _bandwidth_band,
                               style, gaps)
        if bandwidth is not None:
            plots.append(Plot(f"{base}-bandwidth", f"{what}: bandwidth", _legend_beside(bandwidth)))
    return plots


def _legend_beside(figure: Figure) -> Figure:
    """A dozen counts' legend to the right of the axes: inside ("best") it hid lines, and looking for the
    best place among a dozen lines took a third of the figure's time."""
    figure.axes[0].legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)
    return figure


def scalable(record: dict) -> bool:
    """A measured plain row of a collective: what time-against-process-count plots and tables show.

    Multi-mode groups and imported modes (communicators) are other measurements.
    """
    return (record.get("suite") not in TOOL_SUITES and is_collective(record) and record.get("multi") is None
            and table_key(record)[1] == "" and time_usec(record) is not None)


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
    figure, axes = new_figure(heading, "processes", "time [usec]")
    drawn, all_points, style = 0, [], styles(series)
    present = [s for s in series if _points(rows[s.label], "processes", time_usec, time_ci_usec)]
    for i, s in enumerate(present):
        points = _points(rows[s.label], "processes", time_usec, time_ci_usec)
        # Series side by side around each count (a few percent apart on the log axis), open markers:
        # equal values would otherwise hide one another.
        offset = 2 ** (0.04 * (i - (len(present) - 1) / 2)) if len(present) > 1 else 1.0
        draw_series(axes, s.label, points, style[s.label], offset)
        all_points.append(points)
        drawn += 1
    counts = sorted({r["processes"] for mine in rows.values() for r in mine})
    figure = _finish_process_axes(figure, axes, counts, all_points, drawn)
    return None if figure is None else Plot(f"{safe_name(benchmark)}-scaling-{chosen}B", heading, figure)


def _finish_process_axes(figure, axes, counts: list[int], all_points: list, drawn: int):
    """Log axes against process count, the measured counts as ticks, clipping and the notes under the plot."""
    axes.set_xscale("log", base=2)
    axes.set_yscale("log")
    # Process counts read better as numbers than as powers of two; tick the measured ones.
    axes.set_xticks(counts)
    axes.xaxis.set_major_formatter(ScalarFormatter())
    axes.xaxis.set_minor_locator(NullLocator())
    notes = _clip(axes, all_points)
    if any(p[2] for points in all_points for p in points):
        notes.insert(0, BAND_SHORT)
    if drawn > 1:
        notes.append("series drawn slightly apart around each process count")
    return finish_figure(figure, axes, drawn, notes)


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


def write(plots: list[Plot], directory: Path, fmt: str,
          check: Callable[[list[Path]], None] = lambda paths: None) -> list[Path]:
    """Each plot to directory/NAME.fmt; check(paths) first, which raises to refuse them (the results database)."""
    paths = [directory / f"{plot.name}.{fmt}" for plot in plots]
    check(paths)
    directory.mkdir(parents=True, exist_ok=True)
    for plot, path in zip(plots, paths):
        path.write_bytes(render(plot.figure, fmt))
    return paths


def against_processes(name: str, heading: str, ylabel: str, series: list[Series],
                      select: Callable[[dict], bool], value: Callable[[dict], float | None],
                      band: Callable[[dict], tuple[float, float] | None] = lambda r: None) -> Plot | None:
    """A figure of chosen rows (select) against process count, one line per series in its colour."""
    figure, axes = new_figure(heading, "processes", ylabel)
    style = styles(series)
    drawn, all_points = 0, []
    present = [(s, _points([r for r in s.results if select(r)], "processes", value, band)) for s in series]
    present = [(s, points) for s, points in present if points]
    counts = sorted({p[0] for _, points in present for p in points})
    if len(counts) < 2:
        return None
    for i, (s, points) in enumerate(present):
        offset = 2 ** (0.04 * (i - (len(present) - 1) / 2)) if len(present) > 1 else 1.0
        draw_series(axes, s.label, points, style[s.label], offset)
        all_points.append(points)
        drawn += 1
    figure = _finish_process_axes(figure, axes, counts, all_points, drawn)
    return None if figure is None else Plot(name, heading, figure)
