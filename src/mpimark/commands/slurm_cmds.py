"""Slurm batch jobs as commands: submit and collect (docs/clusters.md).

`mpimark submit SUITE ... --nodes N --ntasks-per-node M` builds the core on
this machine, gives the job a directory of its own under --job-dir (which
the compute nodes must see: it holds a copy of the core, the batch script
and everything the job writes), submits the script with sbatch and stores a
pending run. `mpimark collect` stores what ended jobs left; `runs` and
`show` do the same on the way.
"""

from __future__ import annotations

import dataclasses
import os
import shutil
import socket
import time
from datetime import datetime, timezone
from pathlib import Path

import click
from mpimark import __version__
from mpimark.commands import db_option, error_line, jobs, note, preflight, tilde
from mpimark.commands.options import mpi_options, PassThroughCommand, suite_and_args
from mpimark.execution import build, mpi, slurm
from mpimark.execution.placement import Placement
from mpimark.storage.store import default_path, steering_environment, Store

DEFAULT_JOB_DIR = "mpimark-jobs"
PASS_THROUGH = {"ignore_unknown_options": True, "allow_extra_args": True}
WAIT_POLL_S = 5.0


@click.command("submit", cls=PassThroughCommand, context_settings=PASS_THROUGH)
@click.argument("words", nargs=-1, type=click.UNPROCESSED, metavar="[SUITE] [BENCHMARK...] [IMB OPTIONS...]")
@click.option("--nodes", type=click.IntRange(min=1), required=True, help="Nodes (sbatch --nodes).")
@click.option("--ntasks-per-node", "per_node", type=click.IntRange(min=1), required=True,
              help="MPI ranks per node (sbatch --ntasks-per-node); the run has NODES x this many.")
@click.option("--partition", metavar="P", help="Slurm partition [default: the cluster's default].")
@click.option("--time", "time_limit", metavar="T",
              help="Time limit, in sbatch's forms (MINUTES, H:MM:SS, D-HH) [default: the partition's].")
@click.option("--account", metavar="A", help="Account to charge [default: yours].")
@mpi_options
@click.option("--srun-mpi", metavar="PLUGIN",
              help="srun's --mpi plugin [default: $SLURM_MPI_TYPE, else pmix for Open MPI, pmi2 for MPICH "
                   "and Intel MPI].")
@click.option("--job-dir", default=DEFAULT_JOB_DIR, show_default=True, metavar="DIR",
              help="Each job gets a directory under DIR: core, script, results. The compute nodes must read "
                   "and write it (a shared file system, not /tmp).")
