#!/usr/bin/env bash
# Issue 11's "Done when": an Alltoall and an Allreduce algorithm study at 4 ranks under Open MPI and
# MPICH on this machine, the tuned selection file of each (`algorithms tune`) and its verified gain
# (`tune --verify`); prints the Markdown for benchmarks/README.md (and keeps it in OUTDIR/README.md).
#
#   bash benchmarks/algorithms.sh [OUTDIR]
#
# Full settings: every algorithm each library lists for the two collectives plus its default, 4 ranks,
# -msglog 0:20 (up to 1 MiB), -time 1 -check, 3 rounds (--launches 3, seed 1); the verification runs the
# default and the tuned file 5 rounds. About 110 launches; on the 2-vCPU development machine, idle,
# roughly 15-30 minutes (run it quiet: the load average goes into the Markdown).
#
# MPIMARK_ALGORITHMS_SMOKE=1: 2 ranks, two algorithms per collective, -msglog 0:6, one round, one
# verification round (a minute or two; proves the script, measures nothing).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck disable=SC1091
. "$ROOT/.venv/mpimark-env.sh"
OUT=${1:-$ROOT/benchmarks/out/algorithms-$(date -u +%Y%m%d-%H%M%S)}
mkdir -p "$OUT"
DB="$OUT/algorithms.db"
MD="$OUT/README.md"
: >"$MD"

if [[ "${MPIMARK_ALGORITHMS_SMOKE:-0}" == 1 ]]; then
  NP=2 REPEAT=1 VREPEAT=1
  IMB=(-msglog 0:6 -time 1 -iter 20 -check)
  declare -A PICK=([openmpi]="--algorithms Alltoall:1,2 --algorithms Allreduce:3,4"
                   [mpich]="--algorithms Alltoall:brucks,pairwise --algorithms Allreduce:recursive_doubling,nb")
else
  NP=4 REPEAT=3 VREPEAT=5
  IMB=(-msglog 0:20 -time 1 -check)
  declare -A PICK=([openmpi]="" [mpich]="")
fi

say() { printf '%s\n' "$*" >&2; }
load() { cut -d' ' -f1-3 /proc/loadavg; }

{
  echo "## Collective algorithms (issue 11)"
  echo
  echo "Measured $(date -u '+%Y-%m-%d %H:%M') UTC, load average $(load) at the start, with"
  echo
  echo '```sh'
  echo "bash benchmarks/algorithms.sh   # $NP ranks, ${IMB[*]}, --launches $REPEAT, verify --launches $VREPEAT"
  echo '```'
  echo
} >>"$MD"

status=0
for mpi in openmpi mpich; do
  study="algorithms-$mpi"
  ext=$([[ $mpi == openmpi ]] && echo txt || echo json)
  say "== $mpi: study"
  # shellcheck disable=SC2086
  mpimark algorithms study Alltoall Allreduce --mpi "$mpi" -n "$NP" ${PICK[$mpi]} --launches "$REPEAT" --seed 1 \
    --study "$study" --db "$DB" "${IMB[@]}" >&2 || { say "($mpi: some launches did not complete; they are listed)"; status=1; }
  mpimark algorithms show "$study" --format markdown --db "$DB" >>"$MD"
  echo >>"$MD"
  say "== $mpi: tune --verify"
  mpimark algorithms tune "$study" -o "$OUT/tuned-$mpi.$ext" --verify --launches "$VREPEAT" --seed 1 \
    --format markdown --db "$DB" >>"$MD" || { say "($mpi: the verification did not complete)"; status=1; }
  {
    echo
    echo "Tuned file: \`$(basename "$OUT")/tuned-$mpi.$ext\`."
    echo
  } >>"$MD"
done
echo "Load average at the end: $(load)." >>"$MD"

cat "$MD"
say "wrote $MD (results in $DB)"
exit $status
