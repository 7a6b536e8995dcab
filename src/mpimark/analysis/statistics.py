"""Statistics of numbers (reference/method.md §4.4, §6, §8.2): the median and its exact interval, the
Mann-Whitney U test, the Hodges-Lehmann shift, corrections for many tests, the geometric mean.

Pure functions on numbers: no I/O, no printing. The median's interval ranks
are computed as the core computes them; the exact Mann-Whitney p uses
integer counts, so it does not depend on rounding. What they are applied to
(launches, never the samples of one launch, where two conditions are
compared) is analysis/launches.py's business.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # numpy is imported where it is used: it is a quarter of every mpimark command's start-up
    import numpy

# The fewest values (launches) on each side for which a test gives a verdict: with
# 3 per side the smallest two-sided p a rank test can give is 2/C(6,3) = 0.1,
# so nothing could ever be significant at 0.05 (method.md §4.4).
MIN_SAMPLES = 4
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


def min_launches(alpha: float = 0.05) -> int:
    """Launches per side a launch-level test needs (one median each) before any p <= alpha is possible."""
    n = MIN_SAMPLES
    while smallest_p(n, n) > alpha:
        n += 1
    return n


# -- Hodges-Lehmann shift ---------------------------------------------------------


@dataclass(frozen=True)
class Shift:
    estimate: float  # median of all differences y - x (y in b, x in a): above 0 when B takes longer
    low: float | None  # its confidence interval (the Mann-Whitney inversion); None when too few samples
    high: float | None
    level: float


# Above this many pairs the k-th difference is found by bisection on the value, not by sorting them all.
_PAIRS_IN_MEMORY = 4_000_000


def _kth_difference(a: numpy.ndarray, b: numpy.ndarray, k: int) -> float:
    """The k-th smallest (1-based) of the differences y - x, x in sorted a, y in sorted b."""
    import numpy
    if len(a) * len(b) <= _PAIRS_IN_MEMORY:
        differences = numpy.subtract.outer(b, a).ravel()
        return float(numpy.partition(differences, k - 1)[k - 1])
    low, high = float(b[0] - a[-1]), float(b[-1] - a[0])
    for _ in range(200):  # count(d) = #{y - x <= d}, monotone in d
        middle = (low + high) / 2
        if middle in (low, high):
            break
        if int(numpy.searchsorted(b, a + middle, side="right").sum()) >= k:
            high = middle
        else:
            low = middle
    return high


def _u_critical(m: int, n: int, level: float) -> int:
    """The largest k >= 1 with P(U <= k-1) <= (1-level)/2 under no difference; 0 when there is none."""
    tail = (1.0 - level) / 2.0
    if min(m, n) <= EXACT_MAX_SIZE and m * n <= 10_000:
        counts = _u_distribution(m, n)
        total, cumulative, k = sum(counts), 0, 0
        for u, count in enumerate(counts):
            cumulative += count
            if Fraction(cumulative, total) > tail:
                break
            k = u + 1
        return k
    z = statistics.NormalDist().inv_cdf(1.0 - tail)
    k = math.floor(m * n / 2 - z * math.sqrt(m * n * (m + n + 1) / 12))
    return max(k, 0)


def hodges_lehmann(a: Sequence[float], b: Sequence[float], level: float = 0.95) -> Shift:
    """The Hodges-Lehmann estimate of the shift from a to b and its distribution-free interval.

    The estimate is the median of the m*n differences y - x; the interval runs
    from the k-th smallest to the k-th largest difference, k the Mann-Whitney
    critical value (exact for small samples, else the normal approximation), as
    R's wilcox.test(conf.int=TRUE) computes it without ties.
    """
    if not a or not b:
        raise ValueError("the Hodges-Lehmann shift needs at least one value on each side")
    import numpy

    x, y = numpy.sort(numpy.asarray(a, dtype=float)), numpy.sort(numpy.asarray(b, dtype=float))
    pairs = len(x) * len(y)
    middle = (pairs + 1) // 2
    estimate = _kth_difference(x, y, middle)
    if pairs % 2 == 0:
        estimate = (estimate + _kth_difference(x, y, middle + 1)) / 2
    k = _u_critical(len(x), len(y), level)
    if k < 1:
        return Shift(estimate, None, None, level)
    return Shift(estimate, _kth_difference(x, y, k), _kth_difference(x, y, pairs - k + 1), level)


# -- many rows, many tests ----------------------------------------------------------

CORRECTIONS = ("holm", "bh", "none")
# compare and report describe many correlated rows (sizes, benchmarks, counts) from few launches: their row
# verdicts control the false discovery rate (docs/analysis.md, "Which correction"). The regression gate decides
# on geomeans with simultaneous intervals (analysis/gate.py), not on row tests.
DEFAULT_CORRECTION = "bh"
CORRECTION_NAMES = {"holm": "Holm (family-wise error rate)", "bh": "Benjamini-Hochberg (false discovery rate)",
                    "none": "none"}


def adjust_p(p_values: Sequence[float], method: str = "holm") -> list[float]:
    """p values adjusted for testing them all: Holm's step-down or Benjamini-Hochberg's step-up.

    Compare the adjusted values with alpha as usual (R's p.adjust, methods "holm", "BH", "none").
    """
    n = len(p_values)
    if method == "none" or n == 0:
        return list(p_values)
    order = sorted(range(n), key=p_values.__getitem__)
    adjusted = [0.0] * n
    if method == "holm":
        running = 0.0
        for position, index in enumerate(order):
            running = max(running, min(1.0, (n - position) * p_values[index]))
            adjusted[index] = running
    elif method == "bh":
        running = 1.0
        for position in range(n - 1, -1, -1):
            index = order[position]
            running = min(running, n * p_values[index] / (position + 1))
            adjusted[index] = min(1.0, running)
    else:
        raise ValueError(f"correction must be one of {', '.join(CORRECTIONS)}, not {method!r}")
    return adjusted


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


