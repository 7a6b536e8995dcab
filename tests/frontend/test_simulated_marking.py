"""Runs on a simulated machine (SimGrid SMPI) are stored with their simulation and marked in every view.

The streams are a recorded Open MPI run (tests/unit/data/imb/basic.jsonl) and the same run with a
"simulation" key in its run record, as the core built with smpicc writes it: what the views do depends
only on that key, so no SimGrid installation is needed here.
"""

from __future__ import annotations

import csv
import io
import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from mpimark.cli import cli
from mpimark.records import simulation
from mpimark.records.results import read_records
from mpimark.storage import store as store_module
from mpimark.storage.store import MIGRATIONS, Store

ROOT = Path(__file__).resolve().parents[2]
MEASURED = ROOT / "tests" / "unit" / "data" / "imb" / "basic.jsonl"
TORUS = {"simulator": "SimGrid SMPI", "version": "3.32",
         "setup": {"platform": {"name": "torus", "file": "/somewhere/torus.xml", "sha256": "ab" * 32,
                                "topology": "TORUS 8,8,16,2,3,2", "parameters": {"link_bandwidth_GBps": 6.8},
                                "hosts": 2048, "shipped": True},
                   "coll_selector": "mpich", "ranks_per_host": 1, "simulate_computation": False,
                   "smpirun": "smpirun -platform torus.xml -np 2"}}
FLAT = {**TORUS, "setup": {**TORUS["setup"], "platform": {**TORUS["setup"]["platform"], "name": "flat",
                                                          "sha256": "cd" * 32, "topology": "FLAT 64"}}}
BY_HAND = {"simulator": "SimGrid SMPI", "version": "3.32", "setup": None}


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args))


def simulated_stream(path: Path, sim: dict) -> Path:
    """The measured stream with sim as its run record's "simulation" (a different file: imported apart)."""
    records = read_records(MEASURED)
    records[0]["simulation"] = sim
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


@pytest.fixture
def db(tmp_path) -> Path:
    """Run 1 measured, run 2 simulated on the torus, run 3 simulated on the flat cluster."""
    path = tmp_path / "results.db"
    for stream in (MEASURED, simulated_stream(tmp_path / "torus.jsonl", TORUS),
                   simulated_stream(tmp_path / "flat.jsonl", FLAT)):
        result = invoke("import", str(stream), "--db", str(path))
        assert result.exit_code == 0, result.output
    return path


def test_the_store_keeps_the_simulation_of_a_run(db):
    with Store(db, for_reading=True) as store:
        assert [store.run(i).simulation for i in (1, 2, 3)] == [None, TORUS, FLAT]
        assert store.runs()[0].simulation == FLAT


def test_a_run_stored_record_by_record_gets_its_simulation(tmp_path):
    """mpimark run stores the stream as it comes (add_record), not by import."""
    records = read_records(MEASURED)
    records[0]["simulation"] = BY_HAND
    with Store(tmp_path / "r.db") as store:
        run_id = store.begin_run(launch_command=["smpirun"], environment={}, mpi_name="smpi", mpi_prefix=None,
                                 requested_processes=2, suite="mpi1")
        for record in records:
            store.add_record(run_id, record)
        assert store.run(run_id).simulation == BY_HAND


def test_the_migration_fills_the_column_of_runs_stored_before(tmp_path, monkeypatch):
    """A database from before the column: a simulated run's record gives it; a measured run and a run record
    that is no JSON object stay NULL (the migration must not fail on them)."""
    before = next(i for i, m in enumerate(MIGRATIONS) if any("ADD COLUMN simulation" in s for s in m))
    path = tmp_path / "old.db"
    monkeypatch.setattr(store_module, "SCHEMA_VERSION", before)
    Store(path).close()
    sql = sqlite3.connect(path, isolation_level=None)
    for run_record in (json.dumps({"type": "run", "simulation": TORUS}), json.dumps({"type": "run"}),
                       '"simulation" but not JSON {', json.dumps({"type": "run", "simulation": "text"})):
        sql.execute("INSERT INTO runs (started_utc, status, suite, requested_processes, launch_command,"
                    " environment, run_record) VALUES ('2026-01-01T00:00:00Z', 'complete', 'mpi1', 2, '[]', '{}', ?)",
                    (run_record,))
    sql.close()
    monkeypatch.undo()
    with Store(path) as store:
        assert [row.simulation for row in sorted(store.runs(), key=lambda r: r.id)] == [TORUS, None, None, None]


