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


@pytest.fixture
def db(tmp_path):
    """Run 1: Open MPI; run 2: MPICH, as fast at 8 bytes and twice as slow at 1024; studied as s:ompi, s:mpich."""
    path = tmp_path / "results.db"
    with Store(path) as store:
        a = store_records(store, _run("Open MPI v5.0.11, package: x", 1, 1), status="complete")
        b = store_records(store, _run("MPICH Version: 4.1", 1, 2), mpi_name="mpich", status="complete")
        studies.add_run(store, "s", a, "ompi")
        studies.add_run(store, "s", b, "mpich")
    return path


def test_compare_table(db):
    result = invoke("compare", "1", "2", "--db", str(db))
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "Open MPI 5.0.11 (run 1)  vs  MPICH 4.1 (run 2)" in result.stdout
    row_8 = next(line for line in lines if "PingPong" in line and "│     8 │" in line)
    assert row_8.count("1.045") == 2 and "1.000" in row_8 and "~" in row_8
    row_1024 = next(line for line in lines if "1024" in line)
    # p = 1.8e-4 on its own, 3.7e-4 after Benjamini-Hochberg (the default) over the two tested rows (8 and 1024
    # bytes): the smaller of two p values times 2 / 1, as Holm's first step
    assert "2.090" in row_1024 and "2.000" in row_1024 and "3.7e-04" in row_1024 and "slower" in row_1024
    assert "+1.04 [+0.99, +1.1]" in row_1024  # Hodges-Lehmann shift: B's samples are A's doubled
    row_4096 = next(line for line in lines if "4096" in line)
    assert row_4096.rstrip("│ ").endswith("?")
    geomean = next(line for line in lines if "geomean" in line)
    assert "1.260" in geomean and "(3 rows)" in geomean  # (1 * 2 * 1) ** (1/3)
    assert "verdict" in lines[2] and "p (bh)" in lines[2]
    assert "two-sided Mann-Whitney U" in result.stdout and "Benjamini-Hochberg" in result.stdout


def test_compare_json_and_csv_carry_the_numbers(db):
    document = json.loads(invoke("compare", "1", "2", "--format", "json", "--db", str(db)).stdout)
    rows = {row["bytes"]: row for row in document["rows"]}
    assert rows[1024]["ratio_b_a"] == pytest.approx(2.0) and rows[1024]["significant"] is True
    assert rows[1024]["p_value"] == pytest.approx(0.00018267179110955002)  # see test_analysis
    assert rows[1024]["p_adjusted"] == pytest.approx(2 * 0.00018267179110955002) and rows[1024]["verdict"] == "slower"
    assert rows[1024]["shift_usec"]["estimate"] == pytest.approx(1.045)
    assert rows[8]["significant"] is False and rows[4096]["note"] == "insufficient samples"
    assert rows[8]["verdict"] == "~" and rows[4096]["verdict"] == "?"
    assert document["geomean"]["ratio_b_a"] == pytest.approx(2 ** (1 / 3)) and document["geomean"]["rows"] == 3
    assert document["correction"] == "bh"
    assert document["alpha"] == 0.05
    table = list(csv.DictReader(io.StringIO(invoke("compare", "1", "2", "--format", "csv", "--db", str(db)).stdout)))
    assert table[1]["bytes"] == "1024" and float(table[1]["ratio_b_a"]) == pytest.approx(2.0)
    assert table[-1]["benchmark"] == "geomean"


def test_compare_markdown(db):
    text = invoke("compare", "1", "2", "--format", "markdown", "--db", str(db)).stdout
    assert text.startswith("| benchmark | np | bytes | median A [usec] | median B [usec] | B/A | B-A [usec] (95% CI) | "
                           "p (bh) | verdict |")
    assert "| **slower** |" in text
    assert "| **geomean B/A (3 rows)** |" in text and "- A: Open MPI 5.0.11 (run 1)" in text


def test_compare_alpha(db):
    # At alpha 1e-4 even the doubling (p = 1.8e-4) is not significant.
    document = json.loads(invoke("compare", "1", "2", "--alpha", "0.0001", "--format", "json", "--db", str(db)).stdout)
    assert not any(row["significant"] for row in document["rows"])
    assert_one_error_line(invoke("compare", "1", "2", "--alpha", "2", "--db", str(db)), 2)


def test_compare_study_implementations(db):
    document = json.loads(invoke("compare", "s:ompi", "s:mpich", "--format", "json", "--db", str(db)).stdout)
    assert document["a"] == "ompi (run 1)" and document["b"] == "mpich (run 2)"
    assert {row["bytes"]: row["ratio_b_a"] for row in document["rows"]}[1024] == pytest.approx(2.0)


