#!/usr/bin/env python3
"""The tables of benchmarks/rigour.sh's streams, as Markdown for benchmarks/README.md.

1. -sync window against IMB's barrier (-sync on) for Allreduce, Bcast and
   Alltoall at each process count: medians with their 95 % CI, the ratio,
   window mode's invalid samples; and the barrier's own exit skew, from
   window-mode Barrier (each rank's median end after the common start: the
   spread between ranks is how unevenly the barrier lets them go).
2. -ci_target 0.01 against IMB's default repetitions on PingPong and
   Allreduce: per size the samples, the wall time of the timed loops
   (`wall_s`) and the CI half-width reached, with the stop reason.
3. The conditions: every stream's self-check verdicts and load.

    python3 benchmarks/rigour_summary.py benchmarks/rigour-out
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def load(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def results(records: list[dict]) -> dict[tuple[str, int, int], dict]:
    """The measured rows; a window-mode row whose samples were all late has no distribution."""
    return {(r["benchmark"], r["processes"], r["bytes"]): r for r in records
            if r["type"] == "result" and r["status"] == "ok"}


def median_of(r: dict | None) -> float | None:
    return (r.get("distribution") or {}).get("median_usec") if r else None


def half_width(r: dict) -> float | None:
    """The relative half-width of the median's 95 % CI, as -ci_target measures it."""
    d = r.get("distribution")
    if not d or d["ci_low_usec"] is None or not d["median_usec"]:
        return None
    return max(d["median_usec"] - d["ci_low_usec"], d["ci_high_usec"] - d["median_usec"]) / d["median_usec"]


def pct(x: float | None) -> str:
    return "-" if x is None else f"±{100 * x:.2f} %"


def med(r: dict | None) -> str:
    d = (r or {}).get("distribution")
    if not d:
        return "-"
    if d["ci_low_usec"] is None:
        return f"{d['median_usec']:.2f}"
    return f"{d['median_usec']:.2f} [{d['ci_low_usec']:.2f}, {d['ci_high_usec']:.2f}]"


def samples(r: dict | None) -> str:
    return str(r["distribution"]["samples"]) if r and r.get("distribution") else "-"


def ms(r: dict | None) -> str:
    """The row's timed loops' wall time in ms (wall_s; older cores have none)."""
    return f"{1000 * r['wall_s']:.2f}" if r and "wall_s" in r else "-"


def sync_tables(out: Path) -> list[str]:
    lines = []
    for np_ in sorted({int(p.stem.rsplit("np", 1)[1]) for p in out.glob("sync-on-np*.jsonl")}):
        on_path, win_path = out / f"sync-on-np{np_}.jsonl", out / f"sync-window-np{np_}.jsonl"
        if not win_path.exists():
            continue
        on, win = results(load(on_path)), results(load(win_path))
        lines += [f"### {np_} ranks: -sync window against -sync on", "",
                  "| benchmark | bytes | barrier median [usec] (95 % CI) | window median [usec] (95 % CI) "
                  "| window / barrier | invalid / attempted |", "|---|---:|---:|---:|---:|---:|"]
        for key in sorted(win, key=lambda k: (k[0], k[2])):
            if key[0] == "Barrier":
                continue
            w, b = win[key], on.get(key)
            wm, bm = median_of(w), median_of(b)
            ratio = f"{wm / bm:.2f}" if wm and bm else "-"
            window = w.get("window") or {}
            lines.append(f"| {key[0]} | {key[2]} | {med(b)} | {med(w)} | {ratio} | "
                         f"{window.get('invalid_samples', '-')} / {window.get('samples_attempted', '-')} |")
        barrier = win.get(("Barrier", np_, 0))
        if barrier and barrier.get("window"):
            ends = [x for x in barrier["window"]["rank_median_usec"] if x is not None]
            b_on = on.get(("Barrier", np_, 0))
            if not ends:
                lines += ["", f"Barrier's own exit skew at {np_} ranks: no valid window sample "
                          f"({barrier['window']['invalid_samples']} invalid), the machine was too busy.", ""]
                continue
            lines += ["", f"Barrier's own exit skew at {np_} ranks (window mode, max − min of the ranks' median "
                      f"ends after the common start): {max(ends) - min(ends):.3f} usec; ranks' median ends "
                      + ", ".join(f"{x:.3f}" for x in ends) + " usec; Barrier median with -sync on: "
                      + med(b_on) + " usec."]
        lines.append("")
    return lines


def ci_table(out: Path) -> list[str]:
    default_path, ci_path = out / "imb-default.jsonl", out / "ci-target-0.01.jsonl"
    if not (default_path.exists() and ci_path.exists()):
        return []
    default_records, ci_records = load(default_path), load(ci_path)
    default, ci = results(default_records), results(ci_records)
    lines = ["### -ci_target 0.01 against IMB's default repetitions", "",
             "| benchmark | bytes | IMB: samples | IMB: wall [ms] | IMB: CI reached | -ci_target: samples (loops) "
             "| -ci_target: wall [ms] | -ci_target: CI reached | stop |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---|"]
    totals = [0.0, 0.0]
    for key in sorted(ci, key=lambda k: (k[0], k[2])):
        c, d = ci[key], default.get(key)
        target = c.get("ci_target") or {}
        totals[0] += (d or {}).get("wall_s", 0.0)
        totals[1] += c.get("wall_s", 0.0)
        lines.append(
            f"| {key[0]} | {key[2]} | {samples(d)} | {ms(d)} | {pct(half_width(d) if d else None)} | "
            f"{samples(c)} ({c.get('loops', 1)}) | {ms(c)} | {pct(target.get('half_width'))} | "
            f"{target.get('stop', '-')} |")
    elapsed = [next((r["elapsed_s"] for r in rs if r["type"] == "end"), float("nan"))
               for rs in (default_records, ci_records)]
    lines += ["", f"Timed loops in all: IMB {totals[0]:.2f} s, -ci_target {totals[1]:.2f} s; whole runs "
              f"(calibration, warm-up, clock model, self-checks): IMB {elapsed[0]:.2f} s, "
              f"-ci_target {elapsed[1]:.2f} s.", ""]
    return lines


def conditions(out: Path) -> list[str]:
    lines = ["### Conditions (each stream's self-checks)", "", "| stream | load before | loaded | oversubscribed "
             "| noisy (worst lost share, longest interruption) | timer resolution [ns] |", "|---|---|---|---|---|---:|"]
    for path in sorted(out.glob("*.jsonl")):
        run = load(path)[0]
        check = run.get("selfcheck")
        if not check:
            lines.append(f"| {path.name} | {run.get('load_average_before')} | self-checks off | | | |")
            continue
        worst = max(check["ranks"], key=lambda r: r["noise_lost_share"])
        longest = max(r["noise_max_interruption_ns"] for r in check["ranks"])
        lines.append(f"| {path.name} | {run.get('load_average_before')} | {check['loaded']} | "
                     f"{check['oversubscribed']} | {check['noisy']} ({100 * worst['noise_lost_share']:.2f} %, "
                     f"{longest / 1000:.0f} usec) | {check['timer_resolution_ns']:.0f} |")
    return lines + [""]


def main() -> int:
    if len(sys.argv) != 2 or not Path(sys.argv[1]).is_dir():
        print("usage: rigour_summary.py OUT_DIR (the directory benchmarks/rigour.sh wrote)", file=sys.stderr)
        return 2
    out = Path(sys.argv[1])
    print("\n".join(sync_tables(out) + ci_table(out) + conditions(out)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
