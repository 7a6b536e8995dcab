"""What the front end knows about benchmarks by name: IMB's benchmark classes
and table layouts, for every suite of the core.

The core's registry (core/src/suites/*/suite_*.c) is the authority; the
front end never links it, so what it needs of each row is repeated here,
once: the class, whether it reduces, whether -check verifies it, and which
of IMB's column sets its table has (imb_text.py prints them). A benchmark is
looked up by suite and name: IMB-EXT and IMB-RMA both have an Accumulate,
of different classes. Without a suite (imported IMB output) the suites are
tried in the order of SUITES.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class BenchmarkClass(Enum):
    SINGLE = "single transfer"  # two active processes: the PingPong family
    PARALLEL = "parallel transfer"  # every process sends and receives
    MSGRATE = "message rate"  # pairs with a window of messages
    COLLECTIVE = "collective"  # one collective call, timed call by call
    SYNC = "synchronisation"  # no message size


class Layout(Enum):
    """IMB's column sets (out_format; layout_of in core/src/report/imb_text.c)."""

    T_BW = "t, MB/s"  # single transfers; RMA's one-origin patterns on any count
    RANGE_BW = "t_min/t_max/t_avg, MB/s"  # parallel transfers; single transfers in -multi 0
    RANGE = "t_min/t_max/t_avg"  # collectives
    SYNC = "no #bytes, t_min/t_max/t_avg"  # Barrier
    RATE = "MB/s, Msg/sec"  # Uniband, Biband
    OVERLAP = "t_ovrl, t_pure, t_CPU, overlap[%]"  # IMB-NBC, MPI-4 persistent
    OVERLAP_SYNC = "no #bytes, t_ovrl, t_pure, t_CPU, overlap[%]"  # Ibarrier, Barrier_persist
    PURE_OVRL = "t_pure, t_ovrl"  # Truly_passive_put


@dataclass(frozen=True)
class Benchmark:
    name: str
    suite: str
    cls: BenchmarkClass
    reduction: bool = False  # moves -red_data_type (MPI_FLOAT) rather than -data_type (MPI_BYTE)
    layout: Layout | None = None  # None: from the class
    bandwidth: bool = False  # IMB prints Mbytes/sec (bw_scale > 0 in the core)
    moves_data: bool = True  # -check verifies it (not Barrier and its nonblocking/persistent forms)

    def table_layout(self, multi: int | None = None) -> Layout:
        if self.layout is not None:
            return self.layout
        if self.cls is BenchmarkClass.SYNC:
            return Layout.SYNC
        if self.cls is BenchmarkClass.MSGRATE:
            return Layout.RATE
        if self.cls is BenchmarkClass.SINGLE:
            return Layout.RANGE_BW if multi == 0 else Layout.T_BW
        if self.cls is BenchmarkClass.PARALLEL:
            return Layout.RANGE_BW
        return Layout.RANGE_BW if self.bandwidth else Layout.RANGE


_S, _P, _M, _C, _Y = (BenchmarkClass.SINGLE, BenchmarkClass.PARALLEL, BenchmarkClass.MSGRATE,
                      BenchmarkClass.COLLECTIVE, BenchmarkClass.SYNC)


def _mpi1() -> list[Benchmark]:
    out = [Benchmark(n, "mpi1", _S, bandwidth=True) for n in (
        "PingPong", "PingPing", "PingPongSpecificSource", "PingPongAnySource", "PingPingSpecificSource",
        "PingPingAnySource")]
    out += [Benchmark(n, "mpi1", _P, bandwidth=True) for n in ("Sendrecv", "Exchange")]
    out += [Benchmark(n, "mpi1", _M, bandwidth=True) for n in ("Uniband", "Biband")]
    out += [Benchmark(n, "mpi1", _C, reduction=True) for n in (
        "Allreduce", "Reduce", "Reduce_local", "Reduce_scatter", "Reduce_scatter_block")]
    out += [Benchmark(n, "mpi1", _C) for n in (
        "Allgather", "Allgatherv", "Gather", "Gatherv", "Scatter", "Scatterv", "Alltoall", "Alltoallv", "Bcast")]
    out.append(Benchmark("Barrier", "mpi1", _Y, moves_data=False))
    return out


def _overlap_suite(suite: str, names: list[str], reductions: set[str], barrier: str) -> list[Benchmark]:
    """IMB-NBC and IMB-MPI4: each collective as NAME (overlap) and NAME_pure (plain timing)."""
    out = []
    for name in names:
        red = name in reductions
        out.append(Benchmark(name, suite, _C, reduction=red, layout=Layout.OVERLAP))
        out.append(Benchmark(f"{name}_pure", suite, _C, reduction=red))
    out.append(Benchmark(barrier, suite, _Y, layout=Layout.OVERLAP_SYNC, moves_data=False))
    out.append(Benchmark(f"{barrier}_pure", suite, _Y, moves_data=False))
    return out


def _nbc() -> list[Benchmark]:
    return _overlap_suite("nbc", ["Ibcast", "Iallgather", "Iallgatherv", "Igather", "Igatherv", "Iscatter",
                                  "Iscatterv", "Ialltoall", "Ialltoallv", "Ireduce", "Ireduce_scatter", "Iallreduce"],
                          {"Ireduce", "Ireduce_scatter", "Iallreduce"}, "Ibarrier")


