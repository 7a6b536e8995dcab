"""Exports of a stored run: JSON Lines, CSV, Markdown and IMB text."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest

from mpimark.presentation.export import core_json, export, FORMATS
from mpimark.records.benchmarks import benchmark_class, BenchmarkClass
from mpimark.records.results import read_records
from mpimark.storage.store import Store

from .conftest import IMB_FIXTURES, REPO_RESULTS, store_records
from .records import end_record, event_record, result_record, run_record, skipped_record

WIDTH = 13


@pytest.fixture
def store(tmp_path):
    with Store(tmp_path / "results.db") as store:
        yield store


def stored(store, records, **meta):
    run_id = store_records(store, records, **meta)
    return store.run(run_id), store.records(run_id)


def sample_records() -> list[dict]:
    return [
        run_record(),
        event_record(),
        result_record(bytes=0, count=0, t_min_usec=0.5, t_max_usec=0.5, t_avg_usec=0.5, mbytes_per_sec=0),
        result_record(),
        skipped_record("timeout", bytes=2048, count=2048),
        result_record(benchmark="Barrier", bytes=0, count=0, mbytes_per_sec=None),
        end_record(),
    ]


# -- json -------------------------------------------------------------------------


def test_json_export_reads_back_as_the_stored_records(store, tmp_path):
    row, records = stored(store, sample_records())
    path = tmp_path / "export.jsonl"
    path.write_text(export(row, records, "json"), encoding="utf-8")
    assert [json.dumps(r) for r in read_records(path)] == [json.dumps(r) for r in records]


def test_json_export_can_be_imported_again(store, tmp_path):
    row, records = stored(store, sample_records())
    path = tmp_path / "export.jsonl"
    path.write_text(export(row, records, "json"), encoding="utf-8")
    _, again = stored(store, read_records(path))
    assert [json.dumps(r) for r in again] == [json.dumps(r) for r in records]


@pytest.mark.parametrize("path", IMB_FIXTURES + REPO_RESULTS, ids=lambda p: p.name)
def test_json_export_is_the_core_file_byte_for_byte(store, path):
    row, records = stored(store, read_records(path))
    assert export(row, records, "json") == path.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "value, text",
    [
        (0.1 + 0.2, "0.30000000000000004"),  # more digits than the core prints: still exact
        (1e-09, "1e-09"), (0.967160862436, "0.967160862436"), (2848583, "2848583"), (1.5e15, "1.5e+15"),
        (20.0, "20.0"),  # the core would print 20; a float must not come back as an int
        (True, "true"), (None, "null"),
        ("a\"b\\c\nd\te\r\u0001\u0008é", '"a\\"b\\\\c\\nd\\te\\r\\u0001\\u0008é"'),
        ({"b": [1, 2.5], "a": {}}, '{"b":[1,2.5],"a":{}}'),
    ],
)
def test_core_json_writes_what_the_core_writes(value, text):
    assert core_json(value) == text
    assert json.loads(text) == value


@pytest.mark.parametrize("value", [float("nan"), float("inf"), {"a": [float("-inf")]}, {1, 2}])
def test_core_json_refuses_what_json_cannot_hold(value):
    with pytest.raises((ValueError, TypeError)):
        core_json(value)


# -- csv --------------------------------------------------------------------------


def test_csv_has_one_row_per_result_with_every_scalar_field(store):
    records = sample_records()
    records.insert(3, result_record(bytes=7, future_scalar="new", future_list=[1]))
    row, records = stored(store, records)
    rows = list(csv.DictReader(io.StringIO(export(row, records, "csv"))))
    results = [r for r in records if r["type"] == "result"]
    assert len(rows) == len(results)
    header = list(rows[0])
    assert header[:12] == ["run_id", "benchmark", "suite", "processes", "multi", "groups", "group", "bytes", "count",
                           "datatype", "status", "repetitions"]
    for field in ("t_min_usec", "t_max_usec", "t_avg_usec", "mbytes_per_sec", "msgs_per_sec", "defects",
                  "samples", "batch_size", "median_usec", "ci_low_usec", "ci_high_usec", "ci_level",
                  "ci_coverage", "q1_usec", "q3_usec", "p5_usec", "p95_usec", "min_usec", "max_usec", "future_scalar"):
        assert field in header
    assert "samples_ns" not in header and "distribution" not in header and "future_list" not in header
    # Only the schema's fields these results have: none of OSU's columns in an IMB run's table.
    assert "needed_gb" not in header and "compute_usec" not in header and "window_creation" not in header
    measured = rows[2]
    assert measured["run_id"] == str(row.id)
    assert (measured["bytes"], measured["t_avg_usec"], measured["median_usec"], measured["multi"]) == (
        "1024", "1.625", "1.6", "")
    skipped = rows[3]
    assert (skipped["status"], skipped["t_avg_usec"], skipped["median_usec"]) == ("timeout", "", "")


# -- markdown ---------------------------------------------------------------------


def test_markdown_has_a_table_per_benchmark_and_process_count(store):
    row, records = stored(store, sample_records(), status="complete")
    text = export(row, records, "markdown")
    assert text.startswith(f"# mpimark run {row.id}\n")
    assert f"run {row.id}: complete | openmpi in /usr" in text
    assert "## PingPong, 2 processes" in text and "## Barrier, 2 processes" in text
    columns = ["bytes", "repetitions", "t_min[usec]", "t_max[usec]", "t_avg[usec]", "MB/s", "median[usec]",
               "CI95 [usec]"]
    assert "| " + " | ".join([*columns, "status"]) + " |" in text  # PingPong has a time-out row
    assert "| 1024 | 1000 | 1.50 | 1.75 | 1.62 | 585.14 | 1.60 | [1.55, 1.68] | ok |" in text
    assert "| 2048 | - | - | - | - | - | - | - | timeout |" in text
    assert "| 0 | 1000 | 1.50 | 1.75 | 1.62 | - | 1.60 | [1.55, 1.68] |" in text  # Barrier: all ok


# -- imb --------------------------------------------------------------------------


@pytest.mark.parametrize("path", IMB_FIXTURES, ids=lambda p: p.stem)
def test_imb_export_is_the_core_text_byte_for_byte(store, path):
    row, records = stored(store, read_records(path))
    assert export(row, records, "imb") == path.with_suffix(".txt").read_text(encoding="utf-8")


def check_imb_layout(text: str) -> list[dict]:
    """Walk IMB text line by line, asserting its layout rules; return the tables found."""
    lines = text.split("\n")
    tables, i = [], 0
    while i < len(lines):
        if not lines[i].startswith("# Benchmarking "):
            i += 1
            continue
        dash = lines[i - 1]
        assert re.fullmatch(r"#-+", dash) and len(dash) % WIDTH == 0  # ncols*13-1 dashes after '#'
        ncols = len(dash) // WIDTH
        name = lines[i].removeprefix("# Benchmarking ")
        assert name.endswith(" ") and lines[i - 2] == ""
        heading = []
        i += 1
        while lines[i] != dash:
            heading.append(lines[i])
            assert lines[i].startswith("#")
            i += 1
        header = lines[i + 1]
        assert len(header) == ncols * WIDTH
        columns = [header[k:k + WIDTH].strip() for k in range(0, len(header), WIDTH)]
        assert all(header[k:k + WIDTH].startswith(" ") for k in range(0, len(header), WIDTH))
        i += 2
        rows = []
        # Rows run up to the next comment line (next table, invalid line, closing line);
        # blank lines separate the sizes of -multi 1 tables.
        while i < len(lines) and not lines[i].startswith("#"):
            line = lines[i]
            i += 1
            if not line:
                continue
            failure = re.search(r" (time-out|out-of-mem|int-overflow)\.; ", line)
            cells = line[:failure.start()] if failure else line
            assert len(cells) % WIDTH == 0 and (failure or len(cells) == ncols * WIDTH), line
            assert all(re.fullmatch(r" +[-\d.]+", cells[k:k + WIDTH]) for k in range(0, len(cells), WIDTH)), line
            rows.append(line)
        tables.append({"name": name.strip(), "heading": heading, "columns": columns, "rows": rows})
    return tables


def test_imb_layout_rules(store):
    run = run_record()
    run["processes"] = 3  # one rank idle in 2-process tables
    run["options"] = {"check": "on", "multi": None, "map": "1x1", "msglog": "0:2", "zero_size": "on"}
    records = [
        run,
        {"type": "event", "level": "info", "kind": "benchmark_start", "message": "", "benchmark": "PingPong",
         "processes": 2, "groups": 1, "sizes": 2},
        result_record(bytes=0, count=0, defects=0, mbytes_per_sec=0),
        skipped_record("out_of_memory", needed_gb=1.5),
        {"type": "event", "level": "info", "kind": "benchmark_start", "message": "", "benchmark": "Allreduce",
         "processes": 3, "groups": 1, "sizes": 2},
        result_record(benchmark="Allreduce", processes=3, bytes=4, count=1, defects=0, mbytes_per_sec=None),
        skipped_record("int_overflow", benchmark="Allreduce", processes=3),
        {"type": "event", "level": "warning", "kind": "invalid_process_count", "message": "",
         "benchmark": "Uniband", "processes": 4, "groups": 0, "sizes": 0},
        result_record(benchmark="Barrier", processes=3, bytes=0, count=0, mbytes_per_sec=None),
        end_record(),
    ]
    row, records = stored(store, records)
    text = export(row, records, "imb")
    tables = check_imb_layout(text)
    assert [t["name"] for t in tables] == ["PingPong", "Allreduce", "Barrier"]
    pingpong, allreduce, barrier = tables
    assert pingpong["heading"] == ["# #processes = 2 ", "# ( 1 additional process waiting in MPI_Barrier)"]
    assert pingpong["columns"] == ["#bytes", "#repetitions", "t[usec]", "Mbytes/sec", "defects"]
    assert pingpong["rows"][0] == "".join(f"{c:>13}" for c in ("0", "1000", "1.75", "0.00", "0"))
    assert pingpong["rows"][1] == ('         1024 out-of-mem.; needed X=   1.500 GB; use flag "-mem X" or raise the '
                                   'memory limit')
    assert allreduce["heading"] == ["# #processes = 3 "]  # no idle rank
    assert allreduce["columns"] == ["#bytes", "#repetitions", "t_min[usec]", "t_max[usec]", "t_avg[usec]", "defects"]
    assert allreduce["rows"][1].startswith("         1024 int-overflow.; ")
    assert barrier["columns"] == ["#repetitions", "t_min[usec]", "t_max[usec]", "t_avg[usec]"]  # no bytes, no defects
    assert "\n# !! Benchmark Uniband invalid for 4 processes !! \n\n" in text
    assert text.endswith("\n\n# All processes entering MPI_Finalize\n\n")
    assert "# Minimum message length in bytes:   0\n# Maximum message length in bytes:   4\n" in text


def test_imb_multi_tables_without_events(store):
    # Records built by hand have no benchmark_start events: tables open on the first row.
    run = run_record()
    run["processes"] = 4
    run["options"] = {"multi": 1, "map": "1x1"}
    records = [run] + [
        result_record(benchmark="Sendrecv", multi=1, groups=2, group=g, bytes=b, count=b)
        for b in (0, 8) for g in (0, 1)
    ]
    row, records = stored(store, records)
    text = export(row, records, "imb")
    (sendrecv,) = check_imb_layout(text)
    assert sendrecv["name"] == "Multi-Sendrecv"
    assert sendrecv["heading"] == ["# ( 2 groups of 2 processes each running simultaneous ) ",
                                   "# Group  0:     0    1", "# ", "# Group  1:     2    3", "# "]
    assert sendrecv["columns"] == ["Group", "#bytes", "#repetitions", "t_min[usec]", "t_max[usec]", "t_avg[usec]",
                                   "Mbytes/sec"]
    assert [r[:26] for r in sendrecv["rows"]] == [f"{g:>13}{b:>13}" for b in (0, 8) for g in (0, 1)]
    assert "\n\n            0            8" in text  # a blank line before each size's group rows
    assert not text.endswith("MPI_Finalize\n\n")  # no end record: the run did not finish


@pytest.mark.parametrize("path", IMB_FIXTURES, ids=lambda p: p.stem)
def test_imb_layout_rules_hold_for_the_core_text(path):
    # The checker itself is checked against what the core printed.
    assert check_imb_layout(path.with_suffix(".txt").read_text(encoding="utf-8"))


def test_benchmark_classes():
    single = ["PingPong", "PingPing", "PingPongSpecificSource", "PingPongAnySource", "PingPingSpecificSource",
              "PingPingAnySource"]
    assert {benchmark_class(n) for n in single} == {BenchmarkClass.SINGLE}
    assert {benchmark_class(n) for n in ("Sendrecv", "Exchange")} == {BenchmarkClass.PARALLEL}
    assert {benchmark_class(n) for n in ("Uniband", "Biband")} == {BenchmarkClass.MSGRATE}
    assert benchmark_class("Barrier") is BenchmarkClass.SYNC
    assert {benchmark_class(n) for n in ("Allreduce", "Reduce_scatter_block", "Alltoallv")} == {
        BenchmarkClass.COLLECTIVE}


def test_formats():
    assert list(FORMATS) == ["json", "csv", "markdown", "imb"]
