"""`mpimark matrix`: a study of the same benchmarks under several MPI implementations.

Declarations and wiring only: the order of the launches and running them is
matrix.py, each launch is recording.run_stored (as `mpimark run`), finding MPIs
mpi.py, building build.py, study membership studies.py.
"""

from __future__ import annotations

import random
import shlex
import sys
from datetime import datetime, timezone
from pathlib import Path

import click
from rich.table import Table
from rich.text import Text

from mpimark.analysis import gate, sequential
from mpimark.analysis.statistics import MIN_SAMPLES
from mpimark.commands import console, db_option, error_line, note, preflight, recording, until_decided
from mpimark.commands.analysis_cmds import Percent
from mpimark.commands.options import EXIT_INTERRUPTED, FEW_LAUNCHES, launcher_options, LaunchCount, \
    launches_option, PassThroughCommand, placement, placement_options, parse_process_counts, Seconds, suite_and_args
from mpimark.execution import build, matrix, mpi, slurm
from mpimark.presentation import gate_text, sequential_text
from mpimark.presentation.cells import text as cell_text
from mpimark.storage import studies
from mpimark.storage.store import default_path, Store, StoreError


def _names(text: str) -> list[str]:
    names = [name.strip() for name in text.split(",")]
    if not all(names):
        raise click.BadParameter(f"{text!r} is not a comma-separated list of names", param_hint="--mpi")
    return names


def _clock(seconds: float) -> str:
    seconds = int(round(seconds))
    return f"{seconds // 3600}:{seconds // 60 % 60:02}:{seconds % 60:02}"


def _members(names: list[str]) -> list[matrix.Member]:
    """Each name's implementation and its core, every core built before anything runs."""
    impls = [mpi.find(name) for name in names]
    for i, impl in enumerate(impls):
        for j in range(i):
            if impls[j].mpicc == impl.mpicc:
                raise click.UsageError(f"--mpi names {impl.name} twice ({names[j]}, {names[i]})")
    return [matrix.Member(name, impl, build.ensure_core(impl, log=note)) for name, impl in zip(names, impls)]


@click.command("matrix", cls=PassThroughCommand,
               context_settings={"ignore_unknown_options": True, "allow_extra_args": True})
@click.argument("words", nargs=-1, type=click.UNPROCESSED, metavar="[SUITE] [BENCHMARK...] [IMB OPTIONS...]")
@click.option("--mpi", "mpi_names", required=True, metavar="LIST",
              help="MPI implementations, comma-separated, as 'mpimark mpi list' names them or by kind "
                   "(openmpi,mpich,impi); they label the study's runs.")
@click.option("-n", "--np", "counts", required=True, metavar="LIST", help="Process counts, comma-separated (2,4).")
@launches_option("Launches of each implementation at each process count, interleaved: one round launches "
                 "every one once, N rounds.")
@click.option("--shuffle", is_flag=True, help="Shuffle each round's order (a random seed, recorded).")
@click.option("--seed", type=click.IntRange(min=0), help="Shuffle each round's order with this seed.")
@click.option("--study", metavar="NAME", help="Study name [default: matrix-<UTC date and time>].")
@click.option("--append", is_flag=True, help="Add to an existing study instead of refusing its name.")
@click.option("--timeout", type=Seconds(), metavar="SECONDS",
              help="Kill a launch after this long and store it as failed; the study goes on.")
@click.option("--tables", is_flag=True, help="Print IMB's tables of every launch.")
@click.option("--until-decided", "until", is_flag=True,
              help="Launch round after round until the regression gate (--fail-if-slower) decides each "
                   "implementation against the first, or the budget ends; exit as compare's gate: 0, 3, 4.")
@click.option("--fail-if-slower", "fail_if_slower", type=Percent(), metavar="PERCENT",
              help="With --until-decided: the gate's threshold, as compare's.")
@click.option("--max-launches", type=LaunchCount(), metavar="N",
              help=f"With --until-decided: at most N launches a side (rounds), 2 to 1000 "
                   f"[default: {sequential.DEFAULT_MAX_LAUNCHES}].")
@click.option("--max-minutes", type=Seconds("minutes"), metavar="MINUTES",
              help="With --until-decided: start no round that would likely end after this many minutes.")
