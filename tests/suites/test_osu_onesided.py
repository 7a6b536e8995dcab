"""The OSU suite's one-sided programs (put/get/acc/get_acc/fop/cas latency, put_bw, get_bw, put_bibw) run
by the real core at 2 ranks under Open MPI and MPICH: OSU 7.4's text layout against real OSU captures
(tests/unit/data/osu), the records' figures against their own samples and the text, the window creation
(-w) and synchronisation (-s) choices each program takes, -c of the atomics finding an operation that
faults.c spoiled, a synchronisation the library refuses (refuse_sync.c), and the refusals of bad input.

Every -w x -s combination of every program is the slow test (150 core runs, MPIMARK_SLOW=1); the quick
ones cover every -s and every -w once."""

from __future__ import annotations

import statistics
from pathlib import Path

import pytest

from integration.corerun import close, same_printed

from . import osutext
from .conftest import get_mpi, preload_probe, run_with

CAPTURES = Path(__file__).resolve().parents[1] / "unit" / "data" / "osu"
MPIS = ("openmpi", "mpich")
LATENCIES = ("put_latency", "get_latency", "acc_latency", "get_acc_latency", "fop_latency", "cas_latency")
BANDWIDTH = {"put_bw": 1, "get_bw": 1, "put_bibw": 2}   # OSU's factor on the bytes of a window
PROGRAMS = (*LATENCIES, *BANDWIDTH)
ONE_ELEMENT = ("fop_latency", "cas_latency")           # one row: the datatype's size, whatever -m says
WINDOWS = {"create": "MPI_Win_create", "allocate": "MPI_Win_allocate", "dynamic": "MPI_Win_create_dynamic"}
SYNCS = {"lock": "MPI_Win_lock/unlock", "flush": "MPI_Win_flush", "flush_local": "MPI_Win_flush_local",
         "lock_all": "MPI_Win_lock_all/unlock_all", "pscw": "MPI_Win_post/start/complete/wait",
         "fence": "MPI_Win_fence"}
# OSU 7.4's defaults (get_acc_latency sets none: the enums' first values) and the -s each program takes.
DEFAULTS = {name: ("allocate", "flush") for name in PROGRAMS}
DEFAULTS.update(get_acc_latency=("create", "lock"), put_bibw=("allocate", "pscw"))
TAKES_SYNC = {name: tuple(SYNCS) for name in PROGRAMS}
TAKES_SYNC["put_bibw"] = ("pscw", "fence")
PLAN = ("-m", "1:64", "-i", "20", "-x", "2", "-selfcheck", "off")
SIZES = [1, 2, 4, 8, 16, 32, 64]
ROUNDED = 0.5   # ns: the stream writes the samples rounded


def capture(name: str) -> str:
    """A real OSU 7.4 output up to its table's end (the atomics' -c summary after it is not OSU's table)."""
    text = (CAPTURES / f"{name}.txt").read_text()
    return text.split("\n---", 1)[0].rstrip("\n") + "\n"


def core(mpi_name: str, name: str, *options: str, plan=PLAN, env=None, program=None, n=2):
    return run_with(get_mpi(mpi_name), n, "osu", name, *options, *plan, timeout=180, env=env, program=program)


def check_figures(name: str, rec: dict, row: list[str], window: int = 64) -> None:
    """The record's figure is its samples' (OSU's interval cut at every iteration's end), and the text
    prints the record's figure."""
    samples = rec["samples_ns"]
    assert rec["repetitions"] == len(samples) and all(s > 0 for s in samples), rec
    assert int(row[0]) == rec["bytes"]
    mean_ns = statistics.fmean(samples)
    if name in BANDWIDTH:
        mbps = rec["bytes"] * window * BANDWIDTH[name] / 1e6 / (mean_ns * 1e-9)
        assert close(rec["mbytes_per_sec"], mbps, rel=ROUNDED / mean_ns), rec
        assert same_printed(rec["mbytes_per_sec"], row[1], 2), (row, rec)
    else:
        assert close(rec["t_avg_usec"], mean_ns / 1e3, rel=ROUNDED / mean_ns), rec
        assert same_printed(rec["t_avg_usec"], row[1], 2), (row, rec)
        assert rec["mbytes_per_sec"] is None, rec


_runs: dict = {}


