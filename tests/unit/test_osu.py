"""OSU Micro-Benchmarks (C and OMB-Py) imports: every program known by its facts, every column kept, and
the run shown, exported, compared and reported (docs/osu.md).

The fixtures in data/osu/ are what OSU 7.4's programs printed here (data/osu/README.md).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mpimark.presentation import osu_text
from mpimark.records import benchmarks
from mpimark.records.benchmarks import BenchmarkClass, Catalog, lookup
from mpimark.records.figures import key, record_class, time_usec
from mpimark.storage.importers import import_event, ImportFormatError, parse_file

from .cli_helpers import assert_one_error_line, invoke

DATA = Path(__file__).parent / "data" / "osu"
# Files with lines that show does not give back, after OSU's tables: the launcher's (latency_mt),
# OSU's DATA VALIDATION ERROR stop and mpirun's abort text, the atomic one-sided tests' summary of -c.
NOT_GIVEN_BACK = {"latency_mt", "allreduce_f_c_fail", "acc_latency_c_z",
                  "cas_latency_T_all_c_dynamic_pscw"}
REFUSED = {"hello", "ombpy_allreduce_crash"}
CAPTURES = sorted(p for p in DATA.glob("*.txt") if p.stem not in REFUSED)


def _parse(name: str, processes: int | None = 4):
    return parse_file(DATA / f"{name}.txt", processes=processes)


def _text(parsed) -> str:
    return osu_text.text([import_event(parsed), *parsed.results])


@pytest.mark.parametrize("path", [p for p in CAPTURES if p.stem not in NOT_GIVEN_BACK], ids=lambda p: p.stem)
def test_every_capture_comes_back_as_osu_printed_it(path):
    assert _text(parse_file(path, processes=4)) == path.read_text(encoding="utf-8")


@pytest.mark.parametrize("name", sorted(NOT_GIVEN_BACK))
def test_the_tables_of_a_capture_with_other_lines_come_back_as_osu_printed_them(name):
    text = (DATA / f"{name}.txt").read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    first_other = next(i for i, line in enumerate(lines) if not re.match(r"(#|\d|\s*$)", line))
    assert _text(_parse(name)) == "".join(lines[:first_other]).rstrip("\n") + "\n"


def test_the_launchers_lines_are_skipped_and_said():
    parsed = _parse("latency_mt")
    assert parsed.count == 7 and parsed.results[0]["sender_threads"] == 1
    assert parsed.notes and "18 lines not OSU's output skipped (first: line 14" in parsed.notes[0]
    assert _text(parsed).splitlines()[3:] == (DATA / "latency_mt.txt").read_text().splitlines()[3:13]


def test_one_sided_programs_keep_their_names_and_how_they_ran():
    flush, lock = _parse("put_latency").results, _parse("put_latency_create_lock").results
    assert {r["benchmark"] for r in flush + lock} == {"osu_put_latency"}  # not osu_latency: MPI_Put is no send/recv
    assert (flush[0]["window_creation"], flush[0]["synchronization"]) == ("MPI_Win_allocate", "MPI_Win_flush")
    assert (lock[0]["window_creation"], lock[0]["synchronization"]) == ("MPI_Win_create", "MPI_Win_lock/unlock")
    assert not {key(r) for r in flush} & {key(r) for r in lock}  # never compared with each other
    names = {_parse(n).results[0]["benchmark"] for n in ("get_latency", "put_bw", "get_bw", "put_bibw",
                                                         "acc_latency", "get_acc_latency", "fop_latency",
                                                         "cas_latency")}
    assert names == {"osu_get_latency", "osu_put_bw", "osu_get_bw", "osu_put_bibw", "osu_acc_latency",
                     "osu_get_acc_latency", "osu_fop_latency", "osu_cas_latency"}


@pytest.mark.parametrize("name", ["latency_T_all", "allreduce_T_all"])
def test_every_datatype_of_T_all_is_its_own_row(name):
    results = _parse(name).results
    assert {r["datatype"] for r in results} == {"MPI_CHAR", "MPI_INT", "MPI_FLOAT"}
    assert len({key(r) for r in results}) == len(results)
    four = [r for r in results if r["bytes"] == 4]
    assert [r["count"] for r in four] == [4, 1, 1]


def test_non_blocking_collectives_keep_every_column_and_take_overall_as_the_time():
    row = _parse("iallreduce_f").results[0]
    assert time_usec(row) == row["t_avg_usec"] == 19.88  # Overall, OSU's headline; not Pure Comm. (7.60)
    assert (row["compute_usec"], row["coll_init_usec"], row["mpi_test_usec"], row["mpi_wait_usec"]) == \
        (8.81, 0.62, 0.0, 10.27)
    assert (row["pure_comm_usec"], row["min_comm_usec"], row["max_comm_usec"], row["overlap_percent"]) == \
        (7.6, 7.31, 8.16, 0.0)
    assert row["t_min_usec"] is None and row["t_max_usec"] is None  # Min/Max Comm. are not Overall's range
    barrier = _parse("ibarrier_f").results[0]
    assert (barrier["benchmark"], barrier["bytes"], barrier["t_avg_usec"]) == ("osu_ibarrier", 0, 20.52)


def test_a_failed_validation_is_a_defect_and_osus_stop_makes_the_run_incomplete():
    parsed = _parse("allreduce_f_c_fail")
    assert [(r["bytes"], r["validation"], r["defects"]) for r in parsed.results] == \
        [(4, "Pass", 0), (8, "Pass", 0), (16, "Fail", 1)]
    assert parsed.status == "incomplete" and "DATA VALIDATION ERROR" in parsed.incomplete


def test_osu_init_is_one_row_and_osu_hello_is_refused_for_holding_no_measurement():
    row, = _parse("init", processes=None).results
    assert (row["benchmark"], row["processes"], row["t_min_usec"], row["t_max_usec"], row["t_avg_usec"]) == \
        ("osu_init", 2, 274000.0, 283000.0, 278000.0)
    with pytest.raises(ImportFormatError, match=r"hello.txt:1: osu_hello's output holds no measurement"):
        _parse("hello")


def test_omb_py_is_its_own_programs():
    latency = _parse("ombpy_latency", processes=None).results
    assert (latency[0]["benchmark"], latency[0]["suite"], latency[0]["bytes"]) == ("ombpy_latency", "omb-py", 0)
    assert _parse("ombpy_bw", processes=None).results[-1]["mbytes_per_sec"] == 734.16
    with pytest.raises(ImportFormatError, match="without a single result row"):
        _parse("ombpy_allreduce_crash")


def test_a_tail_header_one_space_after_the_previous_one_is_read():
    row = _parse("bw_z").results[0]
    assert (row["mbytes_per_sec"], row["p50_tail_bw_mb_s"], row["p99_tail_bw_mb_s"]) == (8.07, 8.69, 11.43)


def test_a_title_no_facts_name_is_refused(tmp_path):
    path = tmp_path / "new.txt"
    path.write_text("# OSU MPI Teleport Latency Test v9.9\n# Size  Avg Latency(us)\n1  0.1\n", encoding="utf-8")
    with pytest.raises(ImportFormatError, match=r"new.txt:1: 'OSU MPI Teleport Latency Test' is no OSU"):
        parse_file(path)


# -- the facts ---------------------------------------------------------------


def test_the_osu_facts_have_the_shape_of_the_cores():
    cores = set(dict(lookup("PingPong", "mpi1").facts))
    peers = benchmarks.peer_catalog()
    # The core's osu suite (whose snapshot the osu table is) says which programs it runs and on how few
    # processes; OMB-Py's entries do not.
    for suite, more in (("osu", {"runs", "min_processes"}), ("omb-py", set())):
        for bench in peers.suite(suite).benchmarks.values():
            assert cores | {"header", "datatype", "blank_line_first", "datatype_line"} | more == set(dict(bench.facts))
    latency = lookup("osu_latency", "osu")
    assert (latency.cls, latency.datatype, dict(latency.facts)["fixed_processes"]) == \
        (BenchmarkClass.SINGLE, "MPI_CHAR", 2)
    assert lookup("osu_iallreduce", "imported:osu").reduction  # any suite word finds them, after the core's


def test_the_cores_facts_win_over_the_packaged_ones():
    mine = {"name": "osu", "title": "OSU", "kind": "imb", "benchmarks": [
        dict(dict(lookup("osu_latency", "osu").facts), **{"class": "parallel", "columns": list(
            dict(lookup("osu_latency", "osu").facts)["columns"]), "imb_compat": [], "modes": []})]}
    catalog = Catalog([mine], fallback=benchmarks.peer_catalog)
    assert catalog.get("osu_latency", "osu").cls is BenchmarkClass.PARALLEL
    assert catalog.find("osu_put_latency", "osu") is None  # the core's osu suite replaces the packaged one
    assert record_class({"benchmark": "osu_bw", "suite": "osu"}) is BenchmarkClass.MSGRATE


# -- the commands ------------------------------------------------------------


def _import(db: Path, *names: str) -> None:
    for name in names:
        result = invoke("import", str(DATA / f"{name}.txt"), "--np", "4", "--again", "--db", str(db))
        assert result.exit_code == 0, result.output


def test_show_prints_osus_text(tmp_path):
    db = tmp_path / "r.db"
    _import(db, "iallreduce", "put_latency")
    for run, name in ((1, "iallreduce"), (2, "put_latency")):
        result = invoke("show", str(run), "--db", str(db))
        assert result.exit_code == 0, result.output
        assert (DATA / f"{name}.txt").read_text() in result.stdout


def test_export_imb_is_refused_and_the_other_formats_work(tmp_path):
    db = tmp_path / "r.db"
    _import(db, "iallreduce_f")
    error = assert_one_error_line(invoke("export", "1", "--format", "imb", "--db", str(db)), exit_code=2)
    assert "run 1 is OSU Micro-Benchmarks output" in error and "json, csv or markdown" in error
    csv = invoke("export", "1", "--format", "csv", "--db", str(db))
    assert csv.exit_code == 0 and '"pure_comm_usec"' in csv.stdout.splitlines()[0]
    assert invoke("export", "1", "--format", "json", "--db", str(db)).exit_code == 0
    markdown = invoke("export", "1", "--format", "markdown", "--db", str(db))
    assert markdown.exit_code == 0 and "## osu_iallreduce, 4 processes" in markdown.stdout


def test_compare_matches_every_datatype(tmp_path):
    db = tmp_path / "r.db"
    _import(db, "latency_T_all", "latency_T_all")
    result = invoke("compare", "1", "2", "--format", "csv", "--db", str(db))
    assert result.exit_code == 0, result.output
    rows = [line for line in result.stdout.splitlines() if line.startswith('"osu_latency')]
    assert len(rows) == 17 and sum("MPI_INT" in row for row in rows) == 5


def test_report_draws_every_datatype_and_window_of_osus_runs(tmp_path):
    db = tmp_path / "r.db"
    _import(db, "latency_T_all", "put_latency_create_lock", "bw")
    out = tmp_path / "report.html"
    result = invoke("report", "1", "2", "3", "-o", str(out), "--db", str(db))
    assert result.exit_code == 0, result.output
    html = out.read_text(encoding="utf-8")
    titles = ("osu_latency, 2 processes", "osu_latency, 2 processes (MPI_INT)",
              "osu_latency, 2 processes (MPI_FLOAT)",
              "osu_put_latency, 2 processes (MPI_Win_create MPI_Win_lock/unlock)", "osu_bw, 2 processes")
    assert all(f">{title}<" in html for title in titles)
    assert html.count("data:image/png") >= len(titles)  # latency and bandwidth against size
