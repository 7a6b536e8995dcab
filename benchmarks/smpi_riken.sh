#!/usr/bin/env bash
# RIKEN's collective shape (seed 001: 4 ranks per node on a 3-D torus) at RIKEN's process counts, simulated
# with SimGrid SMPI. One benchmark per call, so a run that is too slow can be dropped without losing the others.
#
#   benchmarks/smpi_riken.sh CORE OUTDIR NODES_SHAPE BENCH SIZES ITER [TIMEOUT_S]
#     CORE         mpimark-core built with smpicc (build/smpi/mpimark-core)
#     NODES_SHAPE  4x6x16 (384 nodes, 1,536 ranks) or 16x12x16 (3,072 nodes, 12,288 ranks)
#     SIZES        comma-separated byte counts, e.g. 0,8,128,1024 (written to a -msglen file)
#     ITER         -iter (repetitions per size)
# Writes OUTDIR/<BENCH>-<P>.{jsonl,txt,err,time}. Prints one line: P, bench, wall s, user s, peak KB, exit code.
set -u
if [ $# -lt 6 ]; then
  echo "usage: $0 CORE OUTDIR NODES_SHAPE BENCH SIZES ITER [TIMEOUT_S]  (e.g. build/smpi/mpimark-core out 4x6x16 Allreduce 0,8,1024 2)" >&2
  exit 2
fi
core=$1 out=$2 shape=$3 bench=$4 sizes=$5 iter=$6 limit=${7:-900}
here=$(cd "$(dirname "$0")/.." && pwd)
py=$here/.venv/bin/python
[ -x "$core" ] || { echo "$0: core '$core' is not an executable; build it with smpicc (scripts/setup.sh builds build/smpi)" >&2; exit 2; }
command -v smpirun >/dev/null || { echo "$0: smpirun not found; apt-get install libsimgrid-dev" >&2; exit 2; }
mkdir -p "$out"
# The platform from the front end (H3's generator: same bytes, same numbers as `--platform torus:AxBxC`).
plat=$(PYTHONPATH=$here/src "$py" -c "from mpimark.execution.platforms import resolve; print(resolve('torus:$shape').path)") || exit 2
nodes=$(PYTHONPATH=$here/src "$py" -c "from mpimark.execution.platforms import resolve; print(resolve('torus:$shape').host_count)")
P=$((nodes * 4))
hosts=$out/hosts-$shape.txt
# RIKEN: 4 processes per node; the hostfile lists each node 4 times in a row (ranks 4k..4k+3 share node k).
PYTHONPATH=$here/src "$py" -c "
from mpimark.execution.platforms import resolve
for h in resolve('torus:$shape').host_names(): print(h); print(h); print(h); print(h)" > "$hosts"
tr ',' '\n' <<<"$sizes" > "$out/msglen-$bench-$P.txt"
base=$out/$bench-$P
# Why each flag:
# - coll-selector:mpich, then bcast/allreduce/reduce pinned to MPICH's flat small-message algorithms: SMPI's mpich
#   selector otherwise uses SMP two-level variants whose Comm::init_smp() does a ring allgather (P^2 messages) on
#   every new communicator -- hours at 12,288 ranks (h7 notes, measured).
# - bw/lat factors 1: the platform's numbers are MPI-level (H3, platforms.NETWORK_CFG).
# - simulate-computation:no: time only the network; the host's CPU speed is not A64FX's.
cfg=(--cfg=smpi/simulate-computation:no --cfg=smpi/coll-selector:mpich
     --cfg=smpi/bcast:binomial_tree --cfg=smpi/allreduce:rdb --cfg=smpi/reduce:binomial
     --cfg=smpi/bw-factor:0:1 --cfg=smpi/lat-factor:0:1 --log=root.thres:critical)
# SMPI_EXTRA_CFG: more --cfg words, e.g. for 12,288 ranks (smpirun's dlopen privatization maps 5 segments per rank
# and hits Linux's vm.max_map_count of 65,530 near 6,800 ranks): "--cfg=smpi/privatization:mmap".
read -r -a extra <<<"${SMPI_EXTRA_CFG:-}"
cfg+=("${extra[@]}")
echo "smpirun -platform $plat -hostfile $hosts -np $P ${cfg[*]} $core mpi1 $bench -msglen $out/msglen-$bench-$P.txt -iter $iter -npmin $P -selfcheck off -json $base.jsonl" > "$base.cmd"
# The run record's "simulation.setup" (contract of issue 24: what `mpimark run --mpi smpi` writes), plus the
# collectives pinned here, so the stored run says what was simulated.
export MPIMARK_SIMULATION
MPIMARK_SIMULATION=$(PYTHONPATH=$here/src "$py" -c "
import json, sys
from mpimark.execution.platforms import resolve
print(json.dumps({'platform': resolve('torus:$shape').describe(), 'coll_selector': 'mpich',
                  'collectives': {'bcast': 'binomial_tree', 'allreduce': 'rdb', 'reduce': 'binomial'},
                  'ranks_per_host': 4, 'simulate_computation': False, 'smpirun': sys.argv[1]}))" "$(cat "$base.cmd")") || exit 2
# setsid + kill of the group: smpirun is a shell script and a plain timeout leaves smpimain running.
setsid /usr/bin/time -f "%e %U %M" -o "$base.time" smpirun -platform "$plat" -hostfile "$hosts" -np "$P" "${cfg[@]}" \
  "$core" mpi1 "$bench" -msglen "$out/msglen-$bench-$P.txt" -iter "$iter" -npmin "$P" -selfcheck off \
  -json "$base.jsonl" > "$base.txt" 2> "$base.err" &
pid=$!
end=$((SECONDS + limit))
while kill -0 "$pid" 2>/dev/null; do
  if [ $SECONDS -ge $end ]; then kill -KILL -- "-$pid" 2>/dev/null; echo "timeout after $limit s" >> "$base.err"; fi
  # Never let a simulation push the shared machine into OOM: stop it while 2 GiB are still free.
  avail=$(awk '/^MemAvailable/ {print $2}' /proc/meminfo)
  if [ "$avail" -lt 2097152 ]; then kill -KILL -- "-$pid" 2>/dev/null; echo "killed: MemAvailable ${avail} kB" >> "$base.err"; fi
  sleep 2
done
wait "$pid"; rc=$?
read -r wall user kb < <(tail -1 "$base.time" 2>/dev/null || echo "- - -")
echo "P=$P bench=$bench sizes=$sizes iter=$iter wall_s=$wall user_s=$user peak_KB=$kb rc=$rc load=$(cut -d' ' -f1-3 /proc/loadavg) end=$(date -u +%H:%M:%S)"
