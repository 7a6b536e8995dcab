"""The core's three tools as commands: beff, mpibench, startup.

Each launch goes through the same path as `mpimark run` (mpi.find,
build.ensure_core, recording.run_stored: one launch, one stored run); what is
particular to a tool is only its options and how its results are shown
(src/mpimark/presentation/tools/). stdout carries what the core prints and the tool's
table; mpimark's own messages go to stderr.

- `mpimark beff -n N [--mem-per-proc MB] [--out DIR] [b_eff options]`:
  b_eff's files DIR/b_eff.{prot,short,sum,plot,gps} and DIR/b_eff.png.
- `mpimark mpibench -n N [options] [operations]`: mpiBench's lines.
- `mpimark startup -n N [--launches K] [--hello] [--init-only]`: K launches,
  each stored as a run of its own, then RIKEN's table over them.
"""

from __future__ import annotations

import statistics
from pathlib import Path

import click

from mpimark.commands import db_option, echo_stored, error_line, note, outputs, preflight, recording, tilde
from mpimark.commands.options import exit_status, launcher_options, launches_option, Seconds, mpi_options, \
    PassThroughCommand, processes_option, placement, placement_options
from mpimark.execution import build, launch, mpi, slurm
from mpimark.execution.placement import Placement
from mpimark.presentation.tools import beff as beff_view, mpibench as mpibench_view, startup as startup_view
from mpimark.storage.store import Store

LAUNCH_ENV = "MPIMARK_LAUNCH_NS"  # read by the core's startup tool on rank 0 (docs/startup.md)
BEFF_PREFIX = "b_eff"  # the core's (and the original's) default file prefix
PASS_THROUGH = {"ignore_unknown_options": True, "allow_extra_args": True}


def _common(function):
    """-n, --mpi, --mpi-prefix, the placement options, --timeout, --db, --json: as `mpimark run` has them."""
    function = placement_options(function)
    function = click.option("--json", "json_file", type=click.Path(dir_okay=False, writable=True),
                            help="Also keep the core's JSON Lines results stream in this file.")(function)
    function = db_option(function)
    function = click.option("--timeout", type=Seconds(), metavar="SECONDS",
                            help="Kill the job after this long and mark the run failed.")(function)
    function = launcher_options(function)
    function = mpi_options(function)
    return processes_option(function)


def _refuse(words: tuple[str, ...], own: dict[str, str]) -> list[str]:
    """The tool's words, refusing those mpimark sets itself (own: word -> what to use instead)."""
    for word in words:
        if word.lower() in own:
            raise click.UsageError(f"{word}: {own[word.lower()]}")
    return list(words)


def _out_dir(out: str | None) -> Path | None:
    if out is None:
        return None
    directory = Path(out).expanduser().resolve()
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise click.UsageError(f"--out {out}: cannot create the directory: {exc.strerror}") from None
    if not directory.is_dir():
        raise click.UsageError(f"--out {out}: not a directory")
    return directory


def _out_file(out: str | None, name: str, db: str | None) -> Path | None:
    """--out DIR's file name (None without --out), the directory made and the file not the results database."""
    directory = _out_dir(out)
    if directory is None:
        return None
    outputs.refuse_database([directory / name], db, "--out")
    return directory / name


def _launch(ctx: click.Context, tool: str, processes: int, mpi_name: str | None, mpi_prefix: str | None, db: str | None,
            timeout: float | None, json_file: str | None, args: list[str], *, quiet: bool = False,
            launches: int = 1, stamp_env: str | None = None, each=None, where: Placement = Placement(),
            launcher: str | None = None, srun_mpi: str | None = None):
    """Launch the tool `launches` times (one measurement), each a stored run; yield (run_id, outcome, records,
    db path) per launch.

    Stops after a launch that did not complete (it is stored, with why), and exits after one whose
    input the core refused (nothing stored), as `mpimark run` does (recording.run_launches).
    """
    impl = mpi.find(mpi_name, mpi_prefix)
    srun = slurm.resolve(launcher, impl.kind, srun_mpi)
    core = build.ensure_core(impl, log=note)
    with Store(db) as store:
        for index, run_id, outcome in recording.run_launches(ctx, store, launches, impl, processes, core, tool, args,
                                                             json_file, timeout=timeout, quiet=quiet,
                                                             stamp_env=stamp_env, placement=where, srun=srun):
            records = store.records(run_id)
            if each is not None:
                each(index, run_id, outcome)
            yield run_id, outcome, records, store.path


def _fail_if_incomplete(ctx: click.Context, run_id: int, outcome: launch.Outcome) -> None:
    if outcome.status != "complete":
        error_line(f"run {run_id} {outcome.status}: {outcome.message}")
        ctx.exit(exit_status(outcome))


# ------------------------------------------------------------------- b_eff


@click.command("beff", cls=PassThroughCommand, context_settings=PASS_THROUGH)
@click.argument("words", nargs=-1, type=click.UNPROCESSED, metavar="[B_EFF OPTIONS...]")
@_common
@click.option("--mem-per-proc", "mem_mb", type=click.IntRange(min=1), metavar="MB",
              help="Memory per process in MiB (b_eff's -mem; Lmax = min(128 MB, MB/128)) "
                   "[default: MemTotal / processes on the host].")
