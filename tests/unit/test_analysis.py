"""Statistics against values written down with their derivation.

Every Mann-Whitney value here was derived by hand (below) and agrees with
scipy.stats.mannwhitneyu(a, b, alternative="two-sided") of scipy 1.17.1
to the digits given; scipy is not a dependency of mpimark.
"""

from __future__ import annotations

import math

import pytest

from mpimark.analysis import statistics as analysis
from mpimark.analysis.statistics import geomean, mann_whitney_u, median_ci_ranks

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
