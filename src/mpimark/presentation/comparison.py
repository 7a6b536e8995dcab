"""A Comparison (analysis.compare) as a terminal table, Markdown, CSV or JSON, benchstat-style.

One column list drives every format, as in summary.py, whose Column it
reuses. Renderers return text or rich renderables; the CLI writes them.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator

from rich.console import Group
from rich.table import Table

from mpimark.analysis.geomeans import Geomean
from mpimark.analysis.launches import Comparison, ComparisonRow, NO_DIFFERENCE, UNTESTED
from mpimark.analysis.statistics import CORRECTION_NAMES
from mpimark.presentation import long_table
from mpimark.presentation.cells import csv_writer, markdown, text as cell_text
from mpimark.presentation.summary import Column
from mpimark.records.figures import Key


# The verdicts' colours on a terminal.
VERDICT_STYLES = {"slower": "red", "faster": "green"}


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
    return row.marker  # "?" rows: the note is in the footnotes, CSV and JSON


def _ratio_ci(low: float | None, high: float | None) -> str:
    return "-" if low is None else f"[{low:.3f}, {high:.3f}]"


def _row_ci(row: ComparisonRow) -> str:
    """B/A's 95 % interval over launches, "[1.012, 1.087]"; "-" with fewer than 4 launches a side."""
    return _ratio_ci(row.ratio_low, row.ratio_high)


def _launches(row: ComparisonRow) -> str:
    return f"{row.n_a}/{row.n_b}"


def _p_header(comparison: Comparison) -> str:
    return "p" if comparison.correction == "none" else f"p ({comparison.correction})"


def columns(comparison: Comparison) -> tuple[Column, ...]:
    return (
        Column("benchmark", "benchmark", _benchmark),
        Column("processes", "np", lambda r: r.key.processes),
        Column("bytes", "bytes", lambda r: r.key.bytes),
        Column("launches", "launches A/B", _launches),
        Column("median_a_usec", "median A [usec]", lambda r: r.median_a_usec),
        Column("median_b_usec", "median B [usec]", lambda r: r.median_b_usec),
        Column("ratio_b_a", "B/A", lambda r: r.ratio, 3),
        Column("ratio_ci", "B/A 95% CI", _row_ci),
        Column("p_adjusted", _p_header(comparison), lambda r: r.p_adjusted, 3),
        Column("verdict", "verdict", _verdict),
    )


NUMERIC = {"processes", "bytes", "launches", "median_a_usec", "median_b_usec", "ratio_b_a", "ratio_ci", "p_value",
           "p_adjusted"}


def _p(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value:.3f}" if value >= 0.001 else f"{value:.1e}"


def _cell(column: Column, row: ComparisonRow) -> str:
    value = column.value(row)
    if column.key in ("median_a_usec", "median_b_usec"):
        return _usec(value)
    if column.key in ("p_value", "p_adjusted"):
        return _p(value)
    if value is None:
        return "-"
    return f"{value:.{column.decimals}f}" if column.decimals is not None else str(value)


def _geomean_label(comparison: Comparison) -> str:
    return f"geomean B/A ({comparison.geomean_rows} rows)"


def geomean_text(estimate: Geomean | None) -> str:
    """"1.023 [0.998, 1.049]": a geomean ratio with its interval over launches ("-" without one)."""
    if estimate is None:
        return "-"
    return f"{estimate.ratio:.3f}" + ("" if estimate.low is None else f" {_ratio_ci(estimate.low, estimate.high)}")


def _overall_cells(comparison: Comparison) -> tuple[str, str]:
    """The table's geomean B/A and its interval as cells ("-" without rows)."""
    overall = comparison.overall
    if overall is None:
        return "-", "-"
    return f"{overall.ratio:.3f}", _ratio_ci(overall.low, overall.high)


def _geomean_cells(comparison: Comparison) -> list[str]:
    ratio, ci = _overall_cells(comparison)
    return [_geomean_label(comparison), "", "", "", "", "", ratio, ci, "", ""]


def geomean_lines(comparison: Comparison) -> list[str]:
    """The geomeans of each benchmark (where there are several) with their intervals over launches."""
    if len(comparison.benchmarks) < 2:
        return []
    width = max(len(name) for name in comparison.benchmarks)
    return [f"  {name:<{width}}  {geomean_text(g)}  ({g.rows} rows)" for name, g in comparison.benchmarks.items()]


