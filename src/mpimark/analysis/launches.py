"""Comparing two conditions launch by launch (docs/analysis.md, "The model").

A measurement of one condition is one or more launches (stored runs); each
launch contributes one value per row: the median of its samples, or, for an
imported log, the suite's own figure (IMB's t or t_avg). The samples inside a
launch describe that launch and nothing else, so no test here ever ranks them.

Per row: the median of the launch values of each side, B/A, an interval of
B/A over launches (the Hodges-Lehmann interval of the log values: the
Mann-Whitney inversion, distribution-free, from 4 launches a side), and the
Mann-Whitney p of the launch values, corrected over the table (information;
the gate decides on geomeans). Per benchmark and for the whole table: the
geometric-mean ratio with a t interval over launches (geomeans.py).
"""

from __future__ import annotations

import math
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from mpimark.analysis import geomeans
from mpimark.analysis.geomeans import Geomean
from mpimark.analysis.statistics import (adjust_p, CORRECTIONS, DEFAULT_CORRECTION, hodges_lehmann, mann_whitney_u,
                                         median, MIN_SAMPLES, smallest_p)
from mpimark.records.benchmarks import BenchmarkClass, UnknownBenchmark
from mpimark.records.figures import Key, key, record_class, time_usec

SLOWER, FASTER, NO_DIFFERENCE, UNTESTED = "slower", "faster", "~", "?"
INSUFFICIENT = "insufficient launches"
# Launches a side that the advice asks for: a row verdict needs MIN_SAMPLES, and 5 leave room for one bad launch.
ADVISED_LAUNCHES = 5
ALL_ROWS = "all rows"


@dataclass(frozen=True)
class ComparisonRow:
    key: Key
    median_a_usec: float  # the median of A's launch values
    median_b_usec: float
    n_a: int  # launches behind each median
    n_b: int
    ratio: float | None  # B/A; None when A's median is 0
    p_value: float | None  # Mann-Whitney on the launch values; None with too few launches
    significant: bool  # the corrected p (p_adjusted) at most alpha
    note: str | None  # why there is no verdict
    p_adjusted: float | None = None
    ratio_low: float | None = None  # B/A's interval over launches (Hodges-Lehmann of the logs); None: too few
    ratio_high: float | None = None
    carries_data: bool = True  # in the geomeans: a value on both sides, not a 0-byte no-op collective
    values_a: tuple[float, ...] = ()  # each launch's value [usec]
    values_b: tuple[float, ...] = ()
    launches_a: tuple[int, ...] = ()  # which launches (the side's run positions) measured the row
    launches_b: tuple[int, ...] = ()

    @property
    def marker(self) -> str:
        """The verdict: "slower"/"faster" (B against A) when significant, "~" when not, "?" when untested."""
        if self.note or self.p_value is None:
            return UNTESTED
        if not self.significant:
            return NO_DIFFERENCE
        return SLOWER if self.median_b_usec > self.median_a_usec else FASTER


@dataclass(frozen=True)
class Comparison:
    rows: list[ComparisonRow]
    alpha: float
    overall: Geomean | None  # over every row that carries data
    benchmarks: dict[str, Geomean]  # per benchmark (the key's benchmark name), the same
    only_a: int  # measured rows without a partner
    only_b: int
    launches_a: int  # runs (launches) on each side
    launches_b: int
    warnings: list[str] = field(default_factory=list)
    correction: str = DEFAULT_CORRECTION
    tested: int = 0  # rows with a p value (the family the correction is over)

    @property
    def geomean_ratio(self) -> float | None:
        return None if self.overall is None else self.overall.ratio

    @property
    def geomean_rows(self) -> int:
        return 0 if self.overall is None else self.overall.rows

    def slower_than(self, threshold: float) -> list[ComparisonRow]:
        """Rows whose launches show B significantly slower than A by more than threshold (information)."""
        return [r for r in self.rows if r.carries_data and r.marker == SLOWER and r.ratio is not None
                and r.ratio > 1 + threshold]


@dataclass(frozen=True, slots=True)
class _Launch:
    """What a comparison keeps of one launch's row: its value, not the record nor its samples."""
    value_usec: float
    suite: str
    noop: bool


def _noop(record: dict) -> bool:
    if record.get("bytes") != 0:
        return False
    try:
        return record_class(record) is BenchmarkClass.COLLECTIVE
    except UnknownBenchmark:
        return False


