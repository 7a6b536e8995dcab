"""`mpimark show` and IMB text export of what the rigour features recorded:
the self-checks and their warnings, and per row -sync window's invalid
samples and -ci_target's width reached and stop reason (docs/measurement.md)."""

from __future__ import annotations

import pytest

from mpimark.presentation import imb_text, rigour
from mpimark.records.results import validate_record
from mpimark.storage.store import Store

from .cli_helpers import invoke
from .conftest import store_records
from .records import end_record, event_record, result_record, run_record

LOADED = ("loaded machine: 3.4 tasks runnable beyond the 2 ranks on average (10 samples) during the 0.05 s noise "
          "probe on the machine of rank 0, which has 2 cores (0 left free by the ranks); ...")
SHORT = "PingPong on 2 processes: 1 row(s) from 0 to 0 bytes were timed in clock intervals under 100 times ..."


def checked_run() -> dict:
    rank = {"timer_overhead_ns": 30, "timer_granularity_ns": 20, "timer_monotonic": True, "noise_quantum_ns": 9900,
            "noise_runs": 4000, "noise_interruptions": 12, "noise_max_interruption_ns": 250_000,
            "noise_lost_share": 0.02, "load_average_1min": 3.5, "cores": 2, "ranks_on_host": 2}
    return {**run_record(), "selfcheck": {
        "duration_s": 0.07, "mpi_wtick_s": 1e-9, "timer_resolution_ns": 20, "clock_disagreement_ns": 0,
        "timer_ok": True, "loaded": True, "oversubscribed": False, "noisy": True,
        "noise_probe": {"quantum_ns": 10000, "duration_s": 0.05, "gap_share": 0.1, "high_lost_share": 0.01,
                        "high_interruption_ns": 1e6},
        "ranks": [{"rank": 0, **rank}, {"rank": 1, **rank, "noise_lost_share": 0.001}],
        "competition_rule": {"samples": 10, "slack_tasks": 0.5, "high_steal_share": 0.05, "min_steal_ticks": 2},
        "machines": [{"rank": 0, "ranks": 2, "cores": 2, "runnable_samples": 10, "runnable_mean": 5.4,
                      "runnable_max": 6, "beyond_ranks_mean": 3.4, "cpu_ticks": 10, "steal_share": 0.1,
                      "idle_share": 0.0, "loaded": True}]}}


def warning(kind: str, message: str, **fields) -> dict:
    return {"type": "event", "level": "warning", "kind": kind, "message": message, **fields}


def records() -> list[dict]:
    window = {"window_usec": 20, "samples_attempted": 200, "invalid_samples": 9, "rank_median_usec": [1.0, 1.1]}
    ci = {"target": 0.01, "half_width": 0.0083, "stop": "target"}
    return [checked_run(), warning("loaded", LOADED), event_record(),
            result_record(bytes=0, count=0, window=window, ci_target=ci, loops=4),
            result_record(ci_target={"target": 0.01, "half_width": None, "stop": "time"}),
            warning("timer_resolution", SHORT, benchmark="PingPong", processes=2), end_record()]


def test_the_records_are_valid():
    for record in records():
        validate_record(record)


def test_row_cells():
    rows = [r for r in records() if r["type"] == "result"]
    assert rigour.window_cell(rows[0]) == "9/200 invalid" and rigour.window_cell(rows[1]) is None
    assert rigour.ci_cell(rows[0]) == "±0.83 % of 1 %, target"
    assert rigour.ci_cell(rows[1]) == "no CI of 1 %, time"


def test_selfcheck_summary():
    line = rigour.selfcheck_summary(checked_run())
    for part in ("timer resolution 20 ns", "MPI_Wtick 1e-09 s", "read 30 ns", "monotonic", "clocks agree",
                 "noise 2.00 % lost on rank 0 (12 interruptions of 4000 quanta), longest 250.0 us (high)",
                 "3.4 runnable tasks beyond the 2 ranks on rank 0's machine, steal 10 % (loaded)",
                 "2 ranks on 2 cores"):
        assert part in line
    assert "load 3.50" not in line  # the 1-minute load average decides nothing any more
    # An older core's record, without machines, decided from the load average: that is what it says.
    older = checked_run()
    for name in ("machines", "competition_rule"):
        del older["selfcheck"][name]
    assert "load 3.50 (loaded)" in rigour.selfcheck_summary(older)
    assert rigour.selfcheck_summary({**run_record(), "selfcheck": None}) == "off (-selfcheck off)"
    assert rigour.selfcheck_summary(run_record()) == ""  # an older core: nothing said


def test_imb_text_has_the_warnings_where_the_core_prints_them():
    text = imb_text.imb_text(records())
    at = text.index("\n#---", text.index("# List of Benchmarks"))
    head, rest = text[:at], text[at:]
    assert head.endswith(f"# PingPong\n# mpimark warning: {LOADED}\n")  # after the list of benchmarks
    assert f"\n# mpimark warning: {SHORT}\n\n\n# All processes entering MPI_Finalize" in rest  # after the table


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "results.db"
    with Store(path) as store:
        store_records(store, records(), status="complete")
    return path


def test_show_prints_the_checks_and_every_touched_row(db):
    result = invoke("show", "1", "--db", str(db))
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines.count(f"# mpimark warning: {LOADED}") == 1 and lines.count(f"# mpimark warning: {SHORT}") == 1
    assert lines.index(next(line for line in lines if line.startswith("self-checks: timer resolution 20 ns"))) < \
        lines.index("# Benchmarking PingPong ")  # with the run's lines, above the tables
    assert "#   PingPong 2 processes, 0 bytes: 9/200 invalid; ±0.83 % of 1 %, target" in lines
    assert "#   PingPong 2 processes, 1024 bytes: no CI of 1 %, time" in lines


def test_show_stats_has_the_columns_and_the_warnings(db):
    result = invoke("show", "1", "--stats", "--db", str(db))
    assert result.exit_code == 0, result.stderr
    for text in ("invalid", "CI ±[%]", "CI stop", "0.83", "target", f"warning: {LOADED}", "self-checks: "):
        assert text in result.stdout
