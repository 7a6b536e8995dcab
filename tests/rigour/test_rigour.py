"""Measurement rigour beyond IMB (issue 12, docs/measurement.md): the clock
model recovers injected per-rank clock offsets within the accuracy it
reports; -sync window gives times in barrier mode's range and counts invalid
samples; -ci_target stops on its target and records the width; every EXT and
RMA row has at least 30 samples and a CI. Structure and generous ranges
only: this machine is shared and noisy."""

from __future__ import annotations

import math
import os

import pytest
from integration.corerun import CORE, load_env, run_core
from mpimark.records.results import validate_record

CLOCKSHIFT = CORE.parent / "libclockshift.so"


@pytest.fixture(scope="module", autouse=True)
def env():
    load_env()
    if not CORE.is_file():
        pytest.fail(f"{CORE} is missing: run 'bash scripts/setup.sh' first", pytrace=False)


def validate_all(run):
    for rec in run.records:
        validate_record(rec)


def test_injected_clock_offsets_are_recovered_within_the_reported_bound():
    assert CLOCKSHIFT.is_file(), "build/core/libclockshift.so is built by CMake"
    shifts = [0, 5_000_000, -3_000_000]  # ns, per world rank
    run = run_core(3, "mpi1", "Barrier", "-iter", "50",
                   env={"LD_PRELOAD": str(CLOCKSHIFT), "MPIMARK_CLOCKSHIFT_NS": ",".join(map(str, shifts))})
    validate_all(run)
    sync = run.run_record["clock_sync"]
    assert sync["method"] == "skampi_offset" and sync["model"] == "offset"
    ranks = sync["ranks"]
    assert [r["rank"] for r in ranks] == [0, 1, 2]
    for r in ranks[1:]:
        want = shifts[r["rank"]] - shifts[0]  # one host: the true offset is the shift
        assert r["bound_ns"] > 0 and r["rtt_min_ns"] > 0
        assert abs(r["offset_ns"] - want) <= r["bound_ns"] + 1, (r, want)
        # The check right after, model applied: what is left lies within its own bound of 0.
        assert abs(r["residual_ns"]) <= r["residual_bound_ns"] + r["bound_ns"] + 1
    check = run.end_record["clock_check"]
    assert len(check["ranks"]) == 3 and check["model_age_s"] >= 0
    assert all(math.isfinite(r["drift_ppm"]) for r in check["ranks"])


def test_drift_is_seen_at_the_end():
    # 1000 ppm: 1 us per ms; the run lasts well over 100 ms, far beyond the bounds.
    run = run_core(2, "mpi1", "Barrier", "-iter", "2000",
                   env={"LD_PRELOAD": str(CLOCKSHIFT), "MPIMARK_CLOCKSHIFT_NS": "0,0",
                        "MPIMARK_CLOCKSHIFT_PPM": "0,1000"})
    check = run.end_record["clock_check"]
    r1 = check["ranks"][1]
    if check["model_age_s"] > 0.05:
        assert 200 < r1["drift_ppm"] < 5000, check


@pytest.mark.parametrize("n", [2, 4])
def test_window_mode_times_and_invalid_counts(n):
    names = "Bcast,Allreduce,Barrier"
    common = ("-msglog", "2:3", "-iter", "200", "-npmin", str(n))
    win = run_core(n, "mpi1", names, *common, "-sync", "window")
    bar = run_core(n, "mpi1", names, *common)
    validate_all(win)
    assert win.run_record["options"]["sync"] == "window"
    assert bar.run_record["options"]["sync"] == "on"
    by_key = {(r["benchmark"], r["bytes"]): r for r in bar.results()}
    for r in win.results():
        assert r["sync"] == "window" and r["status"] == "ok"
        w = r["window"]
        attempted = r["repetitions"]
        assert w["samples_attempted"] == attempted and 0 <= w["invalid_samples"] <= attempted
        valid = attempted - w["invalid_samples"]
        assert len(w["rank_median_usec"]) == n
        if w["invalid_samples"]:
            assert any(e["kind"] == "invalid_samples" and e["benchmark"] == r["benchmark"]
                       for e in win.events())
        if valid == 0:
            assert r["distribution"] is None
            continue
        assert r["distribution"]["samples"] == valid == len(r["samples_ns"])
        b = by_key[(r["benchmark"], r["bytes"])]
        assert b["sync"] == "on"
        wmin, bm = r["distribution"]["min_usec"], b["distribution"]["median_usec"]
        assert 0 < wmin and 0 < bm
        if n > (os.cpu_count() or 1):
            # Oversubscribed, every window sample can include a scheduler
            # time slice (CI saw 3 ms against 0.09 us for a 0-byte
            # Allreduce): no comparison of magnitudes means anything here.
            continue
        # A units or start-time bug shows as orders of magnitude; noise does
        # not reach a factor 50 (plus 20 us) on the fastest of 200 samples.
        assert wmin <= 50 * bm + 20, (r["benchmark"], wmin, bm)
        assert bm <= 50 * r["distribution"]["max_usec"] + 20


def test_ci_target_stops_pingpong_and_records_the_width():
    run = run_core(2, "mpi1", "PingPong", "-msglog", "0:2", "-ci_target", "0.2", "-time", "2")
    validate_all(run)
    assert run.run_record["options"]["ci_target"] == 0.2
    for r in run.results():
        ci = r["ci_target"]
        assert ci["stop"] in ("target", "time", "max") and ci["target"] == 0.2
        d = r["distribution"]
        if ci["stop"] == "target":
            assert ci["half_width"] <= 0.2
            half = max(d["median_usec"] - d["ci_low_usec"], d["ci_high_usec"] - d["median_usec"])
            assert half <= 0.2 * d["median_usec"] * (1 + 1e-6) + 1e-3
        assert r["loops"] >= 1 and d["samples"] >= 50
    # Without the option nothing of it appears.
    plain = run_core(2, "mpi1", "PingPong", "-msglog", "0:1", "-iter", "100")
    assert all("ci_target" not in r and r["loops"] == 1 for r in plain.results())


@pytest.mark.parametrize("suite,names", [("ext", "Unidir_Put,Accumulate"), ("rma", "Unidir_put,Put_all_local,Truly_passive_put")])
def test_every_ext_rma_row_has_30_samples_and_a_ci(suite, names):
    run = run_core(2, suite, names, "-msglog", "0:2", "-iter", "20")
    validate_all(run)
    rows = run.results()
    assert rows and {r["mode"] for r in rows} >= {"aggregate", "non_aggregate"}
    for r in rows:
        d = r["distribution"]
        assert d is not None and d["samples"] >= 30, (r["benchmark"], r["mode"], r["bytes"], d)
        assert d["ci_low_usec"] is not None and d["ci_high_usec"] is not None
        assert d["ci_low_usec"] <= d["median_usec"] <= d["ci_high_usec"]
        assert r["loops"] >= 1 and r["repetitions"] == 20
