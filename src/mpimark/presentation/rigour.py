"""What the measurement-rigour features recorded, as lines for `mpimark show` and the report.

The core's self-checks (the run record's `selfcheck`, their warning events) and,
per result row, what `-sync window` dropped and where `-ci_target` stopped
(docs/measurement.md). Renderers return text; the commands decide where it goes.
"""

from __future__ import annotations

# The self-checks' warning events (core/src/engine/selfcheck.c, the engine's timer_resolution).
SELFCHECK_KINDS = ("timer", "loaded", "oversubscribed", "noise", "timer_resolution")


def selfcheck_summary(run: dict | None, *, reasons: bool = True) -> str:
    """One line: the timer, the clocks' agreement, the noise probe's worst rank, load and oversubscription;
    and the checks the core skipped (under a simulator), with their reasons unless reasons is False (show
    gives each its own line: skipped_lines)."""
    check = (run or {}).get("selfcheck")
    if run is None or "selfcheck" not in run:
        return ""
    if check is None:
        return "off (-selfcheck off)"
    skipped = skipped_checks(check)
    if not reasons:
        skipped = [(name, "") for name, _ in skipped]
    if _all_there(check, ranks := check.get("ranks") or []):
        return "; ".join([*_measured(check, ranks), *_skipped_part(skipped)])
    # A core under a simulator (SimGrid SMPI) skips the checks that mean nothing there: their figures absent.
    parts = []
    if isinstance(check.get("timer_resolution_ns"), (int, float)):
        parts.append(f"timer resolution {check['timer_resolution_ns']:.0f} ns")
    disagreement = check.get("clock_disagreement_ns")
    if isinstance(disagreement, (int, float)):
        parts.append(f"clocks disagree by {disagreement:.0f} ns" if disagreement > 0 else "clocks agree")
    return "; ".join([*parts, *_skipped_part(skipped)]) or "no figures recorded"


# What _measured reads of a check and of each rank's: a record that lacks one is summarized by what it has.
_CHECK_FIGURES = ("timer_resolution_ns", "mpi_wtick_s", "noisy", "loaded", "oversubscribed")
_RANK_FIGURES = ("timer_overhead_ns", "timer_monotonic", "noise_lost_share", "noise_max_interruption_ns",
                 "noise_interruptions", "noise_runs", "ranks_on_host", "cores", "rank")


def _all_there(check: dict, ranks: list) -> bool:
    return (all(check.get(name) is not None for name in _CHECK_FIGURES)
            and all(isinstance(r, dict) and all(r.get(name) is not None for name in _RANK_FIGURES) for r in ranks))


def skipped_checks(check: dict | None) -> list[tuple[str, str]]:
    """(check, reason) of the self-checks the core skipped (under a simulator: timer, noise, load mean
    nothing in simulated time), from the selfcheck object's "skipped": a list of {"check", "reason"} or an
    object of check -> reason."""
    skipped = (check or {}).get("skipped") if isinstance(check, dict) else None
    if isinstance(skipped, dict):
        return [(str(name), str(reason)) for name, reason in skipped.items()]
    if isinstance(skipped, list):
        return [(str(item.get("check", "?")), str(item.get("reason", "")))
                for item in skipped if isinstance(item, dict)]
    return []


def _skipped_part(skipped: list[tuple[str, str]]) -> list[str]:
    if not skipped:
        return []
    if not any(reason for _, reason in skipped):
        return ["skipped: " + ", ".join(name for name, _ in skipped)]
    return ["skipped: " + "; ".join(f"{name} ({reason})" if reason else name for name, reason in skipped)]


def skipped_lines(run: dict | None) -> list[str]:
    """A line per self-check the core skipped, with its reason: "self-check skipped: noise: simulated time: ..."."""
    check = (run or {}).get("selfcheck")
    return [f"self-check skipped: {name}: {reason}" if reason else f"self-check skipped: {name}"
            for name, reason in skipped_checks(check if isinstance(check, dict) else None)]


