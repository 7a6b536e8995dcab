"""One test (or a few) per IMB option: the option changes what it should,
in the text tables and in the JSON stream."""

from __future__ import annotations

import os
import statistics

import pytest

from . import imbtext
from .conftest import close, core_stderr_lines, error_lines, match_tables, run_core

QUICK = ("-msgsize", "0,8", "-iter", "10")


def sizes(table: imbtext.Table) -> list[int]:
    return [r.bytes for r in table.rows]


# --- process counts, groups, rank order -------------------------------------------------

@pytest.mark.parametrize("n,npmin,expected", [
    (4, 3, {"Sendrecv": [3, 4], "Allreduce": [3, 4], "Barrier": [3, 4], "PingPong": [2], "Uniband": [4]}),
    (4, 4, {"Sendrecv": [4], "Allreduce": [4], "Barrier": [4], "PingPong": [2], "Uniband": [4]}),
    (2, 1, {"Sendrecv": [1, 2], "Allreduce": [1, 2], "Barrier": [1, 2], "PingPong": [2], "Uniband": [2]}),
])
def test_npmin(n, npmin, expected):
    run = run_core(n, "mpi1", *expected, "-npmin", str(npmin), *QUICK)
    assert run.returncode == 0, run.describe()
    rep = run.report
    assert [t.key for t in rep.tables] == [(b, p) for b in expected for p in expected[b]]
    assert all(imbtext.process_counts(b, n, npmin) == expected[b] for b in expected)
    for t in rep.tables:
        assert t.idle == n - t.processes
    assert run.run_record["options"]["npmin"] == npmin
    assert match_tables(rep, run.results()) == []


MULTI_BENCH = ("PingPong", "Sendrecv", "Allreduce", "Uniband", "Barrier")


@pytest.fixture(scope="module")
def multi_runs():
    return {m: run_core(4, "mpi1", *MULTI_BENCH, "-multi", str(m), *QUICK) for m in (0, 1)}


@pytest.mark.parametrize("multi", [0, 1])
def test_multi_groups_and_names(multi_runs, multi):
    run = multi_runs[multi]
    assert run.returncode == 0, run.describe()
    rep = run.report
    assert [t.key for t in rep.tables] == [(b, p) for b in MULTI_BENCH for p in imbtext.process_counts(b, 4)]
    for t in rep.tables:
        assert t.columns == imbtext.expected_columns(t.name, multi=multi), t.name
        assert t.dash_len == 13 * len(t.columns)
        if t.processes == 2:  # two pairs run at once
            assert t.multi_prefix and t.groups == [[0, 1], [2, 3]] and t.idle == 0, t.name
        else:                 # one group of 4: plain IMB title and process line
            assert not t.multi_prefix and t.groups is None and t.idle == 0, t.name
    lines = run.stdout.splitlines()
    i = lines.index("# Benchmarking Multi-PingPong ")
    assert lines[i:i + 6] == [
        "# Benchmarking Multi-PingPong ",
        "# ( 2 groups of 2 processes each running simultaneous ) ",
        "# Group  0:     0    1",
        "# ",
        "# Group  1:     2    3",
        "# ",
    ]
    assert lines[i + 6] == lines[i - 1]  # the second dash line follows the listing


def test_multi0_one_row_per_size(multi_runs):
    run = multi_runs[0]
    for t in run.report.tables:
        expected = [0] if t.name == "Barrier" else [0, 8]
        assert [r.bytes or 0 for r in t.rows] == expected and t.blocks == [t.rows]
    results = run.results()
    assert match_tables(run.report, results) == []
    for rec in results:
        assert rec["multi"] == 0 and rec["group"] is None
        assert rec["groups"] == (2 if rec["processes"] == 2 else 1)
    assert run.run_record["options"]["multi"] == 0


