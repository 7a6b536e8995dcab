"""A launch recorded as a run: where execution (launch, matrix) meets storage.

The launch code knows nothing of the store; it hands every record to a
callback. Here that callback is the store: run_stored is what `mpimark run`,
the tools' commands and every launch of `mpimark matrix` do, so a run is
begun, filled record by record as they arrive (a run that dies keeps what it
finished) and finished with the launch's outcome, the same way everywhere.
"""

from __future__ import annotations

import os
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Literal

import click

from mpimark.commands import error_line, locked_end, note, outputs
from mpimark.commands.options import exit_status
from mpimark.execution import launch, matrix, slurm
from mpimark.execution import simulation as simulation_module
from mpimark.execution.mpi import MpiImpl
from mpimark.execution import machine
from mpimark.execution.placement import Placement
from mpimark.storage import locking, studies
from mpimark.records.results import MACHINE_EVENT, parse_record
from mpimark.storage.store import being_imported, owner_alive, Store, StoreLocked


def run_stored(store: Store, impl: MpiImpl, processes: int, core: Path | str, suite: str, args: list[str],
               json_path: Path | str | None = None, *, timeout: float | None = None, quiet: bool = False,
               stamp_env: str | None = None, placement: Placement = Placement(),
               srun: slurm.Srun | None = None, simulation: simulation_module.Prepared | None = None,
               measurement: int | Literal["new"] | None = None) -> tuple[int, launch.Outcome]:
    """One launch stored as one run: begun, every record as it arrives, finished with its outcome.

    What `mpimark run` does for its one launch and `mpimark matrix` for each
    of its launches. An exception from the store ends the job and propagates, but for another process's
    lock: the records wait for it in order while the job runs, and at the end mpimark waits for the lock
    (locked_end.store_end, bounded), so a run that ends during a long import is stored whole.
    The placement asked for is stored with the run (None when it is the default).
    srun: launch with Slurm's srun (slurm.resolve) instead of impl's mpiexec.
    simulation: SimGrid SMPI's platform and host file (execution/simulation.py), for --mpi smpi.
    json_path None: the stream goes to a file beside the database (Store.stream_dir), recorded with
    the run so `mpimark recover` finds it should this process die, and removed once the run is finished.
    measurement: as Store.begin_run's ("new", the id of its first run, or None: a run alone).
    """
    scratch = json_path is None
    if scratch:
        json_path = _stream_file(store)
    argv, env = launch.command(impl, processes, core, suite, args, json_path, placement, srun=srun,
                               simulation=simulation)
    count_hint = srun.hint if srun else None
    run_id = locking.when_free(store, lambda: store.begin_run(
        launch_command=argv, environment=env, mpi_name=impl.name, mpi_prefix=impl.prefix,
        requested_processes=processes, suite=suite, placement=None if placement.is_default else placement.to_record(),
        stream_path=Path(json_path).resolve(), measurement=measurement),
        "begin the run", wait_s=locking.lock_wait_s(), news=note)
    found = machine.facts(core)
    machine_event = {"type": "event", "level": "info", "kind": MACHINE_EVENT, "message": machine.summary(found),
                     "machine": found}
    queue = locking.RecordQueue(store, run_id)  # while another process writes, the records wait in order

    def keep(record: dict) -> None:
        queue.add(record)
        if record.get("type") == "run":  # the stream's first record; the launching host's facts next to it
            queue.add(machine_event)

    outcome = launch.run(argv, env, json_path, keep,
                         impl=impl, processes=processes, timeout=timeout, quiet=quiet, stamp_env=stamp_env,
                         count_hint=count_hint)
    locked_end.store_end(store, queue, outcome, Path(json_path), machine_event)
    if scratch:
        Path(json_path).unlink(missing_ok=True)
    return run_id, outcome


def run_launches(ctx: click.Context, store: Store, count: int, impl: MpiImpl, processes: int, core: Path | str,
                 suite: str, args: list[str], json_file: Path | str | None = None, *,
                 before: Callable[[int], None] = lambda index: None,
                 **options) -> Iterator[tuple[int, int, launch.Outcome]]:
    """count launches of one condition, one after the other: yield (index, run id, outcome) as each ends.

    Each launch is a run_stored run (options: its keywords); with count > 1 they are one measurement,
    whose id is the first run's. The launch is what compare replicates, so `mpimark run --launches N`
    and the tools' --launches make them this way. Stops after a launch that did not complete (stored,
    with why: Ctrl-C ends the launch as interrupted), and exits after one whose input the core refused
    (nothing stored, refuse_bad_input). json_file: with count > 1 each launch keeps its stream as
    FILE.k.jsonl. before(index) is called as each launch begins (0-based).
    """
    measurement: int | Literal["new"] | None = "new" if count > 1 else None
    if json_file:  # before the first launch: a stream written over the database would destroy it
        outputs.refuse_database([_launch_json(json_file, index, count) for index in range(count)], store.path,
                                "--json")
    for index in range(count):
        json_path = _launch_json(json_file, index, count) if json_file else None  # None: beside the database
        before(index)
        run_id, outcome = run_stored(store, impl, processes, core, suite, args, json_path, measurement=measurement,
                                     **options)
        refuse_bad_input(ctx, store, run_id, outcome)
        measurement = run_id if measurement == "new" else measurement
        yield index, run_id, outcome
        if outcome.status != "complete":
            return


def _launch_json(json_file: Path | str, index: int, count: int) -> Path:
    """Launch index's --json file: FILE itself, or with count > 1 one per launch (FILE.1.jsonl, FILE.2.jsonl, ...)."""
    json_path = Path(json_file).resolve()
    if count == 1:
        return json_path
    return json_path.with_name(f"{json_path.stem}.{index + 1}{json_path.suffix or '.jsonl'}")


