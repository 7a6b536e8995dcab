"""analysis/algorithms.py and the tuning file writers of presentation/algorithms.py (no MPI)."""

from __future__ import annotations

import json

from mpimark.analysis.algorithms import NOT_FORCED, TUNED, Arm, evaluate, gains, library_bytes, size_measure
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
    # 0 bytes: the default won, so that range holds the library's own (auto) subtree; 1024 on: ring.
    assert doc["collective=allreduce"]["comm_type=intra"] == {
        "comm_size=any": {"avg_msg_size<=1023": {"x": {}},
                          "avg_msg_size=any": {"algorithm=MPIR_Allreduce_intra_ring": {}}}}
    # Without the library's tree the fastest forced algorithm stands for the default: one range then.
    alone = json.loads(shown.mpich_json(shown.choices(_verdict())))
    assert alone["collective=allreduce"]["comm_type=intra"] == {
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


def _choices(op, processes, items):
    """op -> processes -> [(bytes, best, best forced)] from (bytes, id or None) pairs."""
    arms = {i: Arm(f"{op}:{i}", op, "default" if i is None else f"alg{i}", i) for _, i in items}
    forced = next(a for a in arms.values() if a.id is not None)
    return {op: {processes: [(b, arms[i], arms[i] if i is not None else forced) for b, i in items]}}


def test_openmpi_rules_compare_the_total_for_alltoall_and_the_buffer_for_allreduce():
    a2a = shown.parse_openmpi_rules(shown.openmpi_rules(_choices("Alltoall", 4, [(0, 1), (512, 2)])))
    assert a2a == {3: {4: [(0, 1, 0, 0), (2048, 2, 0, 0)]}}  # coll_tuned: per-rank block x communicator size
    ar = shown.parse_openmpi_rules(shown.openmpi_rules(_choices("Allreduce", 4, [(0, 1), (512, 2)])))
    assert ar == {2: {4: [(0, 1, 0, 0), (512, 2, 0, 0)]}}
    barrier = shown.parse_openmpi_rules(shown.openmpi_rules(_choices("Alltoallv", 4, [(0, 1), (512, 2)])))
    assert barrier == {4: {4: [(0, 1, 0, 0)]}}  # the rule ignores the size: one rule


def test_mpich_json_uses_the_measure_mpich_defines_for_the_collective():
    a2a = json.loads(shown.mpich_json(_choices("Alltoall", 4, [(0, 1), (512, 2)])))
    assert list(a2a["collective=alltoall"]["comm_type=intra"]["comm_size=any"]) == [
        "avg_msg_size<=511", "avg_msg_size=any"]
    ag = json.loads(shown.mpich_json(_choices("Allgather", 4, [(0, 1), (512, 2)])))
    assert list(ag["collective=allgather"]["comm_type=intra"]["comm_size=any"]) == [
        "total_msg_size<=2047", "total_msg_size=any"]  # avg_msg_size is not defined for Allgather in MPICH
    bar = json.loads(shown.mpich_json(_choices("Barrier", 4, [(0, 1)])))
    assert bar["collective=barrier"]["comm_type=intra"] == {"comm_size=any": {"algorithm=MPIR_Barrier_intra_alg1": {}}}


def test_mpich_json_keeps_the_in_place_branch_of_the_library():
    builtin = {"collective=alltoall": {"comm_type=intra": {"is_sendbuf_inplace=yes": {"r": {}},
                                                           "is_sendbuf_inplace=no": {"n": {}}}}}
    doc = json.loads(shown.mpich_json(_choices("Alltoall", 2, [(0, 1)]), builtin))
    intra = doc["collective=alltoall"]["comm_type=intra"]
    assert list(intra) == ["is_sendbuf_inplace=yes", "comm_size=any"] and intra["is_sendbuf_inplace=yes"] == {"r": {}}


def test_library_bytes():
    assert library_bytes("openmpi", "Alltoall", 64, 4) == 256
    assert library_bytes("openmpi", "Bcast", 64, 4) == 64
    assert library_bytes("openmpi", "Barrier", 0, 4) is None
    assert library_bytes("mpich", "Gather", 64, 4) == 256 and size_measure("mpich", "Gather")[0] == "total_msg_size"
    assert library_bytes("mpich", "Scan", 64, 4) is None


TUNED_ARM = Arm("Allreduce:tuned", "Allreduce", TUNED, -1)


def test_gains_say_faster_slower_or_within_the_noise():
    def res(size, usec, spread=0.01):
        r = _result(size, usec)
        r["samples_ns"] = [int((usec + spread * i) * 1000) for i in range(10)]
        return r
    v = evaluate({DEFAULT.label: DEFAULT, TUNED_ARM.label: TUNED_ARM}, {
        DEFAULT.label: [(1, [res(0, 2.0), res(8, 2.0), res(16, 2.0, 1.0)])],
        TUNED_ARM.label: [(2, [res(0, 1.0), res(8, 3.0), res(16, 2.0, 1.0)])]})
    found = {g.bytes: g for g in gains(v)}
    assert found[0].verdict == "faster" and round(found[0].gain, 1) == 2.0
    assert found[8].verdict == "slower" and found[8].gain < 1 and found[8].p_value < 0.05
    assert found[16].verdict == "same"
    md = shown.gains_markdown(list(found.values()), "v")
    assert "TUNED SLOWER" in md and "tuned faster" in md


def _rounds(k):
    """k launches per arm; the ring is clearly faster in every one."""
    return evaluate(ARMS, {
        DEFAULT.label: [(10 + i, [_result(1024, 5.0 + 0.1 * i)]) for i in range(k)],
        RING.label: [(20 + i, [_result(1024, 4.0 + 0.1 * i)]) for i in range(k)],
    })


def test_three_rounds_cannot_be_significant_and_the_footnote_says_why():
    row, = _rounds(3).rows
    assert row.best.arm == RING and len(row.best.samples_usec) == 3
    assert row.p_value is None and not row.significant
    why = [line for line in shown.footnotes(_rounds(3)) if "launch medians" in line]
    assert why == ["untested rows have 3 launch medians per algorithm; a two-sided rank test needs 4 "
                   "to reach p <= 0.05 (study again with --launches 4 or more)"]
    assert "--launches 4 or more" in shown.markdown(_rounds(3), "t")


def test_four_rounds_are_tested_and_need_no_footnote():
    row, = _rounds(4).rows
    assert row.p_value is not None and row.p_value <= 0.05 and row.significant
    assert not [line for line in shown.footnotes(_rounds(4)) if "launch medians" in line]