def method_lines(comparison: Comparison, untested: str = UNTESTED) -> list[str]:
    """What the values, intervals, verdicts and geomeans mean."""
    left_out = len(comparison.rows) - comparison.geomean_rows
    lines = ["each side's value of a row: the median over its launches of each launch's value (the median of "
             "the launch's samples; an imported log's own figure)",
             "B/A 95% CI: over launches (Hodges-Lehmann interval of the log launch values; needs 4 launches a side)",
             f"verdict (information; the geomeans decide): slower/faster: B's launches differ from A's "
             f"significantly (two-sided Mann-Whitney U on launch values, p corrected over the {comparison.tested} "
             f"tested rows by {CORRECTION_NAMES[comparison.correction]}, at alpha = {comparison.alpha:g}); "
             f"{NO_DIFFERENCE}: no significant difference; {untested}: too few launches to test"]
    lines.append(f"geomean: of B/A over the {comparison.geomean_rows} rows with a value on both sides, with its "
                 "95% interval over launches (t interval on each launch's mean log time)"
                 + (f"; {left_out} left out (0-byte collectives, which move nothing)" if left_out else ""))
    return lines


def footnotes(comparison: Comparison, a: str, b: str) -> list[str]:
    """Lines under the table: what A and B are, the method, unmatched rows, warnings."""
    lines = [f"A: {a}", f"B: {b}"]
    if len(comparison.benchmarks) > 1:
        lines += ["geomean B/A per benchmark (95% interval over launches):", *geomean_lines(comparison)]
    lines += method_lines(comparison)
    if comparison.only_a or comparison.only_b:
        lines.append(f"not compared: {comparison.only_a} rows only in A, {comparison.only_b} only in B")
    return lines + [f"warning: {w}" for w in comparison.warnings]


def to_rich(comparison: Comparison, a: str, b: str) -> Group:
    table = Table(title=cell_text(f"{a}  vs  {b}"), title_justify="left")
    cols = columns(comparison)
    for column in cols:
        table.add_column(cell_text(column.header), justify="right" if column.key in NUMERIC else "left",
                         no_wrap=column.key == "ratio_ci")
    for row in comparison.rows:
        style = VERDICT_STYLES.get(row.marker)
        table.add_row(*(cell_text(_cell(c, row)) for c in cols), style=style)
    if comparison.rows:
        table.add_section()
        table.add_row(*(cell_text(cell) for cell in _geomean_cells(comparison)), style="bold")
    return Group(table, *(cell_text(line, style="dim") for line in footnotes(comparison, a, b)))


def rich_parts(comparison: Comparison, a: str, b: str, width: int) -> Iterator:
    """to_rich's text in parts for console.print; a table of more than long_table.LONG_ROWS rows that fits
    width is written by long_table (the same text, without rich's layout of every cell)."""
    rows = comparison.rows
    if len(rows) > long_table.LONG_ROWS:
        cols = columns(comparison)
        table_lines = long_table.lines(f"{a}  vs  {b}", [c.header for c in cols], [c.key in NUMERIC for c in cols],
                                       [[_cell(c, row) for c in cols] for row in rows], width,
                                       footer=[_geomean_cells(comparison)])
        if table_lines is not None:
            styles = [VERDICT_STYLES.get(row.marker) for row in rows] + [None, "bold"]
            yield from long_table.texts(table_lines, styles)
            yield from (cell_text(line, style="dim") for line in footnotes(comparison, a, b))
            return
    yield to_rich(comparison, a, b)


def _markdown_cell(column: Column, row: ComparisonRow) -> str:
    text = markdown(_cell(column, row))
    return f"**{text}**" if column.key == "verdict" and row.significant else text


