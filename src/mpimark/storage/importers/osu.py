"""OSU Micro-Benchmarks output as result records (reference/peers.md §1.6).

Each test prints `# OSU MPI <Title> Test vX.Y`, optional `# Datatype:` and
`# [ pairs: P ] ...` lines, a `# Size  <column>  <column> ...` header whose
column names are separated by two or more spaces, then one row per size.
Several tests may follow one another in one file.

The benchmark is named after OSU's program (osu_latency, osu_bw,
osu_allreduce, ...), not IMB's benchmark: OSU's definitions differ (a
windowed bandwidth, one rank's latency), so compare must never pair an OSU
row with an IMB one. OSU does not print the process count of a collective
test: the caller passes it (--np).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from mpimark.records.benchmarks import BenchmarkClass
from mpimark.storage.importers.common import fail, number, Parsed, result_record, slug

TITLE = re.compile(r"^#\s*OSU\s+(?:MPI\S*\s+|OpenSHMEM\s+|UPC\S*\s+)?(.*?)\s+Test(?:\s+v?(\S+))?\s*$", re.I)
DATATYPE = re.compile(r"^#\s*Datatype:\s*(\S+?)\.?\s*$")
PAIRS = re.compile(r"^#\s*\[\s*pairs:\s*(\d+)\s*\]")
# "# Size  Avg Latency(us) ..."; osu_barrier has no size column: "# Avg Latency(us)".
HEADER = re.compile(r"^#\s*((?:Size|Avg Latency)\b.*)$")

# Title (as printed, lower case) -> program, for the tests whose title is not "<Collective> Latency".
PROGRAMS = {
    "latency": "osu_latency", "bandwidth": "osu_bw", "bi-directional bandwidth": "osu_bibw",
    "multiple bandwidth / message rate": "osu_mbw_mr", "multi latency": "osu_multi_lat",
    "multi-threaded latency": "osu_latency_mt", "latency multi-threaded": "osu_latency_mt",
    "multi-process latency": "osu_latency_mp", "broadcast latency": "osu_bcast",
    "barrier latency": "osu_barrier", "all-to-all personalized exchange latency": "osu_alltoall",
    "all-to-allv personalized exchange latency": "osu_alltoallv",
    "all-to-allw personalized exchange latency": "osu_alltoallw",
}
# Point-to-point tests that always run on two processes.
TWO_PROCESSES = {"osu_latency", "osu_bw", "osu_bibw", "osu_latency_mt", "osu_latency_mp"}
# The class of OSU's point-to-point programs, recorded in the rows (figures.record_class):
# a ping-pong latency is a single transfer, the windowed bandwidths are message-rate tests.
# Every other program is a collective (osu_barrier: synchronisation).
CLASSES = {
    "osu_latency": BenchmarkClass.SINGLE, "osu_latency_mt": BenchmarkClass.SINGLE,
    "osu_latency_mp": BenchmarkClass.SINGLE, "osu_multi_lat": BenchmarkClass.SINGLE,
    "osu_bw": BenchmarkClass.MSGRATE, "osu_bibw": BenchmarkClass.MSGRATE, "osu_mbw_mr": BenchmarkClass.MSGRATE,
    "osu_barrier": BenchmarkClass.SYNC, "osu_ibarrier": BenchmarkClass.SYNC,
}
# OSU's reductions default to MPI_FLOAT in versions that print no Datatype line (5.x).
REDUCTIONS = {"osu_allreduce", "osu_reduce", "osu_reduce_scatter", "osu_iallreduce", "osu_ireduce",
              "osu_ireduce_scatter"}

# Column name with spaces removed -> record field. Anything else numeric is kept under slug(name).
FIELDS = {
    "Latency(us)": "t_avg_usec", "AvgLatency(us)": "t_avg_usec", "MinLatency(us)": "t_min_usec",
    "MaxLatency(us)": "t_max_usec", "Iterations": "repetitions", "Bandwidth(MB/s)": "mbytes_per_sec",
    "MB/s": "mbytes_per_sec", "Messages/s": "msgs_per_sec", "PureComm.(us)": "t_avg_usec",
    "MinComm.(us)": "t_min_usec", "MaxComm.(us)": "t_max_usec",
}
TEXT_COLUMNS = {"Validation"}  # Pass / Fail


def program(title: str) -> str:
    name = title.lower()
    if name in PROGRAMS:
        return PROGRAMS[name]
    prefix = "osu_"
    if name.startswith("non-blocking "):
        name, prefix = name[len("non-blocking "):], "osu_i"
    name = PROGRAMS.get(name, name).removeprefix("osu_")
    return prefix + slug(name.removesuffix(" latency"))


class _Test:
    def __init__(self, title: str, version: str | None, line: int) -> None:
        self.title, self.version, self.line = title, version, line
        self.program = program(title)
        self.datatype: str | None = None
        self.pairs: int | None = None
        self.columns: list[str] | None = None

    def processes(self, path: Path, default: int | None) -> int:
        if self.program in TWO_PROCESSES:
            return 2
        if self.pairs is not None:
            return 2 * self.pairs
        if default is None:
            raise fail(path, self.line, f"the OSU output does not say how many processes ran "
                                        f"'{self.title}'; give the count with --np N")
        return default


@dataclass
class _Tally:
    """What the rows showed, counted as they go by."""

    results: int = 0
    max_processes: int = 0
    tests: list[_Test] = field(default_factory=list)


def parse(path: Path, lines: Callable[[], Iterable[str]], processes: int | None = None) -> Parsed:
    """Read and check the whole file once, keeping only counts; the Parsed reads the rows again when stored.

    lines() gives the file's lines from the start on every call (importers/imb.py does the same)."""
    tally = _Tally()
    for _ in _rows(path, lines(), processes, tally):
        pass
    if not tally.tests:
        raise fail(path, None, "no OSU test in the file (no '# OSU ... Test' line)")
    source = {"tests": "; ".join(f"{t.title} v{t.version}" if t.version else t.title for t in tally.tests)}
    warnings = []
    titles = [t.title for t in tally.tests]
    repeated = sorted({t for t in titles if titles.count(t) > 1})
    if repeated:  # cat run1.txt run2.txt > all.txt: one program's rows twice
        warnings.append(f"the file looks like several runs one after another ({', '.join(repeated)} "
                        f"{'appears' if len(repeated) == 1 else 'appear'} more than once), stored as one run; "
                        "split the file to keep them apart")
    return Parsed(path, "osu", lambda: _rows(path, lines(), processes, _Tally()), tally.results,
                  tally.max_processes, source, notes=warnings, warnings=warnings)