def test_runs_marks_simulated_runs_with_their_platform(db):
    result = invoke("runs", "--db", str(db))
    assert result.exit_code == 0, result.output
    header = next(line for line in result.output.splitlines() if line.startswith("┃"))
    assert "simulated" in header
    rows = {line.split("│")[1].strip(): line for line in result.output.splitlines() if line.startswith("│")}
    assert "simulated, torus" in rows["2"] and "simulated, flat" in rows["3"]
    assert "simulated" not in rows["1"]


def test_runs_of_measured_runs_only_has_no_simulated_column(tmp_path):
    path = tmp_path / "m.db"
    assert invoke("import", str(MEASURED), "--db", str(path)).exit_code == 0
    assert "simulated" not in invoke("runs", "--db", str(path)).output


def test_show_and_stats_say_the_run_is_simulated(db):
    phrase = simulation.phrase(TORUS)
    assert phrase == "simulated: SimGrid SMPI 3.32, platform torus (TORUS 8,8,16,2,3,2), 2048 hosts, coll mpich"
    for args in ((), ("--stats",)):
        shown = invoke("show", "2", *args, "--db", str(db))
        assert shown.exit_code == 0, shown.output
        assert phrase in " ".join(shown.output.split())  # on the run's line, which a terminal may wrap
        assert "simulated" not in invoke("show", "1", *args, "--db", str(db)).output


def test_a_hand_run_smpirun_is_marked_without_its_setup():
    assert simulation.phrase(BY_HAND) == "simulated: SimGrid SMPI 3.32, setup not recorded (smpirun started by hand)"
    assert simulation.label(BY_HAND) == "simulated"
    # an imported file's object may hold anything: never a traceback
    assert simulation.phrase({"simulator": 3, "setup": {"platform": "torus", "ranks_per_host": True}}).startswith(
        "simulated: an unnamed simulator")


def test_exports_carry_simulated_and_platform(db):
    text = invoke("export", "2", "--format", "csv", "--db", str(db)).output
    rows = list(csv.DictReader(io.StringIO(text)))
    assert rows and all(row["simulated"] == "True" and row["platform"] == "torus" for row in rows)
    measured = next(csv.reader(io.StringIO(invoke("export", "1", "--format", "csv", "--db", str(db)).output)))
    assert "simulated" not in measured  # a measured run's columns are those it always had
    # json: the stream as the core wrote it, its run record's simulation included; importable again
    exported = [json.loads(line)
                for line in invoke("export", "2", "--format", "json", "--db", str(db)).output.splitlines()]
    assert exported[0]["simulation"] == TORUS
    assert simulation.phrase(TORUS) in invoke("export", "2", "--format", "markdown", "--db", str(db)).output
    assert "# Simulated             : SimGrid SMPI 3.32, platform torus" in invoke(
        "export", "2", "--format", "imb", "--db", str(db)).output
    study = list(csv.DictReader(io.StringIO(invoke("export", "1,2", "--format", "csv", "--db", str(db)).output)))
    assert {(row["run_id"], row["simulated"], row["platform"]) for row in study} == {("1", "False", ""),
                                                                                      ("2", "True", "torus")}


def test_import_says_the_stream_is_simulated(tmp_path):
    result = invoke("import", str(simulated_stream(tmp_path / "s.jsonl", TORUS)), "--db", str(tmp_path / "i.db"))
    assert result.exit_code == 0 and simulation.phrase(TORUS) in result.output


