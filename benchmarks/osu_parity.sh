#!/usr/bin/env bash
# Issue 25's benchmark: mpimark-core's osu suite against OSU Micro-Benchmarks 7.4 itself, same MPI,
# same launcher, same OSU options. Every round launches, per test, OSU, then the core, then OSU again
# (interleaved, so drift hits both); benchmarks/osu_parity.py then prints per test and size the median
# over the rounds of the core's figure against the two OSU launches around it, the geometric mean per
# test, both with their 95 % intervals, next to OSU's second launch against its first (OSU's own A/A
# spread, the noise floor) and a verdict. Needs bash and python3 only (no mpimark environment), so that
# benchmarks/osu_device.sh runs it on a machine that has neither.
#
#   bash benchmarks/osu_parity.sh [-rounds N] [-np N] [-tests "latency bw ..."] [-osu DIR] [-core FILE]
#                                 [-launcher "CMD"] [-opts TEST="..."] [-self] [OUTDIR]
#
# -np N: the ranks of the tests that take any count (multi_lat, mbw_mr, the collectives); the others
#   run at OSU's fixed 2. Default 2.
# -osu DIR: an OSU 7.4 tree built by benchmarks/osu_build.sh (default /tmp/osu74, Open MPI).
# -core FILE: the mpimark-core built for the same MPI (default build/h6/mpimark-core, else build/core).
# -launcher "CMD": CMD N PROGRAM ARGS... starts N ranks (default: bash scripts/mpiexec.sh, the mpiexec
#   on PATH with Open MPI's flags). MPICH: -launcher "/usr/bin/mpiexec.hydra -n".
# -opts TEST="OPTIONS": the OSU options of one test, given to both programs (repeatable; replaces the
#   default below). OSU_PARITY_TIMEOUT (s, default 300) bounds every launch.
# -budget S: start nothing that would end after S seconds (the unit before sets the estimate), so a run
#   on a lent machine ends in time with what fits.
# -order rounds|test: rounds of every test in turn (the default: drift over the run hits every test
#   alike), or every round of one test before the next (with -budget: the tests that fit get all their
#   rounds, and so an interval, instead of every test too few).
# -resume: OUTDIR holds rounds of an earlier run (same options): number the new rounds after them, and
#   let the table take all (a run the machine's load cut short, continued later).
# -core-opts "ARGS": mpimark's own options for the core's launches only (-core-opts "-selfcheck off":
#   no self-check before measuring, whose 50 ms busy probe may warm the CPUs OSU starts on cold).
# -self: OSU against OSU (the core's launch is a third OSU launch): the pipeline's own check, which must
#   say "within noise" but for about one row in twenty.
#
# Default options (DEFAULT_OPTS below): OSU's defaults but point to point and one-sided capped at 1 MiB
# (OSU: 4 MiB), and latency_mt with one receiver thread (-t 1:1; OSU's 1:2 runs three spinning threads on
# two vCPUs: milliseconds per message). A round of all 28 tests takes ~4.3 minutes at 2 ranks on the
# 2-vCPU development machine at load 1, most of it Open MPI 4.1.4's start-up (84 launches of >= 2.6 s):
# 6 rounds, the fewest with an interval, ~26 minutes.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ALL_TESTS="latency bw bibw mbw_mr multi_lat latency_mt put_latency get_latency put_bw get_bw put_bibw
  acc_latency fop_latency cas_latency get_acc_latency allreduce bcast alltoall allgather reduce gather
  scatter barrier reduce_scatter iallreduce ibcast ialltoall ibarrier"
# The tests OSU runs at exactly 2 ranks (the others take -np).
TWO_RANKS=" latency bw bibw latency_mt put_latency get_latency put_bw get_bw put_bibw acc_latency fop_latency
  cas_latency get_acc_latency "
declare -A DEFAULT_OPTS=([latency]="-m 1:1048576" [bw]="-m 1:1048576" [bibw]="-m 1:1048576"
  [mbw_mr]="-m 1:1048576" [multi_lat]="-m 1:1048576" [latency_mt]="-t 1:1 -m 1:1048576"
  [put_latency]="-m 1:1048576" [get_latency]="-m 1:1048576" [put_bw]="-m 1:1048576"
  [get_bw]="-m 1:1048576" [put_bibw]="-m 1:1048576" [acc_latency]="-m 1:1048576"
  [get_acc_latency]="-m 1:1048576")
declare -A OPTS=()