def to_markdown(comparison: Comparison, a: str, b: str) -> str:
    cols = columns(comparison)
    lines = ["| " + " | ".join(markdown(c.header) for c in cols) + " |",
             "|" + "|".join("---:" if c.key in NUMERIC else "---" for c in cols) + "|"]
    lines += ["| " + " | ".join(_markdown_cell(c, row) for c in cols) + " |" for row in comparison.rows]
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
                     "launches_a", "launches_b", "ratio_b_a", "ratio_low", "ratio_high", "p_value",
                     "p_adjusted", "correction", "significant", "verdict", "in_geomean", "note"])
    for row in comparison.rows:
        values = [*row.key[:4], row.key.bytes, row.median_a_usec, row.median_b_usec, row.n_a, row.n_b, row.ratio,
                  row.ratio_low, row.ratio_high, row.p_value, row.p_adjusted,
                  comparison.correction, row.significant, row.marker, row.carries_data, row.note]
        writer.writerow(["" if v is None else v for v in values])
    # The geomeans: the whole table's, then each benchmark's ("geomean:NAME"), in_geomean holding its rows.
    for name, g in _all_geomeans(comparison):
        writer.writerow([name, "", "", "", "", "", "", g.launches_a, g.launches_b, g.ratio,
                         "" if g.low is None else g.low, "" if g.high is None else g.high, "", "",
                         comparison.correction, "", "", "", g.rows, ""])
    return out.getvalue()


def _all_geomeans(comparison: Comparison) -> list[tuple[str, Geomean]]:
    if comparison.overall is None:
        return []
    return [("geomean", comparison.overall), *((f"geomean:{n}", g) for n, g in comparison.benchmarks.items())]


def geomean_json(g: Geomean | None) -> dict | None:
    if g is None:
        return None
    return {"ratio_b_a": g.ratio, "low": g.low, "high": g.high, "level": g.level, "rows": g.rows,
            "launches_a": g.launches_a, "launches_b": g.launches_b, "launch_spread_log": g.spread}


