"""The p2p and mt suites (IMB-P2P, IMB-MT; docs/p2p.md, docs/mt.md) run by the
real core under Open MPI at 2, 3 and 4 ranks with -check: which benchmarks run
on which process counts, their tables, the stream's rows with their samples,
the text and the stream agreeing, IMB-P2P's iteration rule; bad input; and the
front end storing a p2p and an mt run whose export is the core's text and
whose text imports as the same rows.

Each (suite, ranks) case is one tiny core run that the tests share. IMB-MT runs
two OpenMP threads per process; OMP_WAIT_POLICY=passive keeps the threads that
wait in an OpenMP barrier from spinning on the 2 shared cores (busy-waiting
threads made a 4-rank run take 40 s instead of 1.5 s)."""

from __future__ import annotations

import csv
import functools
import io
import subprocess

import pytest
from mpimark.records.results import validate_record

from integration.corerun import CORE, load_env, run_core, same_printed
from integration.imbtext import core_facts

from . import ptpmt_text
from .test_mpimark_run import mpimark, text_differences

RANKS = (2, 3, 4)
P2P_PLAN = ("-msglog", "3", "-iter", "20", "-pause", "0", "-check")   # sizes 0, 1, 2, 4, 8
P2P_SIZES = ["0", "1", "2", "4", "8"]
MT_PLAN = ("-thread_level", "multiple", "-count", "1,4", "-repeat", "10", "-warmup", "1", "-check", "on")
MT_ENV = {"OMP_NUM_THREADS": "2", "OMP_WAIT_POLICY": "passive"}
MT_PAIRS = {"PingPongMT", "PingPingMT", "UniBandMT", "BiBandMT"}


@pytest.fixture(scope="module")
def core_run():
    cache = {}

    def get(suite: str, n: int):
        if (suite, n) not in cache:
            if suite == "p2p":
                cache[suite, n] = run_core(n, "p2p", *P2P_PLAN, timeout=120)
            else:
                cache[suite, n] = run_core(n, "mt", *MT_PLAN, env=MT_ENV, timeout=120)
        return cache[suite, n]

    return get


@functools.cache
def every(suite: str) -> list[str]:
    """Every benchmark of the suite in the core's (IMB's run) order, from the core's own facts."""
    return [b["name"] for b in core_facts()[suite]["benchmarks"]]


def p2p_runs_on(name: str, n: int) -> bool:
    """IMB-P2P: the pairs r, r + n/2 need an even count, the stencils a 2-D (3-D) grid of sides >= 2."""
    if name in ("PingPong", "PingPing"):
        return n % 2 == 0
    if name == "Stencil2D":
        return n == 4
    return name != "Stencil3D"


def mt_pair_ranks(n: int) -> int:
    """IMB-MT's pairs with the default stride n // 2: a last rank without a partner idles."""
    return n - n % 2


@pytest.mark.parametrize("n", RANKS)
def test_p2p_tables_follow_imb_p2p(core_run, n):
    run = core_run("p2p", n)
    assert run.returncode == 0, run.stderr
    text = ptpmt_text.parse(run.stdout)
    assert [line for line in text.header if line.startswith("# ") and line[2:] in every("p2p")] == \
        [f"# {name}" for name in every("p2p")]
    assert [t.name for t in text.tables] == [b for b in every("p2p") if p2p_runs_on(b, n)]
    assert text.invalid == [(b, n) for b in every("p2p") if not p2p_runs_on(b, n)]
    for table in text.tables:
        assert table.processes == n and table.threads is None
        assert table.grid == ("2 x 2" if table.name == "Stencil2D" else None)
        assert table.columns == ["#bytes", "#repetitions", "t[usec]", "Mbytes/sec", "Msg/sec", "defects"]
        assert table.column("#bytes") == P2P_SIZES
        assert set(table.column("#repetitions")) == {"20"}
        assert set(table.column("defects")) == {"0"}
    assert run.stdout.endswith("\n\n# All processes entering MPI_Finalize\n\n")


