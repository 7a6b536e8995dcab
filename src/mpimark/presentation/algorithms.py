"""An algorithm study shown (terminal, Markdown) and its winners written in each library's own format.

Tuning files (docs/algorithms.md):

- Open MPI: coll_tuned's dynamic rules file (loaded with
  coll_tuned_use_dynamic_rules=1 coll_tuned_dynamic_rules_filename=FILE):
  the number of collectives, then per collective its id, the number of
  communicator sizes, per size the size and the number of message-size rules,
  each `BYTES ALGORITHM FANINOUT SEGSIZE` (algorithm 0: coll_tuned's fixed
  decision, where the default won).
- MPICH: the collective selection JSON (MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE):
  collective=OP > comm_type=intra > comm_size<=N > avg_msg_size<=B >
  algorithm=MPIR_<Op>_intra_<name>.
- Intel MPI: I_MPI_ADJUST_<OP>="ID:LO-HI@P-Q;..." (ID 0: the library's selection).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

from rich.table import Table
from rich.text import Text

from mpimark.analysis.algorithms import Arm, Row, Verdict

# Open MPI's COLLTYPE_T (ompi/mca/coll/base/coll_base_functions.h): a collective's id in the rules file.
OMPI_COLL_IDS = {"Allgather": 0, "Allgatherv": 1, "Allreduce": 2, "Alltoall": 3, "Alltoallv": 4, "Alltoallw": 5,
                 "Barrier": 6, "Bcast": 7, "Exscan": 8, "Gather": 9, "Gatherv": 10, "Reduce": 11,
                 "Reduce_scatter": 12, "Reduce_scatter_block": 13, "Scan": 14, "Scatter": 15, "Scatterv": 16}


def _us(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def _cells(row: Row) -> list[str]:
    best, default = row.best, row.default
    ci = f"[{_us(best.ci_low_usec)}, {_us(best.ci_high_usec)}]"
    dci = f"[{_us(default.ci_low_usec)}, {_us(default.ci_high_usec)}]" if default else "-"
    if row.speedup is None:
        speed = "-"
    else:
        speed = f"{row.speedup:.2f}x" + ("" if row.significant else " ~")
    p = "-" if row.p_value is None else f"{row.p_value:.3g}"
    others = ", ".join(f"{e.arm.name} {_us(e.median_usec)}" for e in row.entries[1:] if e is not default)
    excluded = "; ".join(f"{name}: {why}" for name, why in row.excluded)
    return [row.op, str(row.processes), str(row.bytes), best.arm.name, _us(best.median_usec), ci,
            _us(default.median_usec) if default else "-", dci, speed, p, others, excluded]


HEADERS = ("op", "np", "bytes", "best", "median[usec]", "CI95[usec]", "default[usec]", "default CI95",
           "speedup", "p", "others[usec]", "left out")


TERMINAL = ("op", "np", "bytes", "best", "median [CI95] usec", "default [CI95] usec", "speedup", "p")


def table(verdict: Verdict, title: str) -> Table:
    """The terminal table: what fits in 80 columns; the other arms and what was left out are footnotes."""
    t = Table(title=Text(title), title_justify="left")
    for h in TERMINAL:
        t.add_column(h, justify="left" if h in ("op", "best") else "right", overflow="fold")
    for row in verdict.rows:
        c = _cells(row)
        t.add_row(*(Text(x) for x in (c[0], c[1], c[2], c[3], f"{c[4]} {c[5]}",
                                      f"{c[6]} {c[7]}" if row.default else "-", c[8], c[9])))
    return t


def markdown(verdict: Verdict, title: str) -> str:
    lines = [f"## {title}", "", "| " + " | ".join(HEADERS) + " |", "|" + "---|" * len(HEADERS)]
    lines += ["| " + " | ".join(c.replace("|", "\\|") for c in _cells(row)) + " |" for row in verdict.rows]
    lines += ["", "speedup: the default's median / the best's; `~`: not significant (two-sided Mann-Whitney, "
              "alpha 0.05, or too few samples to test)."]
    lines += [f"- run {run} ({label}) left out: {why}" for run, label, why in verdict.excluded_runs]
    lines += [f"- run {run} ({label}) did not complete: {why}" for run, label, why in verdict.unfinished]
    return "\n".join(lines) + "\n"


def footnotes(verdict: Verdict) -> list[str]:
    lines = ["speedup: the default's median / the best's; '~': not significant at 0.05 (Mann-Whitney) or "
             "too few samples to test"]
    lines += [f"{row.op} np {row.processes} {row.bytes} bytes: left out {name}: {why}"
              for row in verdict.rows for name, why in row.excluded]
    lines += [f"run {run} ({label}) left out: {why}" for run, label, why in verdict.excluded_runs]
    lines += [f"run {run} ({label}) did not complete (its finished rows are ranked): {why}"
              for run, label, why in verdict.unfinished]
    return lines


# -- tuning files ------------------------------------------------------------------------------------

Choice = tuple[int, Arm, Arm | None]  # (from bytes, the best arm, the best forced arm)


def choices(verdict: Verdict) -> dict[str, dict[int, list[Choice]]]:
    """op -> processes -> [(bytes, best, best forced)] in size order."""
    found: dict[str, dict[int, list[Choice]]] = {}
    for row in verdict.rows:
        forced = next((e.arm for e in row.entries if e.arm.id is not None), None)
        found.setdefault(row.op, {}).setdefault(row.processes, []).append((row.bytes, row.best.arm, forced))
    return found


def _runs(items: Sequence[tuple[int, object]]) -> list[tuple[int, int | None, object]]:
    """Consecutive sizes with the same choice merged: (from, to or None for 'and above', choice)."""
    merged: list[list] = []
    for size, choice in items:
        if merged and merged[-1][2] == choice:
            continue
        if merged:
            merged[-1][1] = size - 1
        merged.append([size, None, choice])
    return [tuple(m) for m in merged]


def openmpi_rules(found: Mapping[str, Mapping[int, Sequence[Choice]]]) -> str:
    ops = [op for op in found if op in OMPI_COLL_IDS]
    out = [f"{len(ops)}   # collectives (mpimark algorithms tune)"]
    for op in ops:
        out.append(f"{OMPI_COLL_IDS[op]}   # {op}")
        out.append(f"{len(found[op])}   # communicator sizes")
        for processes in sorted(found[op]):
            rules = _runs([(b, best.id or 0) for b, best, _ in found[op][processes]])
            out.append(f"{processes}   # communicator size")
            out.append(f"{len(rules)}   # message sizes")
            out += [f"{lo} {alg} 0 0" for lo, _, alg in rules]
    return "\n".join(out) + "\n"


def parse_openmpi_rules(text: str) -> dict[int, dict[int, list[tuple[int, int, int, int]]]]:
    """The rules file read back: collective id -> communicator size -> [(bytes, alg, faninout, segsize)]."""
    words = [int(w) for line in text.splitlines() for w in line.split("#", 1)[0].split()]
    pos = 0

    def take() -> int:
        nonlocal pos
        if pos >= len(words):
            raise ValueError("the rules file ends early")
        pos += 1
        return words[pos - 1]

    rules: dict[int, dict[int, list[tuple[int, int, int, int]]]] = {}
    for _ in range(take()):
        coll = take()
        sizes = rules.setdefault(coll, {})
        for _ in range(take()):
            comm = take()
            sizes[comm] = [(take(), take(), take(), take()) for _ in range(take())]
    if pos != len(words):
        raise ValueError(f"{len(words) - pos} words after the last rule")
    return rules


def mpich_name(op: str, arm: Arm) -> str:
    return f"MPIR_{op}_allcomm_nb" if arm.name == "nb" else f"MPIR_{op}_intra_{arm.name}"


def mpich_json(found: Mapping[str, Mapping[int, Sequence[Choice]]], builtin: Mapping | None = None) -> str:
    """The selection JSON: builtin (the library's own tree, which the file replaces as a whole) with the
    studied collectives' intra-communicator subtrees replaced by the winners."""
    doc: dict = json.loads(json.dumps(builtin)) if builtin else {}
    for op, by_np in found.items():
        comm: dict = {}
        counts = sorted(by_np)
        for i, processes in enumerate(counts):
            sizes: dict = {}
            rules = _runs([(b, forced) for b, _, forced in by_np[processes] if forced is not None])
            for j, (lo, hi, arm) in enumerate(rules):
                key = "avg_msg_size=any" if hi is None else f"avg_msg_size<={hi}"
                sizes[key] = {f"algorithm={mpich_name(op, arm)}": {}}
            comm["comm_size=any" if i == len(counts) - 1 else f"comm_size<={processes}"] = sizes
        entry = doc.get(f"collective={op.lower()}")
        if isinstance(entry, dict) and any(k.startswith("comm_type=") for k in entry):
            entry["comm_type=intra"] = comm
        else:
            doc[f"collective={op.lower()}"] = {"comm_type=intra": comm}
    return json.dumps(doc, indent=2) + "\n"


def impi_settings(found: Mapping[str, Mapping[int, Sequence[Choice]]]) -> dict[str, str]:
    """I_MPI_ADJUST_<OP> -> its value: ID:LO-HI@P-Q per range (the last size range open to 2^31-1)."""
    settings = {}
    for op, by_np in found.items():
        parts = []
        counts = sorted(by_np)
        for i, processes in enumerate(counts):
            p_hi = 1 << 20 if i == len(counts) - 1 else processes
            p_lo = counts[i - 1] + 1 if i else 1
            for lo, hi, alg in _runs([(b, best.id or 0) for b, best, _ in by_np[processes]]):
                parts.append(f"{alg}:{lo}-{hi if hi is not None else 2147483647}@{p_lo}-{p_hi}")
        settings[f"I_MPI_ADJUST_{op.upper()}"] = ";".join(parts)
    return settings


# -- plots -------------------------------------------------------------------------------------------


def plots(verdict: Verdict, study: str) -> list:
    """One plot per (operation, processes): a line per arm (median over size, log axes, 95 % CI band),
    drawn as `mpimark plot` draws its lines (presentation/plots.py). 0 bytes is left out (log axis)."""
    from mpimark.presentation import plots as base  # matplotlib only when plotting

    cells: dict[tuple[str, int], dict[str, list[tuple[int, float, tuple | None]]]] = {}
    for row in verdict.rows:
        if row.bytes <= 0:
            continue
        for e in row.entries:
            band = (e.ci_low_usec, e.ci_high_usec) if e.ci_low_usec is not None else None
            cells.setdefault((row.op, row.processes), {}).setdefault(e.arm.name, []).append(
                (row.bytes, e.median_usec, band))
    found = []
    for (op, processes), arms in cells.items():
        figure, axes = base._figure(f"{op}, {processes} processes: algorithms ({study})", "bytes", "median time [usec]")
        axes.set_xscale("log", base=2)
        axes.set_yscale("log")
        for name, points in sorted(arms.items(), key=lambda item: item[0] != "default"):
            base._draw(axes, name, points)
        figure = base._finish(figure, axes, len(arms))
        if figure is not None:
            name = f"{base.safe_name(study)}-{base.safe_name(op)}-np{processes}"
            found.append(base.Plot(name, f"{op}, {processes} processes", figure))
    return found
