"""b_eff's results as HLRS publishes them, and its plot (docs/beff.md).

The published tables (HLRS's b_eff page, `../shared/seeds/002_*`) give one
row per run: size (processes), b_eff (MByte/s, accumulated), b_eff/size,
the bandwidth per PE at Lmax, ping-pong latency (microsec) and bandwidth
(MByte/s), Lmax (MByte = 2^20 bytes) and #nodes * #PEs; every result file
ends with the line `b_eff = X MB/s = Y * N PEs with M MB/PE on <uname -a>`.
All of it is in the run's one `record: "summary"` result.

The plot is drawn from the `record: "pattern"` results (max over methods and
repetitions per pattern and length, per process), the same numbers the
core's PREFIX.plot holds, so it can be drawn again from a stored run.
"""

from __future__ import annotations

import math
from pathlib import Path

from mpimark.records.mpi_library import label as library_label
from mpimark.storage.importers import beff as beff_files

# The closing line, as the core (and the original b_eff.c) writes it: the importer reads it.
CLOSING_LINE = beff_files.CLOSING_LINE

MIB = 1 << 20
FILE_SUFFIXES = (".prot", ".short", ".sum", ".plot", ".gps")
PNG_SUFFIX = ".png"
CLASSES = (("ring", "ring patterns (b_eff)"), ("random", "random patterns (b_eff)"),
           ("additional", "additional patterns (reported only)"))


class BeffError(ValueError):
    """The records hold no b_eff result to show or plot."""


def _results(records: list[dict], kind: str) -> list[dict]:
    return [r for r in records if r["type"] == "result" and r.get("suite") == "b_eff" and r.get("record") == kind]


def is_summary(record: dict) -> bool:
    return record.get("suite") == "b_eff" and record.get("record") == "summary"


def against_size(record: dict) -> bool:
    """Whether a report draws the row against message size: not b_eff's summary (one figure of a run over
    every length and pattern, stored at Lmax, which the report draws against process count), nor its
    pattern rows (dozens of patterns per length; the run's own plot, figure(), draws them)."""
    return record.get("suite") != "b_eff" or record.get("record") not in ("summary", "pattern")


def published(result: dict) -> list[float | None]:
    """The published table's figures after the size: b_eff, b_eff/size, bandwidth per PE at Lmax, ping-pong
    latency and bandwidth, Lmax in MByte (2^20 bytes)."""
    return [result["b_eff_mbytes_per_sec"], result["b_eff_per_process_mbytes_per_sec"],
            result["b_eff_at_lmax_per_process_mbytes_per_sec"], result["pingpong_latency_usec"],
            result["pingpong_mbytes_per_sec"], result["lmax_bytes"] / MIB]


def summary(records: list[dict]) -> dict | None:
    """The run's summary result (b_eff and the figures derived from it), or None."""
    found = _results(records, "summary")
    return found[-1] if found else None


def _hosts_column(run: dict | None, processes: int) -> str:
    hosts = (run or {}).get("hosts") or []
    if not hosts:
        return "?"
    if processes % len(hosts) == 0:
        return f"{len(hosts)} * {processes // len(hosts)}"
    return f"{len(hosts)} hosts"


# The published table's columns: heading lines (right-aligned) and width.
COLUMNS = (
    (("size", "", "", ""), 6),
    (("b_eff", "", "", "MByte/s"), 12),
    (("b_eff/size", "", "", "MByte/s"), 12),
    (("bandwidth", "per PE", "at Lmax", "MByte/s"), 11),
    (("PingPong", "latency", "", "microsec"), 11),
    (("PingPong", "bandwidth", "", "MByte/s"), 11),
    (("Lmax", "", "", "MByte"), 10),
)
TABLE_HEAD = "".join(
    (" ".join(f"{heads[line]:>{width}}" for heads, width in COLUMNS) + ("   #nodes * #PEs" if line == 0 else "")
     ).rstrip() + "\n" for line in range(4))


def table_row(result: dict, run: dict | None) -> str:
    n = result["processes"]
    values = [f"{n:6d}", *(_num(value, width) for value, (_, width) in zip(published(result), COLUMNS[1:]))]
    return " ".join(values) + f"   {_hosts_column(run, n)}\n"


def _num(value: float | None, width: int = 11) -> str:
    return f"{value:{width}.3f}" if value is not None and math.isfinite(value) else f"{'-':>{width}}"


def heading(run: dict | None, result: dict) -> str:
    mode = result.get("mode") or "official"
    mpi = library_label(((run or {}).get("mpi") or {}).get("library_version"))
    hosts = ", ".join((run or {}).get("hosts") or [])
    parts = [f"b_eff ({'official run' if mode == 'official' else f'mode {mode}, not an official b_eff'})",
             f"{result['processes']} processes" + (f" on {hosts}" if hosts else ""),
             f"{result['mem_mb_per_process']} MB/PE", f"Lmax = {result['lmax_bytes']} bytes"]
    if mpi:
        parts.append(mpi)
    if result.get("last_two_shortened"):
        parts.append("the two largest lengths shortened")
    return ", ".join(parts) + "\n"


