"""Peer formats imported exactly (issue 23, items 12-14): real output of IMB, mpiBench and b_eff.

The fixtures in data/import/ are captures of the real tools on this
project's machine (data/import/README.md says how each was made): Intel
MPI's IMB-MPI1 at 4 ranks (a PingPong with 2 processes waiting, and a log
with Intel MPI's start-up lines), LLNL's mpiBench and the core's mpibench
with -d 2 at 4 ranks, and the files of HLRS's b_eff.c and of
`mpimark-core beff` at 2 and 3 ranks.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from mpimark.presentation import report
from mpimark.records.figures import key, t_avg_usec
from mpimark.records.results import read_records
from mpimark.storage.importers import ImportFormatError, parse_file
from mpimark.storage.selection import load
from mpimark.storage.store import Store

from .cli_helpers import assert_one_error_line, invoke

DATA = Path(__file__).parent / "data" / "import"
IMB_DATA = Path(__file__).parent / "data" / "imb"


def _import(db: Path, *names: str, args: tuple[str, ...] = ()) -> None:
    result = invoke("import", *(str(DATA / name) for name in names), *args, "--db", str(db))
    assert result.exit_code == 0, result.stderr


# -- 12: IMB ------------------------------------------------------------------------------------------------


def test_imb_rows_keep_the_processes_waiting_and_are_another_mode():
    parsed = parse_file(DATA / "imb_impi_np4_waiting.txt")
    assert {r["waiting"] for r in parsed.results} == {2}
    assert parsed.max_processes == 4  # the job: 2 ranks measured, 2 waiting
    dedicated = next(r for r in parse_file(DATA / "imb_2021.txt").results if r["benchmark"] == "PingPong")
    shared = next(r for r in parsed.results if r["bytes"] == dedicated["bytes"])
    assert key(shared).mode == "2 waiting" and key(dedicated).mode == ""
    assert key(shared) != key(dedicated)  # never compared as one measurement


def test_imb_waiting_rows_compare_with_a_run_of_the_same_job_size(tmp_path):
    """A 4-rank run of the core marks its PingPong rows waiting 2 (selection.with_waiting): the same mode."""
    parsed = parse_file(DATA / "imb_impi_np4_waiting.txt")
    core_row = {**next(r for r in read_records(IMB_DATA / "map.jsonl") if r["type"] == "result"
                       and r["benchmark"] == "PingPong"), "waiting": 2}
    assert key(core_row).mode == key(parsed.results[0]).mode


def test_imb_show_and_export_give_the_waiting_line_back(tmp_path):
    db = tmp_path / "r.db"
    _import(db, "imb_impi_np4_waiting.txt")
    shown = invoke("show", "1", "--db", str(db))
    assert "# ( 2 additional processes waiting in MPI_Barrier)" in shown.stdout
    exported = invoke("export", "1", "--format", "imb", "--db", str(db)).stdout
    original = (DATA / "imb_impi_np4_waiting.txt").read_text(encoding="utf-8")
    table = original[original.index("#---------------------------------------------------\n# Benchmarking"):
                     original.index("\n\n# All processes")]
    assert table in exported


def test_imb_run_starts_at_the_logs_date_and_keeps_the_import_time(tmp_path):
    db = tmp_path / "r.db"
    _import(db, "imb_impi_np4_waiting.txt")
    with Store(db, create=False) as store:
        row, event = store.run(1), store.records(1)[0]
    assert row.started_utc == "2026-11-26T20:09:39"  # "# Date : Thu Nov 26 20:09:39 2026", no zone given
    assert event["kind"] == "import" and event["imported_utc"].endswith("Z")
    assert event["imported_utc"] != row.started_utc


def test_a_streams_run_starts_when_the_core_started(tmp_path):
    """The same rule for the core's own stream imported: its run record's start_utc, not the import's."""
    db = tmp_path / "r.db"
    result = invoke("import", str(IMB_DATA / "basic.jsonl"), "--db", str(db))
    assert result.exit_code == 0, result.stderr
    run = next(r for r in read_records(IMB_DATA / "basic.jsonl") if r["type"] == "run")
    with Store(db, create=False) as store:
        assert store.run(1).started_utc == run["start_utc"]


