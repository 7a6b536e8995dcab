"""mpimark compare: two stored runs (or study implementations) built here, in every format."""

from __future__ import annotations

import csv
import io
import json

import pytest

from mpimark.storage import studies
from mpimark.storage.store import Store

from .cli_helpers import assert_one_error_line, invoke
from .conftest import store_records
from .records import end_record, result_record, run_record

SAMPLES = [1000.0 + 10 * i for i in range(10)]  # ns: median 1.045 usec


def _run(library: str, scale_small: float, scale_large: float) -> list[dict]:
    run = run_record()
    run["mpi"] = {**run["mpi"], "library_version": library}
    return [run,
            result_record(bytes=8, count=8, samples_ns=[s * scale_small for s in SAMPLES]),
            result_record(bytes=1024, count=1024, samples_ns=[s * scale_large for s in SAMPLES]),
            result_record(bytes=4096, count=4096, samples_ns=SAMPLES[:3]),
            end_record()]


# Launch levels of five launches a side: each launch's every time is scaled by its level (a launch effect).
LEVELS = [1.0, 1.02, 0.99, 1.01, 1.03]


@pytest.fixture
def db(tmp_path):
    """Run 1: Open MPI; run 2: MPICH, as fast at 8 bytes and twice as slow at 1024; studied as s:ompi, s:mpich.
    Study "five": runs 3-7 Open MPI, 8-12 MPICH (the same two conditions), five launches each."""
    path = tmp_path / "results.db"
    with Store(path) as store:
        a = store_records(store, _run("Open MPI v5.0.11, package: x", 1, 1), status="complete")
        b = store_records(store, _run("MPICH Version: 4.1", 1, 2), mpi_name="mpich", status="complete")
        studies.add_run(store, "s", a, "ompi")
        studies.add_run(store, "s", b, "mpich")
        for library, name, large in (("Open MPI v5.0.11, package: x", "ompi", 1), ("MPICH Version: 4.1", "mpich", 2)):
            for level in LEVELS:
                run_id = store_records(store, _run(library, level, large * level), mpi_name=name, status="complete")
                studies.add_run(store, "five", run_id, name)
    return path


def test_compare_table_of_one_launch_a_side_gives_ratios_and_says_launches_decide(db):
    result = invoke("compare", "1", "2", "--db", str(db))
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "Open MPI 5.0.11 (run 1)  vs  MPICH 4.1 (run 2)" in result.stdout
    row_8 = next(line for line in lines if "PingPong" in line and "│     8 │" in line)
    assert row_8.count("1.045") == 2 and "1.000" in row_8 and "1/1" in row_8 and row_8.rstrip("│ ").endswith("?")
    row_1024 = next(line for line in lines if "1024" in line)
    assert "2.090" in row_1024 and "2.000" in row_1024 and row_1024.rstrip("│ ").endswith("?")
    geomean = next(line for line in lines if "geomean" in line)
    assert "1.260" in geomean and "(3 rows)" in geomean  # (1 * 2 * 1) ** (1/3), no interval
    assert "verdict" in lines[2] and "p (bh)" in lines[2] and "launches A/B" in lines[2]
    assert "Launches decide" in result.stdout and "--launches 5" in result.stdout


def test_compare_table_of_five_launches_a_side(db):
    result = invoke("compare", "five:ompi", "five:mpich", "--db", str(db))
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    row_1024 = next(line for line in lines if "1024" in line)
    # Launch values: A's 1.045 * level, B's twice that; 5 against 5, separated: p = 2/252 = 0.0079, 0.024
    # after BH over the three rows (the 8 and 4096 rows are the same on both sides). The interval of B/A
    # over launches: the 3rd smallest and largest of the 25 ratios 2 * level_j / level_i.
    ratios = sorted(2 * j / i for i in LEVELS for j in LEVELS)
    assert "5/5" in row_1024 and "2.000" in row_1024 and "slower" in row_1024 and "0.024" in row_1024
    assert f"[{ratios[2]:.3f}, {ratios[22]:.3f}]" in row_1024
    row_8 = next(line for line in lines if "PingPong" in line and "│     8 │" in line)
    assert "~" in row_8
    geomean = next(line for line in lines if "geomean" in line)
    assert "1.260 " in geomean and "[1.241, 1.279]" in geomean
    assert "Launches decide" not in result.stdout