@launcher_options
@placement_options
@db_option
@click.pass_context
def matrix_command(ctx: click.Context, words: tuple[str, ...], mpi_names: str, counts: str, launches: int,
                   shuffle: bool, seed: int | None, study: str | None, append: bool, timeout: float | None,
                   tables: bool, until: bool, fail_if_slower: float | None, max_launches: int | None,
                   max_minutes: float | None, launcher: str | None, srun_mpi: str | None, db: str | None,
                   **placement_params) -> None:
    """Run the same benchmarks under several MPI implementations and process counts, as one study.

    Builds the core for each implementation first, then launches round robin:
    each round runs every process count under every implementation, side by
    side, so that drift of the machine hits all of them alike. Every launch is
    stored as a run of the study (failed ones too); compare, plot and report
    take the study: `mpimark matrix --mpi openmpi,mpich,impi -n 2,4 --launches 5
    PingPong Allreduce -msglog 0:20`. Each launch measures at its own process
    count (-npmin N is added unless given). The placement options
    (docs/clusters.md) apply to every launch.

    With --until-decided --fail-if-slower 5% it launches rounds until the
    regression gate decides every implementation against the first, looking
    after 3, 5, 8, 12, 18, ... launches a side, each look at its share of
    alpha (docs/analysis.md, "Until decided"), or until --max-launches
    (default 30) or --max-minutes ends it; exit 0 not slower, 3 slower, 4
    undecided, 130 interrupted.
    """
    labels, process_counts = _names(mpi_names), parse_process_counts(counts)
    sequence = _sequence(ctx, labels, until, fail_if_slower, max_launches, max_minutes, append)
    if sequence is not None:
        launches = sequence.budget
    suite, core_args = suite_and_args(words)
    where = placement(placement_params, process_counts)
    preflight.check_processes(suite, core_args, process_counts)
    if len(set(labels)) != len(labels):
        raise click.UsageError(f"--mpi names an implementation twice: {mpi_names}")
    if shuffle and seed is None:
        seed = random.SystemRandom().randrange(2**31)
    study = study or datetime.now(timezone.utc).strftime("matrix-%Y%m%d-%H%M%S")
    studies.check_name(study)
    with Store(db) as store:
        existing = studies.members(store, study)
    if existing and not append:
        raise StoreError(f"study {study!r} exists already ({len(existing)} runs); give another --study name, "
                         "or --append to add to it")
    srun = {label: slurm.resolve(launcher, mpi.find(label).kind, srun_mpi) for label in labels}  # before building
    members = _members(labels)
    planned = matrix.plan(labels, process_counts, launches, seed)
    if launches < FEW_LAUNCHES and sequence is None:
        note(f"note: {launches} launch{'es' if launches > 1 else ''} per implementation and process count: compare "
             f"decides on launches, and needs {MIN_SAMPLES} a side for a row's verdict (Mann-Whitney on launch "
             f"medians) and 2 a side for a geomean's interval; use --launches {FEW_LAUNCHES} or more")
    order = "round robin" + (f", each round shuffled with seed {seed}" if seed is not None else "")
    most = "" if sequence is None else "up to "
    note(f"study {study}: {most}{len(planned)} launches ({len(labels)} implementations x {len(process_counts)} "
         f"process counts x {most}{launches} round{'s' if launches > 1 else ''}), {order}")
    if sequence is not None:
        note(sequential_text.plan_line(sequence, fail_if_slower))
    with Store(db) as store:
        studies.add_plan(store, study, {
            "command": ["mpimark", "matrix", *sys.argv[2:]] if sys.argv[1:2] == ["matrix"] else None,
            "implementations": [{"label": m.label, "name": m.impl.name, "library_version": m.impl.library_version,
                                 "prefix": m.impl.prefix} for m in members],
            "processes": process_counts, "launches": launches, "seed": seed, "suite": suite, "args": core_args,
            "placement": None if where.is_default else where.to_record(),
            **({} if sequence is None else {"until_decided": {
                "threshold": fail_if_slower, "alpha": sequence.alpha, "checkpoints": list(sequence.checkpoints),
                "max_minutes": max_minutes}}),
        })
        done: list[matrix.Done] = []

        def started(launch: matrix.Launch) -> None:
            note(f"[{launch.index}/{len(planned)}] round {launch.round} of {most}{launches}: {launch.label}, "
                 f"{launch.processes} processes")

        def ended(item: matrix.Done) -> None:
            done.append(item)
            left = matrix.estimate_left(done, planned[item.launch.index:])
            eta = f"; {'at most ' if most else ''}about {_clock(left)} left" if left else ""
            why = f" ({item.message})" if item.message else ""
            note(f"[{item.launch.index}/{len(planned)}] run {item.run_id} {item.status}{why}: {item.results} "
                  f"results in {_clock(item.seconds)}, load {item.load_before:.2f} before{eta}")

        by_label = {m.label: m for m in members}

        def launch(order: list[matrix.Launch]) -> list[matrix.Done]:
            return recording.run_matrix(store, study, order, by_label, suite, core_args, timeout=timeout,
                                        quiet=not tables, on_start=started, on_done=ended, placement=where,
                                        srun=srun)

        if sequence is None:
            launch(planned)
        else:
            end = until_decided.launch_until_decided(
                until_decided.rounds_of(planned), launch, lambda: until_decided.study_gated(store, study),
                sequence, fail_if_slower, None if max_minutes is None else max_minutes * 60, note)
    _print_summary(study, done, members, process_counts, db)
    if sequence is not None:
        _print_sequence_end(end, sequence, fail_if_slower, max_launches, max_minutes)
    bad = [d for d in done if d.status != "complete"]
    if (sequence is None and len(done) < len(planned)) or (done and done[-1].status == "interrupted"):
        error_line(f"interrupted after {len(done)} of {most}{len(planned)} launches; the study holds what ran")
        ctx.exit(EXIT_INTERRUPTED)
    if bad:
        runs = ", ".join(f"run {d.run_id} {d.status}" for d in bad)
        error_line(f"{len(bad)} of {len(done)} launches did not complete ({runs}); "
                   "'mpimark show RUN' says what they hold")
        ctx.exit(1)
    if sequence is not None:
        ctx.exit(end.decision.exit_status if end.decision else gate.EXIT_STATUS[gate.UNDECIDED])


