"""Integers beyond SQLite's 64 bits, on every path in: one clear line, never "internal error (OverflowError)"
(issue 23, 6). Fixtures: data/hostile/."""

from __future__ import annotations

from pathlib import Path

import pytest

from mpimark.storage.store import MAX_INTEGER, Store

from .cli_helpers import assert_one_error_line, invoke

HOSTILE = Path(__file__).parent / "data" / "hostile"
IMB_TEXT = Path(__file__).parent / "data" / "import" / "imb_2021.txt"
HUGE = "99999999999999999999999"


@pytest.fixture
def db(tmp_path) -> Path:
    path = tmp_path / "results.db"
    assert invoke("import", str(IMB_TEXT), "--db", str(path)).exit_code == 0
    return path


@pytest.mark.parametrize("command", [["show", HUGE], ["show", "--stats", HUGE], ["export", HUGE],
                                     ["compare", HUGE, "1"], ["compare", "1", f"1-{HUGE}"],
                                     ["report", HUGE, "-o", "x.html"], ["plot", f"{HUGE},1", "-o", "plots"]])
def test_run_ids_beyond_sqlite(db, command):
    line = assert_one_error_line(invoke(*command, "--db", str(db)))
    assert "internal error" not in line and HUGE in line and "run" in line


def test_the_largest_sqlite_integer_is_read_exactly_and_stored(db):
    # Read through float, 9223372036854775807 became 2^63: one beyond, and an OverflowError.
    assert invoke("import", str(HOSTILE / "imb_bytes_max.txt"), "--db", str(db)).exit_code == 0
    with Store(db) as store:
        sizes = [r["bytes"] for r in store.iter_results(2)]
    assert MAX_INTEGER in sizes


def test_an_imb_row_beyond_sqlite_names_its_cell(db):
    line = assert_one_error_line(invoke("import", str(HOSTILE / "imb_bytes_beyond.txt"), "--db", str(db)))
    assert "imb_bytes_beyond.txt:47: '9223372036854775808' in column '#bytes' is beyond the integers" in line


def test_a_stream_record_beyond_sqlite_names_file_line_and_field(db):
    path = HOSTILE / "stream_bytes_beyond.jsonl"
    line = assert_one_error_line(invoke("import", str(path), "--db", str(db)))
    assert f"{path}:5: its bytes {HUGE} is beyond the integers the results database stores" in line
    with Store(db) as store:
        assert [row.id for row in store.runs()] == [1]  # nothing of the refused file was stored
