"""Where the built core (mpimark-core) is."""

from __future__ import annotations

import os
from pathlib import Path

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
