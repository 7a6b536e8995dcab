"""import: IMB, OSU and mpiBench text into stored runs; broken files stop everything.

Fixtures in data/import/ follow the layouts of reference/imb.md §4 and
reference/peers.md §1.6 and §2 (and the seed 003 for old mpiBench rows);
data/imb/ holds text the core printed next to the JSON Lines of the same
run, so the IMB importer is checked against the core's own records.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from mpimark.records.figures import key
from mpimark.records.results import read_records, validate_record
from mpimark.storage import studies
from mpimark.storage.importers import ImportFormatError, parse_file
from mpimark.storage.importers.imb import OLD_MEGA
from mpimark.storage.store import Store

from .cli_helpers import assert_one_error_line, invoke
from .conftest import IMB_FIXTURES

DATA = Path(__file__).parent / "data" / "import"
KEYS = ("benchmark", "suite", "processes", "multi", "groups", "group", "bytes", "count", "datatype", "status",
        "repetitions", "defects")


# -- IMB ---------------------------------------------------------------------------


@pytest.mark.parametrize("jsonl", IMB_FIXTURES, ids=lambda p: p.stem)
def test_imb_text_of_the_core_imports_as_its_own_records(jsonl):
    """The text the core printed gives back the core's records, to the text's two decimals."""
    core = [r for r in read_records(jsonl) if r["type"] == "result"]
    imported = parse_file(jsonl.with_suffix(".txt")).results
    assert len(imported) == len(core)
    for mine, theirs in zip(imported, core):
        assert {k: mine[k] for k in KEYS} == {k: theirs[k] for k in KEYS}
        for field in ("t_min_usec", "t_max_usec", "t_avg_usec", "mbytes_per_sec"):
            if mine[field] is not None:  # the PingPong family prints t_max alone
                assert mine[field] == pytest.approx(round(theirs[field], 2), abs=0.006), field
        assert mine["distribution"] is None and mine["samples_ns"] == []


def test_imb_2021_header_rows_and_classes():
    parsed = parse_file(DATA / "imb_2021.txt")
    assert parsed.fmt == "imb" and parsed.notes == []
    assert parsed.source["tool"] == "Intel(R) MPI Benchmarks 2021.11"
    assert parsed.source["MPI Version"] == "3.1" and parsed.source["Date"] == "Sat Nov 21 23:50:39 2026"
    assert parsed.command_line == ["./IMB-MPI1", "PingPong", "Allreduce", "Barrier", "-msglog", "0:20", "-time", "2"]
    by_key = {(r["benchmark"], r["bytes"]): r for r in parsed.results}
    pingpong = by_key[("PingPong", 1048576)]
    assert (pingpong["repetitions"], pingpong["t_max_usec"], pingpong["mbytes_per_sec"]) == (40, 179.5, 5841.78)
    assert pingpong["t_min_usec"] is None and pingpong["t_avg_usec"] is None  # IMB prints t = t_max only
    allreduce = by_key[("Allreduce", 4)]
    assert (allreduce["datatype"], allreduce["count"]) == ("MPI_FLOAT", 1)  # a reduction: float elements
    assert (allreduce["t_min_usec"], allreduce["t_max_usec"], allreduce["t_avg_usec"]) == (0.46, 4.67, 2.57)
    validate_record(allreduce)  # a row with all of IMB's figures is a valid record of the stream
    barrier = by_key[("Barrier", 0)]
    assert (barrier["datatype"], barrier["repetitions"], barrier["t_avg_usec"]) == ("none", 1000, 0.52)


def test_imb_3_2_micro_sign_and_megabytes_of_2_to_the_20():
    parsed = parse_file(DATA / "imb_3.2.txt")
    assert parsed.source["tool"] == "Intel (R) MPI Benchmark Suite V3.2"
    assert "2^20" in parsed.notes[0]
    pingping = next(r for r in parsed.results if r["benchmark"] == "PingPing" and r["bytes"] == 1048576)
    assert pingping["t_max_usec"] == 686.08
    # IMB 3.2 printed 1457.56 "Mbytes/sec" of 2^20 bytes: 1048576 / 686.08 usec = 1528.36 * 10^6 B/s.
    assert pingping["mbytes_per_sec"] == pytest.approx(1457.56 * OLD_MEGA)
    assert pingping["mbytes_per_sec"] == pytest.approx(1048576 / 686.08, rel=1e-4)
    sendrecv = next(r for r in parsed.results if r["benchmark"] == "Sendrecv")
    assert sendrecv["processes"] == 8 and sendrecv["t_avg_usec"] == 2.03


def test_imb_ext_modes_are_kept_apart():
    results = parse_file(DATA / "imb_ext_modes.txt").results
    assert [r["mode"] for r in results] == ["aggregate"] * 2 + ["non-aggregate"] * 2
    assert {r["suite"] for r in results} == {"mpi2"}
    assert len({key(r) for r in results}) == 4  # same benchmark and size, different mode: different keys


# -- OSU ------------------------------------------------------------------------------


def test_osu_latency_and_bandwidth():
    latency = parse_file(DATA / "osu_latency.txt").results
    assert [r["bytes"] for r in latency] == [1, 2, 4, 8, 1048576, 4194304]
    first = latency[0]
    assert (first["benchmark"], first["suite"], first["processes"], first["datatype"]) == \
        ("osu_latency", "osu", 2, "MPI_CHAR")
    assert first["t_avg_usec"] == 0.38 and first["repetitions"] is None
    bandwidth = parse_file(DATA / "osu_bw.txt").results
    assert bandwidth[2]["benchmark"] == "osu_bw" and bandwidth[2]["mbytes_per_sec"] == 13268.0
    assert bandwidth[2]["t_max_usec"] is None


def test_osu_message_rate_pairs_give_the_process_count():
    results = parse_file(DATA / "osu_mbw_mr.txt").results
    assert results[0]["processes"] == 2 and results[0]["msgs_per_sec"] == 7449977.48
    assert results[0]["benchmark"] == "osu_mbw_mr"


def test_osu_collective_with_full_columns_needs_the_process_count():
    with pytest.raises(ImportFormatError, match=r"osu_allreduce_f.txt:1: .*--np"):
        parse_file(DATA / "osu_allreduce_f.txt")
    results = parse_file(DATA / "osu_allreduce_f.txt", processes=4).results
    last = results[-1]
    assert (last["benchmark"], last["processes"], last["bytes"], last["repetitions"]) == \
        ("osu_allreduce", 4, 1048576, 100)
    assert (last["t_avg_usec"], last["t_min_usec"], last["t_max_usec"]) == (512.4, 498.1, 530.7)


def test_osu_validation_and_tail_columns_are_kept_as_extra_fields():
    row = parse_file(DATA / "osu_latency_cz.txt").results[0]
    assert row["validation"] == "Pass"
    assert (row["p50_tail_lat_us"], row["p90_tail_lat_us"], row["p99_tail_lat_us"]) == (0.49, 0.61, 0.72)


# -- mpiBench ---------------------------------------------------------------------------


def test_mpibench_v15_rows_hosts_and_communicators():
    parsed = parse_file(DATA / "mpibench_v15.txt")
    assert parsed.source == {"tool": "mpiBench v1.5", "hosts": "vm"}
    rows = parsed.results
    assert [r["benchmark"] for r in rows] == ["Barrier", "Bcast", "Allreduce", "Alltoall", "Alltoall", "Alltoall"]
    allreduce = rows[2]
    assert (allreduce["datatype"], allreduce["count"], allreduce["repetitions"]) == ("MPI_DOUBLE", 1, 1000)
    assert (allreduce["t_avg_usec"], allreduce["t_min_usec"], allreduce["t_max_usec"]) == (1.01, 1.005, 1.015)
    # As the core's own mpiBench rows: the label in comm, rank 0's communicator size in comm_ranks, and
    # every world rank taking part at once (docs/mpibench.md).
    assert [r["comm"] for r in rows] == ["MPI_COMM_WORLD"] * 3 + ["CartDim-1of2", "CartDim-2of2", "PartSize-2"]
    assert [r["comm_ranks"] for r in rows[3:]] == [2, 1, 2]
    assert {r["processes"] for r in rows} == {2}
    assert key(rows[0]).mode == ""  # MPI_COMM_WORLD is the plain case
    assert len({key(r) for r in rows}) == 6  # CartDim-1of2 and PartSize-2 are both 2 ranks, yet apart


def test_mpibench_old_rows_without_ranks():
    with pytest.raises(ImportFormatError, match="--np"):
        parse_file(DATA / "mpibench_old.txt")
    rows = parse_file(DATA / "mpibench_old.txt", processes=16).results
    assert [r["bytes"] for r in rows] == [0, 1, 2, 1024] and rows[-1]["t_avg_usec"] == 9.771
    assert {r["processes"] for r in rows} == {16}


# -- detection -----------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "fmt"), [("imb_2021.txt", "imb"), ("imb_3.2.txt", "imb"), ("osu_bw.txt", "osu"),
                                           ("mpibench_v15.txt", "mpibench"), ("mpibench_old.txt", "mpibench")])
def test_the_format_is_detected(name, fmt):
    assert parse_file(DATA / name, processes=2).fmt == fmt


def test_an_unknown_format_is_refused(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("hello\n", encoding="utf-8")
    with pytest.raises(ImportFormatError, match="not IMB, OSU, mpiBench or b_eff output"):
        parse_file(path)


# -- the command -------------------------------------------------------------------------


def test_import_stores_one_run_per_file(tmp_path):
    db = tmp_path / "r.db"
    result = invoke("import", str(DATA / "imb_2021.txt"), str(DATA / "osu_bw.txt"), "--mpi", "Intel MPI",
                    "--db", str(db))
    assert result.exit_code == 0, result.stderr
    assert "run 1, 7 results (imb)" in result.stdout and "run 2, 4 results (osu)" in result.stdout
    with Store(db, create=False) as store:
        row = store.run(1)
        assert (row.suite, row.status, row.mpi_name, row.results) == ("imported:imb", "complete", "Intel MPI", 7)
        assert row.launch_command[0] == "./IMB-MPI1"
        records = store.records(1)
        event = records[0]
        assert (event["type"], event["kind"], event["source_format"]) == ("event", "import", "imb")
        assert "imb_2021.txt" in event["message"] and event["source_file"].endswith("imb_2021.txt")
        assert [r["type"] for r in records[1:]] == ["result"] * 7
        assert store.run(2).suite == "imported:osu"


def test_import_into_a_study(tmp_path):
    db = tmp_path / "r.db"
    result = invoke("import", str(DATA / "imb_2021.txt"), "--study", "eval", "--impl", "impi", "--db", str(db))
    assert result.exit_code == 0, result.stderr
    with Store(db, create=False) as store:
        assert studies.members(store, "eval") == [studies.Member("eval", "impi", 1)]
    assert_one_error_line(invoke("import", str(DATA / "imb_2021.txt"), "--study", "eval", "--db", str(db)), 2)


def test_the_same_file_again_is_skipped_naming_its_run(tmp_path):
    db = tmp_path / "r.db"
    copy = tmp_path / "renamed.txt"  # the content decides, not the name
    copy.write_bytes((DATA / "imb_2021.txt").read_bytes())
    assert invoke("import", str(DATA / "imb_2021.txt"), "--db", str(db)).exit_code == 0
    again = invoke("import", str(copy), str(DATA / "osu_bw.txt"), "--study", "eval", "--impl", "impi",
                   "--db", str(db))
    assert again.exit_code == 0, again.stderr
    assert f"{copy}: already stored as run 1 (same content); skipped" in again.stdout
    assert "run 2, 4 results (osu)" in again.stdout
    with Store(db, create=False) as store:
        assert sorted(row.id for row in store.runs()) == [1, 2]
        assert studies.members(store, "eval") == [studies.Member("eval", "impi", 1), studies.Member("eval", "impi", 2)]
    forced = invoke("import", str(copy), "--again", "--db", str(db))
    assert forced.exit_code == 0 and "run 3, 7 results (imb)" in forced.stdout
    changed = tmp_path / "changed.txt"
    changed.write_text(copy.read_text(encoding="utf-8").replace("# Date", "#  Date", 1), encoding="utf-8")
    assert "run 4," in invoke("import", str(changed), "--db", str(db)).stdout


def test_a_stream_imported_twice_is_stored_once(tmp_path):
    db, jsonl = tmp_path / "r.db", IMB_FIXTURES[0]
    first = invoke("import", str(jsonl), "--db", str(db))
    assert first.exit_code == 0, first.stderr
    second = invoke("import", str(jsonl), "--db", str(db))
    assert "already stored as run 1" in second.stdout
    with Store(db, create=False) as store:
        assert len(store.runs()) == 1


def _broken(tmp_path: Path, source: str, old: str, new: str) -> Path:
    text = (DATA / source).read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / f"broken_{source}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


BROKEN = [
    # (fixture, text replaced, replacement, line, message) -- the line is the broken line's number.
    ("imb_2021.txt", "      1048576           40       179.50      5841.78", "      1048576           40       179.50",
     39, "truncated row: 3 fields, the header has 4"),
    ("imb_2021.txt", "            4         1000         0.46         4.67         2.57",
     "            4         1000         0.46         4.x7         2.57", 47, "'4.x7' in column 't_max[usec]' is not a number"),
    ("imb_2021.txt", "       #bytes #repetitions      t[usec]   Mbytes/sec\n", "", 36,
     "data row before the column header of table 'PingPong' (line 33)"),
    ("osu_latency.txt", "1048576                83.90", "1048576", 8, "truncated row: 1 fields, the header has 2"),
    ("osu_latency.txt", "8                       0.39", "8                       fast", 7,
     "'fast' in column 'Avg Latency(us)' is not a number"),
    ("osu_latency.txt", "# Size       Avg Latency(us)\n", "", 3, "data row before any '# Size ...' column header"),
    ("mpibench_v15.txt", "Max:\t  0.8877\tComm: MPI_COMM_WORLD\tRanks: 2", "Max:", 5, "truncated row: Max: has no value"),
    ("mpibench_v15.txt", "Avg:\t  1.0100", "Avg:\t  1.O100", 6, "'1.O100' in column 'Avg' is not a number"),
    ("mpibench_v15.txt", "Iters:\t   1000\tAvg:\t  0.5214\t", "", 4, "truncated row: no Iters:, Avg: field"),
]


@pytest.mark.parametrize(("source", "old", "new", "line", "message"), BROKEN,
                         ids=[f"{b[0]}:{b[4][:24]}" for b in BROKEN])
def test_a_broken_file_names_file_and_line_and_stores_nothing(tmp_path, source, old, new, line, message):
    broken = _broken(tmp_path, source, old, new)
    db = tmp_path / "r.db"
    # A good file first: it must not be stored either.
    error = assert_one_error_line(invoke("import", str(DATA / "imb_2021.txt"), str(broken), "--db", str(db)))
    assert f"{broken}:{line}: {message}" in error
    assert not db.exists()  # nothing stored: the database was not even created


def test_a_broken_file_leaves_an_existing_database_untouched(tmp_path):
    db = tmp_path / "r.db"
    assert invoke("import", str(DATA / "osu_bw.txt"), "--db", str(db)).exit_code == 0
    broken = _broken(tmp_path, "osu_latency.txt", "1048576                83.90", "1048576", )
    assert_one_error_line(invoke("import", str(DATA / "imb_2021.txt"), str(broken), "--db", str(db)))
    with Store(db, create=False) as store:
        assert [row.id for row in store.runs()] == [1]


def test_a_file_without_any_table_is_refused(tmp_path):
    path = tmp_path / "header_only.txt"
    path.write_text("#    Intel(R) MPI Benchmarks 2021.11, MPI-1 part\n# Date : today\n", encoding="utf-8")
    error = assert_one_error_line(invoke("import", str(path), "--db", str(tmp_path / "r.db")))
    assert f"{path}: no IMB table in the file" in error


def test_a_missing_file_is_one_error_line(tmp_path):
    error = assert_one_error_line(invoke("import", str(tmp_path / "nope.txt"), "--db", str(tmp_path / "r.db")))
    assert "nope.txt" in error


def test_rows_without_any_table_header_are_refused_when_the_format_is_forced(tmp_path):
    path = tmp_path / "rows.txt"
    path.write_text("# some comment\n            0         1000         0.33         0.00\n", encoding="utf-8")
    error = assert_one_error_line(invoke("import", str(path), "--format", "imb", "--db", str(tmp_path / "r.db")))
    assert f"{path}:2: data row before any '# Benchmarking' table header" in error


def test_osu_rows_record_their_class_and_barrier_has_no_size_column():
    from mpimark.records.benchmarks import BenchmarkClass
    from mpimark.records.figures import is_collective, record_class

    latency = parse_file(DATA / "osu_latency.txt").results[0]
    assert latency["benchmark_class"] == "single transfer" and record_class(latency) is BenchmarkClass.SINGLE
    assert not is_collective(latency)
    assert record_class(parse_file(DATA / "osu_bw.txt").results[0]) is BenchmarkClass.MSGRATE
    assert is_collective(parse_file(DATA / "osu_allreduce_f.txt", processes=4).results[0])
    barrier, = parse_file(DATA / "osu_barrier.txt", processes=8).results
    assert (barrier["benchmark"], barrier["bytes"], barrier["t_avg_usec"], barrier["processes"]) == \
        ("osu_barrier", 0, 1.23, 8)
    assert record_class(barrier) is BenchmarkClass.SYNC


def test_imb_text_cut_at_a_line_boundary_is_incomplete(tmp_path):
    text = (DATA / "imb_2021.txt").read_text(encoding="utf-8")
    assert "# All processes entering MPI_Finalize" in text
    cut = tmp_path / "cut.txt"
    cut.write_text(text[:text.rindex("# All processes entering MPI_Finalize")], encoding="utf-8")
    db = tmp_path / "r.db"
    result = invoke("import", str(cut), "--db", str(db))
    assert result.exit_code == 0, result.stderr
    assert "(imb, incomplete)" in result.stdout and "cut off, or the run died" in result.stdout
    with Store(db, create=False) as store:
        assert store.run(1).status == "incomplete"
        assert "MPI_Finalize" in store.run(1).status_message
    whole = invoke("import", str(DATA / "imb_2021.txt"), "--db", str(db))
    with Store(db, create=False) as store:
        assert store.run(2).status == "complete", whole.output


@pytest.mark.parametrize("drop_end", [True, False])
def test_an_incomplete_run_exported_as_imb_text_imports_as_incomplete(tmp_path, drop_end):
    """Without its end record (a rank died) or with rows the core skipped (out of memory)."""
    from mpimark.presentation.imb_text import imb_text
    name = "basic.jsonl" if drop_end else "out_of_memory.jsonl"
    records = read_records(next(p for p in IMB_FIXTURES if p.name == name))
    if drop_end:
        records = [r for r in records if r["type"] != "end"]
    path = tmp_path / "exported.txt"
    path.write_text(imb_text(records), encoding="utf-8")
    parsed = parse_file(path)
    assert parsed.status == "incomplete", parsed.incomplete


def test_several_runs_in_one_file_are_noted(tmp_path):
    text = (DATA / "imb_2021.txt").read_text(encoding="utf-8")
    both = tmp_path / "both.txt"
    both.write_text(text + text, encoding="utf-8")
    result = invoke("import", str(both), "--db", str(tmp_path / "r.db"))
    assert result.exit_code == 0, result.stderr
    assert "the file looks like 2 runs one after another" in result.stdout
    assert "mpimark: warning: " in result.stderr and "looks like 2 runs" in result.stderr


def test_imb_p2p_2021_rows_grid_and_average_latency():
    """IMB-P2P at 4 processes (Intel MPI's): its own suite, t[usec] as the average, the stencil's grid."""
    parsed = parse_file(DATA / "imb_p2p_2021.txt")
    assert parsed.incomplete is None
    results = parsed.results
    assert {r["suite"] for r in results} == {"p2p"}
    assert [r["benchmark"] for r in results[::2]] == ["PingPong", "PingPing", "Unirandom", "Birandom", "Corandom",
                                                      "Stencil2D", "SendRecv_Replace"]
    first = results[0]
    assert (first["processes"], first["bytes"], first["repetitions"], first["datatype"]) == (4, 1, 50, "MPI_BYTE")
    assert first["t_avg_usec"] is not None and first["t_max_usec"] is None and first["msgs_per_sec"] > 0
    assert {r.get("grid") for r in results if r["benchmark"] == "Stencil2D"} == {"2 x 2"}


def test_imb_mt_2021_threads_window_and_no_closing_line():
    """IMB-MT at 3 processes x 2 threads: the pair benchmarks on 2 of them, the window, int data."""
    parsed = parse_file(DATA / "imb_mt_2021.txt")
    assert parsed.incomplete is None  # IMB-MT prints no "All processes entering MPI_Finalize"
    results = parsed.results
    assert {r["suite"] for r in results} == {"mt"} and {r["threads"] for r in results} == {2}
    by_name = {r["benchmark"]: r for r in results}
    assert by_name["PingPongMT"]["processes"] == 2 and by_name["SendRecvMT"]["processes"] == 3
    assert by_name["UniBandMT"]["window_size"] == 64 and by_name["UniBandMT"]["msgs_per_sec"] > 0
    assert by_name["AllReduceMT"]["datatype"] == "MPI_INT" and by_name["BarrierMT"]["datatype"] == "none"
    assert [r["bytes"] for r in results if r["benchmark"] == "BcastMT"] == [8, 16]
