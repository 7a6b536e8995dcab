"""Issue 22: compare's analysis time for two runs of the size of a 16-rank full MPI-1 launch.

    .venv/bin/python benchmarks/compare_time.py [--rows 315] [--samples 1000] [--launches 1]

Stores two sides of `--launches` runs each (rows x samples, the shape of the core's records) in a
temporary database, then times (a) compare_launches on the records in memory: the analysis alone, and
(b) `mpimark compare A B` as a user runs it (reading the runs from the store, the table, the process).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "unit"))
from records import end_record, result_record, run_record  # noqa: E402

from mpimark.analysis.launches import compare_launches  # noqa: E402
from mpimark.storage.store import Store  # noqa: E402

BENCHMARKS = ("PingPong", "PingPing", "Sendrecv", "Exchange", "Allreduce", "Reduce", "Reduce_scatter",
              "Allgather", "Allgatherv", "Gather", "Gatherv", "Scatter", "Scatterv", "Alltoall", "Alltoallv", "Bcast")


def run(rng: numpy.random.Generator, rows: int, samples: int, factor: float) -> list[dict]:
    out = [run_record()]
    level = rng.normal(0, 0.02)
    for i in range(rows):
        size = 1 << (i % 17)
        centre = (1.0 + size / 1000) * factor * 1000 * numpy.exp(level)
        values = centre * numpy.exp(rng.normal(0, 0.05, samples))
        out.append(result_record(benchmark=BENCHMARKS[i // 17 % len(BENCHMARKS)], bytes=size, count=size,
                                 processes=16 if i // 17 >= 4 else 2, samples_ns=[float(v) for v in values]))
    return [*out, end_record()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=315)
    parser.add_argument("--samples", type=int, default=1000)
    parser.add_argument("--launches", type=int, default=1)
    options = parser.parse_args()
    rng = numpy.random.default_rng(1)
    sides = [[run(rng, options.rows, options.samples, factor) for _ in range(options.launches)]
             for factor in (1.0, 1.05)]
    times = []
    for _ in range(5):
        started = time.perf_counter()
        compared = compare_launches(sides[0], sides[1])
        times.append(time.perf_counter() - started)
    print(f"analysis alone (compare_launches, records in memory): median of 5 {sorted(times)[2]:.3f} s, "
          f"{len(compared.rows)} rows, {options.launches} launch(es) a side, {options.samples} samples a row")
    with tempfile.TemporaryDirectory() as directory:
        db = Path(directory) / "results.db"
        ids = [[], []]
        with Store(db) as store:
            for side, runs in enumerate(sides):
                for records in runs:
                    run_id = store.begin_run(launch_command=["mpiexec"], environment={}, mpi_name="openmpi",
                                             mpi_prefix="/usr", requested_processes=16, suite="mpi1")
                    for record in records:
                        store.add_record(run_id, record)
                    store.finish_run(run_id, "complete", None)
                    ids[side].append(run_id)
        selector = [f"{s[0]}-{s[-1]}" for s in ids]  # a range: never a measurement's other runs
        walls = []
        for _ in range(3):
            started = time.perf_counter()
            subprocess.run([sys.executable, "-m", "mpimark.cli", "compare", *selector, "--db", str(db)],
                           check=True, capture_output=True)
            walls.append(time.perf_counter() - started)
        print(f"mpimark compare {' '.join(selector)} (the whole command: start, store, analysis, table): "
              f"median of 3 {sorted(walls)[1]:.2f} s")


if __name__ == "__main__":
    main()
