"""The front end's folders are layers (docs/frontend.md): each imports only from the layers below it.

Read from the source with ast, so a violation fails here before it becomes a
cycle or a launch that writes to the database behind the command's back.
"""

from __future__ import annotations

import ast
from pathlib import Path

import mpimark

PACKAGE = Path(mpimark.__file__).parent
BASE = {"mpimark", "mpimark.errors", "mpimark.paths"}
# What each layer may import besides itself and BASE.
ALLOWED = {
    "records": set(),
    "execution": {"records"},
    "storage": {"records"},
    "analysis": {"records"},
    "presentation": {"records", "analysis", "storage"},
    "commands": {"records", "execution", "storage", "analysis", "presentation"},
}


def _layer(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in ALLOWED else None


def _imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found |= {f"{node.module}.{alias.name}" for alias in node.names} | {node.module}
    return {name for name in found if name.startswith("mpimark")}


def test_every_module_sits_in_a_layer_or_the_base():
    loose = [p.name for p in PACKAGE.glob("*.py")
             if f"mpimark.{p.stem}" not in BASE | {"mpimark.__init__", "mpimark.cli"}]
    assert loose == [], "put new modules into the folder of their layer"


def test_layers_import_only_from_below():
    wrong = []
    for path in PACKAGE.rglob("*.py"):
        layer = _layer("mpimark." + ".".join(path.relative_to(PACKAGE).with_suffix("").parts))
        if layer is None:
            continue
        for name in _imports(path):
            target = _layer(name)
            if target not in (None, layer) and target not in ALLOWED[layer]:
                wrong.append(f"{path.relative_to(PACKAGE)} imports {name}")
    assert wrong == []


def test_the_test_sees_a_violation(tmp_path):
    # The check itself must be able to fail: an execution module importing the store.
    bad = tmp_path / "launch.py"
    bad.write_text("from mpimark.storage.store import Store\n", encoding="utf-8")
    assert _layer("mpimark.execution.launch") == "execution"
    assert "storage" not in ALLOWED["execution"] and "mpimark.storage.store" in _imports(bad)
