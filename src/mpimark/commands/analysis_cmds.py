"""Commands that analyse stored runs (compare, plot, report), bring other suites' output in
(import), and group runs into studies (study add, study list)."""

from __future__ import annotations

import dataclasses
import json
import re
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

import click
from rich.console import Console

from mpimark.analysis import gate
from mpimark.analysis.launches import compare_launches, Comparison
from mpimark.analysis.statistics import CORRECTIONS, DEFAULT_CORRECTION
from mpimark.commands import db_option, echo_stored, note, outputs
from mpimark.errors import MpimarkError
from mpimark.records.mpi_library import label as library_label
from mpimark.presentation import comparison, gate_text
from mpimark.presentation.cells import terminal
from mpimark.presentation.selfcheck_notes import series_warnings
from mpimark.records import placement, simulation
from mpimark.storage import studies
from mpimark.storage.uniformity import mixed_launches
from mpimark.storage.importers import FORMATS as IMPORT_FORMATS, file_sha256, parse_file, store_parsed
from mpimark.storage.simulated import by_simulation
from mpimark.storage.selection import by_placement, load, resolve, run_label, Series, streamed, with_results_of
from mpimark.storage.store import Store

class ByteSize(click.ParamType):
    """A message size: 1048576, 4K, 1M, 1MiB (binary multiples, as IMB's sizes)."""

    name = "bytes"
    _units = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30}

    def convert(self, value, param, ctx):
        if isinstance(value, int):
            return value
        match = re.fullmatch(r"\s*(\d+)\s*([kmg]?)(?:i?b)?\s*", str(value), re.I)
        if not match:
            self.fail(f"{value!r} is not a size in bytes (e.g. 1048576, 64K, 1M)", param, ctx)
        return int(match.group(1)) * self._units[match.group(2).lower()]


class Percent(click.ParamType):
    """A threshold as a percentage: 5%, 5 or 0.5% (a fraction of 1 is returned: 0.05)."""

    name = "percent"

    def convert(self, value, param, ctx):
        if isinstance(value, float):
            return value
        match = re.fullmatch(r"\s*(\d+(?:\.\d*)?|\.\d+)\s*%?\s*", str(value))
        if not match:
            self.fail(f"{value!r} is not a percentage (e.g. 5%)", param, ctx)
        return float(match.group(1)) / 100


SIZE_OPTION = click.option("--size", type=ByteSize(), default=None,
                           help="Message size of the process-count plots and tables [default: 1M if measured].")


def _console(width: int = 140) -> Console:
    return Console(file=sys.stdout, width=None if sys.stdout.isatty() else width)


def _one_series(store: Store, selector: str, side: str, results: bool = True) -> Series:
    found = resolve(store, selector, results)
    if len(found) != 1:
        names = ", ".join(f"{selector}:{s.label}" for s in found)
        raise MpimarkError(f"{side} ({selector}) names {len(found)} implementations; pick one: {names}")
    return found[0]


def _describe(series: Series) -> str:
    ids = ", ".join(str(run.row.id) for run in series.runs)
    simulated = _simulation_of(series)  # in every header and legend that names the side
    return f"{series.label} (run{'s' if len(series.runs) > 1 else ''} {ids}" + (
        f"; {simulation.label(simulated)})" if simulated else ")")


class ByteSizes(click.ParamType):
    """A comma-separated list of message sizes: 0,1K,1M."""

    name = "sizes"

    def convert(self, value, param, ctx):
        if isinstance(value, (list, tuple)):
            return list(value)
        return [ByteSize().convert(word, param, ctx) for word in str(value).split(",")]


def _only_sizes(runs: Iterable[Iterable[dict]], sizes: list[int] | None) -> list[Iterable[dict]]:
    """Each run's records; with sizes, its result rows of those sizes only (as the records are read)."""
    if not sizes:
        return list(runs)
    return [(r for r in records if r["type"] != "result" or r["bytes"] in sizes) for records in runs]


@click.command("compare")
@click.argument("a", metavar="A")
@click.argument("b", metavar="[B]", required=False)
@click.option("--baseline", metavar="IMPL",
              help="With a study alone: the implementation the others are compared with [default: the first].")
