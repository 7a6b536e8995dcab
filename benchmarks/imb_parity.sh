#!/usr/bin/env bash
# Issue 16's benchmark: mpimark's core against IMB itself, same library, same command line. The Intel
# MPI wheel (`mpimark mpi install impi`) ships IMB-MPI1, IMB-NBC and IMB-RMA; the core is built for
# the same Intel MPI (mpimark.execution.build.ensure_core, as `mpimark run --mpi impi-wheel` does).
# Every round launches, per suite and rank count, IMB, then the core, then IMB again (interleaved, so
# drift hits both); benchmarks/imb_parity.py then prints per benchmark the median over the rounds of
# the core's time against the two IMB launches around it (geometric mean over the sizes), with its 95 %
# interval, next to IMB's second launch against its first (the noise floor), and a verdict. Reduce_scatter is in the default set (IMB 2019+'s definition on both sides).
# Every launch runs with I_MPI_DEBUG=4: Intel MPI's pinning table goes to r<N>-<program>.pin next to
# the output (with the load average at the launch), and the table ends with the pinning maps seen.
#
#   bash benchmarks/imb_parity.sh [-rounds N] [-np "2 4"] [-msglog MIN:MAX] [-suites "mpi1 nbc rma"]
#                                 [-bench "PingPong Allreduce"] [-core FILE] [OUTDIR]
#
# Defaults: 12 rounds (a median's 95 % interval needs 6, and 9 to be narrower than the range), 2 and 4
# ranks, IMB's default sizes (-msglog 0:22), every benchmark of the suites' default sets and every
# other IMB default: on the 2-vCPU development machine several hours;
# run it on a quiet machine (the load average is printed with the table). -bench names benchmarks
# (given to both programs; with several suites, name benchmarks of each). Many short rounds of a few
# benchmarks show whether single launches are bimodal: -rounds 20 -bench "PingPong Allreduce".
# -core FILE runs that mpimark-core (built for the same Intel MPI) instead of mpimark's own build,
# to compare a variant against IMB. -probe runs benchmarks/vcpu_probe.c (CPUs 0 and 1: a cache line's
# round trip, a 4 MiB cross-CPU copy) before and after every launch into its .pin file, so that
# benchmarks/parity_launches.py can set a launch's level beside the machine's state around it.
# Smoke test: -rounds 1 -np 2 -msglog 0:4 (measures nothing).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck disable=SC1091
. "$ROOT/.venv/mpimark-env.sh"
ROUNDS=12 NPS="2 4" MSGLOG="" SUITES="mpi1 nbc rma" BENCH="" CORE_GIVEN="" OUT="" PROBE=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    -rounds) ROUNDS=$2; shift 2 ;;
    -np) NPS=$2; shift 2 ;;
    -msglog) MSGLOG=$2; shift 2 ;;
    -suites) SUITES=$2; shift 2 ;;
    -bench) BENCH=$2; shift 2 ;;
    -core) CORE_GIVEN=$2; shift 2 ;;
    -probe) PROBE=1; shift ;;
    -h|-help|--help) sed -n '2,25p' "$0"; exit 0 ;;
    -*) echo "imb_parity.sh: unknown option '$1'; see -help" >&2; exit 2 ;;
    *) OUT=$1; shift ;;
  esac
done
[[ $ROUNDS =~ ^[1-9][0-9]*$ ]] || { echo "imb_parity.sh: -rounds needs a positive integer" >&2; exit 2; }
OUT=${OUT:-$ROOT/benchmarks/out/imb-parity-$(date -u +%Y%m%d-%H%M%S)}
mkdir -p "$OUT"
if [[ -n $PROBE ]]; then
  PROBE=$OUT/vcpu_probe
  if ! cc -O2 -pthread -o "$PROBE" "$ROOT/benchmarks/vcpu_probe.c"; then
    echo "imb_parity.sh: cannot build benchmarks/vcpu_probe.c with cc; leave out -probe or install a C compiler" >&2
    exit 2
  fi
