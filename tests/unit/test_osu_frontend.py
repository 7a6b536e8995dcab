"""The front end of the core's osu suite: its command line, the count checked before launching, its
records kept field for field and shown in OSU's layout, without launching anything.

The core's facts are given here (the packaged OSU table as the core's osu suite), so that these tests
say what the front end does with facts, whatever core is built; tests/unit/test_osu_facts.py holds the
packaged table to the core's own.
"""

from __future__ import annotations

import copy
from pathlib import Path

import click
import pytest

from mpimark.commands import preflight
from mpimark.commands.options import suite_and_args
from mpimark.commands.run_cmds import run
from mpimark.execution.core import benchmark_facts
from mpimark.presentation import osu_text, tools
from mpimark.records import benchmarks, peer_facts
from mpimark.records.figures import key, time_usec
from mpimark.records.results import validate_record
from mpimark.storage import compact
from mpimark.storage.importers import parse_file
from mpimark.storage.store import Store

from .conftest import store_records
from .records import end_record, result_record, run_record

DATA = Path(__file__).parent / "data" / "osu"


def _as_the_cores(suite: dict) -> dict:
    """The packaged OSU table (a snapshot of the core's) as the core prints its osu suite."""
    return {**copy.deepcopy(suite), "kind": "osu", "runnable": True}


@pytest.fixture
def osu_suite():
    """The core's facts with an osu suite, for the test's length."""
    core = _as_the_cores(next(s for s in peer_facts.packaged() if s["name"] == "osu"))
    benchmarks.use_core_facts(lambda: [*(s for s in benchmark_facts() if s["name"] != "osu"), core])
    yield core
    benchmarks.use_core_facts(benchmark_facts)


# -- the command line --------------------------------------------------------


def test_osu_is_a_suite_word_and_osus_options_go_to_the_core_unchanged(osu_suite):
    words = ("osu", "latency", "-m", "1:1024", "-i", "1000", "-x", "10", "-c")
    assert suite_and_args(words) == ("osu", ["latency", "-m", "1:1024", "-i", "1000", "-x", "10", "-c"])
    assert suite_and_args(("OSU", "osu_bw", "-W", "32")) == ("osu", ["osu_bw", "-W", "32"])


def test_osus_long_options_reach_the_core_and_mpimarks_own_stay_mpimarks(osu_suite):
    line = ["osu", "latency", "--message-size", "1:8", "-n", "2", "--iterations=50", "--quiet", "--launches", "3"]
    params = run.make_context("run", line).params
    assert params["words"] == ("osu", "latency", "--message-size", "1:8", "--iterations=50")
    assert (params["processes"], params["quiet"], params["launches"]) == (2, True, 3)


def test_osus_version_option_runs_nothing_and_says_where_to_ask(osu_suite):
    for word in ("-v", "--version"):
        with pytest.raises(click.UsageError, match=rf'{word} runs no benchmark; .*" osu latency {word}'):
            suite_and_args(("osu", "latency", word))
    assert suite_and_args(("mpi1", "PingPong", "-v"))[0] == "mpi1"  # IMB has no -v: the core judges it


@pytest.mark.parametrize("name", ["latency", "osu_latency", "Latency", "put_bw", "osu_bibw"])
def test_a_two_process_program_is_refused_at_any_other_count(osu_suite, name):
    preflight.check_processes("osu", [name, "-m", "1:8"], [2])
    for wrong in (1, 3, 4):
        with pytest.raises(click.UsageError, match=rf"needs exactly 2 processes .*-n {wrong} runs nothing: give -n 2"):
            preflight.check_processes("osu", [name], [wrong])


def test_a_collective_needs_two_processes_and_runs_on_more(osu_suite):
    for counts in ([2], [3], [2, 4, 16]):
        preflight.check_processes("osu", ["allreduce", "-f"], counts)
    with pytest.raises(click.UsageError, match=r"osu_allreduce needs at least 2 processes"):
        preflight.check_processes("osu", ["allreduce"], [2, 1])


def test_unknown_programs_and_lines_without_one_are_left_to_the_core(osu_suite):
    for args in (["nosuch"], ["-m", "1:8"], []):
        preflight.check_processes("osu", args, [1, 7])


# -- the records -------------------------------------------------------------

# Every field the osu suite may write besides IMB's (records/osu_columns.py), with a value of its type.
OSU_FIELDS = {
    "benchmark": "osu_iallreduce", "suite": "osu", "processes": 4, "datatype": "MPI_INT",
    "compute_usec": 8.81, "coll_init_usec": 0.62, "mpi_test_usec": 0.0, "mpi_wait_usec": 10.27,
    "pure_comm_usec": 7.6, "min_comm_usec": 7.31, "max_comm_usec": 8.16, "overlap_percent": 0.0,
    "validation": "Pass", "defects": 0, "p50_tail_lat_us": 0.49, "p99_tail_bw_mb_s": 7000.5,
    "window_creation": "MPI_Win_allocate", "synchronization": "MPI_Win_flush", "sender_threads": 1,
    "receiver_threads": 2, "sender_processes": 1, "receiver_processes": 2, "window_size": 64, "pairs": 2,
    "transmit_size": 0, "accelerator": None, "msgs_per_sec": 4868641.76, "mbytes_per_sec": 0,
}


