"""The seed studies' analyses of stored runs (reference/method.md; the RIKEN and Aramco studies).

Pure functions on result records: the consistency check "Allreduce ≈ Reduce
+ Bcast", a ranking of implementations per benchmark and size range, and
Alltoall throughput. Both the check and the ranking decide on launches
(docs/analysis.md, "The model"): a run is one launch, the samples inside it
describe that launch only, and a difference is called only where its
interval over launches excludes 1.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import combinations

from mpimark.analysis import geomeans
from mpimark.analysis.geomeans import Geomean, Stratum
from mpimark.analysis.launches import ComparisonRow, compare_launches, geomean_of
from mpimark.records.figures import Key, key, time_usec

# Size ranges of the ranking: small messages (latency-bound), medium, large (bandwidth-bound).
SIZE_RANGES = (("0 B - 1 KiB", 0, 1024), ("1 KiB - 64 KiB", 1025, 65536), ("over 64 KiB", 65537, 1 << 62))
LEVEL = 0.95  # each interval's level: a ranking's step, a consistency point


def _plain(record: dict) -> bool:
    """A row of its own job size without a mode, a group or waiting ranks: what the seeds compare."""
    return (record.get("type") == "result" and record.get("multi") is None and record.get("group") is None
            and key(record).mode == "")


# -- Allreduce ≈ Reduce + Bcast ---------------------------------------------------


@dataclass(frozen=True)
class Consistency:
    processes: int
    bytes: int
    allreduce_usec: float  # the median over launches of each launch's time
    reduce_usec: float
    bcast_usec: float
    estimate: Geomean  # Allreduce / (Reduce + Bcast) over the launches that measured all three

    @property
    def ratio(self) -> float:
        """Allreduce / (Reduce + Bcast): above 1, the library's Allreduce is slower than composing it."""
        return self.estimate.ratio

    @property
    def verdict(self) -> int:
        """1: Allreduce decided slower than Reduce + Bcast; -1: decided faster; 0: undecided."""
        return self.estimate.side()


def _paired(scope: str, ratios: list[float]) -> Geomean:
    """The geometric mean of per-launch ratios with its t interval over the launches: the three
    benchmarks of a launch share its level, so each launch's ratio is one paired observation (a side of
    zeros with no spread leaves geomean()'s Welch interval the one-sample t interval of the log ratios)."""
    logs = tuple(math.log(r) for r in ratios)
    return geomeans.geomean(scope, [Stratum(1, (0.0,) * len(logs), logs)], LEVEL)


def allreduce_consistency(runs: Iterable[Iterable[dict]]) -> list[Consistency]:
    """Per process count and size where launches measured all three: each launch's Allreduce / (Reduce +
    Bcast), their geometric mean with its interval over those launches, and the three medians."""
    per_launch: dict[Key, list[tuple[float, float, float]]] = {}
    for records in runs:
        times: dict[Key, float] = {}
        for record in records:
            value = time_usec(record) if _plain(record) else None
            if value is not None:
                times.setdefault(key(record), value)
        for k, allreduce in times.items():
            if k.benchmark != "Allreduce":
                continue
            reduce, bcast = times.get(k._replace(benchmark="Reduce")), times.get(k._replace(benchmark="Bcast"))
            if reduce is not None and bcast is not None and allreduce > 0 and reduce + bcast > 0:
                per_launch.setdefault(k, []).append((allreduce, reduce, bcast))
    out = []
    for k, launches in per_launch.items():
        allreduce, reduce, bcast = (statistics.median(t[i] for t in launches) for i in range(3))
        estimate = _paired(f"Allreduce {k.processes} {k.bytes}", [a / (r + b) for a, r, b in launches])
        out.append(Consistency(k.processes, k.bytes, allreduce, reduce, bcast, estimate))
    return sorted(out, key=lambda c: (c.processes, c.bytes))


