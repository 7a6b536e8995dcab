"""Commands that make results: run, build, mpi list, mpi install.

Only declarations and wiring (docs/frontend.md, "Data flow of mpimark run");
finding MPIs is mpi.py, building build.py, launching launch.py, storing store.py.
stdout carries what the core prints (IMB's tables) and what a command was
asked for (a path, a table); mpimark's own messages go to stderr.
"""

from __future__ import annotations

import sys

import click
from rich.table import Table
from rich.text import Text

from mpimark.commands import console, db_option, error_line, note, preflight, recording, tilde
from mpimark.commands.options import exit_status, launcher_options, launches_option, Seconds, mpi_options, \
    PassThroughCommand, processes_option, placement, placement_options, simulated_placement, simulation_of, \
    simulation_options, suite_and_args
from mpimark.execution import build, mpi, simulation, slurm
from mpimark.storage.selection import selector_of
from mpimark.storage.store import Store


@click.command(cls=PassThroughCommand,
               context_settings={"ignore_unknown_options": True, "allow_extra_args": True})
@click.argument("words", nargs=-1, type=click.UNPROCESSED, metavar="[SUITE] [BENCHMARK...] [IMB|OSU OPTIONS...]")
@processes_option
@mpi_options
@launcher_options
@placement_options
@simulation_options
@click.option("--timeout", type=Seconds(), metavar="SECONDS",
              help="Kill the job after this long and mark the run failed.")
@db_option
@click.option("--json", "json_file", type=click.Path(dir_okay=False, writable=True),
              help="Also keep the core's JSON Lines results stream in this file.")
@click.option("--quiet", is_flag=True, help="Do not print IMB's tables.")
@launches_option("Launch N times, one after the other: N runs stored as one measurement, the launches compare "
                 "replicates (5 or more to decide; docs/analysis.md). With --json FILE, FILE.k.jsonl per launch.")
@click.pass_context
def run(ctx: click.Context, words: tuple[str, ...], processes: int, mpi_name: str | None, mpi_prefix: str | None,
        launcher: str | None, srun_mpi: str | None, timeout: float | None, db: str | None, json_file: str | None,
        quiet: bool, launches: int, platform_name: str | None, coll_selector: str | None,
        **placement_params) -> None:
    """Run benchmarks under MPI and store every result.

    SUITE is mpi1 (the default), nbc, mpi4 (MPI-4 libraries only), ext, rma,
    io, p2p or mt, as IMB-MPI1, -NBC, -MPI4, -EXT, -RMA, -IO, -P2P, -MT. BENCHMARK
    names and IMB's options (-msglog 0:10, -time 1, -npmin 2, -multi 0, -check,
    ...; p2p and mt take IMB-P2P's and IMB-MT's, docs/p2p-mt.md) go to the core
    unchanged: `mpimark run mpi1 PingPong Allreduce -n 2 -msglog 0:10`.
    SUITE osu runs one OSU Micro-Benchmarks 7.4 program with OSU's options
    (docs/osu.md): `mpimark run osu latency -n 2 -m 1:1024 -i 1000`; -h is
    mpimark's help here, `"$(mpimark build)" osu latency -h` lists OSU's.
    --hosts/--hostfile, --ppn, --bind, --env and --launcher-arg say where and
    how the ranks run (docs/clusters.md). Inside a Slurm allocation (salloc,
    a batch job) the ranks are started with srun when it has the PMI plugin
    the implementation needs; outside, with the implementation's mpiexec.
    `mpimark submit` makes a batch job. --launches N launches the same job N
    times, each a run, together one measurement: `mpimark compare 12-16 OTHER`.
    --mpi smpi --platform P simulates the run with SimGrid's SMPI on the
    platform P, --ppn K ranks per simulated host (docs/simulation.md).
    """
    suite, core_args = suite_and_args(words)
    simulated = simulation_of(mpi_name, platform_name, coll_selector, placement_params, launcher)
    where = simulated_placement(placement_params) if simulated else placement(placement_params, [processes])
    impl = mpi.find(mpi_name, mpi_prefix, simulated=True) if simulated else mpi.find(mpi_name, mpi_prefix)
    if simulated:
        simulated.check(processes)
    preflight.check_standard(suite, impl)
    preflight.check_processes(suite, core_args, [processes])
    srun = None if simulated else slurm.resolve(launcher, impl.kind, srun_mpi)
    core = build.ensure_core(impl, log=note)
    ids: list[int] = []

    def begins(index: int) -> None:
        if launches > 1:
            note(f"launch {index + 1}/{launches}: {suite} on {processes} processes under {impl.name}")

    with simulation.prepared(simulated, processes) as prepared, Store(db) as store:
        recording.recover_on_the_way(store)
        for _, run_id, outcome in recording.run_launches(ctx, store, launches, impl, processes, core, suite, core_args,
                                                         json_file, before=begins, timeout=timeout, quiet=quiet,
                                                         placement=where, srun=srun, simulation=prepared):
            ids.append(run_id)
    if launches == 1:
        note(f"stored as run {run_id} in {tilde(store.path)}")
    else:
        runs = selector_of(ids)
        note(f"stored {len(ids)} launch{'es' if len(ids) > 1 else ''} as run{'s' if len(ids) > 1 else ''} {runs} "
             f"(measurement {ids[0]}) in {tilde(store.path)}: mpimark compare {runs} OTHER")
    if outcome.status != "complete":
        stopped = f"; stopped after launch {len(ids)} of {launches}" if len(ids) < launches else ""
        error_line(f"run {run_id} {outcome.status}: {outcome.message}{stopped}")
        ctx.exit(exit_status(outcome))


