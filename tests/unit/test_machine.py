"""The launching host's facts stored with each run (execution/machine.py)."""

from __future__ import annotations

import json

from mpimark.execution import machine


def test_facts_of_this_host(tmp_path):
    (tmp_path / "CMakeCache.txt").write_text("CMAKE_BUILD_TYPE:STRING=Release\nCMAKE_C_COMPILER:FILEPATH=/usr/bin/cc\n"
                                             "CMAKE_C_FLAGS:STRING=-march=native\n"
                                             "CMAKE_C_FLAGS_RELEASE:STRING=-O3 -DNDEBUG\n")
    (tmp_path / "CMakeFiles" / "3.25.1").mkdir(parents=True)
    (tmp_path / "CMakeFiles" / "3.25.1" / "CMakeCCompiler.cmake").write_text(
        'set(CMAKE_C_COMPILER "/usr/bin/cc")\nset(CMAKE_C_COMPILER_ID "GNU")\nset(CMAKE_C_COMPILER_VERSION "12.2.0")\n')
    found = machine.facts(tmp_path / "mpimark-core")
    assert found["cores_logical"] >= 1 and found["memory_bytes"] > 0 and len(found["load_average"]) == 3
    assert found["core_build"] == {"compiler": "/usr/bin/cc", "build_type": "Release", "flags": "-march=native -O3 -DNDEBUG",
                                   "compiler_id": "GNU 12.2.0"}
    assert machine.facts(tmp_path / "nowhere" / "core")["core_build"] is None


def test_summary_is_one_line():
    found = {"cpu_model": "AMD EPYC 7B13", "sockets": 2, "cores_physical": 64, "cores_logical": 128,
             "memory_bytes": 256 << 30, "interfaces": [{"name": "ib0", "speed_mbps": 100000, "mtu": 4092}],
             "hcas": ["mlx5_0"], "core_build": {"compiler": "/usr/bin/cc", "compiler_id": "GNU 12.2.0", "flags": "-O3"}}
    assert machine.summary(found) == ("AMD EPYC 7B13, 2 sockets, 64 cores (128 threads), 256.0 GiB; NICs ib0 100000 "
                                      "Mb/s; HCAs mlx5_0; core built with /usr/bin/cc (GNU 12.2.0) -O3")


# -- a stored run's facts, whoever recorded them (records/machine.py) --------------------------------------

from mpimark.records import machine as recorded  # noqa: E402

from .cli_helpers import invoke  # noqa: E402
from .records import end_record, result_record, run_record  # noqa: E402

CORE_MACHINE = {"cpu_model": "AMD EPYC 7B13", "sockets": 2, "memory_bytes": 256 << 30, "compiler": "GNU 12.2.0",
                "c_flags": "-O3 -DNDEBUG"}


def _hand_launched(**fields) -> list[dict]:
    """A stream as `srun mpimark-core ... -json` writes it: no machine event of mpimark's."""
    run = run_record() | {"ranks": [{"rank": r, "host": "node1", "cpu": r, "cpus": str(r)} for r in range(2)]}
    return [run | fields, result_record(), end_record()]


def test_a_hand_launched_run_carries_what_the_core_recorded():
    found = recorded.facts(_hand_launched(machine=CORE_MACHINE))
    assert found == {"host": "node1", "CPU model": "AMD EPYC 7B13", "sockets": "2", "cores": "2 online",
                     "memory": "256.0 GiB", "NICs/HCAs": recorded.NOT_RECORDED,
                     "compiler and flags": "GNU 12.2.0 -O3 -DNDEBUG", "binding": "each rank on one CPU (0 | 1)",
                     "load before → after": "0.10 → 1.00"}


def test_facts_nobody_recorded_are_said_to_be_unknown():
    older = _hand_launched()  # a core before the machine object; one rank free to move
    older[0]["ranks"] = [{"rank": r, "host": "node1", "cpu": None, "cpus": "0-1"} for r in range(2)]
    found = recorded.facts(older)
    for name in ("CPU model", "sockets", "memory", "NICs/HCAs", "compiler and flags"):
        assert found[name] == recorded.NOT_RECORDED, name
    assert found["binding"] == "not bound: each rank may use CPUs 0-1"
    assert recorded.facts([])["binding"] == recorded.NOT_RECORDED


def test_mpimark_s_event_fills_in_what_the_core_does_not_see():
    event = {"type": "event", "level": "info", "kind": "machine", "message": "",
             "machine": {"host": "login", "cores_physical": 1, "cores_logical": 2, "interfaces": [
                 {"name": "eth0", "speed_mbps": 10000, "mtu": 1500}], "hcas": ["mlx5_0"], "sockets": 1}}
    records = _hand_launched(machine=CORE_MACHINE)
    found = recorded.facts([records[0], event, *records[1:]])
    assert found["NICs/HCAs"] == "eth0 10000 Mb/s; HCAs mlx5_0" and found["cores"] == "1 physical, 2 online"
    assert found["sockets"] == "2"  # the core's node first


def test_show_of_an_imported_stream_says_its_machine(tmp_path):
    stream = tmp_path / "r.jsonl"
    stream.write_text("".join(json.dumps(r) + "\n" for r in _hand_launched(machine=CORE_MACHINE)))
    assert invoke("import", str(stream), "--db", str(tmp_path / "r.db")).exit_code == 0
    shown = invoke("show", "1", "--db", str(tmp_path / "r.db")).stdout
    line = next(line for line in shown.splitlines() if line.startswith("machine: "))
    assert "CPU model: AMD EPYC 7B13" in line and "NICs/HCAs: not recorded" in line
    assert "binding: each rank on one CPU (0 | 1)" in line
