"""Issue 16 items 1-8: the core follows IMB 2021's rules where a user compares the two, and the user
guide's where asked (-imb_compat guide). Each test checks tables, rows, repetitions or header text
against IMB's rule, read from IMB's source (src_cpp/helpers, src_c); the time-limit and size-list
rules themselves are CTest units (core/tests/test_iterations.c, test_sizes.c). All runs are tiny:
2-3 ranks, a few sizes, few iterations."""

from __future__ import annotations

import subprocess

import pytest

from mpimark.presentation.imb_text import header

from .conftest import close, run_core
from .corerun import CORE, load_env

TINY = ("-iter", "20,40,20", "-time", "10")


def singleton(*args: str) -> subprocess.CompletedProcess:
    """The core without a launcher (one MPI process), for what prints and runs nothing."""
    load_env()
    return subprocess.run([str(CORE), *args], capture_output=True, text=True, timeout=60)


def rows_of(run, name: str) -> dict[int, list]:
    """{processes: rows} of every table of benchmark name."""
    out: dict[int, list] = {}
    for t in run.report.tables:
        if t.name == name:
            out.setdefault(t.processes, []).extend(t.rows)
    return out


# --- 1: a failed size ends the benchmark --------------------------------------------------

def test_out_of_memory_ends_the_benchmark_at_every_process_count():
    """The issue's example: IMB prints one out-of-mem row at 2 processes and no 3-process table."""
    run = run_core(3, "mpi1", "Allreduce", "Barrier", "-msglog", "16:19", "-mem", "0.0005", "-iter", "20",
                   "-time", "5")
    assert run.returncode == 3, run.describe()
    tables = rows_of(run, "Allreduce")
    assert list(tables) == [2]
    rows = tables[2]
    assert [r.bytes for r in rows] == [0, 2**16, 2**17, 2**18, 2**19]
    assert [r.status for r in rows] == ["ok"] * 4 + ["out-of-mem"]
    assert sorted(rows_of(run, "Barrier")) == [2, 3]  # the next benchmark runs as usual
    assert [r["status"] for r in run.results() if r["benchmark"] == "Allreduce"] == ["ok"] * 4 + ["out_of_memory"]


def test_a_time_out_ends_the_modes_too():
    """IMB-EXT: a time-out in the aggregate mode leaves no non-aggregate table."""
    run = run_core(2, "ext", "Unidir_Put", "-msglog", "16:18", "-time", "0.000001", "-iter", "20,40,20")
    assert run.returncode == 0, run.describe()
    tables = [t for t in run.report.tables if t.name == "Unidir_Put"]
    assert [t.mode for t in tables] == ["aggregate"]
    statuses = [r.status for r in tables[0].rows]
    assert statuses.count("time-out") == 1 and statuses[-1] == "time-out"


# --- 3, 5: the lists --------------------------------------------------------------------

def test_mpi4_default_list_leaves_allgather_persist_out():
    listed = singleton("mpi4", "-list").stdout.splitlines()
    assert "IMB-MPI4:" in listed
    assert "    Allgather_persist (non-default)" in listed and "    Allgatherv_persist" in listed


def test_include_runs_first_and_duplicates_run_again():
    """IMB: `Allreduce PingPong -include Biband,Allreduce` runs Biband, Allreduce, Allreduce, PingPong."""
    run = run_core(2, "mpi1", "Allreduce", "PingPong", "-include", "Biband,Allreduce", "-msgsize", "0",
                   "-iter", "5")
    assert run.returncode == 0, run.describe()
    assert run.report.benchmarks == ["Biband", "Allreduce", "Allreduce", "PingPong"]
    assert [t.name for t in run.report.tables] == ["Biband", "Allreduce", "Allreduce", "PingPong"]


