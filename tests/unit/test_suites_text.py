"""The front end's knowledge of the one-sided and nonblocking suites (ext, rma,
nbc, mpi4): benchmark classes by suite, IMB's MODE blocks and overlap columns
in the IMB text it regenerates, and the mode and overlap figures in the
summaries and exports. (The real core's text for each suite is compared in
tests/suites/test_mpimark_run.py.)"""

from __future__ import annotations

import csv
import io
import json
import subprocess

import pytest

from mpimark.execution.core import core_path
from mpimark.presentation import imb_text
from mpimark.presentation.export import export
from mpimark.presentation.summary import to_csv, to_markdown
from mpimark.records import benchmarks
from mpimark.records.benchmarks import benchmark_class, BenchmarkClass, checks_data, Layout, table_layout
from mpimark.records.results import group_results, TableKey, validate_record
from mpimark.storage.store import Store

from .conftest import store_records
from .records import end_record, result_record, run_record


def test_accumulate_is_looked_up_by_suite():
    # IMB-EXT's Accumulate is a collective (all ranks to rank 0), IMB-RMA's a single transfer.
    assert benchmark_class("Accumulate", "ext") is BenchmarkClass.COLLECTIVE
    assert table_layout("Accumulate", "ext") is Layout.RANGE
    assert benchmark_class("Accumulate", "rma") is BenchmarkClass.SINGLE
    assert table_layout("Accumulate", "rma") is Layout.T_BW
    assert table_layout("Accumulate", "rma", multi=0) is Layout.RANGE_BW


@pytest.mark.parametrize("name,suite,layout", [
    ("One_put_all", "rma", Layout.T_BW), ("All_put_all", "rma", Layout.RANGE),
    ("Truly_passive_put", "rma", Layout.PURE_OVRL), ("Window", "ext", Layout.RANGE),
    ("Ibcast", "nbc", Layout.OVERLAP), ("Ibcast_pure", "nbc", Layout.RANGE),
    ("Ibarrier", "nbc", Layout.OVERLAP_SYNC), ("Ibarrier_pure", "nbc", Layout.SYNC),
    ("Gather_persist", "mpi4", Layout.OVERLAP), ("Barrier_persist", "mpi4", Layout.OVERLAP_SYNC),
    ("PingPong", "mpi1", Layout.T_BW), ("Uniband", "mpi1", Layout.RATE),
])
def test_layouts(name, suite, layout):
    assert table_layout(name, suite) is layout


def test_checked_benchmarks():
    assert not checks_data("Ibarrier", "nbc") and not checks_data("Barrier_persist_pure", "mpi4")
    assert all(checks_data(n, "rma") for n in benchmarks.core_catalog().suite("rma").benchmarks)
    assert checks_data("Window", "ext")


def test_suites_are_the_cores_lists():
    # The front end's suites and names are the core's own -list (IMB's labels, "IMB-MPI1:", and
    # alphabetical order), whatever the core has.
    core = benchmarks.core_catalog()
    listed = subprocess.run([str(core_path()), "-list"], capture_output=True, text=True, check=True).stdout
    expected: dict[str, list[str]] = {}
    for line in listed.splitlines()[2:]:
        if not line.startswith(" "):
            names = expected.setdefault(line.rstrip(":").removeprefix("IMB-").lower(), [])
        elif not line.startswith(" " * 8):  # 8 spaces: a comment line under a name (IMB-RMA's)
            names.append(line.strip().removesuffix(" (non-default)"))
    assert benchmarks.suite_names() == list(expected)
    assert {s: sorted(core.suite(s).benchmarks, key=str.lower) for s in expected} == expected


def test_unknown_names_are_errors_not_guesses():
    with pytest.raises(benchmarks.UnknownBenchmark, match="unknown benchmark 'NoSuchBench' in suite mpi1"):
        benchmark_class("NoSuchBench", "mpi1")
    with pytest.raises(benchmarks.UnknownBenchmark, match="in any suite of the core"):
        table_layout("NoSuchBench")