def test_compare_json_and_csv_carry_the_numbers(db):
    document = json.loads(invoke("compare", "five:ompi", "five:mpich", "--format", "json", "--db", str(db)).stdout)
    rows = {row["bytes"]: row for row in document["rows"]}
    assert rows[1024]["ratio_b_a"] == pytest.approx(2.0) and rows[1024]["significant"] is True
    assert rows[1024]["p_value"] == pytest.approx(2 / 252) and rows[1024]["verdict"] == "slower"
    assert rows[1024]["launches_a"] == 5 and rows[1024]["ratio_interval"]["low"] < 2.0
    assert rows[1024]["values_a_usec"] == pytest.approx([1.045 * level for level in LEVELS])
    assert rows[8]["significant"] is False and rows[8]["verdict"] == "~"
    assert document["geomean"]["ratio_b_a"] == pytest.approx(2 ** (1 / 3)) and document["geomean"]["rows"] == 3
    assert document["geomean"]["launches_a"] == 5 and 1 < document["geomean"]["low"] < 2 ** (1 / 3)
    assert document["correction"] == "bh" and document["alpha"] == 0.05
    one = json.loads(invoke("compare", "1", "2", "--format", "json", "--db", str(db)).stdout)
    assert {row["bytes"]: row["note"] for row in one["rows"]}[4096] == "insufficient launches"
    assert one["geomean"]["low"] is None and "Launches decide" in one["warnings"][0]
    text = invoke("compare", "five:ompi", "five:mpich", "--format", "csv", "--db", str(db)).stdout
    table = list(csv.DictReader(io.StringIO(text)))
    assert table[1]["bytes"] == "1024" and float(table[1]["ratio_b_a"]) == pytest.approx(2.0)
    assert table[3]["benchmark"] == "geomean" and float(table[3]["ratio_low"]) == pytest.approx(1.2407, abs=1e-3)


def test_compare_markdown(db):
    text = invoke("compare", "five:ompi", "five:mpich", "--format", "markdown", "--db", str(db)).stdout
    assert text.startswith("| benchmark | np | bytes | launches A/B | median A [usec] | median B [usec] | B/A | "
                           "B/A 95% CI | p (bh) | verdict |")
    assert "| **slower** |" in text
    assert "| **geomean B/A (3 rows)** |" in text and "- A: ompi (runs 3, 4, 5, 6, 7)" in text


def test_compare_alpha(db):
    # At alpha 1e-3 five launches a side (smallest p 0.0079) cannot test a row.
    document = json.loads(invoke("compare", "five:ompi", "five:mpich", "--alpha", "0.001", "--format", "json",
                                 "--db", str(db)).stdout)
    assert not any(row["significant"] for row in document["rows"])
    assert_one_error_line(invoke("compare", "1", "2", "--alpha", "2", "--db", str(db)), 2)


def test_compare_study_implementations(db):
    document = json.loads(invoke("compare", "s:ompi", "s:mpich", "--format", "json", "--db", str(db)).stdout)
    assert document["a"] == "ompi (run 1)" and document["b"] == "mpich (run 2)"
    assert {row["bytes"]: row["ratio_b_a"] for row in document["rows"]}[1024] == pytest.approx(2.0)


def test_compare_errors_are_one_line(db):
    assert "no run 99" in assert_one_error_line(invoke("compare", "1", "99", "--db", str(db)))
    assert "names 2 implementations" in assert_one_error_line(invoke("compare", "s", "2", "--db", str(db)))
    assert "no implementation 'x'" in assert_one_error_line(invoke("compare", "s:x", "2", "--db", str(db)))
    assert "neither a run id nor a study" in assert_one_error_line(invoke("compare", "nope", "2", "--db", str(db)))


def test_compare_without_common_rows(db, tmp_path):
    with Store(db) as store:
        store_records(store, [run_record(), result_record(benchmark="Allreduce", samples_ns=SAMPLES)])
    assert "no measured row in common" in assert_one_error_line(invoke("compare", "1", "13", "--db", str(db)))


def test_study_commands(db):
    listed = invoke("study", "list", "--db", str(db))
    assert listed.exit_code == 0 and listed.stdout.splitlines()[-2:] == ["s:mpich\trun 2", "s:ompi\trun 1"]
    added = invoke("study", "add", "t", "1", "2", "--db", str(db))
    assert added.exit_code == 0, added.stderr
    # Without --impl a run is labelled with its MPI name (run 1 was stored as openmpi, run 2 as mpich).
    assert added.stdout.splitlines() == ["run 1 is t:openmpi", "run 2 is t:mpich"]
    assert invoke("study", "list", "t", "--db", str(db)).stdout.splitlines() == ["t:mpich\trun 2", "t:openmpi\trun 1"]
    assert "cannot name a study" in assert_one_error_line(invoke("study", "add", "12", "1", "--db", str(db)))
    assert "no run 77" in assert_one_error_line(invoke("study", "add", "t", "77", "--db", str(db)))


