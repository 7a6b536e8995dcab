"""The seed studies' analyses of stored runs (reference/method.md; the RIKEN and Aramco studies).

Pure functions on result records: the consistency check "Allreduce ≈ Reduce
+ Bcast", a ranking of implementations per benchmark and size range with
the significance of the leader's lead, and Alltoall throughput.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable
from dataclasses import dataclass

from mpimark.analysis.launches import FASTER, SLOWER, compare_launches
from mpimark.analysis.statistics import DEFAULT_CORRECTION, geomean
from mpimark.records.figures import Key, key, time_usec

# Size ranges of the ranking: small messages (latency-bound), medium, large (bandwidth-bound).
SIZE_RANGES = (("0 B - 1 KiB", 0, 1024), ("1 KiB - 64 KiB", 1025, 65536), ("over 64 KiB", 65537, 1 << 62))


def _medians(runs: Iterable[Iterable[dict]]) -> dict[Key, float]:
    """Per plain row (no multi mode, group or waiting), the median over runs of each run's time."""
    found: dict[Key, list[float]] = {}
    for records in runs:
        for record in records:
            if record.get("type") != "result" or record.get("multi") is not None or record.get("group") is not None:
                continue
            value = time_usec(record)
            k = key(record)
            if value is not None and k.mode == "":
                found.setdefault(k, []).append(value)
    return {k: statistics.median(v) for k, v in found.items()}


# -- Allreduce ≈ Reduce + Bcast ---------------------------------------------------


@dataclass(frozen=True)
class Consistency:
    processes: int
    bytes: int
    allreduce_usec: float
    reduce_usec: float
    bcast_usec: float

    @property
    def ratio(self) -> float:
        """Allreduce / (Reduce + Bcast): above 1, the library's Allreduce is slower than composing it."""
        return self.allreduce_usec / (self.reduce_usec + self.bcast_usec)


def allreduce_consistency(runs: Iterable[Iterable[dict]]) -> list[Consistency]:
    """Per process count and size where one implementation measured all three: the three medians."""
    medians = _medians(runs)
    out = []
    for k, allreduce in medians.items():
        if k.benchmark != "Allreduce":
            continue
        reduce = medians.get(k._replace(benchmark="Reduce"))
        bcast = medians.get(k._replace(benchmark="Bcast"))
        if reduce is not None and bcast is not None and reduce + bcast > 0:
            out.append(Consistency(k.processes, k.bytes, allreduce, reduce, bcast))
    return sorted(out, key=lambda c: (c.processes, c.bytes))


# -- ranking --------------------------------------------------------------------------


@dataclass(frozen=True)
class Ranking:
    benchmark: str
    processes: int
    size_range: str
    rows: int  # rows (sizes) every implementation measured in this range
    order: list[tuple[str, float]]  # (implementation, its geomean time over the best's), best first
    lead_significant: int  # rows where the first is significantly faster than the second (corrected)
    lead_reversed: int  # rows where the second is significantly faster than the first
    tested: int  # rows the first and second could be tested on


def rank(sides: dict[str, list[list[dict]]], correction: str = DEFAULT_CORRECTION,
         ranges: tuple = SIZE_RANGES) -> list[Ranking]:
    """Per benchmark, process count and size range: the implementations by the geometric mean of their median
    times over the sizes all of them measured (0-byte rows of collectives included only for Barrier-like
    benchmarks, which have no other size), and how often the first beats the second significantly."""
    if len(sides) < 2:
        return []
    medians = {label: _medians(runs) for label, runs in sides.items()}
    common = set.intersection(*(set(m) for m in medians.values()))
    out = []
    groups = sorted({(k.benchmark, k.processes) for k in common})
    for benchmark, processes in groups:
        here = [k for k in common if k.benchmark == benchmark and k.processes == processes]
        if any(k.bytes for k in here):
            here = [k for k in here if k.bytes > 0]  # a 0-byte collective moves nothing
        for name, low, high in ranges:
            keys = [k for k in here if low <= k.bytes <= high] if any(k.bytes for k in here) else \
                (here if name == ranges[0][0] else [])
            keys = [k for k in keys if all(medians[label][k] > 0 for label in sides)]
            if not keys:
                continue
            means = {label: geomean(medians[label][k] for k in keys) for label in sides}
            order = sorted(means, key=means.__getitem__)
            best = means[order[0]]
            chosen = set(keys)
            first, second = ([[r for r in run if r.get("type") != "result" or key(r) in chosen]
                              for run in sides[label]] for label in order[:2])
            compared = compare_launches(first, second, correction=correction)
            out.append(Ranking(benchmark, processes, name, len(keys), [(label, means[label] / best) for label in order],
                               sum(1 for r in compared.rows if r.marker == SLOWER),
                               sum(1 for r in compared.rows if r.marker == FASTER),
                               compared.tested))
    return out


# -- Alltoall throughput (RIKEN) ---------------------------------------------------------


def alltoall_throughput_mbs(record: dict) -> float | None:
    """RIKEN's Alltoall throughput: size × processes / time, in MB/s (10^6 bytes/s)."""
    time = time_usec(record)
    if not time or record.get("bytes") is None:
        return None
    return record["bytes"] * record["processes"] / time