def test_size_lists_keep_duplicates_and_an_explicit_zero():
    """-msgsize 1,2,3,4,5 of a float reduction: rows 4,4,4,4,8; -zero_size off keeps a listed 0."""
    run = run_core(2, "mpi1", "Allreduce", "PingPong", "-msgsize", "0,1,2,3,4,5", "-zero_size", "off",
                   "-iter", "5")
    assert run.returncode == 0, run.describe()
    assert [r.bytes for r in rows_of(run, "Allreduce")[2]] == [0, 4, 4, 4, 4, 8]
    assert [r.bytes for r in rows_of(run, "PingPong")[2]] == [0, 1, 2, 3, 4, 5]


def test_char_reductions_are_mpi_char():
    run = run_core(2, "mpi1", "Allreduce", "-msgsize", "0,8", "-red_data_type", "char", "-iter", "5", "-check")
    assert run.returncode == 0, run.describe()
    assert "# MPI_Datatype for reductions    :   MPI_CHAR " in run.stdout.splitlines()
    assert {r["datatype"] for r in run.results()} == {"MPI_CHAR"}
    assert all(r["defects"] == 0 for r in run.results())


def test_iter_volume_is_an_integer():
    run = singleton("mpi1", "PingPong", "-iter", "1000,1.5")
    assert run.returncode == 2 and "-iter" in run.stderr and "Benchmarking" not in run.stdout


def test_help_option_prints_that_option():
    out = singleton("mpi1", "-help", "npmin")
    assert out.returncode == 0
    assert out.stdout.splitlines()[0] == "Option: -npmin" and "usage:" not in out.stdout


@pytest.mark.parametrize("suite,bench,call_space,red_space,hash_space", [
    ("mpi1", "PingPong", True, True, True),
    ("nbc", "Ibarrier", False, False, False),
    ("rma", "Unidir_put", True, False, True),
    ("ext", "Unidir_Put", False, False, False),
])
def test_header_spacing_per_suite(suite, bench, call_space, red_space, hash_space):
    """Each IMB program prints its own header (its suite's prepare()): trailing blanks and '# ' lines."""
    run = run_core(2, suite, bench, "-msgsize", "0", *TINY, json=False)
    assert run.returncode == 0, run.describe()
    lines = run.stdout.splitlines()
    call = lines[lines.index("# Calling sequence was: ") + 2]
    assert call.endswith(" ") == call_space, call
    red = next(x for x in lines if x.startswith("# MPI_Datatype for reductions"))
    assert red.endswith(" ") == red_space, red
    after_op = lines.index("# MPI_Op                         :   MPI_SUM  ")
    assert lines[after_op + 1:after_op + 3] == (["# ", "# "] if hash_space else ["#", "#"])


def test_io_header_follows_imb_io(tmp_path):
    """IMB-IO's prepare() (src_cpp/IO/IO_suite.cpp): the calling sequence between blank lines, a
    minimum io portion of 0 whatever -zero_size says, then "#" three times (no trailing blank), a
    blank line and the list."""
    run = run_core(2, "io", "S_Write_indv", "-msglog", "2:3", "-zero_size", "off", *TINY, "-iodir", str(tmp_path),
                   json=False)
    assert run.returncode == 0, run.describe()
    lines = run.stdout.splitlines()
    call = lines.index("# Calling sequence was: ")
    assert lines[call - 2:call] == ["", ""] and lines[call + 1] == "" and lines[call + 3] == ""
    assert lines[call + 2].endswith(" ")
    assert lines[call + 4:call + 12] == ["# Minimum io portion in bytes:   0", "# Maximum io portion in bytes:   8",
                                         "#", "#", "#", "", "# List of Benchmarks to run:", ""]
    # export --format imb rebuilds the header from the stored run: the same lines.
    run_json = run_core(2, "io", "S_Write_indv", "-msglog", "2:3", "-zero_size", "off", *TINY, "-iodir", str(tmp_path))
    assert run_json.returncode == 0, run_json.describe()
    exported = header(run_json.run_record).splitlines()
    start = exported.index("# Calling sequence was: ")
    assert exported[start + 3:] == lines[call + 3:call + 13]


# --- 4: Open_Close ------------------------------------------------------------------------

