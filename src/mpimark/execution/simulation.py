"""Launching the core under SimGrid's SMPI: the smpirun line, its host file, and the setup recorded.

`mpimark run --mpi smpi --platform P -n N [--ppn K] [--coll-selector S]`
runs the core built with smpicc on a simulated platform (P: a shipped name
or a SimGrid XML file, execution/platforms.py). smpirun places the ranks on
the hosts of a host file: here the platform's first ceil(N/K) hosts, K
consecutive ranks on each, written to a temporary directory that lives as
long as the launch (prepared()). The launch line names the file, never its
contents, so what is stored with the run does not grow with N.

The setup (platform, selector, ranks per host, ...) goes to the core in the
environment variable MPIMARK_SIMULATION (JSON), which the core copies into
its run record's "simulation" object (docs/simulation.md).
"""

from __future__ import annotations

import json
import math
import shlex
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from mpimark.errors import MpimarkError
from mpimark.execution.platforms import NETWORK_CFG

SETUP_ENV = "MPIMARK_SIMULATION"
# SMPI's collective algorithm selectors that run the core (docs/simulation.md, "Collective selectors"):
# each completed mpi1 Allreduce Bcast Alltoall -msglog 0:4 at 16 ranks and Allreduce Bcast at 256.
# Not offered: "default" (SMPI's naive linear algorithms) spent more than 10 minutes in the core's
# start-up Allgather at 256 ranks; "ompi" dies with SIGFPE and "automatic" with SIGSEGV at 16 ranks.
COLL_SELECTORS = ("mpich", "impi", "mvapich2")
DEFAULT_COLL_SELECTOR = "mpich"
# No simulated time for the computation between MPI calls: the benchmarks time communication, and
# what the core computes between its MPI calls runs on this machine (shared by all ranks, loaded by
# other work), not on the simulated node; with "yes" SMPI would add that host time, scaled by
# smpi/host-speed, to each rank's clock, making the simulated times noisy and dependent on this host.
SIMULATE_COMPUTATION = False
# SimGrid prints INFO lines for every configuration change, and one about the host speed; warnings
# (a rank's non-zero return) and errors still come.
QUIET_LOGS = "--log=root.thres:warning"
# Each rank's copy of the core's globals by remapping one segment at each context switch, not by
# loading a copy of the core per rank: that way stops near 6,800 ranks at Linux's 65,530 memory maps,
# and takes twice the memory (923 against 458 MiB at 1,536 ranks; benchmarks/README.md).
PRIVATIZATION = "--cfg=smpi/privatization:mmap"


class SimulationError(MpimarkError):
    """A simulated launch that cannot be: too many ranks for the platform, an option smpirun has no use for."""

    exit_code = 2


@dataclass(frozen=True)
class Simulation:
    """What `mpimark run` was asked to simulate (platform: a platforms.Platform)."""

    platform: object
    ppn: int = 1
    coll_selector: str = DEFAULT_COLL_SELECTOR
    launcher_args: tuple[str, ...] = ()  # --launcher-arg words, for smpirun (e.g. --cfg=network/model:...)

    def hosts_needed(self, processes: int) -> int:
        return math.ceil(processes / self.ppn)

    def check(self, processes: int) -> None:
        """Refuse a rank count the platform's hosts cannot hold at ppn ranks each."""
        hosts = self.platform.host_count
        if processes > hosts * self.ppn:
            raise SimulationError(f"the platform {self.platform.name} has {hosts} hosts; -n {processes} at "
                                  f"{self.ppn} rank(s) per host needs {self.hosts_needed(processes)} hosts: give --ppn "
                                  f"{math.ceil(processes / hosts)} (ranks per simulated host) or a larger platform")

    def setup(self, processes: int, argv: list[str]) -> dict:
        """The object the core copies into its run record (contract: docs/simulation.md, "What is recorded")."""
        return {"platform": self.platform.describe(), "coll_selector": self.coll_selector,
                "ranks_per_host": self.ppn, "hosts_used": self.hosts_needed(processes),
                "simulate_computation": SIMULATE_COMPUTATION, "smpirun": shlex.join(argv)}


@dataclass(frozen=True)
class Prepared:
    """A Simulation with its host file written (valid inside prepared())."""

    simulation: Simulation
    hostfile: Path


@contextmanager
def prepared(simulation: Simulation | None, processes: int) -> Iterator[Prepared | None]:
    """The host file for processes ranks, in a temporary directory removed when the launch is over
    (None for None: a measured run)."""
    if simulation is None:
        yield None
        return
    with tempfile.TemporaryDirectory(prefix="mpimark-smpi-") as tmp:
        path = Path(tmp) / "hostfile"
        write_hostfile(simulation, processes, path)
        yield Prepared(simulation, path)


def write_hostfile(simulation: Simulation, processes: int, path: Path) -> None:
    """One line per rank, in rank order: ppn consecutive ranks on each of the platform's first hosts."""
    with open(path, "w", encoding="utf-8") as out:
        rank = 0
        for host in simulation.platform.host_names():
            if rank >= processes:
                break
            for _ in range(min(simulation.ppn, processes - rank)):
                out.write(host + "\n")
                rank += 1
    if rank < processes:  # host_count said more hosts than host_names() gave
        raise SimulationError(f"the platform {simulation.platform.name} names only {rank // simulation.ppn} "
                              f"hosts; -n {processes} does not fit")


def command(smpirun: str, prepared_: Prepared, processes: int, core: Path | str, suite: str, args: list[str],
            json_path: Path | str) -> tuple[list[str], dict[str, str]]:
    """The smpirun argv, and the variables to add to its environment (the setup for the run record)."""
    sim = prepared_.simulation
    argv = [smpirun, "-platform", str(sim.platform.path), "-hostfile", str(prepared_.hostfile),
            "-np", str(processes), f"--cfg=smpi/coll-selector:{sim.coll_selector}",
            f"--cfg=smpi/simulate-computation:{'yes' if SIMULATE_COMPUTATION else 'no'}", QUIET_LOGS,
            # The platforms' numbers are end-to-end figures (docs/simulation-platforms.md): SMPI's
            # default correction factors would double their 0-byte latency. --launcher-arg comes after, to override.
            *NETWORK_CFG, PRIVATIZATION, *sim.launcher_args, str(core), suite, *args, "-json", str(json_path)]
    return argv, {SETUP_ENV: json.dumps(sim.setup(processes, argv))}