def to_json(comparison: Comparison, a: str, b: str) -> str:
    document = {
        "a": a, "b": b, "alpha": comparison.alpha, "correction": comparison.correction,
        "rows": [{**row.key._asdict(), "median_a_usec": row.median_a_usec, "median_b_usec": row.median_b_usec,
                  "launches_a": row.n_a, "launches_b": row.n_b, "ratio_b_a": row.ratio,
                  "ratio_interval": None if row.ratio_low is None else {
                      "low": row.ratio_low, "high": row.ratio_high, "level": 0.95},
                  "values_a_usec": list(row.values_a), "values_b_usec": list(row.values_b),
                  "p_value": row.p_value, "p_adjusted": row.p_adjusted, "significant": row.significant,
                  "verdict": row.marker, "in_geomean": row.carries_data, "note": row.note}
                 for row in comparison.rows],
        "launches_a": comparison.launches_a, "launches_b": comparison.launches_b,
        "geomean": geomean_json(comparison.overall),
        "benchmarks": {name: geomean_json(g) for name, g in comparison.benchmarks.items()},
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
INSUFFICIENT_MARK = UNTESTED


def _mark(row: ComparisonRow | None) -> str:
    return "" if row is None else row.marker


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


def _wide_headers(baseline: str, pairs: Pairs, shift: bool = True) -> list[str]:
    headers = ["benchmark", "np", "bytes", f"{baseline} [usec]"]
    for label, comparison in pairs:
        headers += [f"{label} [usec]", f"{label}/{baseline}",
                    *([f"{label}/{baseline} 95% CI"] if shift else []), _p_header(comparison),
                    "verdict"]
    return headers


def _wide_cells(baseline_usec: float | None, rows: list[ComparisonRow | None], key: Key,
                shift: bool = True) -> list[str]:
    cells = [_benchmark_of(key), str(key.processes), str(key.bytes), _usec(baseline_usec)]
    for row in rows:
        if row is None:
            cells += ["-", "-", *(["-"] if shift else []), "-", ""]
        else:
            cells += [_usec(row.median_b_usec), "-" if row.ratio is None else f"{row.ratio:.3f}",
                      *([_row_ci(row)] if shift else []), _p(row.p_adjusted), _mark(row)]
    return cells


def _wide_geomean(pairs: Pairs, shift: bool = True) -> list[str]:
    cells = ["geomean", "", "", ""]
    for _, comparison in pairs:
        ratio, ci = _overall_cells(comparison)
        cells += [f"({comparison.geomean_rows} rows)", ratio, *([ci] if shift else []), "", ""]
    return cells


def many_footnotes(baseline: str, pairs: Pairs, described: dict[str, str], shift: bool = True) -> list[str]:
    """What each column is, the test, and per implementation what was not compared and why."""
    alpha = pairs[0][1].alpha
    lines = [f"{label}: {described.get(label, label)}" for label in [baseline, *(label for label, _ in pairs)]]
    lines.append(f"ratios: each implementation's median of launch values over {baseline}'s (above 1: slower)")
    first = pairs[0][1]
    lines.append(f"verdict (information; the geomeans decide): slower/faster than {baseline}: significant "
                 f"(two-sided Mann-Whitney U on launch values, p corrected per implementation over its tested rows "
                 f"by {CORRECTION_NAMES[first.correction]}, at alpha = {alpha:g}); {NO_DIFFERENCE}: no significant "
                 f"difference; {INSUFFICIENT_MARK}: too few launches to test")
    lines.append("IMPL/BASELINE 95% CI: over launches (Hodges-Lehmann interval of the log launch values)"
                 if shift else "the ratios' intervals over launches: --format markdown, csv or json, "
                 "or one pair (compare STUDY:A STUDY:B)")
    lines.append("geomeans: of the ratios over the rows with a value on both sides, leaving out 0-byte collectives "
                 "(which move nothing), with the 95% interval over launches")
    for label, comparison in pairs:
        if len(comparison.benchmarks) > 1:
            lines += [f"{label}/{baseline} geomean per benchmark:", *geomean_lines(comparison)]
        if comparison.only_a or comparison.only_b:
            lines.append(f"{label}: not compared: {comparison.only_a} rows only in {baseline}, "
                         f"{comparison.only_b} only in {label}")
        lines += [f"warning ({label}): {w}" for w in comparison.warnings]
    return lines


def _many_title(baseline: str, pairs: Pairs) -> str:
    return f"{', '.join(label for label, _ in pairs)}  against  {baseline}"


def many_to_rich(baseline: str, pairs: Pairs, described: dict[str, str]) -> Group:
    table = Table(title=cell_text(_many_title(baseline, pairs)), title_justify="left")
    shift = len(pairs) == 1  # with more, the terminal is too narrow for the intervals
    for i, header in enumerate(_wide_headers(baseline, pairs, shift)):
        table.add_column(cell_text(header), justify="left" if i == 0 else "right")
    for key, baseline_usec, rows in _wide_rows(pairs):
        table.add_row(*(cell_text(cell, style=VERDICT_STYLES.get(cell, ""))
                        for cell in _wide_cells(baseline_usec, rows, key, shift)))
    if any(c.rows for _, c in pairs):
        table.add_section()
        table.add_row(*(cell_text(cell) for cell in _wide_geomean(pairs, shift)), style="bold")
    return Group(table, *(cell_text(line, style="dim") for line in many_footnotes(baseline, pairs, described, shift)))


def many_rich_parts(baseline: str, pairs: Pairs, described: dict[str, str], width: int) -> Iterator:
    """many_to_rich's text in parts for console.print; a table of more than long_table.LONG_ROWS rows that
    fits width is written by long_table (the same text and colours, without rich's layout of every cell)."""
    wide = _wide_rows(pairs)
    if len(wide) > long_table.LONG_ROWS:
        shift = len(pairs) == 1
        headers = _wide_headers(baseline, pairs, shift)
        cells = [_wide_cells(b, rows, key, shift) for key, b, rows in wide]
        footer = [_wide_geomean(pairs, shift)] if any(c.rows for _, c in pairs) else []
        table_lines = long_table.lines(_many_title(baseline, pairs), headers, [i > 0 for i in range(len(headers))],
                                       cells, width, footer=footer)
        if table_lines is not None:
            cell_styles = [{i: VERDICT_STYLES[c] for i, c in enumerate(row) if c in VERDICT_STYLES} for row in cells]
            del cells, wide  # the lines hold the same text
            styles = [None] * len(cell_styles) + ([None, "bold"] if footer else [])
            yield from long_table.texts(table_lines, styles, cell_styles)
            yield from (cell_text(line, style="dim") for line in many_footnotes(baseline, pairs, described, shift))
            return
    yield many_to_rich(baseline, pairs, described)


def many_to_markdown(baseline: str, pairs: Pairs, described: dict[str, str]) -> str:
    headers = _wide_headers(baseline, pairs)
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
