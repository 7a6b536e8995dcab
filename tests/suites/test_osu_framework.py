"""The osu suite's framework (`mpimark-core osu NAME`, suites/osu): osu_latency, osu_init and osu_hello at 2
ranks under Open MPI and MPICH, their text against real OSU 7.4 output (tests/unit/data/osu, compared by
layout: tests/suites/osutext.py), their records (valid, one per row, samples whose mean is the printed
average), and bad input (one line, exit 2, no result stored).

Runs are tiny (sizes 1..64, 50 iterations): MPICH busy-polls on the 2 shared cores.
"""

from __future__ import annotations

import statistics
from pathlib import Path

import pytest
from mpimark.records.results import validate_record

from integration.corerun import core_stderr_lines, error_lines, same_printed

from . import osutext
from .conftest import get_mpi, preload_probe, run_with

CAPTURES = Path(__file__).resolve().parents[1] / "unit" / "data" / "osu"
MPIS = ("openmpi", "mpich")
QUICK = ("-m", "1:64", "-i", "50", "-x", "5", "-selfcheck", "off")
_runs: dict[tuple, object] = {}


def osu(mpi_name: str, n: int, *args: str):
    """One core run, shared by the tests that ask for the same one."""
    key = (mpi_name, n, args)
    if key not in _runs:
        _runs[key] = run_with(get_mpi(mpi_name), n, "osu", *args, timeout=120)
    return _runs[key]


def results(run) -> list[dict]:
    return [r for r in run.records if r["type"] == "result"]


def capture(name: str) -> str:
    return (CAPTURES / name).read_text()


@pytest.mark.parametrize("mpi_name", MPIS)
@pytest.mark.parametrize("args, fixture", [
    ((), "latency.txt"),
    (("-c", "-z"), "latency_c_z.txt"),
    (("-T", "all"), "latency_T_all.txt"),
])
def test_latency_text_has_osus_layout(mpi_name, args, fixture):
    run = osu(mpi_name, 2, "latency", *QUICK, *args)
    assert run.returncode == 0, run.describe()
    osutext.assert_same_layout(run.stdout, capture(fixture))


@pytest.mark.parametrize("mpi_name", MPIS)
def test_latency_records_are_the_rows_with_their_samples(mpi_name):
    run = osu(mpi_name, 2, "latency", *QUICK, "-c", "-z")
    assert run.returncode == 0, run.describe()
    rows, records = osutext.rows(run.stdout), results(run)
    assert [int(r[0]) for r in rows] == [1, 2, 4, 8, 16, 32, 64]  # OSU 7.4 prints no 0-byte row
    assert len(records) == len(rows)
    for row, rec in zip(rows, records):
        validate_record(rec)
        assert rec["benchmark"] == "osu_latency" and rec["suite"] == "osu" and rec["processes"] == 2
        assert rec["bytes"] == int(row[0]) and rec["datatype"] == "MPI_CHAR" and rec["repetitions"] == 50
        assert same_printed(rec["t_avg_usec"], row[1], 2)
        assert rec["validation"] == row[2] == "Pass"
        assert [same_printed(rec[f"p{p}_tail_lat_us"], text, 2) for p, text in zip((50, 90, 99), row[3:])] == [True] * 3
        samples = rec["samples_ns"]
        assert len(samples) == 50  # every timed iteration's RTT/2
        assert statistics.fmean(samples) / 1000 == pytest.approx(rec["t_avg_usec"], rel=1e-6)  # the stream keeps samples to 0.1 ns
        # OSU's P50 of 50 values is the 25th smallest (50*50/100), in us.
        assert rec["p50_tail_lat_us"] == pytest.approx(sorted(samples)[24] / 1000, rel=1e-6)
    for record in run.records:  # the run, its events and its end as well
        validate_record(record)
    run_record = next(r for r in run.records if r["type"] == "run")
    assert run_record["options"]["validate"] is True and run_record["options"]["tail"] == [50, 90, 99]


