"""The tables of benchmarks/osu_parity.sh: per OSU test (and size) how mpimark-core's osu suite compares
with OSU 7.4, and how OSU compares with itself (its A/A spread, the noise floor).

    python3 benchmarks/osu_parity.py OUTDIR     # reads OUTDIR/np*/TEST/r*-{osu,core,osu2}.{txt,err,load}

Each round launches OSU, the core, OSU again. The ratios and their statistics are imb_parity.py's (one
definition for both suites): a round's mpimark/OSU is the core's figure against the geometric mean of the
two OSU launches around it, its OSU/OSU the second OSU launch against the first, each a geometric mean
over the sizes for the per-test row and a single size's ratio for the per-size rows; a row gives the
median over the rounds with its exact 95 % interval (binomial order statistics: at least 6 rounds) and
says "within noise" when mpimark's interval holds 1. The "A/A range" column says whether mpimark's median
lies inside the range of OSU's own launch-to-launch ratios: a test outside OSU's noise by the interval
but inside that range differs by less than OSU differs from itself.

The figure compared is the first figure column of OSU's table: Avg Latency / Latency (us), Overall (us)
for the non-blocking collectives, and for bandwidths MB/s, inverted so that a ratio above 1 means
mpimark slower on every row. Runs with the standard library only (no mpimark environment: the device
machine of benchmarks/osu_device.sh has none); mpimark's statistics module is read from src/ then.
"""

from __future__ import annotations

import re
import statistics
import sys
from collections import defaultdict
from pathlib import Path

try:
    import mpimark  # noqa: F401  (the development environment)
except ImportError:  # the device machine: the checkout's own source, stdlib-only modules
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from imb_parity import MIN_ROUNDS, against_both, interval, spread, verdict  # noqa: E402
from mpimark.analysis.statistics import median_ci  # noqa: E402

PROGRAMS = ("osu", "core", "osu2")


def table(text: str) -> tuple[dict[int, float], str]:
    """({bytes: figure}, the figure's column name) of one OSU-format output; a rate's figure is its
    inverse (a time per byte), so that every ratio reads as a time. Tables without a Size column
    (barrier, ibarrier) give their one row as size 0. Only the first datatype's table (-T) is read."""
    columns: list[str] = []
    rows: dict[int, float] = {}
    for line in text.splitlines():
        if line.startswith("#"):
            names = re.split(r"\s{2,}", line[1:].strip())
            if names and (names[0] == "Size" or names[0].endswith("(us)")):
                if rows:
                    break  # the next datatype's table
                columns = names
            continue
        cells = line.split()
        if not columns or not cells:
            continue
        sized = columns[0] == "Size"
        try:
            size = int(cells[0]) if sized else 0
            figure = float(cells[1 if sized else 0])
        except (ValueError, IndexError):
            continue  # not a row of the table (a launcher's or MPI's line)
        if figure > 0:
            rows[size] = 1.0 / figure if "MB/s" in columns[1 if sized else 0] else figure
    return rows, (columns[1 if columns and columns[0] == "Size" else 0] if columns else "")


def why_not(stem: Path) -> str:
    """What went wrong in a launch that left no table: its exit status and first line of stderr."""
    load = stem.with_suffix(".load")
    status = re.search(r"rc (\d+)", load.read_text()).group(1) if load.exists() else "?"
    err = stem.with_suffix(".err")
    first = next((line.strip() for line in (err.read_text(errors="replace").splitlines() if err.exists() else [])
                  if line.strip()), "")
    return f"exit {status}" + (f": {first[:100]}" if first else "")


