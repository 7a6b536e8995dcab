"""Options and argument handling shared by the commands that launch the core.

run, matrix and the tools' commands take the same --mpi/--mpi-prefix and
placement options (--hosts, --hostfile, --ppn, --bind, --env,
--launcher-arg), pass IMB's single-dash options through to the core
unchanged, and exit the same way when interrupted.
"""

from __future__ import annotations

import math
import os
import re

import click

from mpimark.execution import placement as placement_module
from mpimark.execution import platforms, simulation, slurm
from mpimark.execution.mpi import SMPI
from mpimark.execution.mpi import cores
from mpimark.execution.placement import BINDS, Placement
from mpimark.records import benchmarks, osu_columns

EXIT_INTERRUPTED = 130  # as a shell reports a job ended by SIGINT


def exit_status(outcome) -> int:
    """The exit status of a launching command whose launch did not complete (outcome: launch.Outcome).

    130 interrupted; the core's own 2 (bad input), 3 (out of memory) or 4
    (-check found wrong data) when the core said why; else 1.
    """
    if outcome.status == "interrupted":
        return EXIT_INTERRUPTED
    return outcome.core_exit or 1


class Seconds(click.FloatRange):
    """A positive, finite number of seconds (or of another unit): nan would pass FloatRange(min=0) and turn
    the watchdog off."""

    name = "seconds"

    def __init__(self, unit: str = "seconds") -> None:
        super().__init__(min=0, min_open=True)
        self.unit = unit

    def convert(self, value, param, ctx):  # type: ignore[override]
        seconds = super().convert(value, param, ctx)
        if not math.isfinite(seconds):
            self.fail(f"{value!r} is not a number of {self.unit}", param, ctx)
        return seconds


# The most launches one command makes: 1000 launches of even a 1-second job keep the machine for 17
# minutes, and a typo (--launches 10000 for 100) would hold it for hours with nothing to stop it but
# Ctrl-C; compare needs 5 to 20 a side (docs/analysis.md). More: run the command again and select both.
MAX_LAUNCHES = 1000
# Launches a condition that the commands advise: compare gives a row its verdict from 4 a side (the
# Mann-Whitney test of launch medians cannot reach p <= 0.05 with fewer) and a geomean its interval from
# 2; 5 leave room for one launch that went wrong.
FEW_LAUNCHES = 5


class LaunchCount(click.ParamType):
    """--launches N: a whole number of launches from 1 to MAX_LAUNCHES; anything else one line, exit 2."""

    name = "launches"

    def convert(self, value, param, ctx):  # type: ignore[override]
        if isinstance(value, int):
            count = value
        else:
            text = str(value).strip()
            if not re.fullmatch(r"[+-]?\d+", text):
                self.fail(f"{value!r} is not a number of launches (a whole number from 1 to {MAX_LAUNCHES})",
                          param, ctx)
            count = int(text)
        if count < 1:
            self.fail(f"{count} launches measure nothing: give 1 or more", param, ctx)
        if count > MAX_LAUNCHES:
            self.fail(f"{count} is more launches than one command makes ({MAX_LAUNCHES}); run it again for more "
                      "and select the runs together", param, ctx)
        return count


class AliasedOption(click.Option):
    """An option whose old spelling still works but is not shown: --help and errors name the first only
    (`--launches`, with `--repeat` kept for scripts written before it was renamed)."""

    def get_help_record(self, ctx):  # type: ignore[override]
        opts = self.opts
        self.opts = opts[:1]
        try:
            return super().get_help_record(ctx)
        finally:
            self.opts = opts

    def get_error_hint(self, ctx):  # type: ignore[override]
        return f"'{self.opts[0]}'"


def launches_option(help: str, default: int | None = 1):
    """--launches N (old name --repeat, hidden): how many launches of each condition; see LaunchCount."""
    return click.option("--launches", "--repeat", "launches", cls=AliasedOption, type=LaunchCount(),
                        default=default, show_default=default is not None, metavar="N", help=help)