def closing_line(result: dict) -> str:
    """`b_eff = X MB/s = Y * N PEs with M MB/PE on <uname -a>`, as the core wrote it."""
    return result["summary_line"]


def text(records: list[dict]) -> str:
    """The published table for this run, then the closing line."""
    result = summary(records)
    if result is None:
        return "b_eff: no summary result (the run ended before b_eff was computed)\n"
    run = next((r for r in records if r["type"] == "run"), None)
    lines = [heading(run, result), "\n", TABLE_HEAD, table_row(result, run), "\n"]
    if result.get("defects"):
        lines.append(f"{result['defects']} received messages had a wrong first or last byte\n\n")
    lines.append(closing_line(result) + "\n")
    return "".join(lines)


# ------------------------------------------------------------------- plot


def pattern_series(records: list[dict]) -> dict[int, dict]:
    """pattern index -> {label, class, points [(bytes, per-process MB/s)]}, in length order."""
    series: dict[int, dict] = {}
    for r in _results(records, "pattern"):
        entry = series.setdefault(r["pattern_index"], {"label": r["pattern"], "class": r["pattern_class"],
                                                       "points": []})
        entry["points"].append((r["bytes"], r["per_process_mbytes_per_sec"]))
    for entry in series.values():
        entry["points"].sort()
    return dict(sorted(series.items()))


def official_path(records: list[dict]) -> list[tuple[int, float]]:
    """Per length, the b_eff path before the average over lengths (logavg of rings and random), per process."""
    return sorted((r["bytes"], r["per_process_mbytes_per_sec"]) for r in _results(records, "length"))


def figure(records: list[dict]):
    """Bandwidth per process against message length, one line per pattern, one panel per pattern class.

    A matplotlib Figure (the object API: no pyplot, no GUI backend, as plots.py).
    """
    from matplotlib.figure import Figure  # here: every mpimark command imports this module
    from matplotlib.ticker import LogLocator, NullFormatter

    series = pattern_series(records)
    if not series:
        raise BeffError("no b_eff pattern results to plot")
    result = summary(records)
    path = official_path(records)
    panels = [(cls, title) for cls, title in CLASSES if any(s["class"] == cls for s in series.values())]
    fig = Figure(figsize=(5.0 * len(panels), 4.8), dpi=100, layout="constrained")
    axes_list = fig.subplots(1, len(panels), sharey=True, squeeze=False)[0]
    positive = [v for s in series.values() for _, v in s["points"] if v and v > 0]
    for axes, (cls, title) in zip(axes_list, panels):
        members = [(index, s) for index, s in series.items() if s["class"] == cls]
        for index, s in members:
            xs = [x for x, y in s["points"] if y and y > 0]
            ys = [y for _, y in s["points"] if y and y > 0]
            # 30 random patterns: thin lines without a legend entry each.
            crowd = len(members) > 12
            axes.plot(xs, ys, marker=None if crowd else ".", linewidth=0.6 if crowd else 1.1, alpha=0.6 if crowd else 1,
                      label=None if crowd else f"p{index:02d} {s['label'].strip()}")
        if cls in ("ring", "random") and path:
            axes.plot([x for x, _ in path], [y for _, y in path], color="black", linewidth=2.2, linestyle="--",
                      label="b_eff path (logavg rings & random)")
        axes.set_xscale("log", base=2)
        axes.set_yscale("log")
        axes.set_title(f"{title}, {len(members)}", fontsize=10)
        axes.set_xlabel("message length [bytes]")
        axes.grid(True, which="major", alpha=0.35)
        axes.grid(True, which="minor", alpha=0.12)
        axes.xaxis.set_major_locator(LogLocator(base=2, numticks=12))
        axes.xaxis.set_minor_formatter(NullFormatter())
        if axes.get_legend_handles_labels()[0]:
            axes.legend(fontsize=7, loc="upper left")
    axes_list[0].set_ylabel("bandwidth per process [MB/s = 1e6 B/s]")
    if positive:
        axes_list[0].set_ylim(min(positive) / 1.5, max(positive) * 1.5)
    if result is not None:
        closing = " ".join(result["summary_line"].split(" on ")[0].split())
        fig.suptitle(_plain(f"{closing} (Lmax {result['lmax_bytes']} bytes)"),
                     fontsize=11)
    return fig


def _plain(text: str) -> str:
    return text.replace("$", r"\$")  # matplotlib reads $...$ as math


def write_png(records: list[dict], path: str | Path) -> Path:
    """Draw figure(records) into path (PNG); return the path."""
    path = Path(path)
    figure(records).savefig(path, format="png")
    return path


def output_files(prefix: str | Path) -> list[Path]:
    """The files a b_eff run with -out PREFIX writes, and the PNG mpimark adds."""
    prefix = str(prefix)
    return [Path(prefix + suffix) for suffix in (*FILE_SUFFIXES, PNG_SUFFIX)]
