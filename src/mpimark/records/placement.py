"""A run's placement as stored: what was asked for (runs.placement) and where the ranks ran (the run record).

The stored placement is execution.placement.Placement.to_record():
{"hosts": [...], "hostfile": str|null, "ppn": int|null, "bind": str|null,
"env": {NAME: VALUE}, "launcher_args": [...]}; null or missing (a run stored
before placement existed, an imported one) means the launcher's defaults.
The core's run record has `nodes`, `ranks_per_node` and `ranks` (docs/results-format.md), summarized past
64 ranks (records/per_rank.py).
Pure functions on those dicts, for show, runs, report and compare.
"""

from __future__ import annotations

from collections.abc import Mapping

from mpimark.records import per_rank

DEFAULT = "launcher default"
# (label, key) of the stored placement, in the order they are shown.
FIELDS = (("hosts", "hosts"), ("ppn", "ppn"), ("bind", "bind"), ("env", "env"), ("launcher args", "launcher_args"))


def shown(record: Mapping | None, key: str) -> str:
    """One field of a stored placement as text; 'default' when not given."""
    value = (record or {}).get(key)
    if value is None or value == [] or value == {}:
        return "default"
    if key == "hosts":
        return ",".join(value)
    if key == "env":
        return " ".join(f"{name}={text}" for name, text in value.items())
    if key == "launcher_args":
        return " ".join(value)
    return str(value)


def is_default(record: Mapping | None) -> bool:
    return all(shown(record, key) == "default" for _, key in FIELDS)


def describe(record: Mapping | None) -> str:
    """One line: 'hosts a,b (from FILE); 2 per node; bind core; env X=1; launcher args ...'."""
    if is_default(record):
        return DEFAULT
    parts = []
    for label, key in FIELDS:
        text = shown(record, key)
        if text == "default":
            continue
        if key == "hosts":
            parts.append(f"hosts {text}" + (f" (from {record['hostfile']})" if record.get("hostfile") else ""))
        elif key == "ppn":
            parts.append(f"{text} per node")
        else:
            parts.append(f"{label} {text}")
    return "; ".join(parts)


def differences(a: Mapping | None, b: Mapping | None) -> list[str]:
    """What differs between two stored placements, one phrase each ('bind: core vs none'); [] if alike."""
    return [f"{label}: {shown(a, key)} vs {shown(b, key)}" for label, key in FIELDS
            if shown(a, key) != shown(b, key)]


def nodes_by_ranks(run_record: Mapping | None) -> str | None:
    """'2 × 2' (nodes × ranks per node) from the core's run record; '2 × 1-2' when uneven; None if unknown."""
    if not run_record:
        return None
    per_node = per_rank.ranks_per_node(run_record)
    if not per_node:  # a stream of an older core: only one host tells the count
        hosts = run_record.get("hosts")
        if hosts and len(hosts) == 1 and run_record.get("processes"):
            return f"1 × {run_record['processes']}"
        return None
    low, high = min(per_node), max(per_node)
    return f"{len(per_node)} × {low}" if low == high else f"{len(per_node)} × {low}-{high}"


def rank_env(run_record: Mapping | None) -> dict[str, list]:
    """NAME -> the distinct values the ranks recorded for it (MPIMARK_RECORD_ENV), None for 'not set'."""
    return per_rank.rank_env(run_record)


def env_everywhere(run_record: Mapping | None) -> dict[str, bool]:
    """For each variable the ranks recorded: whether every rank saw it set, to the same value."""
    return {name: len(values) == 1 and values[0] is not None for name, values in rank_env(run_record).items()}


def rank_lines(run_record: Mapping | None) -> list[str]:
    """Per host: 'mm-node1: ranks 0-1 on cpus 0 | 1' (each rank's affinity, in rank order)."""
    ranks = (run_record or {}).get("ranks") or []
    by_host: dict[str, list[dict]] = {}
    for rank in ranks:
        by_host.setdefault(rank["host"], []).append(rank)
    lines = []
    for host, members in by_host.items():
        numbers = [m["rank"] for m in members]
        lines.append(f"{host}: ranks {_ranges(numbers)} on cpus " + " | ".join(m.get("cpus") or "?" for m in members))
    return lines


def _ranges(numbers: list[int]) -> str:
    parts, start = [], None
    for i, n in enumerate(numbers):
        if start is None:
            start = n
        if i + 1 == len(numbers) or numbers[i + 1] != n + 1:
            parts.append(str(start) if start == n else f"{start}-{n}")
            start = None
    return ",".join(parts)


def shape(nodes: int | None, ranks_per_node: list[int] | None) -> str | None:
    """'2 × 2' from the store's nodes and ranks_per_node columns; None when unknown."""
    if not nodes or not ranks_per_node:
        return None
    return nodes_by_ranks({"ranks_per_node": ranks_per_node})


def side_differences(a: list[tuple[Mapping | None, str | None]], b: list[tuple[Mapping | None, str | None]],
                     name_a: str = "A", name_b: str = "B") -> list[str]:
    """Why two sets of runs (each run: its stored placement, its nodes × ranks) were not placed alike.

    One line per difference between the sides ('placement differs: bind:
    core vs none', 'nodes × ranks per node differ: 2 × 2 vs 1 × 4'), and one
    for a side whose own runs differ among themselves; [] when all alike.
    """
    lines = []
    for label, side in ((name_a, a), (name_b, b)):
        if len({describe(p) for p, _ in side}) > 1:
            lines.append(f"the runs of {label} differ in placement among themselves: "
                         + "; ".join(sorted({describe(p) for p, _ in side})))
        if len({s for _, s in side if s}) > 1:
            lines.append(f"the runs of {label} ran on different nodes × ranks per node: "
                         + ", ".join(sorted({s for _, s in side if s})))
    if a and b:
        found = differences(a[0][0], b[0][0])
        if found:
            lines.append(f"placement differs ({name_a} vs {name_b}): " + "; ".join(found))
        shape_a, shape_b = a[0][1], b[0][1]
        if shape_a and shape_b and shape_a != shape_b:
            lines.append(f"nodes × ranks per node differ ({name_a} vs {name_b}): {shape_a} vs {shape_b}")
    return lines