@click.option("--dry-run", is_flag=True, help="Print the batch script; build, write, submit and store nothing.")
@db_option
def submit(words: tuple[str, ...], nodes: int, per_node: int, partition: str | None, time_limit: str | None,
           account: str | None, mpi_name: str | None, mpi_prefix: str | None, srun_mpi: str | None, job_dir: str,
           dry_run: bool, db: str | None) -> None:
    """Submit benchmarks as a Slurm batch job; the run is stored as pending.

    Words as for `mpimark run`: `mpimark submit mpi1 PingPong Allreduce
    --nodes 2 --ntasks-per-node 4 --time 10 -msglog 0:20`. The job runs the
    core with srun; `mpimark runs` shows whether it is pending, running or
    done, and `mpimark collect` (or any later `runs`/`show`) stores its results.
    """
    suite, core_args = suite_and_args(words)
    impl = mpi.find(mpi_name, mpi_prefix)
    preflight.check_standard(suite, impl)
    plugin = slurm.plugin_for(impl.kind, srun_mpi)
    srun = shutil.which("srun")
    if srun and slurm.plugins(srun) and plugin not in slurm.plugins(srun):
        raise slurm.SlurmError(f"this Slurm's srun has no '{plugin}' MPI plugin (it has "
                               f"{', '.join(slurm.plugins(srun))}); choose one with --srun-mpi")
    if not dry_run and shutil.which("sbatch") is None:
        raise slurm.SlurmError("there is no sbatch on PATH: submit from a machine with Slurm's client commands "
                               "(a login node), or load Slurm's module")
    base = Path(job_dir).expanduser().resolve()
    stamp = datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S")
    name = f"{suite}-{stamp}-{os.getpid()}"
    files = slurm.JobFiles(base / name)
    processes = nodes * per_node
    preflight.check_processes(suite, core_args, [processes])
    request = slurm.BatchRequest(nodes=nodes, ntasks_per_node=per_node, partition=partition, time=time_limit,
                                 account=account, job_name=f"mpimark-{suite}")
    launch_line = [*slurm.Srun("srun", plugin, impl.kind).words(processes, [f"--ntasks-per-node={per_node}"]),
                   f"./{files.core.name}", suite, *core_args, "-json", files.stream.name]  # in the job's directory
    env = {**steering_environment(os.environ), **impl.env}
    header = (f"mpimark {__version__} submit on {socket.gethostname()}, {stamp} UTC: {suite} under {impl.name} "
              f"({impl.vendor} {impl.version}),\n{nodes} node(s) x {per_node} ranks. What the job leaves here "
              f"is stored by 'mpimark collect'.")
    script = slurm.batch_script(files, request, launch_line, env, header)
    if dry_run:
        click.echo(script, nl=False)
        note(f"dry run: nothing built, written, submitted or stored (the job's directory would be {files.directory})")
        return
    core = build.ensure_core(impl, log=note)
    with Store(db) as store:  # opened first: a database that cannot be written fails before sbatch
        for done in jobs.refresh(store, news=note):
            note(jobs.describe(done))
        try:
            files.directory.mkdir(parents=True)
        except OSError as exc:
            raise slurm.SlurmError(f"cannot create the job's directory {files.directory}: {exc.strerror}; "
                                   "give --job-dir on a file system the nodes share") from None
        try:
            shutil.copy2(core, files.core)  # the job's own copy: a rebuild cannot change a queued job's core
            files.script.write_text(script, encoding="utf-8")
            job_id, cluster = slurm.sbatch(files.script)
        except BaseException:
            shutil.rmtree(files.directory, ignore_errors=True)
            raise
        try:
            run_id = store.begin_job(launch_command=launch_line, environment=env, mpi_name=impl.name,
                                     mpi_prefix=impl.prefix, requested_processes=processes, suite=suite,
                                     job_id=job_id, cluster=cluster, directory=str(files.directory),
                                     mpi=dataclasses.asdict(impl), placement=Placement(ppn=per_node).to_record())
        except BaseException:
            slurm.cancel(job_id)
            shutil.rmtree(files.directory, ignore_errors=True)
            raise
    note(f"submitted as Slurm job {job_id}; stored as run {run_id} (pending) in {tilde(store.path)}")
    note(f"job files: {tilde(files.directory)}; 'mpimark runs' shows its state, "
         "'mpimark collect' stores its results once it has ended")
    click.echo(f"run {run_id}: Slurm job {job_id}")


@click.command("collect")
@click.argument("run_ids", metavar="[RUN...]", type=int, nargs=-1)
@click.option("--wait", is_flag=True, help="Wait until every job asked about has ended, then store it.")
@db_option
@click.pass_context
def collect(ctx: click.Context, run_ids: tuple[int, ...], wait: bool, db: str | None) -> None:
    """Store the results of Slurm jobs that have ended (default: every job not collected yet).

    A job that ran to its end gives its run the status `mpimark run` would;
    one Slurm ended (time limit, scancel, node failure) marks its run failed
    with Slurm's state and reason, keeping the results it finished. Exit
    status 1 when a run collected now did not complete.
    """
    path = Path(db) if db else default_path()
    if not path.exists():
        click.echo(f"no runs stored in {path}")
        return
    collected: list[jobs.Collected] = []
    with Store(path, create=False) as store:
        wanted = _wanted(store, run_ids)
        while True:
            collected += jobs.refresh(store, wanted, news=note)
            wanted = [job for job in (store.job(j.run_id) for j in wanted) if job and job.collected_utc is None]
            if not wait or not wanted:
                break
            time.sleep(WAIT_POLL_S)
        for job in wanted:
            note(f"run {job.run_id}: Slurm job {job.job_id} is {job.state}"
                 + (f" ({job.reason})" if job.reason else "") + "; collect again once it has ended")
    if not collected and not wanted:
        note("no Slurm job waiting to be collected")
    for done in collected:
        note(jobs.describe(done, why=False))
    bad = [done for done in collected if done.status != "complete"]
    for done in bad:
        error_line(f"run {done.job.run_id} {done.status}: {done.message}")
    if bad:
        ctx.exit(1)


def _wanted(store: Store, run_ids: tuple[int, ...]) -> list:
    if not run_ids:
        return store.jobs(uncollected=True)
    found = []
    for run_id in run_ids:
        store.run(run_id)  # StoreError for an unknown run
        job = store.job(run_id)
        if job is None:
            raise click.UsageError(f"run {run_id} was not submitted to Slurm: there is nothing to collect")
        if job.collected_utc is not None:
            note(f"run {run_id}: Slurm job {job.job_id} was collected at {job.collected_utc} already")
            continue
        found.append(job)
    return found


COMMANDS = (submit, collect)