@pytest.mark.parametrize("mpi_name", MPIS)
def test_latency_all_datatypes_skip_sizes_below_an_element(mpi_name):
    run = osu(mpi_name, 2, "latency", *QUICK, "-T", "all")
    assert run.returncode == 0, run.describe()
    seen = [(r["datatype"], r["bytes"], r["count"]) for r in results(run)]
    assert seen[:7] == [("MPI_CHAR", b, b) for b in (1, 2, 4, 8, 16, 32, 64)]
    assert seen[7:] == [(t, b, b // 4) for t in ("MPI_INT", "MPI_FLOAT") for b in (4, 8, 16, 32, 64)]


@pytest.mark.parametrize("mpi_name", MPIS)
def test_init_and_hello(mpi_name):
    init = osu(mpi_name, 2, "init", "-selfcheck", "off")
    assert init.returncode == 0, init.describe()
    osutext.assert_same_layout(init.stdout, capture("init.txt"))
    [rec] = results(init)
    validate_record(rec)
    line = init.stdout.splitlines()[-1]
    assert line == (f"nprocs: 2, min: {int(rec['t_min_usec'] / 1000)} ms, max: {int(rec['t_max_usec'] / 1000)} ms, "
                    f"avg: {int(rec['t_avg_usec'] / 1000)} ms")
    assert len(rec["samples_ns"]) == 2 and rec["t_min_usec"] <= rec["t_avg_usec"] <= rec["t_max_usec"]
    hello = osu(mpi_name, 2, "osu_hello", "-selfcheck", "off")
    assert hello.returncode == 0, hello.describe()
    osutext.assert_same_layout(hello.stdout, capture("hello.txt"))
    assert hello.stdout.splitlines()[-1] == "This is a test with 2 processes" and results(hello) == []


@pytest.mark.parametrize("mpi_name", MPIS)
@pytest.mark.parametrize("n, args, message", [
    (2, ("latencyy",), "'latencyy' is no OSU 7.4 program; mpimark-core osu -list lists them"),
    (2, ("latency", "-f"), "osu_latency does not take -f; mpimark-core osu latency -h lists its options"),
    (2, ("latency", "-m", "10:2"), "-m 10:2: MIN 10 is above MAX 2, so no size would run; give MIN <= MAX"),
    (2, ("bw", "-W", "0"), "-W 0: the window must be a whole number from 1 to 2147483647"),
    (2, ("latency", "-d", "cuda"), "no device buffers: this core is built without CUDA/ROCm/OpenACC support; "
                                    "leave -d out"),
    (2, ("bw_persistent",), "osu_bw_persistent is an OMB 7.4 program the core does not run (its output can be "
                            "imported: mpimark import --format osu)"),
    (1, ("latency",), "osu_latency needs exactly 2 processes, not 1; launch it with mpiexec -n 2"),
])
def test_bad_input_is_one_line_and_exit_2(mpi_name, n, args, message):
    run = osu(mpi_name, n, *args)
    assert run.returncode == 2, run.describe()
    assert error_lines(core_stderr_lines(run.stderr)) == [f"mpimark-core: error: {message}"]
    assert results(run) == []


def test_latency_c_finds_a_spoiled_send_and_stops_as_osu():
    mpi, library = preload_probe("openmpi", "faults.c")
    run = run_with(mpi, 2, "osu", "latency", *QUICK, "-c", timeout=120, env={"MPIMARK_FAULT": "send"},
                   program=["env", f"LD_PRELOAD={library}", str(mpi.core)])
    assert run.returncode == 4, run.describe()  # EXIT_CHECK_FAILED
    [rec] = results(run)  # OSU ends the test after the first size that fails
    assert rec["bytes"] == 1 and rec["validation"] == "Fail" and rec["defects"] > 0
    assert osutext.rows(run.stdout) == [["1", f"{rec['t_avg_usec']:.2f}", "Fail"]]
    # OSU's text for it: latency_c_z.txt without its -z columns, a Fail, and the line osu_allreduce ended with.
    osu_lines = [line[:46].replace("Pass", "Fail") for line in capture("latency_c_z.txt").splitlines()[:5]]
    last = next(x for x in capture("allreduce_f_c_fail.txt").splitlines() if x.startswith("DATA VALIDATION ERROR:"))
    osutext.assert_same_layout(run.stdout, "\n".join(osu_lines) + "\n" +
                               last.replace("collective/blocking/osu_allreduce", "osu_latency") + "\n")


@pytest.mark.parametrize("mpi_name", MPIS)
def test_mbw_mr_V_is_osus_window_matrix_of_records(mpi_name):
    run = osu(mpi_name, 2, "mbw_mr", "-V", "-m", "1:8", "-i", "10", "-x", "1", "-selfcheck", "off")
    assert run.returncode == 0, run.describe()
    osutext.assert_same_layout(run.stdout, capture("mbw_mr_V.txt"))
    recs = results(run)
    windows = [1, 2, 4, 8, 16, 32, 64, 128]
    assert [(r["bytes"], r["window_size"]) for r in recs] == [(b, w) for b in (1, 2, 4, 8) for w in windows]
    lines = run.stdout.splitlines()
    bandwidth = [line.split() for line in lines[lines.index("# Datatype: MPI_CHAR.") + 2:][:4]]
    for row, size in zip(bandwidth, (1, 2, 4, 8)):
        assert int(row[0]) == size
        mine = [r for r in recs if r["bytes"] == size]
        assert all(same_printed(r["mbytes_per_sec"], text, 2) for r, text in zip(mine, row[1:]))
