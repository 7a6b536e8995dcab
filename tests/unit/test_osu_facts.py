"""One table of OSU's facts: the core's osu suite, and records/peers/osu.json its snapshot for imports.

The packaged file must be what scripts/regen-osu-facts.sh writes from the built core
(`mpimark-core -list -json`); when the core's table changes, these tests fail until it is regenerated.
"""

from __future__ import annotations

import copy
import subprocess
import sys
from importlib.resources import files

import pytest

from mpimark.execution.core import benchmark_facts, core_path
from mpimark.records import benchmarks, peer_facts
from mpimark.records.results import validate_record
from mpimark.storage.importers.osu import programs

from .records import run_record


@pytest.fixture(scope="module")
def core_osu() -> dict:
    found = peer_facts.core_suite(benchmark_facts())
    assert found is not None, f"the core at {core_path()} has no osu suite: rebuild it (scripts/setup.sh)"
    return found


def test_the_packaged_table_is_the_cores_osu_suite(core_osu):
    differences = peer_facts.differences(core_osu, peer_facts.packaged())
    assert differences == [], "records/peers/osu.json is not the core's table: bash scripts/regen-osu-facts.sh"


def test_the_packaged_file_is_as_the_script_writes_it():
    text = files("mpimark.records").joinpath(peer_facts.PACKAGED).read_text("utf-8")
    suites = peer_facts.packaged()
    assert peer_facts.dump(suites) == text
    assert [(s["name"], s["kind"], s["runnable"]) for s in suites] == [("osu", "peer", False),
                                                                        ("omb-py", "peer", False)]


def test_the_cores_facts_win_for_the_suite_and_the_importer(core_osu):
    osu = benchmarks.core_catalog().suite("osu")
    assert osu.title == core_osu["title"] and not osu.tool and "osu" in benchmarks.suite_names()
    latency = programs()["osu mpi latency test"]
    assert dict(latency.facts) == {k: tuple(v) if isinstance(v, list) else v
                                   for k, v in next(b for b in core_osu["benchmarks"]
                                                    if b["name"] == "osu_latency").items()}
    # OMB-Py's programs, which the core does not describe, still come from the packaged file.
    assert programs()["omb python mpi latency test"].suite == "omb-py"


def test_the_cores_osu_facts_pass_the_schema_in_a_run_record(core_osu):
    validate_record({**run_record(), "suite": "osu", "benchmark_facts": core_osu})


def test_a_snapshot_replaces_the_osu_suite_only_and_says_what_changed():
    kept = peer_facts.packaged()
    core = {**copy.deepcopy(kept[0]), "kind": "osu", "runnable": True}
    next(b for b in core["benchmarks"] if b["name"] == "osu_latency")["fixed_processes"] = 3
    core["benchmarks"].append({**core["benchmarks"][1], "name": "osu_new"})
    assert peer_facts.differences(core, kept) == ["osu_new: only in the core",
                                                  "osu_latency fixed_processes: core 3, packaged 2"]
    written = peer_facts.snapshot(core, kept)
    assert [s["name"] for s in written] == ["osu", "omb-py"] and written[1] == kept[1]
    assert (written[0]["kind"], written[0]["runnable"]) == ("peer", False)
    assert peer_facts.differences(core, written) == []


def test_the_regeneration_refuses_facts_without_an_osu_suite(tmp_path):
    target = tmp_path / "osu.json"
    done = subprocess.run([sys.executable, "-m", "mpimark.records.peer_facts", str(target)],
                          input='{"type": "benchmark_facts", "suites": []}', capture_output=True, text=True)
    assert done.returncode == 2 and not target.exists()
    assert done.stderr.strip().splitlines() == ["peer_facts: the core's facts have no osu suite; "
                                                "build a core with the osu suite"]
