"""`mpimark algorithms list|study|show|tune`: the collective algorithms of a library, measured and chosen.

Declarations and wiring only: what can be forced is execution/algorithms.py,
the launches are recording.run_matrix (as `mpimark matrix`), the verdicts
analysis/algorithms.py, the tables and tuning files presentation/algorithms.py
(docs/algorithms.md).
"""

from __future__ import annotations

import sys

import click
from rich.table import Table
from rich.text import Text

from mpimark.commands import console
from mpimark.commands.options import mpi_options
from mpimark.execution import algorithms, build, mpi


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
        import json
        click.echo(json.dumps({"mpi": impl.name, "library_version": impl.library_version, "origin": origin,
                               "operations": [s.to_record() for s in chosen]}, indent=1))
        return
    out = console(sys.stdout)
    for s in chosen:
        table = Table(title=Text(f"{s.op} ({impl.name}, {impl.vendor} {impl.version}): {s.variable}"),
                      title_justify="left")
        for header, justify in (("id", "right"), ("algorithm", "left"), ("setting", "left")):
            table.add_column(header, justify=justify)
        for a in s.algorithms:
            table.add_row(str(a.id), Text(a.name), Text(s.setting(a)))
        out.print(table)
    out.print(Text(f"from {origin}" + ("" if any(s.cvar for s in chosen) else "; not verifiable in a run")))


COMMANDS = (algorithms_group,)
