"""What the machine a launch starts on is: CPU, sockets, cores, memory, network interfaces, the core's compiler.

psutil knows cores, memory and interfaces portably; the CPU model and the
socket count are not in psutil, so they come from /proc/cpuinfo (Linux),
and InfiniBand/RoCE adapters from /sys/class/infiniband. The compiler and
flags of the core are the ones CMake cached in the core's build directory.
These are the facts of the launching host: with several nodes (or a Slurm
allocation launched from elsewhere) the compute nodes may differ.
"""

from __future__ import annotations

import os
import platform
from pathlib import Path

import psutil


def _cpuinfo() -> tuple[str | None, int | None]:
    """The CPU model and the number of sockets (distinct physical ids), where /proc/cpuinfo says."""
    try:
        text = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return platform.processor() or None, None
    model, sockets = None, set()
    for line in text.splitlines():
        name, _, value = line.partition(":")
        name = name.strip()
        if name == "model name" and model is None:
            model = value.strip()
        elif name == "physical id":
            sockets.add(value.strip())
    return model or platform.processor() or None, len(sockets) or None


def _compiler(core: Path | None) -> dict | None:
    """CMAKE_C_COMPILER, its flags and the build type from the core's CMakeCache.txt."""
    if core is None:
        return None
    cache = Path(core).parent / "CMakeCache.txt"
    try:
        lines = cache.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return None
    wanted = {"CMAKE_C_COMPILER": "compiler", "CMAKE_C_FLAGS": "flags", "CMAKE_BUILD_TYPE": "build_type",
              "MPI_C_COMPILER": "mpi_compiler"}
    cached = {}
    for line in lines:
        name, _, value = line.partition("=")
        cached[name.split(":")[0]] = value.strip()
    found = {key: cached[variable] for variable, key in wanted.items() if cached.get(variable)}
    build_type = cached.get("CMAKE_BUILD_TYPE", "").upper()
    flags = " ".join(filter(None, (cached.get("CMAKE_C_FLAGS"), cached.get(f"CMAKE_C_FLAGS_{build_type}"))))
    if flags:
        found["flags"] = flags  # what CMake passes: the common flags, then the build type's
    for detected in Path(core).parent.glob("CMakeFiles/*/CMakeCCompiler.cmake"):
        text = detected.read_text(encoding="utf-8", errors="replace")
        ident = _cmake_set(text, "CMAKE_C_COMPILER_ID")
        version = _cmake_set(text, "CMAKE_C_COMPILER_VERSION")
        if ident:
            found["compiler_id"] = f"{ident} {version}".strip()
        break
    return found or None


def _cmake_set(text: str, variable: str) -> str | None:
    marker = f'set({variable} "'
    at = text.find(marker)
    if at < 0:
        return None
    return text[at + len(marker):text.index('"', at + len(marker))] or None


def facts(core: Path | str | None = None) -> dict:
    """The launching host's facts as one JSON object (stored in a `machine` event of the run)."""
    model, sockets = _cpuinfo()
    memory = psutil.virtual_memory().total
    interfaces = []
    for name, stats in sorted(psutil.net_if_stats().items()):
        if name == "lo" or not stats.isup:
            continue
        interfaces.append({"name": name, "speed_mbps": stats.speed or None, "mtu": stats.mtu})
    try:
        hcas = sorted(os.listdir("/sys/class/infiniband"))
    except OSError:
        hcas = []
    return {"host": platform.node(), "cpu_model": model, "sockets": sockets,
            "cores_physical": psutil.cpu_count(logical=False), "cores_logical": psutil.cpu_count(logical=True),
            "memory_bytes": memory, "interfaces": interfaces, "hcas": hcas,
            "load_average": [round(x, 2) for x in os.getloadavg()], "core_build": _compiler(Path(core) if core else None)}


def summary(found: dict) -> str:
    """One line: "AMD EPYC 7B13, 1 socket, 1 core (2 threads), 7.8 GiB; eth0 (up); compiler cc -O2"."""
    parts = [found.get("cpu_model") or "unknown CPU"]
    if found.get("sockets"):
        parts.append(f"{found['sockets']} socket{'s' if found['sockets'] != 1 else ''}")
    parts.append(f"{found.get('cores_physical') or '?'} cores ({found.get('cores_logical') or '?'} threads)")
    if found.get("memory_bytes"):
        parts.append(f"{found['memory_bytes'] / (1 << 30):.1f} GiB")
    text = ", ".join(parts)
    nics = ", ".join(i["name"] + (f" {i['speed_mbps']} Mb/s" if i.get("speed_mbps") else "")
                     for i in found.get("interfaces") or [])
    if nics:
        text += f"; NICs {nics}"
    if found.get("hcas"):
        text += f"; HCAs {', '.join(found['hcas'])}"
    build = found.get("core_build") or {}
    if build.get("compiler"):
        compiler = build["compiler"] + (f" ({build['compiler_id']})" if build.get("compiler_id") else "")
        text += f"; core built with {compiler} {build.get('flags', '')}".rstrip()
    return text