ROUNDS=6 BUDGET="" ORDER=rounds RESUME="" CORE_OPTS="" NP=2 TESTS=$ALL_TESTS OSU=/tmp/osu74 CORE="" LAUNCHER="bash $ROOT/scripts/mpiexec.sh" SELF="" OUT=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    -rounds) ROUNDS=$2; shift 2 ;;
    -np) NP=$2; shift 2 ;;
    -budget) BUDGET=$2; shift 2 ;;
    -order) ORDER=$2; shift 2 ;;
    -tests) TESTS=$2; shift 2 ;;
    -osu) OSU=$2; shift 2 ;;
    -core) CORE=$2; shift 2 ;;
    -launcher) LAUNCHER=$2; shift 2 ;;
    -opts) [[ $2 == *=* ]] || { echo "osu_parity.sh: -opts takes TEST=\"OPTIONS\", not '$2'" >&2; exit 2; }
           OPTS[${2%%=*}]=${2#*=}; shift 2 ;;
    -self) SELF=1; shift ;;
    -resume) RESUME=1; shift ;;
    -core-opts) CORE_OPTS=$2; shift 2 ;;
    -h|-help|--help) sed -n '2,37p' "$0"; exit 0 ;;
    -*) echo "osu_parity.sh: unknown option '$1'; see -help" >&2; exit 2 ;;
    *) OUT=$1; shift ;;
  esac
done
[[ $ROUNDS =~ ^[1-9][0-9]*$ ]] || { echo "osu_parity.sh: -rounds needs a positive integer" >&2; exit 2; }
[[ $ORDER == rounds || $ORDER == test ]] || { echo "osu_parity.sh: -order takes rounds or test" >&2; exit 2; }
[[ -z $BUDGET || $BUDGET =~ ^[1-9][0-9]*$ ]] || { echo "osu_parity.sh: -budget needs seconds (a positive integer)" >&2; exit 2; }
[[ $NP =~ ^[1-9][0-9]*$ && $NP -ge 2 ]] || { echo "osu_parity.sh: -np needs an integer >= 2" >&2; exit 2; }
if [[ -z $CORE ]]; then
  CORE=$ROOT/build/h6/mpimark-core
  [[ -x $CORE ]] || CORE=$ROOT/build/core/mpimark-core
fi
[[ -n $SELF || -x $CORE ]] || { echo "osu_parity.sh: no mpimark-core at '$CORE'; build it (cmake) or give -core FILE" >&2; exit 2; }

# OSU's program of a test, wherever osu_build.sh's tree has it.
osu_program() {
  local dir
  for dir in pt2pt/standard one-sided collective/blocking collective/non_blocking; do
    [[ -x $OSU/c/mpi/$dir/osu_$1 ]] && { echo "$OSU/c/mpi/$dir/osu_$1"; return 0; }
  done
  return 1
}
for test in $TESTS; do
  osu_program "$test" >/dev/null || { echo "osu_parity.sh: no osu_$test in $OSU; build OSU with benchmarks/osu_build.sh or give -osu DIR" >&2; exit 2; }
done
OUT=${OUT:-$ROOT/benchmarks/out/osu-parity-$(date -u +%Y%m%d-%H%M%S)}
[[ -z $RESUME || -d $OUT ]] || { echo "osu_parity.sh: -resume needs the OUTDIR of the earlier run" >&2; exit 2; }
mkdir -p "$OUT"
# The first round's number: after the rounds OUTDIR has with -resume.
FIRST=1
if [[ -n $RESUME ]]; then
  FIRST=$(find "$OUT" -name 'r*-core.txt' | sed 's/.*\/r\([0-9]*\)-core.txt/\1/' | sort -n | tail -1)
  FIRST=$(( ${FIRST:-0} + 1 ))
fi
echo $TESTS >"$OUT/tests.txt"  # what was asked, so that the table names the tests -budget left out

# One launch: the table to OUT.txt, stderr to OUT.err, the load average at the launch and the wall time
# to OUT.load. A failed launch (the core without the test, a time-out) leaves its status there too.
launch() {
  local out=$1 np=$2 start rc=0; shift 2
  start=$(date +%s.%N)
  # shellcheck disable=SC2086
  timeout "${OSU_PARITY_TIMEOUT:-300}" $LAUNCHER "$np" "$@" >"$out.txt" 2>"$out.err" || rc=$?
  echo "load $(cut -d' ' -f1-3 /proc/loadavg) wall $(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.2f", e - s }') rc $rc" >"$out.load"
}

