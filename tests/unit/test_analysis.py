"""Statistics against values written down with their derivation.

Every Mann-Whitney value here was derived by hand (below) and agrees with
scipy.stats.mannwhitneyu(a, b, alternative="two-sided") of scipy 1.17.1
to the digits given; scipy is not a dependency of mpimark.
"""

from __future__ import annotations

import math

import pytest

from mpimark.analysis import statistics as analysis
from mpimark.analysis.statistics import (
    compare, compare_launches, geomean, INSUFFICIENT, mann_whitney_u, median_ci_ranks,
)
from mpimark.records.figures import Key

from .records import result_record, skipped_record

# -- median and its confidence interval --------------------------------------


def test_median_odd_and_even():
    assert analysis.median([3.0, 1.0, 2.0]) == 2.0
    assert analysis.median([4.0, 1.0, 3.0, 2.0]) == 2.5  # the mean of the middle two, as the core
    with pytest.raises(ValueError):
        analysis.median([])


# reference/method.md §4.4, "Exact 95 % median CI ranks (computed here)".
METHOD_TABLE_95 = {
    6: (1, 6, 0.969), 8: (1, 8, 0.992), 10: (2, 9, 0.979), 15: (4, 12, 0.965), 20: (6, 15, 0.959),
    30: (10, 21, 0.957), 50: (18, 33, 0.967), 100: (40, 61, 0.965), 200: (86, 115, 0.960),
    500: (228, 273, 0.956), 1000: (469, 532, 0.954), 10000: (4902, 5099, 0.951),
}
# The same section, "Exact 99 %".
METHOD_TABLE_99 = {8: (1, 8), 10: (1, 10), 20: (4, 17), 30: (8, 23), 50: (16, 35), 100: (37, 64), 1000: (459, 542)}


@pytest.mark.parametrize("n", sorted(METHOD_TABLE_95))
def test_median_ci_ranks_match_the_method_table_at_95(n):
    low, high, coverage = METHOD_TABLE_95[n]
    ci = median_ci_ranks(n, 0.95)
    assert (ci.low_rank, ci.high_rank) == (low, high)
    assert round(ci.coverage, 3) == coverage


@pytest.mark.parametrize("n", sorted(METHOD_TABLE_99))
def test_median_ci_ranks_match_the_method_table_at_99(n):
    ci = median_ci_ranks(n, 0.99)
    assert (ci.low_rank, ci.high_rank) == METHOD_TABLE_99[n]


def test_median_ci_needs_six_samples_at_95_and_eight_at_99():
    # [x_(1), x_(n)] covers the median with probability 1 - 2^(1-n): 0.9375 at n = 5.
    assert median_ci_ranks(5, 0.95) is None
    assert median_ci_ranks(6, 0.95).coverage == pytest.approx(1 - 2 ** -5)
    assert median_ci_ranks(7, 0.99) is None
    assert median_ci_ranks(8, 0.99) is not None


def test_median_ci_of_samples_picks_the_order_statistics():
    samples = [10.0, 1.0, 9.0, 2.0, 8.0, 3.0, 7.0, 4.0, 6.0, 5.0]  # n = 10: ranks (2, 9)
    ci = analysis.median_ci(samples)
    assert (ci.low, ci.high) == (2.0, 9.0)
    assert analysis.median_ci(samples[:5]) is None


# -- Mann-Whitney U -------------------------------------------------------------


def test_mann_whitney_complete_separation_exact():
    # U_a = pairs (x in a, y in b) with x > y = 0, U_b = 16. Of the C(8,4) = 70
    # equally likely orders of 8 values into two groups of 4, one gives U = 0 and
    # one U = 16: two-sided p = 2/70.
    result = mann_whitney_u([1, 2, 3, 4], [5, 6, 7, 8])
    assert (result.u_a, result.u_b, result.method) == (0, 16, "exact")
    assert result.p_value == pytest.approx(2 / 70)  # scipy: 0.02857142857142857


def test_mann_whitney_complete_separation_normal_approximation():
    # mean n_a n_b / 2 = 8, variance n_a n_b (n+1) / 12 = 16 * 9 / 12 = 12;
    # z = (16 - 8 - 0.5) / sqrt(12) = 2.16506; p = erfc(z / sqrt 2) = 0.030383.
    result = mann_whitney_u([1, 2, 3, 4], [5, 6, 7, 8], method="asymptotic")
    assert result.p_value == pytest.approx(0.03038282197657749, rel=1e-12)
    assert result.p_value == pytest.approx(math.erfc((7.5 / math.sqrt(12)) / math.sqrt(2)))


