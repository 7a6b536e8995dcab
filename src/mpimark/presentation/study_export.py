"""Series of runs (a study, or any selection) as one tidy table: a row per measurement or per sample.

Tidy: one observation per row, every row carrying what identifies it (the
implementation, the run, its nodes and ranks per node, the benchmark, mode,
process count and size), so a data frame can group by any of them without a
join. CSV or JSON Lines; the CLI decides where the text goes.
"""

from __future__ import annotations

import io
import json

from mpimark.presentation.cells import csv_writer
from mpimark.records import simulation
from mpimark.records.figures import bandwidth_mbs, mode, time_ci_usec, time_usec
from mpimark.records.mpi_library import one_line
from mpimark.storage.selection import LoadedRun, Series

MEASUREMENT_FIELDS = ("implementation", "run_id", "mpi_library", "nodes", "ranks_per_node", "suite", "benchmark",
                      "mode", "processes", "group", "bytes", "status", "time_usec", "ci_low_usec", "ci_high_usec",
                      "t_min_usec", "t_max_usec", "t_avg_usec", "bandwidth_mbs", "repetitions", "samples")
SAMPLE_FIELDS = ("implementation", "run_id", "nodes", "ranks_per_node", "suite", "benchmark", "mode", "processes",
                 "group", "bytes", "sample", "time_usec")


def _library(run: LoadedRun) -> str | None:
    return one_line(run.row.mpi_library_version) or None


def _ranks_per_node(run: LoadedRun) -> str | None:
    ranks = run.row.ranks_per_node
    return None if not ranks else ",".join(map(str, ranks))


def _identity(s: Series, run: LoadedRun, record: dict) -> dict:
    return {"implementation": s.label, "run_id": run.row.id, "nodes": run.row.nodes,
            "ranks_per_node": _ranks_per_node(run), "suite": record.get("suite") or run.row.suite,
            "benchmark": record["benchmark"], "mode": mode(record), "processes": record["processes"],
            "group": record.get("group"), "bytes": record["bytes"]}


def measurements(series: list[Series]) -> list[dict]:
    """One row per result row of every run: its figures, skipped rows with their status and no figures."""
    rows = []
    for s in series:
        for run in s.runs:
            for record in run.results:
                ci = time_ci_usec(record) or (None, None)
                rows.append({**_identity(s, run, record), "mpi_library": _library(run),
                             "status": record.get("status", "ok"), "time_usec": time_usec(record),
                             "ci_low_usec": ci[0], "ci_high_usec": ci[1],
                             "t_min_usec": record.get("t_min_usec"), "t_max_usec": record.get("t_max_usec"),
                             "t_avg_usec": record.get("t_avg_usec"), "bandwidth_mbs": bandwidth_mbs(record),
                             "repetitions": record.get("repetitions"),
                             "samples": len(record.get("samples_ns") or [])})
    return [{field: row[field] for field in MEASUREMENT_FIELDS} for row in rows]


def samples(series: list[Series]) -> list[dict]:
    """One row per sample (usec) of every measured row; imported rows have none."""
    rows = []
    for s in series:
        for run in s.runs:
            for record in run.results:
                identity = _identity(s, run, record)
                rows += [{**identity, "sample": i, "time_usec": ns / 1000}
                         for i, ns in enumerate(record.get("samples_ns") or [])]
    return rows


def to_csv(rows: list[dict], fields: tuple[str, ...]) -> str:
    out = io.StringIO()
    writer = csv_writer(out)
    writer.writerow(fields)
    for row in rows:
        writer.writerow(["" if row[f] is None else row[f] for f in fields])
    return out.getvalue()


def to_jsonl(rows: list[dict], fields: tuple[str, ...]) -> str:
    return "".join(json.dumps({f: row[f] for f in fields}, ensure_ascii=False) + "\n" for row in rows)


def _simulated(series: list[Series], rows: list[dict]) -> list[dict]:
    """Each row with simulated (true/false) and platform (None: measured): a table holding a simulated run
    says per row which times are a simulator's model, so a group-by cannot pool them with measured ones."""
    marks = {run.row.id: (bool(run.row.simulation), simulation.platform_name(run.row.simulation))
             for s in series for run in s.runs}
    return [{**row, "simulated": marks[row["run_id"]][0], "platform": marks[row["run_id"]][1]} for row in rows]


def export(series: list[Series], fmt: str, per_sample: bool = False) -> str:
    """The tidy table; where a run is simulated (SimGrid SMPI), every row ends with simulated and platform
    (a selection of measured runs keeps the columns it always had)."""
    rows, fields = (samples(series), SAMPLE_FIELDS) if per_sample else (measurements(series), MEASUREMENT_FIELDS)
    if any(run.row.simulation for s in series for run in s.runs):
        rows, fields = _simulated(series, rows), (*fields, "simulated", "platform")
    return to_csv(rows, fields) if fmt == "csv" else to_jsonl(rows, fields)
