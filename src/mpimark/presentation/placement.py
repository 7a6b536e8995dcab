"""A run's placement as lines of text: what was asked for, where the ranks ran, what they saw.

For `show`, the Markdown export and the report. The data are the stored
placement (runs.placement) and the core's run record; records/placement.py reads them.
"""

from __future__ import annotations

from collections.abc import Mapping

from mpimark.presentation.hosts import SHOWN  # the nodes named in the "ranks:" line; a larger job's, counted
from mpimark.records import per_rank
from mpimark.records import placement as stored


def shape(nodes: int | None, ranks_per_node: list[int] | None) -> str:
    """'2 × 2' (nodes × ranks per node) from the store's columns; '' when unknown."""
    return stored.shape(nodes, ranks_per_node) or ""


def lines(asked: Mapping | None, run: Mapping | None) -> list[str]:
    """'placement: ...' (asked for, when not the defaults), 'ranks: ...' (where they ran), 'rank env: ...'."""
    out = []
    if not stored.is_default(asked):
        out.append(f"placement: {stored.describe(asked)}")
    per_node = per_rank.ranks_per_node(run) or []
    where = stored.rank_lines(run) or ([] if per_rank.listed(run) else ["ranks not listed past the core's bound"])
    if per_node and where:
        low, high = min(per_node), max(per_node)
        count = str(low) if low == high else f"{low}-{high}"
        out.append(f"ranks: {len(per_node)} node{'s' if len(per_node) != 1 else ''} × {count} "
                   f"rank{'s' if high != 1 else ''} per node; " + "; ".join(where[:SHOWN])
                   + (f"; ... and {len(where) - SHOWN} more nodes" if len(where) > SHOWN else ""))
    ranks = per_rank.rank_count(run)
    for name, values in stored.rank_env(run).items():
        if len(values) == 1 and values[0] is not None:
            out.append(f"rank env: {name}={values[0]} in all {ranks} ranks")
        else:
            seen = ", ".join("not set" if v is None else repr(v) for v in values)
            out.append(f"rank env: {name} differs between the ranks ({seen})")
    return out
