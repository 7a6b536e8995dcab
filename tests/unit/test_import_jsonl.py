"""import of the core's own JSON Lines stream: a run launched by hand, stored like any other."""

from __future__ import annotations

import json

import pytest

from mpimark.storage.importers import ImportFormatError, parse_file
from mpimark.storage.store import Store

from .cli_helpers import assert_one_error_line, invoke
from .conftest import IMB_FIXTURES
from .records import end_record, result_record, run_record

PLACED = run_record() | {"processes": 4, "hosts": ["n1", "n2"], "nodes": 2, "ranks_per_node": [2, 2],
                         "ranks": [{"rank": r, "host": "n1" if r < 2 else "n2", "cpu": r % 2, "cpus": str(r % 2),
                                    "env": {"UCX_TLS": "tcp"}} for r in range(4)]}


def text(records: list) -> str:
    return "".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in records)


@pytest.mark.parametrize("path", IMB_FIXTURES[:3], ids=lambda p: p.stem)
def test_a_stream_is_stored_record_for_record(tmp_path, path):
    db = tmp_path / "results.db"
    result = invoke("import", str(path), "--db", str(db))
    assert result.exit_code == 0, result.stderr
    written = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    status = written[-1]["status"]  # complete, or incomplete where sizes were skipped (time-outs)
    results = sum(r['type'] == 'result' for r in written)
    assert result.stdout.startswith(f"{path}: run 1, {results} results (jsonl" + (")" if status == "complete" else
                                                                                   ", incomplete)"))
    with Store(db) as store:
        row = store.run(1)
        assert store.records(1) == written  # as written: no import event added
    assert (row.status, row.suite, row.processes, row.hosts) == (status, written[0]["suite"],
                                                                 written[0]["processes"], written[0]["hosts"])
    assert row.status_message.startswith(f"imported from {path}")
    exported = invoke("export", "1", "--format", "json", "--db", str(db))
    assert [json.loads(line) for line in exported.stdout.splitlines()] == written


def test_placement_and_the_mpi_name_are_kept(tmp_path):
    path = tmp_path / "placed.jsonl"
    path.write_text(text([PLACED, result_record(), end_record()]))
    db = tmp_path / "results.db"
    assert invoke("import", str(path), "--mpi", "openmpi", "--db", str(db)).exit_code == 0
    with Store(db) as store:
        row = store.run(1)
    assert (row.mpi_name, row.nodes, row.ranks_per_node, row.placement) == ("openmpi", 2, [2, 2], None)
    shown = invoke("show", "1", "--db", str(db)).stdout
    assert "ranks: 2 nodes × 2 ranks per node; n1: ranks 0-1 on cpus 0 | 1; n2: ranks 2-3 on cpus 0 | 1" in shown
    assert "rank env: UCX_TLS=tcp in all 4 ranks" in shown


@pytest.mark.parametrize("tail, note", [
    ('{"type": "result", "bench', "its last line (line 3) is cut off and was left out"),
    ("", "the stream has no end record"),
])
def test_a_truncated_stream_is_stored_as_incomplete_with_what_it_holds(tmp_path, tail, note):
    path = tmp_path / "cut.jsonl"
    path.write_text(text([run_record(), result_record()]) + tail)
    db = tmp_path / "results.db"
    result = invoke("import", str(path), "--db", str(db))
    assert result.exit_code == 0, result.stderr
    assert "run 1, 1 results (jsonl, incomplete)" in result.stdout and note in result.stdout
    with Store(db) as store:
        row, records = store.run(1), store.records(1)
    assert row.status == "incomplete" and note in row.status_message
    assert [r["type"] for r in records] == ["run", "result"]


def test_an_end_record_saying_incomplete(tmp_path):
    path = tmp_path / "skipped.jsonl"
    path.write_text(text([run_record(), result_record(), end_record() | {"status": "incomplete"}]))
    stream = parse_file(path)
    assert stream.status == "incomplete" and stream.notes == [
        "some message sizes were skipped (the end record says incomplete)"]


@pytest.mark.parametrize("records, message", [
    ([], "no records (an empty file)"),
    ([result_record()], ":1: the first record must be 'run', not 'result'"),
    ([run_record(), "{not json", result_record()], ":2: not JSON"),
    ([run_record(), result_record() | {"bytes": -1}], ":2: result record at $.bytes"),
    ([run_record(), run_record()], ":2: a second run record"),
    ([run_record(), end_record(), result_record()], ":3: a result record after the end record"),
])
def test_a_broken_stream_stores_nothing(tmp_path, records, message):
    path = tmp_path / "broken.jsonl"
    path.write_text(text(records) if records else "")
    db = tmp_path / "results.db"
    fmt = ["--format", "jsonl"] if not records else []
    line = assert_one_error_line(invoke("import", str(path), *fmt, "--db", str(db)))
    assert message in line
    with pytest.raises(ImportFormatError):
        parse_file(path, "jsonl")
    if db.exists():
        with Store(db) as store:
            assert store.runs() == []