@click.option("--bytes", "sizes", type=ByteSizes(), metavar="LIST",
              help="Only these message sizes, comma-separated (8,1K,1M); the geomean is over them.")
@click.option("--format", "fmt", type=click.Choice(("table", *comparison.EXPORTS)), default="table",
              show_default=True, help="table: for a terminal; markdown, csv, json: for export.")
@click.option("--alpha", type=click.FloatRange(0, 1, min_open=True, max_open=True), default=0.05,
              show_default=True, help="Error rate: of the row tests (after the correction), and of the gate's "
                                      "simultaneous intervals together.")
@click.option("--correction", type=click.Choice(CORRECTIONS), default=DEFAULT_CORRECTION, show_default=True,
              help="Correction of the row tests' p values across the table: bh (Benjamini-Hochberg, false "
                   "discovery rate), holm (family-wise error rate) or none. The row verdicts are information; "
                   "the gate decides on the geomeans.")
@click.option("--fail-if-slower", "fail_if_slower", type=Percent(), metavar="PERCENT",
              help="Regression gate on the geomean ratios over launches (the whole table's and each "
                   "benchmark's): exit 0 when every interval lies below 1 + PERCENT (not slower), 3 when one "
                   "lies above it (slower), 4 when the launches cannot tell (undecided: the summary says how "
                   "many launches a side would).")
@click.option("--allow-mixed", is_flag=True,
              help="Compare a side whose launches are not one condition (another MPI library, placement or job "
                   "size, or simulated and measured launches, pooled in the same rows), with a warning, instead of "
                   "refusing it.")
@db_option
def compare_command(a: str, b: str | None, baseline: str | None, sizes: list[int] | None, fmt: str, alpha: float,
                    correction: str, fail_if_slower: float | None, allow_mixed: bool, db: str | None) -> None:
    """Compare B with A, launch by launch: per row the median of each side's launch values, B/A with its
    interval over launches, a Mann-Whitney verdict on the launch values (slower, faster, ~, or ? with too
    few launches); per benchmark and overall the geomean B/A with its interval over launches.

    A and B are run ids, ranges or lists of them (12-16, 12,14,16) or
    STUDY:IMPL selectors; each run is one launch, and a run id that is a
    launch of a measurement (run --launches N) stands for all its launches.
    One launch a side gives ratios only: launches decide (mpimark run
    --launches 5). A study alone (`mpimark compare STUDY`) compares each of its
    implementations with the first (or --baseline).

    With --fail-if-slower 5% it is a regression gate for CI. Exit status 0:
    decided, not slower by 5 % (every geomean's interval below 1.05); 3:
    decided, slower (an interval above 1.05); 4: undecided (too few launches,
    or an interval across 1.05; the summary says how many launches a side
    would likely decide). 1 is an error, 2 a usage error, a simulated side
    against a measured one included (SimGrid SMPI runs: a model, no verdict).
    """
    if b is None:
        gated = _compare_study(a, baseline, sizes, fmt, alpha, correction, allow_mixed, db, fail_if_slower)
        _gate(gated, fail_if_slower, fmt, alpha, named=True)
        return
    if baseline:
        raise click.UsageError("--baseline goes with a study alone (mpimark compare STUDY --baseline IMPL)")
    with Store(db, for_reading=True) as store:  # each run read as compared: two runs of any size
        side_a, side_b = _one_series(store, a, "A", results=False), _one_series(store, b, "B", results=False)
        _refuse_simulated_gate([("A", side_a), ("B", side_b)], fail_if_slower)
        mixed = _mixed(store, [("A", side_a), ("B", side_b)], allow_mixed)
        result = compare_launches(_only_sizes(streamed(store, side_a), sizes),
                                  _only_sizes(streamed(store, side_b), sizes), alpha, correction)
    if not result.rows:
        raise MpimarkError(f"{a} and {b} have no measured row in common (same benchmark, processes, mode, "
                           "group and size); 'mpimark show RUN' lists what each holds")
    label_a, label_b = _describe(side_a), _describe(side_b)
    result = _with_placement_notes(result, side_a, side_b, "A", "B")
    result = dataclasses.replace(result, warnings=[*_simulated([("A", side_a), ("B", side_b)]), *mixed,
                                                   *_self_checks([("A", side_a), ("B", side_b)]), *result.warnings])
    if fmt == "table":
        terminal = _console()
        for part in comparison.rich_parts(result, label_a, label_b, terminal.width):
            terminal.print(part)
    else:
        sys.stdout.write(comparison.EXPORTS[fmt](result, label_a, label_b))
    _gate([(a, b, result)], fail_if_slower, fmt, alpha)