def test_compare_errors_are_one_line(db):
    assert "no run 9" in assert_one_error_line(invoke("compare", "1", "9", "--db", str(db)))
    assert "names 2 implementations" in assert_one_error_line(invoke("compare", "s", "2", "--db", str(db)))
    assert "no implementation 'x'" in assert_one_error_line(invoke("compare", "s:x", "2", "--db", str(db)))
    assert "neither a run id nor a study" in assert_one_error_line(invoke("compare", "nope", "2", "--db", str(db)))


def test_compare_without_common_rows(db, tmp_path):
    with Store(db) as store:
        store_records(store, [run_record(), result_record(benchmark="Allreduce", samples_ns=SAMPLES)])
    assert "no measured row in common" in assert_one_error_line(invoke("compare", "1", "3", "--db", str(db)))


def test_study_commands(db):
    listed = invoke("study", "list", "--db", str(db))
    assert listed.exit_code == 0 and listed.stdout.splitlines() == ["s:mpich\trun 2", "s:ompi\trun 1"]
    added = invoke("study", "add", "t", "1", "2", "--db", str(db))
    assert added.exit_code == 0, added.stderr
    # Without --impl a run is labelled with its MPI name (run 1 was stored as openmpi, run 2 as mpich).
    assert added.stdout.splitlines() == ["run 1 is t:openmpi", "run 2 is t:mpich"]
    assert invoke("study", "list", "t", "--db", str(db)).stdout.splitlines() == ["t:mpich\trun 2", "t:openmpi\trun 1"]
    assert "cannot name a study" in assert_one_error_line(invoke("study", "add", "12", "1", "--db", str(db)))
    assert "no run 7" in assert_one_error_line(invoke("study", "add", "t", "7", "--db", str(db)))


def test_equal_labels_get_the_run_id(db):
    from mpimark.storage.selection import load

    with Store(db, create=False) as store:
        labels = [s.label for s in load(store, ["1", "1", "s"])]
    assert labels == ["Open MPI 5.0.11 (run 1)", "Open MPI 5.0.11 (run 1)", "mpich", "ompi"]


# -- the regression gate ----------------------------------------------------------------------------------


def test_gate_fails_on_a_slower_run(db):
    result = invoke("compare", "1", "2", "--fail-if-slower", "5%", "--db", str(db))
    assert result.exit_code == 3
    assert "regression gate: FAIL: 1 of 3 rows significantly slower by more than 5%" in result.stdout
    assert "2 against 1: PingPong np=2 1024 B: 1.045 -> 2.090 usec, x2.000" in result.stdout


def test_gate_passes_on_an_equal_run_and_below_the_threshold(db):
    result = invoke("compare", "1", "1", "--fail-if-slower", "5%", "--db", str(db))
    assert result.exit_code == 0 and "regression gate: PASS" in result.stdout
    assert invoke("compare", "2", "1", "--fail-if-slower", "5", "--db", str(db)).exit_code == 0  # B faster
    assert invoke("compare", "1", "2", "--fail-if-slower", "150%", "--db", str(db)).exit_code == 0  # x2 < x2.5


def test_gate_markdown_and_json_for_ci(db):
    text = invoke("compare", "s", "--baseline", "ompi", "--fail-if-slower", "5%", "--format", "markdown",
                  "--db", str(db))
    assert text.exit_code == 3
    assert "### ❌ FAIL: 1 of 3 rows significantly slower by more than 5%" in text.stdout
    assert "| ompi | mpich | PingPong np=2 1024 B | 1.045 | 2.090 | 2.000 |" in text.stdout
    document = invoke("compare", "1", "2", "--fail-if-slower", "5%", "--format", "json", "--db", str(db))
    assert document.exit_code == 3 and json.loads(document.stdout)["rows"]  # the summary went to stderr
    assert "regression gate: FAIL" in document.stderr


def test_gate_threshold_must_be_a_percentage(db):
    result = invoke("compare", "1", "2", "--fail-if-slower", "five", "--db", str(db))
    assert result.exit_code == 2 and "is not a percentage" in result.stderr


def test_the_gate_controls_the_family_wise_error_and_compare_the_false_discovery_rate(db):
    # compare describes many rows: Benjamini-Hochberg; the gate fails a job on one row: Holm (docs/analysis.md)
    assert json.loads(invoke("compare", "1", "2", "--format", "json", "--db", str(db)).stdout)["correction"] == "bh"
    gated = invoke("compare", "1", "2", "--fail-if-slower", "5%", "--format", "json", "--db", str(db))
    assert json.loads(gated.stdout)["correction"] == "holm" and "p (holm)" in gated.stderr
    chosen = invoke("compare", "1", "2", "--fail-if-slower", "5%", "--correction", "bh", "--format", "json",
                    "--db", str(db))
    assert json.loads(chosen.stdout)["correction"] == "bh"
