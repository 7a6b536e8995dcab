"""The results database: round trips, schema and migrations, and the errors users can meet."""

from __future__ import annotations

import json
import sqlite3
import threading
import time

import pytest

from mpimark.records.results import read_records
from mpimark.storage import store as store_module
from mpimark.storage.store import (APPLICATION_ID, DISTRIBUTION_FIELDS, EVENT_FIELDS, MIGRATIONS, RESULT_FIELDS, Store,
                           StoreError, default_path, steering_environment)

from .conftest import IMB_FIXTURES, REPO_RESULTS, store_records
from .records import end_record, event_record, result_record, run_record, skipped_record


def exact(records: list[dict]) -> list[str]:
    # JSON text tells apart what == does not: key order, 1 vs 1.0, True vs 1.
    return [json.dumps(r) for r in records]


def varied_records() -> list[dict]:
    return [
        run_record(),
        event_record(),
        result_record(bytes=0, count=0, mbytes_per_sec=0, t_min_usec=0.1 + 0.2),
        result_record(),
        skipped_record("timeout", bytes=2048, count=2048),
        skipped_record("out_of_memory", bytes=4096, count=4096, needed_gb=12.5),
        result_record(benchmark="Allreduce", processes=1, multi=1, groups=2, group=1, defects=0, msgs_per_sec=None),
        result_record(benchmark="Uniband", msgs_per_sec=2848583, future_field={"nested": [1, 2.5, None]}),
        {"type": "event", "level": "warning", "kind": "timeout", "message": "naïve \"quoted\"\ttab \u0001",
         "benchmark": "Uniband", "processes": 2, "bytes": 4},
        end_record(),
    ]


@pytest.fixture
def db(tmp_path):
    with Store(tmp_path / "results.db") as store:
        yield store


def test_round_trip_field_for_field(db):
    records = varied_records()
    run_id = store_records(db, records)
    assert exact(db.records(run_id)) == exact(records)


@pytest.mark.parametrize("path", IMB_FIXTURES + REPO_RESULTS, ids=lambda p: p.name)
def test_round_trip_of_real_results_files(db, path):
    records = read_records(path)
    run_id = store_records(db, records, status="complete")
    assert exact(db.records(run_id)) == exact(records)
    assert db.run(run_id).results == sum(r["type"] == "result" for r in records)


def test_records_keep_arrival_order_across_tables(db):
    # Events and results interleave; the end record may even come before late events.
    records = [run_record(), result_record(bytes=0), event_record(), result_record(bytes=1), end_record(),
               event_record()]
    assert exact(db.records(store_records(db, records))) == exact(records)


def test_runs_are_kept_apart(db):
    first = store_records(db, [run_record(), result_record(bytes=1)])
    second = store_records(db, [run_record(), result_record(bytes=2), result_record(bytes=3)])
    assert [r["bytes"] for r in db.records(first) if r["type"] == "result"] == [1]
    assert [r["bytes"] for r in db.records(second) if r["type"] == "result"] == [2, 3]


def test_typed_columns_hold_the_record_fields(db, tmp_path):
    run_id = store_records(db, varied_records(), status="complete")
    sql = sqlite3.connect(tmp_path / "results.db")
    row = sql.execute(
        'SELECT benchmark, processes, multi, groups, grp, bytes, status, t_avg_usec, median_usec, ci_low_usec,'
        ' samples, batch_size, samples_ns, needed_gb FROM results WHERE run_id = ? ORDER BY seq', (run_id,)
    ).fetchall()
    assert row[1] == ("PingPong", 2, None, 1, None, 1024, "ok", 1.625, 1.6, 1.55, 100, 10, "[1600,1550,1680]", None)
    assert row[3][6:] == ("out_of_memory", None, None, None, None, None, None, 12.5)
    assert row[4][2:5] == (1, 2, 1)  # multi, groups, group
    events = sql.execute("SELECT level, kind, benchmark, processes, bytes FROM events WHERE run_id = ? ORDER BY seq",
                         (run_id,)).fetchall()
    assert events == [("info", "benchmark_start", "PingPong", 2, None), ("warning", "timeout", "Uniband", 2, 4)]
    run = sql.execute("SELECT processes, hosts, mpi_library_version, mpi_standard_version, end_status, elapsed_s,"
                      " results_reported, load_average_after FROM runs WHERE id = ?", (run_id,)).fetchone()
    assert run == (2, '["node1"]', "Open MPI v5.0.11", "3.1", "complete", 12.5, 3, "[1,1,1]")