def _gate(gated: gate_text.Gated, threshold: float | None, fmt: str, alpha: float, named: bool = False) -> None:
    """The regression gate's summary, and its exit status (analysis/gate.py): 0, 3 or 4. named: each B's
    label names its geomeans (a study's implementations against its baseline)."""
    if threshold is None:
        return
    decision = gate.decide([(b if named else "", c) for _, b, c in gated], threshold, alpha)
    if fmt == "markdown":
        sys.stdout.write("\n" + gate_text.gate_markdown(decision, gated))
    else:
        echo_stored("\n".join(gate_text.gate_lines(decision, gated)), err=fmt != "table")
    if decision.exit_status:
        raise click.exceptions.Exit(decision.exit_status)


def _mixed(store: Store, sides: list[tuple[str, Series]], allowed: bool) -> list[str]:
    """Each side's launches must be one condition (storage/uniformity.py): refused with the reason, or with
    --allow-mixed the reasons as warnings."""
    reasons = [f"{name} pools unlike launches: {reason}" for name, series in sides
               for reason in mixed_launches(series, store)]
    if reasons and not allowed:
        raise MpimarkError(f"{reasons[0]}{f' (and {len(reasons) - 1} more)' if len(reasons) > 1 else ''}; "
                           "select launches of one condition (a run range such as 12-16, or a study's "
                           "implementation), or compare them anyway with --allow-mixed")
    return reasons


def _simulation_of(series: Series) -> dict | None:
    """The simulation of a side's runs (records/simulation.py), None when they were measured. A side pooling
    both is refused (or warned of, --allow-mixed) by _mixed; its first simulated run stands for it here."""
    return next((run.row.simulation for run in series.runs if run.row.simulation), None)


def _simulated(sides: list[tuple[str, Series]]) -> list[str]:
    """A line where a simulated side meets a measured one, or sides simulated on different platforms: their
    difference is a model's, not a measurement's, and a reader must not take it for one."""
    return simulation.mixing([(name, _simulation_of(series)) for name, series in sides])


def _refuse_simulated_gate(sides: list[tuple[str, Series]], threshold: float | None) -> None:
    """The gate gives no verdict between a simulated side and a measured one: slower or not, it would say
    how far the simulator's model is from the machine, not whether a change made anything slower."""
    if threshold is None:
        return
    simulated = [name for name, series in sides if _simulation_of(series)]
    measured = [name for name, series in sides if not _simulation_of(series)]
    if simulated and measured:
        raise click.UsageError(
            f"--fail-if-slower: {' and '.join(simulated)} {'is' if len(simulated) == 1 else 'are'} simulated, "
            f"{' and '.join(measured)} measured; the gate decides between runs of one kind only (a simulated "
            "run against a measured one tells the model's error, not a regression); compare them without "
            "--fail-if-slower to see the difference")


def _self_checks(sides: list[tuple[str, Series]]) -> list[str]:
    """The self-check warnings of each side's runs, named by side: beside the verdicts drawn from them."""
    return [f"self-check of {name}: {line}" for name, series in sides for line in series_warnings(series)]


def _placed(series: Series) -> list[tuple[dict | None, str | None]]:
    return [(run.row.placement, placement.shape(run.row.nodes, run.row.ranks_per_node)) for run in series.runs]


def _with_placement_notes(result: Comparison, side_a: Series, side_b: Series, name_a: str,
                          name_b: str) -> Comparison:
    """The comparison with a warning for each way the two sides were placed or set up differently."""
    notes = placement.side_differences(_placed(side_a), _placed(side_b), name_a, name_b)
    return dataclasses.replace(result, warnings=[*result.warnings, *notes]) if notes else result


def _library(series: Series) -> str:
    """"MPICH 4.0.2" for a series' MPI library (its first run's), else what a legend would say."""
    row = series.runs[0].row
    return library_label(row.mpi_library_version) or run_label(row)