def test_mann_whitney_with_ties_uses_midranks_and_the_tie_correction():
    # Pooled, sorted: 1 | 2 2 2 | 3 3 | 4 | 5 -> ranks 1 | 3 3 3 | 5.5 5.5 | 7 | 8.
    # a = [1, 2, 2, 3]: R_a = 1 + 3 + 3 + 5.5 = 12.5, U_a = 12.5 - 4*5/2 = 2.5, U_b = 13.5.
    # Ties t = 3 and 2: sum(t^3 - t) = 24 + 6 = 30; variance = 16/12 * (9 - 30/56) = 11.2857;
    # z = (13.5 - 8 - 0.5) / sqrt(11.2857) = 1.48835; p = 0.136658.
    result = mann_whitney_u([1, 2, 2, 3], [2, 3, 4, 5])
    assert (result.u_a, result.u_b, result.method) == (2.5, 13.5, "asymptotic")
    assert result.p_value == pytest.approx(0.1366582477381475, rel=1e-12)


def test_mann_whitney_exact_with_unequal_sizes():
    # a = [19, 22, 16, 29, 24], b = [20, 11, 17, 12]: U_a = 3 + 4 + 2 + 4 + 4 = 17, U_b = 3.
    # Orders with U <= 3 of C(9,4) = 126: partitions of 0..3 into at most 4 parts <= 5:
    # 1 + 1 + 2 + 3 = 7, so p = 2 * 7/126 = 0.1111.
    result = mann_whitney_u([19, 22, 16, 29, 24], [20, 11, 17, 12])
    assert (result.u_a, result.u_b) == (17, 3)
    assert result.p_value == pytest.approx(14 / 126)  # scipy: 0.1111111111111111
    # ... and the normal approximation of the same data (scipy: 0.11134688653314041).
    assert mann_whitney_u([19, 22, 16, 29, 24], [20, 11, 17, 12], "asymptotic").p_value == \
        pytest.approx(0.11134688653314041, rel=1e-12)


def test_mann_whitney_exact_three_against_five():
    # U_a = 3 (each of a beats only 0.5); C(8,3) = 56 orders, U <= 3 in 1 + 1 + 2 + 3 = 7: p = 14/56.
    result = mann_whitney_u([1.1, 2.2, 3.3], [0.5, 4.4, 5.5, 6.6, 7.7])
    assert result.u_a == 3 and result.p_value == pytest.approx(0.25)


def test_mann_whitney_ten_against_ten_separated():
    # No ties, both sides > 8: normal approximation. Mean 50, variance 100 * 21 / 12 = 175,
    # z = (100 - 50 - 0.5) / sqrt(175) = 3.74185, p = 1.8267e-4 (scipy: 0.00018267179110955002).
    a = [10 + i * 0.1 for i in range(10)]
    b = [20 + i * 0.1 for i in range(10)]
    assert mann_whitney_u(a, b).p_value == pytest.approx(0.00018267179110955002, rel=1e-10)


def test_mann_whitney_is_symmetric_and_all_equal_gives_one():
    forward, backward = mann_whitney_u([1, 5, 9], [2, 3, 4, 6]), mann_whitney_u([2, 3, 4, 6], [1, 5, 9])
    assert forward.p_value == backward.p_value and forward.u_a == backward.u_b
    assert mann_whitney_u([3, 3, 3], [3, 3, 3, 3]).p_value == 1.0  # scipy: 1.0
    with pytest.raises(ValueError):
        mann_whitney_u([], [1.0])


def test_u_distribution_counts_every_order_once():
    counts = analysis._u_distribution(4, 5)
    assert sum(counts) == math.comb(9, 4) and counts[:4] == [1, 1, 2, 3] and counts == counts[::-1]


def test_smallest_p_says_four_per_side_is_the_minimum_at_five_percent():
    assert analysis.smallest_p(3, 3) == pytest.approx(0.1)
    assert analysis.smallest_p(4, 4) == pytest.approx(2 / 70)


# -- ratios ---------------------------------------------------------------------


def test_geomean_and_ratio_of_medians():
    assert geomean([1.0, 4.0]) == pytest.approx(2.0)
    assert geomean([0.5, 2.0]) == pytest.approx(1.0)  # a halving and a doubling cancel
    assert analysis.ratio_of_medians([1, 2, 3], [2, 4, 6]) == 2.0
    with pytest.raises(ValueError):
        geomean([1.0, 0.0])


# -- compare ----------------------------------------------------------------------


def _row(size: int, samples_ns: list[float], **fields) -> dict:
    return result_record(bytes=size, samples_ns=samples_ns, **fields)


A_SAMPLES = [1000.0 + 10 * i for i in range(10)]  # 1.000 .. 1.090 usec


