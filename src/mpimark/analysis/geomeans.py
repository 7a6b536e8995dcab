"""The geometric-mean ratio of a set of rows with its interval over launches (docs/analysis.md, "The model").

A launch (one mpiexec/srun invocation) is the unit of replication. Every row
a launch measured shares that launch's level (its placement, its pages, its
clock, its noise), so the rows of one launch are not independent evidence,
and the samples inside a launch say nothing about the next launch. What is
independent is the launches themselves.

The set's log ratio is the mean over its rows of (mean over B's launches of
log t − the same over A's). Rows measured by the same launches form a
*stratum*: in it, each launch is summarised by the mean log time of its rows,
and the difference of the two sides' mean summaries has the Welch variance
s_A²/n_A + s_B²/n_B. Strata (a study's 2-rank launches and its 4-rank ones;
the sizes a launch timed out before) are independent: their variances add
with the strata's weights, and the degrees of freedom are Welch-Satterthwaite's.
The interval is a t interval on that: exact for normal launch summaries, and
each summary is a mean over many rows' logs. Why not a percentile bootstrap
over launches: with 5 launches a side it covered 88 % where it claimed 95 %,
this t interval 96 % (benchmarks/launch_calibration.py; the coverage test is
tests/unit/test_launch_calibration.py).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

# Launches a side beyond which launches_needed stops counting: the difference sits on the threshold.
MAX_LAUNCHES_NEEDED = 1000
# The chance that the projected number of launches decides (the power of the projection).
DECIDE_POWER = 0.8


@dataclass(frozen=True)
class Stratum:
    """Rows measured by the same launches: per launch, the mean of the log times of the stratum's rows."""
    rows: int
    logs_a: tuple[float, ...]  # one per launch of A
    logs_b: tuple[float, ...]


@dataclass(frozen=True)
class Geomean:
    """B/A over a set of rows (the whole table, or one benchmark), with its interval over launches."""
    scope: str  # "all rows", or the benchmark's name
    rows: int
    launches_a: int  # the fewest launches of any of its strata, per side
    launches_b: int
    ratio: float  # exp(weighted mean over strata of mean(logs_b) - mean(logs_a))
    low: float | None  # the interval at `level`; None when no stratum's launches show a spread
    high: float | None
    level: float
    log_se: float | None  # standard error of log(ratio), from the launches' spread
    df: float | None  # its Welch-Satterthwaite degrees of freedom
    spread: float | None  # launch-to-launch standard deviation of a launch's mean log time (pooled)

    def side(self, limit: float = 1.0) -> int:
        """Where the interval lies: 1 above limit, -1 below it, 0 across it or without an interval."""
        if self.low is not None and self.low > limit:
            return 1
        if self.high is not None and self.high < limit:
            return -1
        return 0

    def inverse(self) -> Geomean:
        """A/B from B/A: the log ratio changes sign, its standard error stays, the interval mirrors."""
        return Geomean(self.scope, self.rows, self.launches_b, self.launches_a, 1 / self.ratio,
                       None if self.high is None else 1 / self.high, None if self.low is None else 1 / self.low,
                       self.level, self.log_se, self.df, self.spread)

    def at(self, level: float) -> Geomean:
        """The same estimate with its interval at another level (the gate's simultaneous intervals)."""
        low, high = _interval(math.log(self.ratio), self.log_se, self.df, level)
        return Geomean(self.scope, self.rows, self.launches_a, self.launches_b, self.ratio, low, high, level,
                       self.log_se, self.df, self.spread)


def _t_quantile(p: float, df: float) -> float:
    from scipy.special import stdtrit  # a third of a second to import: only where an interval is computed

    return float(stdtrit(df, p))


def _interval(log_ratio: float, se: float | None, df: float | None, level: float) -> tuple[float | None, float | None]:
    if se is None or df is None:
        return None, None
    if se == 0:
        return math.exp(log_ratio), math.exp(log_ratio)
    half = _t_quantile(1 - (1 - level) / 2, df) * se
    return math.exp(log_ratio - half), math.exp(log_ratio + half)


def _mean(values: Sequence[float]) -> float:
    return math.fsum(values) / len(values)


def _variance(values: Sequence[float]) -> float:
    m = _mean(values)
    return math.fsum((v - m) ** 2 for v in values) / (len(values) - 1)