def test_run_rows(db):
    old = store_records(db, [run_record(), result_record(), end_record()], status="complete")
    new = store_records(db, [], environment={"PATH": "/bin", "UCX_TLS": "tcp"}, mpi_name=None, mpi_prefix=None,
                        requested_processes=4, status="failed", message="mpiexec exited 1")
    assert [r.id for r in db.runs()] == [new, old]  # newest first
    row = db.run(old)
    assert (row.status, row.suite, row.mpi_name, row.mpi_prefix, row.processes, row.hosts) == (
        "complete", "mpi1", "openmpi", "/usr", 2, ["node1"])
    assert (row.results, row.elapsed_s, row.load_average_after) == (1, 12.5, [1, 1, 1])
    assert row.launch_command == ["mpiexec", "-n", "2", "mpimark-core", "mpi1"]
    assert row.environment == {"OMPI_MCA_btl": "self,vader"}  # HOME is not stored
    assert row.started_utc.endswith("Z") and row.finished_utc >= row.started_utc
    row = db.run(new)
    assert (row.status, row.status_message, row.processes, row.hosts, row.results) == (
        "failed", "mpiexec exited 1", None, [], 0)
    assert row.environment == {"UCX_TLS": "tcp"}


def test_a_running_run_is_visible_to_another_process_record_by_record(db, tmp_path):
    run_id = store_records(db, [run_record(), result_record()])  # no finish_run: the run died
    with Store(tmp_path / "results.db") as other:
        assert other.run(run_id).status == "running"
        assert len(other.records(run_id)) == 2


def test_records_may_come_from_another_thread(db):
    run_id = store_records(db, [run_record()])
    errors = []

    def add():
        try:
            db.add_record(run_id, result_record())
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    thread = threading.Thread(target=add)
    thread.start()
    thread.join()
    assert errors == [] and len(db.records(run_id)) == 2


# -- schema, migrations, identity ----------------------------------------------


def test_wal_mode_and_foreign_keys(db, tmp_path):
    assert sqlite3.connect(tmp_path / "results.db").execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db._conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1


def test_migration_from_an_empty_file(tmp_path):
    path = tmp_path / "empty.db"
    path.touch()
    Store(path).close()
    sql = sqlite3.connect(path)
    assert sql.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
    assert sql.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    tables = {name for (name,) in sql.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert tables == {"runs", "results", "result_shapes", "events", "study_runs", "study_plans", "slurm_jobs"}


def test_migration_adopts_study_tables_made_before_they_were_migrations(tmp_path):
    # Version 1 databases got their study tables from studies.py on first use.
    path = tmp_path / "v1.db"
    sql = sqlite3.connect(path)
    for statement in MIGRATIONS[0]:
        sql.execute(statement)
    sql.execute(MIGRATIONS[1][0])
    sql.execute("INSERT INTO runs (id, started_utc, status, suite, requested_processes, launch_command, environment)"
                " VALUES (1, 'now', 'complete', 'mpi1', 2, '[]', '{}')")
    sql.execute("INSERT INTO study_runs VALUES ('s', 'openmpi', 1, 'now')")
    sql.execute("PRAGMA user_version = 1")
    sql.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    sql.commit()
    sql.close()
    with Store(path) as store:
        assert store.query("SELECT study, implementation, run_id FROM study_runs") == [("s", "openmpi", 1)]
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)


def test_the_tables_have_every_column_add_record_fills(tmp_path):
    Store(tmp_path / "r.db").close()
    sql = sqlite3.connect(tmp_path / "r.db")

    def columns(table):
        return {row[1] for row in sql.execute(f"PRAGMA table_info({table})")}

    assert {c for c, _ in RESULT_FIELDS} | set(DISTRIBUTION_FIELDS) | {"samples_ns", "record"} <= columns("results")
    assert set(EVENT_FIELDS) | {"record"} <= columns("events")


def test_a_later_migration_is_applied_to_an_existing_database(tmp_path, monkeypatch):
    path = tmp_path / "r.db"
    with Store(path) as store:
        run_id = store_records(store, [run_record()])
    later = (*MIGRATIONS, ("ALTER TABLE runs ADD COLUMN note TEXT",))
    monkeypatch.setattr(store_module, "MIGRATIONS", later)
    monkeypatch.setattr(store_module, "SCHEMA_VERSION", len(later))
    with Store(path) as store:
        assert exact(store.records(run_id)) == exact([run_record()])
    sql = sqlite3.connect(path)
    assert sql.execute("PRAGMA user_version").fetchone()[0] == len(later)
    assert "note" in {row[1] for row in sql.execute("PRAGMA table_info(runs)")}


def test_reopening_keeps_the_data(tmp_path):
    with Store(tmp_path / "r.db") as store:
        run_id = store_records(store, [run_record()])
    with Store(tmp_path / "r.db") as store:
        assert exact(store.records(run_id)) == exact([run_record()])


