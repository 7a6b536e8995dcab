"""One benchmark's column, launch by launch, from imb_parity.sh output directories: whether a gap
between mpimark and IMB is the programs' or the launches'.

    python3 benchmarks/parity_launches.py OUTDIR... -bench Ibcast [-column t_pure] [-sizes 65536,4194304]
                                          [-slow 4194304:300]

imb_parity.py averages over sizes and rounds; this prints every launch's value at the chosen sizes
(r*-imb.txt and r*-imb2.txt are IMB, r*-core.txt mpimark), then per program the median and range per
size. With -slow SIZE:USEC it splits each program's launches at USEC (time at SIZE) and gives the
medians of both groups: two programs whose launches share the same two levels, in similar
proportions, differ by chance of the launch, not by what they do (benchmarks/README.md, "Ibcast
t_pure at 64 KiB and above"). Launches of imb_parity.sh -probe also show benchmarks/vcpu_probe.c's
cache-line round trip and 4 MiB copy between CPUs 0 and 1 before and after the launch (from the
.pin file). Sizes or launches without the benchmark are left out.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
from pathlib import Path

from imb_parity import tables


def probes(pin: Path) -> str:
    """vcpu_probe's round trip and 4 MiB copy before and after the launch ("112 ns 119 us / ..."), or "-"."""
    text = pin.read_text() if pin.exists() else ""
    seen = re.findall(r"^(before|after): vcpu_probe .* round_trip_ns (\d+) copy_4MiB_us (\d+)", text, re.M)
    return " / ".join(f"{when} {trip} ns {copy} us" for when, trip, copy in seen) or "-"


def launches(outdirs: list[Path], bench: str, column: str) -> list[tuple[str, str, dict[int, float]]]:
    """[(launch label, "IMB" or "mpimark", {bytes: value})] for the benchmark, every process count; the
    label ends with vcpu_probe's figures around the launch when imb_parity.sh -probe took them."""
    found = []
    for outdir in outdirs:
        for path in sorted(outdir.glob("np*/*/r*-*.txt")):
            program = "mpimark" if path.name.endswith("-core.txt") else "IMB"
            for (name, procs, mode), times in tables(path.read_text(), (column,)).items():
                if name == bench:
                    where = f"{outdir.name}/{path.parent.parent.name}/{path.parent.name}/{path.stem}"
                    label = f"{where} p{procs}" + (f" {mode}" if mode else "")
                    probed = probes(path.with_suffix(".pin"))
                    label += f" ({probed})" if probed != "-" else ""
                    found.append((label, program, times))
    return found


def median_range(values: list[float]) -> str:
    return f"{statistics.median(values):.2f} ({min(values):.2f}–{max(values):.2f})" if values else "-"


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("outdirs", nargs="+", type=Path)
    ap.add_argument("-bench", required=True)
    ap.add_argument("-column", default="t_pure", help="a column of the table without [usec]: t_pure, t_ovrl, ...")
    ap.add_argument("-sizes", default="65536,1048576,4194304")
    ap.add_argument("-slow", metavar="SIZE:USEC", help="split each program's launches at USEC at SIZE bytes")
    args = ap.parse_args(argv)
    try:
        sizes = [int(s) for s in args.sizes.split(",")]
        split = tuple(float(x) for x in args.slow.split(":")) if args.slow else None
        if split is not None and len(split) != 2:
            raise ValueError
    except ValueError:
        print("parity_launches.py: -sizes takes bytes like 65536,4194304 and -slow SIZE:USEC like 4194304:300",
              file=sys.stderr)
        return 2
    found = launches(args.outdirs, args.bench, f"{args.column}[usec]")
    if not found:
        print(f"parity_launches.py: no {args.bench} table with {args.column}[usec] under "
              f"{' '.join(map(str, args.outdirs))}; give imb_parity.sh output directories", file=sys.stderr)
        return 1
    print(f"{args.bench} {args.column}[usec] per launch")
    print()
    print("| launch | program | " + " | ".join(str(s) for s in sizes) + " |")
    print("|---|---|" + "---:|" * len(sizes))
    for label, program, times in found:
        print(f"| {label} | {program} | " + " | ".join(f"{times[s]:.2f}" if s in times else "-" for s in sizes) + " |")
    groups: dict[str, list[dict[int, float]]] = {}
    for _, program, times in found:
        groups.setdefault(program, []).append(times)
    if split is not None:
        at, limit = int(split[0]), split[1]
        for program in list(groups):
            timed = [t for t in groups.pop(program) if at in t]
            slow = [t for t in timed if t[at] > limit]
            groups[f"{program} fast"] = [t for t in timed if t[at] <= limit]
            groups[f"{program} slow ({len(slow)} of {len(timed)} launches above {limit:g} us at {at} B)"] = slow
    print()
    print("| program | launches | " + " | ".join(f"{s}: median (range)" for s in sizes) + " |")
    print("|---|---:|" + "---|" * len(sizes))
    for program, group in sorted(groups.items()):
        cells = [median_range([t[s] for t in group if s in t]) for s in sizes]
        print(f"| {program} | {len(group)} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