def _launch_value(record: dict) -> float | None:
    """The launch's value of a row: the median of its samples, else the core's median or the imported suite's
    figure (time_usec); None for a row not measured."""
    if record.get("status", "ok") != "ok":
        return None
    samples = record.get("samples_ns")
    return median(samples) / 1000 if samples else time_usec(record)


def _collect(runs: Iterable[Iterable[dict]]) -> tuple[dict[Key, dict[int, _Launch]], int]:
    """Per key, each run's (launch's) value of it, from one pass over each run's records (runs may be
    streams read from the store: what is kept is one number per key and run). A run's repeated key
    counts once (its first row)."""
    found: dict[Key, dict[int, _Launch]] = {}
    count = 0
    for position, records in enumerate(runs):
        count += 1
        for record in records:
            if record.get("type") != "result":
                continue
            value = _launch_value(record)
            if value is None:
                continue
            launches = found.setdefault(key(record), {})
            if position not in launches:
                suite = record.get("suite", "")
                launches[position] = _Launch(value, sys.intern(suite) if type(suite) is str else suite,
                                             _noop(record))
    return found, count


def _ratio_interval(a: tuple[float, ...], b: tuple[float, ...]) -> tuple[float | None, float | None]:
    if min(len(a), len(b)) < MIN_SAMPLES or min(a) <= 0 or min(b) <= 0:
        return None, None
    shift = hodges_lehmann([math.log(v) for v in a], [math.log(v) for v in b])
    if shift.low is None:
        return None, None
    return math.exp(shift.low), math.exp(shift.high)


def _row(k: Key, a: dict[int, _Launch], b: dict[int, _Launch], alpha: float) -> ComparisonRow:
    ids_a, ids_b = tuple(sorted(a)), tuple(sorted(b))
    values_a, values_b = tuple(a[i].value_usec for i in ids_a), tuple(b[i].value_usec for i in ids_b)
    median_a, median_b = median(values_a), median(values_b)
    n_a, n_b = len(values_a), len(values_b)
    ratio = median_b / median_a if median_a > 0 else None
    noop = any(x.noop for x in (*a.values(), *b.values()))
    carries = not noop and min(values_a) > 0 and min(values_b) > 0
    low, high = _ratio_interval(values_a, values_b)
    common = dict(ratio_low=low, ratio_high=high, carries_data=carries, values_a=values_a, values_b=values_b,
                  launches_a=ids_a, launches_b=ids_b)
    if min(n_a, n_b) < MIN_SAMPLES or smallest_p(n_a, n_b) > alpha:
        return ComparisonRow(k, median_a, median_b, n_a, n_b, ratio, None, False, INSUFFICIENT, **common)
    p = mann_whitney_u(values_a, values_b).p_value
    return ComparisonRow(k, median_a, median_b, n_a, n_b, ratio, p, p <= alpha, None, p, **common)


def _corrected(rows: list[ComparisonRow], alpha: float, correction: str) -> list[ComparisonRow]:
    tested = [i for i, r in enumerate(rows) if r.p_value is not None]
    adjusted = adjust_p([rows[i].p_value for i in tested], correction)
    out = list(rows)
    for i, p in zip(tested, adjusted):
        out[i] = replace(rows[i], p_adjusted=p, significant=p <= alpha)
    return out


def geomean_of(scope: str, rows: Iterable[ComparisonRow], level: float = 0.95) -> Geomean:
    """B/A over the rows (that carry data) with its interval over the launches that measured them."""
    return geomeans.geomean(scope, geomeans.strata((r.launches_a, r.launches_b, r.values_a, r.values_b)
                                                   for r in rows), level)


def _geomeans(rows: list[ComparisonRow]) -> tuple[Geomean | None, dict[str, Geomean]]:
    data = [r for r in rows if r.carries_data]
    if not data:
        return None, {}

    by_benchmark: dict[str, list[ComparisonRow]] = {}
    for r in data:
        by_benchmark.setdefault(r.key.benchmark, []).append(r)
    return geomean_of(ALL_ROWS, data), {name: geomean_of(name, members) for name, members in by_benchmark.items()}


