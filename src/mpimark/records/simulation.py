"""What a run on a simulated machine (SimGrid SMPI) is, in the words every view uses.

The core writes run_record["simulation"] only when it was built against SMPI: {"simulator", "version",
"setup"}, setup being what the front end asked for (platform, collective selector, ranks per host, ...)
or null for an smpirun started by hand; the store keeps the object in runs.simulation. A simulated run's
times are the simulator's model of a machine, not a measurement: every view that shows one says so with
phrase() or label(), and where simulated and measured runs (or runs on different simulated platforms)
meet, mixing() says so in one line. The object may come from an imported file: nothing in it is trusted
to have the types the core writes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

# What a reader is told once wherever a simulated run is set beside a measured one.
MODEL_NOT_MEASUREMENT = "the difference is the simulator's model, not a measurement"


def of_run(run_record: Mapping | None) -> dict | None:
    """The run record's simulation object, None for a measured run (or no run record)."""
    simulation = run_record.get("simulation") if isinstance(run_record, Mapping) else None
    return simulation if isinstance(simulation, dict) else None


def _text(value: object) -> str | None:
    """A non-empty string of the object, else None (a number or a list where text belongs is not shown)."""
    return (value.strip() or None) if isinstance(value, str) else None


def _setup(simulation: Mapping) -> Mapping:
    setup = simulation.get("setup")
    return setup if isinstance(setup, Mapping) else {}


def _platform(simulation: Mapping) -> Mapping:
    platform = _setup(simulation).get("platform")
    return platform if isinstance(platform, Mapping) else {}


def platform_name(simulation: Mapping | None) -> str | None:
    """The platform's name (a shipped one's, or the file's stem), None where the setup was not recorded."""
    return _text(_platform(simulation).get("name")) if simulation else None


def simulator(simulation: Mapping) -> str:
    """"SimGrid SMPI 3.32" (what the core names), the version where known."""
    name = _text(simulation.get("simulator")) or "an unnamed simulator"
    version = _text(simulation.get("version"))
    return f"{name} {version}" if version else name


def phrase(simulation: Mapping) -> str:
    """The run's simulation in one short phrase, for a header line or a note:
    "simulated: SimGrid SMPI 3.32, platform torus (TORUS 8,8,16,2,3,2), 64 hosts, coll mpich"."""
    return f"simulated: {details(simulation)}"


def details(simulation: Mapping) -> str:
    """phrase() without its "simulated: ": "SimGrid SMPI 3.32, platform torus (...), 64 hosts, coll mpich"."""
    parts = [simulator(simulation)]
    setup, platform = _setup(simulation), _platform(simulation)
    if not setup:
        parts.append("setup not recorded (smpirun started by hand)")
        return ", ".join(parts)
    name, topology = _text(platform.get("name")), _text(platform.get("topology"))
    if name or topology:
        parts.append("platform " + " ".join(p for p in (name, f"({topology})" if topology and name else topology) if p))
    hosts = platform.get("hosts")
    if isinstance(hosts, int) and not isinstance(hosts, bool):
        parts.append(f"{hosts} hosts")
    per_host = setup.get("ranks_per_host")
    if isinstance(per_host, int) and not isinstance(per_host, bool) and per_host != 1:
        parts.append(f"{per_host} ranks per host")
    selector = _text(setup.get("coll_selector"))
    if selector:
        parts.append(f"coll {selector}")
    if setup.get("simulate_computation") is True:
        parts.append("computation simulated")
    return ", ".join(parts)


def label(simulation: Mapping | None) -> str:
    """A short tag for a table cell or a legend: "simulated, torus" ("" for a measured run)."""
    if not simulation:
        return ""
    name = platform_name(simulation)
    return f"simulated, {name}" if name else "simulated"


def condition(simulation: Mapping | None) -> str:
    """What a launch ran on, as a condition launches pooled together must share: "measured", or
    "simulated, torus" (with the platform file's hash where two platforms share a name)."""
    if not simulation:
        return "measured"
    digest = _text(_platform(simulation).get("sha256"))
    return label(simulation) + (f" (platform sha256 {digest[:12]})" if digest else "")


def _platform_identity(simulation: Mapping) -> tuple:
    """What makes two simulated runs' machines the same: the platform file's hash, else its name and topology."""
    platform = _platform(simulation)
    digest = _text(platform.get("sha256"))
    return ("sha256", digest) if digest else ("name", _text(platform.get("name")), _text(platform.get("topology")))


def mixing(runs: Sequence[tuple[str, Mapping | None]]) -> list[str]:
    """Note lines (without a "note:" or "warning:" of their own) where simulated runs meet measured ones,
    or runs simulated on different platforms.

    runs: (how the run is named to the reader, e.g. "run 12", its simulation or None). [] when all are
    measured, or all simulated on one platform (the simulator and collective selector are in the phrase)."""
    simulated = [(name, sim) for name, sim in runs if sim]
    if not simulated:
        return []
    measured = [name for name, sim in runs if not sim]
    lines = []
    if measured:
        lines.append("; ".join(f"{name} is simulated ({details(sim)})" for name, sim in simulated)
                     + f"; {_names(measured)} {'is' if len(measured) == 1 else 'are'} measured: "
                     + MODEL_NOT_MEASUREMENT)
    platforms: dict[tuple, tuple[list[str], Mapping]] = {}  # per platform: the runs on it, and one's simulation
    for name, sim in simulated:
        platforms.setdefault(_platform_identity(sim), ([], sim))[0].append(name)
    if len(platforms) > 1:
        lines.append("the simulated runs are on different platforms ("
                     + "; ".join(f"{_names(names)}: {platform_name(sim) or 'platform not recorded'}"
                                 for names, sim in platforms.values())
                     + "): a difference between them is the platforms' as much as the software's")
    return lines


def _names(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
