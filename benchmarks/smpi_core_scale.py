"""Table of smpi_core_scale.sh's runs: per run, the process's peak RSS and wall time (/usr/bin/time -v), the
stream's bytes (run record, per result record, end record) and the simulated time outside the timed loops.

    python3 benchmarks/smpi_core_scale.py OUTDIR

Simulated time (SMPI replaces clock_gettime, so the core's own clock reads simulated seconds):
  startup_s   run record's startup_s: run-record gathering, timer self-test, clock sync, self-checks (cores that
              predate the field: '-');
  after start s  the end record's elapsed_s: from the run record to the end (what cores without startup_s tell);
  loops_s     the sum of the results' wall_s (rank 0's timed loops);
  outside_s   startup_s + end.elapsed_s - loops_s: everything else (estimates, gathers, the end's clock check).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path


def stream_figures(path: Path) -> dict:
    run_bytes = end_bytes = 0
    results: list[int] = []
    run = end = {}
    loops = 0.0
    with path.open("rb") as f:
        for line in f:
            record = json.loads(line)
            kind = record.get("type")
            if kind == "run":
                run, run_bytes = record, len(line)
            elif kind == "result":
                results.append(len(line))
                loops += record.get("wall_s") or 0.0
            elif kind == "end":
                end, end_bytes = record, len(line)
    startup = run.get("startup_s")
    elapsed = end.get("elapsed_s")
    outside = None if startup is None or elapsed is None else startup + elapsed - loops
    return {"run_bytes": run_bytes, "results": len(results),
            "result_bytes": sum(results) / len(results) if results else None,
            "result_max": max(results, default=None), "end_bytes": end_bytes,
            "startup_s": startup, "elapsed_s": elapsed, "loops_s": loops, "outside_s": outside}


def time_figures(path: Path) -> dict:
    text = path.read_text() if path.exists() else ""
    rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", text)
    wall = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): ([\d:.]+)", text)
    status = re.search(r"Exit status: (\d+)", text)
    seconds = None
    if wall:
        seconds = 0.0
        for part in wall.group(1).split(":"):
            seconds = seconds * 60 + float(part)
    return {"rss_mb": int(rss.group(1)) / 1024 if rss else None, "wall_s": seconds,
            "exit": int(status.group(1)) if status else None}


def fmt(value, spec: str) -> str:
    return "-" if value is None else format(value, spec)


def main(argv: list[str]) -> int:
    if len(argv) != 1 or not Path(argv[0]).is_dir():
        print("usage: smpi_core_scale.py OUTDIR (the folder smpi_core_scale.sh wrote)", file=sys.stderr)
        return 2
    out = Path(argv[0])
    rows = []
    for stream in out.glob("*-*.jsonl"):
        bench, n = stream.stem.rsplit("-", 1)
        rows.append((int(n), bench, stream_figures(stream), time_figures(out / f"{stream.stem}.time")))
    print("| ranks | benchmark | exit | wall s | peak RSS MB | run record B | results | B/result (max) | end B "
          "| startup s (sim) | after start s (sim) | loops s (sim) | outside loops s (sim) |")
    print("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for n, bench, s, t in sorted(rows):
        print(f"| {n} | {bench} | {fmt(t['exit'], 'd')} | {fmt(t['wall_s'], '.1f')} | {fmt(t['rss_mb'], '.0f')} "
              f"| {s['run_bytes']} | {s['results']} | {fmt(s['result_bytes'], '.0f')} ({fmt(s['result_max'], 'd')}) "
              f"| {s['end_bytes']} | {fmt(s['startup_s'], '.4f')} | {fmt(s['elapsed_s'], '.4f')} "
              f"| {fmt(s['loops_s'], '.4f')} | {fmt(s['outside_s'], '.4f')} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
