"""A series' self-check warnings as short lines, to stand beside the verdicts and ranks drawn from its runs.

The core's warnings (rigour.warnings: oversubscribed, loaded, noise, timer,
timer resolution) are sentences written for one run's log; next to a verdict
the reader needs what was wrong and in which runs: "runs 7, 9: oversubscribed:
4 ranks on 2 cores". The report marks the cells and rankings whose runs carry
one, and compare prints a line per side (docs/analysis.md, "report").
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from mpimark.presentation import rigour
from mpimark.storage.selection import LoadedRun, Series

# The core's messages (core/src/engine/selfcheck.c, engine.c) shortened to what they found.
_SHORT = (
    (re.compile(r"oversubscribed: (\d+) ranks on the machine of rank \d+, which has (\d+) cores"),
     r"oversubscribed: \1 ranks on \2 cores"),
    (re.compile(r"loaded machine: ([\d.]+) tasks runnable beyond the (\d+) ranks"),
     r"loaded machine: \1 tasks runnable beyond the \2 ranks"),
    (re.compile(r"loaded machine: load average ([\d.]+)"), r"loaded machine: load average \1"),
    (re.compile(r"high OS noise: rank (\d+) lost ([\d.]+) %"), r"high OS noise: a rank lost \2 % of its time"),
    (re.compile(r"(\S+) on (\d+) processes: (\d+) row\(s\) from (\d+) to (\d+) bytes were timed in clock intervals"),
     r"\1 on \2 processes, up to \5 bytes: timed near the timer's resolution"),
)


def short(message: str) -> str:
    """A self-check warning in a few words: a known finding's numbers, else its first clause."""
    for pattern, replacement in _SHORT:
        found = pattern.match(message)
        if found:
            return found.expand(replacement)
    return message.split("; ", 1)[0]


Warning = tuple[str | None, str]  # (the benchmark it concerns, None: the whole run; the short text)


def run_warnings(run: LoadedRun) -> list[Warning]:
    """The run's self-check warnings, short, each once, in stream order; a warning about one benchmark's
    rows (the timer's resolution) names it."""
    found = (r for r in run.records if r["type"] == "event" and r.get("level") == "warning"
             and r.get("kind") in rigour.SELFCHECK_KINDS)
    return list(dict.fromkeys((r.get("benchmark"), short(r["message"])) for r in found))


class Alerts:
    """The self-check warnings of a selection's runs, read once per run (a run may hold 10^6 records) and
    looked up by run id (a report's per-benchmark series hold the same runs)."""

    def __init__(self, series: Iterable[Series]) -> None:
        self._by_run = {run.row.id: run_warnings(run) for s in series for run in s.runs}

    def lines(self, series: Series, positions: Iterable[int] | None = None, benchmark: str | None = None
              ) -> list[str]:
        """One line per warning with the runs that gave it: "runs 7, 9: oversubscribed: 4 ranks on 2 cores".

        positions: only those runs, by their place in series.runs (as a comparison's row names its
        launches); benchmark: leave out warnings about other benchmarks' rows."""
        chosen = range(len(series.runs)) if positions is None else sorted(set(positions))
        runs_of: dict[str, list[int]] = {}
        for i in chosen:
            run_id = series.runs[i].row.id
            for about, line in self._by_run.get(run_id, []):
                if benchmark is None or about is None or about == benchmark:
                    runs_of.setdefault(line, []).append(run_id)
        return [f"run{'s' if len(ids) > 1 else ''} {', '.join(map(str, ids))}: {line}"
                for line, ids in _merged(runs_of).items()]


_NUMBER = re.compile(r"\d+(?:\.\d+)?")


def _merged(runs_of: dict[str, list[int]]) -> dict[str, list[int]]:
    """Lines that differ only in their numbers as one, each differing number as its range over the runs
    ("high OS noise: a rank lost 1.4-11.7 % of its time" for ten runs, not ten lines)."""
    groups: dict[str, list[str]] = {}
    for line in runs_of:
        groups.setdefault(_NUMBER.sub("#", line), []).append(line)
    out: dict[str, list[int]] = {}
    for template, lines in groups.items():
        if len(lines) == 1:
            out[lines[0]] = runs_of[lines[0]]
            continue
        columns = list(zip(*(_NUMBER.findall(line) for line in lines)))
        ranges = iter(_range(column) for column in columns)
        out[re.sub("#", lambda _: next(ranges), template)] = sorted({i for line in lines for i in runs_of[line]})
    return out


def _range(values: tuple[str, ...]) -> str:
    low, high = min(values, key=float), max(values, key=float)
    return low if float(low) == float(high) else f"{low}-{high}"


def series_warnings(series: Series) -> list[str]:
    """The self-check warnings of the series' runs as short lines, each with the runs that gave it
    ("runs 7, 9: oversubscribed: 4 ranks on 2 cores"); empty where no run warned. What compare prints
    for each side."""
    return Alerts([series]).lines(series)
