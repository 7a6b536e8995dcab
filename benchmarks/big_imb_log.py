#!/usr/bin/env python3
"""Write a large IMB-MPI1 text log, for measuring `mpimark import`, `show` and `report` on big inputs.

    python3 benchmarks/big_imb_log.py OUT.txt --mb 50 [--runs 1]

The tables are those of IMB 2021's text (header, `# Benchmarking`, `#
#processes`, column header, rows, closing line), as in
tests/unit/data/import/imb_2021.txt, repeated over several benchmarks and
process counts with many sizes each until the file holds about --mb
megabytes. --runs K writes K whole runs one after another (each with its
header and closing line), as `cat run1.txt run2.txt` would. The numbers are
made up but consistent (t_min <= t_avg <= t_max). Deterministic: the same
arguments give the same file.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from pathlib import Path

HEADER = """#----------------------------------------------------------------
#    Intel(R) MPI Benchmarks 2021.11, MPI-1 part
#----------------------------------------------------------------
# Date                  : Sat Nov 21 23:50:39 2026
# Machine               : x86_64
# System                : Linux
# Release               : 6.18.44
# Version               : #1 SMP PREEMPT_DYNAMIC @0
# MPI Version           : 3.1
# MPI Thread Environment: 


# Calling sequence was: 

# ./IMB-MPI1 -msglog 0:22 -npmin 2

# Minimum message length in bytes:   0
# Maximum message length in bytes:   4194304
#
# MPI_Datatype                   :   MPI_BYTE 
# MPI_Datatype for reductions    :   MPI_FLOAT 
# MPI_Op                         :   MPI_SUM  
# 
# 
"""
FINALIZE = "\n\n# All processes entering MPI_Finalize\n\n"
PAIRS = ("PingPong", "PingPing")  # 2 processes, t[usec] and Mbytes/sec
COLLECTIVES = ("Sendrecv", "Exchange", "Allreduce", "Reduce", "Bcast", "Allgather", "Alltoall", "Gather",
               "Scatter", "Reduce_scatter")
SIZES_PER_TABLE = 2000  # sizes 0, 1, 2, ... (any size is valid for IMB's text)


def table(name: str, processes: int, seed: int) -> Iterator[str]:
    bar = "#" + "-" * 63
    yield f"{bar}\n# Benchmarking {name} \n# #processes = {processes} \n{bar}\n"
    if name in PAIRS:
        yield "       #bytes #repetitions      t[usec]   Mbytes/sec\n"
        for size in range(SIZES_PER_TABLE):
            t = 0.3 + size * 0.001 + (seed % 7) * 0.01
            yield f"{size:13d} {1000:12d} {t:12.2f} {size / t:12.2f}\n"
    else:
        yield "       #bytes #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]\n"
        for size in range(SIZES_PER_TABLE):
            low = 0.4 + size * 0.002 + (seed % 5) * 0.01
            yield f"{size:13d} {1000:12d} {low:12.2f} {low * 1.5:12.2f} {low * 1.2:12.2f}\n"
    yield "\n"


def run(target_bytes: int) -> Iterator[str]:
    yield HEADER
    written, seed = len(HEADER), 0
    while written < target_bytes:
        for name in (*PAIRS, *COLLECTIVES):
            processes = 2 if name in PAIRS else 2 + seed % 3
            for piece in table(name, processes, seed):
                written += len(piece)
                yield piece
            seed += 1
            if written >= target_bytes:
                break
    yield FINALIZE


def write(path: Path, megabytes: float, runs: int = 1) -> None:
    with path.open("w", encoding="utf-8") as out:
        for _ in range(runs):
            out.writelines(run(int(megabytes * 1e6 / runs)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--mb", type=float, default=50.0, help="size of the file in MB (10^6 bytes)")
    parser.add_argument("--runs", type=int, default=1, help="whole runs one after another")
    args = parser.parse_args()
    write(args.out, args.mb, args.runs)


if __name__ == "__main__":
    main()
