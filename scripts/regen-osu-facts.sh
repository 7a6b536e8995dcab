#!/usr/bin/env bash
# Regenerates src/mpimark/records/peers/osu.json's osu suite from the core's own facts
# (`mpimark-core -list -json`), so the importer and the osu suite share one table of OSU's
# programs; OMB-Py's entries stay as packaged. Run after changing the core's OSU table
# (core/src/suites/osu/osu_tests.c), then read the diff before committing it.
# tests/unit/test_osu_facts.py fails while the two differ.
#
#   bash scripts/regen-osu-facts.sh [CORE]     default: $MPIMARK_CORE, else build/core/mpimark-core
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
# shellcheck source=/dev/null
[ -f .venv/mpimark-env.sh ] && . .venv/mpimark-env.sh
CORE=${1:-${MPIMARK_CORE:-$ROOT/build/core/mpimark-core}}
# A singleton run: the core answers -list -json without a launcher.
"$CORE" -list -json | python -m mpimark.records.peer_facts