# -- ranking --------------------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    """Two neighbours of a ranking: `slower`/`faster`'s geometric-mean time ratio over the range's rows,
    with its interval over launches."""
    faster: str
    slower: str
    estimate: Geomean
    launches_needed: int | None  # a side, to likely decide an undecided step; None: unknown (one launch a side)

    @property
    def decided(self) -> bool:
        return self.estimate.side() == 1


@dataclass(frozen=True)
class Ranking:
    benchmark: str
    processes: int
    size_range: str
    rows: int  # rows (sizes) every implementation measured in this range
    order: list[tuple[str, float]]  # (implementation, its geomean time over the fastest's), fastest first
    steps: list[Step]  # each neighbour against the one before it, in order
    launches: dict[str, tuple[int, ...]]  # per implementation the positions of its runs behind the ranking


def _group(k: Key, ranges: tuple) -> tuple[str, int, str] | None:
    name = next((name for name, low, high in ranges if low <= k.bytes <= high), None)
    return None if name is None else (k.benchmark, k.processes, name)


def _groups(rows: list[ComparisonRow], ranges: tuple) -> dict[tuple[str, int, str], list[ComparisonRow]]:
    """A comparison's rows per (benchmark, processes, size range): rows that carry data (a 0-byte collective
    moves nothing, a row at 0 usec has no ratio), a Barrier-like benchmark's 0-byte rows in the first range."""
    found: dict[tuple[str, int, str], list[ComparisonRow]] = {}
    for row in rows:
        where = _group(row.key, ranges) if row.carries_data else None
        if where is not None:
            found.setdefault(where, []).append(row)
    return found


def rank(sides: dict[str, list[list[dict]]], ranges: tuple = SIZE_RANGES) -> list[Ranking]:
    """Per benchmark, process count and size range: the implementations by the geometric mean of their launch
    values over the sizes all of them measured, each against the one before it with its interval over
    launches. Each pair of implementations is compared once (compare_launches over their plain rows); a
    range's estimate is the geomean of that comparison's rows in the range."""
    labels = list(sides)
    if len(labels) < 2:
        return []
    by_pair = {(a, b): _groups(compare_launches(([r for r in run if _plain(r)] for run in sides[a]),
                                                ([r for r in run if _plain(r)] for run in sides[b])).rows, ranges)
               for a, b in combinations(labels, 2)}
    out = []
    position = {name: i for i, (name, _, _) in enumerate(ranges)}
    for where in sorted(set.intersection(*(set(groups) for groups in by_pair.values())),
                        key=lambda w: (w[0], w[1], position[w[2]])):
        common = set.intersection(*({r.key for r in groups[where]} for groups in by_pair.values()))
        if not common:
            continue
        rows = {pair: [r for r in groups[where] if r.key in common] for pair, groups in by_pair.items()}
        scope = " ".join(map(str, where))

        def against(a: str, b: str) -> Geomean:
            """b/a over the range's common rows."""
            return geomean_of(scope, rows[a, b], LEVEL) if (a, b) in rows else geomean_of(scope, rows[b, a], LEVEL).inverse()

        relative = {label: 1.0 if label == labels[0] else against(labels[0], label).ratio for label in labels}
        order = sorted(labels, key=relative.__getitem__)
        steps = []
        for faster, slower in zip(order, order[1:]):
            estimate = against(faster, slower)
            needed = None if estimate.side() else geomeans.launches_needed(estimate, 0.0, LEVEL)
            steps.append(Step(faster, slower, estimate, needed))
        launches = {}
        for (a, b), found in rows.items():
            launches.setdefault(a, set()).update(i for r in found for i in r.launches_a)
            launches.setdefault(b, set()).update(i for r in found for i in r.launches_b)
        out.append(Ranking(*where, len(common), [(label, relative[label] / relative[order[0]]) for label in order],
                           steps, {label: tuple(sorted(ids)) for label, ids in launches.items()}))
    return out


# -- Alltoall throughput (RIKEN) ---------------------------------------------------------


def alltoall_throughput_mbs(record: dict) -> float | None:
    """RIKEN's Alltoall throughput: size × processes / time, in MB/s (10^6 bytes/s)."""
    time = time_usec(record)
    if not time or record.get("bytes") is None:
        return None
    return record["bytes"] * record["processes"] / time