def test_open_close_takes_the_non_aggregate_count(tmp_path):
    """IMB gives a benchmark that moves no data MSGS_NONAGGR repetitions: -iter 50,16,10 -> 10."""
    run = run_core(2, "io", "Open_Close", "-iter", "50,16,10", "-time", "10", "-npmin", "2", "-iodir", str(tmp_path))
    assert run.returncode == 0, run.describe()
    assert [r["repetitions"] for r in run.results()] == [10]


# --- 6: Reduce_scatter --------------------------------------------------------------------

@pytest.mark.parametrize("compat,note,send", [
    (None, "# ( every process receives #bytes: IMB 2019+ ) ", 2),
    ("guide", "# ( #bytes split across the processes: the user guide's definition ) ", 1),
])
def test_reduce_scatter_definition(compat, note, send):
    """IMB 2019+: every rank receives X bytes of an np*X vector (send buffer np*X at 2 ranks); the guide
    splits X (send buffer X). The out-of-mem row's need shows the buffers: send + X per process."""
    extra = ("-imb_compat", compat) if compat else ()
    x = 2**20
    run = run_core(2, "mpi1", "Reduce_scatter", "-msgsize", f"64,{x}", "-mem", "0.0001", "-iter", "20", "-check",
                   *extra)
    assert run.returncode == 3, run.describe()
    assert note in run.stdout.splitlines()
    ok, oom = run.results()
    assert ok["status"] == "ok" and ok["defects"] == 0
    assert oom["status"] == "out_of_memory" and close(oom["needed_gb"], (send + 1) * x / 2**30)


# --- 7: the NBC overlap column ------------------------------------------------------------

@pytest.mark.parametrize("compat,key", [(None, "overlap_percent_max_denominator"), ("guide", "overlap_percent")])
def test_overlap_column(compat, key):
    """The table prints IMB's figure (divided by max(t_pure, t_CPU)) or, with -imb_compat guide, the
    guide's (min); the stream keeps both."""
    extra = ("-imb_compat", compat) if compat else ()
    run = run_core(2, "nbc", "Iallreduce", "-msglog", "0:4", *TINY, *extra)
    assert run.returncode == 0, run.describe()
    rows = rows_of(run, "Iallreduce")[2]
    results = run.results()
    assert len(rows) == len(results) == 4
    for row, rec in zip(rows, results):
        ov = rec["overlap"]
        assert ov["overlap_percent"] is not None and ov["overlap_percent_max_denominator"] is not None
        assert row.fields["overlap[%]"] == f"{ov[key]:.2f}"
    assert run.run_record["options"]["imb_compat"] == (compat or "2021")


# --- 8: EXT targets and RMA *_all bandwidth -------------------------------------------------

@pytest.mark.parametrize("compat,fits", [(None, True), ("guide", False)])
def test_ext_aggregate_targets(compat, fits):
    """IMB: every aggregate transfer targets displacement 0 (buffers of X); the guide's disjoint sections
    need n_sample * X. 20 iterations of 1 KiB: 2 KiB against 40 KiB, under -mem 10 KB."""
    extra = ("-imb_compat", compat) if compat else ()
    run = run_core(2, "ext", "Unidir_Put", "-aggregate_mode", "aggregate", "-msgsize", "1024", "-iter", "20",
                   "-iter_policy", "off", "-mem", "0.00001", "-check", *extra)
    assert run.returncode == (0 if fits else 3), run.describe()
    (rec,) = run.results()
    assert rec["status"] == ("ok" if fits else "out_of_memory")
    if fits:
        assert rec["defects"] == 0


@pytest.mark.parametrize("compat,factor", [(None, 1), ("guide", 2)])
def test_rma_all_bandwidth(compat, factor):
    """One_put_all at 3 ranks: IMB's binary prints X/t, the guide (np-1)*X/t."""
    extra = ("-imb_compat", compat) if compat else ()
    run = run_core(3, "rma", "One_put_all", "-npmin", "3", "-msgsize", "4096", *TINY, *extra)
    assert run.returncode == 0, run.describe()
    (rec,) = run.results()
    assert close(rec["mbytes_per_sec"], factor * 4096 / rec["t_max_usec"], 1e-9, 1e-9)
