"""Where mpimark keeps files it can recreate (XDG base directories)."""

from __future__ import annotations

import os
from pathlib import Path


def cache_dir() -> Path:
    """$XDG_CACHE_HOME/mpimark, else ~/.cache/mpimark: builds and probe answers.

    Everything here can be deleted; it is rebuilt on demand.
    """
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "mpimark"