def _rows(path: Path, lines: Iterable[str], processes: int | None, tally: _Tally) -> Iterator[dict]:
    """The result records of the file's lines, one at a time, counted in tally; ImportFormatError on a bad line."""
    test: _Test | None = None
    for line_number, raw in enumerate(lines, start=1):
        text = raw.strip()
        if not text:
            continue
        if text.startswith("#"):
            if match := TITLE.match(text):
                test = _Test(match.group(1), match.group(2), line_number)
                tally.tests.append(test)
            elif test is not None and (match := DATATYPE.match(text)):
                test.datatype = match.group(1)
            elif test is not None and (match := PAIRS.match(text)):
                test.pairs = int(match.group(1))
            elif match := HEADER.match(text):
                if test is None:
                    raise fail(path, line_number, "column header before any '# OSU ... Test' title line")
                test.columns = re.split(r"\s{2,}", match.group(1).strip())
            continue
        if test is None or test.columns is None:
            raise fail(path, line_number, "data row before any '# Size ...' column header")
        record = _row(path, line_number, text, test, processes)
        tally.results += 1
        tally.max_processes = max(tally.max_processes, record["processes"])
        yield record


def _row(path: Path, line: int, text: str, test: _Test, processes: int | None) -> dict:
    columns = test.columns or []
    words = text.split()
    if len(words) < len(columns):  # column names may hold spaces, values never do
        raise fail(path, line, f"truncated row: {len(words)} fields, the header has {len(columns)} "
                               f"({', '.join(columns)})")
    if len(words) > len(columns):
        raise fail(path, line, f"{len(words)} fields, the header has {len(columns)} ({', '.join(columns)})")
    sized = columns[0].startswith("Size")
    size = number(words[0], path, line, columns[0], integer=True) if sized else 0
    fields: dict = {}
    extra: dict = {"benchmark_class": CLASSES.get(test.program, BenchmarkClass.COLLECTIVE).value}
    for column, word in zip(columns[1:] if sized else columns, words[1:] if sized else words):
        if column in TEXT_COLUMNS:
            extra[slug(column)] = word
            continue
        name = FIELDS.get(column.replace(" ", ""))
        value = number(word, path, line, column, integer=name == "repetitions")
        if name:
            fields[name] = value
        else:
            extra[slug(column)] = value
    default_type = "MPI_FLOAT" if test.program in REDUCTIONS else "MPI_CHAR"
    datatype = "none" if not sized else test.datatype or default_type
    return result_record(benchmark=test.program, suite="osu", processes=test.processes(path, processes),
                         size=size, datatype=datatype, extra=extra, **fields)