def test_a_database_from_a_newer_mpimark_is_refused(tmp_path):
    path = tmp_path / "new.db"
    Store(path).close()
    sqlite3.connect(path).execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
    with pytest.raises(StoreError, match=r"written by a newer mpimark .*upgrade mpimark or use --db"):
        Store(path)


@pytest.mark.parametrize("content", [b"hello", b"SQLite format 3\x00" + bytes(range(256)) * 20],
                         ids=["text", "damaged-header"])
def test_a_corrupt_file_is_refused_in_one_line(tmp_path, content):
    path = tmp_path / "bad.db"
    path.write_bytes(content)
    with pytest.raises(StoreError) as caught:
        Store(path)
    message = str(caught.value)
    assert message.startswith(f"{path} is not an mpimark results database (or is corrupt): ")
    assert message.endswith("move it away or use --db") and "\n" not in message


def test_another_programs_sqlite_file_is_refused(tmp_path):
    path = tmp_path / "other.db"
    sqlite3.connect(path).execute("CREATE TABLE notes (text TEXT)")
    with pytest.raises(StoreError, match="is not an mpimark results database"):
        Store(path)
    assert sqlite3.connect(path).execute("SELECT count(*) FROM sqlite_master").fetchone()[0] == 1  # untouched


def test_a_locked_database_fails_within_the_busy_timeout(tmp_path):
    path = tmp_path / "locked.db"
    Store(path).close()
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another process writing
    try:
        with Store(path, timeout_s=0.2) as store:
            assert store.runs() == []  # WAL: reading goes on
            started = time.monotonic()
            with pytest.raises(StoreError) as caught:
                store.begin_run(launch_command=[], environment={}, mpi_name=None, mpi_prefix=None,
                                requested_processes=2, suite="mpi1")
            assert 0.15 < time.monotonic() - started < 3
    finally:
        holder.execute("ROLLBACK")
    assert str(caught.value) == (f"the results database {path} is locked by another process; "
                                 "wait or use --db to pick another file")


# -- errors of use ---------------------------------------------------------------


def test_unknown_run_id(db):
    for call in (lambda: db.run(42), lambda: db.records(42), lambda: db.add_record(42, run_record()),
                 lambda: db.finish_run(42, "complete")):
        with pytest.raises(StoreError, match=r"^no run 42 in .*; 'mpimark runs' lists the stored runs$"):
            call()


@pytest.mark.parametrize(
    "record, message",
    [
        ({"type": "summary"}, "type 'summary'"),
        ("not a dict", "type None"),
        ({"type": "end", "elapsed_s": float("nan")}, "Out of range float values are not JSON compliant"),
    ],
)
def test_records_that_cannot_be_stored(db, record, message):
    run_id = store_records(db, [])
    with pytest.raises(StoreError, match=message):
        db.add_record(run_id, record)
    assert db.records(run_id) == []


def test_an_odd_value_in_a_typed_column_is_still_stored(db):
    # Records are validated before they get here; the store still keeps what it is given.
    records = [result_record(benchmark={"name": "PingPong"}, bytes=[1, 2])]
    run_id = store_records(db, records)
    assert exact(db.records(run_id)) == exact(records)


def test_a_second_run_or_end_record_is_refused(db):
    run_id = store_records(db, [run_record(), end_record()])
    for record in (run_record(), end_record()):
        with pytest.raises(StoreError, match="already has its"):
            db.add_record(run_id, record)
    assert len(db.records(run_id)) == 2


def test_finish_run_needs_a_final_status(db):
    run_id = store_records(db, [])
    with pytest.raises(StoreError, match="not 'running'"):
        db.finish_run(run_id, "running")
    db.finish_run(run_id, "interrupted", "Ctrl-C")
    assert (db.run(run_id).status, db.run(run_id).status_message) == ("interrupted", "Ctrl-C")


def test_read_only_use_does_not_create_a_file(tmp_path):
    with pytest.raises(StoreError, match=r"^no results database at .*absent\.db; run 'mpimark run' first"):
        Store(tmp_path / "absent.db", create=False)
    assert not (tmp_path / "absent.db").exists()


def test_closed_store(tmp_path):
    store = Store(tmp_path / "r.db")
    store.close()
    with pytest.raises(StoreError, match="is closed"):
        store.runs()


# -- paths and environment --------------------------------------------------------


def test_default_path(monkeypatch, tmp_path):
    monkeypatch.delenv("MPIMARK_DB", raising=False)
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    assert default_path() == tmp_path / ".local" / "share" / "mpimark" / "results.db"
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert default_path() == tmp_path / "data" / "mpimark" / "results.db"
    monkeypatch.setenv("XDG_DATA_HOME", "relative/ignored")  # the XDG spec: relative paths are invalid
    assert default_path() == tmp_path / ".local" / "share" / "mpimark" / "results.db"
    monkeypatch.setenv("MPIMARK_DB", str(tmp_path / "env.db"))
    assert default_path() == tmp_path / "env.db"


