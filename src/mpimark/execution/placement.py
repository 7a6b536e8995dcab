"""Where the ranks run and what the launcher is told: the placement model.

Every command that launches takes the same options (`--hosts`/`--hostfile`,
`--ppn`, `--bind`, `--env NAME=VALUE`, `--launcher-arg ARG`); from_options()
checks them and makes a Placement, before anything is built, launched or
stored. launcher_args() turns a Placement into the words of one launcher's
command line, which go after the launcher's own flags and before `-n N`:

| | Open MPI (mpirun) | hydra (MPICH, Intel MPI) |
|---|---|---|
| hosts, K ranks each | `--host a:K,b:K` | `-hosts a,b -ppn K` |
| `--ppn K`, no hosts | `--map-by ppr:K:node` | `-ppn K` |
| `--bind core` | `--bind-to core` | `-bind-to core` |
| `--env N=V` | `-x N=V` | `-genv N V` |
| `--launcher-arg A` | `A` | `A` |

Slurm's srun (`--launcher srun`): hosts `--nodelist=a,b --nodes=2`, K ranks
each `--ntasks-per-node=K`, `--bind core` `--cpu-bind=cores`; `--env N=V` is
set in srun's own environment (launcher_env), which srun hands to every rank.

With hosts and no `--ppn`, K is ceil(N / hosts). Either way the ranks fill
the hosts in order, K at a time (rank 0..K-1 on the first host): one layout
whatever the implementation, where the launchers' own defaults differ
(hydra deals one rank per host in turn, Open MPI gives each host one slot).
Hosts come from `--hosts` or are read from `--hostfile` here, so one file
works with every launcher; its formats: `host`, `host slots=K` (Open MPI),
`host:K` (hydra); a host listed again adds to its count.

Each `--env` variable reaches every rank through the launcher, not through
mpimark's own environment; MPIMARK_RECORD_ENV (the names) goes with them, so
the core records in the run record the value every rank saw.

A launcher that mpimark does not model gets its words from launcher_args()'s
TRANSLATORS table; a new one (Slurm's srun) is one more function there.

Reading a stored placement (describe, differences: what show, report and
compare print) is records/placement.py: presentation may not import execution.
"""

from __future__ import annotations

import math
import re
import socket
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from mpimark.errors import MpimarkError

BINDS = ("core", "socket", "none")
RECORD_ENV = "MPIMARK_RECORD_ENV"  # the core records each rank's value of the variables it names
_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class PlacementError(MpimarkError):
    """Placement options that cannot work; the message names the option and the fix."""


@dataclass(frozen=True)
class Placement:
    """What the user asked for about where and how the ranks run.

    Empty fields leave the launcher's default in force: no hosts means this
    machine (or the batch allocation the launcher runs in), no ppn and no bind
    whatever the launcher does by itself.
    """

    hosts: tuple[str, ...] = ()
    ppn: int | None = None  # ranks per host, as given (--ppn or the hostfile's counts)
    bind: str | None = None  # core | socket | none
    env: tuple[tuple[str, str], ...] = ()  # (NAME, VALUE), in the order given; a name once
    launcher_args: tuple[str, ...] = ()  # verbatim
    hostfile: str | None = None  # the file the hosts were read from, for the record

    def __post_init__(self) -> None:
        if self.bind is not None and self.bind not in BINDS:
            raise PlacementError(f"--bind '{self.bind}' is not one of {', '.join(BINDS)}")
        if self.ppn is not None and self.ppn < 1:
            raise PlacementError(f"--ppn {self.ppn}: give at least 1 rank per node")

    @property
    def is_default(self) -> bool:
        """Nothing asked for: the launch line is what it was before placement existed."""
        return self == Placement()

    def ranks_per_host(self, processes: int) -> int | None:
        """K, the ranks each host gets: --ppn, or with hosts ceil(N / hosts); None: the launcher decides."""
        if self.ppn is not None:
            return self.ppn
        if self.hosts:
            return math.ceil(processes / len(self.hosts))
        return None

    def check(self, processes: int) -> None:
        """Raise PlacementError when the hosts cannot hold N ranks at --ppn each."""
        if self.hosts and self.ppn is not None and self.ppn * len(self.hosts) < processes:
            raise PlacementError(
                f"--ppn {self.ppn} on {len(self.hosts)} host(s) places {self.ppn * len(self.hosts)} ranks, "
                f"fewer than -n {processes}; raise --ppn to {math.ceil(processes / len(self.hosts))}, "
                f"add hosts, or lower -n")

    def to_record(self) -> dict:
        """The JSON object stored with the run (runs.placement) and shown by show, report and compare."""
        return {"hosts": list(self.hosts), "hostfile": self.hostfile, "ppn": self.ppn, "bind": self.bind,
                "env": dict(self.env), "launcher_args": list(self.launcher_args)}

    @classmethod
    def from_record(cls, record: Mapping | None) -> Placement:
        """The inverse of to_record(); None (a run stored before placement existed) is the default."""
        if not record:
            return cls()
        return cls(hosts=tuple(record.get("hosts") or ()), ppn=record.get("ppn"), bind=record.get("bind"),
                   env=tuple((record.get("env") or {}).items()),
                   launcher_args=tuple(record.get("launcher_args") or ()), hostfile=record.get("hostfile"))


