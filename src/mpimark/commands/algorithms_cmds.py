"""`mpimark algorithms list|study|show|tune`: the collective algorithms of a library, measured and chosen.

Declarations and wiring only: what can be forced is execution/algorithms.py,
the launches are recording.run_matrix (as `mpimark matrix`), the verdicts
analysis/algorithms.py, the tables and tuning files presentation/algorithms.py
(docs/algorithms.md).
"""

from __future__ import annotations

import dataclasses
import json
import sys
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path

import click
from rich.table import Table
from rich.text import Text

from mpimark.analysis import algorithms as verdicts
from mpimark.analysis.launches import ADVISED_LAUNCHES
from mpimark.commands import console, db_option, error_line, note, outputs, recording
from mpimark.commands.options import (EXIT_INTERRUPTED, PassThroughCommand, launcher_options, launches_option,
                                      mpi_options, parse_process_counts, placement, placement_options,
                                      suite_and_args)
from mpimark.execution import algorithms, applicability, build, matrix, mpi, slurm
from mpimark.execution.placement import Placement
from mpimark.presentation import algorithms as shown
from mpimark.presentation.cells import text as cell_text
from mpimark.storage import studies
from mpimark.storage.store import Store, StoreError

PLAN_KIND = "algorithms"


@click.group("algorithms")
def algorithms_group() -> None:
    """Collective algorithms: list what a library can be forced to, study them, pick the winners."""


@algorithms_group.command("list")
@click.argument("ops", nargs=-1, metavar="[OP...]")
@mpi_options
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
def list_command(ops: tuple[str, ...], mpi_name: str | None, mpi_prefix: str | None, as_json: bool) -> None:
    """The algorithms each collective can be forced to, with id, name and the setting that forces it.

    Read from the library through MPI_T (Open MPI, MPICH); Intel MPI's ids
    come from its documentation. `mpimark algorithms list --mpi mpich Allreduce Bcast`.
    """
    impl = mpi.find(mpi_name, mpi_prefix)
    core = build.ensure_core(impl, log=lambda line: None)
    found, origin = algorithms.catalog(impl, core)
    chosen = algorithms.select(found, list(ops), impl)
    if not chosen:
        raise algorithms.AlgorithmError(f"{impl.name} ({impl.library_version}) exposes no selectable collective "
                                        "algorithms")
    if as_json:
        click.echo(json.dumps({"mpi": impl.name, "library_version": impl.library_version, "origin": origin,
                               "operations": [s.to_record() for s in chosen]}, indent=1))
        return
    out = console(sys.stdout)
    for s in chosen:
        table = Table(title=cell_text(f"{s.op} ({impl.name}, {impl.vendor} {impl.version}): {s.variable}"),
                      title_justify="left")
        for header, justify in (("id", "right"), ("algorithm", "left"), ("setting", "left")):
            table.add_column(header, justify=justify)
        for a in s.algorithms:
            table.add_row(str(a.id), cell_text(a.name), cell_text(s.setting(a)))
        out.print(table)
    out.print(Text(f"from {origin}" + ("" if any(s.cvar for s in chosen) else "; not verifiable in a run")))



def _wanted(text: tuple[str, ...]) -> dict[str, list[str]]:
    """--algorithms OP:id,id (repeatable) -> {OP: [id or name, ...]}."""
    found: dict[str, list[str]] = {}
    for item in text:
        op, sep, ids = item.partition(":")
        if not sep or not ids:
            raise click.BadParameter(f"{item!r} is not OP:ID,ID (Allreduce:3,4)", param_hint="--algorithms")
        found.setdefault(algorithms.canonical_op(op), []).extend(w.strip() for w in ids.split(",") if w.strip())
    return found


@algorithms_group.command("study", cls=PassThroughCommand,
                          context_settings={"ignore_unknown_options": True, "allow_extra_args": True})
@click.argument("words", nargs=-1, type=click.UNPROCESSED, metavar="[SUITE] OP... [IMB OPTIONS...]")
@mpi_options
@click.option("-n", "--np", "counts", required=True, metavar="LIST", help="Process counts, comma-separated (2,4).")
@click.option("--algorithms", "wanted", multiple=True, metavar="OP:ID,ID",
              help="Only these algorithms of OP (ids or names; repeatable) [default: every one listed].")
