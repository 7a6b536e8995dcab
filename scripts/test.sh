#!/usr/bin/env bash
# The project's test command (.ci/run runs exactly this): set up, then the
# core's CTest tests and the Python tests. Both always run, so one failure
# does not hide the other; the exit status is non-zero if either failed.
#
#   bash scripts/test.sh                 everything CI runs (about 11 minutes on 2 cores)
#   bash scripts/test.sh --quick         CTest and the tests that need no MPI, network,
#                                        browser or minutes (markers in pyproject.toml)
#   bash scripts/test.sh [--quick] ARGS  ARGS go to pytest (a path, -k EXPR, -x, ...)
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
quick=0
if [ "${1:-}" = "--quick" ]; then
  quick=1
  shift
fi
if [ "$quick" = 1 ]; then
  bash scripts/setup.sh
else
  MPIMARK_SYSTEM_MPIS=1 MPIMARK_CHROMIUM=1 bash scripts/setup.sh
fi
# Host names on loopback addresses for the placement tests (tests/placement);
# without root they skip and say why.
bash scripts/fake-hosts.sh || true
# shellcheck source=/dev/null
. .venv/mpimark-env.sh
# Compiled bytecode kept in .venv (not beside the sources), even where
# PYTHONDONTWRITEBYTECODE is set: without it every `python -m mpimark.cli` the
# tests start compiles the whole package again, and pytest rewrites every test
# module's asserts again (collection 9 s against 4.5 s on 2 loaded cores).
export PYTHONPYCACHEPREFIX=$ROOT/.venv/pycache
unset PYTHONDONTWRITEBYTECODE

status=0
if [ -f build/core/CTestTestfile.cmake ]; then
  # ctest from the same CMake that configured the build.
  "$(dirname "$MPIMARK_CMAKE")/ctest" --test-dir build/core --output-on-failure || status=1
else
  echo "test: no core build (core/CMakeLists.txt missing): CTest skipped" >&2
fi
select=()
[ "$quick" = 1 ] && select=(-m "not (mpi or network or browser or slow)")
# A worker per CPU (pytest-xdist): one worker keeps only one of 2 cores busy,
# the tests' time being mostly Python starting and MPI jobs launching, one at a
# time. Each worker takes whole groups (tests/conftest.py: a file, or the tests
# sharing a session's runs). MPIMARK_TEST_WORKERS=0 runs them in this process.
workers=${MPIMARK_TEST_WORKERS:-$(nproc)}
.venv/bin/python -m pytest -q -n "$workers" --dist loadgroup "${select[@]}" "${@:-tests}" || status=1
exit "$status"
