"""Issue 22, item 8: the wall time of one default launch of each suite against IMB's, same library.

    python3 benchmarks/launch_wall.py [--rounds 3] [--np 2] [--msglog 0:16] [--suites mpi1,nbc,rma,ext,io]
                                      [--core LABEL=FILE ...] [--imb-dir DIR] [--json] [OUTDIR]

The library is the Intel MPI wheel (`mpimark mpi install impi`), whose IMB-MPI1, IMB-NBC and IMB-RMA
are the reference; it ships no IMB-EXT or IMB-IO: build them from IMB's sources at the wheel's version
and name their directory with --imb-dir (benchmarks/README.md, "Launch wall time against IMB", says
how). A suite whose IMB program is found nowhere is left out with one line.

Every round launches, per suite, IMB, then each core given (default: mpimark's core built for the
wheel, mpimark.execution.build.ensure_core), then IMB again: interleaved, so drift between launches
hits both. A core's ratio in a round is its wall time (mpiexec's start to its exit) over the geometric
mean of the two IMB launches around it; the table gives per suite and core the median over rounds and
the range, IMB's second launch against its first (the noise floor), and /proc/loadavg at every
launch: other people's jobs on the machine lengthen any launch. Both programs get the same options:
--msglog (default 0:16) and, for io, IMB-IO's blocking benchmarks only (IMB 2021.11's non-blocking IO
kernels spend ~18 ms of CPU work per call, hours per launch). --json adds -json to the core's launches
(kept in OUTDIR; each result record's wall_s says where the time went), which costs a little.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from datetime import datetime, timezone
from pathlib import Path

from mpimark.execution import build, mpi

PROGRAMS = {"mpi1": "IMB-MPI1", "nbc": "IMB-NBC", "rma": "IMB-RMA", "ext": "IMB-EXT", "io": "IMB-IO"}
IO_BLOCKING = ("S_Write_Indv,S_Write_Expl,P_Write_Indv,P_Write_Shared,P_Write_Priv,P_Write_Expl,C_Write_Indv,"
               "C_Write_Shared,C_Write_Expl,S_Read_Indv,S_Read_Expl,P_Read_Indv,P_Read_Shared,P_Read_Priv,"
               "P_Read_Expl,C_Read_Indv,C_Read_Shared,C_Read_Expl,Open_Close")


def fail(message: str) -> None:
    print(f"launch_wall.py: {message}", file=sys.stderr)
    raise SystemExit(2)


def parse_args() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--np", type=int, default=2)
    p.add_argument("--msglog", default="0:16")
    p.add_argument("--suites", default="mpi1,nbc,rma,ext,io")
    p.add_argument("--core", action="append", default=[], metavar="LABEL=FILE",
                   help="a core built for the wheel's Intel MPI (repeatable; default: mpimark's own)")
    p.add_argument("--imb-dir", action="append", default=[], type=Path,
                   help="where else to look for IMB programs (IMB-EXT, IMB-IO built from source)")
    p.add_argument("--json", action="store_true", help="the core's launches write -json into OUTDIR")
    p.add_argument("out", nargs="?", type=Path)
    a = p.parse_args()
    if a.rounds < 1 or a.np < 1:
        fail("--rounds and --np need positive integers")
    a.suites = [s for s in a.suites.split(",") if s]
    if unknown := [s for s in a.suites if s not in PROGRAMS]:
        fail(f"unknown suite(s) {','.join(unknown)}; use {','.join(PROGRAMS)}")
    return a


def cores(given: list[str], impl: mpi.MpiImpl) -> dict[str, Path]:
    if not given:
        return {"core": build.ensure_core(impl)}
    out = {}
    for item in given:
        label, sep, path = item.partition("=")
        if not sep or not label or not os.access(path, os.X_OK):
            fail(f"--core '{item}': give LABEL=FILE, FILE an mpimark-core built for Intel MPI")
        out[label] = Path(path).resolve()
    return out


def launch(cmd: list[str], env: dict[str, str], cwd: Path, log: Path) -> tuple[float, str]:
    """(wall seconds, load average before) of one launch; its output goes to log."""
    load = Path("/proc/loadavg").read_text().split()[0]
    start = time.perf_counter()
    with log.open("w") as out:
        rc = subprocess.run(cmd, env=env, cwd=cwd, stdout=out, stderr=subprocess.STDOUT).returncode
    wall = time.perf_counter() - start
    if rc != 0:
        fail(f"'{' '.join(cmd)}' exited {rc}; see {log}")
    return wall, load


def main() -> None:
    a = parse_args()
    impl = next((i for i in mpi.discover()[0] if i.kind == "impi"), None)
    if impl is None:
        fail("no Intel MPI; install its wheel with `mpimark mpi install impi`")
    binaries = cores(a.core, impl)
    dirs = [Path(impl.mpiexec).parent, *a.imb_dir]
    imb = {}
    for suite in a.suites:
        found = next((d / PROGRAMS[suite] for d in dirs if (d / PROGRAMS[suite]).is_file()), None)
        if found is None:
            print(f"launch_wall.py: no {PROGRAMS[suite]} in {', '.join(map(str, dirs))}: {suite} left out",
                  file=sys.stderr)
        else:
            imb[suite] = found
    out = a.out or Path(__file__).parent / "out" / f"launch-wall-{datetime.now(timezone.utc):%Y%m%d-%H%M%S}"
    out.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, **impl.env}
    load_before = Path("/proc/loadavg").read_text().split()[:3]
    walls: dict[tuple[str, str], list[float]] = defaultdict(list)
    loads: dict[str, list[str]] = defaultdict(list)
    for r in range(1, a.rounds + 1):
        for suite, program in imb.items():
            scratch = out / f"{suite}-files"  # IO's files; the other suites write none
            scratch.mkdir(exist_ok=True)
            args = ["-msglog", a.msglog, *([IO_BLOCKING] if suite == "io" else [])]
            run = [impl.mpiexec, "-n", str(a.np)]
            print(f"round {r}, {suite}", file=sys.stderr)
            order = [("imb", [str(program), *args])]
            for label, core in binaries.items():
                json = ["-json", str(out / f"r{r}-{suite}-{label}.jsonl")] if a.json else []
                order.append((label, [str(core), suite, *args, *json]))
            order.append(("imb2", [str(program), *args]))
            for label, cmd in order:
                wall, load = launch(run + cmd, env, scratch, out / f"r{r}-{suite}-{label}.txt")
                walls[(suite, label)].append(wall)
                loads[suite].append(load)
    lines = [f"Measured {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC, {impl.name} ({impl.version}), "
             f"{a.np} ranks, -msglog {a.msglog}, {a.rounds} round(s); load average {' '.join(load_before)} "
             f"before and {' '.join(Path('/proc/loadavg').read_text().split()[:3])} after.", "",
             "| suite | IMB [s] | " + " | ".join(f"{c} [s] | {c}/IMB (range)" for c in binaries)
             + " | IMB/IMB | 1-min load at the launches |",
             "|---|---:|" + "---:|---:|" * len(binaries) + "---:|---|"]
    for suite in imb:
        first, second = walls[(suite, "imb")], walls[(suite, "imb2")]
        row = [suite, f"{statistics.median(first + second):.2f}"]
        for label in binaries:
            ratios = [c / math.sqrt(x * y) for c, x, y in zip(walls[(suite, label)], first, second)]
            row += [f"{statistics.median(walls[(suite, label)]):.2f}",
                    f"**{statistics.median(ratios):.2f}** ({min(ratios):.2f}-{max(ratios):.2f})"]
        row += [f"{statistics.median(y / x for x, y in zip(first, second)):.2f}",
                f"{min(loads[suite])}-{max(loads[suite])}"]
        lines.append("| " + " | ".join(row) + " |")
    text = "\n".join(lines) + "\n"
    (out / "README.md").write_text(text)
    print(text, end="")


if __name__ == "__main__":
    main()
