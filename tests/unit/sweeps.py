"""Runs over a range of sizes and process counts, built in code for the plot and report tests."""

from __future__ import annotations

from mpimark.storage.store import Store

from .conftest import store_records
from .records import end_record, result_record, run_record

SIZES = [0] + [1 << k for k in range(0, 21, 2)]  # 0, 1, 4, ..., 1 MiB


def row(benchmark: str, processes: int, size: int, usec: float, bandwidth_factor: float | None) -> dict:
    """A measured row of `usec` with a +-5 % interval; IMB's bandwidth with the benchmark's factor."""
    distribution = {"samples": 50, "batch_size": 10, "median_usec": usec, "ci_low_usec": usec * 0.95,
                    "ci_high_usec": usec * 1.05, "ci_level": 0.95, "ci_coverage": 0.967, "q1_usec": usec * 0.97,
                    "q3_usec": usec * 1.03, "p5_usec": usec * 0.9, "p95_usec": usec * 1.1, "min_usec": usec * 0.8,
                    "max_usec": usec * 1.3}
    return result_record(
        benchmark=benchmark, processes=processes, bytes=size, count=size, repetitions=100,
        t_min_usec=usec * 0.9, t_max_usec=usec * 1.1, t_avg_usec=usec,
        mbytes_per_sec=None if bandwidth_factor is None else bandwidth_factor * size / (usec * 1.1),
        distribution=distribution, samples_ns=[usec * 1000 * f for f in (0.96, 0.98, 1.0, 1.02, 1.04)])


def sweep(library: str, speed: float, hosts: list[str] | None = None, processes: tuple[int, ...] = (2, 4)) -> list[dict]:
    """PingPong, PingPing, Sendrecv (per process count), Allreduce and Barrier; `speed` divides the times."""
    run = run_record()
    run["mpi"] = {**run["mpi"], "library_version": library}
    run["hosts"] = hosts or ["node1"]
    records = [run]
    for size in SIZES:
        latency = (1.0 + size / 5000.0) / speed
        records.append(row("PingPong", 2, size, latency, 1.0))
        records.append(row("PingPing", 2, size, latency * 1.5, 1.0))
    for n in processes:
        for size in SIZES:
            latency = (1.0 + size / 5000.0) * n / speed
            records.append(row("Sendrecv", n, size, latency, 2.0))
            if size:
                records.append(row("Allreduce", n, size, latency * 2, None))
        records.append(row("Barrier", n, 0, 0.5 * n / speed, None) | {"datatype": "none"})
    return records + [end_record()]


def store_sweeps(path, *specs: tuple[str, float, list[str] | None]) -> list[int]:
    with Store(path) as store:
        return [store_records(store, sweep(library, speed, hosts), status="complete")
                for library, speed, hosts in specs]
