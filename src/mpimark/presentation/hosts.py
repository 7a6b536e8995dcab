"""Host lists in views: a run on thousands of nodes names its first hosts and how many more, never all.

A 4,096-rank run's host list made `mpimark runs` a table of 600 lines and show's heading a line of 50 KB
(issue 24); the core itself lists at most its first 64 hosts past 64 ranks (hosts_omitted, the rest).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

SHOWN = 8  # hosts named in a view; a job on more says how many it left out


def listed(hosts: Sequence[str], total: int | None = None, shown: int = SHOWN) -> str:
    """"a, b, c" or "node-0, ..., node-7 and 4088 more (4096 hosts)"; total: the run's hosts, where the list
    holds only the first of them (the core's hosts_omitted, the store's nodes)."""
    total = max(total or 0, len(hosts))
    if total <= shown:
        return ", ".join(hosts)
    return ", ".join(hosts[:shown]) + f" and {total - shown} more ({total} hosts)"


def of_run(run: Mapping) -> str:
    """The run record's hosts as listed() writes them, counting those the core left out."""
    hosts = list(run.get("hosts") or [])
    return listed(hosts, len(hosts) + (run.get("hosts_omitted") or 0))
