"""Where mpimark keeps its files (XDG base directories)."""

from __future__ import annotations

import os
from pathlib import Path


def cache_dir() -> Path:
    """$XDG_CACHE_HOME/mpimark, else ~/.cache/mpimark: builds and probe answers.

    Everything here can be deleted; it is rebuilt on demand.
    """
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "mpimark"


def data_dir() -> Path:
    """$XDG_DATA_HOME/mpimark, else ~/.local/share/mpimark: the results database, installed MPIs.

    A relative $XDG_DATA_HOME is ignored, as the XDG specification says (and as store.default_path does).
    """
    data_home = os.environ.get("XDG_DATA_HOME") or ""
    base = Path(data_home) if Path(data_home).is_absolute() else Path.home() / ".local" / "share"
    return base / "mpimark"