def test_equal_labels_get_the_run_id(db):
    from mpimark.storage.selection import load

    with Store(db, create=False) as store:
        labels = [s.label for s in load(store, ["1", "1", "s"])]
    assert labels == ["Open MPI 5.0.11 (run 1)", "Open MPI 5.0.11 (run 1)", "mpich", "ompi"]


# -- the regression gate ----------------------------------------------------------------------------------


def test_gate_decides_slower_on_five_launches_a_side(db):
    result = invoke("compare", "five:ompi", "five:mpich", "--fail-if-slower", "5%", "--db", str(db))
    assert result.exit_code == 3, result.stdout
    assert "regression gate: SLOWER (exit 3): B is slower than A by more than 5%" in result.stdout
    assert "all rows: 1.260 [1.241, 1.279]  (3 rows, launches 5/5) <- slower" in result.stdout
    assert "information: 1 row whose launches are significantly slower by more than 5%" in result.stdout


def test_gate_decides_not_slower_on_equal_launches_and_below_the_threshold(db):
    same = invoke("compare", "five:ompi", "five:ompi", "--fail-if-slower", "5%", "--db", str(db))
    assert same.exit_code == 0 and "NOT SLOWER (exit 0)" in same.stdout, same.stdout
    assert invoke("compare", "five:mpich", "five:ompi", "--fail-if-slower", "5", "--db", str(db)).exit_code == 0
    assert invoke("compare", "five:ompi", "five:mpich", "--fail-if-slower", "50%", "--db",
                  str(db)).exit_code == 0  # x1.26 < x1.5


def test_gate_of_one_launch_a_side_is_undecided_never_a_pass(db):
    for a, b in (("1", "2"), ("1", "1"), ("2", "1")):
        result = invoke("compare", a, b, "--fail-if-slower", "5%", "--db", str(db))
        assert result.exit_code == 4, (a, b, result.stdout)
        assert "UNDECIDED (exit 4)" in result.stdout and "measure at least 2 a side" in result.stdout


def test_gate_markdown_and_json_for_ci(db):
    text = invoke("compare", "five", "--baseline", "ompi", "--fail-if-slower", "5%", "--format", "markdown",
                  "--db", str(db))
    assert text.exit_code == 3
    assert "### ❌ SLOWER (exit 3): B is slower than A by more than 5%" in text.stdout
    assert "| mpich | all rows | 1.260 | [1.241, 1.279] | 3 | 5/5 |" in text.stdout
    document = invoke("compare", "five:ompi", "five:mpich", "--fail-if-slower", "5%", "--format", "json",
                      "--db", str(db))
    assert document.exit_code == 3 and json.loads(document.stdout)["rows"]  # the summary went to stderr
    assert "regression gate: SLOWER" in document.stderr


def test_gate_threshold_must_be_a_percentage(db):
    result = invoke("compare", "1", "2", "--fail-if-slower", "five", "--db", str(db))
    assert result.exit_code == 2 and "is not a percentage" in result.stderr


def test_a_side_pooling_unlike_launches_is_refused_unless_allowed(db):
    with Store(db) as store:
        for run_id, impl in ((3, "x"), (8, "x"), (4, "y")):  # x: an Open MPI launch and an MPICH one
            studies.add_run(store, "mix", run_id, impl)
    refused = assert_one_error_line(invoke("compare", "mix:y", "mix:x", "--db", str(db)))
    assert "B pools unlike launches" in refused and "MPI library" in refused and "--allow-mixed" in refused
    allowed = invoke("compare", "mix:y", "mix:x", "--allow-mixed", "--db", str(db))
    assert allowed.exit_code == 0 and "warning: B pools unlike launches" in allowed.stdout
    assert "x pools unlike launches" in assert_one_error_line(invoke("compare", "mix", "--db", str(db)))


def test_a_side_s_self_check_warnings_stand_beside_the_comparison(db):
    warning = {"type": "event", "level": "warning", "kind": "oversubscribed",
               "message": "oversubscribed: 4 ranks on the machine of rank 0, which has 2 cores; ranks wait for a "
                          "core and the times include that"}
    with Store(db) as store:
        run_id = store_records(store, [*_run("MPICH Version: 4.1", 1, 2)[:-1], warning, end_record()],
                               mpi_name="mpich", status="complete")
    shown = invoke("compare", "1", str(run_id), "--db", str(db))
    assert shown.exit_code == 0, shown.stderr
    assert f"warning: self-check of B: run {run_id}: oversubscribed: 4 ranks on 2 cores" in shown.stdout
    assert "self-check of A" not in shown.stdout