def _stream_file(store: Store) -> Path:
    directory = store.stream_dir()
    try:
        directory.mkdir(exist_ok=True)
    except OSError:
        directory = Path(tempfile.gettempdir())  # the database's directory is someone else's: no recovery then
    return directory / f"launch-{os.getpid()}-{uuid.uuid4().hex[:12]}.jsonl"


def _stream_records(path: Path) -> list[dict]:
    """The records of a stream file as launch.run would have stored them: whole lines, valid records only."""
    try:
        data = path.read_bytes()
    except OSError:
        return []
    records = []
    for line in data.split(b"\n")[:-1]:  # the last piece: empty, or a line cut off by the kill
        if not line.strip():
            continue
        try:
            records.append(parse_record(line.decode("utf-8")))
        except ValueError:
            continue
    return records


def recover_on_the_way(store: Store) -> None:
    """recover(), as `run` and `runs` do it before their own work, with news of each run recovered: where
    another process holds the write lock (a long import), left for later with a note instead of failing
    the command, which did not ask for it (`mpimark recover` waits for nothing either: it says locked)."""
    try:
        recover(store, on_recovered=lambda run_id, why: note(f"run {run_id}: {why}"))
    except StoreLocked:
        note(f"runs whose mpimark died are not recovered now: another process writes {store.path}; "
             "'mpimark recover' stores them later")


def recover(store: Store, on_recovered: Callable[[int, str], None] = lambda run_id, message: None) -> list[int]:
    """Finish every run whose mpimark died (owner gone): what its stream file holds stored, status incomplete.

    Runs of another host (the owner cannot be checked from here) are left alone. The stream file is
    removed once stored, unless the user named it (--json). A run whose mpimark ended it but found the
    database locked (locked_end: a note beside its stream) is finished with the outcome that mpimark saw.
    An import whose mpimark died (Store.add_run) is deleted: part of a file is no run; import it again.
    """
    recovered = []
    for row in store.runs():
        if row.status != "running" or owner_alive(row.owner) is not False:
            continue
        if being_imported(row):
            store.delete_run(row.id)
            recovered.append(row.id)
            on_recovered(row.id, f"mpimark (pid {row.owner.get('pid')}) died while importing it: the part stored "
                                  "was deleted; import the file again")
            continue
        stream = Path(row.stream_path) if row.stream_path else None
        records = _stream_records(stream) if stream is not None else []
        ended = locked_end.ended(stream) if stream is not None else None
        pid = row.owner.get("pid") if row.owner else "?"
        if ended:
            records = locked_end.with_machine_event(records, ended)
            message = f"mpimark (pid {pid}) ended the run {ended['status']} but found the database locked"
        else:
            message = f"mpimark (pid {pid}) died during the run"
        added = store.recover_run(row.id, records, message)
        if stream is not None:
            message += f"; {added} more record(s) stored from its stream {stream}"
            store.finish_run(row.id, ended["status"] if ended else "incomplete",
                             "; ".join(filter(None, [ended and ended.get("message"), message])))
            locked_end.note_path(stream).unlink(missing_ok=True)
        if stream is not None and stream.parent == store.stream_dir():
            stream.unlink(missing_ok=True)
        recovered.append(row.id)
        on_recovered(row.id, message)
    return recovered

def refuse_bad_input(ctx: click.Context, store: Store, run_id: int, outcome: launch.Outcome) -> None:
    """A launch the core refused as bad input (exit 2, no record): its run removed, as there is nothing
    to keep, one error line and the core's exit status. What `run` and the tools do after each launch."""
    if outcome.core_exit == 2 and outcome.records == 0:
        store.delete_run(run_id)
        error_line(f"{outcome.message} (nothing stored)")
        ctx.exit(exit_status(outcome))


def run_matrix(store: Store, study: str, launches: Sequence[matrix.Launch], members: dict[str, matrix.Member],
               suite: str, args: Sequence[str], *, timeout: float | None = None, quiet: bool = True,
               on_start: Callable[[matrix.Launch], None] = lambda planned: None,
               on_done: Callable[[matrix.Done], None] = lambda done: None,
               placement: Placement = Placement(),
               srun: dict[str, slurm.Srun | None] | None = None, args_for: Mapping[str, Sequence[str]] | None = None,
               placement_for: Mapping[str, Placement] | None = None) -> list[matrix.Done]:
    """Launch each in order, store it as a run and add it to study; stop after an interrupted one.

    srun: by label, Slurm's srun to launch with instead of the implementation's mpiexec.
    args_for and placement_for give a label arguments or a placement of its
    own (`mpimark algorithms study`: each algorithm its benchmark and the
    variables that force it); the others take args and placement.
    """
    finished: list[matrix.Done] = []
    for planned in launches:
        member = members[planned.label]
        on_start(planned)
        load = os.getloadavg()[0]
        started = time.monotonic()
        run_id, outcome = run_stored(
            store, member.impl, planned.processes, member.core, suite,
            matrix.core_args((args_for or {}).get(planned.label, args), planned.processes, suite), None,
            timeout=timeout, quiet=quiet, placement=(placement_for or {}).get(planned.label, placement),
            srun=(srun or {}).get(planned.label))
        locking.when_free(store, lambda: studies.add_run(store, study, run_id, planned.label),
                          f"add run {run_id} to study {study}", wait_s=locking.lock_wait_s(), news=note)
        done = matrix.Done(planned, run_id, outcome.status, outcome.message, outcome.results,
                           time.monotonic() - started, load)
        finished.append(done)
        on_done(done)
        if outcome.status == "interrupted":
            break
    return finished
