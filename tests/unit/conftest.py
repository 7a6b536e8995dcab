"""Fixtures shared by the unit tests."""

from __future__ import annotations

import json
from pathlib import Path

import pytest


@pytest.fixture
def write_jsonl(tmp_path: Path):
    """Write records (dicts, or str lines as they are) to a .jsonl file."""

    def write(records: list, name: str = "results.jsonl") -> Path:
        path = tmp_path / name
        lines = [r if isinstance(r, str) else json.dumps(r) for r in records]
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        return path

    return write