@launches_option("Launches of each algorithm at each process count, interleaved: one round launches every "
                 "arm once, N rounds.")
@click.option("--seed", type=click.IntRange(min=0), help="Shuffle each round's order with this seed.")
@click.option("--study", metavar="NAME", help="Study name [default: algorithms-<UTC date and time>].")
@click.option("--timeout", type=click.FloatRange(min=0, min_open=True), metavar="SECONDS", default=300,
              show_default=True, help="Kill a launch after this long and store it as failed; the study goes on.")
@click.option("--tables", is_flag=True, help="Print IMB's tables of every launch.")
@launcher_options
@placement_options
@db_option
@click.pass_context
def study_command(ctx: click.Context, words: tuple[str, ...], mpi_name: str | None, mpi_prefix: str | None,
                  counts: str, wanted: tuple[str, ...], launches: int, seed: int | None, study: str | None,
                  timeout: float, tables: bool, launcher: str | None, srun_mpi: str | None, db: str | None,
                  **place: object) -> None:
    """Measure every algorithm of each OP (and the library's default) as one study.

    One arm per algorithm plus the default, launched round robin, --launches K
    rounds; each forced launch runs with the variables that force it (as --env
    would set them) and is checked to have taken it (the control variable read
    back through MPI_T; MPICH with MPIR_CVAR_COLLECTIVE_FALLBACK=error). Add
    -check to catch algorithms that deliver wrong data. An algorithm the
    library refuses for the benchmark's call (a probe launch at each process
    count, -iter 1, cached) is listed as not applicable to this call, not
    launched.
    `mpimark algorithms study Allreduce Bcast --mpi mpich -n 2,4 --launches 5 -msglog 0:16 -check`
    """
    process_counts = parse_process_counts(counts)
    suite, rest = suite_and_args(words)
    ops: list[str] = []
    while rest and not rest[0].startswith("-"):
        ops.append(algorithms.canonical_op(rest.pop(0)))
    if not ops:
        raise click.UsageError("name at least one collective to study (Allreduce, Bcast, ...)")
    asked = placement(place, process_counts)
    impl = mpi.find(mpi_name, mpi_prefix)
    srun = slurm.resolve(launcher, impl.kind, srun_mpi)  # refused before anything is built
    if launches == 1:  # after the refusals: a usage error stays one line
        note(f"warning: one launch of each algorithm gives no interval over launches, so no winner will be decided "
             f"(tune keeps the library's default unless --include-undecided); use --launches {ADVISED_LAUNCHES} "
             "or more")
    core = build.ensure_core(impl, log=note)
    found, origin = algorithms.catalog(impl, core)
    selectables = algorithms.select(found, ops, impl)
    only = _wanted(wanted)
    arms: dict[str, verdicts.Arm] = {}
    args_for: dict[str, list[str]] = {}
    placement_for: dict[str, Placement] = {}
    for s in selectables:
        chosen = [s.find(w) for w in only[s.op]] if s.op in only else list(s.algorithms)
        for alg in [None, *chosen]:
            label = f"{s.op}:{'default' if alg is None else alg.name}"
            arms[label] = verdicts.Arm(label, s.op, "default" if alg is None else alg.name,
                                       None if alg is None else alg.id)
            args_for[label] = [s.op, *rest]
            env = () if alg is None else s.env(alg)
            if s.cvar:
                env = (*env, (algorithms.MPIT_CVARS_ENV, s.cvar))
            given = {k for k, _ in asked.env}
            placement_for[label] = dataclasses.replace(asked, env=(*asked.env, *((k, v) for k, v in env if k not in given)))
    study = study or datetime.now(timezone.utc).strftime("algorithms-%Y%m%d-%H%M%S")
    studies.check_name(study)
    with Store(db) as store:
        if studies.members(store, study):
            raise StoreError(f"study {study!r} exists already; give another --study name")
    try:
        refused = applicability.not_applicable(
            impl, core, suite, [applicability.Probe(label, n, tuple(matrix.core_args(args_for[label], n, suite)),
                                                    placement_for[label])
                                for label, arm in arms.items() if arm.id is not None for n in process_counts],
            srun=srun, news=note)
    except applicability.Interrupted:
        error_line(f"interrupted while probing which algorithms apply; study {study} not started, nothing stored")
        ctx.exit(EXIT_INTERRUPTED)
    for (label, n), why in refused.items():
        note(f"{label} at {n} processes: {shown.NOT_APPLICABLE}: {why}")
    _launch(db, study, impl, core, arms, args_for, placement_for, process_counts, launches, seed, suite, rest,
            timeout, tables, asked, srun, {
                "kind": PLAN_KIND, "mpi": impl.name, "mpi_kind": impl.kind, "library_version": impl.library_version,
                "origin": origin, "suite": suite, "args": rest, "processes": process_counts,
                "launches": launches, "seed": seed, "arms": [dataclasses.asdict(a) for a in arms.values()],
                "selectables": [s.to_record() for s in selectables],
                "not_applicable": [{"label": label, "processes": n, "why": why} for (label, n), why in refused.items()],
                "command": ["mpimark", *sys.argv[1:]],
            }, _forced_check(selectables), lambda store: _show(store, study, "table"), ctx, skip=set(refused))


