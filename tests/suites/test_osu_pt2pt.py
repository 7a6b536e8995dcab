"""The OSU suite's point-to-point programs beyond latency (bw, bibw, mbw_mr, multi_lat, latency_mt,
latency_mp) run by the real core under Open MPI and MPICH: OSU 7.4's text layout against real OSU
captures (tests/unit/data/osu), the records' figures against their own samples and the text, -c finding
an element that one MPI call failed to move (faults.c) while a clean run passes, and the refusals.

mbw_mr and multi_lat run at 4 ranks, the others at their 2. MPICH busy-polls, so its 4-rank runs (and
latency_mt's three busy threads per process) get a tiny plan."""

from __future__ import annotations

import statistics
import time
from pathlib import Path

import pytest

from integration.corerun import close, same_printed

from . import osutext
from .conftest import get_mpi, preload_probe, run_with

CAPTURES = Path(__file__).resolve().parents[1] / "unit" / "data" / "osu"
MPIS = ("openmpi", "mpich")
# program -> processes
PROGRAMS = {"bw": 2, "bibw": 2, "mbw_mr": 4, "multi_lat": 4, "latency_mt": 2, "latency_mp": 2}
PLAN = ("-m", "1:64", "-i", "20", "-x", "2", "-selfcheck", "off")
SIZES = [1, 2, 4, 8, 16, 32, 64]
TINY = ("-m", "1:8", "-i", "5", "-x", "1", "-selfcheck", "off")
BANDWIDTH = {"bw": 1, "bibw": 2}   # OSU's factor on the bytes of a window
ROUNDED = 0.5   # ns: the stream writes the samples rounded


def plan(mpi_name: str, name: str) -> tuple[str, ...]:
    busy = mpi_name == "mpich" and (PROGRAMS[name] > 2 or name == "latency_mt")
    return TINY if busy else PLAN


def capture(name: str) -> str:
    """A real OSU 7.4 output, without what the launcher printed after it (latency_mt's capture ends
    with mpirun's complaint about OSU's missing MPI_Finalize)."""
    text = (CAPTURES / f"{name}.txt").read_text()
    return text.split("\n---", 1)[0].rstrip("\n") + "\n"


_runs: dict = {}


def core(mpi_name: str, name: str):
    key = (mpi_name, name)
    if key not in _runs:
        mpi = get_mpi(mpi_name)
        _runs[key] = run_with(mpi, PROGRAMS[name], "osu", name, *plan(mpi_name, name), timeout=180)
    return _runs[key]


@pytest.mark.parametrize("mpi_name", MPIS)
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_text_is_osus_layout_and_records_carry_the_samples(mpi_name, name):
    run = core(mpi_name, name)
    assert run.returncode == 0, run.describe()
    osutext.assert_same_layout(run.stdout, capture(name))
    sizes = [int(s) for s in plan(mpi_name, name)[1].split(":")]
    results = run.results(f"osu_{name}")
    assert [r["bytes"] for r in results] == [s for s in SIZES if sizes[0] <= s <= sizes[1]], run.describe()
    iterations = int(plan(mpi_name, name)[3])
    printed = osutext.rows(run.stdout)
    assert len(printed) == len(results)
    for rec, row in zip(results, printed):
        samples = rec["samples_ns"]
        assert rec["processes"] == PROGRAMS[name] and rec["repetitions"] == iterations == len(samples)
        assert all(s > 0 for s in samples), rec
        assert int(row[0]) == rec["bytes"]
        mean_ns = statistics.fmean(samples)
        if name in BANDWIDTH or name == "mbw_mr":
            # The samples are the windows' times: OSU's MB/s is all the bytes over all the time.
            window, pairs = 64, PROGRAMS[name] // 2 if name == "mbw_mr" else 1
            factor = BANDWIDTH.get(name, 1)
            mbps = rec["bytes"] * window * factor * pairs / 1e6 / (mean_ns * 1e-9)
            assert rec["mbytes_per_sec"] > 0 and close(rec["mbytes_per_sec"], mbps, rel=ROUNDED / mean_ns), rec
            assert same_printed(rec["mbytes_per_sec"], row[1], 2), (row, rec)
            if name == "mbw_mr":
                assert rec["pairs"] == pairs and rec["window_size"] == window
                assert close(rec["msgs_per_sec"], rec["mbytes_per_sec"] * 1e6 / rec["bytes"], rel=1e-9), rec
                assert same_printed(rec["msgs_per_sec"], row[2], 2), (row, rec)
            else:
                assert rec["msgs_per_sec"] is None, rec  # not a column of bw/bibw
        else:
            # One-way times: their mean is OSU's average latency.
            assert close(rec["t_avg_usec"], mean_ns / 1e3, rel=ROUNDED / mean_ns), rec
            assert same_printed(rec["t_avg_usec"], row[1], 2), (row, rec)


