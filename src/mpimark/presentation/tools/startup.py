"""MPI start-up time as RIKEN's table shows it, and osu_init's and osu_hello's lines (docs/startup.md).

RIKEN's "MPI process generation time" (`../shared/seeds/001_*`, section 5)
is one row per launch: TIME(MIN) and TIME(MAX), the minimum and maximum
over all ranks of (stamp taken by the rank) - (stamp taken before mpiexec),
in seconds with three decimals. Here every launch is one stored run, and
its row gives that pair for each phase the core stamps: the rank's first
instruction (RIKEN's own measure), the end of MPI_Init and the end of the
first MPI_Barrier; below the rows, the median over the launches of each
column. osu_init's line is each rank's MPI_Init time truncated to whole ms,
then `nprocs: N, min: X ms, max: Y ms, avg: Z ms` (integer average).
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass

from mpimark.presentation.osu_text import osu_init_text

# The phases since launch, in the order they happen; RIKEN's table has the first.
PHASES = (("process_start", "first instruction"), ("mpi_init_done", "end of MPI_Init"),
          ("first_barrier_done", "end of 1st barrier"))


@dataclass(frozen=True)
class Launch:
    """One launch's figures, from its records (times in ms)."""

    run_id: int | None
    processes: int
    hosts: list[str]
    launch_ns: int | None
    init_only: bool
    hello: bool
    since_launch: dict[str, tuple[float, float, float]]  # phase -> (min, avg, max) over ranks
    since_first_entry: dict[str, tuple[float, float, float]]
    init_ms: tuple[float, float, float] | None  # MPI_Init duration
    barrier_ms: tuple[float, float, float] | None  # first barrier duration
    init_rank_ms: list[float]


def _spread(result: dict) -> tuple[float, float, float]:
    return result["min_ms"], result["avg_ms"], result["max_ms"]


def launch(records: list[dict], run_id: int | None = None) -> Launch:
    """A launch from the records of its run (as stored or as read from the -json file)."""
    run = next((r for r in records if r["type"] == "run"), None) or {}
    options = run.get("options") or {}
    since_launch: dict[str, tuple[float, float, float]] = {}
    since_first: dict[str, tuple[float, float, float]] = {}
    init = barrier = None
    init_ranks: list[float] = []
    processes = run.get("processes") or 0
    for r in records:
        if r["type"] != "result" or r.get("suite") != "startup":
            continue
        processes = r["processes"]
        if r["benchmark"] == "startup_since_launch":
            since_launch[r["phase"]] = _spread(r)
        elif r["benchmark"] == "startup_since_first_entry":
            since_first[r["phase"]] = _spread(r)
        elif r["benchmark"] == "MPI_Init":
            init = _spread(r)
            init_ranks = list(r.get("rank_ms") or [])
        elif r["benchmark"] == "MPI_Barrier_first":
            barrier = _spread(r)
    return Launch(run_id, processes, list(run.get("hosts") or []), options.get("launch_ns"),
                  bool(options.get("init_only")), bool(options.get("hello")), since_launch, since_first, init,
                  barrier, init_ranks)


def duration(item: Launch) -> str | None:
    """How long the start-up took, the figure a start-up run is about: "start-up 0.362 s (launch to the end
    of the 1st barrier, slowest rank)"; None without phases. The core's own clock (its end record's
    elapsed_s) starts after MPI_Init and says nothing of it."""
    phases, since = (item.since_launch, "launch") if item.since_launch else (item.since_first_entry,
                                                                             "the first process's start")
    last = next(((phase, label) for phase, label in reversed(PHASES) if phase in phases), None)
    if last is None:
        return None
    return f"start-up {phases[last[0]][2] / 1000:.3f} s ({since} to the {last[1]}, slowest rank)"


