"""The tables of benchmarks/imb_parity.sh: per benchmark (and mode, and process count) the mpimark/IMB
time ratio, geometric mean over the sizes of each round and then over the rounds, next to IMB's own
round-to-round ratio (IMB against IMB, the noise floor).

    python3 benchmarks/imb_parity.py OUTDIR     # reads OUTDIR/np*/SUITE/r*-{imb,core,imb2}.txt (and .pin)

Both ratios get their range over the rounds: a program whose single launches are bimodal shows a
wider mpimark/IMB range than IMB's own. The pinning maps of Intel MPI's I_MPI_DEBUG=4 output
(the .pin files imb_parity.sh writes) are listed after the table, per program, with their launches.

The time compared is the table's headline time: t[usec] (single transfers), t_max[usec] (parallel and
collective tables), t_ovrl[usec] (overlap tables), t_pure[usec] (Truly_passive_put), 1/(Msg/sec) for
Uniband/Biband. Sizes with a failure row or a time of 0.00 in either output are left out.
"""

from __future__ import annotations

import math
import re
import sys
from collections import defaultdict
from pathlib import Path

TIME_COLUMNS = ("t[usec]", "t_max[usec]", "t_ovrl[usec]", "t_pure[usec]")


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


def main(outdir: Path) -> int:
    found: dict[tuple, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for core_file in sorted(outdir.glob("np*/*/r*-core.txt")):
        np_ = int(core_file.parent.parent.name[2:])
        suite = core_file.parent.name
        stem = core_file.name[:-len("-core.txt")]
        imb = tables((core_file.parent / f"{stem}-imb.txt").read_text())
        imb2 = tables((core_file.parent / f"{stem}-imb2.txt").read_text())
        core = tables(core_file.read_text())
        for key, times in core.items():
            if key in imb:
                found[(np_, suite, *key)]["core"].append(ratio(times, imb[key]))
            if key in imb and key in imb2:
                found[(np_, suite, *key)]["noise"].append(ratio(imb2[key], imb[key]))
    if not found:
        print(f"no results under {outdir}", file=sys.stderr)
        return 1
    print("| ranks | suite | benchmark | processes | mode | mpimark/IMB | mpimark/IMB range | IMB/IMB (noise) "
          "| IMB/IMB range | rounds |")
    print("|---:|---|---|---:|---|---:|---|---:|---|---:|")
    for (np_, suite, name, procs, mode), r in sorted(found.items()):
        core, noise = [x for x in r["core"] if x == x], [x for x in r["noise"] if x == x]
        print(f"| {np_} | {suite} | {name} | {procs} | {mode or '-'} | {geomean(core):.3f} | {spread(core)} "
              f"| {geomean(noise):.3f} | {spread(noise)} | {len(core)} |")
    pins = pinning(outdir)
    if pins:
        print()
        print("Pinning (I_MPI_DEBUG=4), launches per map:")
        print()
        for (program, cpus), count in sorted(pins.items()):
            print(f"- {program}: {cpus} ({count})")
    return 0


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
