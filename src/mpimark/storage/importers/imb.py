"""IMB's text output (any IMB version, and mpimark-core's own) as result records.

The layout is reference/imb.md §4: a header of `# Key : value` lines, then
per table `# Benchmarking [Multi-]<Name>`, `# #processes = N` or
`# ( G groups of N processes ... )`, an optional `MODE:` line (EXT, IO,
RMA), a column header (`#bytes #repetitions t[usec] Mbytes/sec` and the
other column sets) and one row per size (per group with -multi 1). Rows IMB
could not measure say so in words (time-out, out-of-mem, int-overflow).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from mpimark.records.benchmarks import BenchmarkClass
from mpimark.storage import compact
from mpimark.storage.importers import imb_rows
from mpimark.storage.importers.common import (asctime_start, benchmark_name, DATATYPE_BYTES, datatype_for, fail,
                                              number, Parsed, result_record)

# Benchmarks of IMB versions the core does not have, so no facts of the core
# describe them: IMB 2019's Ireduce_scatter_block (IMB-NBC). Per name its
# class (recorded in the rows, as the OSU importer does, for figures.record_class)
# and whether it reduces (the datatype its rows move). Any other name the core
# lacks is refused with its line.
IMB_ONLY = {"Ireduce_scatter_block": (BenchmarkClass.COLLECTIVE, True)}

# IMB up to 3.x printed Mbytes/sec with MB = 2^20 bytes; later versions and
# the record format use 10^6 (reference/imb.md §3.4).
OLD_MEGA = 1048576 / 1e6

# Column header token -> (record field, whole number?). "t[usec]" is t_max:
# the PingPong family prints t_max alone (reference/imb.md §3.4).
COLUMNS = {
    "Group": ("group", True), "#bytes": ("bytes", True), "#repetitions": ("repetitions", True),
    "t_min[usec]": ("t_min_usec", False), "t_max[usec]": ("t_max_usec", False),
    "t_avg[usec]": ("t_avg_usec", False), "t[usec]": ("t_max_usec", False),
    "Mbytes/sec": ("mbytes_per_sec", False), "Msg/sec": ("msgs_per_sec", False),
    # -DCHECK builds; IMB prints the count as a float ("0.00"), the core as an integer.
    "defects": ("defects", False),
    # IMB-NBC and IO overlap tables, kept under their own names.
    "t_ovrl[usec]": ("t_ovrl_usec", False), "t_pure[usec]": ("t_pure_usec", False),
    "t_CPU[usec]": ("t_cpu_usec", False), "overlap[%]": ("overlap_percent", False),
}
# Header lines kept as the run's source facts (the size range and the like are in the rows).
FACTS = ("Date", "Machine", "System", "Release", "Version", "MPI Version", "MPI Thread Environment",
         "MPI_Datatype", "MPI_Datatype for reductions", "MPI_Op")
FAILURES = {"time-out": "timeout", "out-of-mem": "out_of_memory", "int-overflow": "int_overflow"}

TOOL = re.compile(r"^#\s+(.*(?:MPI Benchmark|mpimark-core).*?),\s*(\S+) part\s*$")
HEADER_FIELD = re.compile(r"^#\s*([A-Za-z][A-Za-z _-]*?)\s*:\s*(.*?)\s*$")
# IMB-P2P's stencils name their grid: "# Benchmarking Stencil2D (2 x 2)".
BENCHMARKING = re.compile(r"^#\s*Benchmarking\s+(Multi-)?(\S+)(?:\s+\(([\d x]+)\))?\s*$")
# IMB-MT: "# #processes = 2 (threads: 2)".
PROCESSES = re.compile(r"^#\s*#processes\s*=\s*(\d+)(?:\s*\(threads:\s*(\d+)\))?")
WINDOW = re.compile(r"^#\s*window_size\s*=\s*(\d+)")
GROUPS = re.compile(r"^#\s*\(\s*(\d+)\s+groups? of (\d+) process")
# The ranks of the job that sit out a table: "# ( 2 additional processes waiting in MPI_Barrier)".
WAITING = re.compile(r"^#\s*\(\s*(\d+)\s+additional process(?:es)? waiting")
# Lines the MPI library or launcher printed into the log start with a rank or host in brackets (Intel MPI's
# I_MPI_DEBUG "[0] MPI startup(): ...", Open MPI's "[host:pid] ..."); no line of IMB's starts with "[".
# They are skipped; Intel MPI's first one names the library.
INTEL_LIBRARY = re.compile(r"^\[\d+\]\s+MPI startup\(\):\s+(Intel\(R\) MPI Library.*?)\s*$")
MODE = re.compile(r"^#\s*MODE:\s*(\S+)")
VERSION = re.compile(r"(?:Benchmarks?|Suite)\s+V?(\d+)")
NUMERIC = re.compile(r"[-+.\deE]+")
NEEDED = re.compile(r"needed X=\s*([\d.]+)\s*GB")


def _unit(text: str) -> str:
    # Old IMB versions wrote the micro sign.
    return text.replace("\u03bc", "u").replace("\u00b5", "u")


@dataclass
class _Table:
    name: str
    multi_prefix: bool
    line: int
    processes: int | None = None
    groups: int = 1
    mode: str | None = None
    waiting: int = 0  # ranks of the job that sat out this table in MPI_Barrier
    columns: list[str] | None = None
    datatype: str | None = None  # of its rows, once the first row is read
    extra: dict = field(default_factory=dict)  # fields every row of the table carries (grid, threads, ...)


def _suite(part: str | None) -> str:
    # "MPI-1" -> "mpi1" (the core's suite name), "EXT" -> "ext", "IMB-P2P" -> "p2p", "MT" -> "mt", ...
    return re.sub(r"^imb|[^a-z0-9]", "", part.lower()) if part else "mpi1"


def _header_facts(lines: Iterable[str]) -> tuple[dict, list[str], str | None]:
    """The header block (before the first table): facts, the calling sequence, the suite part."""
    facts: dict[str, str] = {}
    command: list[str] = []
    part = None
    calling = 0  # lines still to look at for the calling sequence, which follows its title
    for raw in lines:
        line = raw.rstrip()
        if BENCHMARKING.match(line):
            break
        if calling:
            calling -= 1
            if line.strip() not in ("", "#"):
                calling = 0
                if line.strip().startswith("#"):
                    command = line.strip().lstrip("#").split()
            continue
        if library := INTEL_LIBRARY.match(line):
            facts.setdefault("library", library.group(1))
            continue
        tool = TOOL.match(line)
        if tool:
            facts["tool"], part = tool.group(1).strip(), tool.group(2)
            continue
        if line.startswith("# Calling sequence was"):
            calling = 3
            continue
        field_ = HEADER_FIELD.match(line)
        if field_ and field_.group(1).strip() in FACTS:
            facts[field_.group(1).strip()] = field_.group(2)
    return facts, command, part


def _mega_factor(facts: dict, notes: list[str]) -> float:
    tool = facts.get("tool", "")
    version = VERSION.search(tool)
    if "mpimark-core" in tool or (version and int(version.group(1)) >= 4):
        return 1.0
    if version:
        notes.append(f"{tool} printed Mbytes/sec with MB = 2^20 bytes; converted to 10^6 bytes")
        return OLD_MEGA
    notes.append("no IMB version in the file: Mbytes/sec taken as 10^6 bytes/s (IMB 4 and later)")
    return 1.0


def _multi_run(command: list[str]) -> int | None:
    # -multi 0 without a Group column looks like a plain run in tables of one group.
    for index, word in enumerate(command[:-1]):
        if word == "-multi" and command[index + 1] in ("0", "1"):
            return int(command[index + 1])
    return None


def _failure(words: list[str], line: str) -> str | None:
    # The words first looked for in the line: most rows are numbers only, and a regex per word is slow.
    status = next((status for text, status in FAILURES.items() if text in line), None)
    return status if status and any(not NUMERIC.fullmatch(w) for w in words) else None


FINALIZE = "# All processes entering MPI_Finalize"  # IMB's last line, also in mpimark's IMB text of an ended run


@dataclass
class _Context:
    """What the header says about every row."""

    suite: str
    data_type: str
    red_type: str
    mega: float
    multi_run: int | None


@dataclass
class _Tally:
    """What the rows showed, counted as they go by."""

    results: int = 0
    skipped: int = 0  # rows IMB could not measure
    max_processes: int = 0
    tables: int = 0
    headers: int = 0  # IMB's title lines ("# Intel(R) MPI Benchmarks ..., MPI-1 part")
    closings: int = 0  # FINALIZE lines
    library_lines: int = 0  # the MPI library's and launcher's lines ("[0] MPI startup(): ...")


def parse(path: Path, lines: Callable[[], Iterable[str]], check: bool = True) -> Parsed:
    """The header read, and with check every row read and checked once, keeping only counts; the Parsed reads
    the rows (again) when stored.

    lines() gives the file's lines from the start on every call. Each read of the rows to their end (rows(),
    or stored(), which gives a plain row's compact split, imb_rows) sets the counts (count, max_processes,
    incomplete, notes, warnings) and raises ImportFormatError at the first bad line: without check, the
    import stores and checks the rows in one read (`mpimark import`; a file found bad stores nothing).
    """
    facts, command, part = _header_facts(lines())
    notes: list[str] = []  # what the header made the importer assume; then the rows' (_counted)
    suite = _suite(part)
    data_type = (facts.get("MPI_Datatype") or "MPI_BYTE").split()[0]
    red_type = (facts.get("MPI_Datatype for reductions") or "MPI_FLOAT").split()[0]
    if suite == "mt":  # IMB-MT moves -datatype (int, or char) in every benchmark and prints no datatype line
        data_type = red_type = "MPI_CHAR" if _option(command, "-datatype") == "char" else "MPI_INT"
    context = _Context(suite=suite, mega=_mega_factor(facts, notes), multi_run=_multi_run(command),
                       data_type=data_type, red_type=red_type)
    date_notes: list[str] = []
    parsed = Parsed(path, "imb", lambda: _rows(path, lines(), context, finish), 0, 0,
                    {k: v for k, v in facts.items() if v}, command, run_columns=_run_columns(facts, date_notes),
                    stored=lambda: _rows(path, lines(), context, finish, split=True))

    def finish(tally: _Tally) -> None:
        _counted(parsed, tally, [*notes, *_library_note(tally), *date_notes], suite)

    if check:
        for _ in parsed.stored():
            pass
    return parsed


def _library_note(tally: _Tally) -> list[str]:
    return [f"{tally.library_lines} line(s) of the MPI library or launcher ('[...] ...') skipped"] \
        if tally.library_lines else []


def _counted(parsed: Parsed, tally: _Tally, notes: list[str], suite: str) -> None:
    """What a read of every row tells, set on parsed; ImportFormatError for a file of no table."""
    if not tally.tables:
        raise fail(parsed.path, None, "no IMB table in the file (no '# Benchmarking' line)")
    warnings = []
    runs = max(tally.headers, tally.closings)
    if runs > 1:  # cat run1.txt run2.txt > all.txt
        warnings.append(f"the file looks like {runs} runs one after another ({tally.headers} IMB headers, "
                        f"{tally.closings} '{FINALIZE}' lines), stored as one run; split the file to keep them "
                        "apart")
    parsed.count, parsed.max_processes = tally.results, tally.max_processes
    parsed.notes, parsed.warnings = [*notes, *warnings], warnings
    parsed.incomplete = _incomplete(tally, suite)


def _run_columns(facts: dict, notes: list[str]) -> dict:
    """What the header says of the run as a whole: its start (the Date line), the MPI library (Intel MPI's
    debug line) and the MPI standard the library implements (the MPI Version line)."""
    columns = {"mpi_library_version": facts.get("library"), "mpi_standard_version": facts.get("MPI Version")}
    if facts.get("Date"):
        columns["started_utc"] = asctime_start(facts["Date"])
        if columns["started_utc"] is None:
            notes.append(f"the Date line {facts['Date']!r} is not a date: the run's start is the import time")
    return {name: value for name, value in columns.items() if value}


def _rows(path: Path, lines: Iterable[str], context: _Context, finish: Callable[[_Tally], None], *,
          split: bool = False) -> Iterator[dict | imb_rows.Split]:
    """The result records of the file's lines, one at a time; ImportFormatError on a bad line. At the end,
    finish(the counts).

    split: a table's plain rows after its first come as their compact split (imb_rows), for the store."""
    tally = _Tally()
    table: _Table | None = None
    read_plain = None  # the current table's imb_rows reader, while nothing but its rows came
    signature = None  # the current table's _signature, until a '#' line may change the table
    # imb_rows readers (None: none could be made) by _signature and whether of measured rows: a log holds the
    # same few tables again and again, and a table of two rows would cost more to make its reader for than its rows.
    readers: dict[tuple[tuple, bool], Callable[[str], imb_rows.Split | None] | None] = {}
    for number_, raw in enumerate(lines, start=1):
        if read_plain is not None:
            if (columns := read_plain(raw)) is not None:
                tally.results += 1
                yield columns
                continue
        read_plain = None  # a table's rows end at any other line
        text = raw.strip()
        if not text or text.startswith("#-"):  # IMB's rules "#---"
            continue
        if "\u03bc" in text or "\u00b5" in text:
            text = _unit(text)
        if text[0] == "[":  # the library's or launcher's line (INTEL_LIBRARY)
            tally.library_lines += 1
            continue
        comment = text[0] == "#"
        if comment:
            signature = None
        if comment and not text.startswith(("#bytes", "#repetitions")):  # not a column header
            key = text[1:].lstrip()[:1]  # what follows '#' (as \s* skips it): each pattern below needs its own
            if key == "B" and (match := _groups(BENCHMARKING, text)):
                table = _Table(match[1], bool(match[0]), number_)
                if match[2]:
                    table.extra["grid"] = match[2]
                tally.tables += 1
            elif table is not None and key == "#" and (match := _groups(PROCESSES, text)):
                table.processes = int(match[0])
                if match[1]:
                    table.extra["threads"] = int(match[1])
            elif table is not None and key == "w" and (match := _groups(WINDOW, text)):
                table.extra["window_size"] = int(match[0])
            elif table is not None and key == "(" and (match := _groups(GROUPS, text)):
                table.groups, table.processes = int(match[0]), int(match[1])
            elif table is not None and key == "(" and (match := _groups(WAITING, text)):
                table.waiting = number(match[0], path, number_, "additional processes waiting", integer=True)
            elif table is not None and key == "M" and (match := _groups(MODE, text)):
                table.mode = match[0].lower()
            elif text == FINALIZE:
                tally.closings += 1
            elif raw[0] == "#" and ("MPI Benchmark" in text or "mpimark-core" in text) and TOOL.match(text):
                tally.headers += 1  # the title, at the line's start
            continue  # every other '#' line is a comment
        words = text.split()
        header = all(map(COLUMNS.__contains__, words))
        if comment and not header:
            continue
        if header:  # a column header ("#bytes ...", "Group #bytes ...")
            if table is None:
                raise fail(path, number_, "column header before any '# Benchmarking' line")
            if table.processes is None:
                raise fail(path, number_, f"table {table.name!r} (line {table.line}) has no "
                                          "'# #processes = N' or '( G groups of N processes )' line")
            table.columns, signature = words, None
            continue
        if table is None:
            raise fail(path, number_, "data row before any '# Benchmarking' table header")
        if table.columns is None:
            raise fail(path, number_, f"data row before the column header of table {table.name!r} "
                                      f"(line {table.line}): missing '#bytes #repetitions ...' line")
        if signature is None:
            signature = _signature(table) if split else ()
        if (reader := readers.get((signature, True))) is not None and (columns := reader(raw)) is not None:
            read_plain = reader
            tally.results += 1
            yield columns
            continue
        if (reader := readers.get((signature, False))) is not None and (columns := reader(raw)) is not None:
            tally.results += 1
            tally.skipped += 1
            yield columns
            continue
        record = _row(path, number_, words, text, table, context)
        tally.results += 1
        tally.skipped += record["status"] != "ok"
        # The job's size: the table's ranks (every group's) and those that waited.
        tally.max_processes = max(tally.max_processes,
                                  record["processes"] * record["groups"] + record.get("waiting", 0))
        if split:
            measured = record["status"] == "ok"
            if (signature, measured) not in readers:
                if len(readers) >= 10000:  # ever new tables: memory stays bounded
                    readers.clear()
                readers[signature, measured] = (imb_rows.row_reader if measured else imb_rows.failure_reader)(
                    table.columns, COLUMNS, compact.split(record), raw, p2p=context.suite == "p2p",
                    mega=context.mega, element_bytes=DATATYPE_BYTES.get(record["datatype"], 1))
            if measured:
                read_plain = readers[signature, measured]
        yield record
    finish(tally)


