"""analysis/algorithms.py and the tuning file writers of presentation/algorithms.py (no MPI)."""

from __future__ import annotations

import json

from mpimark.analysis.algorithms import NOT_FORCED, Arm, evaluate
from mpimark.presentation import algorithms as shown

DEFAULT = Arm("Allreduce:default", "Allreduce", "default", None)
RING = Arm("Allreduce:ring", "Allreduce", "ring", 4)
RD = Arm("Allreduce:recursive_doubling", "Allreduce", "recursive_doubling", 3)
ARMS = {a.label: a for a in (DEFAULT, RING, RD)}


def _result(size, usec, defects=None):
    samples = [int((usec + 0.01 * i) * 1000) for i in range(10)]
    return {"type": "result", "benchmark": "Allreduce", "processes": 2, "bytes": size, "mode": None, "group": None,
            "status": "ok", "samples_ns": samples, "distribution": {"median_usec": usec + 0.045},
            "defects": defects}


def _verdict():
    return evaluate(ARMS, {
        DEFAULT.label: [(1, [_result(0, 2.0), _result(1024, 5.0)])],
        RING.label: [(2, [_result(0, 3.0), _result(1024, 4.0)])],
        RD.label: [(3, [_result(0, 1.0, defects=2), _result(1024, 9.0)])],
    })


def test_best_default_speedup_and_wrong_data_left_out():
    rows = _verdict().rows
    small, large = rows
    assert small.best.arm == DEFAULT and small.speedup == 1.0 and small.p_value is None
    assert small.excluded == (("recursive_doubling", "wrong data: 2 defects (-check)"),)
    assert large.best.arm == RING and round(large.speedup, 2) == 1.25 and large.significant
    assert large.best.ci_low_usec <= large.best.median_usec <= large.best.ci_high_usec


def test_a_run_marked_not_forced_is_not_ranked():
    v = evaluate(ARMS, {DEFAULT.label: [(1, [_result(0, 2.0)])],
                        RING.label: [(2, [{"type": "event", "kind": NOT_FORCED, "message": "read 0"},
                                          _result(0, 1.0)])]})
    assert [e.arm for e in v.rows[0].entries] == [DEFAULT]
    assert v.excluded_runs == [(2, RING.label, "read 0")]


def test_openmpi_rules_round_trip():
    text = shown.openmpi_rules(shown.choices(_verdict()))
    assert shown.parse_openmpi_rules(text) == {2: {2: [(0, 0, 0, 0), (1024, 4, 0, 0)]}}


def test_mpich_json_replaces_only_the_studied_subtree():
    builtin = {"collective=allreduce": {"comm_type=intra": {"x": {}}, "comm_type=inter": {"y": {}}},
               "collective=barrier": {"comm_type=intra": {"z": {}}}}
    doc = json.loads(shown.mpich_json(shown.choices(_verdict()), builtin))
    assert doc["collective=barrier"] == builtin["collective=barrier"]
    assert doc["collective=allreduce"]["comm_type=inter"] == {"y": {}}
    # 0 bytes: the default won, so the best forced arm (ring) is written; one range then.
    assert doc["collective=allreduce"]["comm_type=intra"] == {
        "comm_size=any": {"avg_msg_size=any": {"algorithm=MPIR_Allreduce_intra_ring": {}}}}
    assert shown.mpich_name("Bcast", Arm("Bcast:nb", "Bcast", "nb", 2)) == "MPIR_Bcast_allcomm_nb"


def test_impi_settings_give_ranges():
    assert shown.impi_settings(shown.choices(_verdict())) == {
        "I_MPI_ADJUST_ALLREDUCE": "0:0-1023@1-1048576;4:1024-2147483647@1-1048576"}


def test_markdown_has_a_row_per_size():
    md = shown.markdown(_verdict(), "t")
    assert "| Allreduce | 2 | 1024 | ring |" in md and "wrong data" in md


def test_a_plot_per_op_and_np_with_a_line_per_arm():
    (plot,) = shown.plots(_verdict(), "t")
    assert plot.name == "t-Allreduce-np2"
    axes = plot.figure.axes[0]
    assert sorted(line.get_label() for line in axes.get_lines()) == ["default", "recursive_doubling", "ring"]
    assert axes.get_xscale() == "log" and axes.get_yscale() == "log"