def test_compare_finds_a_doubling_and_calls_equal_samples_not_significant():
    a = [_row(1, A_SAMPLES), _row(2, A_SAMPLES)]
    b = [_row(1, [2 * s for s in A_SAMPLES]), _row(2, list(reversed(A_SAMPLES)))]
    result = compare(a, b)
    slower, same = result.rows
    assert slower.key == Key("PingPong", 2, "", None, 1)
    assert slower.median_a_usec == pytest.approx(1.045) and slower.median_b_usec == pytest.approx(2.09)
    assert slower.ratio == pytest.approx(2.0)
    assert slower.p_value == pytest.approx(0.00018267179110955002, rel=1e-10)  # 10 vs 10, separated
    assert slower.significant and slower.marker == "slower"
    assert same.ratio == 1.0 and not same.significant and same.marker == "~" and same.note is None
    assert result.geomean_ratio == pytest.approx(math.sqrt(2.0))


def test_compare_needs_four_samples_per_side():
    result = compare([_row(1, [999, 1000, 1001])], [_row(1, [4995, 5000, 5005])])
    row = result.rows[0]
    assert row.p_value is None and not row.significant and row.note == INSUFFICIENT
    assert row.ratio == pytest.approx(5.0)


def test_compare_needs_more_samples_at_a_stricter_alpha():
    # Four per side: smallest p = 2/70 = 0.029 > 0.01.
    row = compare([_row(1, [1, 2, 3, 4])], [_row(1, [5, 6, 7, 8])], alpha=0.01).rows[0]
    assert row.note == INSUFFICIENT
    assert compare([_row(1, [1, 2, 3, 4])], [_row(1, [5, 6, 7, 8])]).rows[0].significant


def test_compare_matches_rows_by_key_and_skips_unmeasured_rows():
    a = [_row(1, A_SAMPLES), _row(8, A_SAMPLES), skipped_record(bytes=16)]
    b = [_row(1, A_SAMPLES), _row(4, A_SAMPLES), skipped_record(bytes=16),
         _row(1, A_SAMPLES, benchmark="PingPing"), _row(1, A_SAMPLES, multi=0)]
    result = compare(a, b)
    assert [r.key for r in result.rows] == [Key("PingPong", 2, "", None, 1)]
    assert (result.only_a, result.only_b) == (1, 3)


def test_compare_keeps_modes_and_groups_apart():
    a = [_row(1, A_SAMPLES, multi=1, group=0), _row(1, A_SAMPLES, multi=1, group=1)]
    b = [_row(1, A_SAMPLES, multi=1, group=1)]
    result = compare(a, b)
    assert [r.key for r in result.rows] == [Key("PingPong", 2, "multi1", 1, 1)]


def test_compare_of_imported_rows_uses_their_figures_without_a_verdict():
    imported = dict(distribution=None, samples_ns=[], suite="mpi1")
    a = [_row(1, [], t_max_usec=2.0, **{k: v for k, v in imported.items() if k != "samples_ns"})]
    b = [_row(1, [], t_max_usec=3.0, **{k: v for k, v in imported.items() if k != "samples_ns"})]
    row = compare(a, b).rows[0]
    assert (row.median_a_usec, row.median_b_usec, row.n_a, row.n_b) == (2.0, 3.0, 0, 0)
    assert row.ratio == 1.5 and row.note == INSUFFICIENT


def test_compare_warns_when_suites_differ():
    result = compare([_row(1, A_SAMPLES)], [_row(1, A_SAMPLES, suite="mpibench")])
    assert result.warnings and "mpibench" in result.warnings[0]


def test_compare_launches_tests_one_median_per_launch():
    # Side A: 4 launches with medians 1, 2, 3, 4 usec; side B: 4 launches at 5..8 usec.
    # Launch medians are the samples: the exact 4-vs-4 test, p = 2/70.
    a_runs = [[_row(1, [m * 1000] * 5)] for m in (1, 2, 3, 4)]
    b_runs = [[_row(1, [m * 1000] * 5)] for m in (5, 6, 7, 8)]
    row = compare_launches(a_runs, b_runs).rows[0]
    assert (row.n_a, row.n_b) == (4, 4)
    assert (row.median_a_usec, row.median_b_usec) == (2.5, 6.5)
    assert row.p_value == pytest.approx(2 / 70) and row.significant


def test_compare_rejects_a_bad_alpha():
    with pytest.raises(ValueError):
        compare([], [], alpha=1.5)


# -- Hodges-Lehmann, corrections, rows that carry data -------------------------------------------------


