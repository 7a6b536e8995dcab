"""b_eff's own result files, `.sum` and `.short`, as a b_eff run (docs/beff.md, reference/peers.md §4.2).

The original b_eff.c and `mpimark-core beff` write the same files. Both end
with the closing line `b_eff = X MB/s = Y * N PEs with M MB/PE on <uname -a>`
and hold the summary table (`accumulated | N  b_eff  Lmax MB  ...` and
`per process | ...`), the message lengths (`msglng= 1 2 ... Lmax`), the
system block and `Date of measurement`. The `.short` adds the figures with
three decimals (SECTION-BEFF), the b_eff of the rings and of the random
patterns (SECTION-BY-PATTERN-MSGLNG) and, per message length, the official
path before the average over lengths (SECTION-BY-MSGLNG, per process).

The records are those of the core's own stream: one `record: "summary"`
result (benchmark b_eff) and, from a `.short`, one `record: "length"` result
per length (benchmark b_eff_length), with the core's field names, so a
stored import is shown, compared and reported as a run of `mpimark beff`.
What a file does not hold is null (the per-pattern figures: `.prot`). The
detailed protocol (`.prot`) and the plot data (`.plot`) hold no summary and
are refused, naming the files to import instead.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from pathlib import Path

from mpimark.storage.importers.common import asctime_start, benchmark_name, fail, number, Parsed, result_record

SUITE = "b_eff"
# The closing line, as the core and the original b_eff.c write it; its tag is the mode (none: official).
CLOSING_LINE = re.compile(
    r"^b_eff(?P<tag>SHORT&TEST|SHORT|TEST)? = +(?P<total>\d+\.\d{3}) MB/s = +(?P<per_pe>\d+\.\d{3}) \* +(?P<n>\d+)"
    r" PEs with +(?P<mem>\d+) MB/PE on (?P<uname>.+)$")
SECTION = re.compile(r"^SECTION-([A-Z-]+)-(BEGIN|END)$")
LENGTHS = re.compile(r"^msglng=\s*([\d ]+)$")
METHODS = re.compile(r"^Used methods:\s*(.*)$")
SYSTEM = re.compile(r"^\s*(system name|hostname|OS release|OS version|machine)\s*:\s*(.*?)\s*$")
DATE = re.compile(r"^Date of measurement:\s*(.+?)\s*$")
WALL = re.compile(r"^Total execution wall clock time\s*=\s*(\d+) seconds")
ELAPSED = re.compile(r"^measurement loop: elapsed time\s*=\s*([\d.]+) sec")
TABLE_ROW = re.compile(r"^(accumulated|per process)\s*\|(.*)$")
# SECTION-BEFF of a .short: "<what> ... <X> MByte/s on N processes", then "( = <X/N> MByte/s * N processes)".
FIGURES = (
    ("b_eff", re.compile(r"^The effective bandwidth is b_eff\s*=\s*([\d.]+) MByte/s")),
    ("b_eff_at_lmax", re.compile(r"^b_eff at Lmax:\s*([\d.]+) MByte/s")),
    ("b_eff_at_lmax_rings", re.compile(r"^b_eff at Lmax \(ring pattern\):\s*([\d.]+) MByte/s")),
    ("latency", re.compile(r"^Latency:\s*([\d.]+) microsec")),
    ("pingpong_latency", re.compile(r"^Ping-pong latency:\s*([\d.]+) microsec")),
    ("pingpong", re.compile(r"^Ping-pong bandwidth at Lmax:\s*([\d.]+) MByte/s")),
)
PER_PROCESS = re.compile(r"^\(\s*[=:]\s*([\d.]+) MByte/s\s*\*\s*\d+ processes\)")
LOGAVG = re.compile(r"^log_avg of all (rings|random)\s*:.*\|\|\s*[\d.]+\s*->\s*([\d.]+) MByte/s")
# The first line of a .plot: the original's "# b_eff 3.6.0.1 - Use this file with Gnuplot", the core's
# "# b_eff plot data (mpimark-core ...)". importers.detect() knows b_eff's files by it and SECTION-HEAD-BEGIN.
PLOT_HEAD = re.compile(r"^# b_eff .*(?:Gnuplot|plot data)")


class _File:
    """What one .sum or .short says, gathered line by line."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.section: str | None = None
        self.sections: set[str] = set()  # every section seen (.prot: HEAD, LOOP, LOOPLNGS, VALUES)
        self.tool: str | None = None
        self.closing: re.Match | None = None
        self.closing_line = 0
        self.lengths: list[str] = []  # the msglng= line's words (numbers once checked)
        self.lengths_line = 0
        self.methods: list[str] = []
        self.system: dict[str, str] = {}
        self.date: str | None = None
        self.wall_s: int | None = None
        self.table: dict[str, tuple[int, list[str]]] = {}  # accumulated / per process: (line, cells)
        # Numbers as text with their line, checked when used (common.number):
        self.figures: dict[str, tuple[int, str]] = {}  # SECTION-BEFF's, accumulated and "<name>_per_process"
        self.logavg: dict[str, tuple[int, str]] = {}  # rings, random: accumulated b_eff
        self.by_length: list[tuple[int, list[str]]] = []  # SECTION-BY-MSGLNG rows
        self._last_figure: str | None = None

    def read(self, number_: int, text: str) -> None:
        if match := SECTION.match(text):
            self.section = match.group(1) if match.group(2) == "BEGIN" else None
            self.sections.add(match.group(1))
        elif self.section == "HEAD" and self.tool is None and text.strip():
            self.tool = text.strip()
        elif match := LENGTHS.match(text):
            self.lengths, self.lengths_line = match.group(1).split(), number_
        elif match := METHODS.match(text):
            self.methods = [word.split("=", 1)[1] for word in match.group(1).split() if "=" in word]
        elif match := CLOSING_LINE.match(text):
            self.closing, self.closing_line = match, number_
        elif match := TABLE_ROW.match(text):
            self.table[match.group(1)] = (number_, match.group(2).split())
        elif match := SYSTEM.match(text):
            self.system.setdefault(match.group(1), match.group(2))
        elif match := DATE.match(text):
            self.date = match.group(1)
        elif match := WALL.match(text):
            self.wall_s = int(match.group(1))
        elif match := ELAPSED.match(text):
            self.figures["measurement loop"] = (number_, match.group(1))
        elif match := LOGAVG.match(text.strip()):
            self.logavg[match.group(1)] = (number_, match.group(2))
        elif self.section == "BY-MSGLNG" and text.split() and text.split()[0].isdigit():
            self.by_length.append((number_, text.split()))
        elif self.section == "BEFF":
            self._figure(number_, text.strip())

    def _figure(self, number_: int, text: str) -> None:
        if (match := PER_PROCESS.match(text)) and self._last_figure:
            self.figures[f"{self._last_figure}_per_process"] = (number_, match.group(1))
            self._last_figure = None
            return
        for name, pattern in FIGURES:
            if match := pattern.match(text):
                self.figures[name] = (number_, match.group(1))
                self._last_figure = name
                return

    def value(self, found: dict[str, tuple[int, str]], name: str) -> float | None:
        """A number the text holds (FIGURES, LOGAVG), checked; None where the file does not say it."""
        if name not in found:
            return None
        line, text = found[name]
        return number(text, self.path, line, name)