def test_compare_of_a_simulated_and_a_measured_run_says_so(db):
    result = invoke("compare", "1", "2", "--db", str(db))
    assert result.exit_code == 0, result.output
    flat = " ".join(result.output.split())
    assert "B is simulated (SimGrid SMPI 3.32, platform torus" in flat
    assert "A is measured: the difference is the simulator's model, not a measurement" in flat
    assert "(run 2; simulated, torus)" in flat  # the side's name, in the table's heading


def test_compare_of_runs_on_two_platforms_says_so(db):
    flat = " ".join(invoke("compare", "2", "3", "--db", str(db)).output.split())
    assert "the simulated runs are on different platforms (A: torus; B: flat)" in flat


def test_the_gate_refuses_a_simulated_run_against_a_measured_one(db):
    result = invoke("compare", "1", "2", "--fail-if-slower", "5%", "--db", str(db))
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("mpimark: error: --fail-if-slower: B is simulated, A measured")
    # two simulated runs are gated as any two runs (one launch a side: undecided, exit 4)
    assert invoke("compare", "2", "3", "--fail-if-slower", "5%", "--db", str(db)).exit_code == 4


def test_a_side_pooling_simulated_and_measured_launches_is_refused(db):
    result = invoke("compare", "1,2", "3", "--db", str(db))
    assert result.exit_code == 1
    assert "differ in machine (measured, or simulated on a platform)" in result.stderr


def test_the_report_labels_simulated_series_and_says_it_mixes_them(db, tmp_path):
    out = tmp_path / "r.html"
    result = invoke("report", "1", "2", "-o", str(out), "--db", str(db))
    assert result.exit_code == 0, result.output
    page = out.read_text()
    assert "This selection mixes simulated and measured runs: 1 simulated, 1 measured" in page
    assert page.index("Simulated runs.") < page.index("<h2")  # at the top, before any section
    assert "Open MPI 4.1.4 (run 2) (simulated, torus)" in page  # the series' label: every table and legend
    assert "run 2: simulated: SimGrid SMPI 3.32, platform torus" in page


def test_a_report_of_measured_runs_says_nothing_of_simulation(tmp_path):
    path = tmp_path / "m.db"
    assert invoke("import", str(MEASURED), "--db", str(path)).exit_code == 0
    out = tmp_path / "m.html"
    assert invoke("report", "1", "-o", str(out), "--db", str(path)).exit_code == 0
    assert "imulat" not in out.read_text().replace(".simulated {", "")


def test_plots_name_simulated_series_in_their_legends(db, tmp_path):
    from mpimark.storage.selection import load
    from mpimark.storage.simulated import by_simulation

    with Store(db, for_reading=True) as store:
        series = by_simulation(load(store, ["1,2,3"], results=False))
    assert [s.label for s in series] == ["Open MPI 4.1.4", "Open MPI 4.1.4 (simulated, torus)",
                                         "Open MPI 4.1.4 (simulated, flat)"]
    assert len({s.implementation for s in series}) == 1  # one library: one colour, told apart by label
    result = invoke("plot", "1,2", "-o", str(tmp_path / "plots"), "--format", "svg", "--db", str(db))
    assert result.exit_code == 0, result.output
    legend = (tmp_path / "plots" / "PingPong-np2-time.svg").read_text()
    assert "Open MPI 4.1.4 (simulated, torus)" in legend  # matplotlib keeps each text in a comment


