"""export STUDY (tidy CSV / JSON Lines, per measurement or per sample) and `mpimark list`."""

from __future__ import annotations

import csv
import io
import json

from .cli_helpers import invoke
from .test_compare_cli import db  # noqa: F401  (the fixture: runs 1 (ompi) and 2 (mpich) in study s)


def test_a_study_as_one_tidy_csv(db):  # noqa: F811
    result = invoke("export", "s", "--format", "csv", "--db", str(db))
    assert result.exit_code == 0, result.stderr
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert len(rows) == 6 and {r["implementation"] for r in rows} == {"ompi", "mpich"}
    row = next(r for r in rows if r["implementation"] == "mpich" and r["bytes"] == "1024")
    assert row["benchmark"] == "PingPong" and row["processes"] == "2" and float(row["time_usec"]) == 1.6
    assert row["mpi_library"] == "MPICH Version: 4.1" and row["samples"] == "10" and row["run_id"] == "2"


def test_a_study_per_sample_as_json_lines(db):  # noqa: F811
    result = invoke("export", "s:ompi", "--format", "json", "--samples", "--db", str(db))
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(lines) == 10 + 10 + 3 and {line["implementation"] for line in lines} == {"ompi"}
    assert lines[0] == {"implementation": "ompi", "run_id": 1, "nodes": 1, "ranks_per_node": "2",
                        "suite": "mpi1", "benchmark": "PingPong", "mode": "", "processes": 2, "group": None,
                        "bytes": 8, "sample": 0, "time_usec": 1.0}


def test_a_study_exports_as_csv_or_json_only(db):  # noqa: F811
    result = invoke("export", "s", "--format", "imb", "--db", str(db))
    assert result.exit_code == 2 and "a study exports as csv or json" in result.stderr


def test_list_shows_a_suites_benchmarks():
    result = invoke("list", "mpi1", "--format", "json")
    assert result.exit_code == 0, result.stderr
    rows = json.loads(result.stdout)
    assert {r["suite"] for r in rows} == {"mpi1"}
    pingpong = next(r for r in rows if r["benchmark"] == "PingPong")
    assert pingpong["class"] == "single transfer" and pingpong["default"] is True
    assert "no suite 'nope'" in invoke("list", "nope").stderr
