"""Reading a results file: records, errors that name file and line, grouping."""

from __future__ import annotations

import pytest

from mpimark.records.results import group_results, read_records, ResultsError, TableKey

from .records import end_record, event_record, result_record, run_record


def test_reads_all_records_and_skips_blank_lines(write_jsonl):
    path = write_jsonl([run_record(), "", result_record(), end_record()])
    records = read_records(path)
    assert [r["type"] for r in records] == ["run", "result", "end"]
    assert records[1]["t_avg_usec"] == 1.625


def test_a_run_killed_before_end_is_still_readable(write_jsonl):
    assert len(read_records(write_jsonl([run_record(), result_record()]))) == 2


@pytest.mark.parametrize(
    "lines, message",
    [
        ([run_record(), '{"type": "result", '], r":2: not JSON"),
        ([run_record(), '{"type": "end", "elapsed_s": NaN}'], r":2: NaN is not valid JSON"),
        ([run_record(), result_record(bytes=-1)], r":2: result record at \$\.bytes: -1 is less than"),
        ([result_record()], r":1: the first record must be 'run'"),
        ([], r": no records"),
    ],
)
def test_bad_input_names_file_and_line(write_jsonl, lines, message):
    path = write_jsonl(lines)
    with pytest.raises(ResultsError, match=f"^{path}{message}") as caught:
        read_records(path)
    assert "\n" not in str(caught.value)


def test_missing_file(tmp_path):
    with pytest.raises(ResultsError, match="cannot read: No such file"):
        read_records(tmp_path / "absent.jsonl")


def test_group_results_keeps_the_core_order():
    records = [
        run_record(),
        event_record(),
        result_record(bytes=0),
        result_record(benchmark="Allreduce", processes=4, multi=1, groups=2, group=1),
        result_record(bytes=1),
        end_record(),
    ]
    tables = group_results(records)
    assert list(tables) == [TableKey("PingPong", None, 2, None), TableKey("Allreduce", 1, 4, 1)]
    assert [r["bytes"] for r in tables[TableKey("PingPong", None, 2, None)]] == [0, 1]


def test_table_titles():
    assert TableKey("PingPong", None, 2, None).title() == "PingPong, 2 processes"
    assert TableKey("Allreduce", 1, 4, 1).title() == "Multi-Allreduce, 4 processes, group 1"
