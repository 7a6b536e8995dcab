"""Series that keep simulated runs apart from measured ones, each simulated series saying so in its label.

A report or a plot draws a series as one line and names it in every table and legend by its label; a
selection may hold runs of one library measured on a machine and simulated by SimGrid SMPI on a platform
(the same "Open MPI"-like name either way). by_simulation splits such a series by what its runs ran on
and labels the simulated part "LABEL (simulated, PLATFORM)", so no line, table column or legend mixes a
model's times with measured ones or hides which is which. A series of measured runs is returned as it is.
"""

from __future__ import annotations

from mpimark.records import simulation
from mpimark.storage.selection import LoadedRun, Series


def by_simulation(series: list[Series]) -> list[Series]:
    """series with each one split by measured / simulated platform, simulated parts labelled; measured
    parts keep their label, every part its implementation (family: its colour in plots)."""
    out = []
    for s in series:
        groups: dict[str, list[LoadedRun]] = {}
        for run in s.runs:
            groups.setdefault(simulation.condition(run.row.simulation), []).append(run)
        if list(groups) == ["measured"]:
            out.append(s)
            continue
        for condition, runs in groups.items():
            sim = runs[0].row.simulation
            label = s.label if sim is None else f"{s.label} ({simulation.label(sim)})"
            out.append(Series(label, tuple(runs), s.implementation))
    _distinct(out)
    return out


def _distinct(series: list[Series]) -> None:
    """Two platforms of one name (files of other content) would give two series one label: numbered apart,
    since a report keys its columns by label."""
    seen: dict[str, int] = {}
    for index, s in enumerate(series):
        count = seen.get(s.label, 0) + 1
        seen[s.label] = count
        if count > 1:
            series[index] = Series(f"{s.label} #{count}", s.runs, s.family)


def simulated_runs(series: list[Series]) -> list[LoadedRun]:
    """The runs of series that were simulated, in order."""
    return [run for s in series for run in s.runs if run.row.simulation]


def notes(series: list[Series]) -> list[str]:
    """What a page of these series says at its top about simulation: nothing when every run was measured."""
    simulated = simulated_runs(series)
    if not simulated:
        return []
    measured = [run for s in series for run in s.runs if not run.row.simulation]
    lines = []
    if measured:
        lines.append(f"This selection mixes simulated and measured runs: {len(simulated)} simulated, "
                     f"{len(measured)} measured. The series marked (simulated) hold times of SimGrid's model of "
                     "a platform, not measurements; set beside a measured series, "
                     f"{simulation.MODEL_NOT_MEASUREMENT}.")
    else:
        lines.append("Every run here is simulated: the times are SimGrid's model of the platform named, not "
                     "measurements of a machine.")
    by_phrase: dict[str, list[int]] = {}  # runs of one setup in one line: a measurement's launches share it
    for run in simulated:
        by_phrase.setdefault(simulation.phrase(run.row.simulation), []).append(run.row.id)
    lines += [f"run{'s' if len(ids) > 1 else ''} {', '.join(map(str, ids))}: {phrase}"
              for phrase, ids in by_phrase.items()]
    lines += simulation.mixing([(f"run {run.row.id}", run.row.simulation) for run in simulated])[:1]
    return lines