def test_multi1_one_row_per_group(multi_runs):
    run = multi_runs[1]
    for t in run.report.tables:
        n_groups = len(t.groups) if t.groups else 1
        expected = [0] if t.name == "Barrier" else [0, 8]
        assert len(t.blocks) == len(expected), t.name   # a blank line before each size
        for block, size in zip(t.blocks, expected):
            assert [r.group for r in block] == list(range(n_groups)), t.name
            assert {r.bytes or 0 for r in block} == {size}, t.name
    results = run.results()
    assert match_tables(run.report, results) == []
    for rec in results:
        groups = 2 if rec["processes"] == 2 else 1
        assert rec["multi"] == 1 and rec["groups"] == groups and 0 <= rec["group"] < groups


def test_multi_with_one_group_is_not_multi():
    """At 3 ranks a pair leaves one rank idle: one group, so IMB's plain title."""
    run = run_core(3, "mpi1", "PingPong", "-multi", "0", *QUICK)
    t = run.report.table("PingPong", 2)
    assert (t.multi_prefix, t.groups, t.idle) == (False, None, 1)
    assert t.columns == imbtext.COLS_TIME_RANGE_AND_BW  # -multi 0 still selects the range columns


def test_map_2x2_rank_order():
    run = run_core(4, "mpi1", "PingPong", "Sendrecv", "-map", "2x2", *QUICK)
    assert run.returncode == 0, run.describe()
    lines = run.stdout.splitlines()
    i = lines.index("# Benchmarking PingPong ")
    assert lines[i + 1: i + 5] == [
        "# #processes = 2; rank order (rowwise): ",
        "#     0    2",
        "# ",
        "# ( 2 additional processes waiting in MPI_Barrier)",
    ]
    rep = run.report
    assert rep.table("Sendrecv", 2).grid == [[0, 2]]
    assert rep.table("Sendrecv", 4).grid == [[0, 2], [1, 3]]  # IMB's transposed 2x2 grid
    assert rep.table("Sendrecv", 4).idle == 0
    assert run.run_record["options"]["map"] == "2x2"
    assert match_tables(rep, run.results()) == []


def test_map_2x2_with_multi_forms_groups_by_rank_order():
    run = run_core(4, "mpi1", "Sendrecv", "-map", "2x2", "-multi", "0", *QUICK)
    assert run.report.table("Sendrecv", 2).groups == [[0, 2], [1, 3]]


# --- iterations and time ---------------------------------------------------------------

def test_iter_with_policy_off_is_exact():
    run = run_core(3, "mpi1", "-include", ",".join(imbtext.NON_DEFAULT), "-msglog", "0:2",
                   "-iter", "7", "-iter_policy", "off")
    assert run.returncode == 0, run.describe()
    reps = {r.as_int("#repetitions") for t in run.report.tables for r in t.rows}
    assert reps == {7}
    assert {r["repetitions"] for r in run.results()} == {7}
    opts = run.run_record["options"]
    assert (opts["msgspersample"], opts["iter_policy"]) == (7, "off")


def test_iter_policy_multiple_np():
    names = ("PingPong", "Sendrecv", "Allreduce", "Bcast", "Gather", "Uniband")
    run = run_core(3, "mpi1", *names, "-msglog", "0:4", "-iter", "50", "-iter_policy", "multiple_np")
    assert run.returncode == 0, run.describe()
    assert run.run_record["options"]["iter_policy"] == "multiple_np"
    for rec in run.results():
        np_, size = rec["processes"], rec["bytes"]
        # IMB: tmp = (int)(50 * 2^16 / (np * max(size, 4) + 2^16) + 0.5); n = max(tmp - tmp % np, np)
        tmp = int(50 * 16 / (np_ * max(size, 4) + 16) + 0.5)
        assert rec["repetitions"] == max(tmp - tmp % np_, np_), (rec["benchmark"], np_, size)
        assert rec["repetitions"] % np_ == 0
    assert match_tables(run.report, run.results()) == []