def test_a_run_records_facts_win_over_the_cores():
    # A run stored by another core (a benchmark this core lacks) is read with its own facts.
    run = run_record()
    facts = json.loads(json.dumps(benchmarks.core_catalog().suite("mpi1").benchmarks["PingPong"].facts,
                                  default=list))
    run["benchmark_facts"] = {"name": "mpi1", "title": "MPI-1", "runnable": True, "needs_mpi": None,
                              "benchmarks": [{**dict(facts), "name": "PingPongNew"}]}
    cat = benchmarks.catalog([run])
    assert cat.get("PingPongNew", "mpi1").cls is BenchmarkClass.SINGLE
    assert cat.get("Ibcast", "nbc").layout is Layout.OVERLAP  # other suites: the core's
    text = imb_text.tables([run, result_record(benchmark="PingPongNew")])
    assert "# Benchmarking PingPongNew" in text and "t[usec]" in text


def rma_run() -> list[dict]:
    run = run_record()
    run.update(suite="rma", benchmarks=["Unidir_put", "Truly_passive_put"])
    run["options"] = {"check": "on", "multi": None, "map": "1x1", "msglog": "0:0", "zero_size": "on"}
    start = {"type": "event", "level": "info", "kind": "benchmark_start", "message": "", "benchmark": "Unidir_put",
             "processes": 2, "groups": 1, "sizes": 1}
    records = [run]
    for mode in ("non_aggregate", "aggregate"):
        records.append(dict(start, mode=mode))
        records.append(result_record(benchmark="Unidir_put", suite="rma", mode=mode, bytes=1, count=1, defects=0,
                                     mbytes_per_sec=0.57, overlap=None))
    records.append({**start, "benchmark": "Truly_passive_put"})
    records.append(result_record(benchmark="Truly_passive_put", suite="rma", mode=None, bytes=1, count=1,
                                 defects=0, mbytes_per_sec=None, overlap={
                                     "t_ovrl_usec": 1.75, "t_pure_usec": 1.61, "t_cpu_usec": None,
                                     "overlap_percent": None, "overlap_percent_max_denominator": None, "rank": 0}))
    records.append(end_record())
    return records


def nbc_run() -> list[dict]:
    run = run_record()
    run.update(suite="nbc", benchmarks=["Ibcast", "Ibarrier"], cpu_exploit_mflops=4265.27)
    run["options"] = {"check": "off", "multi": None, "map": "1x1", "msglog": "0:0", "zero_size": "on"}
    overlap = {"t_ovrl_usec": 1.75, "t_pure_usec": 1.25, "t_cpu_usec": 1.2, "overlap_percent": 58.3333333333,
               "overlap_percent_max_denominator": 56.0, "rank": 1}
    return [run,
            result_record(benchmark="Ibcast", suite="nbc", mode=None, bytes=8, count=8, mbytes_per_sec=None,
                          overlap=overlap),
            result_record(benchmark="Ibarrier", suite="nbc", mode=None, bytes=0, count=0, datatype="none",
                          mbytes_per_sec=None,
                          overlap=dict(overlap, overlap_percent=0.0, overlap_percent_max_denominator=0.0)),
            end_record()]


@pytest.mark.parametrize("make", [rma_run, nbc_run])
def test_the_records_follow_the_schema(make):
    for record in make():
        validate_record(record)


def test_imb_text_of_an_rma_run():
    text = imb_text.imb_text(rma_run())
    assert "#    mpimark-core 0.1.0 (Intel(R) MPI Benchmarks 2021.11 methodology), MPI-RMA part\n" in text
    dash = "#" + "-" * 64 + "\n"
    columns = "".join(f"{c:>13}" for c in ("#bytes", "#repetitions", "t[usec]", "Mbytes/sec", "defects"))
    for mode in ("NON-AGGREGATE", "AGGREGATE"):  # non-aggregate first, as the core wrote them
        assert f"{dash}#\n#    MODE: {mode} \n#\n{columns}\n" in text
    assert text.index("MODE: NON-AGGREGATE") < text.index("MODE: AGGREGATE")
    passive = "".join(f"{c:>13}" for c in ("#bytes", "#repetitions", "t_pure[usec]", "t_ovrl[usec]", "defects"))
    assert f"# Benchmarking Truly_passive_put \n# #processes = 2 \n{dash}{passive}\n" in text
    assert "".join(f"{c:>13}" for c in ("1", "1000", "1.61", "1.75", "0")) in text


