#!/usr/bin/env bash
# benchmarks/rigour.sh: the measurements issue 12 asks for, for a quiet
# machine (one core per rank; nothing else running). Writes JSON streams, the
# text tables and summary.md (benchmarks/rigour_summary.py) to $OUT (default
# benchmarks/rigour-out/).
#   1. -sync window vs IMB's barrier (-sync on) for Allreduce, Bcast and
#      Alltoall at 2 and 4 ranks (the window needs a core per rank), with
#      Barrier in both so that window mode shows the barrier's own exit skew;
#   2. -ci_target 0.01 vs IMB's default repetitions on PingPong and Allreduce:
#      per size the wall time of the timed loops (wall_s) and the CI reached.
# Every stream's self-checks say how quiet the machine was (summary.md's last table).
# A quick check that it runs: MSGLOG=0:2 EXTRA="-time 0.2" bash benchmarks/rigour.sh
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CORE=$ROOT/build/core/mpimark-core
RUN=$ROOT/scripts/mpiexec.sh
OUT=${OUT:-$ROOT/benchmarks/rigour-out}
MSGLOG=${MSGLOG:-0:20}
read -r -a EXTRA <<< "${EXTRA:-}"
mkdir -p "$OUT"
for n in 2 4; do
  for sync in on window; do
    bash "$RUN" "$n" "$CORE" mpi1 Allreduce,Bcast,Alltoall,Barrier -npmin "$n" -msglog "$MSGLOG" -sync "$sync" \
      "${EXTRA[@]}" -json "$OUT/sync-$sync-np$n.jsonl" > "$OUT/sync-$sync-np$n.txt"
  done
done
bash "$RUN" 2 "$CORE" mpi1 PingPong,Allreduce -msglog "$MSGLOG" "${EXTRA[@]}" -json "$OUT/imb-default.jsonl" \
  > "$OUT/imb-default.txt"
bash "$RUN" 2 "$CORE" mpi1 PingPong,Allreduce -msglog "$MSGLOG" -ci_target 0.01 "${EXTRA[@]}" \
  -json "$OUT/ci-target-0.01.jsonl" > "$OUT/ci-target-0.01.txt"
python3 "$ROOT/benchmarks/rigour_summary.py" "$OUT" > "$OUT/summary.md"
echo "rigour.sh: streams and tables in $OUT; the summary in $OUT/summary.md"