# ------------------------------------------------------------ from the options


def from_options(*, hosts: str | None = None, hostfile: str | None = None, ppn: int | None = None,
                 bind: str | None = None, env: Iterable[str] = (), launcher_args: Iterable[str] = (),
                 processes: Iterable[int] = (), resolve: Callable[[str], None] | None = None) -> Placement:
    """The Placement of a command's options, checked; PlacementError names what is wrong and what to do.

    processes: every process count the command will launch (matrix: several);
    each must fit on the hosts at --ppn. resolve(host) raises OSError for a
    host that does not resolve (default: socket.getaddrinfo).
    """
    if hosts is not None and hostfile is not None:
        raise PlacementError("give --hosts or --hostfile, not both")
    names: tuple[str, ...] = ()
    source = None
    if hosts is not None:
        names = parse_hosts(hosts)
    elif hostfile is not None:
        names, slots = read_hostfile(hostfile)
        source = str(Path(hostfile).resolve())
        if ppn is None:
            ppn = slots
    placement = Placement(hosts=names, ppn=ppn, bind=bind, env=parse_env(env),
                          launcher_args=tuple(launcher_args), hostfile=source)
    for n in processes:
        placement.check(n)
    check_resolvable(names, "--hostfile " + hostfile if hostfile is not None else "--hosts", resolve)
    return placement


def parse_hosts(text: str) -> tuple[str, ...]:
    names = tuple(name.strip() for name in text.split(","))
    if not text.strip() or any(not name for name in names):
        raise PlacementError(f"--hosts '{text}' has an empty host name; give --hosts NAME,NAME,...")
    if len(set(names)) != len(names):
        twice = sorted({name for name in names if names.count(name) > 1})
        raise PlacementError(f"--hosts names {', '.join(twice)} more than once; give each host once "
                             f"and the ranks per host with --ppn")
    return names


_SLOTS = re.compile(r"^(?P<host>[^\s:#]+)(?::(?P<colon>\d+))?(?:\s+(?P<rest>.*))?$")


def read_hostfile(path: str) -> tuple[tuple[str, ...], int | None]:
    """The hosts of a hostfile, in order, and the ranks per host it gives (None: it gives none).

    Lines: `host`, `host slots=K [max_slots=M ...]` (Open MPI), `host:K`
    (hydra, Intel MPI); `#` starts a comment. A host listed again adds to its
    count (the one-line-per-rank style). The counts must be the same on
    every host: mpimark puts K ranks on each.
    """
    where = f"--hostfile {path}"
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise PlacementError(f"{where}: no such file; give a file with one host name per line") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise PlacementError(f"{where}: cannot read it ({getattr(exc, 'strerror', None) or exc})") from None
    counts: dict[str, int] = {}
    counted = False  # a count given (slots=K, :K) or a host listed again
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        match = _SLOTS.match(line)
        slots = None
        if match and match["colon"]:
            slots = int(match["colon"])
        rest = match["rest"] if match else None
        if rest:
            found = re.search(r"(?:^|\s)slots\s*=\s*(\d+)", rest)
            if found:
                slots = int(found[1])
            elif not re.fullmatch(r"(?:\s*\w+\s*=\s*\S+)*\s*", rest):
                match = None
        if not match or slots == 0:
            raise PlacementError(f"{where}, line {number}: '{raw.strip()}' is not 'HOST', 'HOST slots=K' or "
                                 f"'HOST:K' with K >= 1")
        host = match["host"]
        counted = counted or slots is not None or host in counts
        counts[host] = counts.get(host, 0) + (slots or 1)
    if not counts:
        raise PlacementError(f"{where} names no host; give one host name per line")
    hosts = tuple(counts)
    if not counted:
        return hosts, None
    distinct = sorted(set(counts.values()))
    if len(distinct) > 1:
        listing = ", ".join(f"{host} {counts[host]}" for host in hosts)
        raise PlacementError(f"{where} gives different rank counts per host ({listing}); mpimark puts the same "
                             f"number on every host: give --ppn K")
    return hosts, distinct[0]


def parse_env(settings: Iterable[str]) -> tuple[tuple[str, str], ...]:
    """(NAME, VALUE) pairs of --env NAME=VALUE, in order; a name given again takes the later value."""
    found: dict[str, str] = {}
    for setting in settings:
        name, equals, value = setting.partition("=")
        if not equals:
            raise PlacementError(f"--env '{setting}' has no '='; give --env NAME=VALUE (an empty value: NAME=)")
        if not _ENV_NAME.fullmatch(name):
            raise PlacementError(f"--env '{setting}': '{name}' is not a variable name (letters, digits, _; "
                                 f"not starting with a digit)")
        if name == RECORD_ENV:
            raise PlacementError(f"--env {RECORD_ENV} is set by mpimark itself (the --env names)")
        found.pop(name, None)
        found[name] = value
    return tuple(found.items())