def test_imb_show_stats_gives_t_avg_of_a_two_process_t_table(tmp_path):
    parsed = parse_file(DATA / "imb_impi_np4_waiting.txt")
    row = next(r for r in parsed.results if r["bytes"] == 1)
    assert row["t_avg_usec"] is None and t_avg_usec(row) == row["t_max_usec"] == 8.24  # stored as printed
    db = tmp_path / "r.db"
    _import(db, "imb_impi_np4_waiting.txt")
    lines = invoke("show", "1", "--stats", "--db", str(db)).stdout.splitlines()
    cells = next(line for line in lines if line.split("│")[1:2] == ["     1 "]).split("│")
    assert cells[3].strip() == "8.24"  # bytes, repetitions, t_avg


def test_imb_mpi_column_names_the_library_the_standard_or_the_users_name(tmp_path):
    db = tmp_path / "r.db"
    _import(db, "imb_impi_debug_np4.txt")  # Intel MPI's "[0] MPI startup(): Intel(R) MPI Library, Version ..."
    _import(db, "imb_impi_np4_waiting.txt")  # "# MPI Version : 4.1" only
    _import(db, "imb_2021.txt", args=("--mpi", "my-mpi"))
    listed = invoke("runs", "--db", str(db), COLUMNS="200").stdout
    rows = {line.split("│")[1].strip(): line.split("│")[5].strip() for line in listed.splitlines()
            if line.startswith("│")}
    assert rows == {"1": "Intel MPI 2021.18.1", "2": "? (MPI 4.1)", "3": "my-mpi"}
    with Store(db, create=False) as store:
        assert store.run(1).mpi_standard_version == "4.1"


def test_imb_a_huge_waiting_count_is_one_clear_error(tmp_path):
    text = (DATA / "imb_impi_np4_waiting.txt").read_text(encoding="utf-8")
    huge = tmp_path / "huge.txt"
    huge.write_text(text.replace("( 2 additional", "( 99999999999999999999999 additional"), encoding="utf-8")
    message = assert_one_error_line(invoke("import", str(huge), "--db", str(tmp_path / "r.db")))
    assert ":33: '99999999999999999999999' in column 'additional processes waiting' is beyond" in message


def test_imb_library_and_launcher_lines_anywhere_are_skipped(tmp_path):
    text = (DATA / "imb_impi_np4_waiting.txt").read_text(encoding="utf-8")
    noisy = tmp_path / "noisy.txt"
    noisy.write_text(text.replace("            2         1000", "[vm:04711] 1 more process has sent help message\n"
                                                             "            2         1000"), encoding="utf-8")
    parsed = parse_file(noisy)
    assert parsed.count == 5 and any("1 line(s) of the MPI library or launcher" in n for n in parsed.notes)


# -- 13: mpiBench -------------------------------------------------------------------------------------------


def test_mpibench_native_rows_are_apart_by_communicator():
    """The core's rows carry `comm`: 60 rows over 3 communicators are 60 keys, not 20."""
    native = [r for r in read_records(DATA / "mpibench_core_np4_d2.jsonl") if r["type"] == "result"]
    assert len(native) == 60 and len({key(r) for r in native}) == 60
    assert {key(r).mode for r in native} == {"", "CartDim-1of2", "CartDim-2of2"}


def test_mpibench_imports_match_the_native_rows_key_for_key():
    native = {key(r) for r in read_records(DATA / "mpibench_core_np4_d2.jsonl") if r["type"] == "result"}
    own_text = parse_file(DATA / "mpibench_core_np4_d2.txt")  # the core's text, '#' comment first
    llnl = parse_file(DATA / "mpibench_llnl_np4_d2.txt")
    assert {key(r) for r in own_text.results} == native
    assert {key(r) for r in llnl.results} == native  # LLNL's mpiBench, the same operations and sizes
    assert {r["processes"] for r in llnl.results} == {4}  # every world rank takes part at once


def test_mpibench_a_communicator_label_that_is_no_name_is_refused(tmp_path):
    text = (DATA / "mpibench_llnl_np4_d2.txt").read_text(encoding="utf-8")
    hostile = tmp_path / "hostile.txt"
    hostile.write_text(text.replace("Comm: CartDim-1of2", "Comm: \x1b[2J#heading", 1), encoding="utf-8")
    with pytest.raises(ImportFormatError, match=r"communicator label '\\x1b\[2J#heading'"):
        parse_file(hostile)


