"""The tables of benchmarks/imb_parity.sh: per benchmark (and mode, and process count) how mpimark's
time compares with IMB's, and how IMB compares with itself (the noise floor).

    python3 benchmarks/imb_parity.py OUTDIR     # reads OUTDIR/np*/SUITE/r*-{imb,core,imb2}.txt (and .pin)

Each round launches IMB, the core, IMB again. A round's mpimark/IMB ratio is the geometric mean over
the sizes of the core's time against the geometric mean of the two IMB launches around it (so drift
between launches cancels to first order); its IMB/IMB ratio is IMB's second launch against its first.
The table gives per row the median over the rounds of each, with the median's exact 95 % interval
(binomial order statistics, as mpimark's results: at least 6 rounds) and the range, and says "within
noise" when mpimark's interval holds 1. Launch-to-launch levels on a shared machine are bimodal (one
launch 2-3x another, in either program: benchmarks/README.md), so few rounds decide little; the
intervals say how little. The pinning maps of Intel MPI's I_MPI_DEBUG=4 output (the .pin files
imb_parity.sh writes) are listed after the table, per program, with their launches.

The time compared is the table's headline time: t[usec] (single transfers), t_max[usec] (parallel and
collective tables), t_ovrl[usec] (overlap tables), t_pure[usec] (Truly_passive_put), 1/(Msg/sec) for
Uniband/Biband. Sizes with a failure row or a time of 0.00 in either output are left out.
"""

from __future__ import annotations

import math
import re
import statistics
import sys
from collections import defaultdict
from pathlib import Path

from mpimark.analysis.statistics import MedianCI, median_ci, median_ci_ranks

TIME_COLUMNS = ("t[usec]", "t_max[usec]", "t_ovrl[usec]", "t_pure[usec]")
# The fewest rounds whose median has a 95 % interval (binomial order statistics, as the core's).
MIN_ROUNDS = next(n for n in range(1, 100) if median_ci_ranks(n) is not None)


def tables(text: str, wanted: tuple[str, ...] = TIME_COLUMNS) -> dict[tuple[str, int, str], dict[int, float]]:
    """{(benchmark, processes, mode): {bytes: time}} of one IMB-format output; the time is the first of
    wanted the table has (parity_launches.py asks for one column, e.g. t_pure[usec])."""
    out: dict[tuple[str, int, str], dict[int, float]] = {}
    name, procs, mode, columns = None, 0, "", []
    for line in text.splitlines():
        if m := re.match(r"# Benchmarking (?:Multi-)?(\S+)", line):
            name, mode, columns = m.group(1), "", []
        elif m := re.match(r"# #processes = (\d+)", line):
            procs = int(m.group(1))
        elif m := re.match(r"#\s+MODE: (\S+)", line):
            mode = m.group(1).lower()
        elif "#repetitions" in line and not line.startswith("#"):
            columns = [line[i:i + 13].strip() for i in range(0, len(line), 13)]
        elif columns and name and line.strip() and not line.startswith("#"):
            cells = [line[i:i + 13].strip() for i in range(0, len(line), 13)]
            if "time-out" in line or "out-of-mem" in line or "int-overflow" in line or len(cells) < len(columns):
                continue
            row = dict(zip(columns, cells))
            size = int(row.get("#bytes", 0))
            time = next((float(row[c]) for c in wanted if c in row), None)
            if time is None and "Msg/sec" in row and wanted == TIME_COLUMNS:
                rate = float(row["Msg/sec"])
                time = 1e6 / rate if rate > 0 else 0.0
            if time and time > 0:
                out.setdefault((name, procs, mode), {})[size] = time
    return out


def geomean(values: list[float]) -> float:
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else math.nan


def ratio(num: dict[int, float], den: dict[int, float]) -> float:
    """Geometric mean over the sizes both have of num/den."""
    return geomean([num[s] / den[s] for s in num if s in den])


def against_both(times: dict[int, float], first: dict[int, float], second: dict[int, float]) -> tuple[float, float]:
    """One round's two ratios (geometric means over the sizes): times against the geometric mean of the
    reference's launches before and after it (drift between launches cancels to first order), and the
    reference's second launch against its first (its own launch-to-launch spread, the noise floor).
    benchmarks/osu_parity.py takes them too."""
    both = {s: math.sqrt(first[s] * second[s]) for s in first if s in second}
    return ratio(times, both), ratio(second, first)


