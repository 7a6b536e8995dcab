"""A run of thousands of ranks without thousands of ranks: a recorded simulated stream scaled up.

tests/frontend/data/smpi-flat-64.jsonl.gz is a real stream of the core under
SimGrid SMPI (how it was made: RECORDED_WITH). `scaled(records, 4096)` makes
from it the stream the same command would write at 4,096 ranks, in the form
the core writes: the run record's per-rank fields for 4,096 ranks, summarized
past the core's bound of 64 ranks or every rank listed (`per_rank_fields` and
`summarize`: the one place that knows their form), results for every
process count of the npmin progression 2, 4, ..., 4096 with the recorded
samples per result, their events, and the end record.

The times are a model, not a simulation: a result at P > 64 ranks is the
64-rank result of the same benchmark and size with every time multiplied by
`growth(benchmark, P, 64)` (log2 P / log2 64 for tree-shaped collectives,
P / 64 for Alltoall and the other all-to-one or one-to-all ones),
and with `noise` each result's times by one more factor near 1 (drawn from a
seeded generator), so a second copy differs from the first as a second launch
would. Every time of a result is scaled by the same factor, so its summary
(min, max, mean, quartiles, interval) stays the one of its samples.

Used by tests/frontend/test_scale_4096.py and benchmarks/frontend_scale.py.
"""

from __future__ import annotations

import copy
import gzip
import json
import math
import random
from collections.abc import Iterator
from pathlib import Path

RECORDED = Path(__file__).parent / "data" / "smpi-flat-64.jsonl.gz"
RECORDED_WITH = ("smpirun -platform flat-64.xml -hostfile HOSTS -np 64 --cfg=smpi/coll-selector:mpich "
                 "--cfg=smpi/simulate-computation:no --log=root.thres:warning mpimark-core mpi1 Allreduce Bcast "
                 "Alltoall -msglog 0:10 -iter 10 -npmin 2 -json S64.jsonl, as `mpimark run --mpi smpi --platform "
                 "flat:64 -n 64` launches it (execution/simulation.py's command and setup); SimGrid 3.32, "
                 "2026-11-27 01:36 UTC, 74.6 s of wall time at load 7")
# Benchmarks whose time grows with P rather than log2 P (every rank sends to every other).
LINEAR = frozenset({"Alltoall", "Alltoallv", "Allgather", "Allgatherv", "Gather", "Gatherv", "Scatter", "Scatterv"})
# Time fields of a result record and of its distribution, all scaled alike.
TIME_FIELDS = ("t_min_usec", "t_max_usec", "t_avg_usec")
# What the core writes for a hand-run smpirun (no setup from mpimark): for a recorded stream without the key.
SIMULATION = {"simulator": "SimGrid SMPI", "version": "3.32.0", "setup": None}