def test_time_limit_gives_time_out_rows():
    """Uniband moves 256 messages per iteration: from 256 KiB on one size takes longer than
    IMB's whole limit of (22 - 18 - 1) * 1 ms. As IMB, the first size over it gets the one
    time-out row and ends the benchmark (issue 16 item 1)."""
    run = run_core(2, "mpi1", "Uniband", "-msglog", "18:22", "-time", "0.001", "-iter", "10")
    assert run.returncode == 0, run.describe()
    rows = run.report.table("Uniband", 2).rows
    sizes = [0, 2**18, 2**19, 2**20, 2**21, 2**22]
    assert [r.bytes for r in rows] == sizes[:len(rows)]
    statuses = [r.status for r in rows]
    assert statuses[0] == "ok" and statuses[-1] == "time-out"
    assert statuses.count("time-out") == 1  # nothing after it
    assert "Time limit" in rows[-1].message
    results = run.results()
    assert [r["status"] for r in results] == ["ok" if s == "ok" else "timeout" for s in statuses]
    assert all(r["distribution"] is None and r["repetitions"] is None
               for r in results if r["status"] == "timeout")
    assert len(run.events("timeout")) == 1
    assert run.end_record["status"] == "incomplete"
    assert match_tables(run.report, results) == []


def test_mem_limit_gives_out_of_memory_rows():
    """PingPong needs 2 * X bytes per process; -mem 1e-6 GB (1074 bytes) fits X <= 512. As IMB,
    1024 gets the one out-of-mem row and ends the benchmark."""
    run = run_core(2, "mpi1", "PingPong", "-msglog", "0:12", "-iter", "20", "-mem", "0.000001")
    assert run.returncode == 3, run.describe()
    rows = run.report.table("PingPong", 2).rows
    oom = [r.bytes for r in rows if r.status == "out-of-mem"]
    assert oom == [1024]
    assert rows[-1].bytes == 1024
    assert all(r.status == "ok" for r in rows if r.bytes <= 512)
    results = {r["bytes"]: r for r in run.results()}
    for size in oom:
        rec = results[size]
        assert rec["status"] == "out_of_memory" and rec["distribution"] is None
        assert close(rec["needed_gb"], 2 * size / 2**30)
        row = next(r for r in rows if r.bytes == size)
        assert row.message.startswith(f" needed X={rec['needed_gb']:8.3f} GB")
    assert run.end_record["status"] == "incomplete"
    lines = core_stderr_lines(run.stderr)
    assert len(error_lines(lines)) == 1, lines
    assert "-mem" in error_lines(lines)[0]
    # besides the one error line, stderr has one warning per skipped size
    assert [x for x in lines if not x.startswith("mpimark-core: error:")] == [
        x for x in lines if x.startswith("mpimark-core: warning:")]
    assert len(lines) == 1 + len(oom)


@pytest.mark.parametrize("off_cache,stride,slots", [
    (None, 4096, 1),
    ("1", 4160, 50),       # (4096/64 + 1) * 64; min(50 iterations, ceil(2 MiB / 4160))
    ("0.01,128", 4224, 5),  # (4096/128 + 1) * 128; ceil(2 * 0.01 MiB / 4224)
])
def test_off_cache_buffers(off_cache, stride, slots):
    """IMB's -off_cache layout: slots of one message rounded up to cache lines
    plus one line, as many as fill twice the cache (at most one per iteration).
    A -mem too small for anything makes the core report what a size needs."""
    extra = ("-off_cache", off_cache) if off_cache else ()
    run = run_core(2, "mpi1", "PingPong", "-msgsize", "4096", "-iter", "50", "-mem", "1e-7", *extra)
    assert run.returncode == 3, run.describe()
    (rec,) = run.results()
    assert rec["status"] == "out_of_memory"
    assert close(rec["needed_gb"], 2 * slots * stride / 2**30)
    opts = run.run_record["options"]
    assert opts["off_cache"] == bool(off_cache)
    if off_cache:
        size_mb, line = (off_cache.split(",") + ["64"])[:2]
        assert (opts["off_cache_size_mb"], opts["off_cache_line_bytes"]) == (float(size_mb), int(line))


def test_off_cache_default_size_runs():
    run = run_core(3, "mpi1", "PingPong", "Sendrecv", "Allreduce", "-off_cache", "-1", *QUICK)
    assert run.returncode == 0, run.describe()
    opts = run.run_record["options"]
    assert (opts["off_cache"], opts["off_cache_size_mb"], opts["off_cache_line_bytes"]) == (True, 8, 64)
    assert match_tables(run.report, run.results()) == []


