"""OSU Micro-Benchmarks output (C programs and OMB-Py) as result records (reference/peers.md §1.6, docs/osu.md).

Each test prints a title, `# OSU MPI Latency Test v7.4` (OMB-Py: `# OMB
Python MPI Latency Test`, `# OMB-Py MPI Bandwidth Test`), lines that say
how it ran (`# Datatype: MPI_INT.`, `# [ pairs: P ] [ window size: W ]`,
the one-sided tests' `# Window creation:` and `# Synchronization:`), a
column header (`# Size  <column>  <column> ...`, names two or more spaces
apart; the barriers have no Size column), then one row per size; `-T all`
repeats Datatype line, header and rows per datatype. osu_mbw_mr -V prints a
bandwidth and a message-rate table with a column per window: one record per
size and window (`window_size`, `window_varied`), held until both tables are
read. Several tests may
follow one another in one file, and a job's log may hold other lines
(the launcher's messages): those are skipped and said in the run's notes.

The program is known by its title, from the OSU facts (the core's osu suite,
or without a core its snapshot records/peers/osu.json, through
records.benchmarks): a title the facts do not have is refused,
never guessed. Rows are named after OSU's program (osu_latency,
osu_put_latency, ombpy_latency, ...), never IMB's benchmark: the
definitions differ, so compare never pairs an OSU row with an IMB one,
nor OMB-Py's (whole-loop timing) with OSU's C. Every column is kept under
its own field (records/osu_columns.py); `Validation: Fail` counts as a
defect, and OSU's `DATA VALIDATION ERROR` stop makes the run incomplete.

osu_init's line (`nprocs: N, min: X ms, max: Y ms, avg: Z ms`) is one row
of osu_init. osu_hello measures nothing (it is timed from outside, `time
mpiexec osu_hello`): its test stores no row, and a file holding nothing
else is refused with that reason. OSU does not print the process count of a
collective test: the caller passes it (--np).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from mpimark.records import osu_columns
from mpimark.records.benchmarks import Benchmark, BenchmarkClass, core_catalog
from mpimark.storage.importers.common import fail, number, Parsed, result_record, slug

SUITES = ("osu", "omb-py")  # the facts' suites of OSU's C programs and of OMB-Py
TITLE = re.compile(r"^#\s*((?:OSU|OMB)\b.*?\bTest)(?:\s+v(\S+))?\s*$", re.I)
# The accelerator word OSU puts after "MPI" in a device run's title: "OSU MPI-CUDA Latency Test".
ACCELERATOR = re.compile(r"^(OSU MPI)-(CUDA MANAGED|CUDA|OPENACC|ROCM|MANAGED)\b", re.I)
DATATYPE = re.compile(r"^#\s*Datatype:\s*(\S+?)\.?\s*$")
PAIRS = re.compile(r"^#\s*\[\s*pairs:\s*(\d+)\s*\](?:\s*\[\s*window size:\s*(\d+|varied)\s*\])?")
# osu_mbw_mr -V (window size: varied): a table per figure, a column per window (osu_mbw_mr.c).
MATRIX = {"uni-directional bandwidth (mb/sec)": "mbytes_per_sec", "message rate profile": "msgs_per_sec"}
WINDOWS = re.compile(r"^#(\s+\d+)+\s*$")
SETTINGS = {label.lower(): name for label, name in osu_columns.SETTINGS.items()}  # lines of how a test ran
SETTING = re.compile(r"^#\s*([A-Za-z ]+?):\s*(.*?)\s*$")
INIT = re.compile(r"^nprocs:\s*(\d+),\s*min:\s*(\d+)\s*ms,\s*max:\s*(\d+)\s*ms,\s*avg:\s*(\d+)\s*ms$")
HELLO = re.compile(r"^This is a test with (\d+) processes?$")
VALIDATION_STOP = re.compile(r"^DATA VALIDATION ERROR:")
ROW = re.compile(r"^\d")  # a data row starts with its size (or, without a Size column, its first figure)


def programs() -> dict[str, Benchmark]:
    """OSU's and OMB-Py's programs by title as printed, lower case, without `# ` and version."""
    facts = core_catalog()
    return {dict(b.facts)["header"].lower(): b for name in SUITES
            for b in (facts.suite(name).benchmarks.values() if facts.suite(name) else ())}


class _Test:
    def __init__(self, bench: Benchmark, title: str, version: str | None, accelerator: str | None,
                 line: int) -> None:
        self.bench, self.title, self.version, self.accelerator, self.line = bench, title, version, accelerator, line
        self.facts = dict(bench.facts)
        self.datatype: str | None = None
        self.pairs: int | None = None
        self.settings: dict[str, str | int] = {}
        self.columns: list[tuple[str, osu_columns.Column | None]] | None = None  # (header, column) after the size
        self.sized = False
        # osu_mbw_mr -V: the table being read (its field), its windows, and the rows by (size, window) until
        # the test ends (the message rates come in a second table)
        self.matrix: str | None = None
        self.windows: list[int] = []
        self.held: dict[tuple[int, int], dict] = {}

    def processes(self, path: Path, default: int | None) -> int:
        if self.facts.get("fixed_processes"):
            return self.facts["fixed_processes"]
        if self.pairs is not None:
            return 2 * self.pairs
        if default is None:
            raise fail(path, self.line, f"the OSU output does not say how many processes ran "
                                        f"'{self.title}'; give the count with --np N")
        return default

    def datatype_of_rows(self) -> str:
        if not self.sized:
            return "none"
        if self.datatype:
            return self.datatype
        # OSU 5.x prints no Datatype line and reduces MPI_FLOATs; 7.x prints one, or none where the
        # program moves the facts' default (osu_get_acc_latency, OMB-Py).
        return "MPI_FLOAT" if self.bench.reduction and self.bench.suite == "osu" else self.bench.datatype


@dataclass
class _Tally:
    """What the file showed, counted as it goes by."""

    results: int = 0
    max_processes: int = 0
    tests: list[_Test] = field(default_factory=list)
    skipped: int = 0  # lines that are not OSU's output (the launcher's, a job script's)
    first_skipped: str | None = None
    hello: int | None = None  # the line of an osu_hello test
    stopped: str | None = None  # OSU's DATA VALIDATION ERROR line


def parse(path: Path, lines: Callable[[], Iterable[str]], processes: int | None = None) -> Parsed:
    """Read and check the whole file once, keeping only counts; the Parsed reads the rows again when stored.

    lines() gives the file's lines from the start on every call (importers/imb.py does the same)."""
    tally = _Tally()
    known = programs()
    for _ in _rows(path, lines(), processes, tally, known):
        pass
    if not tally.tests and tally.hello is None:
        raise fail(path, None, "no OSU test in the file (no '# OSU ... Test' or '# OMB ... Test' line)")
    if not tally.results and tally.hello is not None:
        raise fail(path, tally.hello, "osu_hello's output holds no measurement (its time is the launcher's, "
                                      "taken from outside: time mpiexec osu_hello); nothing to import")
    source = {"tests": "; ".join(f"{t.title} v{t.version}" if t.version else t.title for t in tally.tests)}
    version = next((t.version for t in tally.tests if t.version), None)
    if version:
        source["version"] = version
    notes = _notes(tally)
    incomplete = f"OSU stopped: {tally.stopped}" if tally.stopped else None
    return Parsed(path, "osu", lambda: _rows(path, lines(), processes, _Tally(), known), tally.results,
                  tally.max_processes, source, notes=notes, incomplete=incomplete, warnings=notes)


