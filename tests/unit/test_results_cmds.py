"""runs, show and export, driven through click's CliRunner with --db and $MPIMARK_DB."""

from __future__ import annotations

import csv
import io
import json
import re
import sqlite3

import pytest

from mpimark.records.results import read_records
from mpimark.storage.store import MIGRATIONS, Store

from .cli_helpers import assert_one_error_line, invoke
from .conftest import IMB_FIXTURES, store_records
from .records import end_record, event_record, result_record, run_record, skipped_record

MULTI1 = next(p for p in IMB_FIXTURES if p.stem == "multi1")


@pytest.fixture
def db(tmp_path):
    """A database with a finished run (1), a real -multi 1 run (2) and a failed run without records (3)."""
    path = tmp_path / "results.db"
    with Store(path) as store:
        store_records(store, [run_record(), event_record(), result_record(bytes=0, count=0), result_record(),
                              skipped_record("timeout", bytes=2048, count=2048), end_record()], status="complete")
        store_records(store, read_records(MULTI1), status="complete")
        store_records(store, [], mpi_name=None, requested_processes=4, status="failed", message="mpiexec exited 1")
    return path


def test_runs_lists_newest_first(db):
    result = invoke("runs", "--db", str(db))
    assert result.exit_code == 0, result.stderr
    rows = [line.strip("│ ").split("│") for line in result.stdout.splitlines() if line.startswith("│")]
    cells = [[c.strip() for c in row] for row in rows]
    assert [row[0] for row in cells] == ["3", "2", "1"]
    # nodes × ranks: one host, so 1 × all of them (these streams predate the core's ranks_per_node)
    assert cells[2][2:] == ["complete", "mpi1", "Open MPI 5.0.11", "2", "1 × 2", "node1", "3"]
    multi1_results = sum(r["type"] == "result" for r in read_records(MULTI1))
    assert cells[1][4:] == ["Open MPI 4.1.4", "2", "1 × 2", "vm", str(multi1_results)]
    assert cells[0][2:] == ["failed", "mpi1", "?", "4", "", "", "0"]
    for header in ("id", "started", "status", "suite", "MPI", "processes", "nodes × ranks", "hosts", "results"):
        assert header in result.stdout


def test_db_from_the_environment(db):
    by_option = invoke("runs", "--db", str(db))
    by_environment = invoke("runs", MPIMARK_DB=str(db))
    assert by_environment.exit_code == 0 and by_environment.stdout == by_option.stdout
    assert invoke("show", "1", MPIMARK_DB=str(db)).exit_code == 0


def test_the_option_wins_over_the_environment(db, tmp_path):
    result = invoke("runs", "--db", str(db), MPIMARK_DB=str(tmp_path / "other.db"))
    assert result.exit_code == 0 and "Open MPI 5.0.11" in result.stdout


def test_runs_without_a_database(tmp_path):
    result = invoke("runs", "--db", str(tmp_path / "none.db"))
    assert result.exit_code == 0 and result.stdout == f"no runs stored in {tmp_path / 'none.db'}\n"
    assert not (tmp_path / "none.db").exists()


def test_show_prints_imb_tables(db):
    result = invoke("show", "2", "--db", str(db))
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("run 2: complete | openmpi in /usr | 2 processes requested | started ")
    assert lines[1].startswith("Open MPI v4.1.4")
    assert lines[2] == "command: mpiexec -n 2 mpimark-core mpi1"
    assert lines[3] == "environment: OMPI_MCA_btl=self,vader"
    core_text = MULTI1.with_suffix(".txt").read_text()
    tables = core_text[core_text.index("\n#---", core_text.index("# List of Benchmarks")):
                       core_text.index("\n\n# All processes")]
    assert tables in result.stdout


def test_show_stats_prints_medians_and_intervals(db):
    result = invoke("show", "1", "--stats", "--db", str(db))
    assert result.exit_code == 0, result.stderr
    for text in ("PingPong, 2 processes", "median[usec]", "CI95 low[usec]", "CI95 high[usec]", "timeout"):
        assert text in result.stdout
    row = next(line for line in result.stdout.splitlines() if " 1024 " in line)
    # MB/s at the median beside it (1024 B / 1.6 usec), not IMB's MB/s of t_max
    assert [c.strip() for c in row.strip().strip("│").split("│")] == [
        "1024", "1000", "1.62", "1.60", "1.55", "1.68", "640.00", "ok"]


