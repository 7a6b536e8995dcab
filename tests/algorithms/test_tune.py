"""Tuning files under Debian's Open MPI and MPICH: which message size a rule compares, and tune --verify.

The boundary tests are timing-free: the range above the boundary holds an
algorithm that cannot serve the call (Open MPI: an id coll_tuned lacks, so
MPI_Alltoall fails with MPI_ERR_ARG; MPICH: pairwise_sendrecv_replace, which
serves only MPI_IN_PLACE and so delivers wrong data that -check counts), so
the first size that fails shows where the library put the boundary.
"""

from __future__ import annotations

import json
import os
import re
import subprocess

import pytest

from mpimark.analysis.algorithms import Arm
from mpimark.execution import algorithms, build
from mpimark.presentation import algorithms as shown
from mpimark.storage import studies
from mpimark.storage.store import Store
from tests.algorithms.conftest import mpimark, ok

QUICK = ("-time", "1", "-iter", "20")  # -time: a bound on a loaded machine; -iter sets the work


def _choices(op: str, processes: int, ranges: list[tuple[int, int, str]]) -> dict:
    arms = [(b, Arm(f"{op}:{name}", op, name, i)) for b, i, name in ranges]
    return {op: {processes: [(b, a, a) for b, a in arms]}}


def _sizes_done(stdout: str) -> dict[int, int]:
    """IMB's rows: bytes -> defects (0 without -check)."""
    found = {}
    for line in stdout.splitlines():
        m = re.match(r"\s+(\d+)\s+\d+\s+[\d.]+\s+[\d.]+\s+[\d.]+(?:\s+(\d+))?\s*$", line)
        if m:
            found[int(m.group(1))] = int(m.group(2) or 0)
    return found


@pytest.mark.parametrize("op, boundary, first_failing", [("Alltoall", 512, 512), ("Allreduce", 1024, 1024)])
def test_openmpi_rules_compare_what_coll_tuned_compares(need, tmp_path, op, boundary, first_failing):
    """A rule from IMB's `boundary` bytes on picks the bad algorithm exactly from that IMB size on (so the
    writer's conversion, x 2 ranks for Alltoall, matches coll_tuned's)."""
    impl = need("openmpi")
    rules = tmp_path / "rules.txt"
    rules.write_text(shown.openmpi_rules(_choices(op, 2, [(0, 1, "basic_linear"), (boundary, 99, "none")])))
    core = build.ensure_core(impl)
    run = subprocess.run(["mpiexec", "--allow-run-as-root", "-n", "2", "--mca", "coll_tuned_use_dynamic_rules", "1",
                          "--mca", "coll_tuned_dynamic_rules_filename", str(rules), str(core), "mpi1", op,
                          "-msglog", "8:11", *QUICK], env={**os.environ, **impl.env, "OMPI_MCA_mpi_yield_when_idle": "1"},
                         capture_output=True, text=True, timeout=120)
    assert run.returncode != 0  # MPI_ERR_ARG (Open MPI's help message may be lost on a loaded machine)
    done = _sizes_done(run.stdout)
    assert first_failing // 2 in done and first_failing not in done, run.stdout


def test_mpich_json_compares_avg_msg_size_for_alltoall(need, tmp_path):
    impl = need("mpich")
    core = build.ensure_core(impl)
    builtin = algorithms.mpich_builtin_selection(core)
    assert builtin is not None
    path = tmp_path / "selection.json"
    path.write_text(shown.mpich_json(_choices("Alltoall", 2, [(0, 1, "brucks"), (1024, 4, "pairwise_sendrecv_replace")]),
                                     builtin))
    assert "avg_msg_size<=1023" in json.dumps(json.loads(path.read_text())["collective=alltoall"])
    run = subprocess.run(["mpiexec.hydra", "-n", "2", "-genv", "MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE", str(path),
                          str(core), "mpi1", "Alltoall", "-msglog", "8:11", "-check", "-time", "2", "-iter", "10"],
                         env={**os.environ, **impl.env}, capture_output=True, text=True, timeout=120)
    done = _sizes_done(run.stdout)
    assert done.get(256) == 0 and done.get(512) == 0, run.stdout  # brucks: right data
    assert done.get(1024, 0) > 0 and done.get(2048, 0) > 0, run.stdout  # sendrecv_replace without IN_PLACE


@pytest.mark.parametrize("name", ["openmpi", "mpich"])
def test_tune_verify_runs_default_and_tuned_interleaved(need, tmp_path, name):
    need(name)
    db = str(tmp_path / "r.db")
    algs = "Alltoall:1,2" if name == "openmpi" else "Alltoall:brucks,pairwise"
    ok(mpimark("algorithms", "study", "Alltoall", "--mpi", name, "-n", "2", "--algorithms", algs, "--study", "s",
               "--db", db, "-msglog", "0:6", *QUICK))
    out = tmp_path / "tuned"
    result = ok(mpimark("algorithms", "tune", "s", "-o", str(out), "--verify", "--launches", "1", "--format", "markdown",
                        "--db", db))
    assert "## tuned file tuned against the default" in result.stdout and "| Alltoall | 2 | 64 |" in result.stdout
    with Store(db) as store:
        members = studies.members(store, "s-verify")
        assert sorted(m.implementation for m in members) == ["Alltoall:default", "Alltoall:tuned"]
        tuned = next(m for m in members if m.implementation == "Alltoall:tuned")
        records = store.records(tuned.run_id)
    assert not any(r.get("kind") == "algorithm_not_forced" for r in records)
    if name == "openmpi":  # the file's name read back through MPI_T (MPICH 4.0.2 reads its string cvars empty)
        run = next(r for r in records if r["type"] == "run")
        assert run["mpit_cvars"]["coll_tuned_dynamic_rules_filename"]["value"] == str(out)
        assert run["mpit_cvars"]["coll_tuned_use_dynamic_rules"]["value"] == 1
    again = mpimark("algorithms", "tune", "s", "-o", str(out), "--verify", "--db", db)
    assert again.returncode == 1 and "exists already" in again.stderr
