#!/usr/bin/env python3
"""How fast `mpimark import` stores a large IMB log and a 16-rank stream, how big the database grows,
and how long another writer waits for the write lock meanwhile (issue 23, items 3 and 4).

    python3 benchmarks/import_throughput.py [--imb-mb 50] [--out benchmarks/out/import_throughput]
                                            [--src DIR]   # another checkout's src/ (a worktree of an old commit)

Inputs, written into --out (deterministic: the same arguments give the same files):

- imb.txt: one IMB-MPI1 run of about --imb-mb MB: the header of tests/unit/data/imb/basic.txt, then the
  tables of every real fixture in tests/unit/data/imb/*.txt, repeated in turn, then IMB's closing line.
- imb_dense.txt: benchmarks/big_imb_log.py's log of the same size (2000 sizes per table: rows, not
  headers, as in a long real log), for the database's size per MB of rows.
- stream16.jsonl: a 16-rank full MPI-1 stream, synthesised from the real 2-rank stream
  tests/unit/data/imb/check_timeouts.jsonl: its run record widened to 16 ranks, and per benchmark of
  the core's MPI-1 list and size 0, 1, 2, 4 ... 4 MiB one result record shaped as the real one of that
  benchmark (same fields in the same order), with as many samples_ns values as its distribution counts
  (1000 down to 20 with the size), numbers written as the core writes them.

Each import runs as `mpimark import FILE --db DB` in a subprocess (mpimark.cli of --src) (what a user waits for,
start-up included). Meanwhile a second connection, as another mpimark writing a run would, asks for the
write lock (BEGIN IMMEDIATE, then COMMIT of nothing) every 0.05 s with a 10-minute busy timeout, and the
script records how long each ask waited, and the largest -wal file seen. Then the same import again in a
process that has loaded mpimark already (parse_file and store_parsed timed alone: the CLI's start-up, about
0.5 s, is most of a small file's time). Printed: MB/s of text (CLI, and the import alone), database bytes
(file + -wal after the import) per MB of text, the largest -wal, and the writer's waits.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import random
import re
import sqlite3
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "unit" / "data" / "imb"
CLOSING = "\n\n# All processes entering MPI_Finalize\n\n"
# The core's MPI-1 benchmarks with sizes (`mpimark list mpi1`, as in a run of -npmin 16); Barrier adds one row.
MPI1 = ("PingPong", "PingPing", "Sendrecv", "Exchange", "Allreduce", "Reduce", "Reduce_scatter", "Allgather",
        "Allgatherv", "Gather", "Scatter", "Alltoall", "Bcast")
SIZES = (0, *(1 << k for k in range(23)))  # IMB's default -msglog 0:22
RANKS = 16
ASK_EVERY_S = 0.05
CLI = "import sys; from mpimark.cli import main; sys.argv[0] = 'mpimark'; main()"
# The import alone, in a process that has loaded mpimark already (the CLI's start-up is not counted).
IN_PROCESS = """import sys, time
from pathlib import Path
import mpimark.cli  # installs the core's benchmark facts, as the CLI does
from mpimark.storage.importers import parse_file, store_parsed
from mpimark.storage.store import Store
source, db = Path(sys.argv[1]), Path(sys.argv[2])
store = Store(db)
started = time.perf_counter()
store_parsed(store, parse_file(source, check=False))  # as `mpimark import` of one file: one read
print(time.perf_counter() - started)
"""


def big_imb_log():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import big_imb_log

    return big_imb_log


def imb_log(path: Path, megabytes: float) -> None:
    """One IMB run of about megabytes MB built from the real fixtures' tables (see the module's text)."""
    basic = (FIXTURES / "basic.txt").read_text()
    header = basic[:basic.index("#---", basic.index("# Benchmarking") - 60)]
    tables = []
    for fixture in sorted(FIXTURES.glob("*.txt")):
        text = fixture.read_text()
        # A table runs from its "#---" line above "# Benchmarking" to the blank line after its rows.
        tables += re.findall(r"#-+\n# Benchmarking .*?\n\n", text, re.S)
    target = int(megabytes * 1e6)
    with path.open("w", encoding="utf-8") as out:
        written = out.write(header)
        while written < target:
            for table in tables:
                written += out.write(table)
        out.write(CLOSING)


def _templates() -> tuple[dict, dict[str, dict], list[dict]]:
    """The real 2-rank stream's run record, a result record per benchmark, and its events."""
    records = [json.loads(line) for line in (FIXTURES / "check_timeouts.jsonl").read_text().splitlines()]
    results = {}
    for record in records:
        if record["type"] == "result" and record.get("distribution"):
            results.setdefault(record["benchmark"], record)
    return records[0], results, [r for r in records if r["type"] == "event"]


def _number(value: float) -> float:
    """A sample as the core prints it: nanoseconds with at most one decimal."""
    return round(value, 1) if value % 1 else int(value)


