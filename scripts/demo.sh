#!/usr/bin/env bash
# The README's main command: set everything up, then a real benchmark run on
# 2 ranks through `mpimark run` (IMB's tables printed as they are measured,
# every result stored in the results database), the stored run shown again
# with medians and confidence intervals, and an HTML report with plots.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
mkdir -p results
stamp=$(date -u +%Y%m%dT%H%M%SZ)
# Setting up (pip, apt, CMake's build of build/core) talks a lot: into a log, so the terminal shows the
# benchmark tables alone. (`mpimark run` builds the core it launches into its cache, quietly, into that
# build's build.log; build/core is what the front end asks for the benchmark facts.)
setup_log=results/demo-$stamp-setup.log
echo "demo: setting up (output in $setup_log)" >&2
if ! bash scripts/setup.sh >"$setup_log" 2>&1; then
  tail -20 "$setup_log" >&2
  echo "demo: error: setup failed; the whole output is in $setup_log" >&2
  exit 1
fi
# shellcheck source=/dev/null
. .venv/mpimark-env.sh

log=results/demo-$stamp.log
# mpimark's own messages (progress, "stored as run N in DB") go to stderr;
# keep a copy to learn the run id.
mpimark run mpi1 PingPong PingPing Sendrecv Exchange Allreduce Bcast Barrier -n 2 \
  -msglog 0:20 -time 1 --json "results/demo-$stamp.jsonl" 2> >(tee "$log" >&2)
sleep 0.2  # let tee finish writing the log
run=$(sed -n 's/.*stored as run \([0-9][0-9]*\) in.*/\1/p' "$log" | tail -1)
if [ -z "$run" ]; then
  echo "demo: error: could not find the stored run id in $log" >&2
  exit 1
fi
mpimark show "$run" --stats
mpimark export "$run" --format markdown -o "results/demo-$stamp.md"
mpimark report "$run" -o "results/demo-$stamp.html"
echo "demo: run $run stored; summary in results/demo-$stamp.md, report in results/demo-$stamp.html"
