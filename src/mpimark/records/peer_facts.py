"""records/peers/osu.json as a snapshot of the core's osu suite: one table of OSU's facts.

The core's osu suite (`mpimark-core -list -json`) describes every MPI
program of OMB 7.4's C tree, those it runs and those it only knows for
imports. The packaged file keeps a copy of that suite, so that `mpimark
import` reads OSU's text without a built core, plus OMB-Py's programs, which
the core does not describe (their entries stay as packaged). The copy is
made here, never by hand:

    "$CORE" -list -json | python -m mpimark.records.peer_facts   (scripts/regen-osu-facts.sh)

and tests/unit/test_osu_facts.py fails when the copy and the core differ.
"""

from __future__ import annotations

import json
import sys
from importlib.resources import files
from pathlib import Path

from mpimark.records import osu_columns

SUITE = osu_columns.SUITE  # the core's suite whose facts the file copies
PACKAGED = "peers/osu.json"
# The packaged suite is not a suite of the command line: `mpimark run` takes the core's.
PACKAGED_HEADER = {"kind": "peer", "runnable": False}


def packaged() -> list[dict]:
    """The suites of the packaged file, as stored."""
    return json.loads(files("mpimark.records").joinpath(PACKAGED).read_text("utf-8"))


def core_suite(facts: dict | list[dict]) -> dict | None:
    """The osu suite of the core's facts (its -list -json document, or its list of suites); None without one."""
    suites = facts.get("suites", []) if isinstance(facts, dict) else facts
    return next((s for s in suites if s.get("name") == SUITE), None)


def snapshot(core: dict, kept: list[dict]) -> list[dict]:
    """The packaged suites with the osu suite replaced by the core's (marked as a peer table), the others kept."""
    copied = {**core, **PACKAGED_HEADER}
    return [copied if suite["name"] == SUITE else suite for suite in kept]


def differences(core: dict, kept: list[dict]) -> list[str]:
    """What differs between the core's osu suite and the packaged copy, one line each (none: the same table)."""
    copy = next((s for s in kept if s["name"] == SUITE), None)
    if copy is None:
        return [f"{PACKAGED} has no {SUITE} suite"]
    found = []
    for key in sorted((set(core) | set(copy)) - {"benchmarks", *PACKAGED_HEADER}):
        if core.get(key) != copy.get(key):
            found.append(f"suite {key}: core {core.get(key)!r}, packaged {copy.get(key)!r}")
    theirs = {b["name"]: b for b in core["benchmarks"]}
    ours = {b["name"]: b for b in copy["benchmarks"]}
    found += [f"{name}: only in the core" for name in theirs if name not in ours]
    found += [f"{name}: only in {PACKAGED}" for name in ours if name not in theirs]
    for name in sorted(theirs.keys() & ours.keys()):
        for key in sorted(set(theirs[name]) | set(ours[name])):
            if theirs[name].get(key, "<none>") != ours[name].get(key, "<none>"):
                found.append(f"{name} {key}: core {theirs[name].get(key, '<none>')!r}, "
                             f"packaged {ours[name].get(key, '<none>')!r}")
    if not found and [b["name"] for b in core["benchmarks"]] != [b["name"] for b in copy["benchmarks"]]:
        found.append("the programs are in another order")
    return found


def dump(suites: list[dict]) -> str:
    """The file's text: as the packaged file is written (one-space indent, UTF-8, final newline)."""
    return json.dumps(suites, indent=1, ensure_ascii=False) + "\n"


def main(argv: list[str]) -> int:
    """Read the core's -list -json on stdin and write the snapshot over the packaged file (or to argv[0])."""
    core = core_suite(json.load(sys.stdin))
    if core is None:
        print(f"peer_facts: the core's facts have no {SUITE} suite; build a core with the osu suite",
              file=sys.stderr)
        return 2
    target = Path(argv[0]) if argv else Path(str(files("mpimark.records").joinpath(PACKAGED)))
    changes = differences(core, packaged())
    target.write_text(dump(snapshot(core, packaged())), encoding="utf-8")
    print(f"{target}: {len(changes)} difference(s) from the core's facts written"
          + "".join(f"\n  {line}" for line in changes[:20]), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