def study_comparisons(store: Store, selector: str, baseline: str | None = None, sizes: list[int] | None = None,
                      alpha: float = 0.05, correction: str = DEFAULT_CORRECTION, allow_mixed: bool = False
                      ) -> tuple[list[Series], Series, list[tuple[str, Comparison]]]:
    """A study's implementations, its baseline, and each other implementation compared with the baseline:
    what `mpimark compare STUDY` shows and gates, and what `matrix --until-decided` looks at."""
    series = resolve(store, selector, results=False)
    if len(series) < 2:
        raise click.UsageError(f"{selector} names one implementation: give B to compare it with, "
                               "or a study of several implementations alone")
    labels = [s.label for s in series]
    if baseline is not None and baseline not in labels:
        raise MpimarkError(f"--baseline {baseline}: {selector} has no such implementation; it has "
                           f"{', '.join(labels)}")
    base = next(s for s in series if s.label == (baseline or labels[0]))
    mixed = _mixed(store, [(s.label, s) for s in series], allow_mixed)
    pairs = []
    for other in (s for s in series if s is not base):  # each run read as compared (as compare A B)
        compared = compare_launches(_only_sizes(streamed(store, base), sizes),
                                    _only_sizes(streamed(store, other), sizes), alpha, correction)
        compared = _with_placement_notes(compared, base, other, base.label, other.label)
        notes = _simulated([(base.label, base), (other.label, other)])
        notes += [m for m in mixed if m.startswith((f"{base.label} ", f"{other.label} "))]
        notes += _self_checks([(base.label, base), (other.label, other)])
        pairs.append((other.label, dataclasses.replace(compared, warnings=[*notes, *compared.warnings])))
    return series, base, pairs


def _compare_study(selector: str, baseline: str | None, sizes: list[int] | None, fmt: str, alpha: float,
                   correction: str, allow_mixed: bool, db: str | None, fail_if_slower: float | None = None
                   ) -> gate_text.Gated:
    with Store(db, for_reading=True) as store:
        if fail_if_slower is not None:  # before any comparison is made: refused, it would decide nothing
            _refuse_simulated_gate([(s.label, s) for s in resolve(store, selector, False)], fail_if_slower)
        series, base, pairs = study_comparisons(store, selector, baseline, sizes, alpha, correction, allow_mixed)
    if not any(c.rows for _, c in pairs):
        raise MpimarkError(f"the implementations of {selector} have no measured row in common (same benchmark, "
                           "processes, mode, group and size)")
    described = {s.label: f"{_library(s)}, run{'s' if len(s.runs) > 1 else ''} "
                          f"{', '.join(str(run.row.id) for run in s.runs)}"
                          + (f", {simulation.label(_simulation_of(s))}" if _simulation_of(s) else "") for s in series}
    if fmt == "table":
        terminal = _console(100 + 45 * len(pairs))
        for part in comparison.many_rich_parts(base.label, pairs, described, terminal.width):
            terminal.print(part)
    else:
        sys.stdout.write(comparison.MANY_EXPORTS[fmt](base.label, pairs, described))
    return [(base.label, label, compared) for label, compared in pairs]


@click.command("plot")
@click.argument("selectors", metavar="RUN...", nargs=-1, required=True)
@click.option("-o", "--output", "directory", required=True, type=click.Path(file_okay=False),
              help="Directory for the plot files (created if missing).")
@click.option("--format", "fmt", type=click.Choice(("png", "svg")), default="png", show_default=True)
@SIZE_OPTION
@db_option
def plot_command(selectors: tuple[str, ...], directory: str, fmt: str, size: int | None, db: str | None) -> None:
    """Plot time and bandwidth against message size, and collectives' time against process count.

    One figure per benchmark and process count; the runs overlaid, named by
    their MPI library. A benchmark measured at more than 4 process counts
    gets one figure per series instead, with a line per count. RUN is a run
    id, STUDY all implementations of a study, STUDY:IMPL one of them."""
    # matplotlib takes a second to import: only for the commands that draw
    from mpimark.presentation import plots

    written = 0
    with Store(db, for_reading=True) as store:
        # simulated runs: series of their own, "(simulated, PLATFORM)" in every legend (storage/simulated.py)
        series = by_simulation(by_placement(load(store, selectors, results=False)))
        # a benchmark at a time, each plot written as it is drawn: runs of any size, one series or several
        for batch in filter(None, _plots_by_benchmark(store, series, size)):
            for path in plots.write(batch, Path(directory), fmt,
                                    check=lambda paths: outputs.refuse_database(paths, db, "-o")):
                click.echo(str(path))
                written += 1
    if not written:
        raise MpimarkError("nothing to plot: the selected runs have no measured results")


