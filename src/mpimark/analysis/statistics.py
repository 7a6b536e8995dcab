"""Statistics of samples and the comparison of two runs (reference/method.md §4.4, §6, §8.2).

Pure functions on numbers and records: no I/O, no printing. The median's
interval ranks are computed as the core computes them; the exact
Mann-Whitney p uses integer counts, so it does not depend on rounding.

compare() follows benchstat: per matched row the medians, their ratio, a
two-sided Mann-Whitney U test, "~" when the difference is not significant,
and a geometric mean of the ratios as the table summary.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from mpimark.records.figures import Key, key, time_usec

# The smallest sample on each side for which compare() gives a verdict: with
# 3 per side the smallest two-sided p a rank test can give is 2/C(6,3) = 0.1,
# so nothing could ever be significant at 0.05 (method.md §4.4).
MIN_SAMPLES = 4
INSUFFICIENT = "insufficient samples"
# scipy.stats.mannwhitneyu's 'auto' rule: exact below this size on one side.
EXACT_MAX_SIZE = 8


# -- median and its confidence interval ----------------------------------------


def median(samples: Sequence[float]) -> float:
    """The sample median; the mean of the two middle values for even n (as the core)."""
    if not samples:
        raise ValueError("median of no samples")
    return statistics.median(samples)


@dataclass(frozen=True)
class MedianCI:
    low_rank: int  # 1-based order statistics x_(l) <= median <= x_(u)
    high_rank: int
    coverage: float  # actual coverage, at least the level asked for
    low: float | None = None  # the values, when computed from samples
    high: float | None = None


def median_ci_ranks(n: int, level: float = 0.95) -> MedianCI | None:
    """The exact symmetric binomial interval of the median (method.md §4.4), as the core computes it.

    l is the largest rank with P(Bin(n, 1/2) <= l-1) <= (1-level)/2, u = n-l+1.
    None when n is too small for any interval at this level (n < 6 at 95 %).
    """
    if not 0 < level < 1:
        raise ValueError(f"confidence level must be between 0 and 1, not {level}")
    # A port of median_ci_ranks in core/src/util/stats.c, step for step, so the
    # front end and the core pick the same ranks: the pmf of Bin(n, 1/2) in log
    # space (exact integers would cost O(n^2) digits for large n), accumulated
    # upwards; the 1e-12 slack keeps an exact tie with the tail on the inside.
    tail = (1.0 - level) / 2.0
    log_norm = math.lgamma(n + 1.0) - n * math.log(2.0)
    cdf, best, best_cdf = 0.0, 0, 0.0
    for k in range(1, n // 2 + 1):
        cdf += math.exp(log_norm - math.lgamma(k) - math.lgamma(n - k + 2.0))  # pmf at k-1
        if cdf > tail * (1.0 + 1e-12):
            break
        best, best_cdf = k, cdf
    if best == 0:
        return None
    return MedianCI(best, n - best + 1, 1.0 - 2.0 * best_cdf)


def median_ci(samples: Sequence[float], level: float = 0.95) -> MedianCI | None:
    ranks = median_ci_ranks(len(samples), level)
    if ranks is None:
        return None
    ordered = sorted(samples)
    return MedianCI(ranks.low_rank, ranks.high_rank, ranks.coverage,
                    ordered[ranks.low_rank - 1], ordered[ranks.high_rank - 1])


# -- Mann-Whitney U -------------------------------------------------------------


@dataclass(frozen=True)
class MannWhitney:
    u_a: float  # U of the first sample: pairs (x in a, y in b) with x > y, ties count 1/2
    u_b: float
    p_value: float  # two-sided
    method: str  # "exact" or "asymptotic"


def _midranks(values: list[float]) -> tuple[list[float], list[int]]:
    """Ranks 1..n of values, tied values sharing their mean rank; and the sizes of the tie groups."""
    order = sorted(range(len(values)), key=values.__getitem__)
    ranks = [0.0] * len(values)
    ties = []
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        for position in range(start, end + 1):
            ranks[order[position]] = (start + end) / 2 + 1
        ties.append(end - start + 1)
        start = end + 1
    return ranks, ties


def _u_distribution(m: int, n: int) -> list[int]:
    """Number of arrangements giving U = 0..m*n for samples of sizes m and n, without ties.

    The counts are the coefficients of the Gaussian binomial [m+n choose m]_q =
    prod_{i=1..m} (1 - q^(n+i)) / (1 - q^i); O(m^2 n) integer steps, with m the smaller size.
    """
    m, n = sorted((m, n))
    poly = [1] + [0] * (m * n)
    for i in range(1, m + 1):
        for k in range(len(poly) - 1, n + i - 1, -1):  # times (1 - q^(n+i))
            poly[k] -= poly[k - n - i]
        for k in range(i, len(poly)):  # divided by (1 - q^i): a running sum with stride i
            poly[k] += poly[k - i]
    return poly


def _normal_sf(z: float) -> float:
    return 0.5 * math.erfc(z / math.sqrt(2))


def mann_whitney_u(a: Sequence[float], b: Sequence[float], method: str = "auto") -> MannWhitney:
    """Two-sided Mann-Whitney U test, as scipy.stats.mannwhitneyu(a, b) computes it.

    method "auto": exact when one sample has at most 8 values and there are
    no ties, else the normal approximation with tie and continuity correction.
    """
    n_a, n_b = len(a), len(b)
    if not n_a or not n_b:
        raise ValueError("Mann-Whitney U needs at least one value on each side")
    ranks, ties = _midranks([*a, *b])
    u_a = sum(ranks[:n_a]) - n_a * (n_a + 1) / 2
    u_b = n_a * n_b - u_a
    tied = any(t > 1 for t in ties)
    if method == "auto":
        method = "exact" if min(n_a, n_b) <= EXACT_MAX_SIZE and not tied else "asymptotic"
    if method == "exact":
        counts = _u_distribution(n_a, n_b)
        # The null distribution is symmetric: P(U >= max) = P(U <= min).
        tail = sum(counts[: int(min(u_a, u_b)) + 1])
        p = min(1.0, float(Fraction(2 * tail, sum(counts))))
    elif method == "asymptotic":
        n = n_a + n_b
        tie_term = sum(t**3 - t for t in ties) / (n * (n - 1)) if n > 1 else 0.0
        variance = n_a * n_b / 12 * ((n + 1) - tie_term)
        if variance <= 0:  # every value equal: no evidence of any difference
            p = 1.0
        else:
            z = (max(u_a, u_b) - n_a * n_b / 2 - 0.5) / math.sqrt(variance)
            p = min(1.0, 2 * _normal_sf(z))
    else:
        raise ValueError(f"method must be auto, exact or asymptotic, not {method!r}")
    return MannWhitney(u_a, u_b, p, method)


def smallest_p(n_a: int, n_b: int) -> float:
    """The smallest two-sided p a rank test can reach with these sample sizes: 2 / C(n_a+n_b, n_a)."""
    return min(1.0, 2 / math.comb(n_a + n_b, n_a))


# -- ratios -------------------------------------------------------------------


def ratio_of_medians(a: Sequence[float], b: Sequence[float]) -> float:
    """median(b) / median(a): above 1 when B takes longer."""
    return median(b) / median(a)


def geomean(values: Iterable[float]) -> float:
    """Geometric mean of positive values (the only honest mean of ratios; Hoefler & Belli rule 4)."""
    values = list(values)
    if not values or any(v <= 0 for v in values):
        raise ValueError("the geometric mean needs positive values")
    return math.exp(math.fsum(math.log(v) for v in values) / len(values))


# -- comparing two runs ---------------------------------------------------------


@dataclass(frozen=True)
class ComparisonRow:
    key: Key
    median_a_usec: float
    median_b_usec: float
    n_a: int  # samples behind each median (0: an imported figure, no samples)
    n_b: int
    ratio: float | None  # B/A; None when A's median is 0
    p_value: float | None  # None when there were too few samples to test
    significant: bool
    note: str | None  # why there is no verdict ("insufficient samples")

    @property
    def marker(self) -> str:
        """benchstat's mark: "~" when no difference was shown."""
        return "" if self.significant else "~"