def _forced_check(selectables: list[algorithms.Selectable]) -> Callable[[verdicts.Arm, dict], str | None]:
    by_op = {s.op: s for s in selectables}

    def check(arm: verdicts.Arm, run: dict) -> str | None:
        s = by_op[arm.op]
        return algorithms.verify(s, None if arm.id is None else s.find(str(arm.id)), run)
    return check


def _launch(db: str | None, study: str, impl: mpi.MpiImpl, core: Path, arms: dict[str, verdicts.Arm],
            args_for: dict[str, list[str]], placement_for: dict[str, Placement], process_counts: list[int],
            rounds: int, seed: int | None, suite: str, rest: list[str], timeout: float, tables: bool,
            asked: Placement, srun: slurm.Srun | None, plan: dict, check: Callable[[verdicts.Arm, dict], str | None],
            show: Callable[[Store], None], ctx: click.Context, skip: set[tuple[str, int]] = frozenset()) -> None:
    """Launch the arms round robin as one study (stored with its plan), mark runs check() rejects, show it.

    skip: the (arm, process count) pairs not launched (not applicable to the call)."""
    labels = list(arms)
    planned = [x for x in matrix.plan(labels, process_counts, rounds, seed) if (x.label, x.processes) not in skip]
    launches = [dataclasses.replace(x, index=i) for i, x in enumerate(planned, start=1)]
    left_out = f"; {len(skip)} not applicable, left out" if skip else ""
    note(f"study {study}: {len(launches)} launches ({len(labels)} arms x {len(process_counts)} process counts x "
         f"{rounds} round{'s' if rounds > 1 else ''}{left_out}) under {impl.name}")
    members = {label: matrix.Member(label, impl, core) for label in labels}
    with Store(db) as store:
        studies.add_plan(store, study, plan)
        done: list[matrix.Done] = []

        def started(launch: matrix.Launch) -> None:
            note(f"[{launch.index}/{len(launches)}] round {launch.round}: {launch.label}, {launch.processes} processes")

        def ended(item: matrix.Done) -> None:
            done.append(item)
            run = next((r for r in store.records(item.run_id) if r.get("type") == "run"), None)
            why = check(arms[item.launch.label], run) if run else None
            if why:
                store.add_record(item.run_id, {"type": "event", "level": "error", "kind": verdicts.NOT_FORCED,
                                               "message": why})
            state = item.status + (f" ({item.message})" if item.message else "")
            note(f"[{item.launch.index}/{len(launches)}] run {item.run_id} {state}: {item.results} results"
                 + (f"; NOT FORCED: {why}" if why else ""))

        recording.run_matrix(store, study, launches, members, suite, rest, timeout=timeout, quiet=not tables,
                             on_start=started, on_done=ended, placement=asked, args_for=args_for,
                             placement_for=placement_for, srun={label: srun for label in labels})
        show(store)
    if done and done[-1].status == "interrupted":
        error_line(f"interrupted after {len(done)} of {len(launches)} launches; the study holds what ran")
        ctx.exit(EXIT_INTERRUPTED)
    bad = [d for d in done if d.status != "complete"]
    if bad:
        error_line(f"{len(bad)} of {len(launches)} launches did not complete ("
                   + ", ".join(f"run {d.run_id} {d.launch.label} {d.status}" for d in bad)
                   + "); the others are ranked")
        ctx.exit(1)