def _groups(pattern: re.Pattern, text: str) -> tuple | None:
    """pattern.match(text)'s groups, or None: a log repeats its tables' lines, each is matched once (a long
    line, which no table's header has, each time: the cache holds short lines only)."""
    return _short_line_groups(pattern, text) if len(text) <= 200 else _match_groups(pattern, text)


def _match_groups(pattern: re.Pattern, text: str) -> tuple | None:
    match = pattern.match(text)
    return match.groups() if match else None


_short_line_groups = functools.lru_cache(maxsize=1024)(_match_groups)


def _signature(table: _Table) -> tuple:
    """What _row takes of a table (with the file's _Context): tables alike give their rows' records alike but
    for the numbers. Taken before the table's first row, as _datatype adds to extra then."""
    return (table.name, table.multi_prefix, table.processes, table.groups, table.mode, table.waiting,
            tuple(table.columns or ()), tuple(table.extra.items()))


def _option(command: list[str], name: str) -> str | None:
    return next((command[i + 1] for i in range(len(command) - 1) if command[i] == name), None)


def _incomplete(tally: _Tally, suite: str) -> str | None:
    """Why the output is not a whole run: no closing line (cut off, or the run died), or rows IMB skipped.

    IMB-MT prints no closing line."""
    if suite != "mt" and not tally.closings:
        return f"the file ends before IMB's closing line '{FINALIZE}': cut off, or the run died"
    if tally.skipped:
        return f"{tally.skipped} row(s) were not measured (time-out, out-of-mem, ...)"
    return None