def stream16(path: Path) -> None:
    run, templates, events = _templates()
    run = copy.deepcopy(run)
    host = run["hosts"][0]
    run.update(processes=RANKS, ranks_per_node=[RANKS], oversubscribed=True,
               ranks=[{"rank": r, "host": host, "cpu": r % 2, "cpus": str(r % 2)} for r in range(RANKS)])
    run["command_line"] = [run["command_line"][0], "mpi1", "-npmin", str(RANKS), "-json", path.name]
    sync = run.get("clock_sync")
    if sync:
        rank = sync["ranks"][-1]
        sync["ranks"] = sync["ranks"][:1] + [{**rank, "rank": r} for r in range(1, RANKS)]
    generator = random.Random(23)
    records = [run, *events]
    for name in MPI1:
        template = templates.get(name) or templates["Allreduce"]
        pairs = name in ("PingPong", "PingPing")
        for size in SIZES:
            record = copy.deepcopy(template)
            t = 0.5 + size / 2000 * (1 if pairs else RANKS / 4)
            samples = max(20, min(1000, int(1000 * 4096 / max(size, 4096))))
            record.update(benchmark=name, processes=2 if pairs else RANKS, bytes=size, count=size,
                          repetitions=samples, t_min_usec=t * 0.9, t_max_usec=t * 1.2, t_avg_usec=t)
            values = sorted(generator.lognormvariate(0, 0.2) * t * 1000 for _ in range(samples))
            record["distribution"].update(samples=samples, batch_size=1, median_usec=values[samples // 2] / 1000,
                                          min_usec=values[0] / 1000, max_usec=values[-1] / 1000)
            generator.shuffle(values)
            record["samples_ns"] = [_number(v) for v in values]
            records.append(record)
    barrier = copy.deepcopy(templates["Barrier"])
    barrier.update(processes=RANKS, samples_ns=[_number(generator.lognormvariate(0, 0.2) * 9000)
                                                for _ in range(barrier["distribution"]["samples"])])
    records.append(barrier)
    records.append({"type": "end", "status": "complete", "elapsed_s": 412.5,
                    "results": sum(r["type"] == "result" for r in records), "load_average_after": [2.0, 2.0, 2.0]})
    with path.open("w", encoding="utf-8") as out:
        for record in records:
            out.write(json.dumps(record, separators=(",", ":")) + "\n")


class WalWatch(threading.Thread):
    """The largest -wal file seen, looked at every 0.05 s (apart from LockProbe, which blocks while it waits)."""

    def __init__(self, db: Path, done: threading.Event) -> None:
        super().__init__(daemon=True)
        self.wal, self.largest, self.done = Path(f"{db}-wal"), 0, done

    def run(self) -> None:
        while not self.done.wait(0.05):
            try:
                self.largest = max(self.largest, self.wal.stat().st_size)
            except FileNotFoundError:
                pass


class LockProbe(threading.Thread):
    """Another writer: asks for the write lock every ASK_EVERY_S and records how long each ask waited."""

    def __init__(self, db: Path) -> None:
        super().__init__(daemon=True)
        self.db, self.waits, self.done = db, [], threading.Event()
        self.wal = WalWatch(db, self.done)

    def run(self) -> None:
        self.wal.start()
        conn = None
        while not self.done.is_set():
            if conn is None and self.db.exists():
                conn = sqlite3.connect(self.db, timeout=600, isolation_level=None)
            if conn is not None:
                asked = time.perf_counter()
                try:
                    conn.execute("BEGIN IMMEDIATE")
                    conn.execute("COMMIT")
                    self.waits.append(time.perf_counter() - asked)
                except sqlite3.OperationalError:  # the file is being created: not a database yet
                    pass
            self.done.wait(ASK_EVERY_S)
        if conn is not None:
            conn.close()
        self.wal.join()


def measure(label: str, source: Path, db: Path, src: Path) -> dict:
    for leftover in (db, Path(f"{db}-wal"), Path(f"{db}-shm")):
        leftover.unlink(missing_ok=True)
    env = {**os.environ, "PYTHONPATH": str(src)}
    probe = LockProbe(db)
    probe.start()
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", CLI, "import", str(source), "--db", str(db)],
                          env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    probe.done.set()
    probe.join()
    if done.returncode != 0:
        sys.exit(f"{label}: import failed ({done.returncode}): {done.stderr.strip()}")
    megabytes = source.stat().st_size / 1e6
    stored = sum(p.stat().st_size for p in (db, Path(f"{db}-wal")) if p.exists())
    waits = probe.waits or [0.0]
    scratch = db.with_suffix(".in_process.db")
    for leftover in (scratch, Path(f"{scratch}-wal"), Path(f"{scratch}-shm")):
        leftover.unlink(missing_ok=True)
    inside = subprocess.run([sys.executable, "-c", IN_PROCESS, str(source), str(scratch)], env=env,
                            capture_output=True, text=True, check=True)
    import_s = float(inside.stdout.split()[-1])
    return {"input": label, "MB": round(megabytes, 2), "seconds": round(seconds, 2),
            "MB/s": round(megabytes / seconds, 2), "import alone s": round(import_s, 2),
            "MB/s import alone": round(megabytes / import_s, 2), "db bytes per MB": int(stored / megabytes),
            "largest wal MB": round(probe.wal.largest / 1e6, 1), "writer asks": len(probe.waits),
            "writer wait median s": round(statistics.median(waits), 3), "writer wait max s": round(max(waits), 3)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--imb-mb", type=float, default=50.0)
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "out" / "import_throughput")
    parser.add_argument("--src", type=Path, default=ROOT / "src", help="the mpimark package's parent to measure")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    imb, dense, stream = args.out / "imb.txt", args.out / "imb_dense.txt", args.out / "stream16.jsonl"
    imb_log(imb, args.imb_mb)
    big_imb_log().write(dense, args.imb_mb)
    stream16(stream)
    print(f"load before: {Path('/proc/loadavg').read_text().strip()}")
    for label, source in (("IMB text", imb), ("IMB text, dense", dense), ("16-rank stream", stream)):
        print(json.dumps(measure(label, source, args.out / f"{source.stem}.db", args.src.resolve())))
    print(f"load after: {Path('/proc/loadavg').read_text().strip()}")


if __name__ == "__main__":
    main()
