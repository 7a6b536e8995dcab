"""mpiBench's output lines, regenerated from a run's records (docs/mpibench.md).

One line per result, in mpiBench's layout (tab-separated, times in µs):
the operation, Bytes, Iters, Avg / Min / Max of the per-call time over all
processes, and the communicator label with rank 0's communicator size, so
crunch_mpiBench and other parsers read a stored run as they read the core's
own output. Between `START mpiBench v1.5` and `END mpiBench`: the rank ->
host map where the run record can say it (one host), and no
`Message buffers (KB)` line (the stream does not keep it).
"""

from __future__ import annotations

from mpimark.records.results import communicator, WORLD

MPIB_VERSION = "1.5"


def results(records: list[dict]) -> list[dict]:
    return [r for r in records if r["type"] == "result" and r.get("suite") == "mpibench"]


def line(result: dict) -> str:
    """One mpiBench line; the core prints the same with `%-20.20s\\tBytes:\\t%8zu...`.

    An imported row of an mpiBench that printed no communicator is MPI_COMM_WORLD's, of all its ranks."""
    comm = communicator(result) or WORLD
    ranks = result.get("comm_ranks") or result["processes"]
    return (f"{result['benchmark'][:20]:<20}\tBytes:\t{result['bytes']:8d}\tIters:\t{result['repetitions']:7d}"
            f"\tAvg:\t{result['t_avg_usec']:8.4f}\tMin:\t{result['t_min_usec']:8.4f}\tMax:\t{result['t_max_usec']:8.4f}"
            f"\tComm: {comm}\tRanks: {ranks}")


def comment(run: dict | None) -> str:
    """The core's first line: barrier mode, time limit, iteration cap, checks."""
    options = (run or {}).get("options") or {}
    if not options:
        return "# mpiBench"
    barrier = "on" if options.get("barrier", True) else "off (-nobar)"
    check = {"every": ", -C check every iteration", "once": ", -c check"}.get(options.get("check"), "")
    return (f"# mpiBench (stored run): barrier after every call {barrier}, time limit {options.get('t_usec', 0):.0f} "
            f"usec, at most {options.get('i_iterations')} iterations{check}")


def text(records: list[dict]) -> str:
    run = next((r for r in records if r["type"] == "run"), None)
    lines = [comment(run), f"START mpiBench v{MPIB_VERSION}"]
    hosts = (run or {}).get("hosts") or []
    if run and len(hosts) == 1:
        lines += [f"{rank} : {hosts[0]}" for rank in range(run["processes"])]
    lines += [line(r) for r in results(records)]
    defects = sum(r["defects"] or 0 for r in results(records))
    if defects:
        lines.append(f"# -c/-C found {defects} received bytes or elements that differ from what was sent")
    lines.append("END mpiBench")
    return "\n".join(lines) + "\n"