# --- message sizes -----------------------------------------------------------------------

def test_msglen_file(tmp_path):
    path = tmp_path / "lengths.txt"
    path.write_text("0\n  3\n1k   # one KiB\n\n# a comment line\n2K\n")
    run = run_core(2, "mpi1", "PingPong", "Allreduce", "-msglen", str(path), "-iter", "10")
    assert run.returncode == 0, run.describe()
    rep = run.report
    assert (rep.user_defined_lengths, rep.min_length, rep.max_length) == (True, None, None)
    assert sizes(rep.table("PingPong", 2)) == [0, 3, 1024, 2048]
    assert sizes(rep.table("Allreduce", 2)) == [0, 4, 1024, 2048]  # rounded up to whole floats
    opts = run.run_record["options"]
    assert (opts["msglen"], opts["msgsizes"], opts["msglog"]) == (str(path), [0, 3, 1024, 2048], None)
    assert match_tables(rep, run.results()) == []


def test_msgsize_list():
    run = run_core(2, "mpi1", "PingPong", "Allreduce", "-msgsize", "64,0,5,1k", "-iter", "10")
    assert run.returncode == 0, run.describe()
    rep = run.report
    assert rep.user_defined_lengths
    assert sizes(rep.table("PingPong", 2)) == [64, 0, 5, 1024]
    assert sizes(rep.table("Allreduce", 2)) == [64, 0, 8, 1024]
    opts = run.run_record["options"]
    assert (opts["msgsizes"], opts["msglen"], opts["msglog"]) == ([64, 0, 5, 1024], None, None)


@pytest.mark.parametrize("msglog,lo,hi", [("3:5", 3, 5), ("2", 0, 2)])
def test_msglog(msglog, lo, hi):
    run = run_core(2, "mpi1", "PingPong", "Allreduce", "-msglog", msglog, "-iter", "10")
    assert run.returncode == 0, run.describe()
    rep = run.report
    assert (rep.user_defined_lengths, rep.min_length, rep.max_length) == (False, 0, 2**hi)
    assert sizes(rep.table("PingPong", 2)) == [0] + [2**k for k in range(lo, hi + 1)]
    assert sizes(rep.table("Allreduce", 2)) == imbtext.msglog_sizes(lo, hi, 4)
    assert run.run_record["options"]["msglog"] == f"{lo}:{hi}"


def test_zero_size_off():
    run = run_core(2, "mpi1", "PingPong", "Allreduce", "-msglog", "0:3", "-zero_size", "off", "-iter", "10")
    assert run.returncode == 0, run.describe()
    rep = run.report
    assert rep.min_length == 1 and rep.max_length == 8
    assert sizes(rep.table("PingPong", 2)) == [1, 2, 4, 8]
    assert sizes(rep.table("Allreduce", 2)) == [4, 8]
    assert 0 not in {r["bytes"] for r in run.results()}
    assert run.run_record["options"]["zero_size"] == "off"


def test_data_types():
    run = run_core(2, "mpi1", "PingPong", "Allreduce", "Barrier", "-msglog", "0:4", "-iter", "10",
                   "-data_type", "int", "-red_data_type", "double")
    assert run.returncode == 0, run.describe()
    lines = run.stdout.splitlines()
    assert "# MPI_Datatype                   :   MPI_INT " in lines
    assert "# MPI_Datatype for reductions    :   MPI_DOUBLE " in lines
    rep = run.report
    assert sizes(rep.table("PingPong", 2)) == [0, 4, 8, 16]
    assert sizes(rep.table("Allreduce", 2)) == [0, 8, 16]
    for rec in run.results():
        if rec["benchmark"] == "PingPong":
            assert rec["datatype"] == "MPI_INT" and rec["count"] == rec["bytes"] // 4
        elif rec["benchmark"] == "Allreduce":
            assert rec["datatype"] == "MPI_DOUBLE" and rec["count"] == rec["bytes"] // 8
    opts = run.run_record["options"]
    assert (opts["data_type"], opts["red_data_type"]) == ("int", "double")


