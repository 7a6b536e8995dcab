"""What a benchmark is by name: its class, table layout, bandwidth, whether it
reduces or moves data, for every suite of the core.

The front end keeps no table of its own: the core describes every benchmark
it has (`mpimark-core -list -json`, the run record's `benchmark_facts`;
docs/results-format.md). A run's records carry the facts of its suite; for
records without them (imported output, runs stored before the facts existed)
the facts come from the built core, through the loader the command line
installs (`use_core_facts`; execution/core.py asks the core). A benchmark is
looked up by suite and name (IMB-EXT and IMB-RMA both have an Accumulate, of
different classes); a suite word the core does not have (an importer's
`imported:imb`, a tool) searches the core's suites in their order. A name no
suite has is an error (UnknownBenchmark), never a guess.

OSU Micro-Benchmarks' programs are the core's osu suite; their facts are also
packaged (records/peers/osu.json, a snapshot of that suite that
records/peer_facts.py writes from the core's, with OMB-Py's programs, which
the core does not describe: the core's fields plus `header`, the program's
title line, and `datatype`, what it moves by default), so that `mpimark
import` reads OSU's output without a built core. The core's catalog falls
back on them (peer_catalog), and the core's facts win for any suite it has.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from importlib.resources import files

from mpimark.errors import MpimarkError


class UnknownBenchmark(MpimarkError):
    """A benchmark name the facts do not have."""

    def __init__(self, message: str, name: str | None = None) -> None:
        super().__init__(message)
        self.name = name


class BenchmarkClass(Enum):
    SINGLE = "single transfer"  # two active processes: the PingPong family
    PARALLEL = "parallel transfer"  # every process sends and receives
    MSGRATE = "message rate"  # pairs with a window of messages
    COLLECTIVE = "collective"  # one collective call, timed call by call
    SYNC = "synchronisation"  # no message size


# The facts' class names.
_CLASSES = {"single": BenchmarkClass.SINGLE, "parallel": BenchmarkClass.PARALLEL, "msgrate": BenchmarkClass.MSGRATE,
            "collective": BenchmarkClass.COLLECTIVE, "sync": BenchmarkClass.SYNC}


class Layout(Enum):
    """IMB's column sets (out_format); the member names are the facts' layout names
    in upper case (bench_layout in core/src/report/bench_facts.c)."""

    T_BW = "t, MB/s"  # single transfers; RMA's one-origin patterns on any count
    RANGE_BW = "t_min/t_max/t_avg, MB/s"  # parallel transfers; single transfers in -multi 0
    RANGE = "t_min/t_max/t_avg"  # collectives
    SYNC = "no #bytes, t_min/t_max/t_avg"  # Barrier
    RATE = "MB/s, Msg/sec"  # Uniband, Biband
    OVERLAP = "t_ovrl, t_pure, t_CPU, overlap[%]"  # IMB-NBC, MPI-4 persistent
    OVERLAP_SYNC = "no #bytes, t_ovrl, t_pure, t_CPU, overlap[%]"  # Ibarrier, Barrier_persist
    PURE_OVRL = "t_pure, t_ovrl"  # Truly_passive_put
    P2P = "t, MB/s, Msg/sec"  # IMB-P2P: t is the average latency over the processes
    AVG_RATE = "t_avg, MB/s, Msg/sec"  # IMB-MT's UniBandMT, BiBandMT
    OSU = "OSU's own columns"  # a peer program's table: the facts' `columns` (presentation/osu_text.py)


@dataclass(frozen=True)
class Benchmark:
    name: str
    suite: str
    cls: BenchmarkClass
    layout: Layout  # without -multi 0
    layout_multi0: Layout
    default: bool = True
    reduction: bool = False  # moves -red_data_type (MPI_FLOAT) rather than -data_type (MPI_BYTE)
    bandwidth: bool = False  # the core reports MB/s (a bandwidth factor)
    moves_data: bool = True  # -check verifies it (not Barrier and its nonblocking/persistent forms)
    facts: tuple = ()  # every fact as the core wrote it, as (key, value) pairs
    datatype: str | None = None  # what it moves unless told otherwise, where the facts say (peers: OSU's MPI_CHAR)

    @classmethod
    def from_facts(cls, suite: str, f: dict) -> Benchmark:
        return cls(f["name"], suite, _CLASSES[f["class"]], Layout[f["layout"].upper()],
                   Layout[f["layout_multi0"].upper()], default=f["default"], reduction=f["reduction"],
                   bandwidth=f["bandwidth_factor"] is not None, moves_data=f["checks_data"],
                   facts=tuple((k, v if not isinstance(v, list) else tuple(v)) for k, v in f.items()),
                   datatype=f.get("datatype"))

    def table_layout(self, multi: int | None = None) -> Layout:
        return self.layout_multi0 if multi == 0 else self.layout


@dataclass(frozen=True)
class Suite:
    name: str
    title: str  # "<title> part" in the text header
    needs_mpi: tuple[int, int] | None  # the MPI standard the suite needs, e.g. (4, 0)
    benchmarks: dict[str, Benchmark]
    tool: bool = False  # a stand-alone tool's table (mpibench, b_eff, startup), not an IMB suite word

    @classmethod
    def from_facts(cls, f: dict) -> Suite:
        needs = tuple(int(x) for x in f["needs_mpi"].split(".")[:2]) if f.get("needs_mpi") else None
        return cls(f["name"], f["title"], needs, {b["name"]: Benchmark.from_facts(f["name"], b)
                                                  for b in f["benchmarks"]}, tool=f.get("kind") == "tool")


class Catalog:
    """Suites of facts by name, in the core's order, with a catalog to fall back on."""

    def __init__(self, suites: list[dict], fallback: Callable[[], Catalog] | None = None):
        self.suites: dict[str, Suite] = {s["name"]: Suite.from_facts(s) for s in suites}
        self._fallback = fallback

    def _next(self) -> Catalog | None:
        return self._fallback() if self._fallback else None

    def suite(self, name: str) -> Suite | None:
        found = self.suites.get(name)
        if found is None and self._fallback:
            return self._next().suite(name)
        return found

    def find(self, name: str, suite: str | None = None) -> Benchmark | None:
        """The benchmark of that name in suite; without suite, or for a suite word the
        facts lack (imported:imb, a tool), in the first suite that has it; None if unknown."""
        table = self.suite(suite) if suite else None
        if table is not None:
            return table.benchmarks.get(name)
        for s in self.suites.values():
            if name in s.benchmarks:
                return s.benchmarks[name]
        return self._next().find(name, suite) if self._fallback else None

    def get(self, name: str, suite: str | None = None) -> Benchmark:
        found = self.find(name, suite)
        if found is None:
            known = bool(suite and self.suite(suite))
            where = f"suite {suite}" if known else "any suite of the core"
            listing = f"mpimark list {suite}" if known else "mpimark list"
            raise UnknownBenchmark(f"unknown benchmark {name!r} in {where}: mpimark knows the core's benchmarks "
                                   f"only ('{listing}' shows them)", name)
        return found

    def title(self, suite: str) -> str:
        found = self.suite(suite)
        return found.title if found else suite


