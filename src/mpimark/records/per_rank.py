"""The core's per-rank run-record fields, listed or summarized.

Up to `per_rank.bound` world ranks (64) the core lists every rank: `ranks_per_node`, `ranks` (host, CPU, allowed
CPUs, MPIMARK_RECORD_ENV values). Past it, unless the run asked for every rank (MPIMARK_PER_RANK=1), it writes
`ranks_per_node_counts` ([ranks per node, nodes] pairs) and `ranks_summary` (CPU range, distinct values with
their rank counts) instead, and `hosts` holds only the first hosts (`hosts_omitted` says how many more):
docs/results-format.md, "Per-rank fields past the bound". Readers ask here, not the record, so both forms read alike.
"""

from __future__ import annotations

from collections.abc import Mapping


def listed(run: Mapping | None) -> bool:
    """Whether the record names every rank (a core before the bound always did)."""
    return bool(((run or {}).get("per_rank") or {"listed": True}).get("listed", True))


def ranks_per_node(run: Mapping | None) -> list[int] | None:
    """Ranks on each node: the listed ones, or (summarized) one entry per node, ascending; None when unknown."""
    run = run or {}
    per_node = run.get("ranks_per_node")
    if isinstance(per_node, list) and per_node:
        return per_node
    counts = run.get("ranks_per_node_counts")
    if isinstance(counts, list) and counts:
        return [int(ranks) for ranks, nodes in counts for _ in range(int(nodes))]
    return None


def node_count(run: Mapping | None) -> int | None:
    """Distinct hosts of the run: `nodes`, else the listed hosts."""
    run = run or {}
    if isinstance(run.get("nodes"), int):
        return run["nodes"]
    hosts = run.get("hosts")
    return len(hosts) + int(run.get("hosts_omitted") or 0) if isinstance(hosts, list) else None


def value_counts(run: Mapping | None, field: str) -> list[tuple[str | None, int]]:
    """(value, ranks) of one per-rank text field ("cpus"), in first-seen order, from either form."""
    run = run or {}
    if "ranks" in run or "ranks_summary" not in run:
        seen: dict = {}
        for rank in run.get("ranks") or []:
            seen[rank.get(field)] = seen.get(rank.get(field), 0) + 1
        return list(seen.items())
    counts = (run["ranks_summary"].get(field) or {}).get("values") or []
    return [(value, count) for value, count in counts]


def rank_env(run: Mapping | None) -> dict[str, list]:
    """NAME -> the distinct values the ranks recorded for it (MPIMARK_RECORD_ENV), None for 'not set'."""
    run = run or {}
    seen: dict[str, list] = {}
    if "ranks" in run or "ranks_summary" not in run:
        for rank in run.get("ranks") or []:
            for name, value in (rank.get("env") or {}).items():
                values = seen.setdefault(name, [])
                if value not in values:
                    values.append(value)
        return seen
    for name, counts in (run["ranks_summary"].get("env") or {}).items():
        seen[name] = [value for value, _ in counts.get("values") or []]
    return seen


def rank_count(run: Mapping | None) -> int:
    """Ranks the placement fields describe: the listed ranks, or the summary's count."""
    run = run or {}
    if "ranks" in run or "ranks_summary" not in run:
        return len(run.get("ranks") or [])
    return int(run["ranks_summary"].get("ranks") or 0)