def _notes(tally: _Tally) -> list[str]:
    notes = []
    identities = [(t.title, tuple(t.settings.items())) for t in tally.tests]
    repeated = sorted({t for t, s in identities if identities.count((t, s)) > 1})
    if repeated:  # cat run1.txt run2.txt > all.txt: one program's rows twice
        notes.append(f"the file looks like several runs one after another ({', '.join(repeated)} "
                     f"{'appears' if len(repeated) == 1 else 'appear'} more than once), stored as one run; "
                     "split the file to keep them apart")
    if tally.hello is not None:
        notes.append(f"osu_hello's test (line {tally.hello}) holds no measurement: not stored")
    if tally.skipped:
        notes.append(f"{tally.skipped} line{'s' if tally.skipped > 1 else ''} not OSU's output skipped "
                     f"(first: {tally.first_skipped})")
    return notes


def _rows(path: Path, lines: Iterable[str], processes: int | None, tally: _Tally,
          known: dict[str, Benchmark]) -> Iterator[dict]:
    """The result records of the file's lines, one at a time, counted in tally; ImportFormatError on a bad line."""
    test: _Test | None = None
    before: dict = {}  # the settings osu_latency_mt and osu_latency_mp print before their title
    for line_number, raw in enumerate(lines, start=1):
        text = raw.strip()
        if not text:
            continue
        if test is not None and test.held and (TITLE.match(text) or not (text.startswith("#") or ROW.match(text))):
            yield from _counted(_release(test), tally)  # the -V test ended
        if text.startswith("#"):
            if match := TITLE.match(text):
                test = _title(path, line_number, match, known, tally)
                if test is not None:
                    test.settings, before = before, {}
            elif test is not None:
                _comment(text, test)
            elif (match := SETTING.match(text)) and match.group(1).lower() in SETTINGS:
                before[SETTINGS[match.group(1).lower()]] = _setting(match.group(2))
            continue
        if match := INIT.match(text):
            if test is None or test.bench.name != "osu_init":
                raise fail(path, line_number, "osu_init's line before its '# OSU MPI Init Test' title")
            record = _init_row(test, match)
        elif ROW.match(text) and test is not None and test.matrix:
            _matrix_row(path, line_number, text, test, processes)
            continue
        elif ROW.match(text) and (test is not None or not tally.tests):  # after a test's end: not OSU's
            if test is None or test.columns is None:
                raise fail(path, line_number, "data row before any '# Size ...' column header")
            record = _row(path, line_number, text, test, processes)
        else:
            if HELLO.match(text) and test is None and tally.hello is not None:
                continue  # osu_hello's line after its title
            if VALIDATION_STOP.match(text):  # OSU exits: what follows is the launcher's, or another run's
                tally.stopped = tally.stopped or f"{text} (line {line_number})"
            else:
                tally.skipped += 1
                tally.first_skipped = tally.first_skipped or f"line {line_number}: {text[:60]!r}"
            test = None  # the test's table ended
            continue
        yield from _counted([record], tally)
    if test is not None and test.held:
        yield from _counted(_release(test), tally)


