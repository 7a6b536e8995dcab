"""What the README and the help promise about small things, checked: typo hints, --db's default, the library
string on one line, a start-up run's real duration, the -check defects column beside the statistics."""

from __future__ import annotations

import re
from pathlib import Path

import click

from mpimark.cli import cli
from mpimark.presentation.export import describe
from mpimark.storage.store import Store

from .cli_helpers import invoke
from .conftest import store_records
from .records import end_record, result_record, run_record

SOURCES = Path(__file__).resolve().parents[2] / "src" / "mpimark"


def _commands(group: click.Group = cli, prefix: str = "") -> set[str]:
    """Every command line that names a command: "run", "mpi list", "study list", ..."""
    found = set()
    for name, command in group.commands.items():
        found.add(f"{prefix}{name}")
        if isinstance(command, click.Group):
            found |= _commands(command, f"{prefix}{name} ")
    return found


def test_a_typos_hint_names_commands_that_exist():
    commands = _commands()
    for typo in ("comapre", "shwo", "expor", "reprot", "imprt", "matirx"):
        line = invoke(typo).stderr
        suggested = re.findall(r"'([a-z-]+)'", line.split("Did you mean", 1)[1]) if "Did you mean" in line else []
        assert suggested, line
        assert all(s in commands for s in suggested if s != "mpimark --help"), line


def test_every_mpimark_command_a_message_names_exists():
    """Hints in error lines ("'mpimark study list' shows ...") must be commands a user can type."""
    commands = _commands()
    named = set()
    for path in SOURCES.rglob("*.py"):
        named |= set(re.findall(r"'mpimark ((?:[a-z]+)(?: [a-z]+)?)", path.read_text(encoding="utf-8")))
    assert named
    for words in named:
        assert words in commands or words.split()[0] in commands, words


def test_db_help_names_the_xdg_data_directory():
    help_text = invoke("runs", "--help").stdout
    assert "$MPIMARK_DB" in help_text and "$XDG_DATA_HOME" in " ".join(help_text.split())


def _stored(tmp_path, records: list[dict], suite: str = "mpi1") -> tuple:
    with Store(tmp_path / "r.db") as store:
        run_id = store_records(store, records, status="complete", suite=suite)
        return store.run(run_id), store.records(run_id)


def test_the_library_string_with_a_tab_is_one_line(tmp_path):
    run = run_record()
    run["mpi"] = {**run["mpi"], "library_version": "MPICH Version:\t4.0.2\nMPICH Release date: x"}
    _stored(tmp_path, [run, result_record(), end_record()])
    shown = invoke("show", "1", "--db", str(tmp_path / "r.db")).stdout
    assert "MPICH Version: 4.0.2 MPICH Release date: x | 2 processes on node1" in shown
    assert "\t" not in shown


def test_show_stats_keeps_the_defects_column_of_a_checked_run(tmp_path):
    _stored(tmp_path, [run_record(), result_record(defects=0), result_record(bytes=2048, count=2048, defects=3),
                       end_record()])
    shown = invoke("show", "1", "--stats", "--db", str(tmp_path / "r.db")).stdout
    assert "defects" in shown and "MB/s at median" in shown
    row = next(line for line in shown.splitlines() if " 2048 " in line)
    assert row.strip("│ ").split("│")[-1].strip() == "3"


def test_a_start_up_run_shows_how_long_the_start_up_took(tmp_path):
    run = run_record() | {"suite": "startup", "options": {"launch_ns": 1, "init_only": False, "hello": False}}
    phases = [("process_start", 10.0), ("mpi_init_done", 300.0), ("first_barrier_done", 362.0)]
    rows = [result_record(benchmark="startup_since_launch", suite="startup", phase=phase, bytes=0, count=0,
                          min_ms=ms - 5, avg_ms=ms - 2, max_ms=ms, distribution=None, samples_ns=None)
            for phase, ms in phases]
    row, records = _stored(tmp_path, [run, *rows, {**end_record(), "elapsed_s": 0.025}], suite="startup")
    line = describe(row, records)
    assert "start-up 0.362 s (launch to the end of 1st barrier, slowest rank)" in line
    assert "core ran 0.025 s after MPI_Init" in line and "core ran 0.0 s" not in line
