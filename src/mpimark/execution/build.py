"""The core, built with CMake once per MPI implementation, out of tree.

Each implementation gets its own build directory under the user cache
(`<cache>/build/<name>-<hash>/`, the hash over its mpicc, its library version
and the source directory), because a binary links one MPI library and
FindMPI keeps the first MPI it found in the CMake cache. A stamp file there
holds the implementation and a hash of the core's sources; when both match,
the existing binary is used without running CMake at all, and when either
changed it is rebuilt.

The sources are the repository's core/ (the package is installed editable,
so the repository is found from this file), or $MPIMARK_SOURCE.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from mpimark.errors import MpimarkError
from mpimark.execution.core import REPO_ROOT
from mpimark.execution.mpi import MpiImpl, SMPI
from mpimark.paths import cache_dir

CORE_BINARY = "mpimark-core"
STAMP = "mpimark-build.json"
LOG = "build.log"
# Every file CMake reads to build the core.
SOURCE_SUFFIXES = (".c", ".h", ".cmake")
SOURCE_NAMES = ("CMakeLists.txt",)
CMAKE_PIN = "cmake==3.31.10"  # as scripts/setup.sh


class BuildError(MpimarkError):
    """The core cannot be built: no cmake, no compiler, or the build failed."""


def source_dir() -> Path:
    """The core's source directory: $MPIMARK_SOURCE (core/ or the checkout holding it), else the repo's core/."""
    override = os.environ.get("MPIMARK_SOURCE")
    base = Path(override).expanduser() if override else REPO_ROOT / "core"
    for candidate in (base, base / "core"):
        if (candidate / "CMakeLists.txt").is_file():
            return candidate.resolve()
    fix = "fix MPIMARK_SOURCE" if override else "set MPIMARK_SOURCE"
    raise BuildError(f"no core sources at {base} (no CMakeLists.txt); "
                     f"{fix} to the core/ directory of an mpimark checkout")


def sources_hash(source: Path) -> str:
    """sha256 over the relative path and content of every source file."""
    digest = hashlib.sha256()
    for path in sorted(_source_files(source)):
        digest.update(str(path.relative_to(source)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def _source_files(source: Path) -> Iterator[Path]:
    for root, dirs, files in os.walk(source):
        # An in-source build tree holds generated .c files (CMakeCCompilerId.c) that are not sources.
        dirs[:] = [d for d in dirs if not d.startswith(".") and not (Path(root, d) / "CMakeCache.txt").exists()]
        for name in files:
            if name in SOURCE_NAMES or name.endswith(SOURCE_SUFFIXES):
                yield Path(root, name)


def build_dir(impl: MpiImpl, source: Path) -> Path:
    key = "\0".join((os.path.realpath(impl.mpicc), impl.library_version, str(source)))
    return cache_dir() / "build" / f"{impl.name}-{hashlib.sha256(key.encode()).hexdigest()[:12]}"


def ensure_core(impl: MpiImpl, log: Callable[[str], None] = lambda line: None) -> Path:
    """The path of the core built for impl, building it first if it is missing or stale.

    log gets one line when a build starts (the build's own output goes to build.log).
    """
    source = source_dir()
    directory = build_dir(impl, source)
    binary = directory / CORE_BINARY
    stamp = {"mpicc": impl.mpicc, "library_version": impl.library_version, "source": str(source),
             "sources_sha256": sources_hash(source)}
    directory.mkdir(parents=True, exist_ok=True)
    with _locked(directory):  # two mpimark runs must not build into one directory at once
        if binary.is_file() and _read_stamp(directory) == stamp:
            return binary
        cmake = _cmake()
        setup_build = _setup_build_for(impl, source)
        if setup_build is not None and _adopt(cmake, setup_build, directory, impl, log):
            (directory / STAMP).write_text(json.dumps(stamp, indent=1), encoding="utf-8")
            return binary
        log(f"building the core for {impl.name} in {directory}")
        (directory / STAMP).unlink(missing_ok=True)  # an interrupted build must not look finished
        env = {**os.environ, **impl.env}
        if not (directory / "CMakeCache.txt").exists():
            _step([cmake, "-S", str(source), "-B", str(directory), *_compiler_flags(impl),
                   "-DCMAKE_BUILD_TYPE=Release", "-DBUILD_TESTING=OFF"], env, directory,
                  f"cannot configure the core for {impl.name}")
        _step([cmake, "--build", str(directory), "--parallel", str(os.cpu_count() or 1)], env, directory,
              f"cannot build the core for {impl.name}")
        if not binary.is_file():
            raise BuildError(f"the build for {impl.name} made no {binary}; see {directory / LOG}")
        (directory / STAMP).write_text(json.dumps(stamp, indent=1), encoding="utf-8")
    return binary


def _compiler_flags(impl: MpiImpl) -> list[str]:
    """CMake's compiler options for impl: its mpicc for FindMPI; SimGrid's smpicc as the C compiler too.

    SMPI runs every rank in smpirun's process: the core must be a position-independent object that
    smpirun loads and privatizes, which only smpicc's own link makes. With smpicc only as FindMPI's
    wrapper, the core links but smpirun refuses it ("cannot dynamically load position-independent
    executable").
    """
    flags = [f"-DMPI_C_COMPILER={impl.mpicc}"]
    if impl.kind == SMPI:
        flags.insert(0, f"-DCMAKE_C_COMPILER={impl.mpicc}")
    return flags


def _setup_build_for(impl: MpiImpl, source: Path) -> Path | None:
    """The repository's build/core (scripts/setup.sh's; build/smpi for SimGrid SMPI), when it was
    configured from source for impl's mpicc.

    Then the core is built once on a fresh machine: setup's build is brought up
    to date and its binary copied into the cache, instead of a second build.
    """
    tree = REPO_ROOT / "build" / ("smpi" if impl.kind == SMPI else "core")
    try:
        cache = (tree / "CMakeCache.txt").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    compiler = re.search(r"^MPI_C_COMPILER:[A-Z]+=(.+)$", cache, re.M)
    home = re.search(r"^CMAKE_HOME_DIRECTORY:[A-Z]+=(.+)$", cache, re.M)
    if not (compiler and home) or os.path.realpath(home.group(1)) != str(source):
        return None
    if os.path.realpath(compiler.group(1)) != os.path.realpath(impl.mpicc):
        return None
    return tree


def _adopt(cmake: str, tree: Path, directory: Path, impl: MpiImpl, log: Callable[[str], None]) -> bool:
    """Bring setup's build up to date and copy its core into directory; False (build anew) if that fails."""
    with _locked(tree), open(directory / LOG, "a", encoding="utf-8") as out:  # one build of the tree at a time
        argv = [cmake, "--build", str(tree), "--target", CORE_BINARY, "--parallel", str(os.cpu_count() or 1)]
        out.write(f"$ {' '.join(argv)}\n")
        out.flush()
        try:
            done = subprocess.run(argv, env={**os.environ, **impl.env}, stdout=out, stderr=subprocess.STDOUT)
        except OSError:
            return False
    built = tree / CORE_BINARY
    if done.returncode != 0 or not built.is_file():
        return False
    scratch = directory / f".{CORE_BINARY}.{os.getpid()}"
    shutil.copy2(built, scratch)
    scratch.replace(directory / CORE_BINARY)
    log(f"using the core scripts/setup.sh built for {impl.name} ({tree})")
    return True


def _cmake() -> str:
    # $MPIMARK_CMAKE is what scripts/setup.sh chose; a pip-installed cmake sits in sys.prefix/bin.
    found = (os.environ.get("MPIMARK_CMAKE") or shutil.which("cmake")
             or shutil.which("cmake", path=str(Path(sys.prefix, "bin"))))
    if not found:
        raise BuildError(f"cmake not found; install it (apt-get install cmake, or pip install {CMAKE_PIN})")
    return found


def _step(argv: list[str], env: dict[str, str], directory: Path, what: str) -> None:
    with open(directory / LOG, "a", encoding="utf-8") as log:
        log.write(f"$ {' '.join(argv)}\n")
        log.flush()
        try:
            done = subprocess.run(argv, env=env, stdout=log, stderr=subprocess.STDOUT)
        except OSError as exc:
            raise BuildError(f"{what}: {argv[0]}: {exc.strerror}") from None
    if done.returncode != 0:
        text = (directory / LOG).read_text(encoding="utf-8", errors="replace")
        raise BuildError(f"{what}: {_first_error(text)} (full log: {directory / LOG})")


def _first_error(log: str) -> str:
    """The line of a CMake or compiler log that says what went wrong."""
    lines = [line.strip() for line in log.splitlines() if line.strip()]
    for i, line in enumerate(lines):
        if re.search(r"error:|Could NOT find|No such file", line):
            return line
        if line.startswith("CMake Error"):  # "CMake Error at X:14 (find_package):" then the reason
            return f"{line} {lines[i + 1]}" if i + 1 < len(lines) else line
    return lines[-1] if lines else "no output"


def _read_stamp(directory: Path) -> dict | None:
    try:
        return json.loads((directory / STAMP).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


@contextmanager
def _locked(directory: Path) -> Iterator[None]:
    with open(directory / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield
