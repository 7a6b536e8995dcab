"""A run whose mpimark died: seen as such, and its stream stored by `mpimark recover` (no MPI needed)."""

from __future__ import annotations

import json

from mpimark.records.results import MACHINE_EVENT, core_records
from mpimark.storage.store import owner_alive, owner_now, Store

from .cli_helpers import invoke
from .records import event_record, result_record, run_record

STREAM = [run_record(), event_record(), result_record(bytes=0), result_record(), result_record(bytes=2048)]


MACHINE = {"type": "event", "level": "info", "kind": MACHINE_EVENT, "message": "2 cores", "machine": {}}


def _orphan(db, stream_file, stored: int, owner: dict, machine: bool = False) -> int:
    """A 'running' run of a dead mpimark: its first `stored` records in the database, all of them in its stream.

    machine: as `mpimark run` stores it, mpimark's machine event right after the run record (not in the stream)."""
    with Store(db) as store:
        run_id = store.begin_run(launch_command=["mpiexec"], environment={}, mpi_name="openmpi", mpi_prefix=None,
                                 requested_processes=2, suite="mpi1", stream_path=stream_file)
        for record in STREAM[:stored]:
            store.add_record(run_id, record)
            if machine and record["type"] == "run":
                store.add_record(run_id, MACHINE)
        with store.transaction() as conn:
            conn.execute("UPDATE runs SET owner = ? WHERE id = ?", (json.dumps(owner), run_id))
    text = "".join(json.dumps(r) + "\n" for r in STREAM)
    stream_file.write_text(text + '{"type":"result","bench', encoding="utf-8")  # a line cut off by the kill
    return run_id


def _dead_owner() -> dict:
    return {**owner_now(), "start": -1}  # this pid, but another process (started at another time)


def test_owner_checks():
    assert owner_alive(owner_now()) is True
    assert owner_alive(_dead_owner()) is False
    assert owner_alive({**owner_now(), "host": "elsewhere"}) is None  # cannot tell: left alone
    assert owner_alive(None) is None


def test_recover_stores_the_stream_and_removes_it(tmp_path):
    db = tmp_path / "results.db"
    with Store(db) as store:
        streams = store.stream_dir()
    streams.mkdir()
    stream = streams / "launch-1.jsonl"
    run_id = _orphan(db, stream, 3, _dead_owner())
    shown = invoke("runs", "--db", str(db))  # runs recovers too
    assert shown.exit_code == 0, shown.output
    assert f"run {run_id}: mpimark (pid" in shown.stderr and "2 more record(s) stored from its stream" in shown.stderr
    with Store(db) as store:
        row = store.run(run_id)
        assert row.status == "incomplete" and "died during the run" in row.status_message
        assert store.records(run_id) == STREAM
    assert not stream.exists()
    assert invoke("recover", "--db", str(db)).stdout == "no run to recover\n"


def test_the_machine_event_does_not_hide_a_stream_record(tmp_path):
    # The event mpimark adds is counted with the run's records but is not in
    # the stream: recovery once skipped the first unstored result for it.
    db = tmp_path / "results.db"
    run_id = _orphan(db, tmp_path / "a.jsonl", 3, _dead_owner(), machine=True)
    assert invoke("recover", "--db", str(db)).exit_code == 0
    with Store(db) as store:
        records = store.records(run_id)
    assert core_records(records) == STREAM and records.count(MACHINE) == 1


def test_a_live_or_foreign_owner_is_left_alone(tmp_path):
    db = tmp_path / "results.db"
    _orphan(db, tmp_path / "a.jsonl", 1, owner_now())
    _orphan(db, tmp_path / "b.jsonl", 1, {**owner_now(), "host": "elsewhere"})
    assert invoke("recover", "--db", str(db)).stdout == "no run to recover\n"
    with Store(db) as store:
        assert [row.status for row in store.runs()] == ["running", "running"]
    assert (tmp_path / "a.jsonl").exists()  # a file the user named (--json) is never removed


def test_run_and_runs_leave_recovery_for_later_while_another_process_writes(tmp_path, capsys):
    """`runs` and `run` recover on the way; a long import holding the lock must not make them fail."""
    import sqlite3

    from mpimark.commands import recording

    db = tmp_path / "results.db"
    run_id = _orphan(db, tmp_path / "a.jsonl", 1, _dead_owner())
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # another mpimark, writing
    try:
        with Store(db, timeout_s=0.1) as store:
            recording.recover_on_the_way(store)
            assert store.run(run_id).status == "running"  # left as it was, for later
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert "not recovered now: another process writes" in capsys.readouterr().err
    with Store(db) as store:
        recording.recover_on_the_way(store)  # the lock is free: recovered now
        assert store.run(run_id).status == "incomplete"
