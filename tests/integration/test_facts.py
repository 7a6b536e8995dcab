"""The core's benchmark facts (`mpimark-core [SUITE] -list -json`, the run
record's `benchmark_facts`, docs/results-format.md): valid against the
schema, the same names and defaults as the core's own `-list`, the columns
IMB's layout rules give, and the same facts in a run record as in -list.
Whether the text tables show those columns is tested wherever a run is
parsed (imbtext derives the expected columns from these facts)."""

from __future__ import annotations

import json
import subprocess

import jsonschema
import pytest

from . import imbtext
from .conftest import CORE, ROOT, core_stderr_lines, error_lines, load_env, run_core

SCHEMA = json.loads((ROOT / "src" / "mpimark" / "records" / "schema" / "results-v1.schema.json").read_text())


def singleton(*args: str) -> subprocess.CompletedProcess:
    """The core without a launcher, as the front end asks it."""
    load_env()
    return subprocess.run([str(CORE), *args], capture_output=True, text=True, timeout=60)


def text_list(suite: str | None) -> dict[str, list[tuple[str, bool]]]:
    """The core's `-list` text: suite -> [(name, default)]."""
    proc = singleton(*([suite] if suite else []), "-list")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[1] == "List of benchmarks:"
    out: dict[str, list[tuple[str, bool]]] = {}
    for line in lines[2:]:
        if not line.startswith(" "):  # IMB's label: "IMB-MPI1:" is suite mpi1
            current = out.setdefault(line.rstrip(":").removeprefix("IMB-").lower(), [])
        elif line.startswith(" " * 8):  # a comment line under the name (IMB-RMA's), not a name
            continue
        else:
            name = line.strip()
            current.append((name.removesuffix(" (non-default)"), not name.endswith("(non-default)")))
    return out


def test_every_suite_valid_and_as_listed():
    proc = singleton("-list", "-json")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.count("\n") == 1  # one JSON line
    doc = json.loads(proc.stdout)
    jsonschema.validate(doc, SCHEMA)
    listed = text_list(None)
    assert [s["name"] for s in doc["suites"]] == list(listed)
    for suite in doc["suites"]:
        in_order = sorted(((b["name"], b["default"]) for b in suite["benchmarks"]), key=lambda e: e[0].lower())
        assert in_order == listed[suite["name"]], suite["name"]  # -list in IMB's alphabetical order
        assert text_list(suite["name"]) == {suite["name"]: listed[suite["name"]]}


@pytest.mark.parametrize("suite", ["mpi1", "nbc", "mpi4", "ext", "rma", "io"])
def test_one_suite_is_its_part_of_all(suite):
    one = json.loads(singleton(suite, "-list", "-json").stdout)
    assert one["suites"] == [imbtext.core_facts()[suite]]


def test_facts_to_a_file(tmp_path):
    target = tmp_path / "facts.json"
    proc = singleton("rma", "-list", "-json", str(target))
    assert proc.returncode == 0 and proc.stdout == "", proc.stderr
    assert json.loads(target.read_text())["suites"] == [imbtext.core_facts()["rma"]]


def test_columns_follow_imbs_layout_rules():
    for suite in imbtext.core_facts().values():
        if suite["kind"] == "osu":
            continue  # OSU's own columns: tests/unit/test_osu_facts.py, tests/suites/test_osu_*.py
        for b in suite["benchmarks"]:
            assert b["columns"] == imbtext.LAYOUT_COLUMNS[b["layout"]], (suite["name"], b["name"])
            if b["class"] == "single" and b["layout"] == "t_bw":
                assert b["layout_multi0"] == "range_bw", b["name"]  # -multi 0 widens single transfers
            else:
                assert b["layout_multi0"] == b["layout"], b["name"]
            assert (b["sizes"] == "none") == (b["layout"] in ("sync", "overlap_sync")), b["name"]


def test_mpi4_is_listed_whatever_the_mpi():
    mpi4 = imbtext.core_facts()["mpi4"]
    assert mpi4["needs_mpi"] == "4.0" and mpi4["benchmarks"]
    # NAME and NAME_pure; IMB-MPI4 leaves Allgather_persist out of its default list (issue 16 item 3)
    assert sum(b["default"] for b in mpi4["benchmarks"]) * 2 == len(mpi4["benchmarks"]) - 2
    assert [b["name"] for b in mpi4["benchmarks"] if b["name"].endswith("_persist") and not b["default"]] == [
        "Allgather_persist"]


def test_run_record_carries_the_suites_facts():
    run = run_core(2, "mpi1", "PingPong,Barrier", "-msglog", "0:1", "-iter", "5", "-time", "5")
    assert run.returncode == 0, run.describe()
    assert run.run_record["benchmark_facts"] == imbtext.core_facts()["mpi1"]
    jsonschema.validate(run.run_record, SCHEMA)


def test_bare_json_needs_list():
    run = run_core(2, "mpi1", "PingPong", "-json", json=False)
    assert run.returncode == 2, run.describe()
    assert error_lines(core_stderr_lines(run.stderr)) == [
        "mpimark-core: error: option -json needs a FILE; only -list -json writes to stdout"]


def test_no_suite_without_list_is_an_error():
    proc = singleton("-npmin", "2")
    assert proc.returncode == 2
    assert "no suite given" in proc.stderr and proc.stderr.count("\n") == 1


def test_the_tools_tables_describe_every_record_their_streams_hold(tmp_path):
    # Every result a tool writes must be a row of its table, or the front end
    # could not tell what the row is (it refuses unknown names).
    doc = json.loads(singleton("-list", "-json").stdout)
    tools = {t["name"]: t for t in doc["tools"]}
    assert set(tools) == {"mpibench", "b_eff", "startup"}
    assert all(t["kind"] == "tool" for t in tools.values())
    assert all(s["kind"] == ("osu" if s["name"] == "osu" else "imb") for s in doc["suites"])
    streams = {"startup": ["startup"], "b_eff": ["beff", "-short", "-test", "-mem", "1", "-out", str(tmp_path / "b")],
               "mpibench": ["mpibench", "-e", "64", "Bcast", "Barrier"]}
    for tool, args in streams.items():
        done = run_core(2, *args)
        assert done.returncode == 0, done.describe()
        records = done.records
        assert records[0]["benchmark_facts"] == tools[tool], tool
        names = {b["name"] for b in tools[tool]["benchmarks"]}
        assert {r["benchmark"] for r in records if r["type"] == "result"} <= names, tool