@pytest.mark.parametrize("mpi_name", MPIS)
@pytest.mark.parametrize("name", PROGRAMS)
def test_text_is_osus_layout_and_records_carry_the_samples(mpi_name, name):
    key = (mpi_name, name)
    if key not in _runs:
        _runs[key] = core(mpi_name, name)
    run = _runs[key]
    assert run.returncode == 0, run.describe()
    osutext.assert_same_layout(run.stdout, capture(name))
    results = run.results(f"osu_{name}")
    assert [r["bytes"] for r in results] == ([1] if name in ONE_ELEMENT else SIZES), run.describe()
    win, sync = DEFAULTS[name]
    printed = osutext.rows(run.stdout)
    assert len(printed) == len(results)
    for rec, row in zip(results, printed):
        assert rec["processes"] == 2 and rec["repetitions"] == 20 and rec["datatype"] == "MPI_CHAR"
        assert (rec["window_creation"], rec["synchronization"]) == (WINDOWS[win], SYNCS[sync]), rec
        check_figures(name, rec, row)


def test_put_latency_create_lock_is_osus():
    run = core("openmpi", "put_latency", "-w", "create", "-s", "lock")
    assert run.returncode == 0, run.describe()
    osutext.assert_same_layout(run.stdout, capture("put_latency_create_lock"))


def combination_run(name: str, win: str, sync: str, mpi_name: str = "openmpi"):
    """One or two sizes of a program under one -w and -s: the header says them, every figure is its
    samples', and the atomics' -c passes."""
    check = ("-c",) if name in ("acc_latency", "fop_latency", "cas_latency") else ()
    run = core(mpi_name, name, "-w", win, "-s", sync, *check, plan=("-m", "4:8", "-i", "10", "-x", "1",
                                                                     "-selfcheck", "off"))
    assert run.returncode == 0, run.describe()
    lines = run.stdout.splitlines()
    assert f"# Window creation: {WINDOWS[win]}" in lines and f"# Synchronization: {SYNCS[sync]}" in lines
    results = run.results(f"osu_{name}")
    assert [r["bytes"] for r in results] == ([1] if name in ONE_ELEMENT else [4, 8]), run.describe()
    for rec, row in zip(results, osutext.rows(run.stdout)):
        assert (rec["window_creation"], rec["synchronization"]) == (WINDOWS[win], SYNCS[sync])
        check_figures(name, rec, row)
        if check:
            assert rec["defects"] == 0 and row[2] == "passed", (row, rec)


# Quick: every -s of put_latency, each with another -w, so that every -w runs twice; put_bibw's two;
# and under MPICH an active and a passive synchronisation on windows it does not default to.
QUICK = [("put_latency", list(WINDOWS)[i % 3], sync, "openmpi") for i, sync in enumerate(SYNCS)]
QUICK += [("put_bibw", "dynamic", "pscw", "openmpi"), ("put_bibw", "create", "fence", "openmpi"),
          ("put_latency", "dynamic", "fence", "mpich"), ("get_bw", "create", "lock_all", "mpich")]


@pytest.mark.parametrize("name,win,sync,mpi_name", QUICK, ids=["-".join(q) for q in QUICK])
def test_window_and_sync_choices(name, win, sync, mpi_name):
    combination_run(name, win, sync, mpi_name)


ALL = [(name, win, sync) for name in PROGRAMS for win in WINDOWS for sync in TAKES_SYNC[name]]


@pytest.mark.slow
@pytest.mark.parametrize("name,win,sync", ALL, ids=[f"{n}-{w}-{s}" for n, w, s in ALL])
def test_every_window_and_sync_of_every_program(name, win, sync):
    combination_run(name, win, sync)


