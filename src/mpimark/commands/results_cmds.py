"""Commands that read results: stored runs (runs, show, export) and results files (summary, validate)."""

from __future__ import annotations

import shlex
import sys
from contextlib import contextmanager
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TextIO

import click
from rich.table import Table
from rich.text import Text

from mpimark.commands import console, db_option, echo_stored, error_line, jobs, locked_end, note, outputs, recording
from mpimark.presentation import hosts as host_list, imb_text, osu_text, placement, rigour, study_export, tools
from mpimark.presentation.cells import text as cell_text
from mpimark.presentation.export import (csv_chunks, describe, export, export_chunks, FORMATS as EXPORT_FORMATS,
                                         markdown_export_chunks, streams)
from mpimark.presentation.summary import describe_run, EXPORTS, rich_parts, to_rich
from mpimark.errors import MpimarkError
from mpimark.records import machine, simulation
from mpimark.records.benchmarks import UnknownBenchmark
from mpimark.records.mpi_library import label as library_label
from mpimark.records.results import group_results, read_records, ResultsError
from mpimark.storage.selection import load
from mpimark.storage.store import being_imported, default_path, owner_alive, RunRow, Store

FORMATS = ("table", *EXPORTS)


def _mpi(row: RunRow) -> str:
    # "Open MPI v4.1.4, package: ..." -> "Open MPI 4.1.4": the rest does not fit a table. A log that names no
    # library may still name the MPI standard it implements (IMB's "# MPI Version : 3.1").
    standard = f" (MPI {row.mpi_standard_version})" if row.mpi_standard_version else ""
    return library_label(row.mpi_library_version) or row.mpi_name or f"?{standard}"


@click.command()
@db_option
def runs(db: str | None) -> None:
    """List the runs in the results database, newest first."""
    path = Path(db) if db else default_path()
    if not path.exists():  # nothing stored yet is not an error
        click.echo(f"no runs stored in {path}")
        return
    with Store(path, for_reading=True) as store:
        # Slurm jobs: their state now, and the ended ones stored (not into a database that cannot be written)
        for done in ([] if store.readonly else jobs.refresh(store, news=note)):
            note(jobs.describe(done))
        if not store.readonly:  # runs whose mpimark died: what their streams hold stored, marked incomplete
            recording.recover_on_the_way(store)
        rows = store.runs()
        slurm_jobs = {job.run_id: job for job in store.jobs()}
    if not rows:
        click.echo(f"no runs stored in {path}")
        return
    table = Table(title=Text(f"runs in {path}"), title_justify="left")
    headers = [("id", "right"), ("started", "left"), ("status", "left"), ("suite", "left"), ("MPI", "left"),
               ("processes", "right"), ("nodes × ranks", "right"), ("hosts", "left"), ("results", "right")]
    for header, justify in headers:
        table.add_column(header, justify=justify)
    if slurm_jobs:
        table.add_column("Slurm job", no_wrap=True)
    launches = _launch_of(rows)  # runs of `mpimark run --launches N`: which launch of which measurement
    if launches:
        table.add_column("measurement", no_wrap=True)
    # Runs on a simulated machine (SimGrid SMPI) are marked, with their platform: their times are a model's.
    simulated = any(row.simulation for row in rows)
    if simulated:
        table.add_column("simulated", no_wrap=True)
    for row in rows:
        style = None if row.status == "complete" else "yellow"
        cells = [row.id, row.started_utc, _status(row), row.suite, _mpi(row), row.processes or row.requested_processes,
                 placement.shape(row.nodes, row.ranks_per_node), host_list.listed(row.hosts, row.nodes), row.results]
        if slurm_jobs:
            job = slurm_jobs.get(row.id)
            reason = f" ({job.reason})" if job and job.reason else ""
            cells.append("" if job is None else f"{job.job_id} {job.state}{reason}")
        if launches:
            cells.append(launches.get(row.id, ""))
        if simulated:
            cells.append(simulation.label(row.simulation))
        table.add_row(*(cell_text(cell) for cell in cells), style=style)  # escapes shown, no rich markup
    console(sys.stdout).print(table)


def _launch_of(rows: list[RunRow]) -> dict[int, str]:
    """Run id -> "12 (launch 2 of 5)" for the runs that are launches of a measurement."""
    by_measurement: dict[int, list[int]] = {}
    for row in rows:
        if row.measurement is not None:
            by_measurement.setdefault(row.measurement, []).append(row.id)
    return {run_id: f"{measurement} (launch {position} of {len(ids)})"
            for measurement, ids in by_measurement.items()
            for position, run_id in enumerate(sorted(ids), 1)}


def _status(row: RunRow) -> str:
    if row.status == "running" and owner_alive(row.owner) is False:
        if row.stream_path and locked_end.ended(Path(row.stream_path)):
            return "running: its end waits in its stream ('mpimark recover')"  # the database was locked
        return "running, but its mpimark died ('mpimark recover')"
    if being_imported(row):
        return "being imported"
    return row.status


