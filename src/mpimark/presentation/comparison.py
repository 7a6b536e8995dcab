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

from mpimark.analysis.statistics import Comparison, ComparisonRow
from mpimark.presentation.cells import csv_writer, markdown
from mpimark.presentation.summary import Column
from mpimark.records.figures import Key


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


INSUFFICIENT_MARK = "?"  # no verdict: too few samples (or launches) to test, in every comparison's table


def _verdict(row: ComparisonRow) -> str:
    return INSUFFICIENT_MARK if row.note else row.marker


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
             f"two-sided Mann-Whitney U; ~: no significant difference at alpha = {comparison.alpha:g}; "
             f"{INSUFFICIENT_MARK}: too few samples to test"]
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
    lines = ["| " + " | ".join(markdown(h) for h in headers) + " |",
             "|" + "|".join("---:" if c.key in NUMERIC else "---" for c in COLUMNS) + "|"]
    lines += ["| " + " | ".join(markdown(_cell(c, row)) for c in COLUMNS) + " |" for row in comparison.rows]
    if comparison.rows:
        lines.append("| " + " | ".join(f"**{markdown(cell)}**" if cell else "" for cell in _geomean_cells(comparison))
                     + " |")
    notes = [f"- {markdown(line, cell=False)}" for line in footnotes(comparison, a, b)]
    return "\n".join(lines + [""] + notes) + "\n"


def to_csv(comparison: Comparison, a: str, b: str) -> str:
    # Raw values, not rounded ones: CSV is for further computation.
    out = io.StringIO()
    writer = csv_writer(out)
    writer.writerow(["benchmark", "processes", "mode", "group", "bytes", "median_a_usec", "median_b_usec",
                     "n_a", "n_b", "ratio_b_a", "p_value", "significant", "note"])
    for row in comparison.rows:
        values = [*row.key[:4], row.key.bytes, row.median_a_usec, row.median_b_usec, row.n_a, row.n_b, row.ratio,
                  row.p_value, row.significant, row.note]
        writer.writerow(values)
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


# -- several implementations against one baseline (`mpimark compare STUDY`) -----------------------------
#
# One row per key, one column group per implementation: its median, its ratio
# to the baseline's and the test's mark. Each group is the pairwise Comparison
# (baseline, that implementation), so every number is the one
# `mpimark compare STUDY:BASELINE STUDY:IMPL` prints.

Pairs = list[tuple[str, Comparison]]  # (implementation label, Comparison(baseline, it))


def _mark(row: ComparisonRow | None) -> str:
    if row is None:
        return ""
    return INSUFFICIENT_MARK if row.note else row.marker


def _wide_rows(pairs: Pairs) -> list[tuple[Key, float | None, list[ComparisonRow | None]]]:
    """Per key in any pair: the baseline's median and each pair's row (None where that pair lacks the key)."""
    by_key: dict[Key, list[ComparisonRow | None]] = {}
    for i, (_, comparison) in enumerate(pairs):
        for row in comparison.rows:
            by_key.setdefault(row.key, [None] * len(pairs))[i] = row
    order = sorted(by_key, key=lambda k: (k.benchmark, k.mode, k.processes, -1 if k.group is None else k.group,
                                          k.bytes))
    return [(k, next(r.median_a_usec for r in by_key[k] if r is not None), by_key[k]) for k in order]


def _benchmark_of(key: Key) -> str:
    extras = [key.mode] if key.mode else []
    extras += [] if key.group is None else [f"group {key.group}"]
    return f"{key.benchmark} ({', '.join(extras)})" if extras else key.benchmark


def _wide_headers(baseline: str, pairs: Pairs) -> list[str]:
    headers = ["benchmark", "np", "bytes", f"{baseline} [usec]"]
    for label, _ in pairs:
        headers += [f"{label} [usec]", f"{label}/{baseline}", "p", ""]
    return headers


def _wide_cells(baseline_usec: float | None, rows: list[ComparisonRow | None], key: Key) -> list[str]:
    cells = [_benchmark_of(key), str(key.processes), str(key.bytes), _usec(baseline_usec)]
    for row in rows:
        if row is None:
            cells += ["-", "-", "-", ""]
        else:
            cells += [_usec(row.median_b_usec), "-" if row.ratio is None else f"{row.ratio:.3f}",
                      "-" if row.p_value is None else f"{row.p_value:.3f}", _mark(row)]
    return cells


