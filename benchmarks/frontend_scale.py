"""The front end on a 4,096-rank run (issue 24): import, show, show --stats, compare, report and plot.

The run is synthetic: tests/frontend/scale_stream.py scales a recorded 64-rank SimGrid SMPI stream to
4,096 ranks (results at 2, 4, ..., 4096 processes; the run record's per-rank fields for 4,096 ranks), and a
second copy with 3 % noise per result is the other side of `compare` and of a two-run report. Each
command runs --repeat times in a fresh process against a database of its own; the table gives the median
wall time and the median CPU time (user + system of the command's process: less disturbed by other jobs
on a shared machine than the wall time), with the UTC time and the load average before and after.

    . .venv/mpimark-env.sh && python3 benchmarks/frontend_scale.py [--repeat 3] [--processes 4096]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "frontend"))
import scale_stream  # noqa: E402  (a test helper: the test and this benchmark share one generator)


def load() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def timed(args: list[str], env: dict[str, str]) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds (user + system) and the exit status of one mpimark command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "mpimark.cli", *args], env=env, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 4):  # compare of one launch a side: 0; undecided: 4
        print(f"mpimark {' '.join(args)}: exit {done.returncode}: {done.stderr.strip()}", file=sys.stderr)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.returncode


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--processes", type=int, default=4096)
    parser.add_argument("--keep", type=Path, help="Keep the streams, database and outputs in this directory.")
    parser.add_argument("--listed", action="store_true",
                        help="Every rank in the run record (as MPIMARK_PER_RANK=1 asks), not the core's summary.")
    options = parser.parse_args()

    work = options.keep or Path(tempfile.mkdtemp(prefix="mpimark-frontend-scale-"))
    work.mkdir(parents=True, exist_ok=True)
    recorded = scale_stream.recorded()
    first = scale_stream.write(work / "a.jsonl", scale_stream.scaled(recorded, options.processes,
                                                                      listed=options.listed))
    second = scale_stream.write(work / "b.jsonl", scale_stream.scaled(recorded, options.processes, noise=0.03,
                                                                       seed=2, listed=options.listed))
    env = {**os.environ, "MPIMARK_DB": str(work / "results.db")}
    results = sum(1 for line in first.open() if '"type":"result"' in line)
    print(f"{options.processes} ranks ({'every rank listed' if options.listed else 'per-rank fields summarized'}):"
          f" {first.stat().st_size} bytes, {results} results per stream; "
          f"{datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC, load {load()}")

    commands = [
        ("import", ["import", str(first), "--mpi", "smpi"]),
        ("import (second copy)", ["import", str(second), "--mpi", "smpi"]),
        ("show 1", ["show", "1"]),
        ("show --stats 1", ["show", "--stats", "1"]),
        ("compare 1 2", ["compare", "1", "2"]),
        ("report 1", ["report", "-o", str(work / "one.html"), "1"]),
        ("report 1 2", ["report", "-o", str(work / "two.html"), "1", "2"]),
        ("plot 1", ["plot", "-o", str(work / "plots"), "1"]),
        ("--help (start-up alone)", ["--help"]),
    ]
    print("\n| command | wall [s], median | CPU [s], median | runs | load before → after |")
    print("|---|---:|---:|---:|---|")
    for name, args in commands:
        repeat = 1 if name.startswith("import") else options.repeat  # an import stores its run once
        before, walls, cpus = load(), [], []
        for _ in range(repeat):
            wall, cpu, _status = timed(args, env)
            walls.append(wall)
            cpus.append(cpu)
        print(f"| `mpimark {' '.join(a if not a.startswith('/') else Path(a).name for a in args)}` "
              f"| {statistics.median(walls):.2f} | {statistics.median(cpus):.2f} | {repeat} | {before} → {load()} |")
    print(f"\nfinished {datetime.now(timezone.utc):%H:%M} UTC; files in {work}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