def _measured(check: dict, ranks: list[dict]) -> list[str]:
    """The summary of a check that has every figure: what the core writes on a real machine."""
    parts = [f"timer resolution {check['timer_resolution_ns']:.0f} ns (MPI_Wtick {check['mpi_wtick_s']:.3g} s)"]
    if ranks:
        parts.append(f"read {max(r['timer_overhead_ns'] for r in ranks):.0f} ns")
        parts.append("monotonic" if all(r["timer_monotonic"] for r in ranks) else "NOT monotonic")
    disagreement = check.get("clock_disagreement_ns")
    parts.append("clocks not compared" if disagreement is None else
                 f"clocks disagree by {disagreement:.0f} ns" if disagreement > 0 else "clocks agree")
    if ranks:
        worst = max(ranks, key=lambda r: r["noise_lost_share"])
        longest = max(r["noise_max_interruption_ns"] for r in ranks)
        parts.append(f"noise {100 * worst['noise_lost_share']:.2f} % lost on rank {worst['rank']} "
                     f"({worst['noise_interruptions']} interruptions of {worst['noise_runs']} quanta), "
                     f"longest {longest / 1000:.1f} us" + (" (high)" if check["noisy"] else ""))
        if check.get("machines"):
            parts.append(competition(check))
        else:  # an older core, which decided "loaded" from the 1-minute load average
            load = max((r["load_average_1min"] for r in ranks if r["load_average_1min"] is not None), default=None)
            if load is not None:
                parts.append(f"load {load:.2f}" + (" (loaded)" if check["loaded"] else ""))
        most = max(ranks, key=lambda r: r["ranks_on_host"] / r["cores"])
        parts.append(f"{most['ranks_on_host']} ranks on {most['cores']} cores"
                     + (" (oversubscribed)" if check["oversubscribed"] else ""))
    return parts


def competition(check: dict) -> str:
    """What the noise probe measured on the machine that competed most for its cores (a loaded one first)."""
    worst = max(check["machines"], key=lambda m: (m["loaded"], m["beyond_ranks_mean"] or 0))
    beyond = worst["beyond_ranks_mean"]
    text = ("runnable tasks unread" if beyond is None else
            f"{beyond:.1f} runnable tasks beyond the {worst['ranks']} ranks on rank {worst['rank']}'s machine")
    if worst["steal_share"] is not None:
        text += f", steal {100 * worst['steal_share']:.0f} %"
    return text + (" (loaded)" if check["loaded"] else "")


def warnings(records: list[dict]) -> list[str]:
    """The self-checks' warnings, in stream order."""
    return [r["message"] for r in records
            if r["type"] == "event" and r.get("level") == "warning" and r.get("kind") in SELFCHECK_KINDS]


def window_cell(result: dict) -> str | None:
    """'9/200 invalid' for a -sync window row, else None."""
    window = result.get("window")
    if not window:
        return None
    return f"{window['invalid_samples']}/{window['samples_attempted']} invalid"


def ci_cell(result: dict) -> str | None:
    """'±0.8 % of 1 %, target' for a -ci_target row (width reached, target, why it stopped), else None."""
    ci = result.get("ci_target")
    if not ci:
        return None
    width = "no CI" if ci["half_width"] is None else f"±{100 * ci['half_width']:.2f} %"
    return f"{width} of {100 * ci['target']:g} %, {ci['stop']}"


def row_lines(records: list[dict]) -> list[str]:
    """One line per result row that -sync window or -ci_target touched."""
    lines = []
    for r in records:
        if r["type"] != "result":
            continue
        cells = [c for c in (window_cell(r), ci_cell(r)) if c]
        if cells:
            group = "" if r.get("group") is None else f" group {r['group']}"
            mode = f" {r['mode']}" if r.get("mode") else ""
            lines.append(f"{r['benchmark']}{mode} {r['processes']} processes{group}, {r['bytes']} bytes: "
                         + "; ".join(cells))
    return lines


def header_lines(run: dict | None, records: list[dict], *, with_warnings: bool = True) -> list[str]:
    """The self-checks (and their warnings) for `mpimark show`'s lines above the tables; with_warnings
    False where the tables hold the warnings already (IMB's text prints them in place)."""
    summary = selfcheck_summary(run, reasons=False)
    out = [f"self-checks: {summary}"] if summary else []
    out += skipped_lines(run)  # the reasons, a line each: a simulated run skips five checks
    if with_warnings:
        out += [f"warning: {message}" for message in warnings(records)]
    return out


def row_block(records: list[dict]) -> list[str]:
    """The rows -sync window or -ci_target touched, as '#' lines after IMB's tables (IMB parsers skip them)."""
    rows = row_lines(records)
    if not rows:
        return []
    return ["# -sync window invalid samples / -ci_target CI half-width reached, target, stop reason:",
            *(f"#   {line}" for line in rows)]
