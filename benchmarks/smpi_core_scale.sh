#!/usr/bin/env bash
# The core at scale under SimGrid SMPI (issue 24, benchmarks/README.md "The core at scale"):
# for each rank count N, a flat cluster of N simulated hosts (1 rank per host), one collective
# (Allreduce) and one point-to-point (PingPong) run of an SMPI build of the core, under
# /usr/bin/time -v (the process's peak RSS: every rank lives in that one process) and a wall-clock
# limit. smpi_core_scale.py then reads each stream: bytes of the run record and per result record,
# simulated time outside the timed loops. One simulation at a time: they are CPU-heavy.
#
#   benchmarks/smpi_core_scale.sh CORE OUTDIR N [N ...]
#   env: LIMIT_S (per simulation, default 1800), MSGLOG (default 0:10), ITER (default 10),
#        EXTRA_CFG (more smpirun --cfg options, e.g. collective algorithms without SMPI's SMP layer:
#        "--cfg=smpi/bcast:binomial_tree --cfg=smpi/allreduce:rdb --cfg=smpi/reduce:binomial"),
#        BENCHES (default "Allreduce PingPong")
set -u
if [ $# -lt 3 ]; then
  echo "usage: $0 CORE OUTDIR N [N ...]  (CORE: an SMPI build of mpimark-core)" >&2
  exit 2
fi
core=$1 out=$2
shift 2
command -v smpirun >/dev/null || { echo "smpirun not found: apt-get install libsimgrid-dev" >&2; exit 2; }
[ -x "$core" ] || { echo "no core at $core: build it with smpicc (docs/simulation.md)" >&2; exit 2; }
limit=${LIMIT_S:-1800} msglog=${MSGLOG:-0:10} iter=${ITER:-10} extra=${EXTRA_CFG:-}
mkdir -p "$out"

platform() { # N -> a SimGrid cluster of N hosts; 10 Gbit/s links, 1 us latency: round numbers, no seed's
  cat <<EOF
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="flat" prefix="node-" suffix="" radical="0-$(($1 - 1))" speed="1Gf"
           bw="1.25GBps" lat="1us" bb_bw="125GBps" bb_lat="0us"/>
</platform>
EOF
}

for n in "$@"; do
  platform "$n" >"$out/flat-$n.xml"
  seq 0 $((n - 1)) | sed 's/^/node-/' >"$out/hosts-$n"
  for b in ${BENCHES:-Allreduce PingPong}; do
    bench="$b -msglog $msglog"
    name=${bench%% *}-$n
    echo "== $name $extra  $(date -u +%FT%TZ)  load $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/log"
    # shellcheck disable=SC2086 # bench holds the benchmark and its options, extra the --cfg options
    timeout "$limit" /usr/bin/time -v -o "$out/$name.time" \
      smpirun -platform "$out/flat-$n.xml" -hostfile "$out/hosts-$n" -np "$n" \
      --cfg=smpi/simulate-computation:no --cfg=smpi/coll-selector:mpich --log=root.thres:critical $extra \
      "$core" mpi1 $bench -iter "$iter" -npmin "$n" -selfcheck off -json "$out/$name.jsonl" \
      >"$out/$name.out" 2>"$out/$name.err"
    echo "   exit $?  $(grep -E 'Maximum resident|Elapsed' "$out/$name.time" 2>/dev/null | tr -s ' \t' ' ' | tr '\n' ';')" |
      tee -a "$out/log"
  done
done