def allocation_tasks(env: dict | None = None) -> int | None:
    """The Slurm allocation's task count (SLURM_NTASKS, else SLURM_NPROCS), or None outside one."""
    env = os.environ if env is None else env
    if slurm.in_allocation(env):
        for name in ("SLURM_NTASKS", "SLURM_NPROCS"):
            if str(env.get(name, "")).isdigit() and int(env[name]) > 0:
                return int(env[name])
    return None


def _processes_or_allocation(ctx: click.Context, param: click.Parameter, value: int | None) -> int:
    if value is not None:
        return value
    tasks = allocation_tasks()
    if tasks is None:
        raise click.UsageError("no process count: give -n N (inside a Slurm allocation, salloc or a batch job, "
                               "it defaults to the allocation's SLURM_NTASKS)", ctx=ctx)
    return tasks


def processes_option(function):
    """-n/--np: the number of MPI processes; inside a Slurm allocation, the allocation's task count by default."""
    return click.option("-n", "--np", "processes", type=click.IntRange(min=1), callback=_processes_or_allocation,
                        help="Number of MPI processes [default inside a Slurm allocation: its SLURM_NTASKS; "
                             "required elsewhere].")(function)


def mpi_options(function):
    function = click.option("--mpi-prefix", metavar="DIR",
                            help="An MPI installed under DIR (DIR/bin/mpicc, DIR/bin/mpiexec).")(function)
    return click.option("--mpi", "mpi_name", metavar="NAME",
                        help="MPI implementation by name, as 'mpimark mpi list' shows [default: the first].")(function)


PLACEMENT_PARAMS = ("hosts", "hostfile", "ppn", "bind", "env", "launcher_args")
# -n above this many times the slots is refused without --oversubscribe: the launcher would fork them all,
# silently, for minutes (-n 100000 by a typo), and go on after mpimark is killed.
OVERSUBSCRIBE_FACTOR = 4


def placement_options(function):
    """--hosts/--hostfile, --ppn, --bind, --env, --launcher-arg (docs/clusters.md); see placement()."""
    for option in reversed((
        click.option("--hosts", metavar="HOST,HOST,...",
                     help="Run on these hosts, filled in order, --ppn ranks each [default: the launcher's]."),
        click.option("--hostfile", metavar="FILE", help="The hosts from a file: one per line; 'HOST slots=K' "
                                                       "and 'HOST:K' give the ranks per host."),
        click.option("--ppn", type=click.IntRange(min=1), metavar="K",
                     help="Ranks per host [default with hosts: -n divided by the hosts, rounded up]."),
        click.option("--bind", type=click.Choice(BINDS), help="Bind each rank to a core, a socket, or nothing "
                                                                "[default: the launcher's]."),
        click.option("--env", "env", metavar="NAME=VALUE", multiple=True,
                     help="Set a variable in every rank, through the launcher (repeatable)."),
        click.option("--launcher-arg", "launcher_args", metavar="ARG", multiple=True,
                     help="One word for the launcher's command line, verbatim (repeatable)."),
        click.option("--oversubscribe", is_flag=True,
                     help=f"Allow -n far above the slots (more than {OVERSUBSCRIBE_FACTOR} x the cores, the "
                          "hosts' slots, or the Slurm allocation's tasks)."),
    )):
        function = option(function)
    return function


def parse_process_counts(text: str) -> list[int]:
    """`-n 2,4` of `matrix` and `algorithms study`: distinct positive process counts."""
    try:
        counts = [int(word) for word in text.split(",")]
    except ValueError:
        counts = []
    if not counts or min(counts) < 1:
        raise click.BadParameter(f"{text!r} is not a comma-separated list of process counts (2,4)", param_hint="-n")
    if len(set(counts)) != len(counts):
        raise click.BadParameter(f"{text!r} names a process count twice", param_hint="-n")
    return counts