def test_show_a_run_without_results(db):
    result = invoke("show", "3", "--db", str(db))
    assert result.exit_code == 0
    assert re.fullmatch(r"run 3: failed \(mpiexec exited 1\) \| 4 processes requested \| started \S+Z",
                        result.stdout.splitlines()[0])
    assert result.stdout.endswith("run 3 has no results\n")


def test_export_json_to_a_file_is_the_core_file(db, tmp_path):
    out = tmp_path / "run.jsonl"
    result = invoke("export", "2", "--format", "json", "-o", str(out), "--db", str(db))
    assert result.exit_code == 0 and result.stdout == ""
    assert out.read_text() == MULTI1.read_text()


def test_export_default_is_json(db):
    result = invoke("export", "1", "--db", str(db))
    assert [json.loads(line)["type"] for line in result.stdout.splitlines()] == [
        "run", "event", "result", "result", "result", "end"]


def test_export_csv_markdown_imb(db):
    rows = list(csv.DictReader(io.StringIO(invoke("export", "1", "--format", "csv", "--db", str(db)).stdout)))
    assert [(r["bytes"], r["status"]) for r in rows] == [("0", "ok"), ("1024", "ok"), ("2048", "timeout")]
    markdown = invoke("export", "1", "--format", "markdown", "--db", str(db)).stdout
    assert markdown.startswith("# mpimark run 1\n") and "## PingPong, 2 processes" in markdown
    imb = invoke("export", "2", "--format", "imb", "--db", str(db)).stdout
    assert imb == MULTI1.with_suffix(".txt").read_text()


# -- errors: one line, no traceback ---------------------------------------------


def test_unknown_run(db):
    for args in (("show", "42"), ("export", "42"), ("show", "42", "--stats")):
        line = assert_one_error_line(invoke(*args, "--db", str(db)))
        assert line == f"mpimark: error: no run 42 in {db}; 'mpimark runs' lists the stored runs"


def test_missing_database(tmp_path):
    line = assert_one_error_line(invoke("show", "1", "--db", str(tmp_path / "none.db")))
    assert line == f"mpimark: error: no results database at {tmp_path / 'none.db'}; run 'mpimark run' first or use --db"


def test_corrupt_database(tmp_path):
    path = tmp_path / "bad.db"
    path.write_text("this is not SQLite, but it is long enough to have a header" * 10)
    for args in (("runs",), ("show", "1"), ("export", "1")):
        line = assert_one_error_line(invoke(*args, MPIMARK_DB=str(path)))
        assert line.startswith(f"mpimark: error: {path} is not an mpimark results database (or is corrupt): ")
        assert line.endswith("; move it away or use --db")


def test_database_from_a_newer_mpimark(db):
    sqlite3.connect(db).execute(f"PRAGMA user_version = {len(MIGRATIONS) + 5}")
    line = assert_one_error_line(invoke("runs", "--db", str(db)))
    assert "was written by a newer mpimark" in line


def test_usage_errors(db):
    line = assert_one_error_line(invoke("export", "1", "--format", "xml", "--db", str(db)), exit_code=2)
    assert "'xml' is not one of" in line and "mpimark export --help" in line
    line = assert_one_error_line(invoke("show", "first", "--db", str(db)), exit_code=2)
    assert "'first' is not a valid integer" in line


def test_the_moved_commands_are_registered():
    from mpimark.cli import cli
    from mpimark.commands import results_cmds

    for command in results_cmds.COMMANDS:
        assert cli.commands[command.name] is command
    assert {"runs", "show", "export", "summary", "validate", "core-path"} <= set(cli.commands)


def test_a_command_module_without_a_commands_list():
    import types

    import click

    from mpimark.cli import _commands_of

    module = types.ModuleType("fake_cmds")

    @click.group()
    def mpi():
        """MPI implementations."""

    @mpi.command("list")
    def mpi_list():
        """List them."""

    @click.command()
    def run():
        """Run."""

    module.mpi, module.mpi_list, module.run, module.helper = mpi, mpi_list, run, len
    assert _commands_of(module) == [mpi, run]  # `list` stays under `mpi`
    module.COMMANDS = (run,)
    assert _commands_of(module) == [run]