# --- benchmark selection -----------------------------------------------------------------

def listed(run) -> list[str]:
    names = run.report.benchmarks
    tables = list(dict.fromkeys(t.name for t in run.report.tables))
    assert names == run.run_record["benchmarks"]
    assert list(dict.fromkeys(names)) == tables  # a name given twice runs twice (as IMB)
    return names


def test_include_exclude():
    run = run_core(2, "mpi1", "-include", "Biband,PingPong", "-exclude", "Reduce,Barrier,Alltoallv",
                   "-msgsize", "0", "-iter", "5")
    assert run.returncode == 0, run.describe()
    # IMB: the -include names first, then the defaults; PingPong, named twice, runs twice.
    expected = ["Biband", "PingPong"] + [b for b in imbtext.DEFAULTS if b not in ("Reduce", "Barrier", "Alltoallv")]
    assert listed(run) == expected


def test_positional_names_keep_their_order_and_ignore_case():
    run = run_core(2, "mpi1", "allreduce", "PINGPONG", "Sendrecv", "-exclude", "sendrecv",
                   "-msgsize", "0", "-iter", "5")
    assert run.returncode == 0, run.describe()
    assert listed(run) == ["Allreduce", "PingPong"]


def test_input_file(tmp_path):
    path = tmp_path / "names.txt"
    # IMB's reading: the first word of a line, '#' lines skipped, a blank line repeats the name before it;
    # -include's names run first, -exclude removes every occurrence.
    path.write_text("Sendrecv\n# a comment\nBcast and more words\n\npingpong\n\n")
    run = run_core(2, "mpi1", "-input", str(path), "-include", "Uniband", "-exclude", "Bcast",
                   "-msgsize", "0", "-iter", "5")
    assert run.returncode == 0, run.describe()
    assert listed(run) == ["Uniband", "Sendrecv", "PingPong", "PingPong"]


def test_list():
    run = run_core(3, "mpi1", "-list", json=False)
    assert run.returncode == 0, run.describe()
    lines = run.stdout.splitlines()
    assert lines[1:3] == ["List of benchmarks:", "IMB-MPI1:"]  # IMB's label and order
    entries = [x for x in lines if x.startswith("    ")]
    expected = [(b, "") for b in imbtext.DEFAULTS] + [(b, " (non-default)") for b in imbtext.NON_DEFAULT]
    assert entries == [f"    {b}{note}" for b, note in sorted(expected, key=lambda e: e[0].lower())]
    assert run.stdout.count("List of benchmarks:") == 1  # rank 0 only
    assert "Benchmarking" not in run.stdout


@pytest.mark.parametrize("args", [
    ("-help",),
    ("-help", "PingPong", "-msgsize", "0"),
    ("PingPong", "-help", "-msgsize", "0"),
    ("PingPong", "-msgsize", "0", "-help"),
    ("-msglog", "0:abc", "-bogus", "-help"),   # wins over bad input
    ("-h",),
], ids=["alone", "first", "middle", "last", "with-bad-input", "short"])
def test_help_anywhere(tmp_path, args):
    out = tmp_path / "never.jsonl"
    run = run_core(3, "mpi1", *args, "-json", str(out), json=False)
    assert run.returncode == 0, run.describe()
    assert run.stdout.startswith("usage: mpimark-core SUITE")
    assert run.stdout.count("usage:") == 1
    assert "-msglog" in run.stdout and "-help" in run.stdout
    assert "Benchmarking" not in run.stdout and core_stderr_lines(run.stderr) == []
    assert not out.exists()  # nothing ran


def test_help_without_suite_prints_usage_once():
    run = run_core(3, "-help", json=False)
    assert run.returncode == 0
    assert run.stdout.count("usage:") == 1


def test_help_after_a_missing_suite():
    run = run_core(2, "PingPong", "-help", json=False)
    assert run.returncode == 0
    assert run.stdout.startswith("usage:")