def _plots_by_benchmark(store: Store, series: list[Series], size: int | None) -> Iterator[list]:
    """plots.size_plots and plots.scaling_plots of the series, in their order, a table at a time.

    by_benchmark.order keys tables by first appearance series after series, as plots.tables_of does,
    and each table's lines come from every series narrowed to its benchmark: the same plots as from
    the whole runs."""
    from mpimark.presentation import by_benchmark, plots

    keys, collectives = by_benchmark.order(store, series)
    style, many = plots.styles(series), plots.many_counts(keys)  # many: one figure for all counts
    yield from by_benchmark.tables(store, series, keys, lambda key, lines, narrow: plots.table_plots(
        key, lines, style, plots.skipped_sizes(key, narrow)) if plots.family(key) not in many else [])
    for found in sorted(many, key=lambda f: [plots.family(k) for k in keys].index(f)):
        yield plots.counts_plots(found, with_results_of(store, series, (found[0],)))
    yield from by_benchmark.each(store, series, collectives, lambda benchmark, narrow: list(
        filter(None, [plots.scaling_plot(benchmark, narrow, size)])))


@click.command("report")
@click.argument("selectors", metavar="RUN|STUDY...", nargs=-1, required=True)
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False),
              help="The HTML file to write (its directory is created if missing).")
@SIZE_OPTION
@click.option("--correction", type=click.Choice(CORRECTIONS), default=DEFAULT_CORRECTION, show_default=True,
              help="Correction of the comparison's p values across rows (as compare's).")
@db_option
def report_command(selectors: tuple[str, ...], output: str, size: int | None, correction: str,
                   db: str | None) -> None:
    """Write one self-contained HTML report of runs and studies.

    Run metadata, plots and tables per benchmark, and with several runs or
    implementations the tables that compare them. RUN is a run id, STUDY all
    implementations of a study, STUDY:IMPL one of them."""
    from mpimark.presentation import report  # matplotlib and jinja2: only for the commands that need them

    outputs.refuse_database([output], db, "-o")
    with Store(db, for_reading=True) as store:  # read a benchmark at a time while it renders
        html = report.render_stored(store, load(store, selectors, results=False), size, correction)
    Path(output).parent.mkdir(parents=True, exist_ok=True)  # as plot -o does: `-o results/x.html` in a clone
    Path(output).write_text(html, encoding="utf-8")
    click.echo(output)


@click.command("import")
@click.argument("files", metavar="FILE...", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--format", "fmt", type=click.Choice(("auto", *IMPORT_FORMATS)), default="auto", show_default=True,
              help="imb: IMB text (any version); osu: OSU Micro-Benchmarks; mpibench: LLNL mpiBench; "
                   "beff: b_eff's .sum or .short (HLRS b_eff.c or mpimark-core beff); "
                   "jsonl: mpimark-core's own -json stream (a run launched by hand).")
@click.option("--mpi", "mpi_name", help="Name of the MPI implementation that produced the files (legends, studies).")
@click.option("--np", "processes", type=click.IntRange(min=1),
              help="Process count, for outputs that do not print it (OSU collectives, old mpiBench).")
