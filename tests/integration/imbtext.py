"""A strict reader of IMB text output (IMB-MPI1, and IMB-EXT, -RMA, -NBC,
-MPI4), written from IMB's layout rules (shared/reference/imb.md section 4,
notes/imb-facts.md sections 1-4, the user guide's IMB-EXT/RMA/NBC chapters),
not from the core's source.

parse(text) walks the output line by line and raises ParseError (with the
line number) at the first line that breaks a rule, so a successful parse
already proves the layout: the header block, the benchmark list, every
table's blank line, dash lines of '#' + (ncols*13 - 1) dashes, the title with
its trailing space, the process / group / rank-order lines, the idle line
(singular for one process), the one-sided suites' MODE block, the
nonblocking suites' CPU_Exploit block, the column titles right-aligned in
13 characters, rows of 13-character fields, IMB's failure rows, and the
closing "# All processes entering MPI_Finalize".

The module also holds IMB's rules that say what a run must contain: the
column set of each layout, the process-count sweep and the message sizes.
Which benchmarks a suite has, which are defaults, and each one's class,
layout, modes and bandwidth factor are the core's benchmark facts
(`mpimark-core -list -json`, docs/results-format.md), read once from the
built core; the tests keep no list of their own. SUITES (every suite) and
MPI-1's name sets (DEFAULTS, SINGLE, REDUCTIONS, BW_FACTOR, ...) are computed
from them on first use.
"""

from __future__ import annotations

import functools
import json
import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

W = 13  # every IMB column is 13 characters wide

# --- the core's benchmark facts -----------------------------------------------

ROOT = Path(__file__).resolve().parents[2]
CORE = ROOT / "build" / "core" / "mpimark-core"


