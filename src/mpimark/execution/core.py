"""Where the built core (mpimark-core) is, and what benchmarks it has."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
from pathlib import Path

from mpimark.errors import MpimarkError
from mpimark.paths import cache_dir

# src/mpimark/execution/core.py -> the repository root (an editable install runs from here).
REPO_ROOT = Path(__file__).resolve().parents[3]
DEFAULT_CORE = REPO_ROOT / "build" / "core" / "mpimark-core"


def core_path() -> Path:
    """$MPIMARK_CORE if set, else the CMake build in the repository.

    Raises FileNotFoundError with the fix in the message when it is not built.
    """
    override = os.environ.get("MPIMARK_CORE")
    path = Path(override) if override else DEFAULT_CORE
    if not (path.is_file() and os.access(path, os.X_OK)):
        fix = "fix MPIMARK_CORE" if override else "run scripts/setup.sh to build it"
        raise FileNotFoundError(f"no mpimark-core executable at {path}; {fix}")
    return path


class FactsError(MpimarkError):
    """The core cannot say what benchmarks it has."""


def benchmark_facts(path: Path | None = None) -> list[dict]:
    """The facts of every suite (`mpimark-core -list -json`, docs/results-format.md).

    The core is asked as a singleton (no launcher: Open MPI and MPICH both
    allow it), once per build: the answer is cached under the cache directory,
    keyed by the executable's path, size and modification time.
    """
    try:
        core = path or core_path()
    except FileNotFoundError as exc:
        raise FactsError(f"cannot know the benchmarks: {exc}") from None
    stat = core.stat()
    key = hashlib.sha256(f"{core.resolve()}\0{stat.st_size}\0{stat.st_mtime_ns}".encode()).hexdigest()[:16]
    cached = cache_dir() / "facts" / f"{key}.json"
    try:
        return _tables(json.loads(cached.read_text(encoding="utf-8")))
    except (OSError, ValueError, KeyError):
        pass
    try:
        proc = subprocess.run([str(core), "-list", "-json"], capture_output=True, text=True, timeout=60,
                              stdin=subprocess.DEVNULL)
        doc = json.loads(proc.stdout) if proc.returncode == 0 else None
    except (OSError, subprocess.TimeoutExpired, ValueError) as exc:
        raise FactsError(f"cannot get the benchmark facts from {core} -list -json: {exc}") from None
    if not doc or doc.get("type") != "benchmark_facts":
        why = (proc.stderr.strip().splitlines() or [f"exit status {proc.returncode}"])[-1]
        raise FactsError(f"cannot get the benchmark facts from {core} -list -json: {why}; "
                         "rebuild it with scripts/setup.sh")
    cached.parent.mkdir(parents=True, exist_ok=True)
    scratch = cached.with_suffix(f".{os.getpid()}.tmp")
    scratch.write_text(proc.stdout, encoding="utf-8")
    scratch.replace(cached)  # readers never see half a file
    return _tables(doc)


def _tables(doc: dict) -> list[dict]:
    """The IMB suites, then the tools' tables (each says which it is: kind)."""
    return [*doc["suites"], *doc.get("tools", [])]
