"""Large runs are read and written a table (or a row) at a time: show --stats, export csv|markdown, report,
and the OSU, mpiBench and JSON Lines importers.

No timing or resident-memory assertion (the figures are in benchmarks/README.md, "Large imports"). The
memory checks are tracemalloc's peaks over the Python-side work, which count allocations, not time, and
so cannot flake: each bound is several times what the streamed code takes and well below what holding
the run (about a kilobyte per result record) or the file's text took before. The report's check is
structural: it never asks the store for a whole run, only for one benchmark's rows.
"""

from __future__ import annotations

import importlib.util
import json
import re
import tracemalloc
from pathlib import Path

import pytest

from mpimark.presentation import report
from mpimark.presentation.export import export
from mpimark.records.results import group_results
from mpimark.storage import selection
from mpimark.storage.importers import parse_file, store_parsed
from mpimark.storage.store import Store

from .cli_helpers import invoke
from .records import end_record, result_record, run_record

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).parent / "data"


def generator():
    spec = importlib.util.spec_from_file_location("big_imb_log", ROOT / "benchmarks" / "big_imb_log.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def big_run(tmp_path_factory) -> Path:
    """A database holding one imported IMB run of 10 000 rows (5 tables of 2000 sizes)."""
    directory = tmp_path_factory.mktemp("big")
    log = directory / "big.txt"
    generator().write(log, 0.6)
    db = directory / "results.db"
    with Store(db) as store:
        store_parsed(store, parse_file(log))
    return db


def peak_of(work) -> int:
    tracemalloc.start()
    try:
        work()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("fmt", ["csv", "markdown"])
def test_export_writes_a_large_run_a_table_at_a_time(big_run, tmp_path, fmt):
    out = tmp_path / f"out.{fmt}"
    invoke("export", "1", "--format", fmt, "-o", str(out), "--db", str(big_run))  # imports and caches warmed
    peak = peak_of(lambda: invoke("export", "1", "--format", fmt, "-o", str(out), "--db", str(big_run)))
    with Store(big_run) as store:
        records = store.records(1)
        whole = export(store.run(1), records, fmt)
    assert sum(r["type"] == "result" for r in records) == 10000
    assert out.read_text() == whole  # what the whole-run exporter writes, byte for byte
    assert peak < 6_000_000, peak  # about 3-4 MB (one table of 2000 rows); the whole run held took 11.5 MB


def test_show_stats_prints_a_large_run_a_table_at_a_time(big_run):
    invoke("show", "1", "--stats", "--db", str(big_run))
    result = None

    def show():
        nonlocal result
        result = invoke("show", "1", "--stats", "--db", str(big_run))

    peak = peak_of(show)
    assert result.exit_code == 0, result.stderr
    # CliRunner holds the printed text (about 1.2 MB here) in memory, and rich a table's rendering.
    assert peak < 24_000_000, peak  # about 12 MB (one table of 2000 rows); every table held at once took 42 MB
    with Store(big_run) as store:
        tables = group_results(store.records(1))
    assert re.findall(r"^\w+, \d processes", result.stdout, re.M) == [key.title() for key in tables]
    assert len(re.findall(r"^│ +\d+ │", result.stdout, re.M)) == 10000


def test_the_tables_come_in_the_order_of_group_results(tmp_path):
    """Store.iter_tables gives results.group_results' tables and order, the modes of IMB-EXT split."""
    db = tmp_path / "results.db"
    with Store(db) as store:
        for name in ("import/imb_ext_modes.txt", "imb/map_multi1.jsonl", "imb/check_timeouts.jsonl"):
            store_parsed(store, parse_file(DATA / name))
        for run_id in (1, 2, 3):
            assert list(store.iter_tables(run_id)) == list(group_results(store.records(run_id)).items())


def test_a_report_of_one_run_reads_a_benchmark_at_a_time(tmp_path, monkeypatch):
    db = tmp_path / "results.db"
    with Store(db) as store:
        store_parsed(store, parse_file(DATA / "imb" / "map_multi1.jsonl"))
        store_parsed(store, parse_file(DATA / "imb" / "check_timeouts.jsonl"))
    with Store(db) as store:
        whole = report.render(selection.load(store, ["2"]))
    asked = []
    real = Store.results_of

    def results_of(self, run_id, benchmarks, processes=None):
        asked.append((tuple(benchmarks), processes))
        return real(self, run_id, benchmarks, processes)

    def refuse(self, run_id):
        raise AssertionError("the report loaded the whole run")

    monkeypatch.setattr(Store, "results_of", results_of)
    monkeypatch.setattr(Store, "records", refuse)
    out = tmp_path / "report.html"
    result = invoke("report", "2", "-o", str(out), "--db", str(db))
    assert result.exit_code == 0, result.stderr
    # The same page (but the time it was made), from one benchmark's rows at a time.
    generated = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC")
    assert generated.sub("", out.read_text()) == generated.sub("", whole)
    assert asked and all(len(names) == 1 or processes is None for names, processes in asked)
    assert {names[0] for names, _ in asked} >= {"PingPong", "Allreduce"}


# -- the importers -------------------------------------------------------------------------------


def osu_log(path: Path, rows: int, runs: int = 1) -> None:
    with path.open("w") as f:
        for _ in range(runs):
            f.write("# OSU MPI Latency Test v7.1\n# Size          Latency (us)\n")
            f.writelines(f"{size:<16}{1 + size / 1e4:.2f}\n" for size in range(rows))


def mpibench_log(path: Path, rows: int, runs: int = 1) -> None:
    with path.open("w") as f:
        for _ in range(runs):
            f.write("START mpiBench v1.5\n0 : node1\n1 : node2\n")
            f.writelines(f"Alltoall\tBytes:\t{size}\tIters:\t100\tAvg:\t1.5\tMin:\t1.0\tMax:\t2.0\tComm:\t"
                         "MPI_COMM_WORLD\tRanks:\t2\n" for size in range(rows))
            f.write("END mpiBench\n")


def jsonl_log(path: Path, rows: int) -> None:
    with path.open("w") as f:
        f.write(json.dumps(run_record()) + "\n")
        f.writelines(json.dumps(result_record(bytes=size)) + "\n" for size in range(rows))
        f.write(json.dumps(end_record()) + "\n")


@pytest.mark.parametrize("write, rows", [(osu_log, 20000), (mpibench_log, 5000), (jsonl_log, 2000)])
def test_an_importer_reads_a_large_file_as_a_stream(tmp_path, write, rows):
    path = tmp_path / "big.txt"
    write(path, rows)
    parse_file(path)  # the core's facts and the schema loaded before measuring
    counted = 0

    def parse_and_read():
        nonlocal counted
        parsed = parse_file(path)
        counted = sum(1 for record in parsed.rows() if record["type"] == "result")
        assert parsed.count == counted

    peak = peak_of(parse_and_read)
    assert counted == rows
    assert peak < path.stat().st_size / 2, (peak, path.stat().st_size)  # reading it whole took the file's size


def test_a_large_stream_is_stored_whole_and_in_order(tmp_path):
    path = tmp_path / "big.jsonl"
    jsonl_log(path, 3000)
    db = tmp_path / "results.db"
    result = invoke("import", str(path), "--db", str(db))
    assert result.exit_code == 0, result.stderr
    with Store(db) as store:
        records = store.records(1)
    assert records == [json.loads(line) for line in path.read_text().splitlines()]


@pytest.mark.parametrize("write, said", [
    (osu_log, "OSU MPI Latency Test appears more than once"),
    (mpibench_log, "looks like 2 runs one after another (2 'START mpiBench' lines)"),
])
def test_concatenated_runs_of_osu_and_mpibench_are_stored_with_a_warning(tmp_path, write, said):
    path = tmp_path / "two.txt"
    write(path, 10, runs=2)
    db = tmp_path / "results.db"
    result = invoke("import", str(path), "--db", str(db))
    assert result.exit_code == 0, result.stderr
    assert "mpimark: warning: " in result.stderr and said in result.stderr
    with Store(db) as store:
        assert store.run(1).results == 20


def test_one_run_of_osu_or_mpibench_gives_no_warning(tmp_path):
    for write in (osu_log, mpibench_log):
        path = tmp_path / f"{write.__name__}.txt"
        write(path, 10)
        parsed = parse_file(path)
        assert parsed.count == 10 and not parsed.warnings


def _imported(tmp_path, times: int) -> Path:
    """A database holding check_timeouts.jsonl imported `times` times: with two, two series of one run."""
    db = tmp_path / "results.db"
    for again in range(times):
        result = invoke("import", str(DATA / "imb" / "check_timeouts.jsonl"), *(["--again"] if again else []),
                        "--db", str(db))
        assert result.exit_code == 0, result.stderr
    return db


@pytest.mark.parametrize("runs", [("1",), ("1", "2")])
def test_a_plot_draws_a_benchmark_at_a_time(tmp_path, monkeypatch, runs):
    """One run or several (series drawn together): the plots of the whole runs, none of them loaded whole."""
    from mpimark.presentation import plots

    db = _imported(tmp_path, len(runs))
    with Store(db) as store:
        series = selection.by_placement(selection.load(store, list(runs)))
        assert len(series) == len(runs)
        whole = plots.size_plots(series) + plots.scaling_plots(series)
        expected = {plot.name + ".png": plots.render(plot.figure, "png") for plot in whole}

    def refuse(self, run_id):
        raise AssertionError("plot loaded the whole run")

    monkeypatch.setattr(Store, "records", refuse)
    result = invoke("plot", *runs, "-o", str(tmp_path / "plots"), "--db", str(db))
    assert result.exit_code == 0, result.stderr
    written = {path.name: path.read_bytes() for path in (tmp_path / "plots").iterdir()}
    assert written == expected and len(written) > 3
    assert result.stdout.splitlines() == [str(tmp_path / "plots" / name) for name in expected]

# -- show --stats of a long table -----------------------------------------------------------------


def printed(parts, width: int) -> str:
    from io import StringIO

    from rich.console import Console

    out = StringIO()
    terminal = Console(file=out, width=width)
    for part in parts:
        terminal.print(part)
    return out.getvalue()


def long_tables(rows: int) -> list:
    """Two tables of rows rows: PingPong with a failed row and the optional columns, Allreduce plain."""
    from mpimark.records.results import TableKey

    pingpong = [result_record(bytes=size, t_avg_usec=1.5 + size / 7, defects=0,
                              window={"invalid_samples": size % 3}) for size in range(rows)]
    pingpong[rows // 2] = {**pingpong[rows // 2], "status": "timeout", "distribution": None}
    allreduce = [result_record(benchmark="Allreduce", processes=4, bytes=4 * size) for size in range(rows)]
    return [(TableKey("PingPong", None, 2, None, None), pingpong), (TableKey("Allreduce", None, 4, None, None), allreduce)]


@pytest.mark.parametrize("width", [200, 120])
def test_a_long_table_is_written_as_rich_writes_it_without_rich_s_layout(monkeypatch, width):
    from mpimark.presentation import long_table, summary

    monkeypatch.setattr(long_table, "LONG_ROWS", 40)  # rich's layout of the expected text is slow at 1000 rows
    tables = long_tables(41)
    expected = printed(summary.rich_parts(run_record(), tables), width)  # rich lays out every table
    laid_out = []
    real = summary.Table
    monkeypatch.setattr(summary, "Table", lambda *a, **k: laid_out.append(a) or real(*a, **k))
    assert printed(summary.rich_parts(run_record(), tables, width), width) == expected
    assert laid_out == ([] if width == 200 else [()])  # at 120 columns PingPong's table must fold: rich's


def test_a_short_table_is_still_laid_out_by_rich(monkeypatch):
    from mpimark.presentation import long_table, summary

    monkeypatch.setattr(long_table, "LONG_ROWS", 40)
    tables = long_tables(40)
    expected = printed(summary.rich_parts(run_record(), tables), 200)
    laid_out = []
    real = summary.Table
    monkeypatch.setattr(summary, "Table", lambda *a, **k: laid_out.append(a) or real(*a, **k))
    assert printed(summary.rich_parts(run_record(), tables, 200), 200) == expected
    assert len(laid_out) == 2


def test_compare_reads_each_run_as_it_compares_it(big_run, monkeypatch):
    """Two runs of any size: each read once from the store, never loaded whole, the same comparison."""
    from mpimark.analysis.launches import compare_launches
    from mpimark.presentation import comparison

    with Store(big_run) as store:
        records = selection.with_waiting(store.records(1))
    expected = comparison.EXPORTS["csv"](compare_launches([records], [records]), "run 1", "run 1")

    def refuse(self, run_id):
        raise AssertionError("compare loaded a whole run")

    monkeypatch.setattr(Store, "records", refuse)
    result = invoke("compare", "1", "1", "--format", "csv", "--db", str(big_run))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[1:] == expected.splitlines()[1:] and len(expected.splitlines()) > 2000


def test_the_report_s_consistency_check_reads_its_three_benchmarks_one_row_at_a_time(tmp_path, monkeypatch):
    """Allreduce against Reduce + Bcast: the same table as from the whole run, from rows read one at a time
    (only their medians kept), never the three benchmarks' rows loaded together."""
    path = tmp_path / "coll.jsonl"
    with path.open("w") as f:
        f.write(json.dumps(run_record()) + "\n")
        for benchmark, usec in (("Allreduce", 9.0), ("Reduce", 3.0), ("Bcast", 4.0)):
            f.writelines(json.dumps(result_record(benchmark=benchmark, bytes=size, t_avg_usec=usec * (1 + size),
                                                  distribution=None, samples_ns=[])) + "\n" for size in (8, 1024))
        f.write(json.dumps(end_record()) + "\n")
    db = tmp_path / "results.db"
    with Store(db) as store:
        store_parsed(store, parse_file(path))
    with Store(db) as store:
        whole = report.render(selection.load(store, ["1"]))
    assert "Allreduce ≈ Reduce + Bcast?" in whole
    loaded = []
    real = Store.results_of
    monkeypatch.setattr(Store, "results_of", lambda self, run_id, names, processes=None:
                        loaded.append(tuple(names)) or real(self, run_id, names, processes))
    out = tmp_path / "report.html"
    result = invoke("report", "1", "-o", str(out), "--db", str(db))
    assert result.exit_code == 0, result.stderr
    generated = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC")
    assert generated.sub("", out.read_text()) == generated.sub("", whole)
    assert ("Allreduce", "Reduce", "Bcast") not in loaded and ("Allreduce",) in loaded


@pytest.mark.parametrize(("command", "runs"), [("plot", ("1",)), ("report", ("1",)), ("plot", ("1", "2")),
                                              ("report", ("1", "2"))])
def test_one_benchmark_s_rows_are_let_go_before_the_next_are_read(tmp_path, monkeypatch, command, runs):
    """report and plot hold one benchmark's rows at a time: when the next benchmark's rows are read, no
    series narrowed to an earlier one is still alive."""
    import gc
    import weakref

    from mpimark.presentation import by_benchmark

    db = _imported(tmp_path, len(runs))
    earlier, alive_at_read = [], []
    real = by_benchmark.with_results_of

    def tracked(store, series, benchmarks, processes=None):
        gc.collect()
        alive_at_read.append(sum(1 for ref in earlier if ref() is not None))
        narrowed = real(store, series, benchmarks, processes)
        earlier.extend(weakref.ref(s) for s in narrowed)
        return narrowed

    monkeypatch.setattr(by_benchmark, "with_results_of", tracked)
    out = tmp_path / ("plots" if command == "plot" else "report.html")
    result = invoke(command, *runs, "-o", str(out), "--db", str(db))
    assert result.exit_code == 0, result.stderr
    assert len(alive_at_read) > 3 and not any(alive_at_read), alive_at_read


def test_a_long_comparison_is_written_as_rich_writes_it_without_rich_s_layout(big_run, monkeypatch):
    from mpimark.analysis.launches import compare_launches
    from mpimark.presentation import comparison, long_table

    with Store(big_run) as store:
        records = selection.with_waiting(store.records(1))
    compared = compare_launches([records], [records[: len(records) // 2]])
    assert len(compared.rows) > long_table.LONG_ROWS
    expected = printed([comparison.to_rich(compared, "run 1", "run 1, half")], 140)
    monkeypatch.setattr(comparison, "Table", lambda *a, **k: pytest.fail("rich laid out the long comparison"))
    assert printed(comparison.rich_parts(compared, "run 1", "run 1, half", 140), 140) == expected



def _styled_chars(parts, width: int) -> list[tuple[str, str]]:
    """Every character printed in colour, with its style: what a terminal shows."""
    from io import StringIO

    from rich.console import Console
    from rich.style import Style
    from rich.text import Text

    out = StringIO()
    terminal = Console(file=out, width=width, force_terminal=True, color_system="standard")
    for part in parts:
        terminal.print(part)
    shown = Text.from_ansi(out.getvalue())
    return [(char, str(segment.style or Style())) for segment in shown.render(terminal) for char in segment.text]


def _verdict_comparison(rows: int, shift_usec: float, benchmark: str):
    """A comparison of rows sizes where B is slower, faster and the same by turns (5 launches a side)."""
    from mpimark.analysis.launches import compare_launches

    def launch(side: int, number: int) -> list[dict]:
        return [result_record(benchmark=benchmark, bytes=size, samples_ns=[int(1000 * (10 + (side * shift_usec * (size % 3 - 1))
                                                                  + 0.01 * i + 0.1 * number)) for i in range(30)])
                for size in range(rows)]
    return compare_launches([launch(0, n) for n in range(5)], [launch(1, n) for n in range(5)])


@pytest.mark.parametrize("benchmark", ["PingPong", "Ping日本µ"])  # wide and non-ASCII characters before the verdicts
def test_long_tables_are_coloured_as_rich_colours_them(monkeypatch, benchmark):
    """show --stats (a failed row), compare (verdict rows, the bold geomean) and compare STUDY (verdict cells):
    the long tables' characters carry the styles rich gives them, header and rows, bars left plain."""
    from mpimark.presentation import comparison, long_table, summary

    monkeypatch.setattr(long_table, "LONG_ROWS", 40)
    tables = long_tables(41)
    compared, other = _verdict_comparison(42, 5.0, benchmark), _verdict_comparison(42, -3.0, benchmark)
    assert {row.marker for row in compared.rows} >= {"slower", "faster"}
    cases = [(summary.rich_parts(run_record(), tables, 200), summary.rich_parts(run_record(), tables)),
             (comparison.rich_parts(compared, "A", "B", 200), [comparison.to_rich(compared, "A", "B")]),
             (comparison.many_rich_parts("A", [("B", compared), ("C", other)], {}, 200),
              [comparison.many_to_rich("A", [("B", compared), ("C", other)], {})])]
    for long, laid_out in cases:
        long = list(long)
        assert not any(isinstance(part, comparison.Group) for part in long)  # written by long_table
        chars = _styled_chars(long, 200)
        assert chars == _styled_chars(laid_out, 200)
        assert {style for _, style in chars} > {"none", "bold"}

# -- several series: report and compare STUDY ------------------------------------------------------


def _study(tmp_path) -> Path:
    """A study of three implementations of one run each, measured differently (sizes, benchmarks, process
    counts): PingPong and PingPing, Sendrecv and Exchange, collectives at 2 and 3 processes, to compare."""
    db = tmp_path / "results.db"
    for run_id, (name, impl) in enumerate((("check_timeouts", "A"), ("basic", "B"), ("idle", "C")), start=1):
        for args in (("import", str(DATA / "imb" / f"{name}.jsonl")), ("study", "add", "st", str(run_id), "--impl", impl)):
            result = invoke(*args, "--db", str(db))
            assert result.exit_code == 0, result.stderr
    return db


class _Tracked(dict):
    """A record read from the store that a weak reference can follow (a dict cannot be followed)."""


def _reads_tracked(monkeypatch) -> list[int]:
    """Store's streams give _Tracked records; per stream opened, how many records of earlier streams were
    still alive (held by whoever read them) when it was opened. Store.results_of's rows (a benchmark's,
    held by design while it is shown) are not followed: test_one_benchmark_s_rows_are_let_go... does."""
    import gc
    import weakref

    read, alive_at_open, in_results_of = [], [], []

    def tracking(real):
        def stream(self, *args, **kwargs):
            if in_results_of:
                yield from real(self, *args, **kwargs)
                return
            gc.collect()
            alive_at_open.append(sum(1 for ref in read if ref() is not None))
            for record in real(self, *args, **kwargs):
                record = _Tracked(record)
                read.append(weakref.ref(record))
                yield record
        return stream

    for name in ("iter_records", "iter_results", "iter_results_of"):
        monkeypatch.setattr(Store, name, tracking(getattr(Store, name)))
    results_of = Store.results_of

    def untracked(self, *args, **kwargs):
        in_results_of.append(True)
        try:
            return results_of(self, *args, **kwargs)
        finally:
            in_results_of.pop()

    monkeypatch.setattr(Store, "results_of", untracked)
    return alive_at_open


def _refuse_whole_runs(monkeypatch):
    def refuse(self, run_id):
        raise AssertionError("a whole run was loaded")

    monkeypatch.setattr(Store, "records", refuse)


@pytest.mark.parametrize("selectors", [("1", "2"), ("st",)])
def test_a_report_of_several_series_reads_a_benchmark_at_a_time(tmp_path, monkeypatch, selectors):
    """Two series (runs) or a study's three: the page of the whole runs, verdicts and ranking included, from
    each run streamed for the verdicts (a row's numbers kept, not the records) and one benchmark's rows at
    a time for the rest; never a whole run."""
    db = _study(tmp_path)
    with Store(db) as store:
        whole = report.render(selection.load(store, list(selectors)))
    assert "Single transfer benchmarks at" in whole
    assert ("Ranking per benchmark" in whole) == (selectors == ("1", "2"))  # C has no plain row in common
    assert "Allreduce: time [usec] at" in whole and "Sendrecv: bandwidth [MB/s] at" in whole
    asked = []
    real = Store.results_of
    monkeypatch.setattr(Store, "results_of", lambda self, run_id, names, processes=None:
                        asked.append((tuple(names), processes)) or real(self, run_id, names, processes))
    _refuse_whole_runs(monkeypatch)
    alive_at_open = _reads_tracked(monkeypatch)
    out = tmp_path / "report.html"
    result = invoke("report", *selectors, "-o", str(out), "--db", str(db))
    assert result.exit_code == 0, result.stderr
    generated = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC")
    assert generated.sub("", out.read_text()) == generated.sub("", whole)
    assert asked and all(len(names) == 1 or processes is None for names, processes in asked)
    assert {names for names, _ in asked} >= {("PingPong",), ("PingPing",), ("Sendrecv",), ("Allreduce",)}
    assert len(alive_at_open) > 3 and not any(alive_at_open), alive_at_open


def test_compare_study_reads_each_run_as_it_compares_it(tmp_path, monkeypatch):
    """compare STUDY: the comparison of the whole runs, each run streamed and none of its records kept."""
    from mpimark.analysis.launches import compare_launches
    from mpimark.presentation import comparison

    db = _study(tmp_path)
    with Store(db) as store:
        runs = {impl: [selection.with_waiting(store.records(run_id))] for impl, run_id in (("A", 1), ("B", 2), ("C", 3))}
    expected = comparison.MANY_EXPORTS["csv"]("A", [(impl, compare_launches(runs["A"], runs[impl]))
                                                    for impl in ("B", "C")], {})
    _refuse_whole_runs(monkeypatch)
    alive_at_open = _reads_tracked(monkeypatch)
    result = invoke("compare", "st", "--format", "csv", "--db", str(db))
    assert result.exit_code == 0, result.stderr
    assert result.stdout == expected and len(expected.splitlines()) > 10
    assert len(alive_at_open) == 4 and not any(alive_at_open), alive_at_open  # A, B; A, C