def test_the_default_database_and_its_directories_are_created(monkeypatch, tmp_path):
    monkeypatch.delenv("MPIMARK_DB", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    with Store() as store:
        assert store.path == tmp_path / "xdg" / "mpimark" / "results.db" and store.path.is_file()
    monkeypatch.setenv("MPIMARK_DB", str(tmp_path / "env.db"))
    with Store() as store:
        assert store.path == tmp_path / "env.db"
    with Store(tmp_path / "arg.db") as store:  # the constructor's path wins over $MPIMARK_DB
        assert store.path == tmp_path / "arg.db"


def test_steering_environment_keeps_only_mpi_variables():
    kept = {name: "1" for name in ("OMPI_MCA_btl", "MPICH_ASYNC_PROGRESS", "MPIR_CVAR_CH4_NETMOD", "I_MPI_FABRICS",
                                   "FI_PROVIDER", "UCX_TLS", "PMIX_MCA_gds", "HYDRA_IFACE")}
    dropped = {name: "1" for name in ("PATH", "HOME", "AWS_SECRET_ACCESS_KEY", "MPIMARK_DB", "OMPI", "XFI_A",
                                      "ompi_mca_btl", "LD_LIBRARY_PATH", "SLURM_JOB_ID")}
    result = steering_environment({**dropped, **kept})
    assert result == kept and list(result) == sorted(kept)


def test_placement_nodes_and_ranks_per_node(db):
    asked = {"hosts": ["n1", "n2"], "hostfile": None, "ppn": 2, "bind": "core", "env": {"UCX_TLS": "tcp"},
             "launcher_args": []}
    placed = run_record() | {"processes": 4, "hosts": ["n1", "n2"], "nodes": 2, "ranks_per_node": [2, 2]}
    run_id = db.begin_run(launch_command=["mpiexec"], environment={}, mpi_name="openmpi", mpi_prefix="/usr",
                          requested_processes=4, suite="mpi1", placement=asked)
    db.add_record(run_id, placed)
    row = db.run(run_id)
    assert (row.placement, row.nodes, row.ranks_per_node) == (asked, 2, [2, 2])
    old_core = store_records(db, [run_record()])  # no placement asked, a core without nodes: one host
    assert (db.run(old_core).placement, db.run(old_core).nodes, db.run(old_core).ranks_per_node) == (None, 1, [2])


def test_the_placement_migration_gives_old_one_host_runs_their_nodes(tmp_path):
    path = tmp_path / "v2.db"
    sql = sqlite3.connect(path)
    for migration in MIGRATIONS[:2]:
        for statement in migration:
            sql.execute(statement)
    for run_id, hosts, processes in ((1, '["vm"]', 4), (2, '["a","b"]', 4), (3, None, None)):
        sql.execute("INSERT INTO runs (id, started_utc, status, suite, requested_processes, launch_command,"
                    " environment, hosts, processes) VALUES (?, 'now', 'complete', 'mpi1', 4, '[]', '{}', ?, ?)",
                    (run_id, hosts, processes))
    sql.execute("PRAGMA user_version = 2")
    sql.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    sql.commit()
    sql.close()
    with Store(path) as store:
        assert [(r.id, r.nodes, r.ranks_per_node, r.placement) for r in store.runs()] == [
            (3, None, None, None), (2, None, None, None), (1, 1, [4], None)]


def test_launches_of_one_measurement(db):
    alone = store_records(db, [run_record()])
    first = store_records(db, [run_record()], measurement="new")
    second = store_records(db, [run_record()], measurement=first)
    assert (db.run(alone).measurement, db.run(first).measurement, db.run(second).measurement) == (None, first, first)
    assert db.measurement_runs(first) == [first, second] and db.measurement_runs(alone) == []
    with pytest.raises(StoreError, match="no run 99"):
        store_records(db, [run_record()], measurement=99)


def test_runs_stored_before_measurements_are_runs_alone(tmp_path, monkeypatch):
    path = tmp_path / "r.db"
    monkeypatch.setattr(store_module, "SCHEMA_VERSION", 6)  # the database as mpimark wrote it before launches
    Store(path).close()
    sql = sqlite3.connect(path, isolation_level=None)
    run_id = sql.execute("INSERT INTO runs (started_utc, status, suite, requested_processes, launch_command,"
                         " environment) VALUES ('2025-01-01T00:00:00Z', 'complete', 'mpi1', 2, '[]', '{}')").lastrowid
    sql.close()
    monkeypatch.undo()
    with Store(path) as store:
        assert store.run(run_id).measurement is None and store.measurement_runs(run_id) == []
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