def placement(params: dict, processes: list[int]) -> Placement:
    """The Placement of the placement options in params (popped), checked for every process count.

    Raises PlacementError (one line: what is wrong, what to do) before
    anything is built, launched or stored.
    """
    values = {name: params.pop(name) for name in PLACEMENT_PARAMS}
    oversubscribe = params.pop("oversubscribe", False)
    where = placement_module.from_options(**values, processes=processes)
    if not oversubscribe:
        slots, what = available_slots(where)
        for n in processes:
            if n > OVERSUBSCRIBE_FACTOR * slots:
                raise click.UsageError(
                    f"-n {n} is far more than the {slots} slot(s) available ({what}): the launcher would start "
                    f"{n} processes on them; give --oversubscribe to run it anyway")
    return where


def available_slots(where: Placement, env: dict | None = None) -> tuple[int, str]:
    """How many ranks fit (slots) and where that number comes from."""
    env = os.environ if env is None else env
    tasks = allocation_tasks(env)
    if tasks is not None:
        return tasks, "the Slurm allocation's tasks"
    if where.hosts:
        per_host = where.ppn or cores()
        return per_host * len(where.hosts), (f"{len(where.hosts)} host(s) x {per_host} "
                                             + ("(--ppn or the hostfile)" if where.ppn else "cores (as here)"))
    return cores(), "the cores here"


class PassThroughCommand(click.Command):
    """A command whose unknown words, IMB's single-dash options among them, reach the core as they are.

    ignore_unknown_options alone is not enough: click reads "-npmin 2" as the
    cluster "-n pmin" and "-input" as "-i -n put". So before click parses,
    every word that is not one of the command's own options (or their value)
    moves after a "--", where click takes it as an argument, in order. An
    unknown --option stays before it, but for the osu suite, whose OSU
    options have long forms (--message-size 1:64): in its place among the
    core's words then.
    """

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        params = [p for p in self.get_params(ctx) if isinstance(p, click.Option)]
        with_value = {name for p in params if not p.is_flag for name in p.opts}
        flags = {name for p in params if p.is_flag for name in p.opts + p.secondary_opts}
        words_of: list[tuple[str, str]] = []  # (word, "ours", "theirs" or "long": an unknown --option)
        words = iter(args)
        for word in words:
            name = word.split("=", 1)[0]
            if name in with_value:
                words_of.append((word, "ours"))
                if "=" not in word:
                    words_of.append((next(words, ""), "ours"))
            elif word in flags or re.fullmatch(r"-n\d[\d,]*", word):
                words_of.append((word, "ours"))
            elif word.startswith("--") and word != "--":
                words_of.append((word, "long"))
            elif word != "--":
                words_of.append((word, "theirs"))
        first = next((word for word, kind in words_of if kind == "theirs"), "")
        long_is_theirs = first.lower() == osu_columns.SUITE
        ours = [word for word, kind in words_of if kind == "ours" or (kind == "long" and not long_is_theirs)]
        theirs = [word for word, kind in words_of if kind == "theirs" or (kind == "long" and long_is_theirs)]
        return super().parse_args(ctx, ours + ["--", *theirs])


def suite_and_args(words: tuple[str, ...]) -> tuple[str, list[str]]:
    """The suite (the first word when it names one, else mpi1) and the words for the core."""
    args = list(words)
    lowered = [word.lower() for word in args]
    if "-json" in lowered:
        raise click.UsageError("mpimark gives the core its -json file; use --json FILE to keep a copy")
    # SUITE is optional: the first word is a suite only when it is one of the core's (mpi1 first).
    suites = benchmarks.suite_names()
    suite = lowered[0] if lowered and lowered[0] in suites else suites[0]
    # They print and run nothing: there would be no run to store. OSU's -v too; its -h is mpimark's --help.
    for word in ("-list", "-help", *(("-v", "--version") if suite == osu_columns.SUITE else ())):
        if word in lowered:
            program = f" {args[1]}" if suite == osu_columns.SUITE and word != "-list" and len(args) > 1 else ""
            raise click.UsageError(f"{word} runs no benchmark; ask the core itself: \"$(mpimark build)\" "
                                   f"{suite}{program} {word}")
    if args and args[0].lower() in suites:
        return args[0].lower(), args[1:]
    return suites[0], args


