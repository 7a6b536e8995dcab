"""Slurm batch jobs and their runs: where execution/slurm.py meets the store.

A submitted run is 'pending' until Slurm starts its job, then 'running';
refresh() asks Slurm about every job not yet collected, keeps what it says
(state and reason, shown by `mpimark runs`), and for each job that has ended
stores what it left (the results stream) and finishes its run, in one
transaction: the stream judged as a live launch is (launch.judge), and a job
Slurm ended (time limit, scancel, node failure) failed with Slurm's reason.

`mpimark collect` calls it, and so do the commands that read runs (runs,
show) and submit: a finished job is stored on the next command.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from mpimark.execution import launch, slurm
from mpimark.execution.mpi import MpiImpl
from mpimark.storage.store import JobRow, Store

# Slurm states in which the job is queued, not started: the run is 'pending'.
QUEUED_STATES = frozenset({"PENDING", "REQUEUED", "REQUEUE_HOLD", "REQUEUE_FED", "SPECIAL_EXIT", "RESV_DEL_HOLD"})


@dataclass(frozen=True)
class Collected:
    """A job whose files were stored: its run's final status, and why."""

    job: JobRow
    state: slurm.JobState
    status: str
    message: str | None
    results: int


def refresh(store: Store, jobs: Iterable[JobRow] | None = None,
            news: Callable[[str], None] = lambda line: None) -> list[Collected]:
    """Ask Slurm about each job not collected yet (default: all); store those that ended.

    news gets a line for each job Slurm could not be asked about (it stays
    as it is, to be asked again); what was collected is returned (describe()).
    """
    collected = []
    for job in list(store.jobs(uncollected=True) if jobs is None else jobs):
        files = slurm.JobFiles(Path(job.directory))
        try:
            state = slurm.query(job.job_id, files)
        except slurm.SlurmError as exc:
            news(f"run {job.run_id}: {exc}")
            continue
        if not state.finished:
            status = "pending" if state.state in QUEUED_STATES else "running"
            if (state.state, state.reason) != (job.state, job.reason) or status == "running":
                store.update_job(job.run_id, state.state, state.reason, status)
            continue
        collected.append(collect(store, job, files, state))
    return collected


def describe(done: Collected, *, why: bool = True) -> str:
    """'run 4: Slurm job 16 ended (COMPLETED); 5 results stored, run complete'."""
    line = (f"run {done.job.run_id}: Slurm job {done.job.job_id} ended ({done.state.state}); "
            f"{done.results} results stored, run {done.status}")
    return line + (f": {done.message}" if why and done.message else "")


def collect(store: Store, job: JobRow, files: slurm.JobFiles, state: slurm.JobState) -> Collected:
    """Store an ended job's stream and finish its run (one transaction)."""
    impl = MpiImpl(**job.mpi)
    row = store.run(job.run_id)
    try:
        stderr = files.stderr.read_text(errors="replace")
    except OSError:
        stderr = ""
    returncode = state.exit_status
    if returncode is None and state.state == "COMPLETED":
        returncode = 0
    plugin = next((w.split("=", 1)[1] for w in row.launch_command if w.startswith("--mpi=")), "?")
    hint = slurm.Srun("srun", plugin, impl.kind).hint
    records, outcome = launch.judge(files.stream, stderr, returncode, impl=impl,
                                    processes=row.requested_processes, launcher="srun", count_hint=hint)
    status, message = outcome.status, outcome.message
    ran_to_its_end = state.exit_status is not None and state.state in ("COMPLETED", "FAILED")
    if not ran_to_its_end:  # Slurm ended it (time limit, scancel, a node), or it died before srun returned
        kept = f"the {outcome.results} results received are kept"
        why = state.describe(job.job_id)
        last = slurm.last_line(files.slurm_output(job.job_id))
        if state.state == "FAILED" and last:
            why += f": {last}"
        status, message = "failed", f"{why}; {kept}"
    store.collect_job(job.run_id, records, status, message, state.state, state.reason)
    return Collected(job, state, status, message, outcome.results)
