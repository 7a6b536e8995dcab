#!/usr/bin/env bash
# benchmarks/rigour.sh: the measurements issue 12 asks for, for a quiet
# machine (one core per rank; nothing else running). Writes JSON streams and
# the text tables to $OUT (default benchmarks/rigour-out/).
#   1. -sync window vs IMB's barrier (-sync on) for Allreduce, Bcast and
#      Alltoall at 2 and 4 ranks (the window needs a core per rank);
#   2. -ci_target 0.01 vs IMB's default repetitions on PingPong and Allreduce.
# Compare with: mpimark compare A.jsonl B.jsonl, or read window.invalid_samples,
# ci_target.{half_width,stop} and distribution.* from the streams.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CORE=$ROOT/build/core/mpimark-core
RUN=$ROOT/scripts/mpiexec.sh
OUT=${OUT:-$ROOT/benchmarks/rigour-out}
mkdir -p "$OUT"
for n in 2 4; do
  for sync in on window; do
    bash "$RUN" "$n" "$CORE" mpi1 Allreduce,Bcast,Alltoall -npmin "$n" -msglog 0:20 -sync "$sync" \
      -json "$OUT/sync-$sync-np$n.jsonl" > "$OUT/sync-$sync-np$n.txt"
  done
done
bash "$RUN" 2 "$CORE" mpi1 PingPong,Allreduce -msglog 0:20 -json "$OUT/imb-default.jsonl" > "$OUT/imb-default.txt"
bash "$RUN" 2 "$CORE" mpi1 PingPong,Allreduce -msglog 0:20 -ci_target 0.01 \
  -json "$OUT/ci-target-0.01.jsonl" > "$OUT/ci-target-0.01.txt"
echo "rigour.sh: streams and tables in $OUT"