def collect(outdir: Path):
    """Per (ranks, test): the round ratios ("core", "noise"), per size likewise, the column compared and
    the launches that gave no table."""
    per_test: dict[tuple[int, str], dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    per_size: dict[tuple[int, str, int], dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    column: dict[tuple[int, str], str] = {}
    failed: dict[tuple[int, str], list[str]] = defaultdict(list)
    for core_file in sorted(outdir.glob("np*/*/r*-core.txt")):
        key = (int(core_file.parent.parent.name[2:]), core_file.parent.name)
        stem = core_file.name[:-len("-core.txt")]
        launches = {}
        for program in PROGRAMS:
            path = core_file.parent / f"{stem}-{program}.txt"
            launches[program], name = table(path.read_text(errors="replace")) if path.exists() else ({}, "")
            if not launches[program]:
                failed[key].append(f"{stem} {program}: {why_not(path.with_suffix(''))}")
            elif program == "osu":
                column[key] = name
        if not all(launches.values()):
            continue
        osu, core, osu2 = (launches[p] for p in PROGRAMS)
        for name, value in zip(("core", "noise"), against_both(core, osu, osu2)):
            if value == value:
                per_test[key][name].append(value)
        for size in sorted(set(core) & set(osu) & set(osu2)):
            one = against_both({size: core[size]}, {size: osu[size]}, {size: osu2[size]})
            for name, value in zip(("core", "noise"), one):
                per_size[(*key, size)][name].append(value)
    return per_test, per_size, column, failed


def inside_range(core: list[float], noise: list[float]) -> str:
    """Whether mpimark's median ratio lies within OSU's own launch-to-launch ratios (and their inverses:
    the A/A spread is symmetric, either launch may be the slower)."""
    worst = max(max(noise), 1 / min(noise))
    return "yes" if 1 / worst <= statistics.median(core) <= worst else "no"


def row(core: list[float], noise: list[float]) -> tuple[str, str]:
    """The cells shared by both tables, and the verdict."""
    core_ci, noise_ci = median_ci(core), median_ci(noise)
    said = verdict(core_ci)
    return (f"{statistics.median(core):.3f} | {interval(core_ci)} | {spread(core)} | "
            f"{statistics.median(noise):.3f} | {interval(noise_ci)} | {spread(noise)} | "
            f"{inside_range(core, noise)} | {said} | {len(core)} |"), said


def loads(outdir: Path) -> str:
    """The 1-minute load average over the launches, and the launches' wall time per program."""
    seen, wall = [], defaultdict(float)
    for load in outdir.glob("np*/*/r*-*.load"):
        if m := re.match(r"load (\S+) \S+ \S+ wall (\S+)", load.read_text()):
            seen.append(float(m.group(1)))
            wall[load.stem.split("-", 1)[1]] += float(m.group(2))
    if not seen:
        return "no load recorded"
    return (f"1-minute load average at the {len(seen)} launches: median {statistics.median(seen):.2f}, "
            f"range {min(seen):.2f}–{max(seen):.2f}; launch wall time in all: "
            + ", ".join(f"{p} {wall[p]:.0f} s" for p in PROGRAMS if p in wall))


def main(outdir: Path, sizes: bool = True) -> int:
    per_test, per_size, column, failed = collect(outdir)
    if not per_test and not failed:
        print(f"no results under {outdir}", file=sys.stderr)
        return 1
    print(loads(outdir) + ".")
    print()
    cells = ("mpimark/OSU | 95 % CI | range | OSU/OSU (A/A) | 95 % CI | range | inside A/A range | verdict "
             "| rounds |")
    print("| ranks | test | figure | sizes | " + cells)
    print("|---:|---|---|---:|---:|---|---|---:|---|---|---|---|---:|")
    verdicts: dict[str, int] = defaultdict(int)
    for key in sorted(per_test, key=lambda k: (k[0], k[1])):
        r = per_test[key]
        n_sizes = sum(1 for k in per_size if k[:2] == key)
        text, said = row(r["core"], r["noise"])
        verdicts[said] += 1
        print(f"| {key[0]} | {key[1]} | {column.get(key, '')} | {n_sizes} | {text}")
    rows = sum(verdicts.values())
    print()
    print(f"{rows} tests: " + ", ".join(f"{n} {v}" for v, n in sorted(verdicts.items())) +
          f". A 95 % interval leaves out the true ratio about once in 20, so even two identical programs "
          f"get about {rows / 20:.1f} verdicts other than \"within noise\" here. Fewer than {MIN_ROUNDS} rounds "
          "give no interval. Bandwidths (MB/s) are compared as their inverse: above 1 is mpimark slower.")
    if failed:
        print()
        print("Launches without a table (the test is left out of the rows where any launch of a round failed):")
        print()
        for (np_, test), reasons in sorted(failed.items()):
            print(f"- {np_} ranks, {test}: " + "; ".join(reasons[:3]) + (f" (and {len(reasons) - 3} more)"
                                                                          if len(reasons) > 3 else ""))
    asked = (outdir / "tests.txt").read_text().split() if (outdir / "tests.txt").exists() else []
    never = [test for test in asked if not any(key[1] == test for key in (*per_test, *failed))]
    if never:
        print()
        print("Not run (osu_parity.sh -budget ended the run first): " + ", ".join(never) + ".")
    if sizes and per_size:
        print()
        print("Per size:")
        print()
        print("| ranks | test | bytes | " + cells)
        print("|---:|---|---:|---:|---|---|---:|---|---|---|---|---:|")
        for (np_, test, size), r in sorted(per_size.items()):
            print(f"| {np_} | {test} | {size} | {row(r['core'], r['noise'])[0]}")
    return 0


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--no-sizes"]
    if len(args) != 1:
        print("usage: python3 benchmarks/osu_parity.py [--no-sizes] OUTDIR", file=sys.stderr)
        sys.exit(2)
    sys.exit(main(Path(args[0]), sizes="--no-sizes" not in sys.argv))