def _load(store: Store, study: str) -> tuple[dict, verdicts.Verdict]:
    plans = [p for p in studies.plans(store, study) if p.get("kind") == PLAN_KIND]
    if not plans:
        raise StoreError(f"no algorithm study named {study!r} (mpimark algorithms study ... --study NAME)")
    plan = plans[-1]
    arms = {a["label"]: verdicts.Arm(**a) for a in plan["arms"]}
    runs: dict[str, list] = {}
    for m in studies.members(store, study):
        if m.implementation in arms:
            runs.setdefault(m.implementation, []).append((m.run_id, store.records(m.run_id)))
    verdict = verdicts.evaluate(arms, runs)
    for label, launches in runs.items():
        for run_id, _ in launches:
            row = store.run(run_id)
            if row.status != "complete":
                verdict.unfinished.append((run_id, label, row.status + (f": {row.status_message}"
                                                                         if row.status_message else "")))
    return plan, verdict


def _title(study: str, plan: dict) -> str:
    return f"algorithm study {study}: {plan['mpi']} ({' '.join(plan['library_version'].splitlines()[0].split(',')[0].split())})"


def _show(store: Store, study: str, fmt: str) -> None:
    plan, verdict = _load(store, study)
    title = _title(study, plan)
    refused = plan.get("not_applicable", [])
    if fmt == "markdown":
        click.echo(shown.markdown(verdict, title, refused), nl=False)
        return
    out = console(sys.stdout)
    out.print(shown.table(verdict, title))
    for line in [*shown.footnotes(verdict), *shown.not_applicable_notes(refused)]:
        out.print(cell_text(line))


@algorithms_group.command("show")
@click.argument("study")
@click.option("--format", "fmt", type=click.Choice(["table", "markdown"]), default="table", show_default=True)
@click.option("--plot", "plot_dir", type=click.Path(file_okay=False, path_type=Path), metavar="DIR",
              help="Also draw one plot per operation and process count (a line per algorithm) into DIR.")
@click.option("--plot-format", type=click.Choice(["png", "svg"]), default="png", show_default=True)
@db_option
def show_command(study: str, fmt: str, plot_dir: Path | None, plot_format: str, db: str | None) -> None:
    """Per operation, process count and size: the best algorithm, its median and 95 % CI, the default's, the speedup."""
    with Store(db) as store:
        _show(store, study, fmt)
        if plot_dir is not None:
            from mpimark.presentation import plots as base
            _, verdict = _load(store, study)
            for path in base.write(shown.plots(verdict, study), plot_dir, plot_format,
                                   check=lambda paths: outputs.refuse_database(paths, db, "--plot")):
                note(f"wrote {path}")


@algorithms_group.command("tune")
@click.argument("study")
@click.option("-o", "--output", "path", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="The tuning file to write.")
@click.option("--include-undecided", is_flag=True,
              help="Also write winners that the launches do not decide against the default (marked UNDECIDED in "
                   "the file and the table) [default: keep the library's default there].")
@click.option("--verify", is_flag=True,
              help="Then run the default and the tuned file interleaved (a study of their own) and report the "
                   "gain per size with its significance.")
@launches_option("--verify: launches of the default and of the tuned file [default: the study's, at least 3].",
                 default=None)
@click.option("--verify-study", metavar="NAME", help="--verify: the study's name [default: STUDY-verify].")
@click.option("--seed", type=click.IntRange(min=0), help="--verify: shuffle each round's order with this seed.")
@click.option("--timeout", type=click.FloatRange(min=0, min_open=True), metavar="SECONDS", default=300,
              show_default=True, help="--verify: kill a launch after this long.")