def launcher_options(function):
    """--launcher mpiexec|srun and --srun-mpi PLUGIN (execution/slurm.py)."""
    function = click.option("--srun-mpi", metavar="PLUGIN",
                            help="srun's --mpi plugin [default: $SLURM_MPI_TYPE, else pmix for Open MPI, "
                                 "pmi2 for MPICH and Intel MPI].")(function)
    return click.option("--launcher", type=click.Choice(("mpiexec", "srun")),
                        help="Start the ranks with the implementation's mpiexec, or with Slurm's srun "
                             "[default: srun inside a Slurm allocation when it has the PMI plugin needed, "
                             "else mpiexec].")(function)


def simulation_options(function):
    """--platform and --coll-selector: a run simulated by SimGrid's SMPI (--mpi smpi; docs/simulation.md)."""
    function = click.option("--coll-selector", type=click.Choice(simulation.COLL_SELECTORS),
                            help="SMPI's collective algorithms: those of this library "
                                 f"[default: {simulation.DEFAULT_COLL_SELECTOR}; --mpi smpi only].")(function)
    return click.option("--platform", "platform_name", metavar="NAME|FILE",
                        help=f"The simulated machine of --mpi smpi: {', '.join(platforms.SHIPPED_NAMES)} "
                             "(shipped; NAME:SIZE for other sizes) or a SimGrid platform XML file.")(function)


# Placement options that say where real processes go: a simulation places its ranks on the platform's hosts.
_NOT_SIMULATED = {"hosts": "--hosts", "hostfile": "--hostfile", "bind": "--bind", "oversubscribe": "--oversubscribe"}


def simulation_of(mpi_name: str | None, platform_name: str | None, coll_selector: str | None, params: dict,
                  launcher: str | None) -> simulation.Simulation | None:
    """The Simulation the options ask for (popping the placement options from params), or None.

    One line, exit 2, for what a simulation cannot take or a measured run cannot: --platform or
    --coll-selector without --mpi smpi, --mpi smpi without --platform, --hosts/--bind/--launcher srun
    with it, and a --platform that names no SimGrid platform.
    """
    if mpi_name != SMPI:
        for given, option in ((platform_name, "--platform"), (coll_selector, "--coll-selector")):
            if given is not None:
                raise click.UsageError(f"{option} is for simulated runs: give --mpi {SMPI} with it "
                                       "(SimGrid SMPI), or leave it out")
        return None
    if platform_name is None:
        raise click.UsageError(f"--mpi {SMPI} simulates a machine: give --platform NAME|FILE, a shipped "
                               f"platform ({', '.join(platforms.SHIPPED_NAMES)}) or a SimGrid platform XML file")
    for name, option in _NOT_SIMULATED.items():
        if params.get(name):
            raise click.UsageError(f"{option} does not apply to a simulated run: the ranks go on the hosts of "
                                   "--platform, --ppn K on each")
    if launcher == "srun":
        raise click.UsageError(f"--launcher srun does not start simulated runs: --mpi {SMPI} runs smpirun")
    try:
        platform = platforms.resolve(platform_name)
    except platforms.PlatformError as exc:
        raise click.UsageError(str(exc)) from None
    return simulation.Simulation(platform=platform, ppn=params.get("ppn") or 1,
                                 coll_selector=coll_selector or simulation.DEFAULT_COLL_SELECTOR,
                                 launcher_args=tuple(params.get("launcher_args") or ()))


def simulated_placement(params: dict) -> Placement:
    """The placement of a simulated run: only its --env (for smpirun's environment); the options popped."""
    values = {name: params.pop(name) for name in PLACEMENT_PARAMS}
    params.pop("oversubscribe", False)
    return Placement(env=placement_module.parse_env(values["env"] or ()))