@click.option("--out", "out", metavar="DIR", default=".", show_default=True,
              help="Directory for b_eff's files: b_eff.prot .short .sum .plot .gps and b_eff.png.")
@click.option("--quiet", is_flag=True, help="Do not print the core's output (the b_eff table is still printed).")
@click.pass_context
def beff(ctx: click.Context, words: tuple[str, ...], processes: int, mpi_name: str | None, mpi_prefix: str | None,
         launcher: str | None, srun_mpi: str | None, timeout: float | None, db: str | None, json_file: str | None,
         mem_mb: int | None, out: str, quiet: bool, **placement_params) -> None:
    """b_eff, HLRS's effective bandwidth (docs/beff.md); the run is stored.

    b_eff's own options go to the core as they are: -short, -test (quick, not
    an official b_eff), -noshortlasttwo, -seed N, -yrange MIN:MAX, -mem MB.
    Prints b_eff's table and the closing line `b_eff = X MB/s = Y * N PEs
    with M MB/PE on <uname -a>`; writes the protocol (.prot), the short
    protocol (.short), the summary (.sum), the plot data (.plot, .gps) and a
    PNG of bandwidth against message length per pattern into --out DIR.
    """
    where = placement(placement_params, [processes])
    args = _refuse(words, {
        "-json": "mpimark gives the core its -json file; use --json FILE to keep a copy",
        "-out": "use --out DIR (the files are DIR/b_eff.*)", "-f": "use --out DIR (the files are DIR/b_eff.*)",
        "-help": "runs no benchmark; ask the core itself: \"$(mpimark build)\" beff -help"})
    preflight.refuse_too_few({"b_eff": 2}, processes)
    if mem_mb is not None:
        if "-mem" in (w.lower() for w in args):
            raise click.UsageError("give --mem-per-proc or -mem, not both")
        args += ["-mem", str(mem_mb)]
    directory = _out_dir(out)
    prefix = directory / BEFF_PREFIX
    outputs.refuse_database(beff_view.output_files(prefix), db, "--out")
    args += ["-out", str(prefix)]
    for run_id, outcome, records, db_path in _launch(ctx, "beff", processes, mpi_name, mpi_prefix, db, timeout,
                                                      json_file, args, quiet=quiet, where=where, launcher=launcher,
                                                      srun_mpi=srun_mpi):
        note(f"stored as run {run_id} in {tilde(db_path)}")
        if beff_view.summary(records) is not None:
            beff_view.write_png(records, prefix.with_suffix(beff_view.PNG_SUFFIX))
            files = [p for p in beff_view.output_files(prefix) if p.exists()]
            note(f"files: {', '.join(tilde(p) for p in files)}")
            click.echo()
            echo_stored(beff_view.text(records), nl=False)
        _fail_if_incomplete(ctx, run_id, outcome)


# ----------------------------------------------------------------- mpiBench


@click.command("mpibench", cls=PassThroughCommand, context_settings=PASS_THROUGH)
@click.argument("words", nargs=-1, type=click.UNPROCESSED, metavar="[MPIBENCH OPTIONS...] [OPERATIONS...]")
@_common
@click.option("--out", "out", metavar="DIR", help="Also write mpiBench's lines to DIR/mpibench.txt.")
@click.option("--quiet", is_flag=True, help="Do not print mpiBench's lines as they are measured.")
@click.pass_context
def mpibench(ctx: click.Context, words: tuple[str, ...], processes: int, mpi_name: str | None,
             mpi_prefix: str | None, launcher: str | None, srun_mpi: str | None, timeout: float | None,
             db: str | None, json_file: str | None, out: str | None, quiet: bool, **placement_params) -> None:
    """LLNL mpiBench: collectives over message sizes and sub-communicators (docs/mpibench.md); stored.

    mpiBench's options and operations go to the core as they are:
    -b/-e <byte> (sizes, e.g. 0 and 64K), -m <byte>, -i <iterations>,
    -t <usec>, -d <dims>, -p <partition size>, -c, -C, -nobar, and any of
    Barrier Bcast Alltoall Alltoallv Allgather Allgatherv Gather Gatherv
    Scatter Allreduce Reduce (default all). Each line gives Avg, Min and Max
    over the processes (µs per call) and the communicator.
    """
    where = placement(placement_params, [processes])
    args = _refuse(words, {
        "-json": "mpimark gives the core its -json file; use --json FILE to keep a copy"})
    preflight.check_processes("mpibench", args, [processes])
    lines_file = _out_file(out, "mpibench.txt", db)
    for run_id, outcome, records, db_path in _launch(ctx, "mpibench", processes, mpi_name, mpi_prefix, db, timeout,
                                                      json_file, args, quiet=quiet, where=where, launcher=launcher,
                                                      srun_mpi=srun_mpi):
        note(f"stored as run {run_id} in {tilde(db_path)}")
        if lines_file is not None:
            lines_file.write_text(mpibench_view.text(records), encoding="utf-8")
            note(f"file: {tilde(lines_file)}")
        if quiet:
            echo_stored(mpibench_view.text(records), nl=False)
        _fail_if_incomplete(ctx, run_id, outcome)


