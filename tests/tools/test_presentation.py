"""The tools' tables from records built in code (no MPI): what each number in them is."""

from __future__ import annotations

import json

import pytest

from click.testing import CliRunner

from mpimark.cli import cli
from mpimark.presentation import tools
from mpimark.presentation.tools import beff, startup
from mpimark.records.results import validate_record


def run_record() -> dict:
    return {"type": "run", "schema_version": 1, "tool": {"name": "mpimark-core", "version": "0.1.0"},
            "suite": "startup", "command_line": ["mpimark-core", "startup"], "start_utc": "2025-01-02T03:04:05Z",
            "mpi": {"library_version": "Open MPI v4.1.4, package: Debian OpenMPI", "standard_version": "3.1",
                    "thread_level_requested": "MPI_THREAD_SINGLE", "thread_level_provided": "MPI_THREAD_SINGLE"},
            "hosts": ["vm"], "processes": 4, "cores_online": 2, "oversubscribed": True,
            "uname": {"sysname": "Linux", "release": "6.1", "version": "#1 SMP", "machine": "x86_64"},
            "timer": {"source": "clock_gettime(CLOCK_REALTIME)", "overhead_ns": 20.0, "granularity_ns": 1.0,
                      "monotonic": False, "mpi_wtick_s": 1e-9},
            "load_average_before": [0.1, 0.2, 0.3], "options": {}, "benchmarks": []}


def end_record() -> dict:
    return {"type": "end", "status": "complete", "elapsed_s": 1.0, "results": 1, "load_average_after": [0.1, 0.2, 0.3]}


def tool_result(suite: str, benchmark: str, **fields) -> dict:
    record = {"type": "result", "benchmark": benchmark, "suite": suite, "processes": 4, "multi": None,
              "groups": 1, "group": None, "bytes": 0, "count": 0, "datatype": "none", "status": "ok",
              "repetitions": 1, "t_min_usec": 1.0, "t_max_usec": 1.0, "t_avg_usec": 1.0, "mbytes_per_sec": None,
              "msgs_per_sec": None, "defects": None, "distribution": None, "samples_ns": None}
    record.update(fields)
    return record


def startup_records(launch_ms: list[tuple[float, float]] | None, hosts=("vm",), init_only=False) -> list[dict]:
    """One launch of 4 ranks: (min, max) since launch per phase, or None without a launch time."""
    run = run_record() | {"suite": "startup", "processes": 4, "hosts": list(hosts),
                          "options": {"launch_ns": 1 if launch_ms else None, "init_only": init_only, "hello": False,
                                      "launch_source": "environment" if launch_ms else None}}
    records = [run, tool_result("startup", "MPI_Init", min_ms=296.9, avg_ms=297.5, max_ms=298.6,
                                rank_ms=[296.9, 297.99, 298.6, 297.0])]
    for (key, _), (low, high) in zip(startup.PHASES, launch_ms or []):
        records.append(tool_result("startup", "startup_since_launch", phase=key, min_ms=low,
                                   avg_ms=(low + high) / 2, max_ms=high))
    return records + [end_record()]


def test_riken_table_rows_medians_and_osu_init():
    launches = [startup.launch(startup_records(times), run_id) for run_id, times in (
        (7, [(121.2, 122.9), (419.9, 420.0), (420.0, 420.1)]),
        (8, [(100.0, 130.0), (400.0, 410.0), (410.5, 411.0)]),
        (9, [(150.0, 160.0), (500.0, 510.0), (511.0, 512.0)]))]
    text = startup.report(launches)
    lines = text.splitlines()
    assert lines[0] == ("# MPI start-up time, RIKEN style: 3 launches of 4 processes on vm; seconds since the "
                        "launcher started")
    row = next(line for line in lines if line.split()[:3] == ["1", "7", "4:1host"])
    assert row.split()[3:] == ["0.121", "0.123", "0.420", "0.420", "0.420", "0.420"]
    median = next(line for line in lines if line.strip().startswith("median"))
    assert median.split()[1:] == ["0.121", "0.130", "0.420", "0.420", "0.420", "0.420"]
    # osu_init: every rank's time truncated to whole ms, the integer average of those.
    assert lines.count("nprocs: 4, min: 296 ms, max: 298 ms, avg: 297 ms") == 3  # (296+297+298+297)//4


def test_a_launch_without_a_launch_time_and_init_only():
    text = startup.table([startup.launch(startup_records(None), 3),
                          startup.launch(startup_records([(1.0, 2.0), (3.0, 4.0)], init_only=True), 4)])
    assert "end of 1st barrier" in text  # one launch has the barrier phase, so the column stays
    assert "'-': no launch time reached rank 0" in text
    only = startup.table([startup.launch(startup_records([(1.0, 2.0), (3.0, 4.0)], init_only=True), 4)])
    assert "end of 1st barrier" not in only and "median" not in only


def beff_summary(**fields) -> dict:
    record = tool_result("b_eff", "b_eff", processes=2, bytes=1048576, record="summary", mode="official",
                         b_eff_mbytes_per_sec=5265.798, b_eff_per_process_mbytes_per_sec=2632.899,
                         b_eff_at_lmax_per_process_mbytes_per_sec=8417.0, pingpong_latency_usec=0.878,
                         pingpong_mbytes_per_sec=12378.0, lmax_bytes=1048576, mem_mb_per_process=128,
                         last_two_shortened=False,
                         summary_line="b_eff =   5265.798 MB/s = 2632.899 *   2 PEs with 128 MB/PE on Linux vm")
    record.update(fields)
    return record


def test_the_published_b_eff_table():
    run = run_record() | {"suite": "b_eff", "hosts": ["vm"]}
    text = beff.text([run, beff_summary(), end_record()])
    lines = text.splitlines()
    assert lines[0].startswith("b_eff (official run), 2 processes on vm, 128 MB/PE, Lmax = 1048576 bytes")
    assert lines[-1] == "b_eff =   5265.798 MB/s = 2632.899 *   2 PEs with 128 MB/PE on Linux vm"
    assert beff.CLOSING_LINE.match(lines[-1])
    row = next(line for line in lines if line.split()[:1] == ["2"])
    assert row.split() == ["2", "5265.798", "2632.899", "8417.000", "0.878", "12378.000", "1.000", "1", "*", "2"]
    for heading in ("b_eff/size", "per PE", "at Lmax", "latency", "bandwidth", "microsec", "MByte"):
        assert heading in text
    missing = beff.text([run, beff_summary(pingpong_latency_usec=None, mode="TEST"), end_record()])
    assert "mode TEST, not an official b_eff" in missing and " - " in missing
    with pytest.raises(beff.BeffError):
        beff.figure([run, beff_summary()])  # no pattern results: nothing to plot


def test_summary_and_export_print_the_tools_text(tmp_path):
    records = startup_records([(121.2, 122.9), (419.9, 420.0), (420.0, 420.1)])
    path = tmp_path / "startup.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    result = CliRunner().invoke(cli, ["summary", str(path)])
    assert result.exit_code == 0, result.stderr
    assert result.stdout == tools.text(records) and "TIME(MIN)" in result.stdout


@pytest.mark.parametrize("mode", ["official", "SHORT", "TEST", "SHORT&TEST"])
def test_the_schema_takes_b_effs_summary_in_every_mode(mode):
    # The summary record names b_eff's mode; `mode` of a result is also IMB-IO's aggregate mode.
    validate_record(beff_summary(mode=mode))