@dataclass(frozen=True)
class Comparison:
    rows: list[ComparisonRow]
    alpha: float
    geomean_a_usec: float | None  # over the rows with positive medians on both sides
    geomean_b_usec: float | None
    geomean_ratio: float | None
    only_a: int  # measured rows without a partner
    only_b: int
    warnings: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class _Side:
    median_usec: float
    samples_usec: list[float]  # what the test ranks; empty when only a figure is known
    suite: str


def _samples_usec(record: dict) -> list[float]:
    return [s / 1000 for s in record.get("samples_ns") or []]


def _sides(runs: list[list[dict]], by_launch: set[Key]) -> dict[Key, _Side]:
    """Per key: the samples of one launch, or one median per launch for keys in by_launch."""
    found: dict[Key, list[dict]] = {}
    for records in runs:
        seen: set[Key] = set()
        for record in records:
            if record.get("type") == "result" and time_usec(record) is not None:
                k = key(record)
                if k not in seen:  # a run has one row per key; a repeat would count twice
                    seen.add(k)
                    found.setdefault(k, []).append(record)
    sides = {}
    for k, records in found.items():
        if k in by_launch:
            # Launches are the experimental unit (method.md §4.4, the iid caveat):
            # batches within one launch do not show launch-to-launch variation.
            samples = [median(_samples_usec(r)) if _samples_usec(r) else time_usec(r) for r in records]
        else:
            samples = _samples_usec(records[0])
        value = median(samples) if samples else time_usec(records[0])
        sides[k] = _Side(value, samples, records[0].get("suite", ""))
    return sides