def test_hodges_lehmann_shift_and_its_exact_interval():
    # 5 against 5: differences 1..9 with multiplicities 1,2,3,4,5,4,3,2,1; the exact critical value is
    # k = 3 (P(U <= 2) = 4/252 <= 0.025 < P(U <= 3) = 7/252), so the interval is [D(3), D(23)] = [2, 8],
    # as R's wilcox.test(b, a, conf.int = TRUE) gives.
    shift = analysis.hodges_lehmann([1, 2, 3, 4, 5], [6, 7, 8, 9, 10])
    assert (shift.estimate, shift.low, shift.high) == (5, 2, 8)
    # A pure shift is found exactly, with the normal approximation's interval around it for larger samples.
    a = [float(i) for i in range(40)]
    shift = analysis.hodges_lehmann(a, [x + 2.5 for x in a])
    assert shift.estimate == 2.5 and shift.low < 2.5 < shift.high
    assert analysis.hodges_lehmann([1, 2], [3, 4]).low is None  # too few for any 95 % interval


def test_hodges_lehmann_by_bisection_matches_sorting(monkeypatch):
    a, b = [float((i * 37) % 101) for i in range(60)], [float((i * 53) % 97) + 0.5 for i in range(70)]
    exact = analysis.hodges_lehmann(a, b)
    monkeypatch.setattr(analysis, "_PAIRS_IN_MEMORY", 10)
    approximate = analysis.hodges_lehmann(a, b)
    for x, y in ((exact.estimate, approximate.estimate), (exact.low, approximate.low), (exact.high, approximate.high)):
        assert x == pytest.approx(y, abs=1e-9)


def test_p_value_corrections_match_r_p_adjust():
    p = [0.01, 0.04, 0.03, 0.005]
    assert analysis.adjust_p(p, "holm") == pytest.approx([0.03, 0.06, 0.06, 0.02])  # p.adjust(p, "holm")
    assert analysis.adjust_p(p, "bh") == pytest.approx([0.02, 0.04, 0.04, 0.02])  # p.adjust(p, "BH")
    assert analysis.adjust_p(p, "none") == p


def test_geomean_leaves_out_zero_byte_collectives_and_rows_without_samples():
    slow = [2 * s for s in A_SAMPLES]
    a = [_row(1024, A_SAMPLES), _row(0, [1.0] * 10, benchmark="Allreduce", processes=4),
         _row(0, A_SAMPLES, benchmark="Barrier", processes=4), _row(8, [], t_max_usec=1.0)]
    b = [_row(1024, slow), _row(0, [700_000.0] * 10, benchmark="Allreduce", processes=4),
         _row(0, slow, benchmark="Barrier", processes=4), _row(8, [], t_max_usec=3.0)]
    result = compare(a, b)
    in_geomean = {r.key.benchmark + str(r.key.bytes): r.carries_data for r in result.rows}
    assert in_geomean == {"PingPong1024": True, "Allreduce0": False, "Barrier0": True, "PingPong8": False}
    assert result.geomean_rows == 2 and result.geomean_ratio == pytest.approx(2.0)
    assert [r.key.bytes for r in result.slower_than(0.05)] == [0, 1024]  # Barrier and PingPong, not the no-op
    assert result.slower_than(1.5) == []


def _launches(rows: int, factor: float, launches: int = 5) -> list[list[dict]]:
    """launches runs of `rows` PingPong sizes, one sample-less median per launch (the launch is the unit)."""
    return [[result_record(bytes=1 << i, count=1 << i, samples_ns=[factor * (1000 + 10 * launch)] * 4,
                           distribution={**result_record()["distribution"], "median_usec": factor * (1 + launch / 100)})
             for i in range(rows)] for launch in range(launches)]


def test_the_warnings_say_what_the_correction_leaves_possible():
    # 5 launches a side: the smallest p is 2/252 = 0.0079; 12 rows: 0.095 after Holm's first step
    a, b = _launches(12, 1.0), _launches(12, 2.0)
    holm = analysis.compare_launches(a, b, correction="holm")
    assert not any(r.significant for r in holm.rows)
    assert any("no row can be significant" in w and "Holm" in w for w in holm.warnings)
    # Benjamini-Hochberg: all 12 rows differ together, each at p 0.0079: all significant; the warning says
    # that a difference confined to fewer than 2 rows (0.0079 * 12 / 0.05 = 1.9) could not be
    bh = analysis.compare_launches(a, b, correction="bh")
    assert all(r.significant for r in bh.rows) and bh.correction == analysis.DEFAULT_CORRECTION == "bh"
    assert any("at least 2 rows differ together" in w for w in bh.warnings)
    few = analysis.compare_launches(_launches(3, 1.0), _launches(3, 2.0), correction="bh")
    assert few.warnings == []  # 0.0079 * 3 <= 0.05: one row alone can be significant