@click.option("--study", help="Also add the imported runs to this study ...")
@click.option("--impl", help="... under this implementation label [default: --mpi].")
@click.option("--again", is_flag=True, help="Store a file whose content is already stored once more, as a new run.")
@db_option
def import_command(files: tuple[str, ...], fmt: str, mpi_name: str | None, processes: int | None,
                   study: str | None, impl: str | None, again: bool, db: str | None) -> None:
    """Store IMB, OSU, mpiBench or b_eff output, or the core's JSON Lines stream, as runs, one run per file.

    Every file is read and checked first; a malformed one stops the import
    before anything is stored (one file of IMB text alone is checked as it
    is stored, in one read: found malformed, nothing of it is kept). A
    stream of `mpimark-core ... -json FILE`
    launched by hand (any launcher: srun, mpiexec) is stored with every
    record as written; one cut off is stored as an incomplete run. A file
    whose content (SHA-256) is already stored is skipped, naming its run
    (with --study, that run joins the study), unless --again is given, so
    importing a directory of logs twice stores each log once."""
    if study:
        studies.check_name(study)
        if not (impl or mpi_name):
            raise click.UsageError("--study needs --impl or --mpi: the implementation the files belong to")
    # One file of IMB text (the large logs) is checked as it is stored, in one read; several files are all
    # checked before any is stored, so a bad one among them stores nothing of any.
    parsed = [parse_file(path, fmt, processes, check=len(files) > 1) for path in files]
    with Store(db) as store:
        for item in parsed:
            sha256 = file_sha256(item.path)
            stored = None if again else store.run_of_source(sha256)
            if stored is not None:
                click.echo(f"{item.path}: already stored as run {stored} (same content); skipped "
                           "(--again stores it once more)")
                run_id = stored
            else:
                run_id = store_parsed(store, item, mpi_name, sha256)
                for warning in getattr(item, "warnings", []):  # IMB text's are known once it is read
                    note(f"warning: {item.path}: {warning}")
                notes = [*item.notes, *([item.incomplete] if getattr(item, "incomplete", None) else [])]
                # a stream of the core under SimGrid SMPI says so (the column alone: a run's row counts its results)
                simulated = store.query("SELECT simulation FROM runs WHERE id = ?", (run_id,))[0][0]
                notes += [simulation.phrase(json.loads(simulated))] if simulated else []
                said = f"; {'; '.join(notes)}" if notes else ""
                status = f", {item.status}" if getattr(item, "status", "complete") != "complete" else ""
                echo_stored(f"{item.path}: run {run_id}, {item.count} results ({item.fmt}{status}){said}", layout=False)
            if study:
                studies.add_run(store, study, run_id, impl or mpi_name)


@click.group("study")
def study_group() -> None:
    """Studies: named sets of runs, one label per MPI implementation (see compare, plot, report)."""


@study_group.command("add")
@click.argument("study")
@click.argument("run_ids", metavar="RUN...", nargs=-1, required=True, type=int)
@click.option("--impl", help="Implementation label [default: the run's MPI name].")
@db_option
def study_add(study: str, run_ids: tuple[int, ...], impl: str | None, db: str | None) -> None:
    """Add stored runs to a study."""
    with Store(db, create=False) as store:
        for run_id in run_ids:
            member = studies.add_run(store, study, run_id, impl)
            echo_stored(f"run {member.run_id} is {member.study}:{member.implementation}", layout=False)


@study_group.command("list")
@click.argument("study", required=False)
@db_option
def study_list(study: str | None, db: str | None) -> None:
    """List the studies (or one study) and their runs."""
    with Store(db, for_reading=True) as store:
        found = studies.members(store, study)
        # a simulated member says so (a third column): a study may hold both kinds, compare must not pool them
        simulated = {run_id: simulation.label(json.loads(text)) for run_id, text in
                     store.query("SELECT id, simulation FROM runs WHERE simulation IS NOT NULL")}
    if not found:
        click.echo(f"no study {study!r}" if study else "no studies")
        return
    for member in found:
        mark = f"\t({simulated[member.run_id]})" if simulated.get(member.run_id) else ""
        click.echo(f"{terminal(f'{member.study}:{member.implementation}')}\trun {member.run_id}{mark}")
    if study:
        with Store(db, for_reading=True) as store:
            for plan in studies.plans(store, study):
                labels = ",".join(i["label"] for i in plan.get("implementations", []))
                seed = "round robin" if plan.get("seed") is None else f"round robin, shuffled with seed {plan['seed']}"
                echo_stored(f"# matrix {plan['added_utc']}: --mpi {labels} -n {','.join(map(str, plan['processes']))} "
                            f"--launches {plan['launches']} ({seed}): {plan['suite']} {' '.join(plan['args'])}",
                            layout=False)


COMMANDS = (compare_command, plot_command, report_command, import_command, study_group)
