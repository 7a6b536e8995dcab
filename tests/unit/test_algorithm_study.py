"""analysis/algorithms.py and the tuning file writers of presentation/algorithms.py (no MPI); `algorithms
tune` on a stored study."""

from __future__ import annotations

import json

import pytest

from mpimark.analysis.algorithms import NOT_FORCED, TUNED, Arm, chosen, evaluate, gains, library_bytes, size_measure
from mpimark.presentation import algorithms as shown
from mpimark.storage import studies
from mpimark.storage.store import Store

from .cli_helpers import invoke
from .conftest import store_records

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
    assert small.best.arm == DEFAULT and small.speedup == 1.0 and small.rival.arm == RING
    assert small.excluded == (("recursive_doubling", "wrong data: 2 defects (-check)"),)
    assert large.best.arm == RING and round(large.speedup, 2) == 1.25 and large.rival.arm == DEFAULT
    # One launch of each arm: a ratio (its launch values are the medians), no interval, nothing decided.
    assert large.estimate.ratio == pytest.approx(4.045 / 5.045) and large.estimate.low is None
    assert not large.decided and large.launches_needed is None
    assert shown.decision(large) == "undecided against default: one launch a side, launches decide"


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


LEVELS = (1.0, 1.03, 0.98, 1.01, 0.97)  # five launches, each at its own level


def _launched(arm: Arm, first_run: int, times: dict[int, float], levels=LEVELS) -> list:
    """A launch per level of one arm: its row at each size at times[size] x the launch's level."""
    return [(first_run + i, [_result(size, usec * level) for size, usec in times.items()])
            for i, level in enumerate(levels)]


def test_gains_say_faster_slower_or_undecided_over_launches():
    v = evaluate({DEFAULT.label: DEFAULT, TUNED_ARM.label: TUNED_ARM}, {
        DEFAULT.label: _launched(DEFAULT, 10, {0: 2.0, 8: 2.0, 16: 2.0}),
        TUNED_ARM.label: _launched(TUNED_ARM, 20, {0: 1.0, 8: 3.0, 16: 2.02}, LEVELS[::-1])})
    found = {g.bytes: g for g in gains(v)}
    assert found[0].verdict == "faster" and found[0].gain == pytest.approx(2.0, rel=0.03)
    assert found[8].verdict == "slower" and found[8].gain < 1 and found[8].estimate.low > 1
    assert found[16].verdict == "undecided" and found[16].estimate.low < 1 < found[16].estimate.high
    md = shown.gains_markdown(list(found.values()), "v")
    assert "TUNED SLOWER" in md and "tuned faster" in md and "~ (undecided)" in md
    one = gains(evaluate({DEFAULT.label: DEFAULT, TUNED_ARM.label: TUNED_ARM}, {
        DEFAULT.label: [(1, [_result(0, 2.0)])], TUNED_ARM.label: [(2, [_result(0, 1.0)])]}))
    assert [g.verdict for g in one] == ["untested"]  # 10 samples a side, twice as fast: one launch decides nothing


def _rounds(k, ring=4.0):
    """k launches per arm at the levels of LEVELS (repeated)."""
    levels = [LEVELS[i % len(LEVELS)] for i in range(k)]
    return evaluate(ARMS, {DEFAULT.label: _launched(DEFAULT, 10, {1024: 5.0}, levels),
                           RING.label: _launched(RING, 20, {1024: ring}, levels[::-1])})


def test_one_launch_decides_no_winner_and_the_footnote_says_why():
    row, = _rounds(1).rows
    assert row.best.arm == RING and len(row.best.launches_usec) == 1 and not row.decided
    why = [line for line in shown.footnotes(_rounds(1)) if "one launch of each arm" in line]
    assert len(why) == 1 and "--launches 5 or more" in why[0]
    assert "--launches 5 or more" in shown.markdown(_rounds(1), "t")


def test_a_clear_winner_over_launches_is_decided_and_needs_no_footnote():
    row, = _rounds(3).rows
    assert row.best.arm == RING and row.decided and row.estimate.high < 1
    assert row.estimate.ratio == pytest.approx(0.8, rel=0.01)
    assert shown.decision(row) == "decided against default"
    assert not [line for line in shown.footnotes(_rounds(3)) if "one launch" in line]