fi

# The wheel's launcher, environment and IMB directory, and the core built for it.
SETUP=$(python3 - <<'EOF'
import shlex
from mpimark.execution import build, mpi
impl = next((i for i in mpi.discover()[0] if i.kind == "impi"), None)
if impl is None:
    raise SystemExit("imb_parity.sh: no Intel MPI; install its wheel with `mpimark mpi install impi`")
print(f"MPIEXEC={shlex.quote(impl.mpiexec)}")
print(f"CORE={shlex.quote(str(build.ensure_core(impl)))}")
for key, value in impl.env.items():
    print(f"export {key}={shlex.quote(value)}")
EOF
)
eval "$SETUP"
if [[ -n $CORE_GIVEN ]]; then
  [[ -x $CORE_GIVEN ]] || { echo "imb_parity.sh: -core '$CORE_GIVEN' is not an executable; give an mpimark-core built for Intel MPI" >&2; exit 2; }
  CORE=$CORE_GIVEN
fi
BIN=$(dirname "$MPIEXEC")
declare -A PROGRAM=([mpi1]=IMB-MPI1 [nbc]=IMB-NBC [rma]=IMB-RMA)
ARGS=()
[[ -n $MSGLOG ]] && ARGS=(-msglog "$MSGLOG")
# shellcheck disable=SC2206
[[ -n $BENCH ]] && ARGS+=($BENCH)

# One launch: IMB's table to OUT.txt, Intel MPI's startup lines (I_MPI_DEBUG=4 prints them on stdout,
# "[0] MPI startup(): ...") and the load average to OUT.pin.
launch() {
  local out=$1 np=$2; shift 2
  echo "load average at launch: $(cut -d' ' -f1-3 /proc/loadavg)" >"$out.pin"
  [[ -z $PROBE ]] || echo "before: $("$PROBE" 0 1)" >>"$out.pin"
  I_MPI_DEBUG=4 "$MPIEXEC" -n "$np" "$@" | awk -v pin="$out.pin" '/^\[[0-9]+\] MPI startup/ { print >>pin; next } { print }' >"$out.txt"
  [[ -z $PROBE ]] || echo "after: $("$PROBE" 0 1)" >>"$out.pin"
}

say() { printf '%s\n' "$*" >&2; }
say "imb_parity: $ROUNDS round(s), ranks $NPS, suites $SUITES, ${ARGS[*]:-IMB defaults}; output in $OUT"
LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
for round in $(seq 1 "$ROUNDS"); do
  for np in $NPS; do
    for suite in $SUITES; do
      dir="$OUT/np$np/$suite"
      mkdir -p "$dir"
      say "round $round, $np ranks, $suite"
      launch "$dir/r$round-imb" "$np" "$BIN/${PROGRAM[$suite]}" "${ARGS[@]}"
      launch "$dir/r$round-core" "$np" "$CORE" "$suite" "${ARGS[@]}"
      launch "$dir/r$round-imb2" "$np" "$BIN/${PROGRAM[$suite]}" "${ARGS[@]}"
    done
  done
done

{
  echo "Measured $(date -u '+%Y-%m-%d %H:%M') UTC, load average $LOAD_BEFORE before and $(cut -d' ' -f1-3 /proc/loadavg) after:"
  echo
  echo '```sh'
  echo "bash benchmarks/imb_parity.sh -rounds $ROUNDS -np \"$NPS\" ${MSGLOG:+-msglog $MSGLOG }-suites \"$SUITES\"${BENCH:+ -bench \"$BENCH\"}${CORE_GIVEN:+ -core $CORE_GIVEN}${PROBE:+ -probe}"
  echo '```'
  echo
  python3 "$ROOT/benchmarks/imb_parity.py" "$OUT"
} | tee "$OUT/README.md"
