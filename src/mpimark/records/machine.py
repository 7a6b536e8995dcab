"""A stored run's machine facts, from whatever recorded them, and "not recorded" where nothing did.

Two witnesses: the core's run record (rank 0's node: CPU model, sockets,
memory, cores online, the compiler and flags it was built with, the load
at its start; each rank's CPUs; the end record's load at the end), which
every run has, launched by mpimark, by hand or by Slurm and imported; and
the `machine` event `mpimark run` stores (execution/machine.py: psutil on
the launching host, which adds physical cores and the network interfaces
and HCAs). The core's word is taken first: it is the node the ranks ran
on. A fact neither recorded is said to be unknown, never guessed.
"""

from __future__ import annotations

from collections.abc import Mapping

from mpimark.records import per_rank
from mpimark.records.results import MACHINE_EVENT

NOT_RECORDED = "not recorded"
# The facts in the order they are shown.
NAMES = ("host", "CPU model", "sockets", "cores", "memory", "NICs/HCAs", "compiler and flags", "binding",
         "load before → after")


def _event(records: list[dict]) -> dict:
    event = next((r for r in records if r.get("type") == "event" and r.get("kind") == MACHINE_EVENT), None)
    return (event or {}).get("machine") or {}


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n != 1 else ''}"


def _cores(run: Mapping, host: Mapping) -> str | None:
    parts = []
    if host.get("cores_physical"):
        parts.append(f"{host['cores_physical']} physical")
    logical = host.get("cores_logical") or run.get("cores_online")
    if logical:
        parts.append(f"{logical} online")
    return ", ".join(parts) or None


def _network(host: Mapping) -> str | None:
    if "interfaces" not in host and "hcas" not in host:
        return None  # not looked at (no machine event): unknown, not "none"
    nics = [i["name"] + (f" {i['speed_mbps']} Mb/s" if i.get("speed_mbps") else "") for i in host.get("interfaces") or []]
    hcas = list(host.get("hcas") or [])
    text = "; ".join(filter(None, (", ".join(nics), f"HCAs {', '.join(hcas)}" if hcas else "")))
    return text or "none up besides lo"


def _compiler(core: Mapping, host: Mapping) -> str | None:
    if core.get("compiler"):
        return " ".join(filter(None, (core["compiler"], core.get("c_flags"))))
    build = host.get("core_build") or {}
    if build.get("compiler"):
        return " ".join(filter(None, (build.get("compiler_id") or build["compiler"], build.get("flags"))))
    return None


def binding(run: Mapping) -> str | None:
    """How the ranks were bound, from each rank's allowed CPUs as the core saw them:
    "each rank on one CPU (0 | 1)", "not bound: each rank may use 0-1", "ranks on 0-1 | 2-3"."""
    if per_rank.listed(run):
        cpus = [rank.get("cpus") for rank in run.get("ranks") or []]
    else:  # past the core's bound: the distinct allowed-CPU lists and their rank counts
        counts = per_rank.value_counts(run, "cpus")
        if not counts or any(c is None for c, _ in counts) or (run.get("ranks_summary") or {}).get("cpus", {}).get(
                "other_ranks"):
            return None
        if len(counts) > 1:
            return "ranks on CPUs " + " | ".join(f"{c} ({n} ranks)" for c, n in counts)
        cpus = [counts[0][0]]
    if not cpus or any(c is None for c in cpus):
        return None
    listed = " | ".join(cpus)
    if all("," not in c and "-" not in c for c in cpus):
        return f"each rank on one CPU ({listed})"
    if len(set(cpus)) == 1:
        return f"not bound: each rank may use CPUs {cpus[0]}"
    return f"ranks on CPUs {listed}"


def _load(before: list | None, after: list | None) -> str | None:
    """The 1-minute load average at the start and the end of the run: "0.10 → 1.95"."""
    first = lambda values: f"{values[0]:.2f}" if values and values[0] >= 0 else "?"  # noqa: E731
    return None if not before and not after else f"{first(before)} → {first(after)}"


def facts(records: list[dict]) -> dict[str, str]:
    """Every fact of NAMES as text, NOT_RECORDED where neither the core nor mpimark recorded it."""
    run = next((r for r in records if r.get("type") == "run"), None) or {}
    end = next((r for r in records if r.get("type") == "end"), None) or {}
    core, host = run.get("machine") or {}, _event(records)
    memory = core.get("memory_bytes") or host.get("memory_bytes")
    sockets = core.get("sockets") or host.get("sockets")
    found = {
        "host": (run.get("hosts") or [host.get("host")])[0],
        "CPU model": core.get("cpu_model") or host.get("cpu_model"),
        "sockets": sockets and str(sockets),
        "cores": _cores(run, host),
        "memory": memory and f"{memory / (1 << 30):.1f} GiB",
        "NICs/HCAs": _network(host),
        "compiler and flags": _compiler(core, host),
        "binding": binding(run),
        "load before → after": _load(run.get("load_average_before") or host.get("load_average"),
                                     end.get("load_average_after")),
    }
    return {name: found[name] or NOT_RECORDED for name in NAMES}


def line(records: list[dict]) -> str:
    """The facts as one line for `show`: "CPU model: AMD EPYC; sockets: 1; ..." (the host is in show's heading)."""
    return "; ".join(f"{name}: {value}" for name, value in facts(records).items() if name != "host")
