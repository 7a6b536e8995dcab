"""What the front end knows about benchmarks by name: IMB's benchmark classes.

The core's registry (core/src/suites/*/suite_*.c) is the authority; the
front end never links it, so the class of each benchmark is repeated here,
once. IMB's text layout (which columns a table has) depends on the class.
"""

from __future__ import annotations

from enum import Enum


class BenchmarkClass(Enum):
    SINGLE = "single transfer"  # two active processes: the PingPong family
    PARALLEL = "parallel transfer"  # every process sends and receives
    MSGRATE = "message rate"  # pairs with a window of messages
    COLLECTIVE = "collective"  # one collective call, timed call by call
    SYNC = "synchronisation"  # no message size


# mpi1 benchmarks that are not collectives; every other name is a collective.
_CLASSES = {
    "PingPong": BenchmarkClass.SINGLE,
    "PingPing": BenchmarkClass.SINGLE,
    "PingPongSpecificSource": BenchmarkClass.SINGLE,
    "PingPongAnySource": BenchmarkClass.SINGLE,
    "PingPingSpecificSource": BenchmarkClass.SINGLE,
    "PingPingAnySource": BenchmarkClass.SINGLE,
    "Sendrecv": BenchmarkClass.PARALLEL,
    "Exchange": BenchmarkClass.PARALLEL,
    "Uniband": BenchmarkClass.MSGRATE,
    "Biband": BenchmarkClass.MSGRATE,
    "Barrier": BenchmarkClass.SYNC,
}

# Benchmarks that reduce (BF_REDUCTION in core/src/suites/mpi1/suite_mpi1.c):
# they move -red_data_type (MPI_FLOAT) rather than -data_type (MPI_BYTE).
# The I- names are IMB-NBC's non-blocking counterparts, for imported output.
_REDUCTIONS = {
    "Allreduce", "Reduce", "Reduce_local", "Reduce_scatter", "Reduce_scatter_block",
    "Iallreduce", "Ireduce", "Ireduce_scatter", "Ireduce_scatter_block",
}

# IMB reports bandwidth exactly for these classes (bw_scale > 0 in the core).
_WITH_BANDWIDTH = {BenchmarkClass.SINGLE, BenchmarkClass.PARALLEL, BenchmarkClass.MSGRATE}


def benchmark_class(name: str) -> BenchmarkClass:
    return _CLASSES.get(name, BenchmarkClass.COLLECTIVE)


def has_bandwidth(name: str) -> bool:
    return benchmark_class(name) in _WITH_BANDWIDTH


def is_reduction(name: str) -> bool:
    return name in _REDUCTIONS


def checks_data(name: str) -> bool:
    """Whether -check can verify this benchmark (Barrier moves no data)."""
    return benchmark_class(name) is not BenchmarkClass.SYNC