def check_resolvable(hosts: Iterable[str], option: str,
                     resolve: Callable[[str], None] | None = None) -> None:
    """Raise PlacementError for the first host that does not resolve, before anything is launched."""
    resolve = resolve or (lambda host: socket.getaddrinfo(host, None))
    for host in hosts:
        try:
            resolve(host)
        except (OSError, UnicodeError) as exc:
            why = getattr(exc, "strerror", None) or str(exc)
            raise PlacementError(f"unknown host '{host}' ({option}): it does not resolve ({why}); check the "
                                 f"name, or add it to DNS or /etc/hosts") from None


# ----------------------------------------------------------- to the launcher


def _openmpi(placement: Placement, processes: int) -> list[str]:
    words = []
    per_host = placement.ranks_per_host(processes)
    if placement.hosts:
        words += ["--host", ",".join(f"{host}:{per_host}" for host in placement.hosts)]
    elif per_host is not None:
        words += ["--map-by", f"ppr:{per_host}:node"]
    if placement.bind:
        words += ["--bind-to", placement.bind]
    for name, value in _with_record_env(placement.env):
        words += ["-x", f"{name}={value}"]
    return words


def _hydra(placement: Placement, processes: int) -> list[str]:
    words = []
    if placement.hosts:
        words += ["-hosts", ",".join(placement.hosts)]
    per_host = placement.ranks_per_host(processes)
    if per_host is not None:
        words += ["-ppn", str(per_host)]
    if placement.bind:
        words += ["-bind-to", placement.bind]
    for name, value in _with_record_env(placement.env):
        words += ["-genv", name, value]
    return words


# --bind for srun's --cpu-bind
SRUN_BINDS = {"core": "cores", "socket": "sockets", "none": "none"}


def _srun(placement: Placement, processes: int) -> list[str]:
    """Slurm's srun (execution/slurm.py puts --mpi and --ntasks first). Hosts must lie in the allocation."""
    words = []
    if placement.hosts:
        words += [f"--nodelist={','.join(placement.hosts)}", f"--nodes={len(placement.hosts)}"]
    per_host = placement.ranks_per_host(processes)
    if per_host is not None:
        words.append(f"--ntasks-per-node={per_host}")
        if not placement.hosts:
            words.append(f"--nodes={math.ceil(processes / per_host)}")
    if placement.bind:
        words.append(f"--cpu-bind={SRUN_BINDS[placement.bind]}")
    return words  # --env: in srun's own environment (launcher_env), which srun passes to every rank


def launcher_env(placement: Placement, launcher: str | None) -> dict[str, str]:
    """Variables a launcher must find in its own environment to give every rank placement's --env.

    srun passes its whole environment on (--export=ALL, its default); its
    --export=ALL,N=V cannot carry a value with a comma, and MPIMARK_RECORD_ENV
    is a comma-separated list. The other launchers take --env as words.
    """
    return dict(_with_record_env(placement.env)) if launcher == "srun" else {}


def _with_record_env(env: tuple[tuple[str, str], ...]) -> list[tuple[str, str]]:
    if not env:
        return []
    return [*env, (RECORD_ENV, ",".join(name for name, _ in env))]


# launcher name -> the words for a Placement. Each must place K ranks per host
# in host order (see the module's docstring) and give every rank the env.
TRANSLATORS: dict[str, Callable[[Placement, int], list[str]]] = {
    "openmpi": _openmpi,
    "hydra": _hydra,
    "srun": _srun,
}
# MPI kind (MpiImpl.kind) -> the launcher its mpiexec is.
LAUNCHER_OF_KIND = {"openmpi": "openmpi", "mpich": "hydra", "impi": "hydra"}


def launcher_for(kind: str) -> str | None:
    """The launcher (a TRANSLATORS key) of an implementation's mpiexec; None if unknown."""
    return LAUNCHER_OF_KIND.get(kind)


def launcher_args(placement: Placement, launcher: str | None, processes: int) -> list[str]:
    """The launch-line words for placement: after the launcher's own flags, before `-n N`.

    launcher: a TRANSLATORS key (launcher_for(impl.kind)); None or unknown
    works only for the default placement plus --launcher-arg words.
    """
    translate = TRANSLATORS.get(launcher or "")
    if translate is None:
        modelled = Placement(launcher_args=placement.launcher_args)
        if placement != modelled:
            raise PlacementError(f"mpimark does not know how to give {launcher or 'this launcher'} hosts, "
                                 f"--ppn, --bind or --env; pass its own options with --launcher-arg")
        return list(placement.launcher_args)
    return [*translate(placement, processes), *placement.launcher_args]