def parse(path: Path, lines: Callable[[], Iterable[str]]) -> Parsed:
    """Read and check the whole file (a few tens of kB: its records are kept)."""
    found = _File(path)
    first = None
    for number_, raw in enumerate(lines(), start=1):
        text = raw.rstrip("\r\n")
        first = text if first is None else first
        found.read(number_, text)
    _refuse_other_files(path, found, first or "")
    summary = _summary(found)
    records = [summary, *_lengths(found, summary["processes"])]
    source = {key: value for key, value in (
        ("tool", found.tool), ("hosts", found.system.get("hostname")), ("uname", found.closing.group("uname")),
        ("Date", found.date), ("wall clock time", f"{found.wall_s} s" if found.wall_s is not None else None))
        if value}
    notes = [] if found.by_length else ["a .sum holds b_eff's summary alone: the .short of the same run adds the "
                                        "official path per message length"]
    started = asctime_start(found.date) if found.date else None
    return Parsed(path, "beff", lambda: iter(records), len(records), summary["processes"], source, notes=notes,
                  run_columns={"started_utc": started} if started else {})


def _refuse_other_files(path: Path, found: _File, first_line: str) -> None:
    """An error for a file without b_eff's summary: another file of the run (.prot, .plot), or one cut off."""
    if found.closing is not None and "accumulated" in found.table:
        return
    what = "detailed protocol (.prot)" if "VALUES" in found.sections else \
        "plot data (.plot)" if PLOT_HEAD.match(first_line) else None
    if what:
        raise fail(path, None, f"b_eff's {what} holds no b_eff summary: import the .sum or .short of the same run")
    missing = "closing line 'b_eff = X MB/s = Y * N PEs with M MB/PE on ...'" if found.closing is None \
        else "summary table ('accumulated | ...')"
    raise fail(path, None, f"no b_eff result: the file has no {missing} (cut off, or the run died)")