@functools.cache
def core_facts() -> dict[str, dict]:
    """The facts of every suite, by suite name, from a singleton `mpimark-core -list -json`."""
    from .corerun import load_env  # corerun imports this module
    load_env()
    proc = subprocess.run([str(CORE), "-list", "-json"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, f"{CORE} -list -json failed ({proc.returncode}): {proc.stderr}"
    doc = json.loads(proc.stdout)
    assert doc["type"] == "benchmark_facts", doc
    return {suite["name"]: suite for suite in doc["suites"]}


# --- IMB's layout rules ------------------------------------------------------
#
# From the user guide (and docs/imb-compatibility.md where mpimark follows the
# guide rather than IMB's code). Each benchmark has one layout (IMB's
# out_format), named as in the core's facts:
#   t_bw         #bytes #repetitions t[usec] Mbytes/sec (single transfers, and
#                RMA's "multiple transfer" one-origin patterns on any count);
#                -multi 0 widens a single transfer's to range_bw
#   range_bw     #bytes #repetitions t_min t_max t_avg Mbytes/sec (parallel transfers)
#   range        #bytes #repetitions t_min t_max t_avg (collectives)
#   sync         #repetitions t_min t_max t_avg (no message size)
#   rate         #bytes #repetitions Mbytes/sec Msg/sec (Uniband, Biband)
#   overlap      #bytes #repetitions t_ovrl t_pure t_CPU overlap[%]
#   overlap_sync the same without #bytes (Ibarrier, Barrier_persist)
#   pure_ovrl    #bytes #repetitions t_pure t_ovrl (Truly_passive_put)

COLS_TIME_AND_BW = ["#bytes", "#repetitions", "t[usec]", "Mbytes/sec"]
COLS_TIME_RANGE_AND_BW = ["#bytes", "#repetitions", "t_min[usec]", "t_max[usec]", "t_avg[usec]", "Mbytes/sec"]
COLS_TIME_RANGE = ["#bytes", "#repetitions", "t_min[usec]", "t_max[usec]", "t_avg[usec]"]
COLS_SYNC = ["#repetitions", "t_min[usec]", "t_max[usec]", "t_avg[usec]"]
COLS_BW_AND_MSG_RATE = ["#bytes", "#repetitions", "Mbytes/sec", "Msg/sec"]

LAYOUT_COLUMNS = {
    "t_bw": COLS_TIME_AND_BW,
    "range_bw": COLS_TIME_RANGE_AND_BW,
    "range": COLS_TIME_RANGE,
    "sync": COLS_SYNC,
    "rate": COLS_BW_AND_MSG_RATE,
    "overlap": ["#bytes", "#repetitions", "t_ovrl[usec]", "t_pure[usec]", "t_CPU[usec]", "overlap[%]"],
    "overlap_sync": ["#repetitions", "t_ovrl[usec]", "t_pure[usec]", "t_CPU[usec]", "overlap[%]"],
    "pure_ovrl": ["#bytes", "#repetitions", "t_pure[usec]", "t_ovrl[usec]"],
    "p2p": ["#bytes", "#repetitions", "t[usec]", "Mbytes/sec", "Msg/sec"],  # IMB-P2P
    "avg_rate": ["#bytes", "#repetitions", "t_avg[usec]", "Mbytes/sec", "Msg/sec"],  # IMB-MT's windowed
}
OVERLAP_LAYOUTS = {"overlap", "overlap_sync"}


@dataclass(frozen=True)
class Bench:
    name: str
    layout: str                  # a LAYOUT_COLUMNS key
    cls: str = "collective"      # single, parallel, msgrate, collective, sync
    pair: bool = False           # runs on a fixed process count only (fixed_processes)
    fixed_processes: int | None = None
    even: bool = False           # even process counts only (Uniband, Biband)
    modes: bool = False          # one table per mode (aggregate, non-aggregate)
    reduction: bool = False      # moves -red_data_type: sizes in its unit
    rooted: bool = False
    single_element: bool = False  # one size: one element of -red_data_type
    no_size: bool = False        # no message size (sync layouts)
    data: bool = True            # moves data: -check adds a defects column
    default: bool = True
    bandwidth: bool = False      # has a bandwidth (Mbytes/sec column unless an overlap layout)
    bw_factor: float | None = None
    bw_rule: str | None = None   # fixed, targets (processes - 1), window (Uniband/Biband)

    @classmethod
    def from_facts(cls, f: dict) -> Bench:
        return cls(f["name"], f["layout"], cls=f["class"], pair=f["process_counts"] == "fixed",
                   fixed_processes=f["fixed_processes"], even=f["process_counts"] == "even_sweep",
                   modes=bool(f["modes"]), reduction=f["reduction"], rooted=f["rooted"],
                   single_element=f["sizes"] == "one_element", no_size=f["sizes"] == "none",
                   data=f["checks_data"], default=f["default"], bandwidth=f["bandwidth_factor"] is not None,
                   bw_factor=f["bandwidth_factor"], bw_rule=f["bandwidth_rule"])


@dataclass(frozen=True)
class Suite:
    name: str                    # the core's suite argument
    part: str                    # "<part> part" in the title line
    benchmarks: tuple[Bench, ...]
    mode_order: tuple[str, ...] = ()  # JSON spelling, the order of a benchmark's tables
    overlap: bool = False        # prints the CPU_Exploit block
    runnable: bool = True        # this build's MPI has what the suite needs

    @classmethod
    def from_facts(cls, f: dict) -> Suite:
        benches = tuple(Bench.from_facts(b) for b in f["benchmarks"])
        modes = next((tuple(b["modes"]) for b in f["benchmarks"] if b["modes"]), ())
        return cls(f["name"], f["title"], benches, mode_order=modes,
                   overlap=any(b["overlap"] for b in f["benchmarks"]), runnable=f["runnable"])

    @property
    def defaults(self) -> list[str]:
        return [b.name for b in self.benchmarks if b.default]

    @property
    def non_default(self) -> list[str]:
        return [b.name for b in self.benchmarks if not b.default]

    @property
    def all(self) -> list[str]:
        # The run list of `-include <the non-default ones>`: IMB runs the -include'd names first.
        return self.non_default + self.defaults

    def bench(self, name: str) -> Bench:
        return next(b for b in self.benchmarks if b.name == name)

    def names(self, **where) -> set[str]:
        """The names of the benchmarks whose fields equal the given values (cls="single")."""
        return {b.name for b in self.benchmarks if all(getattr(b, k) == v for k, v in where.items())}


MODE_TEXT = {"aggregate": "AGGREGATE", "non_aggregate": "NON-AGGREGATE"}


@functools.cache
def suites() -> dict[str, Suite]:
    """Every suite of the core, by name, in the core's order."""
    return {n: Suite.from_facts(f) for n, f in core_facts().items()}


@functools.cache
def _mpi1_sets() -> dict[str, object]:
    s = suites()["mpi1"]
    single, parallel, msgrate, sync = (s.names(cls=c) for c in ("single", "parallel", "msgrate", "sync"))
    return {
        "DEFAULTS": s.defaults, "NON_DEFAULT": s.non_default, "ALL": s.all,
        "SINGLE": single, "PARALLEL": parallel, "MSGRATE": msgrate, "SYNC": sync,
        "REDUCTIONS": s.names(reduction=True), "ROOTED": s.names(rooted=True),
        "COLLECTIVE": set(s.all) - single - parallel - msgrate - sync,
        # IMB's bandwidth factor: MB/s = factor * bytes / t_max (MB = 10^6 bytes).
        "BW_FACTOR": {b.name: b.bw_factor for b in s.benchmarks if b.bw_factor is not None},
    }


def __getattr__(name: str):
    """SUITES and MPI-1's name sets, computed from the core's facts on first use."""
    if name == "SUITES":
        value = suites()
    elif name in ("DEFAULTS", "NON_DEFAULT", "ALL", "SINGLE", "PARALLEL", "MSGRATE", "SYNC", "REDUCTIONS",
                  "ROOTED", "COLLECTIVE", "BW_FACTOR"):
        value = _mpi1_sets()[name]
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def expected_columns(name: str, multi: int | None = None, check: bool = False) -> list[str]:
    """IMB's out_format column set for an MPI-1 benchmark (+ Group, + defects)."""
    return suite_columns(suites()["mpi1"], name, multi, check)


def process_counts(name: str, world: int, npmin: int = 2, suite: str = "mpi1") -> list[int]:
    """IMB's sweep: npmin, 2*npmin, 4*npmin, ... below the world size, then the
    world size; PingPong & co. only at 2; Uniband/Biband even counts only."""
    b = suites()[suite].bench(name)
    if b.pair:
        return [b.fixed_processes]
    hi, lo = world, npmin
    if b.even:
        hi -= hi % 2
        lo += lo % 2
    q = max(1, min(lo, hi))
    counts = []
    while q < hi:
        counts.append(q)
        q *= 2
    counts.append(hi)
    return counts


def unit_of(name: str, data_bytes: int = 1, red_bytes: int = 4) -> int:
    return red_bytes if name in _mpi1_sets()["REDUCTIONS"] else data_bytes


def msglog_sizes(lo: int, hi: int, unit: int = 1, zero_size: bool = True) -> list[int]:
    """IMB's -msglog sizes: 0, then 2^k rounded up to the unit, at most
    (2^hi / unit) * unit, each once (so reductions on floats give 0, 4, 8, ...)."""
    top = (2 ** hi) // unit * unit
    out = [0] if zero_size else []
    for k in range(lo, hi + 1):
        s = -(-(2 ** k) // unit) * unit
        if 0 < s <= top and s not in out:
            out.append(s)
    return out


def suite_columns(suite: Suite, name: str, multi: int | None = None, check: bool = False) -> list[str]:
    b = suite.bench(name)
    layout = "range_bw" if b.layout == "t_bw" and b.pair and multi == 0 else b.layout
    cols = list(LAYOUT_COLUMNS[layout])
    if multi == 1:
        cols.insert(0, "Group")
    if check and b.data:
        cols.append("defects")
    return cols


def suite_tables(suite: Suite, names: list[str], world: int, npmin: int = 2) -> list[tuple[str, int, str | None]]:
    """(benchmark, processes, mode) of every table, in IMB's order: benchmarks,
    then process counts, then modes (EXT aggregate first, RMA non-aggregate first)."""
    out = []
    for name in names:
        b = suite.bench(name)
        for q in process_counts(name, world, npmin, suite.name):
            for mode in (suite.mode_order if b.modes else (None,)):
                out.append((name, q, mode))
    return out


def suite_sizes(suite: Suite, name: str, lo: int, hi: int, data_bytes: int = 1, red_bytes: int = 4) -> list[int]:
    b = suite.bench(name)
    if b.no_size:
        return []
    if b.single_element:
        return [red_bytes]
    return msglog_sizes(lo, hi, red_bytes if b.reduction else data_bytes)


def list_sizes(suite: Suite, name: str, sizes: list[int], data_bytes: int = 1, red_bytes: int = 4) -> list[int]:
    """-msgsize: each size rounded up to the element, as -msglog's."""
    b = suite.bench(name)
    if b.no_size:
        return []
    if b.single_element:
        return [red_bytes]
    unit = red_bytes if b.reduction else data_bytes
    out: list[int] = []
    for s in sizes:
        r = -(-s // unit) * unit
        if r not in out:
            out.append(r)
    return out


# --- the parser ---------------------------------------------------------------

class ParseError(AssertionError):
    def __init__(self, lineno: int, message: str, line: str | None = None):
        self.lineno = lineno
        text = f"line {lineno}: {message}"
        if line is not None:
            text += f": {line!r}"
        super().__init__(text)


@dataclass
class Row:
    lineno: int
    line: str
    status: str                   # ok, time-out, out-of-mem, int-overflow
    fields: dict[str, str]        # column title -> the stripped field ("" for failure rows' missing ones)
    message: str = ""             # failure rows: the text after "<status>.;"

    def as_int(self, col: str) -> int:
        return int(self.fields[col])

    def as_float(self, col: str) -> float:
        return float(self.fields[col])

    @property
    def bytes(self) -> int | None:
        return int(self.fields["#bytes"]) if "#bytes" in self.fields else None

    @property
    def group(self) -> int | None:
        return int(self.fields["Group"]) if "Group" in self.fields else None


@dataclass
class Table:
    lineno: int
    name: str                     # plain IMB name
    multi_prefix: bool            # title said "Multi-<Name>"
    processes: int
    dash_len: int
    columns: list[str]
    idle: int = 0
    groups: list[list[int]] | None = None     # "# ( G groups of N ...)" listing
    grid: list[list[int]] | None = None       # "-map" rank order rows
    mode: str | None = None                   # "# MODE:" block, in the JSON's spelling (aggregate, non_aggregate)
    split_note: str | None = None             # Reduce_scatter: the -imb_compat line
    rows: list[Row] = field(default_factory=list)
    blocks: list[list[Row]] = field(default_factory=list)  # -multi 1: one block per size

    @property
    def key(self) -> tuple[str, int]:
        return (self.name, self.processes)


@dataclass
class Report:
    header: dict[str, str]
    calling_sequence: str
    user_defined_lengths: bool
    min_length: int | None
    max_length: int | None
    datatype: str
    red_datatype: str
    benchmarks: list[str]
    tables: list[Table]
    invalid: list[tuple[str, int]]
    part: str = "MPI-1"                       # the title line's "<part> part"
    cpu_mflops: float | None = None           # "# For nonblocking benchmarks:" block

    def table(self, name: str, processes: int) -> Table:
        found = [t for t in self.tables if t.key == (name, processes)]
        assert len(found) == 1, f"{len(found)} tables for {name} on {processes} processes"
        return found[0]

    def tables_of(self, name: str) -> list[Table]:
        return [t for t in self.tables if t.name == name]

    @property
    def table_keys(self) -> list[tuple[str, int, str | None]]:
        return [(t.name, t.processes, t.mode) for t in self.tables]


HEADER_DASH = "#" + "-" * 64
HEADER_FIELDS = ["Date", "Machine", "System", "Release", "Version", "MPI Version", "MPI Thread Environment"]
CLOSING = "# All processes entering MPI_Finalize"
FAILURE = re.compile(r"^((?:.{13})+) (time-out|out-of-mem|int-overflow)\.;(.*)$")
NUMBER = re.compile(r"^-?\d+(\.\d+)?$")
PARTS = ("MPI-1", "MPI-2", "MPI-RMA", "MPI-NBC", "MPI-4")
IDLE = re.compile(r"^# \( (\d+) additional (process|processes) waiting in MPI_Barrier\)$")
# mpimark's line under a Reduce_scatter title: which definition (-imb_compat) the table measured.
SPLIT_NOTE = re.compile(r"^# \( (every process receives #bytes: IMB 2019\+|#bytes split across the processes: "
                        r"the user guide's definition) \) $")
GROUPS = re.compile(r"^# \( (\d+) groups of (\d+) processes each running simultaneous \) $")


def _rank_fields(text: str, lineno: int, line: str) -> list[int]:
    """' %4d' fields, as IMB_print_int_row writes them."""
    if not text or len(text) % 5:
        raise ParseError(lineno, "rank list is not made of ' %4d' fields", line)
    out = []
    for k in range(0, len(text), 5):
        chunk = text[k:k + 5]
        if not re.fullmatch(r" +\d+", chunk):
            raise ParseError(lineno, f"bad rank field {chunk!r}", line)
        out.append(int(chunk))
    return out


def _fields13(line: str, lineno: int, what: str) -> list[str]:
    if len(line) == 0 or len(line) % W:
        raise ParseError(lineno, f"{what} is {len(line)} characters, not a multiple of {W}", line)
    chunks = [line[k:k + W] for k in range(0, len(line), W)]
    for c in chunks:
        token = c.strip()
        if not token or " " in token or c != token.rjust(W):
            raise ParseError(lineno, f"{what} field {c!r} is not one token right-aligned in {W} characters", line)
    return [c.strip() for c in chunks]


WARNING_PREFIX = "# mpimark warning: "


class _Lines:
    def __init__(self, text: str):
        if not text.endswith("\n"):
            raise ParseError(text.count("\n") + 1, "output does not end with a newline")
        # mpimark's warnings (the self-checks) are comment lines anywhere, which IMB parsers skip.
        lines = text.split("\n")[:-1]
        self.warnings = [line for line in lines if line.startswith(WARNING_PREFIX)]
        self.lines = [line for line in lines if not line.startswith(WARNING_PREFIX)]
        self.i = 0

    def peek(self, k: int = 0) -> str | None:
        j = self.i + k
        return self.lines[j] if j < len(self.lines) else None

    def next(self, what: str) -> str:
        if self.i >= len(self.lines):
            raise ParseError(self.i + 1, f"output ends where {what} should be")
        self.i += 1
        return self.lines[self.i - 1]

    def exact(self, expected: str, what: str) -> None:
        line = self.next(what)
        if line != expected:
            raise ParseError(self.i, f"expected {what} {expected!r}", line)

    def match(self, pattern: str, what: str) -> re.Match:
        line = self.next(what)
        m = re.fullmatch(pattern, line)
        if not m:
            raise ParseError(self.i, f"expected {what} /{pattern}/", line)
        return m


def _parse_header(src: _Lines) -> tuple[dict, str, bool, int | None, int | None, str, str, list[str]]:
    src.exact(HEADER_DASH, "header dash line")
    title = src.match(rf"#    (\S.*), ({'|'.join(PARTS)}) part", "title line")
    src.exact(HEADER_DASH, "header dash line")
    header = {"title": title.group(1), "part": title.group(2)}
    for name in HEADER_FIELDS:
        m = src.match(rf"# {re.escape(name.ljust(22))}: ?(.*)", f"'{name}' line")
        header[name] = m.group(1)
    if not re.fullmatch(r"\d+\.\d+", header["MPI Version"]):
        raise ParseError(src.i - 1, "MPI Version is not N.M", header["MPI Version"])
    src.exact("", "blank line")
    src.exact("", "blank line")
    src.exact("# Calling sequence was: ", "calling sequence title")
    src.exact("", "blank line")
    # The spacing differs between IMB's programs (IMB-NBC and IMB-EXT: no trailing blanks, "#" lines);
    # tests/integration/test_imb_parity.py checks each suite's exactly.
    calling = src.match(r"# (\S.*?) ?", "calling sequence").group(1)
    src.exact("", "blank line")
    user_defined, lo, hi = False, None, None
    if src.peek() == "# Message lengths were user defined":
        src.next("message length line")
        user_defined = True
    else:
        lo = int(src.match(r"# Minimum message length in bytes:   (\d+)", "minimum length line").group(1))
        hi = int(src.match(r"# Maximum message length in bytes:   (\d+)", "maximum length line").group(1))
    src.exact("#", "'#' line")
    dt = src.match(r"# MPI_Datatype                   :   (\S+) ", "MPI_Datatype line").group(1)
    red = src.match(r"# MPI_Datatype for reductions    :   (\S+) ?", "reduction datatype line").group(1)
    src.exact("# MPI_Op                         :   MPI_SUM  ", "MPI_Op line")
    src.match("# ?", "'# ' line")
    src.match("# ?", "'# ' line")
    src.exact("", "blank line")
    src.exact("# List of Benchmarks to run:", "benchmark list title")
    src.exact("", "blank line")
    names = []
    while src.peek() not in (None, ""):
        if src.peek().startswith("#     ") and names:  # IMB-RMA's comment lines under a name
            src.next("benchmark comment line")
            continue
        names.append(src.match(r"# (\w+)", "benchmark name line").group(1))
    if not names:
        raise ParseError(src.i + 1, "empty benchmark list")
    if src.peek() == "" and src.peek(1) == "# For nonblocking benchmarks:":
        # IMB-NBC/MPI4: the CPU kernel's rate, "%7.2f" as IMB prints it.
        src.next("blank line")
        src.next("nonblocking title")
        src.exact("", "blank line")
        src.exact("# Function CPU_Exploit obtains an undisturbed", "CPU_Exploit line")
        m = src.match(r"# performance of ( *\d+\.\d\d) MFlops", "MFlops line")
        if len(m.group(1)) < 7:
            raise ParseError(src.i, "MFlops figure is not %7.2f", m.group(0))
        header["cpu_mflops"] = m.group(1)
    return header, calling, user_defined, lo, hi, dt, red, names


def _is_row_start(line: str | None) -> bool:
    return bool(line) and not line.startswith("#")


def _parse_table(src: _Lines) -> Table:
    src.exact("", "blank line before a table")
    start = src.i + 1
    dash = src.match(r"#-+", "dash line")
    dash_len = len(dash.group(0))
    title = src.match(r"# Benchmarking (Multi-)?(\w+) ", "'# Benchmarking <Name> ' line")
    table = Table(lineno=start, name=title.group(2), multi_prefix=bool(title.group(1)),
                  processes=0, dash_len=dash_len, columns=[])
    line = src.next("process line")
    if m := re.fullmatch(r"# #processes = (\d+) ", line):
        table.processes = int(m.group(1))
    elif m := re.fullmatch(r"# #processes = (\d+); rank order \(rowwise\): ", line):
        table.processes = int(m.group(1))
        table.grid = []
        while (nxt := src.peek()) and nxt.startswith("# ") and re.fullmatch(r"# ( +\d+)+", nxt):
            src.next("rank row")
            table.grid.append(_rank_fields(nxt[2:], src.i, nxt))
            src.exact("# ", "'# ' line after a rank row")
        if not table.grid:
            raise ParseError(src.i + 1, "rank order without rank rows", src.peek())
    elif m := GROUPS.fullmatch(line):
        n_groups, table.processes = int(m.group(1)), int(m.group(2))
        table.groups = []
        for g in range(n_groups):
            row = src.match(rf"# Group  {g}: ((?: +\d+)+)", f"'# Group  {g}: ' line")
            ranks = _rank_fields(row.group(1), src.i, row.group(0))
            # More than 16 ranks continue on "# " lines (not needed at <= 16).
            while (nxt := src.peek()) and nxt != "# " and re.fullmatch(r"# ( +\d+)+", nxt):
                src.next("rank continuation")
                ranks += _rank_fields(nxt[2:], src.i, nxt)
            src.exact("# ", "'# ' line after a group row")
            table.groups.append(ranks)
    else:
        raise ParseError(src.i, "expected '# #processes = N ', a rank order or a group listing", line)
    if (nxt := src.peek()) is not None and nxt.startswith("# ( ") and not SPLIT_NOTE.fullmatch(nxt):
        m = IDLE.fullmatch(src.next("idle line"))
        if not m:
            raise ParseError(src.i, "bad idle line", nxt)
        table.idle = int(m.group(1))
        if (table.idle == 1) != (m.group(2) == "process") or table.idle == 0:
            raise ParseError(src.i, "idle line: 'process' is for exactly one, 'processes' for more", nxt)
    if (nxt := src.peek()) is not None and SPLIT_NOTE.fullmatch(nxt):  # Reduce_scatter: which definition
        table.split_note = src.next("Reduce_scatter line")
    src.exact(dash.group(0), "second dash line (same as the first)")
    if src.peek() == "#":  # IMB-EXT/RMA: "#", "#    MODE: AGGREGATE ", "#"
        src.next("'#' line before MODE")
        m = src.match(r"#    MODE: (AGGREGATE|NON-AGGREGATE) ", "MODE line")
        src.exact("#", "'#' line after MODE")
        table.mode = {v: k for k, v in MODE_TEXT.items()}[m.group(1)]
    header_line = src.next("column titles")
    table.columns = _fields13(header_line, src.i, "column title")
    if dash_len != len(table.columns) * W:  # '#' + (ncols*13 - 1) dashes
        raise ParseError(start, f"dash line has {dash_len - 1} dashes for {len(table.columns)} columns "
                                f"(IMB: {len(table.columns) * W - 1})", dash.group(0))
    multi1 = table.columns[0] == "Group"
    block: list[Row] = []
    opened = not multi1  # -multi 1: each size's rows open with a blank line
    while True:
        nxt = src.peek()
        if multi1 and nxt == "" and _is_row_start(src.peek(1)):
            src.next("blank line before a size's group rows")
            if block:
                table.blocks.append(block)
            block, opened = [], True
            continue
        if not _is_row_start(nxt):
            break
        if not opened:
            raise ParseError(src.i + 1, "-multi 1: a size's group rows must follow a blank line", nxt)
        row = _parse_row(src.next("row"), src.i, table.columns)
        block.append(row)
        table.rows.append(row)
    if block:
        table.blocks.append(block)
    return table


def _parse_row(line: str, lineno: int, columns: list[str]) -> Row:
    if m := FAILURE.fullmatch(line):
        lead = _fields13(m.group(1), lineno, "failure row")
        keys = [c for c in columns if c in ("Group", "#bytes")]
        if len(lead) != len(keys) or not all(NUMBER.fullmatch(x) for x in lead):
            raise ParseError(lineno, f"failure row must start with {keys} as integers", line)
        return Row(lineno, line, m.group(2), dict(zip(keys, lead)), m.group(3))
    fields = _fields13(line, lineno, "row")
    if len(fields) != len(columns):
        raise ParseError(lineno, f"row has {len(fields)} fields for {len(columns)} columns", line)
    for col, val in zip(columns, fields):
        if not NUMBER.fullmatch(val):
            raise ParseError(lineno, f"field {col} is not a number: {val!r}", line)
        integer = col in ("Group", "#bytes", "#repetitions", "Msg/sec")
        if integer and "." in val:
            raise ParseError(lineno, f"field {col} must be an integer: {val!r}", line)
        if col.endswith("[usec]") or col in ("Mbytes/sec", "overlap[%]"):
            if not re.fullmatch(r"-?\d+\.\d\d", val):
                raise ParseError(lineno, f"field {col} must have 2 decimals (%13.2f): {val!r}", line)
    return Row(lineno, line, "ok", dict(zip(columns, fields)))


def parse(text: str) -> Report:
    src = _Lines(text)
    header, calling, user_defined, lo, hi, dt, red, names = _parse_header(src)
    tables: list[Table] = []
    invalid: list[tuple[str, int]] = []
    while True:
        rest = src.lines[src.i:]
        if rest == ["", "", CLOSING, ""]:
            break
        if src.peek() == "" and (src.peek(1) or "").startswith("#-"):
            tables.append(_parse_table(src))
        elif src.peek() == "" and (src.peek(1) or "").startswith("# !! Benchmark"):
            src.next("blank line")
            m = src.match(r"# !! Benchmark (\w+) invalid for (\d+) processes !! ", "invalid line")
            src.exact("", "blank line after the invalid line")
            invalid.append((m.group(1), int(m.group(2))))
        else:
            raise ParseError(src.i + 1, "expected a table (blank line, dash line) or the closing "
                                        "'\\n\\n# All processes entering MPI_Finalize\\n\\n'", src.peek())
    cpu = header.get("cpu_mflops")
    return Report(header, calling, user_defined, lo, hi, dt, red, names, tables, invalid, header["part"],
                  float(cpu) if cpu is not None else None)