def launch_advice(comparison: Comparison) -> str | None:
    """The line that says launches decide, where the launches at hand cannot: None when they can."""
    if min(comparison.launches_a, comparison.launches_b) >= MIN_SAMPLES:
        return None
    have = f"{comparison.launches_a} launch{'es' if comparison.launches_a != 1 else ''} against " \
           f"{comparison.launches_b}"
    if max(comparison.launches_a, comparison.launches_b) == 1:
        return (f"{have}: ratios only, no interval, no p, no verdict. Launches decide: the variation between "
                "launches is larger than inside one and only launches show it; measure each side with "
                f"--launches {ADVISED_LAUNCHES} or more (a row verdict needs {MIN_SAMPLES} a side, a geomean "
                "interval 2)")
    return (f"{have}: rows need {MIN_SAMPLES} launches a side for a verdict (Mann-Whitney on launch values); "
            f"measure {ADVISED_LAUNCHES} or more a side (--launches)")


def compare_launches(a_runs: Iterable[Iterable[dict]], b_runs: Iterable[Iterable[dict]], alpha: float = 0.05,
                     correction: str = DEFAULT_CORRECTION) -> Comparison:
    """Compare the launches (runs) of A with those of B, row by row and as geomeans.

    Each run's records are read once, in order (they may be streams from the store).
    """
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be between 0 and 1, not {alpha}")
    if correction not in CORRECTIONS:
        raise ValueError(f"correction must be one of {', '.join(CORRECTIONS)}, not {correction!r}")
    found_a, launches_a = _collect(a_runs)
    found_b, launches_b = _collect(b_runs)
    rows = [_row(k, found_a[k], found_b[k], alpha) for k in found_a if k in found_b]
    rows.sort(key=lambda r: (r.key.benchmark, r.key.mode, r.key.processes,
                             -1 if r.key.group is None else r.key.group, r.key.bytes))
    rows = _corrected(rows, alpha, correction)
    overall, benchmarks = _geomeans(rows)
    warnings = sorted({f"{k.benchmark}: A's rows come from suite {_suite(found_a[k])!r}, B's from "
                       f"{_suite(found_b[k])!r}; their definitions may differ"
                       for k in found_a if k in found_b and _suite(found_a[k]) != _suite(found_b[k])})
    warnings += _power_warning(rows, alpha, correction)
    comparison = Comparison(rows=rows, alpha=alpha, overall=overall, benchmarks=benchmarks,
                            only_a=sum(1 for k in found_a if k not in found_b),
                            only_b=sum(1 for k in found_b if k not in found_a),
                            launches_a=launches_a, launches_b=launches_b, warnings=warnings, correction=correction,
                            tested=sum(1 for r in rows if r.p_value is not None))
    advice = launch_advice(comparison)
    return replace(comparison, warnings=[advice, *warnings]) if advice else comparison


def _suite(launches: dict[int, _Launch]) -> str:
    return next(iter(launches.values())).suite


def _power_warning(rows: list[ComparisonRow], alpha: float, correction: str) -> list[str]:
    """A warning when the correction limits what can be significant with these launches (few launches,
    many rows): under Holm no row at all; under BH no difference confined to fewer than K rows."""
    tested = [r for r in rows if r.p_value is not None]
    if correction == "none" or not tested:
        return []
    best, m = min(smallest_p(r.n_a, r.n_b) for r in tested), len(tested)
    # Holm's first step multiplies the smallest p by the number of tests; BH's k-th smallest p is compared with
    # k * alpha / m, so k rows at the smallest possible p are significant together once best * m / k <= alpha.
    together = math.ceil(best * m / alpha - 1e-9)
    if together <= 1:
        return []
    if correction == "holm":
        return [f"no row verdict can be significant: the smallest p these launches allow ({best:.2g}) times the "
                f"{m} tested rows exceeds alpha = {alpha:g} after Holm's correction; the geomeans still decide. "
                "Measure more launches or compare fewer rows (--bytes) for row verdicts"]
    return [f"with these launches (smallest possible p {best:.2g}) and {m} tested rows, Benjamini-Hochberg "
            f"finds a difference only where at least {together} rows differ together; measure more launches "
            "or compare fewer rows (--bytes) for row verdicts"]


def compare(a_records: list[dict], b_records: list[dict], alpha: float = 0.05,
            correction: str = DEFAULT_CORRECTION) -> Comparison:
    """Compare one launch of B with one launch of A (compare_launches with a run a side)."""
    return compare_launches([a_records], [b_records], alpha, correction)