# --- run-time switches -------------------------------------------------------------------

def test_thread_level_multiple():
    run = run_core(2, "mpi1", "PingPong", "-msgsize", "0", "-iter", "5", "-thread_level", "multiple")
    assert run.returncode == 0, run.describe()
    mpi = run.run_record["mpi"]
    assert mpi["thread_level_requested"] == "MPI_THREAD_MULTIPLE"
    assert mpi["thread_level_provided"] == "MPI_THREAD_MULTIPLE"
    assert run.report.header["MPI Thread Environment"] == "MPI_THREAD_MULTIPLE"
    assert run.run_record["options"]["thread_level"] == "multiple"


def _balance(run) -> float:
    """Median over rooted collectives and sizes of t_min / t_max."""
    return statistics.median(r["t_min_usec"] / r["t_max_usec"] for r in run.results())


def test_root_shift_rotates_the_root():
    """With a fixed root one rank (the root, or the receivers) always waits, so
    t_min << t_max; rotating the root every iteration evens the per-rank means."""
    if (os.cpu_count() or 1) < 2:
        pytest.skip("needs a core per rank")
    rooted = ("Reduce", "Gather", "Gatherv", "Scatter", "Scatterv", "Bcast")
    common = ("mpi1", *rooted, "-msgsize", "4,64", "-iter", "1000")
    fixed = run_core(2, *common, "-root_shift", "off")
    shifted = run_core(2, *common, "-root_shift", "on")
    assert fixed.returncode == shifted.returncode == 0
    assert shifted.run_record["options"]["root_shift"] == "on"
    assert _balance(shifted) > _balance(fixed) + 0.2, (_balance(fixed), _balance(shifted))


def test_sync_off_drops_the_barrier_after_each_call():
    """With -sync on every collective call is followed by an (untimed) barrier,
    so calls are timed one by one (batch 1); -sync off times them back to back,
    in batches of >= 10 us. Reduce_local's batch is the robust witness: it
    takes nanoseconds whatever the load (no waiting on other ranks)."""
    common = ("mpi1", "Reduce_local", "Allreduce", "-msgsize", "0,4", "-iter", "1000")
    on = run_core(2, *common, "-sync", "on")
    off = run_core(2, *common, "-sync", "off")
    assert on.returncode == off.returncode == 0
    assert {r["distribution"]["batch_size"] for r in on.results()} == {1}
    assert {r["sync"] for r in on.results()} == {"on"}
    assert all(r["distribution"]["batch_size"] > 1 for r in off.results("Reduce_local"))
    assert off.run_record["options"]["sync"] == "off"


def test_sync_on_leaves_barrier_back_to_back():
    """IMB times Barrier and Ibarrier as one loop of calls whatever -sync says
    (IMB_barrier.c, IMB_ibarrier): an untimed barrier between them would time
    each rank's exit skew. Without calibration and warm-up the batches are
    n/50 whatever the load, so batch 20 of 1000 shows the calls run back to
    back; batch 1 would mean a barrier after every call."""
    common = ("-iter", "1000", "-iter_policy", "off", "-warm_up", "off", "-sync", "on")
    mpi1 = run_core(2, "mpi1", "Barrier", "Allreduce", "-msgsize", "4", *common)
    nbc = run_core(2, "nbc", "Ibarrier", *common)
    assert mpi1.returncode == nbc.returncode == 0, (mpi1.describe(), nbc.describe())
    for run in (mpi1, nbc):
        barrier = [r for r in run.results() if r["benchmark"] in ("Barrier", "Ibarrier")]
        assert barrier and all(r["sync"] == "off" for r in barrier)
    assert [r["distribution"]["batch_size"] for r in mpi1.results("Barrier")] == [20]
    assert [r["distribution"]["batch_size"] for r in mpi1.results("Allreduce")] == [1]


