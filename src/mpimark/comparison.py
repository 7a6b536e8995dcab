"""A Comparison (analysis.compare) as a terminal table, Markdown, CSV or JSON, benchstat-style.

One column list drives every format, as in summary.py, whose Column it
reuses. Renderers return text or rich renderables; the CLI writes them.
"""

from __future__ import annotations

import csv
import io
import json

from rich.console import Group
from rich.table import Table
from rich.text import Text

from mpimark.analysis import Comparison, ComparisonRow
from mpimark.summary import Column


def _usec(value: float | None) -> str:
    # Enough digits for sub-microsecond latencies without drowning large times in them.
    if value is None:
        return "-"
    return f"{value:.2f}" if value >= 10 else f"{value:.3f}" if value >= 1 else f"{value:.4f}"


def _benchmark(row: ComparisonRow) -> str:
    label = row.key.benchmark
    extras = [row.key.mode] if row.key.mode else []
    extras += [] if row.key.group is None else [f"group {row.key.group}"]
    return f"{label} ({', '.join(extras)})" if extras else label


def _verdict(row: ComparisonRow) -> str:
    return row.marker + (f" ({row.note})" if row.note else "")


COLUMNS = (
    Column("benchmark", "benchmark", _benchmark),
    Column("processes", "np", lambda r: r.key.processes),
    Column("bytes", "bytes", lambda r: r.key.bytes),
    Column("median_a_usec", "median A [usec]", lambda r: r.median_a_usec),
    Column("median_b_usec", "median B [usec]", lambda r: r.median_b_usec),
    Column("ratio_b_a", "B/A", lambda r: r.ratio, 3),
    Column("p_value", "p", lambda r: r.p_value, 3),
    Column("verdict", "", _verdict),
)
NUMERIC = {"processes", "bytes", "median_a_usec", "median_b_usec", "ratio_b_a", "p_value"}


def _cell(column: Column, row: ComparisonRow) -> str:
    value = column.value(row)
    if column.key in ("median_a_usec", "median_b_usec"):
        return _usec(value)
    if value is None:
        return "-"
    return f"{value:.{column.decimals}f}" if column.decimals is not None else str(value)


def _geomean_cells(comparison: Comparison) -> list[str]:
    ratio = "-" if comparison.geomean_ratio is None else f"{comparison.geomean_ratio:.3f}"
    return ["geomean", "", "", _usec(comparison.geomean_a_usec), _usec(comparison.geomean_b_usec), ratio, "", ""]


def footnotes(comparison: Comparison, a: str, b: str) -> list[str]:
    """Lines under the table: what A and B are, alpha, unmatched rows, warnings."""
    lines = [f"A: {a}", f"B: {b}",
             f"two-sided Mann-Whitney U; ~: no significant difference at alpha = {comparison.alpha:g}"]
    if comparison.only_a or comparison.only_b:
        lines.append(f"not compared: {comparison.only_a} rows only in A, {comparison.only_b} only in B")
    return lines + [f"warning: {w}" for w in comparison.warnings]


def to_rich(comparison: Comparison, a: str, b: str) -> Group:
    table = Table(title=Text(f"{a}  vs  {b}"), title_justify="left")
    for column in COLUMNS:
        table.add_column(Text(column.header), justify="right" if column.key in NUMERIC else "left")
    for row in comparison.rows:
        table.add_row(*(Text(_cell(c, row)) for c in COLUMNS))
    if comparison.rows:
        table.add_section()
        table.add_row(*(Text(cell) for cell in _geomean_cells(comparison)), style="bold")
    return Group(table, *(Text(line, style="dim") for line in footnotes(comparison, a, b)))


def to_markdown(comparison: Comparison, a: str, b: str) -> str:
    headers = [c.header or "verdict" for c in COLUMNS]
    lines = ["| " + " | ".join(headers) + " |",
             "|" + "|".join("---:" if c.key in NUMERIC else "---" for c in COLUMNS) + "|"]
    lines += ["| " + " | ".join(_cell(c, row) for c in COLUMNS) + " |" for row in comparison.rows]
    if comparison.rows:
        lines.append("| " + " | ".join(f"**{cell}**" if cell else "" for cell in _geomean_cells(comparison)) + " |")
    return "\n".join(lines + [""] + [f"- {line}" for line in footnotes(comparison, a, b)]) + "\n"


def to_csv(comparison: Comparison, a: str, b: str) -> str:
    # Raw values, not rounded ones: CSV is for further computation.
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["benchmark", "processes", "mode", "group", "bytes", "median_a_usec", "median_b_usec",
                     "n_a", "n_b", "ratio_b_a", "p_value", "significant", "note"])
    for row in comparison.rows:
        values = [*row.key[:4], row.key.bytes, row.median_a_usec, row.median_b_usec, row.n_a, row.n_b, row.ratio,
                  row.p_value, row.significant, row.note]
        writer.writerow(["" if v is None else v for v in values])
    if comparison.geomean_ratio is not None:
        writer.writerow(["geomean", "", "", "", "", comparison.geomean_a_usec, comparison.geomean_b_usec, "", "",
                         comparison.geomean_ratio, "", "", ""])
    return out.getvalue()


def to_json(comparison: Comparison, a: str, b: str) -> str:
    document = {
        "a": a, "b": b, "alpha": comparison.alpha,
        "rows": [{**row.key._asdict(), "median_a_usec": row.median_a_usec, "median_b_usec": row.median_b_usec,
                  "n_a": row.n_a, "n_b": row.n_b, "ratio_b_a": row.ratio, "p_value": row.p_value,
                  "significant": row.significant, "note": row.note} for row in comparison.rows],
        "geomean": {"median_a_usec": comparison.geomean_a_usec, "median_b_usec": comparison.geomean_b_usec,
                    "ratio_b_a": comparison.geomean_ratio},
        "only_a": comparison.only_a, "only_b": comparison.only_b, "warnings": comparison.warnings,
    }
    return json.dumps(document, indent=2) + "\n"


EXPORTS = {"markdown": to_markdown, "csv": to_csv, "json": to_json}
