"""Where mpimark keeps its files (XDG base directories)."""

from __future__ import annotations

import json
import os
import tempfile
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


def read_cached_json(path: Path) -> object | None:
    """A cache file's JSON, None when it is missing or damaged (the caller asks again)."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def write_cached(path: Path, data: bytes | str) -> bool:
    """A cache file written whole or not at all (written beside it, then renamed: another mpimark reading it
    meanwhile never sees half a file); False when it cannot be written, which only costs the next process
    the work the cache saves."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, scratch = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
        with os.fdopen(fd, "wb") as stream:
            stream.write(data.encode("utf-8") if isinstance(data, str) else data)
        os.replace(scratch, path)
    except OSError:
        return False
    return True
