"""srun inside salloc, submit -> runs -> collect, and jobs Slurm ends (scancel, time limit)."""

from __future__ import annotations

import re
import subprocess

import pytest

from mpimark.storage.store import Store

from .conftest import mpimark, wait_for

# Open MPI through srun's pmix plugin, MPICH through pmi2: mpimark's defaults.
IMPLS = ("openmpi", "mpich")
SHORT = ("mpi1", "PingPong", "-msglog", "0:4")
# A run that gives results at once and goes on for minutes: a fixed 100000
# iterations per size up to 4 MiB.
LONG = ("mpi1", "PingPong", "Sendrecv", "-msglog", "0:22", "-iter", "100000", "-iter_policy", "off", "-time", "1000")


def job_of(output: str) -> tuple[int, str]:
    match = re.search(r"run (\d+): Slurm job (\d+)", output)
    assert match, output
    return int(match.group(1)), match.group(2)


def slurm_state(job_id: str) -> str:
    done = subprocess.run(["scontrol", "show", "job", "-o", job_id], capture_output=True, text=True)
    match = re.search(r"JobState=(\S+)", done.stdout)
    return match.group(1) if match else "?"


@pytest.mark.parametrize("name", IMPLS)
def test_run_with_srun_inside_salloc(slurm, need, name, tmp_path):
    need(name)
    db = tmp_path / "r.db"
    done = mpimark("run", *SHORT, "-n", "2", "--mpi", name, "--launcher", "srun", db=db,
                   prefix=("salloc", "-n", "2", "--time", "5"))
    assert done.returncode == 0, done.stderr
    assert "# Benchmarking PingPong" in done.stdout
    with Store(db) as store:
        row = store.runs()[0]
        assert row.status == "complete" and row.processes == 2 and row.results == 6
        plugin = {"openmpi": "pmix", "mpich": "pmi2"}[name]
        assert row.launch_command[1:3] == [f"--mpi={plugin}", "--ntasks=2"]
        assert row.launch_command[0].endswith("srun")


def test_srun_is_chosen_by_itself_inside_an_allocation(slurm, need, tmp_path):
    need("openmpi")
    db = tmp_path / "r.db"
    done = mpimark("run", *SHORT, "-n", "2", "--mpi", "openmpi", "--quiet", db=db,
                   prefix=("salloc", "-n", "2", "--time", "5"))
    assert done.returncode == 0, done.stderr
    with Store(db) as store:
        assert store.runs()[0].launch_command[0].endswith("srun")


def test_a_plugin_the_library_does_not_speak_is_named_with_the_fix(slurm, need, tmp_path):
    need("mpich")
    done = mpimark("run", *SHORT, "-n", "2", "--mpi", "mpich", "--launcher", "srun", "--srun-mpi", "pmix", "--quiet",
                   db=tmp_path / "r.db", prefix=("salloc", "-n", "2", "--time", "5"))
    assert done.returncode == 1
    assert "started each rank on its own" in done.stderr and "try --srun-mpi pmi2" in done.stderr


def test_srun_outside_an_allocation_is_refused_before_anything_is_stored(slurm, tmp_path):
    db = tmp_path / "r.db"
    done = mpimark("run", *SHORT, "-n", "2", "--launcher", "srun", db=db)
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        "mpimark: error: --launcher srun needs a Slurm allocation (SLURM_JOB_ID is not set): run mpimark inside "
        "'salloc -n N', or submit a batch job with 'mpimark submit'"]
    assert not db.exists()


@pytest.mark.parametrize("name", IMPLS)
def test_submit_runs_collect(slurm, need, name, tmp_path):
    need(name)
    db = tmp_path / "r.db"
    done = mpimark("submit", *SHORT, "--mpi", name, "--nodes", "1", "--ntasks-per-node", "2", "--time", "5",
                   "--job-dir", str(tmp_path / "jobs"), db=db)
    assert done.returncode == 0, done.stderr
    run_id, job_id = job_of(done.stdout)
    listing = mpimark("runs", db=db)
    assert re.search(rf"│\s+{run_id} .*(pending|running|complete)", listing.stdout), listing.stdout
    assert job_id in listing.stdout
    wait_for(lambda: slurm_state(job_id) not in ("PENDING", "RUNNING", "CONFIGURING", "COMPLETING"), 120,
             f"job {job_id} to end")
    collected = mpimark("collect", db=db)
    assert collected.returncode == 0, collected.stderr
    with Store(db) as store:
        row = store.run(run_id)
        assert row.status == "complete", row.status_message
        assert row.results == 6 and row.processes == 2
        assert store.job(run_id).state == "COMPLETED"
    shown = mpimark("show", str(run_id), "--stats", db=db)
    assert shown.returncode == 0 and "PingPong" in shown.stdout


def test_a_cancelled_job_fails_its_run_with_slurms_word_keeping_its_results(slurm, need, tmp_path):
    need("openmpi")
    db = tmp_path / "r.db"
    done = mpimark("submit", *LONG, "--mpi", "openmpi", "--nodes", "1", "--ntasks-per-node", "2",
                   "--job-dir", str(tmp_path / "jobs"), db=db)
    assert done.returncode == 0, done.stderr
    run_id, job_id = job_of(done.stdout)
    wait_for(lambda: any('"type":"result"' in p.read_text() for p in (tmp_path / "jobs").glob("*/results.jsonl")),
             60, "the first result")
    assert mpimark("runs", db=db).stdout.count("RUNNING") == 1
    subprocess.run(["scancel", job_id], check=True)
    wait_for(lambda: slurm_state(job_id) == "CANCELLED", 60, f"job {job_id} cancelled")
    collected = mpimark("collect", str(run_id), db=db)
    assert collected.returncode == 1
    assert (f"mpimark: error: run {run_id} failed: Slurm job {job_id} was cancelled (CANCELLED); the "
            in collected.stderr)
    with Store(db) as store:
        row = store.run(run_id)
        assert row.status == "failed" and row.results >= 1
        assert store.job(run_id).state == "CANCELLED"


@pytest.mark.slow
def test_a_job_ended_by_its_time_limit_fails_its_run_with_slurms_reason(slurm, need, tmp_path):
    # Slurm's smallest limit is a minute, and it looks every 30 s: this takes 60 to 95 s.
    need("openmpi")
    db = tmp_path / "r.db"
    done = mpimark("submit", *LONG, "--mpi", "openmpi", "--nodes", "1", "--ntasks-per-node", "2", "--time", "1",
                   "--job-dir", str(tmp_path / "jobs"), db=db)
    assert done.returncode == 0, done.stderr
    run_id, job_id = job_of(done.stdout)
    collected = mpimark("collect", "--wait", str(run_id), db=db, timeout=240)
    assert collected.returncode == 1
    assert (f"run {run_id} failed: Slurm job {job_id} hit its time limit (TIMEOUT, reason TimeLimit); the "
            in collected.stderr), collected.stderr
    with Store(db) as store:
        assert store.run(run_id).results >= 1