def test_every_osu_field_passes_the_schema_and_comes_back_from_the_store_exactly(tmp_path):
    record = result_record(**OSU_FIELDS)
    validate_record(record)
    values, rest, shape = compact.split(record)
    assert compact.Reader().join(shape, rest, values) == record
    with Store(tmp_path / "r.db") as store:
        run_id = store_records(store, [{**run_record(), "suite": "osu"}, record, end_record()], suite="osu")
        assert [r for r in store.records(run_id) if r["type"] == "result"] == [record]


@pytest.mark.parametrize("field, value", [("validation", "pass"), ("sender_threads", 0), ("p50_tail_lat_us", -1.0),
                                          ("window_creation", 3), ("compute_usec", "1.0")])
def test_a_malformed_osu_field_is_refused(field, value):
    with pytest.raises(ValueError, match=field):
        validate_record(result_record(**{**OSU_FIELDS, field: value}))


def test_the_packaged_osu_facts_pass_the_schema_of_a_run_records_facts():
    for suite in peer_facts.packaged():
        validate_record({**run_record(), "suite": suite["name"], "benchmark_facts": suite})


# -- OSU's text of a core run ------------------------------------------------


def _core_run(capture: str, processes: int = 2, **options) -> list[dict]:
    """A core run's records with the rows of a real OSU capture: what the core writes besides OSU's columns
    (t_min_usec, t_max_usec, repetitions, samples) added to every row."""
    rows = []
    for row in parse_file(DATA / f"{capture}.txt", processes=processes).results:
        rows.append({**row, "suite": "osu", "t_min_usec": row.get("t_min_usec") or row["t_avg_usec"],
                     "t_max_usec": row.get("t_max_usec") or row["t_avg_usec"],
                     "repetitions": row.get("repetitions") or 50, "samples_ns": [1000.0, 1200.0]})
    run = {**run_record(), "suite": "osu", "options": options, "benchmarks": [rows[0]["benchmark"]]}
    return [run, *rows, end_record()]


@pytest.mark.parametrize("capture, full", [("latency", False), ("latency_c_z", False), ("bcast_f_c_z", True),
                                           ("iallreduce", False), ("iallreduce_f", True), ("barrier_f", True),
                                           ("put_latency", False), ("mbw_mr", False), ("latency_T_all", False)])
def test_a_core_run_shows_as_osu_printed_the_same_rows(osu_suite, capture, full):
    records = _core_run(capture, processes=4 if capture == "mbw_mr" else 2, full=full)
    assert tools.module_for(records) is osu_text
    assert osu_text.text(records) == (DATA / f"{capture}.txt").read_text(encoding="utf-8")


def test_without_f_the_columns_osu_prints_only_with_f_are_left_out(osu_suite):
    text = osu_text.text(_core_run("bcast_f_c_z", full=False))
    header = text.splitlines()[3]
    assert "Min Latency(us)" not in header and "Iterations" not in header
    assert header == ("# Size       Avg Latency(us)        Validation  P50 Tail Lat(us)  P90 Tail Lat(us)"
                      "  P99 Tail Lat(us)")


def test_a_window_size_shows_as_mbw_mrs_pairs_line_only(osu_suite):
    records = _core_run("bw")
    for row in records[1:-1]:
        row["window_size"] = 64  # osu_bw's -W, which osu_bw does not print
    assert "pairs" not in osu_text.text(records)
    assert osu_text.text(records) == (DATA / "bw.txt").read_text(encoding="utf-8")


def test_core_and_imported_rows_of_one_program_are_the_same_measurement(osu_suite):
    core = _core_run("latency")[1]
    imported = parse_file(DATA / "latency.txt").results[0]
    assert key(core) == key(imported)
    assert time_usec({**core, "distribution": {"median_usec": 0.5}}) == 0.5


# -- osu_mbw_mr -V: a row per size and window ----------------------------------


def test_mbw_mr_V_is_a_row_per_size_and_window_and_the_windows_are_measurements_apart():
    rows = parse_file(DATA / "mbw_mr_V.txt").results
    assert len(rows) == 4 * 8 and len({key(r) for r in rows}) == 32
    first = rows[0]
    assert (first["bytes"], first["window_size"], first["mbytes_per_sec"], first["msgs_per_sec"]) == \
        (1, 1, 0.93, 933140.48)
    assert key(first).mode == "window 1"
    default = next(r for r in rows if r["bytes"] == 1 and r["window_size"] == 64)
    assert key(default).mode == ""  # OSU's default window: the same measurement as osu_mbw_mr without -V
    validate_record({**default, "repetitions": 5, "t_avg_usec": 1.0, "suite": "osu", "distribution": None,
                     "samples_ns": None})


def test_a_program_run_at_another_window_is_another_measurement():
    row = parse_file(DATA / "mbw_mr.txt", processes=4).results[0]
    assert key(row).mode == "" and key({**row, "window_size": 16}).mode == "window 16"


def test_a_core_runs_failed_validation_ends_with_the_cores_stop_line(osu_suite):
    records = _core_run("allreduce_f_c_fail", full=True)
    capture = (DATA / "allreduce_f_c_fail.txt").read_text(encoding="utf-8").splitlines(keepends=True)
    tables = "".join(capture[:7])  # OSU's line names its source path and its own exit status, 1
    assert osu_text.text(records) == tables + \
        "DATA VALIDATION ERROR: osu_allreduce exited with status 4 on message size 16.\n"
    for row in records[1:-1]:
        row["validation"] = "failed" if row["validation"] == "Fail" else "passed"  # the atomic one-sided words
    assert "DATA VALIDATION ERROR" not in osu_text.text(records)  # they go on, without OSU's stop line
