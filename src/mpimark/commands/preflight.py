"""Checks made before anything is built or launched, shared by run, submit, matrix and the tools.

Each raises click.UsageError (one line, exit 2) for what the core would run
without measuring anything, so that nothing is launched or stored for it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

import click

from mpimark.execution import mpi
from mpimark.records import benchmarks, osu_columns


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
    The osu suite's one program must have the count OSU's definition fixes (check_osu_processes).
    """
    if suite == osu_columns.SUITE:
        check_osu_processes(args, counts)
        return
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


def osu_program(args: Iterable[str]) -> str | None:
    """The OSU program of the core's line (`latency -m 1:64`: its first word), as the facts name it
    (osu_latency); None when the line starts with an option (the core says what is missing)."""
    args = list(args)
    if not args or args[0].startswith("-"):
        return None
    name = args[0].lower()  # the core ignores case too
    return name if name.startswith("osu_") else f"osu_{name}"


def check_osu_processes(args: Iterable[str], counts: Iterable[int]) -> None:
    """Refuse a count the OSU program does not run on: osu_latency exactly 2, a collective at least 2.

    OSU's own programs print "This test requires exactly two processes" and exit; the core does the same,
    after the launch: refused here, nothing is launched or stored. An unknown program passes (the core
    names it, exit 2, and nothing is stored either)."""
    program = osu_program(args)
    table = benchmarks.core_catalog().suite(osu_columns.SUITE)
    bench = table.benchmarks.get(program) if table and program else None
    if bench is None:
        return
    facts = dict(bench.facts)
    fixed, least = facts.get("fixed_processes"), facts.get("min_processes") or 1
    for processes in counts:
        if fixed and processes != fixed:
            raise click.UsageError(f"{program} needs exactly {fixed} processes (OSU's definition); "
                                   f"-n {processes} runs nothing: give -n {fixed}")
        if processes < least:
            raise click.UsageError(f"{program} needs at least {least} processes (OSU's definition); "
                                   f"-n {processes} runs nothing: give -n {least} or more")