@click.command("build")
@mpi_options
def build_command(mpi_name: str | None, mpi_prefix: str | None) -> None:
    """Build the core for an MPI implementation (if needed) and print its path."""
    simulator = mpi_name == mpi.SMPI  # built, not launched: `mpimark build --mpi smpi` is its core's path
    impl = mpi.find(mpi_name, mpi_prefix, simulated=True) if simulator else mpi.find(mpi_name, mpi_prefix)
    click.echo(str(build.ensure_core(impl, log=note)))


@click.group("mpi")
def mpi_group() -> None:
    """The MPI implementations mpimark can use."""


@mpi_group.command("list")
@click.option("--mpi-prefix", "prefixes", metavar="DIR", multiple=True, help="Also look under DIR (repeatable).")
def mpi_list(prefixes: tuple[str, ...]) -> None:
    """List the MPI implementations found; the first is the default."""
    impls, problems = mpi.discover(prefixes)
    for problem in problems:  # a broken candidate must not hide the others
        note(f"skipped: {problem}")
    if not impls:
        raise mpi.MpiError("no MPI implementation found; install one (apt-get install libopenmpi-dev openmpi-bin, "
                           "or 'mpimark mpi install openmpi') or give --mpi-prefix DIR")
    table = Table()
    for header in ("name", "vendor", "version", "MPI standard", "launcher", "source"):
        table.add_column(header)
    for impl in impls:
        table.add_row(*(Text(cell) for cell in (impl.name, impl.vendor, impl.version, impl.standard_version,
                                                 impl.mpiexec, impl.source)))
    console(sys.stdout).print(table)


@mpi_group.command("install")
@click.argument("name", type=click.Choice(sorted(mpi.WHEELS)))
def mpi_install(name: str) -> None:
    """Install an MPI wheel (pinned) into a directory of its own.

    Each goes to ~/.local/share/mpimark/mpi/NAME ($MPIMARK_MPI_HOME/NAME), not
    onto PATH, so the three can be installed side by side and next to the
    system's MPIs; 'mpimark mpi list' finds them there."""
    prefix = mpi.install_wheel(name, log=note)
    impl = next((i for i in mpi.discover()[0] if i.prefix == str(prefix)), None)
    if impl is None:
        raise mpi.MpiError(f"pip installed {name} into {prefix}, but no usable MPI is there; "
                           "'mpimark mpi list' says why")
    click.echo(f"{impl.name}: {impl.vendor} {impl.version} (MPI {impl.standard_version}), {impl.mpiexec}")


COMMANDS = (run, build_command, mpi_group)