def _sequence(ctx: click.Context, labels: list[str], until: bool, threshold: float | None,
              max_launches: int | None, max_minutes: float | None, append: bool) -> sequential.Plan | None:
    """The looks of --until-decided (None without it), its options checked before anything is built."""
    given = [name for name, value in (("--fail-if-slower", threshold), ("--max-launches", max_launches),
                                      ("--max-minutes", max_minutes)) if value is not None]
    if not until:
        if given:
            raise click.UsageError(f"{given[0]} goes with --until-decided (a fixed matrix is gated afterwards: "
                                   "mpimark compare STUDY --fail-if-slower PERCENT)")
        return None
    if threshold is None:
        raise click.UsageError("--until-decided needs --fail-if-slower PERCENT: the threshold the gate decides on")
    if ctx.get_parameter_source("launches") is not click.core.ParameterSource.DEFAULT:
        raise click.UsageError("--until-decided chooses the launches itself: give --max-launches N, not --launches")
    if append:
        raise click.UsageError("--until-decided makes a study of its own: --append would pool launches its looks "
                               "did not plan")
    if len(labels) < 2:
        raise click.UsageError("--until-decided compares implementations: --mpi needs two or more")
    if max_launches is not None and max_launches < 2:
        raise click.UsageError(f"--max-launches {max_launches}: a look needs 2 launches a side for an interval; "
                               "give 2 or more")
    return sequential.plan(max_launches or sequential.DEFAULT_MAX_LAUNCHES)


def _print_sequence_end(end: until_decided.Ended, sequence: sequential.Plan, threshold: float,
                        max_launches: int | None, max_minutes: float | None) -> None:
    """The last look's gate summary (as compare's), the looks' plan, and how the sequence ended."""
    if end.decision is not None:
        click.echo("\n".join(gate_text.gate_lines(end.decision, end.gated)))
    click.echo(sequential_text.plan_line(sequence, threshold))
    budget = (f"--max-minutes {max_minutes:g}" if end.reason == sequential_text.MINUTES_SPENT
              else f"--max-launches {max_launches or sequential.DEFAULT_MAX_LAUNCHES}")
    click.echo(sequential_text.end_line(end.reason, end.launches, end.seconds, budget))


def _print_summary(study: str, done: list[matrix.Done], members: list[matrix.Member], counts: list[int],
                   db: str | None) -> None:
    out = console(sys.stdout)
    table = Table(title=cell_text(f"study {study}"), title_justify="left")
    for header, justify in (("implementation", "left"), ("MPI library", "left"), ("np", "right"),
                            ("launches", "right"), ("complete", "right"), ("results", "right"),
                            ("median time", "right"), ("runs", "left")):
        table.add_column(header, justify=justify)
    library = {m.label: f"{m.impl.vendor} {m.impl.version}" for m in members}
    for cell in matrix.summary(done, [m.label for m in members], counts):
        style = None if cell.complete == cell.launches else "yellow"
        table.add_row(*(cell_text(value) for value in (  # labels and library strings: escapes shown
            cell.label, library[cell.label], cell.processes, cell.launches, cell.complete, cell.results,
            _clock(cell.median_seconds), ", ".join(map(str, cell.run_ids)))), style=style)
    out.print(table)
    if done:
        loads = [d.load_before for d in done]
        total = sum(d.seconds for d in done)
        out.print(Text(f"{len(done)} launches in {_clock(total)}; 1-minute load average before them "
                       f"{min(loads):.2f} to {max(loads):.2f} (median {sorted(loads)[len(loads) // 2]:.2f}) "
                       f"on {mpi.cores()} cores"))
    db_words = [] if db is None or Path(db).resolve() == default_path().resolve() else ["--db", db]
    labels = [m.label for m in members]
    lines = [("compare:", ["mpimark", "compare", study, *db_words], f"every implementation against {labels[0]}")]
    if len(labels) > 1:
        lines.append(("", ["mpimark", "compare", f"{study}:{labels[0]}", f"{study}:{labels[1]}", *db_words], None))
    lines.append(("report:", ["mpimark", "report", study, "-o", "report.html", *db_words], None))
    lines.append(("plots:", ["mpimark", "plot", study, "-o", "plots/", *db_words], None))
    for head, argv, comment in lines:
        out.print(cell_text(f"{head:9}{shlex.join(argv)}" + (f"    # {comment}" if comment else "")))


COMMANDS = (matrix_command,)
