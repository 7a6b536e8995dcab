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
from collections.abc import Callable, Sequence
from pathlib import Path

from mpimark.execution import launch, matrix, slurm
from mpimark.execution.mpi import MpiImpl
from mpimark.execution.placement import Placement
from mpimark.storage import studies
from mpimark.storage.store import Store


def run_stored(store: Store, impl: MpiImpl, processes: int, core: Path | str, suite: str, args: list[str],
               json_path: Path | str, *, timeout: float | None = None, quiet: bool = False,
               stamp_env: str | None = None, placement: Placement = Placement(),
               srun: slurm.Srun | None = None) -> tuple[int, launch.Outcome]:
    """One launch stored as one run: begun, every record as it arrives, finished with its outcome.

    What `mpimark run` does for its one launch and `mpimark matrix` for each
    of its launches. An exception from the store ends the job and propagates.
    The placement asked for is stored with the run (None when it is the default).
    srun: launch with Slurm's srun (slurm.resolve) instead of impl's mpiexec.
    """
    argv, env = launch.command(impl, processes, core, suite, args, json_path, placement, srun=srun)
    count_hint = srun.hint if srun else None
    run_id = store.begin_run(launch_command=argv, environment=env, mpi_name=impl.name,
                             mpi_prefix=impl.prefix, requested_processes=processes, suite=suite,
                             placement=None if placement.is_default else placement.to_record())
    outcome = launch.run(argv, env, json_path, lambda record: store.add_record(run_id, record),
                         impl=impl, processes=processes, timeout=timeout, quiet=quiet, stamp_env=stamp_env,
                         count_hint=count_hint)
    store.finish_run(run_id, outcome.status, outcome.message)
    return run_id, outcome

def discard_bad_input(store: Store, run_id: int, outcome: launch.Outcome) -> bool:
    """Remove the run of a launch the core refused as bad input (exit 2, no record): there is nothing to keep."""
    if outcome.core_exit == 2 and outcome.records == 0:
        store.delete_run(run_id)
        return True
    return False


def run_matrix(store: Store, study: str, launches: Sequence[matrix.Launch], members: dict[str, matrix.Member],
               suite: str, args: Sequence[str], *, timeout: float | None = None, quiet: bool = True,
               on_start: Callable[[matrix.Launch], None] = lambda planned: None,
               on_done: Callable[[matrix.Done], None] = lambda done: None,
               placement: Placement = Placement(),
               srun: dict[str, slurm.Srun | None] | None = None) -> list[matrix.Done]:
    """Launch each in order, store it as a run and add it to study; stop after an interrupted one.

    srun: by label, Slurm's srun to launch with instead of the implementation's mpiexec."""
    finished: list[matrix.Done] = []
    with tempfile.TemporaryDirectory(prefix="mpimark-matrix-") as scratch:
        for planned in launches:
            member = members[planned.label]
            on_start(planned)
            load = os.getloadavg()[0]
            started = time.monotonic()
            run_id, outcome = run_stored(
                store, member.impl, planned.processes, member.core, suite, matrix.core_args(args, planned.processes),
                Path(scratch) / f"launch-{planned.index}.jsonl", timeout=timeout, quiet=quiet, placement=placement,
                srun=(srun or {}).get(planned.label))
            studies.add_run(store, study, run_id, planned.label)
            done = matrix.Done(planned, run_id, outcome.status, outcome.message, outcome.results,
                               time.monotonic() - started, load)
            finished.append(done)
            on_done(done)
            if outcome.status == "interrupted":
                break
    return finished
