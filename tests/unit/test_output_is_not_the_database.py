"""An output path that is the results database or its -wal/-shm is refused, whatever it is called (issue 23, 1).

`run --json DB` had replaced the database with the stream, `export -o DB` truncated it to 0 bytes and
`report -o DB` wrote HTML over it. Each case: one line, exit 2, the database as it was.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

import click
import pytest

from mpimark.commands import recording
from mpimark.storage.store import Store

from .cli_helpers import assert_one_error_line, invoke

IMB_TEXT = Path(__file__).parent / "data" / "import" / "imb_2021.txt"


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def db(tmp_path) -> Path:
    path = tmp_path / "results.db"
    assert invoke("import", str(IMB_TEXT), "--db", str(path)).exit_code == 0
    return path


def _same_file_names(db: Path) -> list[str]:
    """Other names of the database: a relative path with .., a symbolic link, a hard link, its side files."""
    (db.parent / "sub").mkdir()
    (db.parent / "link.db").symlink_to(db)
    os.link(db, db.parent / "hard.db")
    return [str(db.parent / "sub" / ".." / db.name), str(db.parent / "link.db"), str(db.parent / "hard.db"),
            f"{db}-wal", f"{db}-shm"]


@pytest.mark.parametrize("command", [["export", "1", "-o"], ["export", "1", "--format", "csv", "-o"],
                                     ["report", "1", "-o"]])
def test_export_and_report_refuse_the_database(db, command):
    before = _digest(db)
    for name in _same_file_names(db):
        line = assert_one_error_line(invoke(*command, name, "--db", str(db)), exit_code=2)
        assert f"-o {name} is the results database" in line and "would destroy the stored runs" in line
        assert _digest(db) == before
    with Store(db, for_reading=True) as store:
        assert store.run(1).results > 0


def test_summary_refuses_the_default_database(db):
    stream = Path(__file__).parent / "data" / "imb" / "basic.jsonl"
    before = _digest(db)
    line = assert_one_error_line(invoke("summary", str(stream), "-o", str(db), MPIMARK_DB=str(db)), exit_code=2)
    assert "is the results database" in line and _digest(db) == before


def test_a_plot_directory_whose_file_would_be_the_database(db, tmp_path):
    first = invoke("plot", "1", "-o", str(tmp_path / "plots"), "--db", str(db))
    assert first.exit_code == 0, first.output
    victim = tmp_path / "here" / Path(first.stdout.split()[-1]).name  # the database named like the last plot
    victim.parent.mkdir()
    shutil.copy(db, victim)
    before = _digest(victim)
    line = assert_one_error_line(invoke("plot", "1", "-o", str(victim.parent), "--db", str(victim)), exit_code=2)
    assert "is the results database" in line and _digest(victim) == before


def test_a_tools_out_directory_holding_the_database(tmp_path):
    db = tmp_path / "b_eff.sum"  # b_eff writes DIR/b_eff.sum
    Store(db).close()
    before = _digest(db)
    line = assert_one_error_line(invoke("beff", "-n", "2", "--out", str(tmp_path), "--db", str(db)), exit_code=2)
    assert f"--out {tmp_path / 'b_eff.sum'} is the results database" in line and _digest(db) == before


@pytest.mark.parametrize("launches", [1, 3])
def test_run_json_is_refused_before_anything_is_launched(tmp_path, launches):
    db = tmp_path / "results.db"
    # with --launches 3, --json FILE writes FILE.1.jsonl ... FILE.3.jsonl: the database named like one of them
    json_file = db if launches == 1 else tmp_path / "results.jsonl"
    if launches > 1:
        db = tmp_path / "results.2.jsonl"
    with Store(db) as store:
        with pytest.raises(click.UsageError, match="--json .* is the results database"):
            next(recording.run_launches(click.Context(click.Command("run")), store, launches, None, 2, "core",
                                        "mpi1", [], json_file))
        assert store.runs() == []