def _launch_keys(runs: list[list[dict]]) -> set[Key]:
    counts: dict[Key, int] = {}
    for records in runs:
        for k in {key(r) for r in records if r.get("type") == "result" and time_usec(r) is not None}:
            counts[k] = counts.get(k, 0) + 1
    return {k for k, c in counts.items() if c > 1}


def _row(k: Key, a: _Side, b: _Side, alpha: float) -> ComparisonRow:
    n_a, n_b = len(a.samples_usec), len(b.samples_usec)
    ratio = b.median_usec / a.median_usec if a.median_usec > 0 else None
    if min(n_a, n_b) < MIN_SAMPLES or smallest_p(n_a, n_b) > alpha:
        return ComparisonRow(k, a.median_usec, b.median_usec, n_a, n_b, ratio, None, False, INSUFFICIENT)
    p = mann_whitney_u(a.samples_usec, b.samples_usec).p_value
    return ComparisonRow(k, a.median_usec, b.median_usec, n_a, n_b, ratio, p, p <= alpha, None)


def compare_launches(a_runs: list[list[dict]], b_runs: list[list[dict]], alpha: float = 0.05) -> Comparison:
    """Compare the runs of A with the runs of B, row by row (see compare).

    Where a side has one launch for a key, the test ranks that launch's
    samples; where either side has several, both sides use one median per
    launch, so that A and B are always measured in the same unit.
    """
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be between 0 and 1, not {alpha}")
    by_launch = _launch_keys(a_runs) | _launch_keys(b_runs)
    side_a, side_b = _sides(a_runs, by_launch), _sides(b_runs, by_launch)
    rows = [_row(k, side_a[k], side_b[k], alpha) for k in side_a if k in side_b]
    rows.sort(key=lambda r: (r.key.benchmark, r.key.mode, r.key.processes,
                             -1 if r.key.group is None else r.key.group, r.key.bytes))
    positive = [r for r in rows if r.median_a_usec > 0 and r.median_b_usec > 0]
    warnings = sorted({f"{k.benchmark}: A's rows come from suite {side_a[k].suite!r}, B's from "
                       f"{side_b[k].suite!r}; their definitions may differ"
                       for k in side_a if k in side_b and side_a[k].suite != side_b[k].suite})
    return Comparison(
        rows=rows,
        alpha=alpha,
        geomean_a_usec=geomean(r.median_a_usec for r in positive) if positive else None,
        geomean_b_usec=geomean(r.median_b_usec for r in positive) if positive else None,
        geomean_ratio=geomean(r.median_b_usec / r.median_a_usec for r in positive) if positive else None,
        only_a=sum(1 for k in side_a if k not in side_b),
        only_b=sum(1 for k in side_b if k not in side_a),
        warnings=warnings,
    )


def compare(a_records: list[dict], b_records: list[dict], alpha: float = 0.05) -> Comparison:
    """Compare run B with run A: rows keyed by (benchmark, processes, mode, group, bytes).

    Each row has both medians (of the result's samples_ns, in usec), B/A, the
    two-sided Mann-Whitney p and whether p <= alpha. Fewer than MIN_SAMPLES
    samples on a side give no verdict ("~", "insufficient samples"); rows
    without samples (imported runs) fall back to the run's reported figure.
    """
    return compare_launches([a_records], [b_records], alpha)