def _wide_geomean(pairs: Pairs) -> list[str]:
    first = pairs[0][1]
    cells = ["geomean", "", "", _usec(first.geomean_a_usec)]
    for _, comparison in pairs:
        ratio = "-" if comparison.geomean_ratio is None else f"{comparison.geomean_ratio:.3f}"
        cells += [_usec(comparison.geomean_b_usec), ratio, "", ""]
    return cells


def many_footnotes(baseline: str, pairs: Pairs, described: dict[str, str]) -> list[str]:
    """What each column is, the test, and per implementation what was not compared and why."""
    alpha = pairs[0][1].alpha
    lines = [f"{label}: {described.get(label, label)}" for label in [baseline, *(label for label, _ in pairs)]]
    lines.append(f"ratios: each implementation's median over {baseline}'s (above 1: slower)")
    lines.append(f"two-sided Mann-Whitney U; ~: no significant difference at alpha = {alpha:g}; "
                 f"{INSUFFICIENT_MARK}: too few samples or launches to test")
    if any(len(c.rows) != len(pairs[0][1].rows) for _, c in pairs):
        lines.append("geomeans: over the rows each implementation has in common with the baseline")
    for label, comparison in pairs:
        if comparison.only_a or comparison.only_b:
            lines.append(f"{label}: not compared: {comparison.only_a} rows only in {baseline}, "
                         f"{comparison.only_b} only in {label}")
        lines += [f"warning ({label}): {w}" for w in comparison.warnings]
    return lines


def many_to_rich(baseline: str, pairs: Pairs, described: dict[str, str]) -> Group:
    names = ", ".join(label for label, _ in pairs)
    table = Table(title=Text(f"{names}  against  {baseline}"), title_justify="left")
    for i, header in enumerate(_wide_headers(baseline, pairs)):
        table.add_column(Text(header), justify="left" if i == 0 else "right")
    for key, baseline_usec, rows in _wide_rows(pairs):
        table.add_row(*(Text(cell) for cell in _wide_cells(baseline_usec, rows, key)))
    if any(c.rows for _, c in pairs):
        table.add_section()
        table.add_row(*(Text(cell) for cell in _wide_geomean(pairs)), style="bold")
    return Group(table, *(Text(line, style="dim") for line in many_footnotes(baseline, pairs, described)))


def many_to_markdown(baseline: str, pairs: Pairs, described: dict[str, str]) -> str:
    headers = [header or "verdict" for header in _wide_headers(baseline, pairs)]
    lines = ["| " + " | ".join(markdown(h) for h in headers) + " |",
             "|---|" + "|".join("---:" for _ in headers[1:]) + "|"]
    lines += ["| " + " | ".join(markdown(c) for c in _wide_cells(b, rows, key)) + " |"
              for key, b, rows in _wide_rows(pairs)]
    if any(c.rows for _, c in pairs):
        lines.append("| " + " | ".join(f"**{markdown(cell)}**" if cell else "" for cell in _wide_geomean(pairs))
                     + " |")
    notes = [f"- {markdown(line, cell=False)}" for line in many_footnotes(baseline, pairs, described)]
    return "\n".join(lines + [""] + notes) + "\n"


def many_to_csv(baseline: str, pairs: Pairs, described: dict[str, str]) -> str:
    """Long format: the pairwise CSVs one below the other, each row saying which pair (a, b) it belongs to."""
    out = io.StringIO()
    writer = csv_writer(out)
    for i, (label, comparison) in enumerate(pairs):
        rows = list(csv.reader(io.StringIO(to_csv(comparison, baseline, label))))
        for j, row in enumerate(rows):
            if j == 0 and i > 0:
                continue  # one header
            writer.writerow(["a", "b", *row] if j == 0 else [baseline, label, *row])
    return out.getvalue()


def many_to_json(baseline: str, pairs: Pairs, described: dict[str, str]) -> str:
    document = {"baseline": baseline,
                "comparisons": [json.loads(to_json(c, described.get(baseline, baseline), described.get(label, label)))
                                | {"implementation": label} for label, c in pairs]}
    return json.dumps(document, indent=2) + "\n"


MANY_EXPORTS = {"markdown": many_to_markdown, "csv": many_to_csv, "json": many_to_json}
