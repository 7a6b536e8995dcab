#!/usr/bin/env bash
# The project's test command (.ci/run runs exactly this): set up, then the
# core's CTest tests and the Python tests. Both always run, so one failure
# does not hide the other; the exit status is non-zero if either failed.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
MPIMARK_SYSTEM_MPIS=1 MPIMARK_CHROMIUM=1 bash scripts/setup.sh
# Host names on loopback addresses for the placement tests (tests/placement);
# without root they skip and say why.
bash scripts/fake-hosts.sh || true
# shellcheck source=/dev/null
. .venv/mpimark-env.sh

status=0
if [ -f build/core/CTestTestfile.cmake ]; then
  # ctest from the same CMake that configured the build.
  "$(dirname "$MPIMARK_CMAKE")/ctest" --test-dir build/core --output-on-failure || status=1
else
  echo "test: no core build (core/CMakeLists.txt missing): CTest skipped" >&2
fi
.venv/bin/python -m pytest -q tests || status=1
exit "$status"
