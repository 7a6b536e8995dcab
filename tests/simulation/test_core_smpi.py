"""The core built against SimGrid SMPI (build/smpi), launched by hand with smpirun on a
4-host flat platform: the run record says the run was simulated and how it was set up,
the self-checks that mean nothing in simulated time are skipped with their reasons, a
benchmark SMPI cannot run is refused in one line before anything is measured, and the
MPI_T tool says the library has none (docs/core.md, "The core under SimGrid SMPI")."""

from __future__ import annotations

import json
import re

import pytest

from mpimark.records.results import validate_record

from .conftest import run_smpi

EXIT_BAD_INPUT = 2
EXIT_NO_MPIT = 5  # core/src/util/exitcodes.h: the library has no MPI_T
SHORT = ("-msglog", "0:4", "-iter", "10", "-npmin", "4")
SETUP = {"platform": {"name": "flat", "hosts": 4, "shipped": False}, "coll_selector": "mpich", "ranks_per_host": 1,
         "simulate_computation": False, "smpirun": "smpirun -np 4"}


def records_of(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def simulated_allreduce(smpi_core, platform, tmp_path, env: dict, *extra: str):
    stream = tmp_path / "run.jsonl"
    run = run_smpi(smpi_core, platform, 4, "mpi1", "Allreduce", *SHORT, *extra, "-json", str(stream), env=env)
    assert run.returncode == 0, run.describe()
    records = records_of(stream)
    for record in records:
        validate_record(record)
    return run, records


# MPIMARK_SIMULATION as the front end writes it (json.dumps of an object) is copied verbatim; anything
# else (unset: an smpirun by hand; text that is not one JSON object) gives setup null.
@pytest.mark.parametrize("value, setup", [
    (None, None),
    (json.dumps(SETUP), SETUP),
    ("[1, 2]", None),
    ('{"platform": ', None),
], ids=["unset", "object", "array", "truncated"])
def test_run_record_says_simulated(smpi_core, flat_platform, tmp_path, monkeypatch, value, setup):
    monkeypatch.delenv("MPIMARK_SIMULATION", raising=False)
    env = {} if value is None else {"MPIMARK_SIMULATION": value}
    _, records = simulated_allreduce(smpi_core, flat_platform, tmp_path, env)
    run = records[0]
    assert run["type"] == "run"
    simulation = run["simulation"]
    assert simulation["simulator"] == "SimGrid SMPI"
    assert re.fullmatch(r"\d+\.\d+\.\d+", simulation["version"]), simulation
    assert simulation["setup"] == setup
    assert "SimGrid" in run["timer"]["source"]
    results = [r for r in records if r["type"] == "result"]
    assert [r["bytes"] for r in results] == [0, 4, 8, 16]
    assert all(r["status"] == "ok" and r["t_avg_usec"] > 0 for r in results)


def test_selfchecks_skipped_with_reasons(smpi_core, flat_platform, tmp_path):
    """The default -selfcheck on: nothing measured (the noise probe would wait forever for simulated
    time), each skipped check named with its reason, and no timer-resolution warning."""
    run, records = simulated_allreduce(smpi_core, flat_platform, tmp_path, {})
    check = records[0]["selfcheck"]
    assert check["simulated"] is True
    skipped = {item["check"]: item["reason"] for item in check["skipped"]}
    assert {"timer", "noise", "load"} <= set(skipped)
    assert all("simulat" in reason for reason in skipped.values()), skipped
    assert "noise_probe" not in check and "ranks" not in check
    events = [r for r in records if r["type"] == "event"]
    assert [e["kind"] for e in events if e["level"] == "warning"] == []
    said = [e["message"] for e in events if e["kind"] == "selfcheck_skipped"]
    assert len(said) == 1 and "timer" in said[0]
    assert "timer's resolution" not in run.stdout


def test_check_still_validates_data(smpi_core, flat_platform, tmp_path):
    """-check (data validation) means the same in simulation: the data really moves."""
    _, records = simulated_allreduce(smpi_core, flat_platform, tmp_path, {}, "-check")
    results = [r for r in records if r["type"] == "result"]
    assert results and all(r["defects"] == 0 for r in results)


# Without the refusal: an overlap benchmark hangs (it calibrates CPU work by the clock, which simulated
# time never advances), IMB-IO aborts the simulation (no disk on the platform), startup prints nonsense.
@pytest.mark.parametrize("args, name, why", [
    (("nbc", "Iallreduce"), "Iallreduce", "calibrates CPU work"),
    (("osu", "iallreduce"), "osu_iallreduce", "calibrates CPU work"),
    (("rma", "Unidir_put,Truly_passive_put"), "Truly_passive_put", "calibrates CPU work"),
    (("io", "S_Write_Indv"), "S_Write_Indv", "MPI-IO"),
    (("startup",), "startup", "CLOCK_REALTIME"),
], ids=["imb-nbc", "osu-nbc", "rma-truly-passive", "io", "startup"])
def test_unsupported_benchmark_refused(smpi_core, flat_platform, tmp_path, args, name, why):
    """Refused in one line before anything is measured, never a hang or a crash."""
    stream = tmp_path / "run.jsonl"
    run = run_smpi(smpi_core, flat_platform, 4, *args, "-json", str(stream), timeout=60)
    assert run.returncode == EXIT_BAD_INPUT, run.describe()
    errors = run.error_lines()
    assert len(errors) == 1, run.describe()
    assert errors[0].startswith(f"mpimark-core: error: SimGrid SMPI cannot run {name}: "), errors
    assert why in errors[0]
    assert not stream.exists() or not [r for r in records_of(stream) if r["type"] == "result"]


def test_mpit_says_no_mpi_t(smpi_core, flat_platform):
    run = run_smpi(smpi_core, flat_platform, 1, "mpit", timeout=60)
    assert run.returncode == EXIT_NO_MPIT, run.describe()
    errors = run.error_lines()
    assert len(errors) == 1 and "no MPI_T interface" in errors[0], run.describe()
    assert run.stdout.count("{") == 0  # no JSON document