# --- the core's facts --------------------------------------------------------------

_loader: Callable[[], list[dict]] | None = None
_core: Catalog | None = None


def use_core_facts(loader: Callable[[], list[dict]] | None) -> None:
    """Install what gives the core's facts (a list of suite objects); called once
    by the command line (execution/core.py asks the built core)."""
    global _loader, _core
    _loader, _core = loader, None


def core_catalog() -> Catalog:
    """The built core's facts (asked once per process)."""
    global _core
    if _core is None:
        if _loader is None:
            raise MpimarkError("no benchmark facts: nothing asks the core for them (use_core_facts)")
        _core = Catalog(_loader(), fallback=peer_catalog)
    return _core


PEERS = ("osu",)  # records/peers/<name>.json


@lru_cache(maxsize=1)
def peer_catalog() -> Catalog:
    """The packaged facts of other tools' programs (OSU's, OMB-Py's): what the core's catalog falls back on."""
    suites = [s for name in PEERS
              for s in json.loads(files("mpimark.records").joinpath(f"peers/{name}.json").read_text("utf-8"))]
    return Catalog(suites)


def catalog(records: list[dict] | None = None) -> Catalog:
    """The facts for these records: their run records' benchmark_facts, then the core's."""
    suites = [r["benchmark_facts"] for r in records or () if r.get("type") == "run" and r.get("benchmark_facts")]
    return Catalog(suites, fallback=core_catalog) if suites else core_catalog()


def lookup(name: str, suite: str | None = None, facts: Catalog | None = None) -> Benchmark:
    """The benchmark, from facts (default: the core's); UnknownBenchmark if no suite has it."""
    return (facts or core_catalog()).get(name, suite)


def benchmark_class(name: str, suite: str | None = None, facts: Catalog | None = None) -> BenchmarkClass:
    return lookup(name, suite, facts).cls


def has_bandwidth(name: str, suite: str | None = None, facts: Catalog | None = None) -> bool:
    return lookup(name, suite, facts).bandwidth


def is_reduction(name: str, suite: str | None = None, facts: Catalog | None = None) -> bool:
    return lookup(name, suite, facts).reduction


def default_datatype(name: str, suite: str | None = None, facts: Catalog | None = None) -> str | None:
    """What the benchmark moves unless told otherwise, where its facts say (OSU's programs: MPI_CHAR);
    None where they do not (the core's), or for a name no suite has."""
    found = (facts or core_catalog()).find(name, suite)
    return found.datatype if found else None


def checks_data(name: str, suite: str | None = None, facts: Catalog | None = None) -> bool:
    """Whether -check can verify this benchmark (Barrier and its forms move no data)."""
    return lookup(name, suite, facts).moves_data


def table_layout(name: str, suite: str | None = None, multi: int | None = None,
                 facts: Catalog | None = None) -> Layout:
    return lookup(name, suite, facts).table_layout(multi)


def suite_names() -> list[str]:
    """The core's IMB suites (the suite words of its command line), in its order."""
    return [name for name, suite in core_catalog().suites.items() if not suite.tool]