def _components(stratum: Stratum) -> list[tuple[float, int]] | None:
    """The stratum's Welch variance terms (s²/n, n-1), one per side; None when neither side has 2 launches.

    A side of one launch (an imported log against five launches) borrows the other side's spread: the
    launches of one machine vary alike whatever library ran, an assumption the docs state.
    """
    a, b = stratum.logs_a, stratum.logs_b
    if len(a) < 2 and len(b) < 2:
        return None
    if len(a) >= 2 and len(b) >= 2:
        return [(_variance(a) / len(a), len(a) - 1), (_variance(b) / len(b), len(b) - 1)]
    many = a if len(a) >= 2 else b
    return [(_variance(many) * (1 / len(a) + 1 / len(b)), len(many) - 1)]


def geomean(scope: str, strata: Sequence[Stratum], level: float = 0.95) -> Geomean:
    """The geometric-mean ratio B/A over the strata's rows and its t interval over launches."""
    rows = sum(s.rows for s in strata)
    if not rows:
        raise ValueError("a geometric mean needs rows")
    log_ratio, variance, df_terms, pooled, pooled_df, known = 0.0, 0.0, 0.0, 0.0, 0, True
    for s in strata:
        weight = s.rows / rows
        log_ratio += weight * (_mean(s.logs_b) - _mean(s.logs_a))
        terms = _components(s)
        if terms is None:
            known = False
            continue
        for term, df in terms:
            variance += weight ** 2 * term
            df_terms += (weight ** 2 * term) ** 2 / df
        for side in (s.logs_a, s.logs_b):
            if len(side) >= 2:
                pooled += _variance(side) * (len(side) - 1)
                pooled_df += len(side) - 1
    se = math.sqrt(variance) if known else None
    df = (variance ** 2 / df_terms if df_terms > 0 else float(pooled_df or 1)) if known else None
    low, high = _interval(log_ratio, se, df, level)
    return Geomean(scope, rows, min(len(s.logs_a) for s in strata), min(len(s.logs_b) for s in strata),
                   math.exp(log_ratio), low, high, level, se, df,
                   math.sqrt(pooled / pooled_df) if pooled_df else None)


def launches_needed(estimate: Geomean, threshold: float, level: float) -> int | None:
    """Launches a side that would likely (DECIDE_POWER) put the interval on one side of 1 + threshold.

    From the observed launch-to-launch spread: the standard error shrinks as 1/sqrt(launches). None
    when the spread is unknown (one launch a side); MAX_LAUNCHES_NEEDED + 1 when the estimate sits on
    the threshold so that no sane number would decide.
    """
    if estimate.log_se is None or estimate.df is None:
        return None
    distance = abs(math.log(estimate.ratio) - math.log1p(threshold))
    have = max(1, min(estimate.launches_a, estimate.launches_b))
    if estimate.log_se == 0:
        return have
    if distance == 0:
        return MAX_LAUNCHES_NEEDED + 1

    def df_at(n: float) -> float:  # the degrees of freedom grow with the launches as they do now
        return max(1.0, estimate.df * (n - 1) / (have - 1)) if have > 1 else 2.0 * (n - 1)

    # The smallest n with (t_level(df) + t_power(df)) * se * sqrt(have / n) < distance: the left side falls
    # as n grows (fewer launches' worth of se, more degrees of freedom), so bisection finds it in ~10 steps.
    spread = estimate.log_se * math.sqrt(have)

    def decides(n: int) -> bool:
        df = df_at(n)
        return (_t_quantile(1 - (1 - level) / 2, df) + _t_quantile(DECIDE_POWER, df)) * spread / math.sqrt(n) \
            < distance

    low, high = max(2, have), MAX_LAUNCHES_NEEDED
    if not decides(high):
        return MAX_LAUNCHES_NEEDED + 1
    while low < high:
        middle = (low + high) // 2
        if decides(middle):
            high = middle
        else:
            low = middle + 1
    return low


def strata(rows: Iterable[tuple[tuple[int, ...], tuple[int, ...], Sequence[float], Sequence[float]]]) -> list[Stratum]:
    """Strata from rows given as (A's launch ids, B's launch ids, A's values, B's values), values > 0.

    Rows are grouped by the launches that measured them; each launch's summary is the mean log of its
    values over the group's rows.
    """
    groups: dict[tuple[tuple[int, ...], tuple[int, ...]], list[tuple[Sequence[float], Sequence[float]]]] = {}
    for ids_a, ids_b, values_a, values_b in rows:
        groups.setdefault((ids_a, ids_b), []).append((values_a, values_b))
    out = []
    for members in groups.values():
        logs_a = [_mean([math.log(v[0][i]) for v in members]) for i in range(len(members[0][0]))]
        logs_b = [_mean([math.log(v[1][i]) for v in members]) for i in range(len(members[0][1]))]
        out.append(Stratum(len(members), tuple(logs_a), tuple(logs_b)))
    return out