@click.option("--tables", is_flag=True, help="--verify: print IMB's tables of every launch.")
@click.option("--format", "fmt", type=click.Choice(["table", "markdown"]), default="table", show_default=True,
              help="--verify: how to print the gains.")
@launcher_options
@placement_options
@db_option
@click.pass_context
def tune_command(ctx: click.Context, study: str, path: Path, include_undecided: bool, verify: bool,
                 launches: int | None, verify_study: str | None, seed: int | None, timeout: float, tables: bool,
                 fmt: str, launcher: str | None, srun_mpi: str | None, db: str | None, **place: object) -> None:
    """Write the study's winners in the library's own format, and print how to use the file.

    Open MPI: a coll_tuned dynamic rules file; MPICH: a collective selection
    JSON file; Intel MPI: I_MPI_ADJUST_<OP> settings (a shell file to source).
    With --verify, the library's default and the tuned file are then launched
    interleaved (--launches K rounds, stored as the study STUDY-verify) and the
    gain per size is reported with its interval over launches; a size where
    the tuned file is slower beyond the launches' noise says so. Only winners
    the launches decide are written unless --include-undecided.
    `mpimark algorithms tune ompi-coll -o rules.txt --verify --launches 5`
    """
    outputs.refuse_database([path, path.with_name(path.name + ".undecided.txt")], db, "-o")
    with Store(db) as store:
        plan, verdict = _load(store, study)
    if plan.get("verify_of"):
        raise StoreError(f"{study!r} is the verification of study {plan['verify_of']!r}, not a study to tune from")
    chosen = verdicts.chosen(verdict, include_undecided)
    marks = shown.undecided_notes(verdict, chosen)
    found = shown.choices(chosen)
    if not found:
        raise StoreError(f"study {study!r} has no ranked results to tune from")
    kind = plan["mpi_kind"]
    path = path.resolve()
    settings = None
    if kind == "openmpi":
        path.write_text(shown.undecided_header(marks) + shown.openmpi_rules(found), encoding="utf-8")
        how = (f"OMPI_MCA_coll_tuned_use_dynamic_rules=1 OMPI_MCA_coll_tuned_dynamic_rules_filename={path}"
               f"   (or mpirun --mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_dynamic_rules_filename "
               f"{path})")
    elif kind == "mpich":
        impl = mpi.find(plan["mpi"])
        builtin = algorithms.mpich_builtin_selection(build.ensure_core(impl, log=note))
        if builtin is None:
            note("warning: MPICH's own selection tree was not found in its library; the file holds only the "
                 "studied collectives (the fastest forced algorithm where the default won), and MPICH 4.0 "
                 "aborts on a collective without an entry")
        path.write_text(shown.mpich_json(found, builtin), encoding="utf-8")
        if marks:  # JSON has no comments: the marks go beside the file
            beside = path.with_name(path.name + ".undecided.txt")
            beside.write_text("\n".join([shown.UNDECIDED_HEAD, *marks]) + "\n", encoding="utf-8")
            note(f"wrote {beside}: the undecided choices in {path.name} (JSON holds no comments)")
        how = f"MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE={path}"
    elif kind == "impi":
        settings = shown.impi_settings(found)
        path.write_text(shown.undecided_header(marks) + "".join(f"export {k}='{v}'\n" for k, v in settings.items()),
                        encoding="utf-8")
        how = f". {path}"
    else:
        raise StoreError(f"no tuning file format for {plan['mpi']}")
    out = console(sys.stdout)
    out.print(shown.table(verdict, _title(study, plan), chosen))
    for line in shown.footnotes(verdict):
        out.print(cell_text(line))
    kept = sum(1 for row, written in zip(verdict.rows, chosen.rows) if written.best is not row.best)
    if kept:
        note(f"{kept} of {len(verdict.rows)} rows keep the library's default: their winner is not decided by the "
             "launches (--include-undecided writes them, marked UNDECIDED)")
    elif marks:
        note(f"{len(marks)} of {len(verdict.rows)} rows written UNDECIDED: the launches do not show them faster "
             "than the default")
    note(f"wrote {path}; use it with: {how}")
    if verify:
        _verify(ctx, db, study, plan, path, settings, launches, verify_study, seed, timeout, tables, fmt, place,
                launcher, srun_mpi)