def test_a_winner_within_the_launches_noise_is_undecided_and_says_what_would_tell():
    row, = _rounds(5, ring=4.95).rows
    assert row.best.arm == RING and not row.decided and 5 < row.launches_needed < 1000
    assert shown.decision(row) == f"undecided against default: {row.launches_needed} launches a side would tell"


def test_where_the_default_wins_it_is_measured_against_the_runner_up():
    row, = _rounds(5, ring=6.0).rows
    assert row.best.arm == DEFAULT and row.rival.arm == RING and row.decided


def test_chosen_keeps_the_default_where_the_winner_is_undecided_unless_asked():
    verdict = evaluate(ARMS, {DEFAULT.label: _launched(DEFAULT, 10, {8: 5.0, 1024: 5.0}),
                              RING.label: _launched(RING, 20, {8: 4.95, 1024: 4.0}, LEVELS[::-1])})
    small, large = verdict.rows
    assert (small.best.arm, small.decided, large.best.arm, large.decided) == (RING, False, RING, True)
    kept = chosen(verdict)
    assert [r.best.arm for r in kept.rows] == [DEFAULT, RING]
    assert shown.undecided_notes(verdict, kept) == []
    assert [shown.written(r, c) for r, c in zip(verdict.rows, kept.rows)] == ["default (kept: undecided)", "ring"]
    every = chosen(verdict, include_undecided=True)
    assert [r.best.arm for r in every.rows] == [RING, RING]
    notes = shown.undecided_notes(verdict, every)
    assert len(notes) == 1 and notes[0].startswith("Allreduce np 2 8 bytes: ring UNDECIDED (undecided against default")
    text = shown.undecided_header(notes) + shown.openmpi_rules(shown.choices(every))
    assert text.startswith("# UNDECIDED: written by mpimark algorithms tune --include-undecided")
    assert shown.parse_openmpi_rules(text) == {2: {2: [(8, 4, 0, 0)]}}  # the marks are comments to the library


def _study(db, rows: dict[str, dict[int, float]]) -> None:
    """A stored Open MPI algorithm study of Allreduce at 2 ranks, five launches of each arm, interleaved."""
    arms = [DEFAULT, RING]
    with Store(db) as store:
        studies.add_plan(store, "alg", {"kind": "algorithms", "mpi": "openmpi", "mpi_kind": "openmpi",
                                        "library_version": "Open MPI v4.1.4", "suite": "mpi1", "args": [],
                                        "processes": [2], "launches": 5, "seed": None,
                                        "arms": [{"label": a.label, "op": a.op, "name": a.name, "id": a.id}
                                                 for a in arms], "selectables": [], "command": ["mpimark"]})
        for i, level in enumerate(LEVELS):
            for arm in arms:
                own = level if arm is DEFAULT else LEVELS[-1 - i]
                run = store_records(store, [_result(size, usec * own) for size, usec in rows[arm.label].items()],
                                    status="complete")
                studies.add_run(store, "alg", run, arm.label)


def test_tune_writes_decided_winners_only_and_the_rest_when_asked_marked(tmp_path):
    db = str(tmp_path / "r.db")
    _study(db, {DEFAULT.label: {8: 5.0, 1024: 5.0}, RING.label: {8: 4.95, 1024: 4.0}})
    rules = tmp_path / "rules.txt"
    result = invoke("algorithms", "tune", "alg", "-o", str(rules), "--db", db)
    assert result.exit_code == 0, result.output
    # 8 bytes: ring 1 % faster, within the launches' noise: the library's default (0) kept; 1024: ring decided
    assert shown.parse_openmpi_rules(rules.read_text()) == {2: {2: [(8, 0, 0, 0), (1024, 4, 0, 0)]}}
    assert "UNDECIDED" not in rules.read_text()
    assert "default (kept: undecided)" in result.stdout and "decided against default" in result.stdout
    assert "1 of 2 rows keep the library's default" in result.stderr
    every = invoke("algorithms", "tune", "alg", "-o", str(rules), "--include-undecided", "--db", db)
    assert every.exit_code == 0, every.output
    text = rules.read_text()
    assert shown.parse_openmpi_rules(text) == {2: {2: [(8, 4, 0, 0)]}}
    assert text.startswith("# UNDECIDED") and "# Allreduce np 2 8 bytes: ring UNDECIDED" in text
    assert "ring UNDECIDED" in every.stdout and "1 of 2 rows written UNDECIDED" in every.stderr