def _datatype(path: Path, line: int, table: _Table, context: _Context) -> str:
    """The datatype of the table's rows (and its class for IMB-only benchmarks), worked out once per table."""
    if table.datatype is None:
        if table.name in IMB_ONLY:
            cls, reduces = IMB_ONLY[table.name]
            table.extra["benchmark_class"] = cls.value
            table.datatype = context.red_type if reduces else context.data_type
        else:
            table.datatype = datatype_for(benchmark_name(path, table.line, table.name, context.suite),
                                          context.data_type, context.red_type, context.suite)
    return table.datatype


def _row(path: Path, line: int, words: list[str], text: str, table: _Table, context: _Context) -> dict:
    columns = table.columns or []
    status = _failure(words, text)
    values: dict[str, float | int] = {}
    if status:
        # "<Group> <#bytes> time-out.; ..." : only the leading keys are numbers.
        keys = [c for c in columns if c in ("Group", "#bytes")]
        for column, word in zip(keys, words):
            values[COLUMNS[column][0]] = number(word, path, line, column, integer=True)
        needed = NEEDED.search(text)
        values["needed_gb"] = float(needed.group(1)) if needed else None
    else:
        if len(words) < len(columns):
            raise fail(path, line, f"truncated row: {len(words)} fields, the header has {len(columns)} "
                                   f"({' '.join(columns)})")
        if len(words) > len(columns):
            raise fail(path, line, f"{len(words)} fields, the header has {len(columns)} ({' '.join(columns)})")
        for column, word in zip(columns, words):
            name, integer = COLUMNS[column]
            values[name] = number(word, path, line, column, integer=integer)
        if values.get("defects") is not None:
            values["defects"] = int(values["defects"])
    datatype = _datatype(path, line, table, context)
    multi = 1 if "Group" in columns else (0 if table.multi_prefix else context.multi_run)
    extra = {name: values[name] for name in ("t_ovrl_usec", "t_pure_usec", "t_cpu_usec", "overlap_percent")
             if name in values}
    if "overlap_percent" in extra and context.suite in ("nbc", "mpinbc", "mpi4"):
        # IMB-NBC's and IMB-MPI4's column divides by max(t_pure, t_CPU) (IMB-IO's by min, the guide's figure).
        extra["overlap_percent_max_denominator"] = extra.pop("overlap_percent")
    if table.mode:
        extra["mode"] = table.mode
    if table.waiting and multi is None:
        # Another measurement than the same table of a job of only its ranks (figures.mode); multi-mode rows
        # are not marked, as selection.marked_waiting leaves a run's own multi-mode rows.
        extra["waiting"] = table.waiting
    extra.update(table.extra)
    if context.suite == "p2p":  # IMB-P2P's t[usec] is the latency averaged over the processes, not a t_max
        values["t_avg_usec"] = values.pop("t_max_usec", None)
    bandwidth = values.get("mbytes_per_sec")
    return result_record(
        benchmark=table.name, suite=context.suite, processes=table.processes or 1, size=int(values.get("bytes", 0)),
        datatype=datatype, status=status or "ok",
        repetitions=values.get("repetitions"), t_min_usec=values.get("t_min_usec"),
        t_max_usec=values.get("t_max_usec"), t_avg_usec=values.get("t_avg_usec"),
        mbytes_per_sec=None if bandwidth is None else bandwidth * context.mega,
        msgs_per_sec=values.get("msgs_per_sec"), defects=values.get("defects"), multi=multi,
        groups=table.groups, group=values.get("group") if multi == 1 else None,
        needed_gb=values.get("needed_gb"), extra=extra,
    )