def test_imb_barrier():
    run = run_core(3, "mpi1", "Sendrecv", "Allreduce", "Bcast", "Barrier", "-imb_barrier", "on",
                   "-check", *QUICK)
    assert run.returncode == 0, run.describe()
    assert run.run_record["options"]["imb_barrier"] == "on"
    assert all(r["defects"] in (0, None) for r in run.results())
    assert match_tables(run.report, run.results()) == []


def test_warm_up_off():
    """With -iter_policy off nothing calibrates; the warm-up is then the only
    timing seen before the measurement, and the core sizes its batches from
    it (>= 10 us each). Without warm-up the batches fall back to n/50."""
    common = ("mpi1", "PingPong", "-msgsize", "262144", "-iter", "1000", "-iter_policy", "off")
    on = run_core(2, *common, "-warm_up", "on")
    off = run_core(2, *common, "-warm_up", "off")
    assert on.returncode == off.returncode == 0
    (r_on,), (r_off,) = on.results(), off.results()
    assert r_off["distribution"]["batch_size"] == 1000 // 50
    assert r_on["distribution"]["batch_size"] < 1000 // 50
    assert (on.run_record["options"]["warm_up"], off.run_record["options"]["warm_up"]) == ("on", "off")


def test_buffer_align_is_recorded_and_the_data_still_arrives():
    common = ("mpi1", "Allreduce", "Sendrecv", "-msglog", "10:12", "-iter", "20", "-check")
    aligned = run_core(2, *common, "-buffer_align", "4096")
    default = run_core(2, *common)
    assert aligned.returncode == default.returncode == 0, aligned.stderr + default.stderr
    assert aligned.run_record["options"]["buffer_align"] == 4096
    assert default.run_record["options"]["buffer_align"] == 0
    for run in (aligned, default):
        assert run.results() and all(r["defects"] == 0 for r in run.results())
    refused = run_core(2, "mpi1", "Allreduce", "-buffer_align", "100")
    assert refused.returncode == 2 and "power of two" in refused.stderr


def test_window_size():
    common = ("mpi1", "Uniband", "-msgsize", "1024", "-iter", "50")
    small = run_core(2, *common, "-window_size", "4")
    default = run_core(2, *common)
    assert small.returncode == default.returncode == 0
    assert small.run_record["options"]["window_size"] == 4
    assert default.run_record["options"]["window_size"] == 256
    for run, window in ((small, 4), (default, 256)):
        (rec,) = run.results()
        assert close(rec["msgs_per_sec"], 1e6 * window * 1 / rec["t_max_usec"])
    # One iteration sends the window: 256 messages take far longer than 4.
    # The fastest iteration is compared, which other jobs' load hardly moves.
    fastest = [run.results()[0]["distribution"]["min_usec"] for run in (small, default)]
    assert fastest[1] > 4 * fastest[0], fastest
    assert match_tables(small.report, small.results()) == []


def test_msg_pause():
    """At least 0.1 s of pause after every size; one iteration per size keeps
    the measuring itself far below that, so the plain run shows the difference."""
    common = ("mpi1", "PingPong", "Allreduce", "-msgsize", "0,1,2", "-iter", "1", "-iter_policy", "off",
              "-warm_up", "off")
    paused = run_core(2, *common, "-msg_pause", "on")
    plain = run_core(2, *common)
    assert paused.returncode == plain.returncode == 0
    n_sizes = len(paused.results())
    assert n_sizes == 6  # PingPong 0,1,2; Allreduce 0,4,4 (IMB keeps the duplicate)
    assert paused.end_record["elapsed_s"] >= 0.1 * n_sizes
    assert plain.end_record["elapsed_s"] < 0.1 * n_sizes
    assert paused.run_record["options"]["msg_pause"] == "on"


def test_json_to_unwritable_path(tmp_path):
    target = tmp_path / "no-such-dir" / "out.jsonl"
    run = run_core(2, "mpi1", "PingPong", "-msgsize", "0", "-json", str(target), json=False)
    assert run.returncode == 2
    lines = core_stderr_lines(run.stderr)
    assert len(lines) == 1 and lines[0].startswith("mpimark-core: error:") and str(target) in lines[0]
    assert "Benchmarking" not in run.stdout and not target.exists()
