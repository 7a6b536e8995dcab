"""`mpimark import` of one IMB log reads it once, checking and storing as it goes (issue 23, item 3: 10 MB/s),
and its plain rows, split straight into the results table's columns (importers/imb_rows.py), are stored exactly
as the records the careful reading gives."""

from __future__ import annotations

from pathlib import Path

import pytest

from mpimark.storage import compact, store as store_module
from mpimark.storage import importers
from mpimark.storage.importers import parse_file, store_parsed
from mpimark.storage.store import Store
from tests.unit.cli_helpers import assert_one_error_line, invoke

DATA = Path(__file__).parent / "data"
IMB_FILES = sorted([*(DATA / "imb").glob("*.txt"), *(DATA / "import").glob("imb_*.txt"),
                    *(DATA / "hostile").glob("imb_*.txt")])
IMB_FILES = [path for path in IMB_FILES if path.name != "imb_bytes_beyond.txt"]  # refused: test_huge_integers.py
ODD = DATA / "hostile" / "imb_odd_numbers.txt"


def _counting_lines(monkeypatch) -> list[int]:
    """Count the lines the importers read from files."""
    read = [0]
    original = importers._lines

    def counted(path, newline=""):
        for line in original(path, newline):
            read[0] += 1
            yield line

    monkeypatch.setattr(importers, "_lines", counted)
    return read


def test_one_imb_log_is_read_once(tmp_path, monkeypatch):
    source = DATA / "import" / "imb_2021.txt"
    lines = source.read_text(encoding="utf-8").splitlines()
    header = next(n for n, line in enumerate(lines, start=1) if line.startswith("# Benchmarking"))
    read = _counting_lines(monkeypatch)
    result = invoke("import", str(source), "--db", str(tmp_path / "r.db"))
    assert result.exit_code == 0, result.output
    # Its header (up to the first table) is read apart, then every line once: checking and storing are one read.
    assert read[0] == header + len(lines)


@pytest.mark.parametrize("path", IMB_FILES, ids=lambda p: p.name)
def test_plain_rows_are_split_as_compact_splits_their_records(path):
    careful = parse_file(path)
    expected = [compact.split(record) for record in careful.rows()]
    one_pass = parse_file(path, check=False)
    stored = [row if type(row) is tuple else compact.split(row) for row in one_pass.stored()]
    assert stored == expected
    assert [[(type(v), v) for v in row[0]] for row in stored] == [[(type(v), v) for v in row[0]] for row in expected]
    # The read sets the counts as the check does.
    assert (one_pass.count, one_pass.max_processes, one_pass.incomplete, one_pass.notes, one_pass.warnings) == (
        careful.count, careful.max_processes, careful.incomplete, careful.notes, careful.warnings)


def test_odd_numbers_come_back_exactly(tmp_path):
    """-0.00, 1e-05, +0.79, a fullwidth digit, 1_000.5, defects written as a float: the reader of plain rows
    takes some (and must give what the careful reading gives), leaves the rest to it (-0.0 is kept beside the
    columns)."""
    parsed = parse_file(ODD, check=False)
    kinds = [type(row) for row in parsed.stored()]
    assert tuple in kinds and dict in kinds  # both ways were taken
    with Store(tmp_path / "r.db") as db:
        run_id = store_parsed(db, parse_file(ODD, check=False))
        records = db.records(run_id)
    assert records[0]["kind"] == "import" and records[0]["message"].startswith("imported 11 results")
    assert records[1:] == parse_file(ODD).results
    assert str(records[2]["t_max_usec"]) == "-0.0" and str(records[6]["mbytes_per_sec"]) == "-0.0"


def test_a_bad_line_deep_in_one_log_stores_nothing_of_it(tmp_path, monkeypatch):
    db = tmp_path / "r.db"
    assert invoke("import", str(DATA / "import" / "osu_bw.txt"), "--db", str(db)).exit_code == 0
    text = (DATA / "import" / "imb_2021.txt").read_text(encoding="utf-8")
    broken = tmp_path / "broken.txt"
    broken.write_text(text.replace("      1048576           40       179.50      5841.78",
                                   "      1048576           40       179.50      58x1.78"), encoding="utf-8")
    monkeypatch.setattr(store_module, "IMPORT_BATCH_ROWS", 1)  # rows committed before the bad line is read
    error = assert_one_error_line(invoke("import", str(broken), "--db", str(db)))
    assert f"{broken}:39: '58x1.78' in column 'Mbytes/sec' is not a number" in error
    with Store(db, create=False) as store:
        assert [row.id for row in store.runs()] == [1]
        assert store.query("SELECT COUNT(*) FROM results WHERE run_id != 1")[0][0] == 0


def test_a_column_one_row_of_a_batch_fills_is_stored(tmp_path):
    """The store leaves out of a batch's INSERT the columns no row of it fills (NULL): one row's value alone, a
    column of one place, and a row of none must all come back."""
    plain = {"type": "result", "benchmark": "PingPong", "suite": "mpi1", "processes": 2, "bytes": 0,
             "t_max_usec": 1.0, "samples_ns": []}
    records = [dict(plain, bytes=size) for size in range(50)]
    records[17]["msgs_per_sec"] = 5.0
    records[31]["distribution"] = {"median_usec": 0.5, "samples": 3}
    meta = {"status": "complete", "message": None, "launch_command": [], "suite": "mpi1", "requested_processes": 2,
            "environment": {}, "mpi_name": None, "mpi_prefix": None}
    with Store(tmp_path / "r.db") as db:
        for batch in (records, [{"type": "result", "benchmark": "Barrier"}, {"type": "result"}], [{"type": "result"}]):
            assert db.records(db.add_run(records=iter(batch), **meta)) == batch
