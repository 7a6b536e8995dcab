"""Result rows stored once (storage/compact.py, database version 8): what was added comes back exactly,
rows stored before the migration still read, and a large IMB log takes about twice its size."""

from __future__ import annotations

import json
import sqlite3

import pytest

from mpimark.storage import compact
from mpimark.storage import store as store_module
from mpimark.storage.importers import parse_file, store_parsed
from mpimark.storage.store import MIGRATIONS, Store

from .conftest import store_records
from .records import end_record, result_record, run_record, skipped_record
from .test_import_large import generator


def exact(records: list[dict]) -> list[str]:
    # JSON text tells apart what == does not: key order, 1 vs 1.0, True vs 1, -0.0 vs 0.0.
    return [json.dumps(r) for r in records]


def awkward_results() -> list[dict]:
    """Result records whose values a typed column alone would change, or that carry fields it lacks."""
    plain = result_record()
    reordered = dict(reversed(list(plain.items())))
    inner_extra = result_record()
    inner_extra["distribution"] = {"extra": [1, None], **inner_extra["distribution"], "median_usec": None}
    del inner_extra["distribution"]["q1_usec"]
    return [
        plain,
        reordered,
        inner_extra,
        result_record(mbytes_per_sec=0, t_min_usec=3, bytes=2.0, processes=True, multi=False),  # int in REAL...
        result_record(t_avg_usec=-0.0, t_max_usec=1e308, defects=2**63 - 1, repetitions=-2**63),
        result_record(datatype=7, suite=None, benchmark="naïve \"name\"\n\t\u0001", status=["ok"]),
        result_record(samples_ns=[], msgs_per_sec=None, mode="aggregate", communicator="CartDim-1of2"),
        result_record(samples_ns=None, distribution=None, overlap=None, sync=None),
        result_record(samples_ns=[0, 1.5, 2, 1e-9, 123456789012345678], loops=3, wall_s=0.5),
        result_record(samples_ns="not a list", distribution=[1, 2], window={"rank_median_usec": [1.0, None]}),
        result_record(type_after="x", future={"nested": {"deep": [True, False, None]}}),
        skipped_record("out_of_memory", bytes=4096, count=4096, needed_gb=12.5),
        {"type": "result"},
        {"benchmark": "Typeless first", "type": "result", "processes": 2},
    ]


@pytest.fixture
def db(tmp_path):
    with Store(tmp_path / "results.db") as store:
        yield store


def test_split_and_join_give_back_every_record_exactly():
    reader = compact.Reader()
    for record in awkward_results():
        values, rest, shape = compact.split(record)
        assert exact([reader.join(shape, rest, values)]) == exact([record])


def test_records_of_every_read_path_are_those_added(db):
    records = [run_record(), *awkward_results(), end_record()]
    run_id = store_records(db, records)
    assert exact(db.records(run_id)) == exact(records)
    assert exact(list(db.iter_records(run_id))) == exact(records)
    results = [r for r in records if r["type"] == "result"]
    assert exact(list(db.iter_results(run_id))) == exact(results)
    assert sorted(exact([r for _, table in db.iter_tables(run_id) for r in table])) == sorted(exact(results))
    assert exact(db.results_of(run_id, ["PingPong"], 2)) == exact(
        [r for r in results if r.get("benchmark") == "PingPong" and r.get("processes") == 2])


def test_an_import_stores_the_same_records(db, tmp_path):
    records = [run_record(), *awkward_results()[:3], end_record()]
    run_id = db.add_run(records=iter(records), status="complete", message=None, launch_command=[], suite="mpi1",
                        requested_processes=2)
    assert exact(db.records(run_id)) == exact(records)


def test_the_typed_columns_still_hold_the_values(db):
    run_id = store_records(db, [run_record(), result_record(mbytes_per_sec=0, mode="aggregate")])
    row = db.query("SELECT benchmark, bytes, mbytes_per_sec, median_usec, samples_ns, json_extract(record, '$.mode')"
                   " FROM results WHERE run_id = ?", (run_id,))[0]
    assert row[:4] == ("PingPong", 1024, 0.0, result_record()["distribution"]["median_usec"])
    assert json.loads(row[4]) == result_record()["samples_ns"] and row[5] == "aggregate"


def test_a_value_is_kept_once(db):
    """The bytes a row takes: samples_ns once (not in the record too), a typed value not again as JSON."""
    record = result_record(samples_ns=[1234.5] * 1000)
    run_id = store_records(db, [run_record(), record])
    kept, samples = db.query("SELECT record, samples_ns FROM results WHERE run_id = ?", (run_id,))[0]
    assert kept == "{}" and len(samples) == len(json.dumps(record["samples_ns"], separators=(",", ":")))


def test_rows_stored_before_the_migration_still_read(tmp_path, monkeypatch):
    """A database of version 7: whole records in the record column, no shapes; read as they were added."""
    path = tmp_path / "r.db"
    monkeypatch.setattr(store_module, "SCHEMA_VERSION", 7)
    Store(path).close()
    records = [result_record(mode="aggregate", mbytes_per_sec=0), result_record(bytes=2048, samples_ns=None)]
    sql = sqlite3.connect(path, isolation_level=None)
    run_id = sql.execute("INSERT INTO runs (started_utc, status, suite, requested_processes, launch_command,"
                         " environment, record_count)"
                         " VALUES ('2025-01-01T00:00:00Z', 'complete', 'mpi1', 2, '[]', '{}', 2)").lastrowid
    for seq, record in enumerate(records):  # as version 7 stored them: the whole record, and the typed columns
        sql.execute("INSERT INTO results (run_id, seq, benchmark, processes, multi, grp, bytes, samples_ns, record)"
                    " VALUES (?, ?, ?, ?, NULL, NULL, ?, ?, ?)",
                    (run_id, seq, record["benchmark"], record["processes"], record["bytes"],
                     json.dumps(record["samples_ns"]), json.dumps(record, separators=(",", ":"))))
    sql.close()
    monkeypatch.undo()
    with Store(path) as store:
        assert exact(store.records(run_id)) == exact(records)
        assert exact([r for _, table in store.iter_tables(run_id) for r in table]) == exact(records)
        assert exact(store.results_of(run_id, ["PingPong"])) == exact(records)
        # and the new rows beside them
        store.add_record(run_id, result_record(bytes=4096))
        assert exact(store.records(run_id)) == exact([*records, result_record(bytes=4096)])
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)


def test_a_large_imb_log_takes_about_twice_its_size(tmp_path):
    """Rows, not headers (benchmarks/big_imb_log.py): about 66 bytes of text each. Version 7 took 7.9 times the
    text (benchmarks/README.md); the file's fixed part (its schema, a few pages) weighs less the larger the log."""
    log, db = tmp_path / "big.txt", tmp_path / "results.db"
    generator().write(log, 0.5)
    with Store(db) as store:
        store_parsed(store, parse_file(log))
        assert (tmp_path / "results.db-wal").stat().st_size == 0  # checkpointed and truncated, while still open
    assert db.stat().st_size < 2.5 * log.stat().st_size, (db.stat().st_size, log.stat().st_size)
