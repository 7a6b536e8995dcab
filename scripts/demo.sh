#!/usr/bin/env bash
# A real benchmark run on 2 ranks: the core prints IMB's tables as it goes and
# writes results/demo-<time>.jsonl; then mpimark summarises that file on the
# terminal and as results/demo-<time>.md.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
bash scripts/setup.sh
# shellcheck source=/dev/null
. .venv/mpimark-env.sh

mkdir -p results
name=results/demo-$(date -u +%Y%m%dT%H%M%SZ)
core=$(mpimark core-path)
bash scripts/mpiexec.sh 2 "$core" mpi1 PingPong PingPing Sendrecv Allreduce Bcast Barrier \
  -msglog 0:20 -time 1 -json "$name.jsonl"
mpimark summary "$name.jsonl"
mpimark summary "$name.jsonl" --format markdown -o "$name.md"
echo "demo: results in $name.jsonl, summary in $name.md"