def round_ratios(outdir: Path) -> dict[tuple, dict[str, list[float]]]:
    """Per (ranks, suite, benchmark, processes, mode) and round: "core", the core's launch against the
    geometric mean of the IMB launches before and after it (drift between launches cancels to first
    order), and "noise", IMB's second launch against its first."""
    found: dict[tuple, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for core_file in sorted(outdir.glob("np*/*/r*-core.txt")):
        np_ = int(core_file.parent.parent.name[2:])
        suite = core_file.parent.name
        stem = core_file.name[:-len("-core.txt")]
        imb = tables((core_file.parent / f"{stem}-imb.txt").read_text())
        imb2 = tables((core_file.parent / f"{stem}-imb2.txt").read_text())
        for key, times in tables(core_file.read_text()).items():
            if key not in imb or key not in imb2:
                continue
            for name, value in zip(("core", "noise"), against_both(times, imb[key], imb2[key])):
                if value == value:
                    found[(np_, suite, *key)][name].append(value)
    return found


def verdict(ci: MedianCI | None) -> str:
    if ci is None:
        return f"too few rounds (need {MIN_ROUNDS})"
    if ci.low <= 1.0 <= ci.high:
        return "within noise"
    return "mpimark slower" if ci.low > 1.0 else "mpimark faster"


def main(outdir: Path) -> int:
    found = round_ratios(outdir)
    if not found:
        print(f"no results under {outdir}", file=sys.stderr)
        return 1
    print("| ranks | suite | benchmark | processes | mode | mpimark/IMB | 95 % CI | range | IMB/IMB (noise) "
          "| 95 % CI | verdict | rounds |")
    print("|---:|---|---|---:|---|---:|---|---|---:|---|---|---:|")
    verdicts: dict[str, int] = defaultdict(int)
    for (np_, suite, name, procs, mode), r in sorted(found.items()):
        core, noise = r["core"], r["noise"]
        if not core or not noise:  # no size both programs measured
            continue
        core_ci, noise_ci = median_ci(core), median_ci(noise)
        said = verdict(core_ci)
        verdicts[said] += 1
        print(f"| {np_} | {suite} | {name} | {procs} | {mode or '-'} | {statistics.median(core):.3f} "
              f"| {interval(core_ci)} | {spread(core)} | {statistics.median(noise):.3f} | {interval(noise_ci)} "
              f"| {said} | {len(core)} |")
    rows = sum(verdicts.values())
    print()
    print(f"{rows} rows: " + ", ".join(f"{n} {v}" for v, n in sorted(verdicts.items())) +
          f". A 95 % interval leaves out the true ratio in about 1 row in 20, so even two identical programs "
          f"get about {rows / 20:.1f} verdicts other than \"within noise\" here.")
    pins = pinning(outdir)
    if pins:
        print()
        print("Pinning (I_MPI_DEBUG=4), launches per map:")
        print()
        for (program, cpus), count in sorted(pins.items()):
            print(f"- {program}: {cpus} ({count})")
    return 0


def interval(ci: MedianCI | None) -> str:
    return f"{ci.low:.3f}–{ci.high:.3f}" if ci is not None else "-"


def spread(values: list[float]) -> str:
    return f"{min(values):.3f}–{max(values):.3f}" if values else "-"


def pinning(outdir: Path) -> dict[tuple[str, str], int]:
    """{(program, "rank:cpus ..."): launches} from the .pin files (IMB's two launches count as IMB)."""
    seen: dict[tuple[str, str], int] = defaultdict(int)
    for pin in outdir.glob("np*/*/r*-*.pin"):
        program = "mpimark" if pin.name.endswith("-core.pin") else "IMB"
        # "[0] MPI startup(): 0       29539    vm         {0}": rank, pid, host, cpus
        cpus = re.findall(r"^\[\d+\] MPI startup\(\): (\d+)\s+\d+\s+\S+\s+(\{[^}]*\})", pin.read_text(), re.M)
        seen[(program, " ".join(f"{rank}:{cpu}" for rank, cpu in cpus) or "no pinning table")] += 1
    return seen


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))
