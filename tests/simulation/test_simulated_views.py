"""A stream the core writes under SMPI is stored as simulated and every view says so (the views themselves:
tests/frontend/test_simulated_marking.py, from recorded streams)."""

from __future__ import annotations

import json

from click.testing import CliRunner

from mpimark.cli import cli
from mpimark.records import simulation
from mpimark.storage.store import Store

from .conftest import run_smpi

SETUP = {"platform": {"name": "test", "topology": "FLAT 4", "hosts": 4, "shipped": False},
         "coll_selector": "mpich", "ranks_per_host": 1, "simulate_computation": False}


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args))


def test_a_simulated_stream_is_stored_marked_with_its_setup(smpi_core, flat_platform, tmp_path):
    stream = tmp_path / "sim.jsonl"
    run = run_smpi(smpi_core, flat_platform, 4, "mpi1", "Allreduce", "-msglog", "0:2", "-iter", "10",
                   "-npmin", "4", "-json", str(stream), env={"MPIMARK_SIMULATION": json.dumps(SETUP)})
    assert run.returncode == 0, run.describe()
    db = tmp_path / "r.db"
    imported = invoke("import", str(stream), "--db", str(db))
    assert imported.exit_code == 0, imported.output
    with Store(db, for_reading=True) as store:
        stored = store.run(1).simulation
    assert stored["simulator"] == "SimGrid SMPI" and stored["setup"] == SETUP
    assert "simulated: SimGrid SMPI 3.32" in imported.output
    assert simulation.label(stored) == "simulated, test"
    assert "simulated, test" in invoke("runs", "--db", str(db)).output
    shown = invoke("show", "1", "--db", str(db)).output
    assert "platform test (FLAT 4), 4 hosts, coll mpich" in " ".join(shown.split())
    assert "self-check skipped: noise: " in shown  # the core's reason, shown where the self-checks are