@pytest.mark.parametrize("name,options,capture_name", [
    ("bw", ("-z",), "bw_z"),
    ("bibw", ("-c", "-z", "-b", "multiple"), "bibw_c_z_b_multiple"),
    ("mbw_mr", ("-c", "-z"), "mbw_mr_c_z"),
])
def test_validation_and_tail_columns_are_osus(name, options, capture_name):
    """-c's Validation column and -z's tail bandwidths, as OSU prints them; a tail bandwidth is a
    percentile of the iterations' own MB/s, so the median lies within the iterations' range."""
    mpi = get_mpi("openmpi")
    run = run_with(mpi, 2, "osu", name, *options, "-m", "1:8", "-i", "20", "-x", "2", "-selfcheck", "off")
    assert run.returncode == 0, run.describe()
    osutext.assert_same_layout(run.stdout, capture(capture_name))
    for rec in run.results(f"osu_{name}"):
        window_mb = rec["bytes"] * 64 * BANDWIDTH.get(name, 1) / 1e6
        per_iteration = sorted(window_mb / (s * 1e-9) for s in rec["samples_ns"])
        if name != "mbw_mr":  # mbw_mr's samples are the senders' mean, its tails rank 0's own (OSU's)
            tolerance = ROUNDED / min(rec["samples_ns"])
            assert rec["p50_tail_bw_mb_s"] == pytest.approx(per_iteration[20 * 50 // 100 - 1], rel=tolerance)
            assert rec["p99_tail_bw_mb_s"] == pytest.approx(per_iteration[20 * 99 // 100 - 1], rel=tolerance)
        assert rec["p50_tail_bw_mb_s"] <= rec["p90_tail_bw_mb_s"] <= rec["p99_tail_bw_mb_s"]
        if "-c" in options:
            assert rec["validation"] == "Pass" and rec["defects"] == 0


def test_mbw_mr_vary_window_is_osus_matrix():
    """-V: OSU's window x size matrix of MB/s and its Message Rate Profile (capture mbw_mr_V.txt); a
    record per size and window, whose samples are that window's times."""
    run = run_with(get_mpi("openmpi"), 2, "osu", "mbw_mr", "-V", "-m", "1:8", "-i", "10", "-x", "1",
                   "-selfcheck", "off")
    assert run.returncode == 0, run.describe()
    # OSU's lines as in the capture; its rows printf'd as OSU does ("%-7d" then "  %10.2f" each), which a
    # message rate of 10^7 or more overflows in OSU's text as in ours.
    def lines(text):
        return [line for line in osutext.layout(text) if isinstance(line, str)]
    assert lines(run.stdout) == lines(capture("mbw_mr_V"))
    for line in run.stdout.splitlines():
        if line[:1].isdigit():
            size, *values = line.split()
            assert line == f"{int(size):<7d}" + "".join(f"  {float(v):10.2f}" for v in values) and len(values) == 8
    windows = [1, 2, 4, 8, 16, 32, 64, 128]
    results = run.results("osu_mbw_mr")
    assert [(r["bytes"], r["window_size"]) for r in results] == [(b, w) for b in (1, 2, 4, 8) for w in windows]
    matrix = [line.split() for line in run.stdout.split("# Message Rate Profile")[0].splitlines()
              if line[:1].isdigit()]
    for rec in results:
        mean_ns = statistics.fmean(rec["samples_ns"])
        mbps = rec["bytes"] * rec["window_size"] / 1e6 / (mean_ns * 1e-9)
        assert close(rec["mbytes_per_sec"], mbps, rel=ROUNDED / mean_ns), rec
        line = matrix[[1, 2, 4, 8].index(rec["bytes"])]
        assert same_printed(rec["mbytes_per_sec"], line[1 + windows.index(rec["window_size"])], 2), (line, rec)


def test_multi_lat_z_keeps_osus_header():
    """OSU 7.4's multi_lat prints -z's headers over rows without tail figures; ours fill them in (from
    the pairs' mean per iteration), under the same header."""
    run = run_with(get_mpi("openmpi"), 4, "osu", "multi_lat", "-z", "-m", "1:8", "-i", "20", "-x", "2",
                   "-selfcheck", "off")
    assert run.returncode == 0, run.describe()
    header = [line for line in capture("multi_lat_z").splitlines() if line.startswith("# Size")]
    assert [line for line in run.stdout.splitlines() if line.startswith("# Size")] == header
    for rec in run.results("osu_multi_lat"):
        lows = sorted(rec["samples_ns"])
        assert rec["p50_tail_lat_us"] == pytest.approx(lows[20 * 50 // 100 - 1] / 1e3, abs=ROUNDED / 1e3)


# (program, processes, options, the MPI call faults.c shortens by one element)
FAULTS = [
    ("bw", 2, (), "isend"),
    ("bibw", 2, ("-b", "multiple"), "isend"),
    ("mbw_mr", 2, (), "isend"),
    ("multi_lat", 2, (), "send"),
    ("latency_mt", 2, ("-t", "1:1"), "send"),
    ("latency_mp", 2, (), "send"),
]


@pytest.mark.parametrize("name,n,options,fault", FAULTS, ids=[f[0] for f in FAULTS])
def test_c_finds_a_message_one_element_short(name, n, options, fault):
    """-c (OSU's validation): with the data call moving one element less, the first size fails, OSU's
    Validation column says Fail, the run stops there and exits 4; the same run with a fault in a call
    the program does not make passes every size."""
    mpi, library = preload_probe("openmpi", "faults.c")
    args = ("osu", name, "-c", *options, "-m", "1:8", "-i", "5", "-x", "1", "-selfcheck", "off")
    program = ["env", f"LD_PRELOAD={library}", str(mpi.core)]
    spoiled = run_with(mpi, n, *args, env={"MPIMARK_FAULT": fault}, program=program)
    assert spoiled.returncode == 4, spoiled.describe()
    results = spoiled.results(f"osu_{name}")
    assert [r["bytes"] for r in results] == [1], spoiled.describe()   # OSU stops at the first failure
    assert results[0]["validation"] == "Fail" and results[0]["defects"] > 0
    assert "Fail" in osutext.rows(spoiled.stdout)[0]
    clean = run_with(mpi, n, *args, env={"MPIMARK_FAULT": "put"}, program=program)
    assert clean.returncode == 0, clean.describe()
    assert [(r["bytes"], r["validation"], r["defects"]) for r in clean.results(f"osu_{name}")] == [
        (s, "Pass", 0) for s in (1, 2, 4, 8)]


def test_latency_mp_forks_and_reaps_its_children():
    """OSU's children sleep 2 s; the parents wait for them after the last size, so even a run of a
    few milliseconds lasts 2 s and leaves no process behind."""
    mpi = get_mpi("openmpi")
    t0 = time.monotonic()
    run = run_with(mpi, 2, "osu", "latency_mp", "-t", "1:3", "-m", "1:1", "-i", "5", "-x", "1",
                   "-selfcheck", "off")
    assert run.returncode == 0, run.describe()
    assert time.monotonic() - t0 >= 2.0
    assert run.stdout.startswith("# Number of forked processes in sender: 1\n"
                                 "# Number of forked processes in receiver: 3\n")
    rec = run.results("osu_latency_mp")[0]
    assert rec["sender_processes"] == 1 and rec["receiver_processes"] == 3


@pytest.mark.parametrize("name,n,args,words", [
    ("latency_mt", 2, ("-c",), "sender"),              # OSU: -c needs as many sender as receiver threads
    ("latency_mt", 2, ("-c", "-t", "2:3"), "sender"),
    ("latency_mt", 2, ("-t", "128"), "-t"),           # OSU's limit: fewer than 128 threads
    ("bw", 2, ("-W", "0"), "-W"),
    ("bw", 3, (), "2 processes"),
    ("mbw_mr", 3, (), "even"),
])
def test_bad_input_is_one_line_and_exit_2(name, n, args, words):
    run = run_with(get_mpi("openmpi"), n, "osu", name, *args, "-m", "1:1", "-i", "2", "-x", "0",
                   "-selfcheck", "off")
    assert run.returncode == 2, run.describe()
    lines = run.core_stderr()
    assert len(set(lines)) == 1 and words in lines[0], run.describe()
    assert not run.results()