def _mpi4() -> list[Benchmark]:
    names = ["Bcast", "Allgather", "Allgatherv", "Gather", "Gatherv", "Scatter", "Scatterv", "Alltoall",
             "Alltoallv", "Reduce", "Reduce_scatter", "Allreduce"]
    return _overlap_suite("mpi4", [f"{n}_persist" for n in names],
                          {"Reduce_persist", "Reduce_scatter_persist", "Allreduce_persist"}, "Barrier_persist")


def _ext() -> list[Benchmark]:
    return [Benchmark("Window", "ext", _C),
            *(Benchmark(n, "ext", _S, bandwidth=True) for n in ("Unidir_Get", "Unidir_Put", "Bidir_Get", "Bidir_Put")),
            Benchmark("Accumulate", "ext", _C, reduction=True)]


def _rma() -> list[Benchmark]:
    out = [Benchmark(n, "rma", _S, bandwidth=True) for n in (
        "Unidir_put", "Bidir_put", "Unidir_get", "Bidir_get", "Put_local", "Get_local")]
    # One origin, every other rank a target: t and (np-1)*X/t on every process count.
    out += [Benchmark(n, "rma", _C, layout=Layout.T_BW, bandwidth=True) for n in (
        "Put_all_local", "Get_all_local", "One_put_all", "One_get_all")]
    out += [Benchmark(n, "rma", _C) for n in ("All_put_all", "All_get_all", "Exchange_put", "Exchange_get")]
    out += [Benchmark(n, "rma", _S, reduction=True, bandwidth=True) for n in (
        "Accumulate", "Get_accumulate", "Fetch_and_op", "Compare_and_swap")]
    out.append(Benchmark("Truly_passive_put", "rma", _S, layout=Layout.PURE_OVRL))
    return out


def _io() -> list[Benchmark]:
    """IMB-IO (core/src/suites/io/suite_io.c): S_ on one process, P_ and C_ on every count, each
    blocking routine followed by its nonblocking flavour (overlap protocol); Open_Close moves nothing."""
    out = []
    for kind in ("Write", "Read"):
        for name in (f"S_{kind}_Indv", f"S_{kind}_Expl", f"P_{kind}_Indv", f"P_{kind}_Shared", f"P_{kind}_Priv",
                     f"P_{kind}_Expl", f"C_{kind}_Indv", f"C_{kind}_Shared", f"C_{kind}_Expl"):
            cls = _S if name.startswith("S_") else _P  # C_ too: IMB-IO times collective calls back to back
            out.append(Benchmark(name, "io", cls, bandwidth=True))
            out.append(Benchmark(f"{name[:2]}I{name[2:]}", "io", cls, bandwidth=True, layout=Layout.OVERLAP))
    out.append(Benchmark("Open_Close", "io", _Y, moves_data=False))
    return out


# The core's suites in its order (core/src/engine/registry.c), each with its benchmarks.
SUITES: dict[str, dict[str, Benchmark]] = {
    suite: {b.name: b for b in make()} for suite, make in (
        ("mpi1", _mpi1), ("nbc", _nbc), ("mpi4", _mpi4), ("ext", _ext), ("rma", _rma), ("io", _io))
}
# Suites with aggregate and non-aggregate tables (IMB's MODE line).
MODE_SUITES = ("ext", "rma", "io")
# The suites' titles: "<title> part" in the header (suite_desc.title in the core).
SUITE_TITLES = {"mpi1": "MPI-1", "nbc": "MPI-NBC", "mpi4": "MPI-4", "ext": "MPI-2", "rma": "MPI-RMA", "io": "MPI-IO"}
# The MPI standard a suite needs; the core skips it on older libraries.
SUITE_NEEDS_STANDARD = {"mpi4": (4, 0)}


def lookup(name: str, suite: str | None = None) -> Benchmark | None:
    """The benchmark of that name in suite (or in the first suite that has it), None if unknown."""
    if suite is not None:
        return SUITES.get(suite, {}).get(name)
    return next((table[name] for table in SUITES.values() if name in table), None)


def _get(name: str, suite: str | None) -> Benchmark:
    # An unknown name (imported output, a future benchmark) is a plain collective.
    return lookup(name, suite) or lookup(name) or Benchmark(name, suite or "", BenchmarkClass.COLLECTIVE)


def benchmark_class(name: str, suite: str | None = None) -> BenchmarkClass:
    return _get(name, suite).cls


def has_bandwidth(name: str, suite: str | None = None) -> bool:
    return _get(name, suite).bandwidth


# Reductions of IMB versions the core does not follow, for imported output.
_IMPORTED_REDUCTIONS = {"Ireduce_scatter_block"}


def is_reduction(name: str, suite: str | None = None) -> bool:
    return _get(name, suite).reduction or name in _IMPORTED_REDUCTIONS


def checks_data(name: str, suite: str | None = None) -> bool:
    """Whether -check can verify this benchmark (Barrier and its forms move no data)."""
    return _get(name, suite).moves_data


def table_layout(name: str, suite: str | None = None, multi: int | None = None) -> Layout:
    return _get(name, suite).table_layout(multi)