def test_mpibench_compare_matches_every_row(tmp_path):
    db = tmp_path / "r.db"
    _import(db, "mpibench_core_np4_d2.jsonl", "mpibench_llnl_np4_d2.txt")
    result = invoke("compare", "1", "2", "--db", str(db), COLUMNS="200")
    assert result.exit_code == 0, result.stderr
    assert "over the 54 rows with a value on both sides" in result.stdout  # and 6 of 0 bytes: all 60
    assert "only in" not in result.stdout


def test_mpibench_show_labels_each_communicator(tmp_path):
    db = tmp_path / "r.db"
    _import(db, "mpibench_llnl_np4_d2.txt")
    shown = invoke("show", "1", "--db", str(db)).stdout
    assert shown.count("Comm: CartDim-1of2\tRanks: 2") == 20 and shown.count("Comm: MPI_COMM_WORLD\tRanks: 4") == 20
    stats = invoke("show", "1", "--stats", "--db", str(db), COLUMNS="200").stdout
    titles = [line.strip() for line in stats.splitlines() if line.strip().startswith("Alltoall, 4 processes")]
    assert titles == ["Alltoall, 4 processes", "Alltoall, 4 processes, CartDim-1of2",
                      "Alltoall, 4 processes, CartDim-2of2"]


def test_mpibench_report_has_a_section_per_communicator(tmp_path):
    db = tmp_path / "r.db"
    _import(db, "mpibench_core_np4_d2.jsonl")
    with Store(db, for_reading=True) as store:
        html = report.render_stored(store, load(store, ["1"], results=False))
    for communicator in ("CartDim-1of2", "CartDim-2of2"):
        assert f"Bcast, 4 processes ({communicator})" in html
    assert "Bcast, 4 processes</h3>" in html  # MPI_COMM_WORLD's, the plain case


# -- 14: b_eff ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["beff_core_np2_test.sum", "beff_core_np2_test.short", "beff_orig_np2.sum",
                                  "beff_orig_np2_test.short", "beff_core_np3_test.short"])
def test_beff_files_are_detected_and_give_the_summary(name):
    parsed = parse_file(DATA / name)
    assert parsed.fmt == "beff"
    summary = parsed.results[0]
    assert (summary["benchmark"], summary["suite"], summary["record"]) == ("b_eff", "b_eff", "summary")
    closing = summary["summary_line"].split()
    assert summary["b_eff_mbytes_per_sec"] == float(closing[2]) == summary["mbytes_per_sec"]
    assert summary["processes"] == int(closing[7]) and summary["bytes"] == summary["lmax_bytes"]


def test_beff_summary_has_the_cores_figures():
    """The .short of a core run gives what the core's stream holds, to the file's three decimals."""
    summary = parse_file(DATA / "beff_core_np2_test.short").results[0]
    assert (summary["mode"], summary["processes"], summary["lmax_bytes"], summary["mem_mb_per_process"]) == \
        ("TEST", 2, 8192, 1)
    stream = {"b_eff_mbytes_per_sec": 1669.73085847, "b_eff_per_process_mbytes_per_sec": 834.865429236,
              "b_eff_rings_mbytes_per_sec": 1671.21529459, "b_eff_random_mbytes_per_sec": 1668.24774089,
              "b_eff_at_lmax_mbytes_per_sec": 4257.3919924, "b_eff_at_lmax_per_process_mbytes_per_sec": 2128.6959962,
              "b_eff_at_lmax_rings_mbytes_per_sec": 4290.93414976, "latency_usec": 0.538819413596,
              "latency_rings_usec": 0.554739909864, "pingpong_latency_usec": 0.441606951872,
              "pingpong_mbytes_per_sec": 2592.31391301}  # the -json of the same run (docs/beff.md)
    for field, value in stream.items():
        assert summary[field] == pytest.approx(value, abs=0.0006), field
    official = parse_file(DATA / "beff_orig_np2.sum").results[0]  # HLRS b_eff.c 3.6.0.1, no -DTEST
    assert (official["mode"], official["b_eff_mbytes_per_sec"], official["lmax_bytes"]) == ("official", 2825.417, 16384)


