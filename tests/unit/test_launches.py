"""compare on launches (analysis/launches.py, geomeans.py): values written down with their derivation."""

from __future__ import annotations

import math

import pytest

from mpimark.analysis import geomeans
from mpimark.analysis.launches import compare, compare_launches, DEFAULT_CORRECTION, INSUFFICIENT
from mpimark.records.figures import Key

from .records import result_record, skipped_record


def _row(size: int, median_usec: float, **fields) -> dict:
    """A measured row whose launch value is median_usec (its samples centred on it)."""
    samples = [median_usec * 1000 * f for f in (0.99, 1.0, 1.01)]
    return result_record(bytes=size, samples_ns=samples, distribution=None, **fields)


def _launches(values: list[float], rows: int = 1, **fields) -> list[list[dict]]:
    """A run (launch) per value; each has `rows` PingPong sizes (1, 2, 4, ...) at that value."""
    return [[_row(1 << i, v, **fields) for i in range(rows)] for v in values]


def test_a_doubling_over_five_launches_a_side_is_slower_and_equal_launches_are_not():
    a = _launches([1.00, 1.01, 1.02, 1.03, 1.04])
    b = _launches([2.00, 2.02, 2.04, 2.06, 2.08])
    row = compare_launches(a, b).rows[0]
    assert (row.n_a, row.n_b) == (5, 5) and row.median_a_usec == 1.02 and row.median_b_usec == 2.04
    assert row.ratio == pytest.approx(2.0)
    assert row.p_value == pytest.approx(2 / 252) and row.marker == "slower"  # exact 5 vs 5, separated
    # Hodges-Lehmann of the logs, 5 vs 5: k = 3, so the 3rd smallest and largest of the 25 log ratios.
    ratios = sorted(y / x for x in [1.00, 1.01, 1.02, 1.03, 1.04] for y in [2.00, 2.02, 2.04, 2.06, 2.08])
    assert row.ratio_low == pytest.approx(ratios[2]) and row.ratio_high == pytest.approx(ratios[22])
    same = compare_launches(a, _launches([1.04, 1.03, 1.02, 1.01, 1.00])).rows[0]
    assert same.ratio == 1.0 and same.marker == "~" and same.ratio_low < 1 < same.ratio_high


def test_the_samples_of_one_launch_never_decide():
    # 1000 samples a side, B's all 10 % above A's: one launch a side is a ratio, not a verdict.
    a = [result_record(samples_ns=[1000.0 + i % 7 for i in range(1000)], distribution=None)]
    b = [result_record(samples_ns=[1100.0 + i % 7 for i in range(1000)], distribution=None)]
    result = compare(a, b)
    row = result.rows[0]
    assert row.ratio == pytest.approx(1.1, rel=1e-3) and row.p_value is None and row.note == INSUFFICIENT
    assert row.marker == "?" and row.ratio_low is None
    assert result.overall.ratio == pytest.approx(1.1, rel=1e-3) and result.overall.low is None
    assert "Launches decide" in result.warnings[0] and "--launches 5" in result.warnings[0]


def test_a_row_verdict_needs_four_launches_a_side_and_more_at_a_stricter_alpha():
    three = compare_launches(_launches([1, 2, 3]), _launches([5, 6, 7]))
    assert three.rows[0].note == INSUFFICIENT  # smallest p 2/20 = 0.1
    four = compare_launches(_launches([1, 2, 3, 4]), _launches([5, 6, 7, 8]))
    assert four.rows[0].p_value == pytest.approx(2 / 70) and four.rows[0].significant
    strict = compare_launches(_launches([1, 2, 3, 4]), _launches([5, 6, 7, 8]), alpha=0.01)
    assert strict.rows[0].note == INSUFFICIENT


def test_rows_match_by_key_and_unmeasured_rows_are_left_out():
    a = [[_row(1, 1.0), _row(8, 1.0), skipped_record(bytes=16)]]
    b = [[_row(1, 1.0), _row(4, 1.0), skipped_record(bytes=16), _row(1, 1.0, benchmark="PingPing"),
          _row(1, 1.0, multi=0)]]
    result = compare_launches(a, b)
    assert [r.key for r in result.rows] == [Key("PingPong", 2, "", None, 1)]
    assert (result.only_a, result.only_b) == (1, 3)


def test_modes_and_groups_stay_apart():
    a = [[_row(1, 1.0, multi=1, group=0), _row(1, 1.0, multi=1, group=1)]]
    b = [[_row(1, 1.0, multi=1, group=1)]]
    assert [r.key for r in compare_launches(a, b).rows] == [Key("PingPong", 2, "multi1", 1, 1)]


def test_an_imported_log_is_one_launch_valued_by_its_figure_and_counts_in_the_geomean():
    imported = dict(distribution=None, samples_ns=[])
    a = [[result_record(bytes=1, t_max_usec=2.0, **imported), result_record(bytes=2, t_max_usec=4.0, **imported)]]
    b = [[result_record(bytes=1, t_max_usec=3.0, **imported), result_record(bytes=2, t_max_usec=6.0, **imported)]]
    result = compare_launches(a, b)
    assert [(r.median_a_usec, r.median_b_usec, r.n_a, r.n_b) for r in result.rows] == [(2.0, 3.0, 1, 1),
                                                                                        (4.0, 6.0, 1, 1)]
    assert all(r.note == INSUFFICIENT and r.carries_data for r in result.rows)
    assert result.geomean_ratio == pytest.approx(1.5) and result.geomean_rows == 2


