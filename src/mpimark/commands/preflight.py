"""Checks made before anything is built or launched, shared by run, submit, matrix and the tools.

Each raises click.UsageError (one line, exit 2) for what the core would run
without measuring anything, so that nothing is launched or stored for it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

import click

from mpimark.execution import mpi
from mpimark.records import benchmarks


def check_standard(suite: str, impl: mpi.MpiImpl) -> None:
    """Refuse a suite the library is too old for: the core would run nothing (and store no run)."""
    needed = benchmarks.core_catalog().suite(suite).needs_mpi
    try:
        have = tuple(int(x) for x in impl.standard_version.split(".")[:2])
    except ValueError:
        return  # an unreadable version: let the core decide
    if needed and have < needed:
        raise click.UsageError(
            f"the {suite} suite needs an MPI {needed[0]}.{needed[1]} library; {impl.name} ({impl.vendor} "
            f"{impl.version}) implements MPI {impl.standard_version}; choose another with --mpi "
            "('mpimark mpi list' shows the MPI standard of each)")


def _named(args: Iterable[str]) -> list[str] | None:
    """The benchmark names on the core's line, None when they come from a file (-input)."""
    args = list(args)
    if "-input" in (word.lower() for word in args):
        return None
    names, after_option = [], False
    for word in args:
        if word.startswith("-"):
            after_option = word.lower() in ("-include", "-exclude")  # their names add to or cut the default set
            continue
        if not after_option:
            names += [name for name in re.split(r"[,\s]+", word) if name]
        after_option = False
    return names


def refuse_too_few(needs: Mapping[str, int], processes: int) -> None:
    """Refuse when every benchmark (name -> processes it needs) needs more than `processes`."""
    if needs and all(n > processes for n in needs.values()):
        listed = ", ".join(f"{name} needs {n} processes" for name, n in needs.items())
        raise click.UsageError(f"{listed}; -n {processes} runs none of them: give -n {max(needs.values())}")


def check_processes(suite: str, args: Iterable[str], counts: Iterable[int]) -> None:
    """Refuse a launch at any of counts in which every benchmark named needs more processes.

    The core would print "invalid for 1 processes" and store a complete run without a result.
    Unnamed (the default set), unknown names (the core names them) and names from -input pass.
    """
    names = _named(args)
    table = benchmarks.core_catalog().suite(suite) if names else None
    if table is None:
        return
    by_name = {name.lower(): bench for name, bench in table.benchmarks.items()}  # the core ignores case too
    needs = {}
    for name in names:
        found = by_name.get(name.lower())
        if found is None:
            return
        needs[found.name] = dict(found.facts).get("fixed_processes") or 1
    for processes in counts:
        refuse_too_few(needs, processes)
