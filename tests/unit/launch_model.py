"""Synthetic launches for the calibration of compare and the gate: a launch effect (shared by every row of
a launch, as measured launch levels are), a per-row launch effect, and sample noise inside each launch.
Fixed seeds: a test that fails fails every time."""

from __future__ import annotations

import numpy

# Two benchmarks x 6 sizes, as a small 2-rank comparison has: (benchmark, bytes, time [usec]).
ROWS = [(b, size, t * (1 + size / 4096)) for b, t in (("PingPong", 0.4), ("Allreduce", 1.1))
        for size in (1, 8, 64, 512, 4096, 32768)]
ONE_BENCHMARK = [("Allreduce", size, 1.1 * (1 + size / 4096)) for size in (1, 4, 16, 64, 256, 1024, 4096, 16384)]


def launches(rng: numpy.random.Generator, count: int, factor: float = 1.0, launch_spread: float = 0.03,
             row_spread: float = 0.01, sample_spread: float = 0.05, samples: int = 20,
             rows=ROWS) -> list[list[dict]]:
    """`count` launches, each a list of result records whose samples_ns hold `samples` values; every time is
    multiplied by factor. Spreads are standard deviations of log times."""
    out = []
    for _ in range(count):
        level = rng.normal(0, launch_spread)
        records = []
        for benchmark, size, usec in rows:
            centre = numpy.log(usec * factor) + level + rng.normal(0, row_spread)
            values = numpy.exp(centre + rng.normal(0, sample_spread, samples)) * 1000
            records.append({"type": "result", "benchmark": benchmark, "suite": "mpi1", "processes": 2,
                            "multi": None, "group": None, "bytes": size, "status": "ok",
                            "benchmark_class": "single transfer" if benchmark == "PingPong" else "collective",
                            "samples_ns": [float(v) for v in values]})
        out.append(records)
    return out