def _counted(records: Iterable[dict], tally: _Tally) -> Iterator[dict]:
    """records, counted in tally as they go."""
    for record in records:
        tally.results += 1
        tally.max_processes = max(tally.max_processes, record["processes"])
        yield record


def _matrix_row(path: Path, line: int, text: str, test: _Test, processes: int | None) -> None:
    """A row of osu_mbw_mr -V's tables: a size, then the figure of each window; kept in test.held."""
    words = text.split()
    if not test.windows or len(words) != len(test.windows) + 1:
        raise fail(path, line, f"{len(words)} fields, the window header has {len(test.windows) + 1} "
                               "(Size and one per window)")
    size = number(words[0], path, line, "Size", integer=True)
    for window, word in zip(test.windows, words[1:]):
        held = test.held.get((size, window))
        if held is None:
            held = test.held[(size, window)] = result_record(
                benchmark=test.bench.name, suite=test.bench.suite, processes=test.processes(path, processes),
                size=size, datatype=test.datatype_of_rows(),
                extra={"benchmark_class": test.bench.cls.value, **test.settings, "window_size": window,
                       "window_varied": True})
        held[test.matrix] = number(word, path, line, f"window {window}")


def _release(test: _Test) -> list[dict]:
    """The -V test's rows, by size then window as OSU measured them."""
    rows = [test.held[key] for key in sorted(test.held)]
    test.held = {}
    return rows


def _title(path: Path, line: int, match: re.Match, known: dict[str, Benchmark], tally: _Tally) -> _Test | None:
    title = match.group(1)
    accelerator = None
    if device := ACCELERATOR.match(title):
        accelerator = device.group(2).upper()
        title = device.group(1) + title[device.end():]
    if title.lower() == "osu mpi hello world test":
        tally.hello = line
        return None
    bench = known.get(re.sub(r"\s+", " ", title).lower())
    if bench is None:
        raise fail(path, line, f"'{title}' is no OSU or OMB-Py program mpimark knows (its facts, "
                               "records/peers/osu.json, list OSU 7.4's MPI programs)")
    test = _Test(bench, title, match.group(2), accelerator, line)
    tally.tests.append(test)
    return test


