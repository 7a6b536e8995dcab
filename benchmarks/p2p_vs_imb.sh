#!/usr/bin/env bash
# IMB-P2P (the Intel MPI wheel's) and mpimark-core p2p (built for the same
# Intel MPI) launched in turn, ROUNDS times each, at N processes; prints per
# benchmark and size the median t[usec] of IMB's and of ours. By hand, on a
# quiet machine: `mpimark mpi install impi` first.
#   bash benchmarks/p2p_vs_imb.sh [N] [ROUNDS] [benchmarks and IMB-P2P options...]
set -euo pipefail
cd "$(dirname "$0")/.."
. .venv/mpimark-env.sh
n=${1:-2}; rounds=${2:-3}; shift $(( $# < 2 ? $# : 2 ))
args=("$@")
[ ${#args[@]} -gt 0 ] || args=(PingPong Birandom Corandom -msglog 0:12 -iter 2000,100 -pause 0)
read -r prefix core < <(python3 - <<'PY'
import mpimark.cli  # installs the core's facts
from mpimark.execution import build, mpi
impi = next((i for i in mpi.discover()[0] if i.kind == "impi"), None)
if impi is None:
    raise SystemExit("no Intel MPI wheel: run 'mpimark mpi install impi' first")
print(impi.prefix, build.ensure_core(impi))
PY
)
export I_MPI_ROOT=$prefix LD_LIBRARY_PATH=$prefix/lib FI_PROVIDER_PATH=$prefix/lib I_MPI_FABRICS=shm
out=$(mktemp -d)
for k in $(seq "$rounds"); do
  "$prefix/bin/mpiexec" -n "$n" "$prefix/bin/IMB-P2P" "${args[@]}" > "$out/imb_$k.txt"
  "$prefix/bin/mpiexec" -n "$n" "$core" p2p "${args[@]}" > "$out/ours_$k.txt"
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$out" "$rounds" <<'PY'
import statistics, sys
sys.path.insert(0, "tests")
from suites import ptpmt_text
out, rounds = sys.argv[1], int(sys.argv[2])
runs = {who: [ptpmt_text.parse(open(f"{out}/{who}_{k}.txt").read()) for k in range(1, rounds + 1)]
        for who in ("imb", "ours")}
print("| benchmark | bytes | IMB-P2P t [usec] | mpimark t [usec] |\n|---|---:|---:|---:|")
for table in runs["imb"][0].tables:
    for i, row in enumerate(table.rows):
        med = {who: statistics.median(float(r.table(table.name).rows[i][2]) for r in runs[who]) for who in runs}
        print(f"| {table.name} | {row[0]} | {med['imb']:.2f} | {med['ours']:.2f} |")
PY
rm -r "$out"
