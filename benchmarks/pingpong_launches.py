#!/usr/bin/env python3
"""PingPong latency and bandwidth over several launches of mpimark-core.

Runs `scripts/mpiexec.sh 2 build/core/mpimark-core mpi1 PingPong -msgsize ...`
LAUNCHES times, each with its own JSON stream, and prints per size the median
over launches of IMB's figure (t[usec], MB/s) with the min-max spread, and the
median over launches of the within-launch median with its smallest and largest
95 % CI bound. Run by hand (timing goals never belong in tests):

    . .venv/mpimark-env.sh && python3 benchmarks/pingpong_launches.py --launches 5
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def one_launch(sizes: str, extra: list[str], path: Path) -> list[dict]:
    cmd = ["bash", str(ROOT / "scripts/mpiexec.sh"), "2", str(ROOT / "build/core/mpimark-core"), "mpi1",
           "PingPong", "-msgsize", sizes, "-json", str(path), *extra]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    records = [json.loads(line) for line in path.read_text().splitlines()]
    return [r for r in records if r["type"] == "result"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--launches", type=int, default=5)
    ap.add_argument("--sizes", default="0,8,1048576,4194304")
    ap.add_argument("extra", nargs="*", help="more core options, e.g. -iter 1000,2000")
    args = ap.parse_args()
    per_size: dict[int, list[dict]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.launches):
            for r in one_launch(args.sizes, args.extra, Path(tmp) / f"l{i}.jsonl"):
                per_size.setdefault(r["bytes"], []).append(r)
    print(f"| bytes | reps | t[usec] median of {args.launches} (min-max) | MB/s median (min-max) "
          f"| within-launch median[usec], median of launches (lowest CI low - highest CI high) |")
    print("|---:|---:|---|---|---|")
    for size, rs in sorted(per_size.items()):
        t = [r["t_max_usec"] for r in rs]
        bw = [r["mbytes_per_sec"] for r in rs]
        med = [r["distribution"]["median_usec"] for r in rs]
        lo = [r["distribution"]["ci_low_usec"] for r in rs if r["distribution"]["ci_low_usec"] is not None]
        hi = [r["distribution"]["ci_high_usec"] for r in rs if r["distribution"]["ci_high_usec"] is not None]
        ci = f"{min(lo):.2f} - {max(hi):.2f}" if lo and hi else "n/a (< 6 samples)"
        print(f"| {size} | {rs[0]['repetitions']} | {statistics.median(t):.2f} ({min(t):.2f}-{max(t):.2f}) "
              f"| {statistics.median(bw):.1f} ({min(bw):.1f}-{max(bw):.1f}) "
              f"| {statistics.median(med):.2f} ({ci}) |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