def test_the_mode_comes_from_the_first_result_without_the_event_field():
    records = rma_run()
    for record in records:
        if record["type"] == "event":
            record.pop("mode", None)  # as cores before 0.1.0's mode field wrote them
    assert imb_text.imb_text(records) == imb_text.imb_text(rma_run())


def test_imb_text_of_an_nbc_run():
    text = imb_text.imb_text(nbc_run())
    assert ("# Ibarrier\n\n# For nonblocking benchmarks:\n\n# Function CPU_Exploit obtains an undisturbed\n"
            "# performance of 4265.27 MFlops\n\n#---") in text
    cols = "".join(f"{c:>13}" for c in ("#bytes", "#repetitions", "t_ovrl[usec]", "t_pure[usec]", "t_CPU[usec]",
                                        " overlap[%]"))
    # The overlap column is IMB's (the max denominator, 56.00), not the guide's (58.33).
    assert cols + "\n" + "".join(f"{c:>13}" for c in ("8", "1000", "1.75", "1.25", "1.20", "56.00")) + "\n" in text
    sync = "".join(f"{c:>13}" for c in ("#repetitions", "t_ovrl[usec]", "t_pure[usec]", "t_CPU[usec]", " overlap[%]"))
    assert sync + "\n" + "".join(f"{c:>13}" for c in ("1000", "1.75", "1.25", "1.20", "0.00")) + "\n" in text


def test_imb_text_of_an_nbc_run_with_the_guides_overlap():
    records = nbc_run()
    records[0]["options"]["imb_compat"] = "guide"
    text = imb_text.imb_text(records)
    assert "(Intel(R) MPI Benchmarks 2021.11 methodology, -imb_compat guide), MPI-NBC part" in text
    assert "".join(f"{c:>13}" for c in ("8", "1000", "1.75", "1.25", "1.20", "58.33")) + "\n" in text


def test_summary_keeps_the_modes_apart_and_shows_overlap():
    tables = group_results(rma_run())
    assert list(tables) == [TableKey("Unidir_put", None, 2, None, "non_aggregate"),
                            TableKey("Unidir_put", None, 2, None, "aggregate"),
                            TableKey("Truly_passive_put", None, 2, None)]
    assert list(tables)[0].title() == "Unidir_put, 2 processes, non-aggregate"
    rows = list(csv.DictReader(io.StringIO(to_csv(rma_run()[0], tables))))
    assert rows[0]["mode"] == "non_aggregate" and rows[2]["mode"] == ""
    assert rows[2]["t_pure[usec]"] == "1.61" and rows[0]["t_pure[usec]"] == ""
    markdown = to_markdown(nbc_run()[0], group_results(nbc_run()))
    assert "| bytes | repetitions | t_avg[usec] | median[usec] | CI95 low[usec] | CI95 high[usec] | MB/s at median | " \
           "t_pure[usec] | t_CPU[usec] | overlap[%] |" in markdown


def test_csv_export_flattens_the_overlap_figures(tmp_path):
    with Store(tmp_path / "results.db") as store:
        run_id = store_records(store, nbc_run(), suite="nbc")
        row, records = store.run(run_id), store.records(run_id)
    rows = list(csv.DictReader(io.StringIO(export(row, records, "csv"))))
    assert (rows[0]["t_ovrl_usec"], rows[0]["t_cpu_usec"], rows[0]["overlap_percent"], rows[0]["overlap_rank"]) == (
        "1.75", "1.2", "58.3333333333", "1")