@pytest.mark.parametrize("name,options,capture_name", [
    ("acc_latency", ("-c", "-z", "-m", "1:4"), "acc_latency_c_z"),
    ("put_bw", ("-z", "-m", "1:4"), "put_bw_z"),
    ("cas_latency", ("-T", "all", "-c", "-w", "dynamic", "-s", "pscw"), "cas_latency_T_all_c_dynamic_pscw"),
])
def test_validation_tail_and_datatype_blocks_are_osus(name, options, capture_name):
    """-c's lower-case Validation words, -z's tail columns (latency in us, bandwidth in MB/s per
    iteration), and -T's blocks: the atomics repeat the whole header per datatype."""
    run = core("openmpi", name, *options, plan=("-i", "20", "-x", "2", "-selfcheck", "off"))
    assert run.returncode == 0, run.describe()
    osutext.assert_same_layout(run.stdout, capture(capture_name))
    for rec in run.results(f"osu_{name}"):
        if "-z" in options:
            # OSU's tail values time each iteration from its own start, inside the slice of the interval
            # that is the iteration's sample: no longer than the samples, so a latency's P50 is at most theirs
            # and a bandwidth's at least.
            unit = "bw_mb_s" if name in BANDWIDTH else "lat_us"
            tails = [rec[f"p{p}_tail_{unit}"] for p in (50, 90, 99)]
            assert 0 < tails[0] <= tails[1] <= tails[2], rec
            if name in BANDWIDTH:
                values = sorted(rec["bytes"] * 64 / 1e6 / (s * 1e-9) for s in rec["samples_ns"])
                assert tails[0] >= values[20 * 50 // 100 - 1] * (1 - ROUNDED / min(rec["samples_ns"])), rec
            else:
                values = sorted(s / 1e3 for s in rec["samples_ns"])
                assert tails[0] <= values[20 * 50 // 100 - 1] * (1 + ROUNDED / min(rec["samples_ns"])), rec
        if "-c" in options:
            assert rec["validation"] == "passed" and rec["defects"] == 0, rec
    if "-T" in options:
        assert [(r["datatype"], r["bytes"]) for r in run.results(f"osu_{name}")] == [
            ("MPI_CHAR", 1), ("MPI_INT", 4), ("MPI_FLOAT", 4)]


# (program, -s, the call faults.c spoils: accumulates one element less, makes fetch_and_op a no-op,
# or gives compare_and_swap a compare value the target never holds)
FAULTS = [
    ("acc_latency", "flush", "accumulate"),
    ("acc_latency", "fence", "accumulate"),
    ("fop_latency", "lock", "fetch_and_op"),
    ("cas_latency", "pscw", "compare_and_swap"),
]


@pytest.mark.parametrize("name,sync,fault", FAULTS, ids=[f"{f[0]}-{f[1]}" for f in FAULTS])
def test_c_finds_a_spoiled_atomic(name, sync, fault):
    """-c of the atomics: the spoiled operation's first row says `failed` with defects; the same run
    with a fault in a call the program does not make (put) passes."""
    mpi, library = preload_probe("openmpi", "faults.c")
    program = ["env", f"LD_PRELOAD={library}", str(mpi.core)]
    plan = ("-c", "-s", sync, "-m", "4:8", "-T", "mpi_int", "-i", "5", "-x", "1", "-selfcheck", "off")
    spoiled = core("openmpi", name, plan=plan, env={"MPIMARK_FAULT": fault}, program=program)
    results = spoiled.results(f"osu_{name}")
    assert results and results[0]["defects"] > 0 and results[0]["validation"] == "failed", spoiled.describe()
    assert osutext.rows(spoiled.stdout)[0][2] == "failed"
    clean = core("openmpi", name, plan=plan, env={"MPIMARK_FAULT": "put"}, program=program)
    assert clean.returncode == 0, clean.describe()
    assert all(r["defects"] == 0 and r["validation"] == "passed" for r in clean.results(f"osu_{name}"))


@pytest.mark.parametrize("sync", ["lock_all", "fence"])
def test_a_synchronisation_the_library_refuses_is_one_line(sync):
    """MPI refusing the chosen synchronisation (refuse_sync.c): one line naming the call, no row stored,
    no crash and no hang (fence: both ranks are refused; lock_all: rank 0 only calls it)."""
    mpi, library = preload_probe("openmpi", "refuse_sync.c")
    run = core("openmpi", "put_latency", "-s", sync, env={"MPIMARK_REFUSE": sync},
               program=["env", f"LD_PRELOAD={library}", str(mpi.core)])
    assert run.returncode not in (0, 139) and run.returncode > 0, run.describe()
    lines = run.core_stderr()
    assert len(set(lines)) == 1 and f"MPI_Win_{sync}" in lines[0] and "put_latency" in lines[0], run.describe()
    assert not [r for r in run.results("osu_put_latency") if r["status"] == "ok"], run.describe()


@pytest.mark.parametrize("name,n,args,words", [
    ("put_bibw", 2, ("-s", "lock"), "-s"),            # put_bibw synchronises actively: pscw or fence
    ("put_latency", 2, ("-c",), "-c"),                # OSU validates only the atomics
    ("get_acc_latency", 2, ("-T", "mpi_int"), "-T"),  # and takes datatypes only there
    ("put_latency", 2, ("-W", "8"), "-W"),            # a window only for the bandwidths
    ("put_bw", 2, ("-W", "0"), "-W"),
    ("put_latency", 2, ("-w", "shared"), "-w"),
    ("put_latency", 3, (), "2 processes"),
])
def test_bad_input_is_one_line_and_exit_2(name, n, args, words):
    run = core("openmpi", name, *args, plan=("-m", "1:1", "-i", "2", "-x", "0", "-selfcheck", "off"), n=n)
    assert run.returncode == 2, run.describe()
    lines = run.core_stderr()
    assert len(set(lines)) == 1 and words in lines[0], run.describe()
    assert not run.results()