@pytest.mark.parametrize("n", RANKS)
def test_p2p_stream_has_every_row_with_its_samples(core_run, n):
    run = core_run("p2p", n)
    for record in run.records:
        validate_record(record)
    assert run.run_record["suite"] == "p2p" and run.run_record["options"]["iter_max"] == 20
    text = ptpmt_text.parse(run.stdout)
    results = run.results()
    assert [(r["benchmark"], str(r["bytes"])) for r in results] == \
        [(t.name, size) for t in text.tables for size in P2P_SIZES]
    for r in results:
        table = text.table(r["benchmark"])
        row = table.rows[P2P_SIZES.index(str(r["bytes"]))]
        assert (r["processes"], r["repetitions"], r["defects"], r["datatype"]) == (n, 20, 0, "MPI_BYTE")
        assert r["t_min_usec"] <= r["t_avg_usec"] <= r["t_max_usec"]
        assert same_printed(r["t_avg_usec"], row[2], 2) and same_printed(r["mbytes_per_sec"], row[3], 2)
        assert same_printed(r["msgs_per_sec"], row[4], 0)
        assert len(r["samples_ns"]) == r["distribution"]["samples"] >= 1
        assert r["distribution"]["samples"] * r["distribution"]["batch_size"] >= r["repetitions"]
        assert r.get("grid") == table.grid
    assert run.end_record["results"] == len(results)


@pytest.mark.parametrize("n", RANKS)
def test_mt_tables_follow_imb_mt(core_run, n):
    run = core_run("mt", n)
    assert run.returncode == 0, run.stderr
    assert run.run_record["mpi"]["thread_level_provided"] == "MPI_THREAD_MULTIPLE"
    text = ptpmt_text.parse(run.stdout)
    assert [t.name for t in text.tables] == every("mt")
    for table in text.tables:
        assert table.threads == 2
        assert table.processes == (mt_pair_ranks(n) if table.name in MT_PAIRS else n)
        assert table.window == (64 if table.name in ("UniBandMT", "BiBandMT") else None)
        if table.name == "BarrierMT":
            assert table.columns == ["#repetitions", "t_min[usec]", "t_max[usec]", "t_avg[usec]"]
            assert len(table.rows) == 1
            continue
        # #bytes: the count times the int's 4 bytes times the threads (IMB-MT's weak scaling).
        assert table.column("#bytes") == ["8", "32"] and set(table.column("#repetitions")) == {"10"}
        assert set(table.column("defects")) == {"0"}
        if table.window:
            assert table.columns[2:5] == ["t_avg[usec]", "Mbytes/sec", "Msg/sec"]
        else:
            assert table.columns[2:5] == ["t_min[usec]", "t_max[usec]", "t_avg[usec]"]
            assert ("Mbytes/sec" in table.columns) == (table.name in ("PingPongMT", "PingPingMT", "SendRecvMT",
                                                                       "ExchangeMT"))


@pytest.mark.parametrize("n", RANKS)
def test_mt_stream_has_every_row_with_its_samples(core_run, n):
    run = core_run("mt", n)
    for record in run.records:
        validate_record(record)
    results = run.results()
    assert len(results) == (len(every("mt")) - 1) * 2 + 1  # two sizes (-count 1,4) each, BarrierMT one row
    for r in results:
        assert r["threads"] == 2 and r["repetitions"] == 10
        assert r["datatype"] == ("none" if r["benchmark"] == "BarrierMT" else "MPI_INT")
        assert len(r["samples_ns"]) == r["distribution"]["samples"] >= 1
        if r["benchmark"] not in MT_PAIRS:
            assert 0 < r["t_min_usec"] <= r["t_avg_usec"] <= r["t_max_usec"]
        if r["benchmark"] != "BarrierMT":
            assert r["defects"] == 0


