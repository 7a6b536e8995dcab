"""Library bugs the suites run into on this project's machines, each with its
reproducer in docs/reproducers/ (docs/imb-compatibility.md lists them).

A known bug is asserted, not tolerated: where it applies, the test checks
that it shows exactly as described and then ends as xfail with the reason
below; where it does not apply, the normal assertions hold (no defects, a
clean exit). So a library that fixes a bug (or a bug that spreads to another
benchmark, process count or version) fails the test, and this table must be
brought up to date.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

REPRODUCERS = Path(__file__).resolve().parents[2] / "docs" / "reproducers"


@dataclass(frozen=True)
class KnownBug:
    mpi: str                  # "openmpi" | "mpich": the front end's implementation names
    version: str              # the library version it was seen with
    suite: str
    benchmarks: frozenset[str]
    what: str
    reproducer: str           # file name in docs/reproducers/

    def reason(self) -> str:
        return f"known {self.mpi} {self.version} bug: {self.what} (reproducer: docs/reproducers/{self.reproducer})"

    def applies(self, mpi: str, version: str, suite: str, benchmark: str | None = None) -> bool:
        return (mpi, version, suite) == (self.mpi, self.version, self.suite) and (
            benchmark is None or benchmark in self.benchmarks)


def _with_pure(*names: str) -> frozenset[str]:
    # The _pure flavour starts the same persistent request: the same bug.
    return frozenset(n for name in names for n in (name, f"{name}_pure"))


_PERSISTENT = "mpich-4.0.2-persistent-gather-scatter.c"

# MPICH 4.0.2's persistent collectives when started more than once. Which
# process counts show wrong data is part of the bug (defects_at); rows at
# other counts and 0-byte rows must be clean.
MPICH_ALLGATHER = KnownBug(
    "mpich", "4.0.2", "mpi4", _with_pure("Allgather_persist"),
    "MPI_Allgather_init delivers wrong data from the second start on, at 2 and 4 processes", _PERSISTENT)
MPICH_GATHER = KnownBug(
    "mpich", "4.0.2", "mpi4", _with_pure("Gather_persist"),
    "MPI_Gather_init never delivers the root's own block", _PERSISTENT)
MPICH_SCATTER = KnownBug(
    "mpich", "4.0.2", "mpi4", _with_pure("Scatter_persist"),
    "MPI_Scatter_init delivers to non-roots only at the first start (2 processes); on 3 or more the second "
    "start's MPI_Wait aborts the job ('Invalid communicator')", _PERSISTENT)
MPICH_PERSISTENT = (MPICH_ALLGATHER, MPICH_GATHER, MPICH_SCATTER)
# The process counts at which each shows as defects (the rest must be clean).
DEFECTS_AT = {MPICH_ALLGATHER: {2, 4}, MPICH_GATHER: {2, 3, 4}, MPICH_SCATTER: {2}}
# Scatter_persist(_pure) on 3 or more processes ends the run: the suite runs leave them out there
# and a test of their own asserts the abort.
ABORTS_FROM = {MPICH_SCATTER: 3}
ABORT_SIGNATURE = re.compile(r"Fatal error in internal_Wait.*\n(.*\n)*.*Invalid communicator")

# Open MPI 4.1.4 with osc/rdma only (Debian's openmpi-mca-params.conf disables pt2pt and ucx):
# MPI_Win_create fails on one-process communicators (-npmin 1) and when the groups of one
# MPI_Comm_split create windows at the same time (-multi), open-mpi/ompi#9492.
OMPI_OSC_RDMA = tuple(KnownBug(
    "openmpi", "4.1.4", suite, frozenset(),
    "osc/rdma's MPI_Win_create fails (MPI_ERR_WIN) on a one-process communicator (-npmin 1) and in "
    "concurrent -multi groups; '--mca osc pt2pt' avoids it", "ompi-4.1-osc-rdma-win-create.c")
    for suite in ("ext", "rma"))
# How it shows (any of): MPI_Win_create's MPI_ERR_WIN abort; that abort with its message lost
# because the launcher's own help-message forwarding failed; or, with -multi, the shared-memory
# segment of one group unlinked by the other, after which the job hangs. With -multi it is a
# race between the groups: it strikes at some table with concurrent groups, not always the first.
WIN_CREATE_SIGNATURES = (
    re.compile(r"An error occurred in MPI_Win_create(.*\n)*.*MPI_ERR_WIN"),
    re.compile(r"ORTE_ERROR_LOG: .* in file .*show_help\.c"),
    re.compile(r"System call: unlink\(2\) /dev/shm/osc_rdma\."),
)
OSC_HANG_S = 20.0  # the hang is given this long

ALL = (*MPICH_PERSISTENT, *OMPI_OSC_RDMA)


def persistent_bug(mpi: str, version: str, suite: str, benchmark: str) -> KnownBug | None:
    return next((b for b in MPICH_PERSISTENT if b.applies(mpi, version, suite, benchmark)), None)


def aborting(mpi: str, version: str, suite: str, world: int) -> list[str]:
    """Benchmarks that end a run of this suite on `world` ranks (they run on every count up to it)."""
    return sorted(name for bug, first in ABORTS_FROM.items() if bug.applies(mpi, version, suite) and world >= first
                  for name in bug.benchmarks)


def osc_rdma_bug(mpi: str, version: str, suite: str) -> KnownBug | None:
    return next((b for b in OMPI_OSC_RDMA if b.applies(mpi, version, suite)), None)


def reproducers_exist() -> list[str]:
    return [b.reproducer for b in ALL if not (REPRODUCERS / b.reproducer).is_file()]
