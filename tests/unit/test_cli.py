"""The mpimark command, driven through click's CliRunner as a user would."""

from __future__ import annotations

import csv
import io
import json
import os

import pytest

from .cli_helpers import assert_one_error_line, invoke
from .records import end_record, result_record, run_record, skipped_record

HEADERS = ["bytes", "repetitions", "t_avg[usec]", "median[usec]", "CI95 low[usec]", "CI95 high[usec]",
           "MB/s at median"]


@pytest.fixture
def results_file(write_jsonl):
    return write_jsonl(
        [
            run_record(),
            result_record(bytes=0, count=0, t_avg_usec=0.5, mbytes_per_sec=0.0),
            result_record(),
            skipped_record("timeout", bytes=2048, count=2048),
            result_record(benchmark="Barrier", bytes=0, count=0, mbytes_per_sec=None, t_avg_usec=3.25),
            end_record(),
        ]
    )


def test_summary_table(results_file):
    result = invoke("summary", str(results_file))
    assert result.exit_code == 0, result.stderr
    for text in [*HEADERS, "PingPong, 2 processes", "Barrier, 2 processes", "Open MPI v5.0.11"]:
        assert text in result.stdout
    row = next(line for line in result.stdout.splitlines() if " 1024 " in line)
    cells = [cell.strip() for cell in row.strip().strip("│").split("│")]
    # MB/s at the median beside it (1024 B / 1.6 usec), not IMB's figure of t_max (585.14)
    assert cells == ["1024", "1000", "1.62", "1.60", "1.55", "1.68", "640.00", "ok"]
    assert "timeout" in result.stdout


def test_summary_markdown(results_file, tmp_path):
    out = tmp_path / "summary.md"
    result = invoke("summary", str(results_file), "--format", "markdown", "-o", str(out))
    assert result.exit_code == 0 and result.stdout == ""
    text = out.read_text()
    assert "## PingPong, 2 processes" in text
    assert "| " + " | ".join([*HEADERS, "status"]) + " |" in text  # PingPong has a non-ok row
    assert "| 1024 | 1000 | 1.62 | 1.60 | 1.55 | 1.68 | 640.00 | ok |" in text
    assert "| 2048 | - | - | - | - | - | - | timeout |" in text
    assert "| " + " | ".join(HEADERS) + " |" in text  # Barrier: all ok, no status column
    assert "| 0 | 1000 | 3.25 | 1.60 | 1.55 | 1.68 | - |" in text


def test_summary_csv(results_file):
    result = invoke("summary", str(results_file), "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert list(rows[0]) == ["benchmark", "multi", "processes", "group", *HEADERS, "status"]
    assert rows[1] == {
        "benchmark": "PingPong", "multi": "", "processes": "2", "group": "", "bytes": "1024",
        "repetitions": "1000", "t_avg[usec]": "1.625", "median[usec]": "1.6", "CI95 low[usec]": "1.55",
        "CI95 high[usec]": "1.68", "MB/s at median": str(585.14 * 1.75 / 1.6), "status": "ok",
    }
    assert rows[2]["status"] == "timeout" and rows[2]["t_avg[usec]"] == ""
    assert [r["benchmark"] for r in rows] == ["PingPong"] * 3 + ["Barrier"]


def test_summary_json(results_file):
    document = json.loads(invoke("summary", str(results_file), "--format", "json").output)
    assert document["run"]["mpi"]["library_version"] == "Open MPI v5.0.11"
    pingpong = document["tables"][0]
    key = {name: pingpong[name] for name in ("benchmark", "multi", "processes", "group")}
    assert key == {"benchmark": "PingPong", "multi": None, "processes": 2, "group": None}
    assert pingpong["rows"][1] == {
        "bytes": 1024, "repetitions": 1000, "t_avg_usec": 1.625, "median_usec": 1.6, "ci95_low_usec": 1.55,
        "ci95_high_usec": 1.68, "mbytes_per_sec_at_median": 585.14 * 1.75 / 1.6, "status": "ok",
    }
    assert pingpong["rows"][2]["median_usec"] is None


def test_validate_ok(results_file):
    result = invoke("validate", str(results_file))
    assert result.exit_code == 0
    assert result.stdout == f"{results_file}: 6 records OK\n"


def test_validate_rejects_a_malformed_line_with_file_and_line(write_jsonl, results_file):
    bad = write_jsonl([run_record(), result_record(), '{"type": "result", "bytes": }'], name="bad.jsonl")
    result = invoke("validate", str(results_file), str(bad))
    assert result.stdout == f"{results_file}: 6 records OK\n"  # good files are still reported
    assert assert_one_error_line(result).startswith(f"mpimark: error: {bad}:3: not JSON")


def test_validate_rejects_a_schema_violation(write_jsonl):
    bad = write_jsonl([run_record(), result_record(status="crashed")])
    line = assert_one_error_line(invoke("validate", str(bad)))
    assert f"{bad}:2: result record at $.status" in line


def test_missing_file_is_one_line_not_a_traceback(tmp_path):
    line = assert_one_error_line(invoke("summary", str(tmp_path / "absent.jsonl")))
    assert "absent.jsonl: cannot read: No such file or directory" in line


def test_usage_error_is_one_line(results_file):
    line = assert_one_error_line(invoke("summary", str(results_file), "--format", "xml"), exit_code=2)
    assert "'xml' is not one of" in line and "mpimark summary --help" in line


def test_core_path(tmp_path):
    core = tmp_path / "mpimark-core"
    core.write_text("#!/bin/sh\n")
    core.chmod(0o755)
    result = invoke("core-path", MPIMARK_CORE=str(core))
    assert result.exit_code == 0 and result.stdout == f"{core}\n"
    line = assert_one_error_line(invoke("core-path", MPIMARK_CORE=str(tmp_path / "nothing")))
    assert "fix MPIMARK_CORE" in line


def test_core_path_default_is_the_repository_build():
    result = invoke("core-path", MPIMARK_CORE="")
    expected = os.path.join("build", "core", "mpimark-core")
    assert expected in (result.stdout if result.exit_code == 0 else result.stderr)
