"""IMB-P2P's and IMB-MT's text, read back for the tests: the tables in order,
each with its title line, process line, window line, column header and rows.
The same reader takes the core's text and the real IMB-P2P's and IMB-MT's."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

BENCHMARKING = re.compile(r"^# Benchmarking (\S+)(?: \((.+)\))?$")
PROCESSES = re.compile(r"^# #processes = (\d+)(?: \(threads: (\d+)\))?$")
WINDOW = re.compile(r"^# window_size = (\d+)$")
INVALID = re.compile(r"^# !! Benchmark (\S+) is invalid for (\d+) processes !!$")


@dataclass
class Table:
    name: str
    grid: str | None = None
    processes: int | None = None
    threads: int | None = None
    window: int | None = None
    columns: list[str] = field(default_factory=list)
    rows: list[list[str]] = field(default_factory=list)
    ok: bool = True  # IMB-MT's "# NO SUCCESSFUL EXECUTIONS" makes it False

    def column(self, title: str) -> list[str]:
        k = self.columns.index(title)
        return [row[k] for row in self.rows]


@dataclass
class Text:
    tables: list[Table]
    invalid: list[tuple[str, int]]  # IMB-P2P's "# !! Benchmark X is invalid for N processes !!"
    header: list[str]               # the lines before the first table

    def table(self, name: str) -> Table:
        return next(t for t in self.tables if t.name == name)


def parse(text: str) -> Text:
    tables: list[Table] = []
    invalid: list[tuple[str, int]] = []
    header: list[str] = []
    current: Table | None = None
    for raw in text.splitlines():
        line = raw.rstrip()
        if (m := BENCHMARKING.match(line)):
            current = Table(m.group(1), m.group(2))
            tables.append(current)
        elif (m := INVALID.match(line)):
            invalid.append((m.group(1), int(m.group(2))))
        elif current is None:
            header.append(line)
        elif (m := PROCESSES.match(line)):
            current.processes = int(m.group(1))
            current.threads = int(m.group(2)) if m.group(2) else None
        elif (m := WINDOW.match(line)):
            current.window = int(m.group(1))
        elif line == "# NO SUCCESSFUL EXECUTIONS":
            current.ok = False
        elif line.strip().startswith("#") and not line.startswith("#-") and "repetitions" in line:
            current.columns = line.split()
        elif line and not line.startswith("#"):
            current.rows.append(line.split())
    return Text(tables, invalid, header)
