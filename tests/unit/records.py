"""Result-stream records built in code, so each test states the values it checks."""

from __future__ import annotations


def run_record() -> dict:
    return {
        "type": "run",
        "schema_version": 1,
        "tool": {"name": "mpimark-core", "version": "0.1.0"},
        "suite": "mpi1",
        "command_line": ["mpimark-core", "mpi1", "PingPong", "-json", "out.jsonl"],
        "start_utc": "2025-01-02T03:04:05Z",
        "mpi": {
            "library_version": "Open MPI v5.0.11",
            "standard_version": "3.1",
            "thread_level_requested": "MPI_THREAD_SINGLE",
            "thread_level_provided": "MPI_THREAD_SINGLE",
        },
        "hosts": ["node1"],
        "processes": 2,
        "cores_online": 2,
        "oversubscribed": False,
        "uname": {"sysname": "Linux", "release": "6.1", "version": "#1 SMP", "machine": "x86_64"},
        "timer": {
            "source": "clock_gettime(CLOCK_MONOTONIC)",
            "overhead_ns": 20.0,
            "granularity_ns": 1.0,
            "monotonic": True,
            "mpi_wtick_s": 1e-9,
        },
        "load_average_before": [0.1, 0.2, 0.3],
        "options": {"msglog": "0:20", "time": 1},
        "benchmarks": ["PingPong"],
    }


def result_record(**fields) -> dict:
    """A measured PingPong row; keyword arguments replace fields."""
    record = {
        "type": "result",
        "benchmark": "PingPong",
        "suite": "mpi1",
        "processes": 2,
        "multi": None,
        "groups": 1,
        "group": None,
        "bytes": 1024,
        "count": 1024,
        "datatype": "MPI_BYTE",
        "status": "ok",
        "repetitions": 1000,
        "t_min_usec": 1.5,
        "t_max_usec": 1.75,
        "t_avg_usec": 1.625,
        "mbytes_per_sec": 585.14,
        "msgs_per_sec": None,
        "defects": None,
        "distribution": {
            "samples": 100,
            "batch_size": 10,
            "median_usec": 1.6,
            "ci_low_usec": 1.55,
            "ci_high_usec": 1.68,
            "ci_level": 0.95,
            "ci_coverage": 0.9648,
            "q1_usec": 1.52,
            "q3_usec": 1.7,
            "p5_usec": 1.5,
            "p95_usec": 1.9,
            "min_usec": 1.49,
            "max_usec": 2.5,
        },
        "samples_ns": [1600, 1550, 1680],
    }
    record.update(fields)
    return record


def skipped_record(status: str = "timeout", **fields) -> dict:
    """A row the core could not measure: no times, no distribution."""
    nulls = dict.fromkeys(["repetitions", "t_min_usec", "t_max_usec", "t_avg_usec", "mbytes_per_sec"])
    return result_record(status=status, distribution=None, samples_ns=None, **nulls, **fields)


def event_record() -> dict:
    return {
        "type": "event",
        "level": "info",
        "kind": "benchmark_start",
        "message": "PingPong on 2 processes",
        "benchmark": "PingPong",
        "processes": 2,
        "sizes": 21,
    }


def end_record() -> dict:
    return {"type": "end", "status": "complete", "elapsed_s": 12.5, "results": 3, "load_average_after": [1, 1, 1]}
