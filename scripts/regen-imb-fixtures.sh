#!/usr/bin/env bash
# Regenerates the golden IMB text fixtures in tests/unit/data/imb/ (their
# README lists the same commands): each NAME.txt is the core's standard output
# and NAME.jsonl the -json stream of the same run, samples_ns cut to its first
# 8 values by text. Run after a change that alters IMB's text or the stream on
# purpose, then read the diff before committing it.
#
#   bash scripts/regen-imb-fixtures.sh [NAME...]     default: every fixture
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
# shellcheck source=/dev/null
[ -f .venv/mpimark-env.sh ] && . .venv/mpimark-env.sh
OUT=tests/unit/data/imb
CORE=${MPIMARK_CORE:-$ROOT/build/core/mpimark-core}
export TZ=UTC

declare -A RUNS=(
  [basic]="2 PingPong Sendrecv Allreduce Barrier Uniband -msglog 0:3 -time 0.2"
  [check_timeouts]="2 PingPong PingPing Sendrecv Exchange Allreduce Barrier Uniband Biband Reduce_scatter -msglog 0:2 -time 0.1 -check on"
  [multi1]="2 PingPong Allreduce Barrier Uniband -multi 1 -npmin 1 -msglog 0:2 -time 0.1"
  [multi0]="2 PingPong Allreduce Barrier -multi 0 -npmin 1 -msglog 0:2 -time 0.1"
  [idle]="3 PingPong Allreduce Biband -msglog 0:2 -time 0.1"
  [out_of_memory]="2 PingPong Allreduce -msglog 18:24 -mem 0.001 -time 0.1"
  [map]="4 PingPong Allreduce -map 2x2 -msglog 0:1 -time 1"
  [map_multi1]="4 Allreduce Sendrecv -map 2x2 -multi 1 -npmin 2 -msglog 0:1 -time 1"
  [invalid_counts]="1 PingPong Allreduce Uniband -msglog 0:1 -time 0.1"
  [msglen_char]="2 Bcast Exchange -msglen lens -data_type char -red_data_type char -time 0.1 -multi 0"
)
names=("$@")
[ ${#names[@]} -gt 0 ] || names=("${!RUNS[@]}")

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
printf '0\n100\n1000\n' > "$scratch/lens"
for name in "${names[@]}"; do
  [ -n "${RUNS[$name]:-}" ] || { echo "regen: unknown fixture '$name'; known: ${!RUNS[*]}" >&2; exit 2; }
  read -r n args <<< "${RUNS[$name]}"
  # Relative names (-msglen lens, -json a.jsonl) as the fixtures' command lines record them.
  # shellcheck disable=SC2086
  (cd "$scratch" && bash "$ROOT/scripts/mpiexec.sh" "$n" "$CORE" mpi1 $args -json a.jsonl > "$name.txt") || true
  cp "$scratch/$name.txt" "$OUT/$name.txt"
  sed -E 's/("samples_ns":\[([^],]*,){7}[^],]*)[^]]*\]/\1]/g' "$scratch/a.jsonl" > "$OUT/$name.jsonl"
  echo "regen: $OUT/$name.txt and .jsonl"
done
