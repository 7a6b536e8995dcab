"""Issue 22: the gate on real launches. A/A (the same job twice) and A/B (B forces a slow Allreduce algorithm).

    .venv/bin/python benchmarks/launch_series.py [--launches 20] [--np 2] [--mpi openmpi] [--out DIR]
    .venv/bin/python benchmarks/launch_series.py --analyse-only --out DIR

Every round launches A, A' (the same job again) and B (Open MPI's Allreduce forced to basic_linear, a
reduce and a broadcast), one after the other with `mpimark run`, so that drift hits all three alike; each
launch is a stored run. Then, for k launches a side (k = 1, 2, 3, 5, 10, all), it draws 200 random sets of
k launches of each side and counts the gate's outcomes (`--fail-if-slower 5%`, analysis/gate.py):
A/A's "slower" are false alarms, A/B's "slower" is power; and prints the launches the undecided ones ask
for. Draws from one pool of launches are not independent comparisons: the shares describe these launches.
Last, `matrix --until-decided`'s looks (analysis/sequential.py) replayed on the launches in the order they
ran, against a fixed design of the first 10 launches a side.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy

import mpimark.cli  # noqa: F401  (installs the core's benchmark facts, as every mpimark command has them)
from mpimark.analysis import gate, sequential
from mpimark.analysis.launches import compare_launches
from mpimark.storage.selection import resolve
from mpimark.storage.store import Store

SLOW = ("--env", "OMPI_MCA_coll_tuned_use_dynamic_rules=1", "--env", "OMPI_MCA_coll_tuned_allreduce_algorithm=1")
JOB = ("mpi1", "Allreduce", "-msglog", "0:16", "-time", "10")


def launch(db: Path, np: int, mpi: str, extra: tuple[str, ...]) -> int:
    result = subprocess.run([sys.executable, "-m", "mpimark.cli", "run", *JOB, "-n", str(np), "--mpi", mpi,
                             "--quiet", "--db", str(db), *extra], capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"launch failed: {result.stderr.strip().splitlines()[-1]}")
    return int(result.stderr.split("stored as run ")[1].split()[0])


def records(store: Store, ids: list[int]) -> list[list[dict]]:
    return [list(run.records) for run in resolve(store, ",".join(map(str, ids)))[0].runs]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--launches", type=int, default=20)
    parser.add_argument("--np", type=int, default=2)
    parser.add_argument("--mpi", default="openmpi")
    parser.add_argument("--out", type=Path, default=Path("benchmarks/out/launch_series"))
    parser.add_argument("--analyse-only", action="store_true")
    parser.add_argument("--draws", type=int, default=200)
    options = parser.parse_args()
    options.out.mkdir(parents=True, exist_ok=True)
    db = options.out / "results.db"
    ids_file = options.out / "ids.txt"
    if not options.analyse_only:
        ids: dict[str, list[int]] = {"A": [], "A'": [], "B": []}
        started = time.monotonic()
        print(f"load before: {open('/proc/loadavg').read().strip()}")
        for number in range(1, options.launches + 1):
            for name, extra in (("A", ()), ("A'", ()), ("B", SLOW)):
                ids[name].append(launch(db, options.np, options.mpi, extra))
            print(f"round {number}/{options.launches} ({time.monotonic() - started:.0f} s, load "
                  f"{os.getloadavg()[0]:.2f})", flush=True)
        print(f"load after: {open('/proc/loadavg').read().strip()}")
        ids_file.write_text("\n".join(f"{k} {' '.join(map(str, v))}" for k, v in ids.items()) + "\n")
    ids = {line.split()[0]: [int(x) for x in line.split()[1:]] for line in ids_file.read_text().splitlines()}
    rng = numpy.random.default_rng(22)
    with Store(db, for_reading=True) as store:
        runs = {name: records(store, run_ids) for name, run_ids in ids.items()}
    total = len(runs["A"])
    plan = sequential.plan(max(2, total))
    print(f"\n{total} launches of each of A, A', B; {options.draws} draws of k launches a side; gate 5 %")
    print("| k a side | pair | not slower (0) | slower (3) | undecided (4) | median launches asked for (undecided) |")
    print("|---:|---|---:|---:|---:|---:|")
    for k in sorted(k for k in {1, 2, 3, 5, 10, total} if k <= total):
        for pair, (a, b) in (("A/A'", ("A", "A'")), ("A/B", ("A", "B"))):
            found = {gate.NOT_SLOWER: 0, gate.SLOWER: 0, gate.UNDECIDED: 0}
            asked = []
            draws = 1 if k == total else options.draws
            for _ in range(draws):
                pick_a = rng.choice(total, k, replace=False)
                pick_b = rng.choice(total, k, replace=False)
                compared = compare_launches([runs[a][i] for i in pick_a], [runs[b][i] for i in pick_b])
                decision = gate.decide([("", compared)], 0.05)
                found[decision.outcome] += 1
                if decision.outcome == gate.UNDECIDED and decision.launches_needed is not None:
                    asked.append(decision.launches_needed)
            share = {o: f"{100 * n / draws:.0f} %" for o, n in found.items()}
            print(f"| {k} | {pair} | {share[gate.NOT_SLOWER]} | {share[gate.SLOWER]} | {share[gate.UNDECIDED]} | "
                  f"{int(numpy.median(asked)) if asked else '-'} |")
    print(f"\n--until-decided on these launches in the order they ran (looks at {', '.join(map(str, plan.checkpoints))}"
          f" launches a side, each at alpha/{len(plan.checkpoints)}) against a fixed design of 10 a side")
    print("| pair | until decided | launches a side used | fixed 10 a side |")
    print("|---|---|---:|---|")
    for pair, (a, b) in (("A/A'", ("A", "A'")), ("A/B", ("A", "B"))):
        outcome, used = gate.UNDECIDED, plan.budget
        for k in plan.checkpoints:
            decision = sequential.look(plan, [("", compare_launches(runs[a][:k], runs[b][:k]))], 0.05)
            if sequential.decided(decision):
                outcome, used = decision.outcome, k
                break
        fixed = gate.decide([("", compare_launches(runs[a][:10], runs[b][:10]))], 0.05).outcome if total >= 10 else "-"
        print(f"| {pair} | {outcome} | {used} | {fixed} |")
    whole = compare_launches(runs["A"], runs["B"])
    print(f"\nall launches, A/B: geomean {whole.overall.ratio:.3f} [{whole.overall.low:.3f}, {whole.overall.high:.3f}]")
    whole = compare_launches(runs["A"], runs["A'"])
    print(f"all launches, A/A': geomean {whole.overall.ratio:.3f} [{whole.overall.low:.3f}, {whole.overall.high:.3f}], "
          f"launch spread (sd of a launch's mean log time) {whole.overall.spread:.3f}")


if __name__ == "__main__":
    main()