def osu_init_line(item: Launch) -> str | None:
    """osu_init's `nprocs: N, min: X ms, max: Y ms, avg: Z ms` (whole ms, truncated), or None."""
    if not item.init_rank_ms:
        return None
    whole = [int(math.floor(ms)) for ms in item.init_rank_ms]
    return osu_init_text(item.processes, min(whole), max(whole), sum(whole) // len(whole))


def hello_lines(processes: int) -> list[str]:
    """osu_hello's output."""
    return ["# OSU MPI Hello World Test", f"This is a test with {processes} processes"]


def _seconds(value: float | None) -> str:
    return f"{value / 1000:10.3f}" if value is not None else f"{'-':>10}"


def _nodes(item: Launch) -> str:
    # RIKEN's first column, "432:12x3x12x12": here processes and hosts.
    hosts = len(item.hosts) or 1
    return f"{item.processes}:{hosts}host{'s' if hosts != 1 else ''}"


def table(launches: list[Launch]) -> str:
    """RIKEN's table: one row per launch, TIME(MIN) / TIME(MAX) in s per phase, then the medians."""
    if not launches:
        return "no start-up launches\n"
    phases = [p for p in PHASES if not (p[0] == "first_barrier_done" and all(x.init_only for x in launches))]
    processes = sorted({x.processes for x in launches})
    hosts = sorted({h for x in launches for h in x.hosts})
    lines = [f"# MPI start-up time, RIKEN style: {len(launches)} launch{'es' if len(launches) != 1 else ''} of "
             f"{'/'.join(map(str, processes))} processes on {', '.join(hosts) or '?'}; seconds since the launcher "
             "started",
             "# TIME(MIN), TIME(MAX): minimum, maximum over the ranks"]
    head1 = f"{'':7} {'':6} {'# of':>12}"
    head2 = f"{'launch':>7} {'run':>6} {'processes':>12}"
    for _, name in phases:
        head1 += f"   {name:^21}"
        head2 += f"   {'TIME(MIN)':>10} {'TIME(MAX)':>10}"
    lines += [head1.rstrip(), head2]
    columns: list[list[float]] = [[] for _ in range(2 * len(phases))]
    for number, item in enumerate(launches, start=1):
        row = f"{number:7d} {item.run_id if item.run_id is not None else '-':>6} {_nodes(item):>12}"
        for i, (key, _) in enumerate(phases):
            low, _, high = item.since_launch.get(key, (None, None, None))
            row += f"   {_seconds(low)} {_seconds(high)}"
            if low is not None:
                columns[2 * i].append(low)
                columns[2 * i + 1].append(high)
        lines.append(row)
    if len(launches) > 1:
        lines.append(_median_row(columns))
    if any(not x.since_launch for x in launches):
        lines.append("# '-': no launch time reached rank 0 (MPIMARK_LAUNCH_NS / -launch-ns)")
    return "\n".join(lines) + "\n"


def _median_row(columns: list[list[float]]) -> str:
    row = f"{'median':>7} {'':6} {'':12}"
    for i, values in enumerate(columns):
        row += ("   " if i % 2 == 0 else " ") + _seconds(statistics.median(values) if values else None)
    return row


def durations(launches: list[Launch]) -> str:
    """MPI_Init and the first barrier per launch (ms; min / avg / max over ranks), and osu_init's lines."""
    lines = ["# durations [ms]     MPI_Init min        avg        max   1st barrier min        avg        max"]
    for number, item in enumerate(launches, start=1):
        init = "".join(f" {v:10.3f}" for v in item.init_ms) if item.init_ms else f" {'-':>10}" * 3
        barrier = "".join(f" {v:10.3f}" for v in item.barrier_ms) if item.barrier_ms else f" {'-':>10}" * 3
        lines.append(f"{number:7d} {item.run_id if item.run_id is not None else '-':>6}      {init}     {barrier}")
    lines.append("# OSU MPI Init Test style (osu_init), per launch")
    lines += [line for line in (osu_init_line(x) for x in launches) if line]
    return "\n".join(lines) + "\n"


def text(records: list[dict], run_id: int | None = None) -> str:
    return report([launch(records, run_id)])


def report(launches: list[Launch]) -> str:
    """What `mpimark startup` and `mpimark show` print for a series of launches."""
    parts = [table(launches), durations(launches)]
    if launches and any(x.hello for x in launches):
        parts.append("\n".join(hello_lines(launches[0].processes)) + "\n")
    return "".join(parts)
