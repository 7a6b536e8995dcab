"""The launching host's facts stored with each run (execution/machine.py)."""

from __future__ import annotations

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