def _verify(ctx: click.Context, db: str | None, study: str, plan: dict, path: Path,
            settings: dict[str, str] | None, launches: int | None, name: str | None, seed: int | None,
            timeout: float, tables: bool, fmt: str, place: dict, launcher: str | None,
            srun_mpi: str | None) -> None:
    """tune --verify: per operation the library's default and the tuned file, interleaved, as one study."""
    name = name or f"{study}-verify"
    studies.check_name(name)
    with Store(db) as store:
        if studies.members(store, name):
            raise StoreError(f"study {name!r} exists already; give another --verify-study name")
    process_counts = list(plan["processes"])
    asked = placement(place, process_counts)
    impl = mpi.find(plan["mpi"])
    srun = slurm.resolve(launcher, impl.kind, srun_mpi)
    core = build.ensure_core(impl, log=note)
    env, expected = algorithms.tuning_env(plan["mpi_kind"], path, settings)
    rounds = launches or max(3, int(plan.get("launches") or 1))
    given = {k for k, _ in asked.env}
    arms: dict[str, verdicts.Arm] = {}
    args_for: dict[str, list[str]] = {}
    placement_for: dict[str, Placement] = {}
    ops = list(dict.fromkeys(a["op"] for a in plan["arms"]))
    for op in ops:
        for arm in (verdicts.Arm(f"{op}:default", op, "default", None),
                    verdicts.Arm(f"{op}:{verdicts.TUNED}", op, verdicts.TUNED, -1)):
            arms[arm.label] = arm
            args_for[arm.label] = [op, *plan["args"]]
            extra = (*env, (algorithms.MPIT_CVARS_ENV, ",".join(expected))) if arm.id == -1 and expected else \
                (env if arm.id == -1 else ())
            placement_for[arm.label] = dataclasses.replace(
                asked, env=(*asked.env, *((k, v) for k, v in extra if k not in given)))
    vplan = {"kind": PLAN_KIND, "verify_of": study, "tuning_file": str(path), "tuning_env": [list(e) for e in env],
             "mpi": impl.name, "mpi_kind": impl.kind, "library_version": impl.library_version,
             "suite": plan.get("suite"), "args": plan["args"], "processes": process_counts, "launches": rounds,
             "seed": seed, "arms": [dataclasses.asdict(a) for a in arms.values()], "selectables": [],
             "command": ["mpimark", *sys.argv[1:]]}

    def check(arm: verdicts.Arm, run: dict) -> str | None:
        return algorithms.verify_tuning(expected, run) if arm.id == -1 else None

    _launch(db, name, impl, core, arms, args_for, placement_for, process_counts, rounds, seed,
            plan.get("suite"), list(plan["args"]), timeout, tables, asked, srun, vplan, check,
            lambda store: _show_gains(store, name, fmt), ctx)


def _show_gains(store: Store, study: str, fmt: str) -> None:
    plan, verdict = _load(store, study)
    gains = verdicts.gains(verdict)
    title = (f"tuned file {Path(plan.get('tuning_file', '?')).name} against the default: {plan['mpi']} "
             f"(study {study}, {plan['launches']} launches of each)")
    if fmt == "markdown":
        click.echo(shown.gains_markdown(gains, title), nl=False)
    else:
        out = console(sys.stdout)
        out.print(shown.gains_table(gains, title))
        out.print(Text(shown.GAIN_NOTE))
    for run, label, why in verdict.excluded_runs:
        note(f"run {run} ({label}) left out: {why}")
    slower = [g for g in gains if g.verdict == "slower"]
    for g in slower:
        note(f"warning: {g.op} np {g.processes} {g.bytes} bytes: the tuned file is slower than the default "
             f"beyond the launches' noise (tuned/default {shown.ratio_text(g.estimate)})")


COMMANDS = (algorithms_group,)
