"""`mpimark list [SUITE]`: the benchmarks mpimark can run, from the core's facts (records/benchmarks.py)."""

from __future__ import annotations

import json
import sys

import click
from rich.table import Table
from rich.text import Text

from mpimark.commands import console, note
from mpimark.errors import MpimarkError
from mpimark.execution.core import FactsError, benchmark_facts
from mpimark.paths import cache_dir
from mpimark.presentation.cells import csv_writer
from mpimark.records.benchmarks import Catalog


def _facts() -> Catalog:
    """The built core's facts; without a core, the facts it last gave (cached per build), said on stderr."""
    try:
        return Catalog(benchmark_facts())
    except FactsError as exc:
        cached = sorted((cache_dir() / "facts").glob("*.json"), key=lambda p: p.stat().st_mtime)
        if not cached:
            raise MpimarkError(f"{exc} (and no facts cached from an earlier build)") from None
        note(f"{exc}; listing the facts of the last core that was asked ({cached[-1]})")
        doc = json.loads(cached[-1].read_text(encoding="utf-8"))
        return Catalog([*doc["suites"], *doc.get("tools", [])])


@click.command("list")
@click.argument("suite", required=False)
@click.option("--format", "fmt", type=click.Choice(("table", "csv", "json")), default="table", show_default=True)
def list_command(suite: str | None, fmt: str) -> None:
    """The benchmarks of every suite (or of SUITE): class, whether a run without names runs it, what it reports."""
    facts = _facts()
    suites = list(facts.suites.values())
    if suite is not None:
        suites = [s for s in suites if s.name == suite]
        if not suites:
            raise click.UsageError(f"no suite {suite!r}; the suites: {', '.join(facts.suites)}")
    rows = [{"suite": s.name, "benchmark": b.name, "class": b.cls.value, "default": b.default,
             "reports": b.layout.value, "bandwidth": b.bandwidth, "reduction": b.reduction,
             "checks_data": b.moves_data, "tool": s.tool}
            for s in suites for b in s.benchmarks.values()]
    if fmt == "json":
        sys.stdout.write(json.dumps(rows, indent=2) + "\n")
        return
    if fmt == "csv":
        fields = list(rows[0]) if rows else ["suite"]
        writer = csv_writer(sys.stdout)
        writer.writerow(fields)
        writer.writerows([row[f] for f in fields] for row in rows)
        return
    table = Table(title=Text("benchmarks (default: run when no names are given; * -check verifies data)"),
                  title_justify="left")
    for header in ("suite", "benchmark", "class", "default", "reports"):
        table.add_column(header)
    for s in suites:
        for b in s.benchmarks.values():
            table.add_row(s.name + (" (tool)" if s.tool else ""), b.name + (" *" if b.moves_data else ""),
                          b.cls.value, "yes" if b.default else "no", b.layout.value)
        table.add_section()
    console(sys.stdout).print(table)


COMMANDS = (list_command,)
