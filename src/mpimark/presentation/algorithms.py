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

from mpimark.analysis.algorithms import TUNED, Arm, Gain, Row, Verdict, library_bytes, size_measure
from mpimark.analysis.statistics import min_launches

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
              "alpha 0.05, or too few samples to test).", *_too_few_launches(verdict)]
    lines += [f"- run {run} ({label}) left out: {why}" for run, label, why in verdict.excluded_runs]
    lines += [f"- run {run} ({label}) did not complete: {why}" for run, label, why in verdict.unfinished]
    return "\n".join(lines) + "\n"


def _too_few_launches(verdict: Verdict) -> list[str]:
    """Why rows of a study with 2 or 3 launches of each arm carry no p: say it once, with the way out."""
    need = min_launches()
    few = sorted({min(len(r.best.samples_usec), len(r.default.samples_usec)) for r in verdict.rows
                  if r.default is not None and r.best is not r.default and r.p_value is None})
    few = [k for k in few if 1 < k < need]
    if not few:
        return []
    return [f"untested rows have {few[0]} launch medians per algorithm; a two-sided rank test needs {need} "
            f"to reach p <= 0.05 (study again with --launches {need} or more)"]


def footnotes(verdict: Verdict) -> list[str]:
    lines = ["speedup: the default's median / the best's; '~': not significant at 0.05 (Mann-Whitney) or "
             "too few samples to test", *_too_few_launches(verdict)]
    lines += [f"{row.op} np {row.processes} {row.bytes} bytes: left out {name}: {why}"
              for row in verdict.rows for name, why in row.excluded]
    lines += [f"run {run} ({label}) left out: {why}" for run, label, why in verdict.excluded_runs]
    lines += [f"run {run} ({label}) did not complete (its finished rows are ranked): {why}"
              for run, label, why in verdict.unfinished]
    return lines


# -- tune --verify ----------------------------------------------------------------------------------

GAIN_HEADERS = ("op", "np", "bytes", "default [CI95] usec", "tuned [CI95] usec", "gain", "p", "verdict")


def _gain_cells(g: Gain) -> list[str]:
    def arm(e):
        return f"{_us(e.median_usec)} [{_us(e.ci_low_usec)}, {_us(e.ci_high_usec)}]"
    verdict = {"faster": "tuned faster", "slower": "TUNED SLOWER", "same": "~ (within the noise)",
               "untested": "~ (too few samples to test)"}[g.verdict]
    return [g.op, str(g.processes), str(g.bytes), arm(g.default), arm(g.tuned), f"{g.gain:.2f}x",
            "-" if g.p_value is None else f"{g.p_value:.3g}", verdict]


GAIN_NOTE = ("gain: the default's median / the tuned file's (> 1: the file is faster); verdict by a two-sided "
             "Mann-Whitney test at 0.05 (one median per launch with several launches, where --launches "
             f"{min_launches()} or more is needed for a test; with one launch the samples of the launch, which "
             "ignores launch-to-launch variation); TUNED SLOWER: the file is slower beyond the noise")


def gains_table(gains: Sequence[Gain], title: str) -> Table:
    t = Table(title=Text(title), title_justify="left")
    for h in GAIN_HEADERS:
        t.add_column(h, justify="left" if h in ("op", "verdict") else "right", overflow="fold")
    for g in gains:
        t.add_row(*(Text(c) for c in _gain_cells(g)))
    return t


def gains_markdown(gains: Sequence[Gain], title: str) -> str:
    lines = [f"## {title}", "", "| " + " | ".join(GAIN_HEADERS) + " |", "|" + "---|" * len(GAIN_HEADERS)]
    lines += ["| " + " | ".join(_gain_cells(g)) + " |" for g in gains]
    return "\n".join([*lines, "", GAIN_NOTE]) + "\n"


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
    """The rules file. Each rule's size is IMB's converted to what coll_tuned compares for the collective
    (analysis/algorithms.library_bytes: x processes for Alltoall, Allgather, Gather, Scatter); a
    collective whose rule ignores the size (Barrier, Alltoallv, Scan, Exscan) gets one rule, the winner
    at the smallest size studied."""
    ops = [op for op in found if op in OMPI_COLL_IDS]
    out = [f"{len(ops)}   # collectives (mpimark algorithms tune)"]
    for op in ops:
        measure = size_measure("openmpi", op)
        out.append(f"{OMPI_COLL_IDS[op]}   # {op}" + ("" if measure is None or measure[1] == 1 else
                                                     "; sizes are IMB's x the communicator size"))
        out.append(f"{len(found[op])}   # communicator sizes")
        for processes in sorted(found[op]):
            items = [(b, best.id or 0) for b, best, _ in found[op][processes]]
            rules = _runs(items[:1] if measure is None else items)
            out.append(f"{processes}   # communicator size")
            out.append(f"{len(rules)}   # message sizes")
            out += [f"{library_bytes('openmpi', op, lo, processes) or 0} {alg} 0 0" for lo, _, alg in rules]
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
    studied collectives' intra-communicator subtrees replaced by the winners.

    Sizes are compared as MPICH does for the collective (avg_msg_size, or total_msg_size = IMB's x
    processes where avg_msg_size is not defined: analysis/algorithms.size_measure). Where the
    library's default won, the range holds the library's own intra subtree for the collective (its
    auto selection, from builtin); without builtin, the fastest forced algorithm.
    """
    doc: dict = json.loads(json.dumps(builtin)) if builtin else {}
    for op, by_np in found.items():
        entry = doc.get(f"collective={op.lower()}")
        own = entry.get("comm_type=intra") if isinstance(entry, dict) else None
        measure = size_measure("mpich", op)
        comm: dict = {}
        if isinstance(own, dict) and "is_sendbuf_inplace=yes" in own:
            # MPICH's own tree serves MPI_IN_PLACE calls first (Alltoall: only pairwise_sendrecv_replace
            # can); the studied algorithms were measured without it, so that branch is kept.
            comm["is_sendbuf_inplace=yes"] = json.loads(json.dumps(own["is_sendbuf_inplace=yes"]))
        counts = sorted(by_np)
        for i, processes in enumerate(counts):
            sizes: dict = {}
            items = [(b, best if best.id is not None and best.name != TUNED else ("auto" if own else forced))
                     for b, best, forced in by_np[processes]]
            items = [(b, c) for b, c in items if c is not None]
            rules = _runs(items[:1] if measure is None else items)
            for lo, hi, arm in rules:
                if measure is None or hi is None:
                    key = "any" if measure is None else f"{measure[0]}=any"
                else:
                    key = f"{measure[0]}<={library_bytes('mpich', op, hi + 1, processes) - 1}"
                sizes[key] = (json.loads(json.dumps(own)) if arm == "auto"
                              else {f"algorithm={mpich_name(op, arm)}": {}})
            if measure is None:
                sizes = next(iter(sizes.values()))
            comm["comm_size=any" if i == len(counts) - 1 else f"comm_size<={processes}"] = sizes
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
        figure, axes = base.new_figure(f"{op}, {processes} processes: algorithms ({study})", "bytes",
                                       "median time [usec]")
        axes.set_xscale("log", base=2)
        axes.set_yscale("log")
        for name, points in sorted(arms.items(), key=lambda item: item[0] != "default"):
            base.draw_series(axes, name, points)
        figure = base.finish_figure(figure, axes, len(arms))
        if figure is not None:
            name = f"{base.safe_name(study)}-{base.safe_name(op)}-np{processes}"
            found.append(base.Plot(name, f"{op}, {processes} processes", figure))
    return found