def test_p2p_iterations_follow_the_volume_rule():
    # -iter 20,2: round(2 MiB / size) iterations, at most 20: 20 at 0 bytes, 2 at 1 MiB.
    run = run_core(2, "p2p", "PingPong", "-msgsz", "0", "-msgsz", "1m", "-iter", "20,2", "-pause", "0", timeout=60)
    assert run.returncode == 0, run.stderr
    assert [(r["bytes"], r["repetitions"]) for r in run.results()] == [(0, 20), (1 << 20, 2)]


def test_mt_input_file_names_the_benchmarks(tmp_path):
    """IMB-MT's -input (imb.cpp): the first word of each line, '#' lines skipped, a blank line repeats
    the name before it, the file's names after those on the command line."""
    names = tmp_path / "names.txt"
    names.write_text("BarrierMT extra words\n# BcastMT\n\nPingPongMT\n")
    run = run_core(2, "mt", "ReduceMT", "-input", str(names), "-count", "1", "-repeat", "5", "-warmup", "1",
                   timeout=60)
    assert run.returncode == 0, run.stderr
    assert [r["benchmark"] for r in run.results()] == ["ReduceMT", "BarrierMT", "BarrierMT", "PingPongMT"]


def singleton(*args: str) -> subprocess.CompletedProcess:
    load_env()
    return subprocess.run([str(CORE), *args], capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("args, says", [
    (("p2p", "-time", "1"), "unknown option '-time' for p2p"),
    (("p2p", "Pingpong,Nonesuch"), "unknown benchmark 'Nonesuch' in suite p2p"),
    (("p2p", "-msglog", "5:2"), "-msglog '5:2' is not n or k:n"),
    (("mt", "-barrier", "sometimes"), "-barrier 'sometimes' is not one of off, on, special"),
    (("mt", "-check", "on", "-datatype", "char"), "-check verifies int data only"),
    (("mt", "-include", "PingPong"), "unknown benchmark 'PingPong' in suite mt"),
    (("mt", "-input", "/nonexistent/names.txt"), "cannot read the -input file '/nonexistent/names.txt'"),
])
def test_bad_input_is_one_line_and_exit_2(args, says):
    result = singleton(*args)
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1 and says in result.stderr, result.stderr


def test_list_and_help_name_the_suites_benchmarks():
    listed = singleton("mt", "-list")
    # IMB's -list: the program's label, the names in alphabetical order (as every IMB program prints them).
    assert listed.returncode == 0 and listed.stdout.split("IMB-MT:\n")[1].split() == sorted(every("mt"))
    assert "-msgwr" in singleton("p2p", "-help").stdout
    assert "-malloc_algo" in singleton("mt", "-help").stdout


@pytest.mark.parametrize("suite, args, env", [
    ("p2p", ("-msglog", "0:2", "-iter", "10", "-pause", "0", "-check"), {}),
    ("mt", ("-thread_level", "multiple", "-count", "1,2", "-repeat", "5", "-warmup", "1"), MT_ENV),
])
def test_front_end_stores_the_run_and_exports_the_cores_text(tmp_path, monkeypatch, suite, args, env):
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    db = str(tmp_path / "results.db")
    result = mpimark("run", suite, *args, "-n", "2", "--mpi", "openmpi", "--db", db)
    assert result.returncode == 0, result.stderr
    assert result.stderr.splitlines()[-1] == f"mpimark: stored as run 1 in {db}"
    exported = mpimark("export", "1", "--format", "imb", "--db", db)
    assert exported.returncode == 0, exported.stderr
    assert text_differences(result.stdout, exported.stdout) == []
    # The core's text imports as IMB text: the same rows under the same suite.
    text_file = tmp_path / f"{suite}.txt"
    text_file.write_text(result.stdout)
    imported = mpimark("import", str(text_file), "--db", db)
    assert imported.returncode == 0, imported.stderr
    rows = mpimark("export", "2", "--format", "csv", "--db", db)
    assert rows.returncode == 0, rows.stderr
    printed = sum(len(t.rows) for t in ptpmt_text.parse(result.stdout).tables)
    table = list(csv.DictReader(io.StringIO(rows.stdout)))
    assert len(table) == printed and {row["suite"] for row in table} == {suite}