# ------------------------------------------------------------------ start-up


@click.command("startup", cls=PassThroughCommand, context_settings=PASS_THROUGH)
@click.argument("words", nargs=-1, type=click.UNPROCESSED, metavar="[STARTUP OPTIONS...]")
@_common
@launches_option("Launch N times; each launch is stored as a run of its own, together one measurement.")
@click.option("--hello", is_flag=True, help="Also print osu_hello's line (`This is a test with N processes`).")
@click.option("--init-only", is_flag=True, help="Only MPI_Init, as osu_init: no barrier phase.")
@click.option("--out", "out", metavar="DIR", help="Also write the table to DIR/startup.txt.")
@click.option("--verbose", is_flag=True, help="Print the core's output of every launch.")
@click.pass_context
def startup(ctx: click.Context, words: tuple[str, ...], processes: int, mpi_name: str | None, mpi_prefix: str | None,
            launcher: str | None, srun_mpi: str | None,
            timeout: float | None, db: str | None, json_file: str | None, launches: int, hello: bool, init_only: bool,
            out: str | None, verbose: bool, **placement_params) -> None:
    """MPI start-up time (docs/startup.md): K launches, shown as RIKEN's table; each launch is stored.

    For every launch, the time from just before the launcher starts
    (MPIMARK_LAUNCH_NS, taken by mpimark) to each rank's first instruction,
    to the end of MPI_Init and to the end of a first MPI_Barrier; TIME(MIN)
    and TIME(MAX) over the ranks per launch, and the median over launches.
    Then each launch's MPI_Init time as osu_init prints it, and the
    launcher's start-to-exit time (what `time mpiexec osu_hello` measures;
    printed, not stored); --hello adds osu_hello's line, --init-only
    measures MPI_Init alone. With --launches K, --json FILE keeps launch k's
    stream as FILE.k.jsonl.
    """
    where = placement(placement_params, [processes])
    args = _refuse(words, {
        "-json": "mpimark gives the core its -json file; use --json FILE to keep a copy",
        "-launch-ns": f"mpimark takes the launch time itself ({LAUNCH_ENV}, just before the launcher starts)",
        "-help": "runs no benchmark; ask the core itself: \"$(mpimark build)\" startup -help"})
    lowered = [w.lower() for w in args]
    if hello and "-hello" not in lowered:
        args.append("-hello")
    if init_only and "-init-only" not in lowered:
        args.append("-init-only")
    table_file = _out_file(out, "startup.txt", db)

    def progress(index: int, run_id: int, outcome: launch.Outcome) -> None:
        seconds = (outcome.exit_ns - outcome.launch_ns) / 1e9 if outcome.exit_ns and outcome.launch_ns else None
        took = f", launcher start to exit {seconds:.3f} s" if seconds is not None else ""
        note(f"launch {index + 1} of {launches}: run {run_id} {outcome.status}{took}")

    measured, ids, exits = [], [], []
    failed = None
    db_path = None
    for run_id, outcome, records, db_path in _launch(ctx, "startup", processes, mpi_name, mpi_prefix, db, timeout,
                                                      json_file, args, quiet=not verbose, launches=launches,
                                                      stamp_env=LAUNCH_ENV, each=progress, where=where, launcher=launcher,
                                                      srun_mpi=srun_mpi):
        ids.append(run_id)
        if outcome.status != "complete":
            failed = (run_id, outcome)
            break
        measured.append(startup_view.launch(records, run_id))
        if outcome.exit_ns and outcome.launch_ns:
            exits.append((outcome.exit_ns - outcome.launch_ns) / 1e6)
    if ids:
        note(f"stored as run{'s' if len(ids) > 1 else ''} {_id_list(ids)} in {tilde(db_path)}; "
              f"'mpimark show {' '.join(map(str, ids))}' shows this table again")
    if measured:
        text = startup_view.report(measured)
        if exits:
            text += (f"# launcher start to exit [s] per launch (what `time mpiexec ...` measures; not stored): "
                     f"{' '.join(f'{ms / 1000:.3f}' for ms in exits)}"
                     + (f"; median {statistics.median(exits) / 1000:.3f}" if len(exits) > 1 else "") + "\n")
        echo_stored(text, nl=False)
        if table_file is not None:
            table_file.write_text(text, encoding="utf-8")
            note(f"file: {tilde(table_file)}")
    if failed:
        _fail_if_incomplete(ctx, *failed)


def _id_list(ids: list[int]) -> str:
    if len(ids) > 2 and ids == list(range(ids[0], ids[-1] + 1)):
        return f"{ids[0]}-{ids[-1]}"
    return ", ".join(map(str, ids))


COMMANDS = (beff, mpibench, startup)
