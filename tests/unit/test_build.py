"""build.py without CMake: subprocess.run is replaced by a fake build."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from mpimark.execution import build
from mpimark.execution.mpi import MpiImpl

IMPL = MpiImpl(name="openmpi", kind="openmpi", vendor="Open MPI", version="4.1.4", standard_version="3.1",
               library_version="Open MPI v4.1.4", mpicc="/usr/bin/mpicc.openmpi", mpiexec="/usr/bin/mpiexec.openmpi",
               prefix="/usr", source="system")


@pytest.fixture
def source(tmp_path, monkeypatch):
    core = tmp_path / "src" / "core"
    (core / "src").mkdir(parents=True)
    (core / "CMakeLists.txt").write_text("project(x C)\n")
    (core / "src" / "main.c").write_text("int main(void) { return 0; }\n")
    (core / "src" / "main.h").write_text("\n")
    monkeypatch.setenv("MPIMARK_SOURCE", str(core))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("MPIMARK_CMAKE", "/usr/bin/cmake")
    return core


class FakeCMake:
    """Records the cmake steps; configuring writes CMakeCache.txt, building writes the binary."""

    def __init__(self, fail: str | None = None) -> None:
        self.calls: list[list[str]] = []
        self.fail = fail

    def __call__(self, argv, env, stdout, stderr):
        self.calls.append(argv)
        if self.fail:
            stdout.write(f"-- Configuring\nCMake Error at CMakeLists.txt:14 (find_package):\n  {self.fail}\n\n")
            return subprocess.CompletedProcess(argv, 1)
        if "-B" in argv:
            Path(argv[argv.index("-B") + 1], "CMakeCache.txt").write_text("")
        else:
            Path(argv[argv.index("--build") + 1], build.CORE_BINARY).write_text("binary")
        return subprocess.CompletedProcess(argv, 0)

    def steps(self) -> list[str]:
        return ["configure" if "-B" in argv else "build" for argv in self.calls]


def test_source_dir_from_the_environment(source, monkeypatch):
    assert build.source_dir() == source
    monkeypatch.setenv("MPIMARK_SOURCE", str(source.parent))  # a checkout holding core/ will do too
    assert build.source_dir() == source
    monkeypatch.setenv("MPIMARK_SOURCE", str(source / "src"))
    with pytest.raises(build.BuildError, match="no core sources at .*; fix MPIMARK_SOURCE"):
        build.source_dir()


def test_default_source_is_the_repository_core(monkeypatch):
    monkeypatch.delenv("MPIMARK_SOURCE", raising=False)
    assert build.source_dir() == Path(__file__).resolve().parents[2] / "core"


def test_sources_hash_follows_content_not_mtime(source):
    first = build.sources_hash(source)
    os.utime(source / "src" / "main.c", (1, 1))
    assert build.sources_hash(source) == first
    (source / "src" / "main.h").write_text("#define X 1\n")
    assert build.sources_hash(source) != first


def test_sources_hash_ignores_other_files_and_build_trees(source):
    first = build.sources_hash(source)
    (source / "README.md").write_text("docs")
    tree = source / "build" / "CMakeFiles"
    tree.mkdir(parents=True)
    (source / "build" / "CMakeCache.txt").write_text("")
    (tree / "CMakeCCompilerId.c").write_text("generated")
    assert build.sources_hash(source) == first


def test_built_once_then_reused_then_rebuilt_after_a_change(source, monkeypatch):
    cmake = FakeCMake()
    monkeypatch.setattr(build.subprocess, "run", cmake)
    said = []
    core = build.ensure_core(IMPL, log=said.append)
    assert core.read_text() == "binary" and core.parent.parent == Path(os.environ["XDG_CACHE_HOME"]) / "mpimark" / "build"
    assert core.parent.name.startswith("openmpi-")
    assert cmake.steps() == ["configure", "build"]
    configure = cmake.calls[0]
    assert configure[1:5] == ["-S", str(source), "-B", str(core.parent)]
    assert {f"-DMPI_C_COMPILER={IMPL.mpicc}", "-DCMAKE_BUILD_TYPE=Release", "-DBUILD_TESTING=OFF"} <= set(configure)
    assert said == [f"building the core for openmpi in {core.parent}"]

    assert build.ensure_core(IMPL) == core
    assert cmake.steps() == ["configure", "build"]  # nothing changed: CMake not even started

    (source / "src" / "main.c").write_text("int main(void) { return 1; }\n")
    assert build.ensure_core(IMPL) == core
    assert cmake.steps() == ["configure", "build", "build"]  # configured already: only built


def test_another_implementation_builds_elsewhere(source, monkeypatch):
    monkeypatch.setattr(build.subprocess, "run", FakeCMake())
    other = MpiImpl(**{**IMPL.__dict__, "name": "mpich", "mpicc": "/usr/bin/mpicc.mpich",
                       "library_version": "MPICH Version:\t4.0.2"})
    assert build.ensure_core(IMPL).parent != build.ensure_core(other).parent


def test_configure_failure_is_one_line_with_the_log(source, monkeypatch):
    monkeypatch.setattr(build.subprocess, "run", FakeCMake(fail="Could NOT find MPI_C (missing: MPI_C_WORKS)"))
    with pytest.raises(build.BuildError) as caught:
        build.ensure_core(IMPL)
    message = str(caught.value)
    assert message.startswith("cannot configure the core for openmpi: CMake Error at CMakeLists.txt:14 "
                              "(find_package): Could NOT find MPI_C (missing: MPI_C_WORKS)")
    assert "\n" not in message and message.endswith("build.log)")


def test_missing_cmake(source, monkeypatch):
    monkeypatch.delenv("MPIMARK_CMAKE")
    monkeypatch.setattr(build.shutil, "which", lambda name, path=None: None)
    with pytest.raises(build.BuildError, match=r"cmake not found; install it \(apt-get install cmake"):
        build.ensure_core(IMPL)


@pytest.mark.parametrize("log, expected", [
    ("a\nCMake Error at CMakeLists.txt:3 (project):\n  No CMAKE_C_COMPILER could be found.\n",
     "CMake Error at CMakeLists.txt:3 (project): No CMAKE_C_COMPILER could be found."),
    ("[ 10%] Building C object\nsrc/main.c:3:1: error: expected ';'\nmake: *** Error 1\n", "src/main.c:3:1: error: expected ';'"),
    ("something odd\nlast words\n", "last words"),
])
def test_first_error(log, expected):
    assert build._first_error(log) == expected