say() { printf '%s\n' "$*" >&2; }
LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
AGAINST=$CORE
[[ -z $SELF ]] || AGAINST="itself (-self)"
STARTED=$(date -u '+%Y-%m-%d %H:%M')
say "osu_parity: $ROUNDS round(s), $NP ranks where a test takes any count, ${SELF:+OSU against itself, }output in $OUT"
# One round of one test: OSU, the core (or OSU again with -self), OSU.
one_round() {
  local round=$1 test=$2 np=$NP dir program args
  [[ $TWO_RANKS == *" $test "* ]] && np=2
  dir=$OUT/np$np/$test
  mkdir -p "$dir"
  program=$(osu_program "$test")
  # shellcheck disable=SC2206
  args=(${OPTS[$test]-${DEFAULT_OPTS[$test]-}})
  launch "$dir/r$round-osu" "$np" "$program" "${args[@]}"
  if [[ -n $SELF ]]; then
    launch "$dir/r$round-core" "$np" "$program" "${args[@]}"
  else
    # shellcheck disable=SC2086
    launch "$dir/r$round-core" "$np" "$CORE" osu "$test" "${args[@]}" $CORE_OPTS
  fi
  launch "$dir/r$round-osu2" "$np" "$program" "${args[@]}"
}

# Whether the next unit (a round of every test, or with -order test a round of one test) would end
# after -budget, taking the last unit's time as the next one's.
LAST_UNIT=0
over_budget() {
  [[ -n $BUDGET ]] && (( SECONDS - T0 + LAST_UNIT > BUDGET ))
}

T0=$SECONDS ASKED=$ROUNDS DONE="" tests_done=0
if [[ $ORDER == rounds ]]; then
  for round in $(seq "$FIRST" $((FIRST + ROUNDS - 1))); do
    if over_budget; then
      say "stopping after $((round - FIRST)) round(s): another would end after the -budget of $BUDGET s"
      break
    fi
    say "round $round ($((SECONDS - T0)) s so far)"
    start=$SECONDS
    for test in $TESTS; do one_round "$round" "$test"; done
    LAST_UNIT=$((SECONDS - start)) DONE="rounds $FIRST to $round"
  done
else
  for test in $TESTS; do
    say "$test ($((SECONDS - T0)) s so far)"
    for round in $(seq "$FIRST" $((FIRST + ROUNDS - 1))); do
      if over_budget; then
        say "stopping at $test round $round: it would end after the -budget of $BUDGET s"
        break 2
      fi
      start=$SECONDS
      one_round "$round" "$test"
      LAST_UNIT=$((SECONDS - start)) DONE="rounds $FIRST to $((FIRST + ROUNDS - 1)) of $tests_done test(s), then $test to round $round"
    done
    tests_done=$((tests_done + 1)) DONE="rounds $FIRST to $((FIRST + ROUNDS - 1)) of $tests_done test(s)"
  done
fi

{
  echo "Measured $STARTED to $(date -u '+%H:%M') UTC (${DONE:-nothing} done, $((SECONDS - T0)) s) on $(nproc) CPUs, load average $LOAD_BEFORE before and $(cut -d' ' -f1-3 /proc/loadavg) after, OSU 7.4 ($OSU) against $AGAINST, launched by $LAUNCHER:"
  echo
  echo '```sh'
  printf 'bash benchmarks/osu_parity.sh -rounds %s%s -np %s -osu %s%s%s' "$ASKED" "${BUDGET:+ -budget $BUDGET}$([[ $ORDER == rounds ]] || echo " -order $ORDER")" "$NP" "$OSU" "${SELF:+ -self}" "$([[ -n $SELF ]] || echo " -core $CORE")${RESUME:+ -resume}${CORE_OPTS:+ -core-opts \"$CORE_OPTS\"}"
  [[ $LAUNCHER == "bash $ROOT/scripts/mpiexec.sh" ]] || printf ' -launcher "%s"' "$LAUNCHER"
  for test in "${!OPTS[@]}"; do printf ' -opts %s="%s"' "$test" "${OPTS[$test]}"; done
  [[ $TESTS == "$ALL_TESTS" ]] || printf ' -tests "%s"' "$(echo $TESTS)"
  echo
  echo '```'
  echo
  python3 "$ROOT/benchmarks/osu_parity.py" "$OUT"
} | tee "$OUT/README.md"
