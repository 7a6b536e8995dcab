#!/usr/bin/env bash
# scripts/mpiexec.sh N PROGRAM [ARGS...]: start N ranks with the launcher of
# the MPI that scripts/setup.sh chose, adding the flags that MPI needs on this
# machine. Tests and the demo launch through here, so launcher quirks live in
# one place.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ENV_FILE=$ROOT/.venv/mpimark-env.sh
# shellcheck source=/dev/null
if [ -f "$ENV_FILE" ]; then . "$ENV_FILE"; fi  # else: the mpiexec on PATH

if [ $# -lt 2 ] || ! [[ $1 =~ ^[1-9][0-9]*$ ]]; then
  echo "mpiexec.sh: error: usage: scripts/mpiexec.sh N PROGRAM [ARGS...] with N >= 1" >&2
  exit 2
fi
ranks=$1
shift
if ! command -v mpiexec >/dev/null; then
  echo "mpiexec.sh: error: no mpiexec on PATH; run scripts/setup.sh" >&2
  exit 127
fi

# Open MPI gives one slot per physical core (not per hardware thread), within
# the CPUs this process may use; count the same way.
cores() {
  local online physical
  online=$(nproc)
  physical=$(lscpu -p=core,socket 2>/dev/null | grep -v '^#' | sort -u | wc -l || true)
  if [ "${physical:-0}" -gt 0 ] && [ "$physical" -lt "$online" ]; then
    echo "$physical"
  else
    echo "$online"
  fi
}

flags=()
case "$(mpiexec --version 2>&1 || true)" in
  *"Open MPI"* | *OpenRTE*)
    if [ "$ranks" -gt "$(cores)" ]; then flags+=(--oversubscribe); fi
    if [ "$(id -u)" = 0 ]; then flags+=(--allow-run-as-root); fi
    ;;
  *) ;; # MPICH and Intel MPI (Hydra): plain mpiexec -n N
esac
exec mpiexec "${flags[@]}" -n "$ranks" "$@"