def test_beff_short_gives_the_official_path_per_length():
    lengths = parse_file(DATA / "beff_core_np2_test.short").results[1:]
    assert [r["bytes"] for r in lengths][:13] == [1 << i for i in range(13)] and len(lengths) == 21
    first = lengths[0]  # the stream: 3.71181874583 accumulated, rings 3.60529315529, Sndrcv 3.5229674834
    assert (first["benchmark"], first["record"], first["length_index"]) == ("b_eff_length", "length", 0)
    assert first["mbytes_per_sec"] == pytest.approx(3.7118, abs=0.001)
    assert first["rings_mbytes_per_sec"] == pytest.approx(3.6053, abs=0.002)
    assert first["methods_mbytes_per_sec"]["Sndrcv"] == pytest.approx(3.5230, abs=0.002)
    assert first["t_avg_usec"] == pytest.approx(0.5388, abs=0.0002)  # N·L/b, as the stream's


@pytest.mark.parametrize(("name", "reason"), [
    ("beff_core_np2_test_cut.prot", "b_eff's detailed protocol (.prot) holds no b_eff summary: import the .sum"),
    ("beff_orig_np2_cut.plot", "b_eff's plot data (.plot) holds no b_eff summary: import the .sum"),
])
def test_beff_files_without_a_summary_are_refused_naming_the_ones_to_import(tmp_path, name, reason):
    assert reason in assert_one_error_line(invoke("import", str(DATA / name), "--db", str(tmp_path / "r.db")))


def test_beff_cut_off_or_mangled_files_are_refused(tmp_path):
    text = (DATA / "beff_orig_np2.sum").read_text(encoding="utf-8")
    cut = tmp_path / "cut.sum"
    cut.write_text(text[:text.index("accumulated |")], encoding="utf-8")
    with pytest.raises(ImportFormatError, match=r"no b_eff result: the file has no closing line 'b_eff = "):
        parse_file(cut)
    no_row = tmp_path / "no_row.sum"
    no_row.write_text(text.replace("accumulated |", "accumulatd |"), encoding="utf-8")
    with pytest.raises(ImportFormatError, match=r"the file has no summary table \('accumulated"):
        parse_file(no_row)
    other_count = tmp_path / "other_count.sum"
    other_count.write_text(text.replace("accumulated |      2", "accumulated |      7"), encoding="utf-8")
    with pytest.raises(ImportFormatError, match=r"the summary table says 7 processes, the closing line .* 2"):
        parse_file(other_count)


@pytest.mark.parametrize(("old", "new", "reason"), [
    ("Latency:    0.539 microsec", "Latency:    0.5.39 microsec", r":\d+: '0\.5\.39' in column 'latency' is not a"),
    ("msglng= 1 2 4", "msglng= 99999999999999999999999 2 4", None),  # not Lmax: the last one is
    (" 7512 8192\n", " 7512 99999999999999999999999\n", r"'99999999999999999999999' in column 'msglng' is beyond"),
    ("accumulated |      2", "accumulated |      1", r"1 processes: b_eff runs on 2 or more"),
    ("      8192    4257.392", "      8192    4257.392    1.0", r"9 cells in a row of SECTION-BY-MSGLNG, not 8"),
])
def test_beff_hostile_numbers_are_one_clear_error(tmp_path, old, new, reason):
    text = (DATA / "beff_core_np2_test.short").read_text(encoding="utf-8")
    assert old in text
    mangled = tmp_path / "mangled.short"
    mangled.write_text(text.replace(old, new, 1), encoding="utf-8")
    if reason is None:
        assert parse_file(mangled).results[0]["lmax_bytes"] == 8192
        return
    with pytest.raises(ImportFormatError, match=reason):
        parse_file(mangled)


def test_beff_import_shows_hlrs_table_and_reports_against_process_count(tmp_path):
    db = tmp_path / "r.db"
    _import(db, "beff_core_np2_test.short", "beff_core_np3_test.short")
    shown = invoke("show", "2", "--db", str(db)).stdout
    assert "     3     1559.998      519.999" in shown and shown.rstrip().endswith("#1 SMP PREEMPT_DYNAMIC @0 x86_64")
    with Store(db, for_reading=True) as store:
        html = report.render_stored(store, load(store, ["1-2"], results=False))
    assert "b_eff against process count" in html and 'alt="b_eff against process count"' in html
    assert "b_eff, 2 processes" not in html  # no longer one point at its Lmax as a message size
