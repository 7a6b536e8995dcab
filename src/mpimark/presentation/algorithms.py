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

from mpimark.analysis.algorithms import TUNED, Arm, Gain, Row, Verdict, library_bytes, size_measure
from mpimark.analysis.geomeans import Geomean, MAX_LAUNCHES_NEEDED
from mpimark.analysis.launches import ADVISED_LAUNCHES
from mpimark.presentation.cells import markdown as text_in_markdown, text as cell_text

# Open MPI's COLLTYPE_T (ompi/mca/coll/base/coll_base_functions.h): a collective's id in the rules file.
OMPI_COLL_IDS = {"Allgather": 0, "Allgatherv": 1, "Allreduce": 2, "Alltoall": 3, "Alltoallv": 4, "Alltoallw": 5,
                 "Barrier": 6, "Bcast": 7, "Exscan": 8, "Gather": 9, "Gatherv": 10, "Reduce": 11,
                 "Reduce_scatter": 12, "Reduce_scatter_block": 13, "Scan": 14, "Scatter": 15, "Scatterv": 16}


def _us(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def ratio_text(estimate: Geomean | None) -> str:
    """"0.80x [0.75, 0.85]": a time ratio over launches with its 95 % interval ("-": none)."""
    if estimate is None:
        return "-"
    return f"{estimate.ratio:.2f}x" + ("" if estimate.low is None else f" [{estimate.low:.2f}, {estimate.high:.2f}]")


def decision(row: Row) -> str:
    """Whether the launches decide the row's winner against its rival, and if not what would."""
    if row.rival is None:
        return "only arm"
    against = f"against {row.rival.arm.name}"
    if row.decided:
        return f"decided {against}"
    if row.estimate is None or row.estimate.low is None:
        return f"undecided {against}: one launch a side, launches decide"
    if row.launches_needed is not None and row.launches_needed > MAX_LAUNCHES_NEEDED:
        return f"undecided {against}: too close for any sane number of launches"
    return f"undecided {against}: {row.launches_needed} launches a side would tell"


def written(row: Row, chosen: Row) -> str:
    """What `tune` wrote for a row (chosen: the row as algorithms.chosen gave it)."""
    if chosen.best is not row.best:
        return f"{chosen.best.arm.name} (kept: undecided)"
    if chosen.best.arm.id is not None and not row.decided:
        return f"{chosen.best.arm.name} UNDECIDED"
    return chosen.best.arm.name


def _cells(row: Row) -> list[str]:
    best, default = row.best, row.default
    ci = f"[{_us(best.ci_low_usec)}, {_us(best.ci_high_usec)}]"
    dci = f"[{_us(default.ci_low_usec)}, {_us(default.ci_high_usec)}]" if default else "-"
    speed = "-" if row.speedup is None else f"{row.speedup:.2f}x"
    others = ", ".join(f"{e.arm.name} {_us(e.median_usec)}" for e in row.entries[1:] if e is not default)
    excluded = "; ".join(f"{name}: {why}" for name, why in row.excluded)
    return [row.op, str(row.processes), str(row.bytes), best.arm.name, _us(best.median_usec), ci,
            _us(default.median_usec) if default else "-", dci, speed, ratio_text(row.estimate), decision(row),
            str(len(best.launches_usec)), others, excluded]


HEADERS = ("op", "np", "bytes", "best", "median[usec]", "CI95[usec]", "default[usec]", "default CI95",
           "speedup", "best/rival [95 %]", "winner", "launches", "others[usec]", "left out")


TERMINAL = ("op", "np", "bytes", "best", "median usec", "default usec", "speedup", "best/rival [95 %]", "winner")


def table(verdict: Verdict, title: str, chosen: Verdict | None = None) -> Table:
    """The terminal table: what fits in 80 columns; the other arms and what was left out are footnotes.
    chosen (tune): the rows as written, in a column of their own."""
    t = Table(title=cell_text(title), title_justify="left")
    for h in (*TERMINAL, *(["written"] if chosen else [])):
        t.add_column(h, justify="left" if h in ("op", "best", "winner", "written") else "right", overflow="fold")
    for i, row in enumerate(verdict.rows):
        c = _cells(row)
        t.add_row(*(cell_text(x) for x in (*c[0:5], c[6], c[8], c[9], c[10],
                                      *([written(row, chosen.rows[i])] if chosen else []))))
    return t


RATIO_NOTE = ("best/rival: the best's time over the default's (the runner-up's where the default is best), the "
              "geometric mean over launches with its 95 % interval over launches (each launch valued by the median "
              "of its samples, which describe that launch only); the winner is decided where the interval lies "
              "below 1; speedup: the default's geometric mean over launches / the best's (the arms are ranked by "
              "it); median: of the launch values")


NOT_APPLICABLE = "not applicable to this call"


def not_applicable_notes(refused: Sequence[Mapping]) -> list[str]:
    """One line per algorithm the library refused for the benchmark's call (the study's plan's
    not_applicable: label, processes, why), its process counts together."""
    counts: dict[tuple[str, str], list[int]] = {}
    for item in refused:
        counts.setdefault((item["label"], item["why"]), []).append(item["processes"])
    return [f"{label}: {NOT_APPLICABLE} at np {', '.join(map(str, sorted(ns)))} (not launched): {why}"
            for (label, why), ns in counts.items()]


def markdown(verdict: Verdict, title: str, refused: Sequence[Mapping] = ()) -> str:
    # Study, arm and run labels and the reasons come from the user and the library: cells.markdown keeps them text.
    lines = [f"## {text_in_markdown(title, cell=False)}", "", "| " + " | ".join(HEADERS) + " |",
             "|" + "---|" * len(HEADERS)]
    lines += ["| " + " | ".join(text_in_markdown(c) for c in _cells(row)) + " |" for row in verdict.rows]
    lines += ["", RATIO_NOTE + ".", *_one_launch(verdict)]
    lines += [f"- {text_in_markdown(f'run {run} ({label}) left out: {why}', cell=False)}"
              for run, label, why in verdict.excluded_runs]
    lines += [f"- {text_in_markdown(f'run {run} ({label}) did not complete: {why}', cell=False)}"
              for run, label, why in verdict.unfinished]
    lines += [f"- {text_in_markdown(line, cell=False)}" for line in not_applicable_notes(refused)]
    return "\n".join(lines) + "\n"


def _one_launch(verdict: Verdict) -> list[str]:
    """Why rows of a study with one launch of each arm decide nothing: say it once, with the way out."""
    if not any(r.rival is not None and (r.estimate is None or r.estimate.low is None) for r in verdict.rows):
        return []
    return [f"rows with one launch of each arm have no interval: the samples of one launch say nothing about the "
            f"next, so launches decide (study again with --launches {ADVISED_LAUNCHES} or more)"]


def undecided_notes(verdict: Verdict, chosen: Verdict) -> list[str]:
    """One line per forced algorithm written without a decided win (tune --include-undecided)."""
    return [f"{row.op} np {row.processes} {row.bytes} bytes: {row.best.arm.name} UNDECIDED ({decision(row)}, "
            f"{ratio_text(row.estimate)})" for row, kept in zip(verdict.rows, chosen.rows)
            if kept.best is row.best and row.best.arm.id is not None and not row.decided]


def footnotes(verdict: Verdict) -> list[str]:
    lines = [RATIO_NOTE, *_one_launch(verdict)]
    lines += [f"{row.op} np {row.processes} {row.bytes} bytes: left out {name}: {why}"
              for row in verdict.rows for name, why in row.excluded]
    lines += [f"run {run} ({label}) left out: {why}" for run, label, why in verdict.excluded_runs]
    lines += [f"run {run} ({label}) did not complete (its finished rows are ranked): {why}"
              for run, label, why in verdict.unfinished]
    return lines


# -- tune --verify ----------------------------------------------------------------------------------

GAIN_HEADERS = ("op", "np", "bytes", "default usec", "tuned usec", "gain", "tuned/default [95 %]", "verdict")
GAIN_VERDICTS = {"faster": "tuned faster", "slower": "TUNED SLOWER", "undecided": "~ (undecided)",
                 "untested": "? (one launch a side: launches decide)"}


def _gain_cells(g: Gain) -> list[str]:
    return [g.op, str(g.processes), str(g.bytes), _us(g.default.median_usec), _us(g.tuned.median_usec),
            f"{g.gain:.2f}x", ratio_text(g.estimate), GAIN_VERDICTS[g.verdict]]


GAIN_NOTE = ("gain: the default's median / the tuned file's (> 1: the file is faster); tuned/default: the geometric "
             "mean over launches with its 95 % interval over launches; tuned faster where the interval lies below "
             "1, TUNED SLOWER where it lies above 1, ~ where it holds 1; one launch a side gives no interval "
             f"(--launches {ADVISED_LAUNCHES} or more)")


def gains_table(gains: Sequence[Gain], title: str) -> Table:
    t = Table(title=cell_text(title), title_justify="left")
    for h in GAIN_HEADERS:
        t.add_column(h, justify="left" if h in ("op", "verdict") else "right", overflow="fold")
    for g in gains:
        t.add_row(*(cell_text(c) for c in _gain_cells(g)))
    return t


def gains_markdown(gains: Sequence[Gain], title: str) -> str:
    lines = [f"## {text_in_markdown(title, cell=False)}", "", "| " + " | ".join(GAIN_HEADERS) + " |",
             "|" + "---|" * len(GAIN_HEADERS)]
    lines += ["| " + " | ".join(text_in_markdown(c) for c in _gain_cells(g)) + " |" for g in gains]
    return "\n".join([*lines, "", GAIN_NOTE]) + "\n"


# -- tuning files ------------------------------------------------------------------------------------

UNDECIDED_HEAD = ("UNDECIDED: written by mpimark algorithms tune --include-undecided; the launches do not show these "
                  "algorithms faster than the library's default:")


def undecided_header(notes: Sequence[str]) -> str:
    """'#' lines naming the choices written without a decided win, for the files that take comments (Open MPI's
    rules file skips from '#' to the end of the line, Intel MPI's is a shell file); "" without any."""
    return "".join(f"# {line}\n" for line in [UNDECIDED_HEAD, *notes]) if notes else ""


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