@click.command()
@db_option
def recover(db: str | None) -> None:
    """Finish the runs whose mpimark died (kill -9, a lost terminal): store what their streams hold, as incomplete.

    A run is left alone while its mpimark (the process id and start time stored with it) still runs,
    and when it runs on another host. 'mpimark runs' and 'mpimark run' do this too."""
    path = Path(db) if db else default_path()
    with Store(path, create=False) as store:
        done = recording.recover(store, on_recovered=lambda run_id, why: click.echo(f"run {run_id}: {why}"))
    if not done:
        click.echo("no run to recover")


@click.command()
@click.argument("run_ids", metavar="RUN...", type=int, nargs=-1, required=True)
@click.option("--stats", is_flag=True, help="Medians and 95% confidence intervals instead of IMB's tables.")
@db_option
def show(run_ids: tuple[int, ...], stats: bool, db: str | None) -> None:
    """Show stored runs: IMB's tables, or with --stats the statistics.

    Runs of the core's tools show their own tables: b_eff's published table
    and closing line, mpiBench's lines, RIKEN's start-up table. Several
    start-up runs (the launches of one `mpimark startup --launches K`) make
    one table, with the median over them.
    """
    with Store(db, for_reading=True) as store:
        unstored = [job for job in (store.job(run_id) for run_id in run_ids) if job and not job.collected_utc]
        if unstored:
            for done in jobs.refresh(store, unstored, news=note):
                note(jobs.describe(done))
        rows = [store.readable_run(run_id) for run_id in run_ids]
        for run_id in run_ids:
            job = store.job(run_id)
            if job and not job.collected_utc:  # still queued or running: say so, there is nothing to show yet
                note(f"run {run_id} is Slurm job {job.job_id}, {job.state}" + (f" ({job.reason})" if job.reason else "")
                     + f"; its files are in {job.directory}")
        runs = [store.run_record(row.id) for row in rows]
        tool_of = [tools.module_for([run] if run else [], row.suite) for row, run in zip(rows, runs)]
        if len(rows) > 1 and not stats and all(tool is tools.startup for tool in tool_of):
            launches = [store.records(row.id) for row in rows]
            for row, records in zip(rows, launches):
                echo_stored(describe(row, records))
            echo_stored(tools.startup.report([tools.startup.launch(records, row.id)
                                             for row, records in zip(rows, launches)]), nl=False)
            return
        for index, (row, run, tool) in enumerate(zip(rows, runs, tool_of)):
            if index:
                click.echo()
            with _described(row.id):
                _show_stored(store, row, run, stats, tool)


def _show_stored(store: Store, row: RunRow, run: dict | None, stats: bool, tool) -> None:
    if tool is not None:
        records = store.records(row.id)
        _show_one(row, run, records, records, stats, tool)
    elif stats:  # a table at a time: a run of any size in memory bounded by its largest table
        _show_one(row, run, store.iter_tables(row.id), _context(store, row.id), stats, tool)
    else:  # IMB's tables, as the records are read: a run of any size in bounded memory
        _show_one(row, run, store.iter_records(row.id), _context(store, row.id), stats, tool)


@contextmanager
def _described(run_id: int) -> Iterator[None]:
    """A run holding a benchmark that no facts describe (stored before imports checked names, or by a newer
    core) says which run it is and what still writes it, rather than only the name."""
    try:
        yield
    except UnknownBenchmark as exc:
        raise MpimarkError(f"run {run_id} holds the benchmark {exc.name!r}, which neither its own records nor the "
                           f"core's facts describe, so its tables cannot be laid out; 'mpimark export {run_id} "
                           "--format json' (or csv) still writes every record") from None


def _context(store: Store, run_id: int) -> list[dict]:
    """What show needs besides the tables, in bounded memory: every record but the results, and the
    results -sync window or -ci_target touched (rigour.row_block)."""
    return [r for r in store.iter_records(run_id)
            if r["type"] != "result" or r.get("window") or r.get("ci_target")]


def _show_one(row: RunRow, run: dict | None, records: Iterable[dict], context: list[dict], stats: bool,
              tool) -> None:
    """records: what the tables are made of (read once; with stats and no tool, the tables themselves:
    Store.iter_tables); context: the records the other lines need."""
    echo_stored(describe(row, context), layout=False)
    if run and not stats:  # with --stats the summary prints this line itself
        echo_stored(describe_run(run), layout=False)
    if row.launch_command:
        echo_stored(f"command: {shlex.join(row.launch_command)}", layout=False)
    if row.environment:
        echo_stored("environment: " + " ".join(f"{k}={shlex.quote(v)}" for k, v in row.environment.items()),
                    layout=False)
    for line in placement.lines(row.placement, run):
        echo_stored(line)
    if run:
        echo_stored(f"machine: {machine.line(context)}", layout=False)
    # IMB's tables hold the self-checks' warnings in place; the other views get them here.
    for line in rigour.header_lines(run, context, with_warnings=stats or tool is not None):
        echo_stored(line)
    if not row.results:
        echo_stored(f"run {row.id} has no results")
    elif stats:
        terminal = console(sys.stdout)
        tables = records if tool is None else group_results(records).items()
        for part in rich_parts(run, tables, terminal.width):  # one at a time: printed together they held every table's cells
            terminal.print(part)
    elif tool is tools.startup:
        echo_stored(tool.text(records, row.id), nl=False)
    elif tool is not None:
        echo_stored(tool.text(records), nl=False)
    else:
        for lines in _batches(imb_text.table_chunks(records, run)):
            echo_stored(lines, nl=False)
    for line in rigour.row_block(context):
        echo_stored(line)


