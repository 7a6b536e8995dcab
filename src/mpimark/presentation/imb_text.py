"""IMB's text output, regenerated from the records of a run.

A port of core/src/report/imb_text.c, layout for layout, so that parsers
written for IMB read a stored run as they read the core's own output. What
the records cannot say is approximated: the Date line is start_utc in UTC
(the core prints the local time of its host), and numbers are rounded from
the stream's 12 significant digits rather than from the core's doubles.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime

from mpimark.presentation import imb_programs
from mpimark.presentation.rigour import SELFCHECK_KINDS
from mpimark.records.benchmarks import Catalog, catalog, Layout, UnknownBenchmark
from mpimark.records import simulation
from mpimark.records.mpi_library import one_line

WIDTH = 13  # IMB's column width
IMB_METHOD_VERSION = "2021.11"  # as IMB_METHOD_VERSION in core/src/report/imb_text.c
MPI_TYPE_NAMES = {
    "byte": "MPI_BYTE", "char": "MPI_CHAR", "int": "MPI_INT", "float": "MPI_FLOAT",
    "double": "MPI_DOUBLE", "float16": "MPIX_C_FLOAT16", "bfloat16": "MPIX_C_BF16",
}
FAILURE_TEXT = {
    "timeout": ' time-out.; Time limit (secs_per_sample * msg_sizes_list_len) is over; use "-time X" to increase '
               "time limit.",
    "out_of_memory": ' out-of-mem.; needed X={needed_gb:8.3f} GB; use flag "-mem X" or raise the memory limit',
    "int_overflow": " int-overflow.; The production rank*size caused int overflow for given sample; this MPI has "
                    "no large-count reductions, use a larger -red_data_type",
}
CLOSING = "\n\n# All processes entering MPI_Finalize\n\n"
# The header's spacing per suite, as each IMB program prints it (header_style in imb_text.c):
# (calling sequence with a trailing blank, reduction type with a trailing blank, "# " lines after MPI_Op).
HEADER_STYLE = {"mpi1": (True, True, True), "mpi4": (True, True, True), "nbc": (False, False, False),
                "rma": (True, False, True), "ext": (False, False, False), "io": (True, True, False)}
SPLIT_NOTE = {"2021": "# ( every process receives #bytes: IMB 2019+ ) \n",
              "guide": "# ( #bytes split across the processes: the user guide's definition ) \n"}


MODE_TEXT = {"aggregate": "AGGREGATE", "non_aggregate": "NON-AGGREGATE"}
NO_BYTES = (Layout.SYNC, Layout.OVERLAP_SYNC)  # layouts without a #bytes column


@dataclass(frozen=True)
class _Table:
    benchmark: str
    processes: int
    groups: int
    multi: int | None
    suite: str | None = None
    mode: str | None = None  # aggregate, non_aggregate (IMB-EXT, IMB-RMA), or None
    waiting: int = 0  # ranks that sat the table out, as an imported row says (a run's own: its run record)
    facts: Catalog | None = field(default=None, compare=False)  # the run's benchmark facts (else the core's)

    @property
    def layout(self) -> Layout:
        return (self.facts or catalog()).get(self.benchmark, self.suite).table_layout(self.multi)

    @property
    def compat(self) -> tuple:
        """What -imb_compat changes in this benchmark (the core's imb_compat fact)."""
        return dict((self.facts or catalog()).get(self.benchmark, self.suite).facts).get("imb_compat", ())

    @property
    def checked(self) -> bool:
        return (self.facts or catalog()).get(self.benchmark, self.suite).moves_data


def _dash_line(ncols: int) -> str:
    return "#" + "-" * (ncols * WIDTH - 1) + "\n"


def _options(run: dict | None) -> dict:
    return (run or {}).get("options") or {}


def asctime_utc(start_utc: str) -> str:
    """The `# Date` line's value: the run's UTC start in asctime layout, as the core's
    strftime("%a %b %e %H:%M:%S %Y")."""
    moment = datetime.fromisoformat(start_utc.replace("Z", "+00:00"))
    return f"{moment:%a %b} {moment.day:2d} {moment:%H:%M:%S %Y}"


def _listed(name: str, suite: str, run: dict) -> str:
    """A name in the header's list, with IMB's comment lines under it (IMB-RMA)."""
    try:
        comment = dict(catalog([run]).get(name, suite).facts).get("comment")
    except UnknownBenchmark:  # an imported run's name the core does not know: no comment
        comment = None
    return f"# {name}\n" + "".join(f"#     {line}\n" for line in (comment or "").splitlines())


def header(run: dict) -> str:
    """The block before the first table: program, system, calling sequence, sizes, types."""
    options, uname, mpi = _options(run), run.get("uname") or {}, run.get("mpi") or {}
    bar = "#" + "-" * 64 + "\n"
    suite = run.get("suite", "")
    call_space, red_space, hash_space = HEADER_STYLE.get(suite, HEADER_STYLE["mpi1"])
    guide = ", -imb_compat guide" if options.get("imb_compat") == "guide" else ""
    out = [
        bar,
        f"#    mpimark-core {run.get('tool', {}).get('version', '')} (Intel(R) MPI Benchmarks "
        f"{IMB_METHOD_VERSION} methodology{guide}), {catalog([run]).title(suite)} part\n",
        bar,
        f"# Date                  : {asctime_utc(run['start_utc']) if run.get('start_utc') else ''}\n",
        f"# Machine               : {uname.get('machine', '')}\n",
        f"# System                : {uname.get('sysname', '')}\n",
        f"# Release               : {uname.get('release', '')}\n",
        f"# Version               : {uname.get('version', '')}\n",
        f"# MPI Version           : {mpi.get('standard_version', '')}\n",
        f"# MPI Thread Environment: {mpi.get('thread_level_provided', '')}\n",
        # Not IMB's: a run on a simulated machine says so where IMB names the machine (records/simulation.py).
        *([f"# Simulated             : {one_line(simulation.details(simulation.of_run(run)))}\n"]
          if simulation.of_run(run) else []),
        "\n\n",
        "# Calling sequence was: \n\n#",
        *(f" {arg}" for arg in run.get("command_line", [])),
        " \n\n" if call_space else "\n\n",
    ]
    io = suite == "io"  # IMB-IO speaks of io portions and prints no datatype lines
    if options.get("msgsizes") is not None:
        out.append("# IO lengths were user defined\n" if io else "# Message lengths were user defined\n")
    elif options.get("msglog"):
        low, high = (int(x) for x in options["msglog"].split(":"))
        smallest = 0 if io or options.get("zero_size", "on") == "on" else 1 << low  # IMB-IO prints 0 always
        what = "io portion" if io else "message length"
        out.append(f"# Minimum {what} in bytes:   {smallest}\n")
        out.append(f"# Maximum {what} in bytes:   {1 << high}\n")
    data_type = MPI_TYPE_NAMES.get(options.get("data_type", "byte"), "MPI_BYTE")
    red_option = options.get("red_data_type", "float")
    red_type = MPI_TYPE_NAMES.get(red_option, "MPI_FLOAT")
    out.append("#\n")
    if not io:
        out += [f"# MPI_Datatype                   :   {data_type} \n",
                f"# MPI_Datatype for reductions    :   {red_type}{' ' if red_space else ''}\n",
                "# MPI_Op                         :   MPI_SUM  \n"]
    out += [
        "# \n# \n" if hash_space else "#\n#\n",
        "\n# List of Benchmarks to run:\n\n",
        *(_listed(name, suite, run) for name in run.get("benchmarks", [])),
    ]
    if run.get("cpu_exploit_mflops"):  # the overlap suites: the CPU kernel's rate
        out.append(f"\n# For nonblocking benchmarks:\n\n# Function CPU_Exploit obtains an undisturbed\n"
                   f"# performance of {run['cpu_exploit_mflops']:7.2f} MFlops\n")
    return "".join(out)


# The columns after #bytes and #repetitions (columns() in core/src/report/imb_text.c).
# " overlap[%]" keeps IMB's leading space inside the 13 characters.
_FIGURES = {
    Layout.T_BW: ["t[usec]", "Mbytes/sec"],
    Layout.RANGE_BW: ["t_min[usec]", "t_max[usec]", "t_avg[usec]", "Mbytes/sec"],
    Layout.RANGE: ["t_min[usec]", "t_max[usec]", "t_avg[usec]"],
    Layout.SYNC: ["t_min[usec]", "t_max[usec]", "t_avg[usec]"],
    Layout.RATE: ["Mbytes/sec", "Msg/sec"],
    Layout.OVERLAP: ["t_ovrl[usec]", "t_pure[usec]", "t_CPU[usec]", " overlap[%]"],
    Layout.OVERLAP_SYNC: ["t_ovrl[usec]", "t_pure[usec]", "t_CPU[usec]", " overlap[%]"],
    Layout.PURE_OVRL: ["t_pure[usec]", "t_ovrl[usec]"],
    Layout.P2P: ["t[usec]", "Mbytes/sec", "Msg/sec"],
    Layout.AVG_RATE: ["t_avg[usec]", "Mbytes/sec", "Msg/sec"],
}


def _columns(table: _Table, check: bool) -> list[str]:
    columns = ["Group"] if table.multi == 1 else []
    columns += ["#repetitions"] if table.layout in NO_BYTES else ["#bytes", "#repetitions"]
    columns += _FIGURES[table.layout]
    if check and table.checked:
        columns.append("defects")
    return columns


def _map_key(world_rank: int, p: int, q: int) -> int:
    # -map PxQ: IMB's rank reordering (map_key in core/src/util/patterns.c).
    if p <= 1 or q <= 1:
        return world_rank
    key = (q * world_rank) % (p * q - 1)
    return key if key else world_rank


def _group_ranks(world: int, table: _Table, p: int, q: int) -> list[int]:
    """World ranks of every group, group by group (groups_create in core/src/engine/comms.c)."""
    ranks = [0] * (table.groups * table.processes)
    for rank in range(world):
        key = _map_key(rank, p, q)
        if key // table.processes < table.groups:
            ranks[key] = rank  # group * np + key % np == key
    return ranks


def _rank_row(label: str, ranks: list[int]) -> str:
    out = [f"# {label}"]
    for index, rank in enumerate(ranks):
        if index and index % 16 == 0:
            out.append("\n# ")
        out.append(f" {rank:4d}")
    return "".join(out) + "\n# \n"


def _table_head(table: _Table, run: dict | None) -> str:
    options = _options(run)
    columns = _columns(table, options.get("check") == "on")
    p, q = (int(x) for x in str(options.get("map", "1x1")).split("x"))
    # The run record knows the world size; without it the idle line and rank lists are left out.
    world = (run or {}).get("processes")
    np = table.processes
    out = ["\n", _dash_line(len(columns)),
           f"# Benchmarking {'Multi-' if table.groups > 1 else ''}{table.benchmark} \n"]
    if table.groups > 1:
        out.append(f"# ( {table.groups} groups of {np} processes each running simultaneous ) \n")
        if world:
            ranks = _group_ranks(world, table, p, q)
            out += [_rank_row(f"Group  {g}: ", ranks[g * np:(g + 1) * np]) for g in range(table.groups)]
    elif p > 1 and q > 1 and world:
        out.append(f"# #processes = {np}; rank order (rowwise): \n")
        ranks, done = _group_ranks(world, table, p, q), 0
        for i in range(p):
            if done >= np:
                break
            row = min(world // p + (1 if i < world % p else 0), np - done)
            out.append(_rank_row("", ranks[done:done + row]))
            done += row
    else:
        out.append(f"# #processes = {np} \n")
    idle = world - table.groups * np if world else table.waiting
    if idle > 0:
        out.append(f"# ( {idle} additional process{'es' if idle > 1 else ''} waiting in MPI_Barrier)\n")
    if "reduce_scatter" in table.compat:
        out.append(SPLIT_NOTE[options.get("imb_compat", "2021")])
    out.append(_dash_line(len(columns)))
    if table.mode is not None:
        out.append(f"#\n#    MODE: {MODE_TEXT.get(table.mode, table.mode.upper())} \n#\n")
    out.append("".join(f"{c:>{WIDTH}}" for c in columns) + "\n")
    return "".join(out)


def column_cell(value: float | int | None, spec: str) -> str:
    """One right-aligned column of IMB's tables; `-` where there is no value."""
    return f"{'-':>{WIDTH}}" if value is None else f"{value:{WIDTH}{spec}}"


def _row(table: _Table, result: dict, guide: bool = False) -> str:
    out = []
    if table.multi == 1:
        if result["group"] == 0:
            out.append("\n")  # IMB leaves a blank line before each size's group rows
        out.append(column_cell(result["group"] or 0, "d"))
    layout = table.layout
    if layout not in NO_BYTES:
        out.append(column_cell(result["bytes"], "d"))
    status = result["status"]
    if status != "ok":
        text = FAILURE_TEXT.get(status, f" {status}.")
        return "".join(out) + text.format(needed_gb=result.get("needed_gb") or 0.0) + "\n"
    out.append(column_cell(result["repetitions"], "d"))
    overlap = result.get("overlap") or {}
    if layout is Layout.RATE:
        out += [column_cell(result["mbytes_per_sec"], ".2f"), column_cell(result["msgs_per_sec"], ".0f")]
    elif layout in (Layout.RANGE_BW, Layout.RANGE, Layout.SYNC):
        out += [column_cell(result[f], ".2f") for f in ("t_min_usec", "t_max_usec", "t_avg_usec")]
        if layout is Layout.RANGE_BW:
            out.append(column_cell(result["mbytes_per_sec"], ".2f"))
    elif layout in (Layout.OVERLAP, Layout.OVERLAP_SYNC):
        # t_ovrl is t_max (the rank with the largest t_ovrl); the others are that rank's. The
        # overlap column is IMB-NBC's (max denominator) unless the run chose -imb_compat guide.
        guides = guide or "overlap" not in table.compat  # IMB-IO divides by min(t_pure, t_CPU) too
        percent = overlap.get("overlap_percent" if guides else "overlap_percent_max_denominator")
        out += [column_cell(result["t_max_usec"], ".2f"), column_cell(overlap.get("t_pure_usec"), ".2f"),
                column_cell(overlap.get("t_cpu_usec"), ".2f"), column_cell(percent, ".2f")]
    elif layout is Layout.PURE_OVRL:
        out += [column_cell(overlap.get("t_pure_usec"), ".2f"), column_cell(result["t_max_usec"], ".2f")]
    elif layout in (Layout.P2P, Layout.AVG_RATE):
        out += [column_cell(result["t_avg_usec"], ".2f"), column_cell(result["mbytes_per_sec"], ".2f"),
                column_cell(result["msgs_per_sec"], ".0f")]
    else:
        out += [column_cell(result["t_max_usec"], ".2f"), column_cell(result["mbytes_per_sec"], ".2f")]
    if result.get("defects") is not None and table.checked:
        out.append(column_cell(result["defects"], "d"))
    return "".join(out) + "\n"


def table_chunks(records: Iterable[dict], run: dict | None) -> Iterator[str]:
    """tables() piece by piece from records in arrival order, read once: a run of any size in bounded memory.

    run is the run's run record (None for imports of other suites' text).
    """
    if imb_programs.owns(run):  # IMB-P2P's and IMB-MT's own layouts
        yield imb_programs.tables(list(records))
        return
    run_multi = _options(run).get("multi")
    run_suite = (run or {}).get("suite")
    guide = _options(run).get("imb_compat") == "guide"
    facts = catalog([run] if run else None)
    current: _Table | None = None
    opened: dict | None = None  # a benchmark_start event whose table waits for its first result

    def head(first: dict) -> str:
        nonlocal current
        # The event names the mode (cores from 0.1.0 on); else the table's first result does.
        mode = opened["mode"] if "mode" in opened else first.get("mode")
        current = _Table(opened["benchmark"], opened["processes"], opened.get("groups", 1), run_multi,
                         first.get("suite") or run_suite, mode, first.get("waiting") or 0, facts)
        return _table_head(current, run)

    for record in records:
        kind = record["type"]
        starts = kind == "event" and record.get("kind") in ("benchmark_start", "invalid_process_count")
        if opened is not None and (starts or kind == "result"):
            yield head(record if kind == "result" else {})
            opened = None
        if kind == "event" and record.get("kind") == "benchmark_start":
            opened = record
        elif kind == "event" and record.get("kind") == "invalid_process_count":
            yield f"\n# !! Benchmark {record['benchmark']} invalid for {record['processes']} processes !! \n\n"
        elif kind == "event" and record.get("level") == "warning" and record.get("kind") in SELFCHECK_KINDS:
            yield f"# mpimark warning: {record['message']}\n"  # where the core prints it
        elif kind == "result":
            table = _Table(record["benchmark"], record["processes"], record["groups"], record["multi"],
                           record.get("suite") or run_suite, record.get("mode"), record.get("waiting") or 0, facts)
            if table != current:  # no benchmark_start event before it (e.g. records built by hand)
                current = table
                yield _table_head(current, run)
            yield _row(current, record, guide)
    if opened is not None:
        yield head({})


def tables(records: list[dict]) -> str:
    """The table blocks (and invalid-process-count lines), in the order the core wrote them."""
    return "".join(table_chunks(records, next((r for r in records if r["type"] == "run"), None)))


def imb_text(records: list[dict]) -> str:
    """The whole text output: header, tables, and the closing line if the run ended."""
    run = next((r for r in records if r["type"] == "run"), None)
    if imb_programs.owns(run):
        return imb_programs.text(records)
    ended = any(r["type"] == "end" for r in records)
    return (header(run) if run else "") + tables(records) + (CLOSING if ended else "")
