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


# Runs of the real core: each NAME.jsonl next to the NAME.txt it printed (data/imb/README.md).
IMB_FIXTURES = sorted((Path(__file__).parent / "data" / "imb").glob("*.jsonl"))
# Results files the demo left in the repository, if any: real data for round trips.
REPO_RESULTS = sorted((Path(__file__).parents[2] / "results").glob("*.jsonl"))


def store_records(store, records: list[dict], **meta) -> int:
    """A run in store holding records, as `mpimark run` would store it."""
    run_id = store.begin_run(
        launch_command=meta.get("launch_command", ["mpiexec", "-n", "2", "mpimark-core", "mpi1"]),
        environment=meta.get("environment", {"OMPI_MCA_btl": "self,vader", "HOME": "/root"}),
        mpi_name=meta.get("mpi_name", "openmpi"),
        mpi_prefix=meta.get("mpi_prefix", "/usr"),
        requested_processes=meta.get("requested_processes", 2),
        suite=meta.get("suite", "mpi1"),
        measurement=meta.get("measurement"),
    )
    for record in records:
        store.add_record(run_id, record)
    if "status" in meta:
        store.finish_run(run_id, meta["status"], meta.get("message"))
    return run_id
