"""The regression gate's decision (analysis/gate.py) as lines for a terminal or a Markdown summary
($GITHUB_STEP_SUMMARY)."""

from __future__ import annotations

from mpimark.analysis.gate import Decision, needed_text, NOT_SLOWER, Scope, SLOWER
from mpimark.analysis.launches import Comparison
from mpimark.presentation.cells import markdown
from mpimark.presentation.comparison import geomean_text

Gated = list[tuple[str, str, Comparison]]  # (A's label, B's label, the comparison of B with A)


def _scope_name(scope: Scope) -> str:
    return f"{scope.name}: {scope.estimate.scope}" if scope.name else scope.estimate.scope


def _headline(decision: Decision) -> str:
    limit = f"x{1 + decision.threshold:.3g}"
    if decision.outcome == SLOWER:
        what = f"SLOWER (exit 3): B is slower than A by more than {decision.threshold * 100:g}%"
    elif decision.outcome == NOT_SLOWER:
        what = f"NOT SLOWER (exit 0): every interval lies below {limit}"
    else:
        what = f"UNDECIDED (exit 4): the launches cannot tell whether B is slower than {limit}"
    return f"regression gate: {what}"


def _method(decision: Decision) -> str:
    n = len(decision.scopes)
    return (f"geomean B/A with {decision.level * 100:.3g}% intervals over launches, simultaneous over the {n} "
            f"geomean{'s' if n != 1 else ''} checked (together {100 * (1 - decision.alpha):.4g}%)")


def gate_lines(decision: Decision, gated: Gated) -> list[str]:
    """The decision, each geomean it looked at, what would decide, and the row verdicts (information)."""
    lines = [_headline(decision), f"  {_method(decision)}"]
    for scope in decision.scopes:
        mark = " <- slower" if scope in decision.slower else " <- open" if scope in decision.open else ""
        e = scope.estimate
        lines.append(f"  {_scope_name(scope)}: {geomean_text(e)}  ({e.rows} rows, launches "
                     f"{e.launches_a}/{e.launches_b}){mark}")
    if not decision.scopes:
        lines.append("  no row with a value on both sides")
    if decision.outcome not in (SLOWER, NOT_SLOWER):
        lines.append(f"  {needed_text(decision)}")
    rows = [(a, b, row) for a, b, comparison in gated for row in comparison.slower_than(decision.threshold)]
    if rows:
        lines.append(f"  information: {len(rows)} row{'s' if len(rows) != 1 else ''} whose launches are "
                     f"significantly slower by more than {decision.threshold * 100:g}%:")
        for a, b, row in sorted(rows, key=lambda f: -(f[2].ratio or 0))[:20]:
            lines.append(f"    {b} against {a}: {row.key.benchmark} np={row.key.processes} {row.key.bytes} B "
                         f"x{row.ratio:.3f}, p ({gated[0][2].correction}) {row.p_adjusted:.2g}")
    return lines


def gate_markdown(decision: Decision, gated: Gated) -> str:
    lines = gate_lines(decision, gated)
    icon = {SLOWER: "❌", NOT_SLOWER: "✅"}.get(decision.outcome, "❔")
    out = [f"### {icon} {markdown(lines[0].removeprefix('regression gate: '), cell=False)}", "",
           markdown(_method(decision), cell=False), "",
           "| comparison | geomean | B/A | interval | rows | launches A/B |", "|---|---|---:|---:|---:|---:|"]
    for scope in decision.scopes:
        e = scope.estimate
        interval = "-" if e.low is None else f"[{e.low:.3f}, {e.high:.3f}]"
        out.append(f"| {markdown(scope.name or 'B against A')} | {markdown(e.scope)} | {e.ratio:.3f} | {interval} | "
                   f"{e.rows} | {e.launches_a}/{e.launches_b} |")
    if decision.outcome not in (SLOWER, NOT_SLOWER):
        out += ["", markdown(needed_text(decision), cell=False)]
    return "\n".join(out) + "\n"