def _summary(found: _File) -> dict:
    """The `record: "summary"` result, as the core's stream has it (docs/beff.md)."""
    path, closing = found.path, found.closing
    line, cells = found.table["accumulated"]
    if len(cells) != 10 or cells[3] != "MB":
        raise fail(path, line, f"the summary table's 'accumulated' row has {len(cells)} cells, not b_eff's 10 "
                               "(number of processors, b_eff, Lmax MB, b_eff at Lmax, ..., ping-pong bandwidth)")
    processes = number(cells[0], path, line, "number of processors", integer=True)
    if processes < 2:
        raise fail(path, line, f"{processes} processes: b_eff runs on 2 or more")
    if processes != number(closing.group("n"), path, found.closing_line, "PEs", integer=True):
        raise fail(path, line, f"the summary table says {processes} processes, the closing line "
                               f"(line {found.closing_line}) {closing.group('n')}")
    if not found.lengths:
        raise fail(path, None, "no 'msglng= ...' line: the message lengths (and Lmax) are unknown")
    per_line, per = found.table.get("per process", (line, []))
    if len(per) != 3:
        raise fail(path, per_line, f"the summary table's 'per process' row has {len(per)} cells, not 3")

    def figure(name: str, cell: str, column: str, at: int = line) -> float:
        # The .short's text has three decimals where the table rounds to whole MByte/s.
        value = found.value(found.figures, name)
        return value if value is not None else number(cell, path, at, column)

    latency = figure("latency", cells[5], "Latency rings & random")
    lmax = number(found.lengths[-1], path, found.lengths_line, "msglng", integer=True)
    mode = closing.group("tag") or "official"
    total = float(closing.group("total"))
    extra = {
        "record": "summary", "mode": mode, "b_eff_mbytes_per_sec": total,
        "b_eff_per_process_mbytes_per_sec": float(closing.group("per_pe")),
        "b_eff_rings_mbytes_per_sec": found.value(found.logavg, "rings"),
        "b_eff_random_mbytes_per_sec": found.value(found.logavg, "random"),
        "lmax_bytes": lmax, "mem_mb_per_process": number(closing.group("mem"), path, found.closing_line, "MB/PE",
                                                         integer=True),
        "b_eff_at_lmax_mbytes_per_sec": figure("b_eff_at_lmax", cells[4], "b_eff at Lmax"),
        "b_eff_at_lmax_per_process_mbytes_per_sec": figure("b_eff_at_lmax_per_process", per[1],
                                                           "b_eff at Lmax per process", per_line),
        "b_eff_at_lmax_rings_mbytes_per_sec": figure("b_eff_at_lmax_rings", cells[6], "b_eff at Lmax rings only"),
        "b_eff_at_lmax_rings_per_process_mbytes_per_sec": figure(
            "b_eff_at_lmax_rings_per_process", per[2], "b_eff at Lmax rings only per process", per_line),
        "latency_usec": latency,
        # The table's: the original's text line "Latency ring pattern" leaves out the division by N.
        "latency_rings_usec": number(cells[7], path, line, "Latency rings only"),
        "pingpong_latency_usec": figure("pingpong_latency", cells[8], "Latency ping-pong"),
        "pingpong_mbytes_per_sec": figure("pingpong", cells[9], "ping-pong bandwidth"),
        "measurement_loop_s": found.value(found.figures, "measurement loop"), "last_two_shortened": None,
        "uname": closing.group("uname"),
        "summary_line": closing.group(0),
    }
    return result_record(benchmark=benchmark_name(path, found.closing_line, "b_eff", SUITE), suite=SUITE,
                         processes=processes, size=lmax, datatype="MPI_BYTE", t_min_usec=latency,
                         t_max_usec=latency, t_avg_usec=latency, mbytes_per_sec=total, extra=extra)


def _lengths(found: _File, processes: int) -> list[dict]:
    """A .short's `record: "length"` results: per length the official path's figures, accumulated (the
    file prints them per process: times N), and the time per message per process, N·L/b."""
    records = []
    methods = found.methods or ["Sndrcv", "Alltoal", "non-blk"]
    columns = ["msg length", "accumulated effective bandwidth", "average", "rings only", "random only", *methods]
    for index, (line, cells) in enumerate(found.by_length):
        if len(cells) != len(columns):
            raise fail(found.path, line, f"{len(cells)} cells in a row of SECTION-BY-MSGLNG, not {len(columns)} "
                                         f"({', '.join(columns)})")
        size = number(cells[0], found.path, line, columns[0], integer=True)
        values = [number(cell, found.path, line, column) for cell, column in zip(cells[1:], columns[1:])]
        accumulated = values[0]
        time = processes * size / accumulated if accumulated else None
        records.append(result_record(
            benchmark=benchmark_name(found.path, line, "b_eff_length", SUITE), suite=SUITE, processes=processes,
            size=size, datatype="MPI_BYTE", t_min_usec=time, t_max_usec=time, t_avg_usec=time,
            mbytes_per_sec=accumulated, extra={
                "record": "length", "length_index": index, "per_process_mbytes_per_sec": values[1],
                "rings_mbytes_per_sec": values[2] * processes, "random_mbytes_per_sec": values[3] * processes,
                "methods_mbytes_per_sec": {name: value * processes for name, value in zip(methods, values[4:])}}))
    return records