def recorded() -> list[dict]:
    with gzip.open(RECORDED, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def progression(processes: int, npmin: int = 2) -> list[int]:
    """IMB's process counts: npmin, 2 npmin, 4 npmin, ... below P, then P."""
    counts, p = [], npmin
    while p < processes:
        counts.append(p)
        p *= 2
    return counts + [processes]


def growth(benchmark: str, processes: int, recorded_processes: int) -> float:
    if benchmark in LINEAR:
        return processes / recorded_processes
    return math.log2(processes) / math.log2(recorded_processes)


def host(rank: int) -> str:
    return f"node-{rank}"


def _ranks_like(entries: list[dict], processes: int) -> list[dict]:
    """A per-rank list of `processes` entries: rank r is the recorded entry of a rank like it
    (rank 0 is its own; the others cycle over the recorded ranks 1..), renumbered."""
    out = []
    for rank in range(processes):
        model = entries[0] if rank == 0 else entries[1 + (rank - 1) % (len(entries) - 1)]
        entry = dict(model, rank=rank)
        if "host" in entry:
            entry["host"] = host(rank)
        out.append(entry)
    return out


def per_rank_fields(run: dict, end: dict, processes: int, listed: bool = False) -> None:
    """The run record's and end record's per-rank fields for `processes` ranks, one rank per host, in place,
    in the form the core writes (docs/results-format.md): every rank listed up to the bound of the recorded
    run's "per_rank" (64), past it summarized (summarize); listed: every rank, as with MPIMARK_PER_RANK=1."""
    ranks = _ranks_like(run["ranks"], processes)
    clock_sync = (run.get("clock_sync") or {}).get("ranks")
    clock_check = (end.get("clock_check") or {}).get("ranks")
    run["nodes"] = processes
    bound = (run.get("per_rank") or {}).get("bound")
    if listed or bound is None or processes <= bound:  # asked for, a core before the bound, or under it
        run["hosts"] = [host(rank) for rank in range(processes)]
        run["ranks_per_node"] = [1] * processes
        run["ranks"] = ranks
        if bound is not None:
            run["per_rank"] = {**run["per_rank"], "listed": True}
        if clock_sync:
            run["clock_sync"]["ranks"] = _ranks_like(clock_sync, processes)
        if clock_check:
            end["clock_check"]["ranks"] = _ranks_like(clock_check, processes)
        return
    summarize(run, end, ranks, processes, bound)


def summarize(run: dict, end: dict, ranks: list[dict], processes: int, bound: int) -> None:
    """The core's summarized form past the bound (h5's sysinfo.c/records.c): the first `bound` hosts and how
    many are left out, the ranks per node as counts, the ranks' CPUs as ranges and counts, and of each
    per-rank figure list rank 0 and the rank with the largest value of each figure."""
    run["per_rank"] = {**run["per_rank"], "listed": False}
    run["hosts"] = [host(rank) for rank in range(bound)]
    run["hosts_omitted"] = processes - bound
    run.pop("ranks_per_node", None)
    run["ranks_per_node_counts"] = [[1, processes]]
    run.pop("ranks", None)
    cpu = [r.get("cpu") for r in ranks]
    known = [c for c in cpu if c is not None]
    cpus: dict = {}
    for r in ranks:
        cpus[r.get("cpus")] = cpus.get(r.get("cpus"), 0) + 1
    run["ranks_summary"] = {
        "ranks": processes,
        "cpu": {"min": min(known, default=None), "max": max(known, default=None), "unknown": len(cpu) - len(known)},
        "cpus": {"values": [[text, n] for text, n in list(cpus.items())[:16]],
                 "other_ranks": sum(n for _, n in list(cpus.items())[16:])},
        "env": {},
    }
    for holder in (run.get("clock_sync"), run.get("selfcheck"), end.get("clock_check")):
        if isinstance(holder, dict) and holder.get("ranks"):
            listed = _ranks_like(holder["ranks"], processes)
            holder["ranks"] = _extremes(listed)
            holder["ranks_omitted"] = processes - len(holder["ranks"])


def _extremes(entries: list[dict]) -> list[dict]:
    """Rank 0 and, per numeric figure, the first rank where its magnitude is largest, in rank order."""
    picked = {0}
    figures = [k for k, v in entries[0].items() if k != "rank" and isinstance(v, (int, float))
               and not isinstance(v, bool)] or [k for k in entries[-1] if k != "rank"]
    for figure in figures:
        values = [(abs(e[figure]), -e["rank"]) for e in entries if isinstance(e.get(figure), (int, float))]
        if values:
            picked.add(-max(values)[1])
    return [entries[rank] for rank in sorted(picked)]


def _simulation(simulation: dict, recorded_processes: int, processes: int) -> dict:
    """The recorded "simulation" object as for a run on a flat platform of `processes` hosts: the setup's
    platform and host counts (and the -np of its smpirun line) say so."""
    setup = simulation.get("setup")
    if not setup:
        return simulation
    platform = dict(setup.get("platform") or {}, name="flat", topology=f"FLAT {processes}", hosts=processes)
    argv = setup.get("smpirun", "").replace(f"-np {recorded_processes} ", f"-np {processes} ")
    return {**simulation, "setup": {**setup, "platform": platform, "hosts_used": processes, "smpirun": argv}}


def _scale_result(result: dict, processes: int, factor: float) -> dict:
    out = copy.deepcopy(result)
    out["processes"] = processes
    for key in TIME_FIELDS:
        if out.get(key) is not None:
            out[key] = out[key] * factor
    if out.get("wall_s") is not None:
        out["wall_s"] = out["wall_s"] * factor
    if out.get("mbytes_per_sec"):
        out["mbytes_per_sec"] = out["mbytes_per_sec"] / factor
    distribution = out.get("distribution") or {}
    for key, value in distribution.items():
        if key.endswith("_usec") and value is not None:
            distribution[key] = value * factor
    if out.get("samples_ns"):
        out["samples_ns"] = [max(1, round(s * factor)) for s in out["samples_ns"]]
    return out


def _scale_event(event: dict, recorded_processes: int, processes: int) -> dict:
    out = dict(event, processes=processes)
    if "message" in out:
        out["message"] = out["message"].replace(f"on {recorded_processes} processes", f"on {processes} processes")
    return out


def scaled(records: list[dict], processes: int = 4096, noise: float = 0.0, seed: int = 1,
           listed: bool = False) -> list[dict]:
    """The stream `records` (a complete run at its largest process count R) as at `processes` ranks.

    Results and events at counts up to R are kept (times times the noise
    factor); each count above R gets R's results and events, scaled."""
    rng = random.Random(seed)
    run = copy.deepcopy(next(r for r in records if r["type"] == "run"))
    end = copy.deepcopy(next(r for r in records if r["type"] == "end"))
    recorded_processes = run["processes"]
    counts = progression(processes, (run.get("options") or {}).get("npmin") or 2)
    run["processes"] = processes
    run["simulation"] = _simulation(run.get("simulation") or copy.deepcopy(SIMULATION), recorded_processes,
                                    processes)
    per_rank_fields(run, end, processes, listed)

    # The body in the core's order: per benchmark, per process count, its events and results.
    body: dict[tuple[str, int], list[dict]] = {}
    for record in records:
        if record["type"] in ("result", "event") and record.get("benchmark") and record.get("processes"):
            body.setdefault((record["benchmark"], record["processes"]), []).append(record)
    out: list[dict] = [run]
    for benchmark in dict.fromkeys(name for name, _ in body):
        for p in counts:
            source_p = min(p, recorded_processes)
            source = body.get((benchmark, source_p), [])
            base = 1.0 if p <= recorded_processes else growth(benchmark, p, recorded_processes)
            for record in source:
                if record["type"] == "event":
                    out.append(_scale_event(record, source_p, p))
                else:
                    jitter = 1.0 + rng.uniform(-noise, noise) if noise else 1.0
                    out.append(_scale_result(record, p, base * jitter))
    end["results"] = sum(r["type"] == "result" for r in out)
    out.append(end)
    return out


def lines(records: list[dict]) -> Iterator[str]:
    for record in records:
        yield json.dumps(record, separators=(",", ":")) + "\n"


def write(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(lines(records)), encoding="utf-8")
    return path