def _comment(text: str, test: _Test) -> None:
    """A `#` line inside a test: how it ran, or its column header; anything else (OSU's formula line) is not data."""
    if match := DATATYPE.match(text):
        test.datatype = match.group(1)
    elif match := PAIRS.match(text):
        test.pairs = int(match.group(1))
        if match.group(2) == "varied":
            test.matrix, test.sized = "mbytes_per_sec", True
        elif match.group(2):
            test.settings["window_size"] = int(match.group(2))
    elif test.matrix and text[1:].strip().lower() in MATRIX:
        test.matrix = MATRIX[text[1:].strip().lower()]
    elif test.matrix and WINDOWS.match(text):
        test.windows = [int(word) for word in text[1:].split()]
    elif (match := SETTING.match(text)) and match.group(1).lower() in SETTINGS:
        test.settings[SETTINGS[match.group(1).lower()]] = _setting(match.group(2))
    else:
        names = osu_columns.split_header(text[1:])
        if names[0] in osu_columns.SIZE_HEADERS:
            test.sized, test.columns = True, [(n, osu_columns.column(n)) for n in names[1:]]
        elif osu_columns.column(names[0]) is not None:
            test.sized, test.columns = False, [(n, osu_columns.column(n)) for n in names]


def _setting(value: str) -> str | int:
    return int(value) if value.isdigit() else value


def _row(path: Path, line: int, text: str, test: _Test, processes: int | None) -> dict:
    columns = test.columns or []
    words = text.split()
    expected = len(columns) + test.sized
    # osu_multi_lat -z prints the tail columns' headers and no values (OSU 7.4 computes none for it):
    # they are kept as null, anything else missing is a truncated row.
    unfilled = columns[max(len(words) - test.sized, 0):]
    if len(words) < expected and not (len(words) > test.sized and all(
            column is not None and osu_columns.TAIL_FIELD.match(column.field) for _, column in unfilled)):
        raise fail(path, line, f"truncated row: {len(words)} fields, the header has {expected} "
                               f"({', '.join(_headers(test))})")
    if len(words) > expected:
        raise fail(path, line, f"{len(words)} fields, the header has {expected} ({', '.join(_headers(test))})")
    size = number(words[0], path, line, "Size", integer=True) if test.sized else 0
    fields: dict = {}
    extra: dict = {"benchmark_class": test.bench.cls.value, **test.settings,
                   **{column.field: None for _, column in unfilled if len(words) < expected}}
    if test.accelerator:
        extra["accelerator"] = test.accelerator
    for (header, column), word in zip(columns, words[1:] if test.sized else words):
        if column is not None and column.kind == "text":
            extra[column.field] = word
            continue
        value = number(word, path, line, header, integer=column is not None and column.kind == "int")
        name = column.field if column is not None else slug(header)
        (fields if name in _RECORD_FIELDS else extra)[name] = value
    if "validation" in extra:  # OSU checks each size and says Pass or Fail: a failed check is a defect
        fields["defects"] = 0 if extra["validation"] in osu_columns.VALIDATION_PASSED else 1
    return result_record(benchmark=test.bench.name, suite=test.bench.suite, processes=test.processes(path, processes),
                         size=size, datatype=test.datatype_of_rows(), extra=extra, **fields)


# The columns result_record takes as arguments; the others are the record's extra fields.
_RECORD_FIELDS = {"t_min_usec", "t_max_usec", "t_avg_usec", "mbytes_per_sec", "msgs_per_sec", "repetitions"}


def _headers(test: _Test) -> list[str]:
    return (["Size"] if test.sized else []) + [header for header, _ in test.columns or []]


def _init_row(test: _Test, match: re.Match) -> dict:
    """osu_init's one line: MPI_Init's time over the ranks, whole milliseconds, as microseconds."""
    nprocs, low, high, mean = (int(g) for g in match.groups())
    return result_record(benchmark=test.bench.name, suite=test.bench.suite, processes=nprocs, size=0,
                         datatype="none", t_min_usec=low * 1000.0, t_max_usec=high * 1000.0,
                         t_avg_usec=mean * 1000.0, extra={"benchmark_class": BenchmarkClass.SYNC.value})