def test_self_checks_skipped_in_simulation_are_shown_with_their_reason(tmp_path):
    """The core under SMPI skips the checks that mean nothing in simulated time and says why; show and the
    report give the reasons where the self-checks are shown, and a check's absent figures break nothing."""
    records = read_records(MEASURED)
    check = records[0]["selfcheck"]
    for name in ("noisy", "loaded", "timer_resolution_ns"):
        check.pop(name)
    check["ranks"] = [{"rank": r["rank"], "timer_monotonic": True} for r in check["ranks"]]
    check["skipped"] = [{"check": "timer", "reason": "simulated time: the timer reads SimGrid's clock"},
                        {"check": "noise", "reason": "no operating system interrupts a simulated rank"}]
    records[0]["simulation"] = TORUS
    db = tmp_path / "s.db"
    with Store(db) as store:  # as `mpimark run` stores a stream (the schema of the skipped checks is the core's)
        run_id = store.begin_run(launch_command=["smpirun"], environment={}, mpi_name="smpi", mpi_prefix=None,
                                 requested_processes=2, suite="mpi1")
        for record in records:
            store.add_record(run_id, record)
        store.finish_run(run_id, "complete")
    shown = " ".join(invoke("show", "1", "--db", str(db)).output.split())
    assert "self-checks: clocks agree; skipped: timer, noise" in shown
    assert "self-check skipped: timer: simulated time: the timer reads SimGrid's clock" in shown
    assert "self-check skipped: noise: no operating system interrupts a simulated rank" in shown
    out = tmp_path / "s.html"
    assert invoke("report", "1", "-o", str(out), "--db", str(db)).exit_code == 0
    assert "skipped: timer (simulated time: the timer reads SimGrid&#39;s clock)" in out.read_text()


def test_a_study_marks_its_simulated_members_and_its_gate_refuses_to_mix_them(db):
    assert invoke("study", "add", "s", "1", "--impl", "ompi", "--db", str(db)).exit_code == 0
    assert invoke("study", "add", "s", "2", "--impl", "sim", "--db", str(db)).exit_code == 0
    listed = invoke("study", "list", "s", "--db", str(db)).output.splitlines()
    assert listed == ["s:ompi\trun 1", "s:sim\trun 2\t(simulated, torus)"]
    compared = " ".join(invoke("compare", "s", "--db", str(db)).output.split())
    assert "sim: Open MPI 4.1.4, run 2, simulated, torus" in compared
    assert "sim is simulated (SimGrid SMPI 3.32" in compared
    gated = invoke("compare", "s", "--fail-if-slower", "5%", "--db", str(db))
    assert gated.exit_code == 2 and "sim is simulated, ompi measured" in gated.stderr


RECORDED = ROOT / "tests" / "frontend" / "data" / "smpi-flat-64.jsonl.gz"


def test_a_recorded_simulated_stream_is_marked(tmp_path):
    """A stream the core wrote under SMPI (64 ranks on a flat platform, through mpimark run --mpi smpi)."""
    import gzip

    if not RECORDED.exists():
        pytest.skip(f"{RECORDED.name} is not in this tree")
    stream = tmp_path / "s64.jsonl"
    stream.write_bytes(gzip.decompress(RECORDED.read_bytes()))
    run = read_records(stream)[0]
    if "simulation" not in run:
        pytest.skip(f"{RECORDED.name} was recorded before the core wrote its simulation")
    db = tmp_path / "s64.db"
    imported = invoke("import", str(stream), "--db", str(db))
    assert imported.exit_code == 0 and simulation.phrase(run["simulation"]) in imported.output
    with Store(db, for_reading=True) as store:
        assert store.run(1).simulation == run["simulation"]
    assert simulation.label(run["simulation"]) in invoke("runs", "--db", str(db)).output
    shown = invoke("show", "1", "--db", str(db)).output
    assert simulation.phrase(run["simulation"]) in " ".join(shown.split())
    skipped = [item["check"] for item in (run.get("selfcheck") or {}).get("skipped", [])]
    assert all(f"self-check skipped: {name}: " in shown for name in skipped)


def test_a_report_of_simulated_runs_on_two_platforms_says_both(db, tmp_path):
    out = tmp_path / "two.html"
    assert invoke("report", "2", "3", "-o", str(out), "--db", str(db)).exit_code == 0
    page = " ".join(out.read_text().split())
    assert "Every run here is simulated" in page and "mixes simulated and measured" not in page
    assert "the simulated runs are on different platforms (run 2: torus; run 3: flat)" in page