def _batches(chunks: Iterable[str], size: int = 4096) -> Iterator[str]:
    """chunks joined some thousands at a time: one echo per row made show a third slower."""
    batch: list[str] = []
    for chunk in chunks:
        batch.append(chunk)
        if len(batch) == size:
            yield "".join(batch)
            batch.clear()
    if batch:
        yield "".join(batch)


@click.command("export")
@click.argument("selector", metavar="RUN|STUDY")
@click.option("--format", "fmt", type=click.Choice(tuple(EXPORT_FORMATS)), default="json", show_default=True,
              help="json: the core's JSON Lines; csv: one row per result; markdown; imb: IMB's text output. "
                   "A study: csv or json (JSON Lines), one tidy row per measurement.")
@click.option("--samples", "per_sample", is_flag=True,
              help="A study: one row per sample instead of one per measurement.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True),
              help="Write to this file instead of standard output.")
@db_option
def export_command(selector: str, fmt: str, per_sample: bool, output: str | None, db: str | None) -> None:
    """Write a stored run as JSON Lines, CSV, Markdown or IMB text; or a study (STUDY, STUDY:IMPL, several
    runs as a selector) as one tidy CSV or JSON Lines table of every run's rows (or samples)."""
    if output is not None:
        outputs.refuse_database([output], db, "-o")
    if selector.isdigit() and not per_sample:
        with Store(db, for_reading=True) as store:
            row, run = store.readable_run(int(selector)), store.run_record(int(selector))
            if fmt == "imb" and osu_text.owns(row.suite):  # OSU's tests have no IMB equivalent
                raise click.UsageError(f"run {row.id} is OSU Micro-Benchmarks output, which IMB's text cannot hold; "
                                       f"export it as json, csv or markdown ('mpimark show {row.id}' prints it "
                                       "in OSU's own layout)")
            with _described(row.id):  # the imb and markdown layouts need the benchmarks' facts
                # Written as the records are read: a run of any size in bounded memory.
                if streams(row, run, fmt):
                    _write_out(export_chunks(run, store.iter_records(row.id), fmt), output)
                    return
                if fmt == "csv":
                    _write_out(csv_chunks(row.id, lambda: store.iter_results(row.id), row.simulation), output)
                    return
                if fmt == "markdown":  # a table at a time
                    _write_out(markdown_export_chunks(row, run, store.iter_tables(row.id)), output)
                    return
                text = export(row, store.records(row.id), fmt)
    else:
        if fmt not in ("csv", "json"):
            raise click.UsageError(f"a study exports as csv or json, not {fmt}")
        with Store(db, for_reading=True) as store:  # one run id is that run, not its measurement: 12-16 for it
            series = load(store, [selector], measurements=False)
        text = study_export.export(series, fmt, per_sample)
    _write_out([text], output)


def _write_out(chunks: Iterable[str], output: str | None) -> None:
    if output is None:
        sys.stdout.writelines(chunks)
    else:
        with open(output, "w", encoding="utf-8") as stream:
            stream.writelines(chunks)


@click.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.pass_context
def validate(ctx: click.Context, files: tuple[str, ...]) -> None:
    """Check results files (JSON Lines) against the results schema."""
    failed = False
    for path in files:  # every file is checked, so one run reports all bad files
        try:
            records = read_records(path)
        except ResultsError as exc:
            error_line(str(exc))
            failed = True
        else:
            click.echo(f"{path}: {len(records)} records OK")
    if failed:
        ctx.exit(1)


@click.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="table", show_default=True,
              help="table: for a terminal; markdown, csv, json: for export.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True),
              help="Write to this file instead of standard output.")
def summary(file: str, fmt: str, output: str | None) -> None:
    """One table per benchmark x process count (x group) of a results file."""
    if output is not None:  # no database is opened, but the default one ($MPIMARK_DB) must not be written over
        outputs.refuse_database([output], None, "-o")
    records = read_records(file)
    tables = group_results(records)
    if output is None:
        _write(sys.stdout, records[0], tables, fmt, records)
    else:
        with open(output, "w", encoding="utf-8") as stream:
            _write(stream, records[0], tables, fmt, records)


def _write(stream: TextIO, run: dict, tables: dict, fmt: str, records: list[dict] | None = None) -> None:
    if fmt == "table" and records is not None and tools.is_tool_run(records):
        stream.write(tools.text(records))  # b_eff, mpiBench, start-up: their own tables
    elif fmt == "table":
        console(stream).print(to_rich(run, tables))
    else:
        stream.write(EXPORTS[fmt](run, tables))


COMMANDS = (runs, recover, show, export_command, summary, validate)