def test_a_warning_when_the_suites_differ():
    result = compare([_row(1, 1.0)], [_row(1, 1.0, suite="mpibench")])
    assert any("mpibench" in w for w in result.warnings)


def test_the_geomean_leaves_out_zero_byte_collectives_only():
    a = [[_row(1024, 1.0), _row(0, 0.001, benchmark="Allreduce", processes=4),
          _row(0, 1.0, benchmark="Barrier", processes=4)]]
    b = [[_row(1024, 2.0), _row(0, 700.0, benchmark="Allreduce", processes=4),
          _row(0, 2.0, benchmark="Barrier", processes=4)]]
    result = compare_launches(a, b)
    assert {r.key.benchmark: r.carries_data for r in result.rows} == {"PingPong": True, "Allreduce": False,
                                                                      "Barrier": True}
    assert result.geomean_rows == 2 and result.geomean_ratio == pytest.approx(2.0)
    assert set(result.benchmarks) == {"PingPong", "Barrier"}


def test_the_geomean_interval_is_a_welch_t_interval_on_each_launchs_mean_log():
    # One row a launch: A's launch summaries log 1, log 1.1, log 1.2; B's log 2, log 2.2, log 2.4.
    a, b = _launches([1.0, 1.1, 1.2]), _launches([2.0, 2.2, 2.4])
    g = compare_launches(a, b).overall
    la, lb = [math.log(v) for v in (1.0, 1.1, 1.2)], [math.log(v) for v in (2.0, 2.2, 2.4)]
    mean = lambda x: sum(x) / len(x)  # noqa: E731
    var = lambda x: sum((v - mean(x)) ** 2 for v in x) / (len(x) - 1)  # noqa: E731
    se = math.sqrt(var(la) / 3 + var(lb) / 3)
    assert g.ratio == pytest.approx(math.exp(mean(lb) - mean(la)))
    assert g.log_se == pytest.approx(se) and g.df == pytest.approx(4.0)  # equal spreads: 2 + 2
    t = 2.7764451051977987  # Student's t, 0.975 quantile, 4 degrees of freedom
    assert (g.low, g.high) == pytest.approx((math.exp(mean(lb) - mean(la) - t * se),
                                             math.exp(mean(lb) - mean(la) + t * se)))


def test_strata_keep_launches_of_different_job_sizes_apart():
    # A study side: two 2-rank launches and two 4-rank ones; each row is measured by two of them.
    a = [[_row(1, 1.0)], [_row(1, 1.2)], [_row(1, 2.0, processes=4)], [_row(1, 2.4, processes=4)]]
    b = [[_row(1, 1.1)], [_row(1, 1.3)], [_row(1, 2.2, processes=4)], [_row(1, 2.6, processes=4)]]
    result = compare_launches(a, b)
    assert [(r.launches_a, r.launches_b) for r in result.rows] == [((0, 1), (0, 1)), ((2, 3), (2, 3))]
    strata = geomeans.strata((r.launches_a, r.launches_b, r.values_a, r.values_b) for r in result.rows)
    assert [s.rows for s in strata] == [1, 1]
    assert result.overall.launches_a == 2 and result.overall.low is not None


def test_a_single_launch_against_several_borrows_their_spread():
    result = compare_launches(_launches([1.0]), _launches([2.0, 2.1, 2.2, 2.3]))
    g = result.overall
    assert g.low is not None and g.low < 2.0 / 1.0 < g.high and g.df == pytest.approx(3.0)


def test_the_warnings_say_what_the_correction_leaves_possible():
    # 5 launches a side: the smallest p is 2/252 = 0.0079; 12 rows: 0.095 after Holm's first step
    a, b = _launches([1.0, 1.01, 1.02, 1.03, 1.04], rows=12), _launches([2.0, 2.01, 2.02, 2.03, 2.04], rows=12)
    holm = compare_launches(a, b, correction="holm")
    assert not any(r.significant for r in holm.rows)
    assert any("no row verdict can be significant" in w and "Holm" in w for w in holm.warnings)
    # Benjamini-Hochberg: all 12 rows differ together, each at p 0.0079: all significant; a difference
    # confined to fewer than 2 rows (0.0079 * 12 / 0.05 = 1.9) could not be
    bh = compare_launches(a, b, correction="bh")
    assert all(r.significant for r in bh.rows) and bh.correction == DEFAULT_CORRECTION == "bh"
    assert any("at least 2 rows differ together" in w for w in bh.warnings)
    few = compare_launches(_launches([1.0, 1.01, 1.02, 1.03, 1.04], rows=3),
                           _launches([2.0, 2.01, 2.02, 2.03, 2.04], rows=3))
    assert few.warnings == []


def test_a_bad_alpha_or_correction_is_refused():
    with pytest.raises(ValueError):
        compare([], [], alpha=1.5)
    with pytest.raises(ValueError):
        compare([], [], correction="bonferroni")
