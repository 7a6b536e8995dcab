"""The one-sided and nonblocking suites (ext, rma, nbc, mpi4) run by the real
core at 2, 3 and 4 ranks under Open MPI and at 2 and 4 under MPICH.

Open MPI runs build/core (scripts/setup.sh) through scripts/mpiexec.sh, as
tests/integration does; MPICH runs the core the front end builds for it
(mpimark.execution.build.ensure_core, in the session's build cache of
tests/conftest.py) with MPICH's own launcher and the flags mpimark gives it. The machinery (run_core, the IMB
text parser, the text-vs-JSON comparison) is tests/integration's.

Every (MPI, suite, ranks) case is one core run of every benchmark of the
suite, the non-default ones included, with -check; the tests share it.
"""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from integration import imbtext
from integration.corerun import CORE, MPIEXEC, CoreRun, load_env, run_core, scratch_dir

from . import known_bugs

RANKS = (2, 3, 4)
SUITES = ("ext", "rma", "nbc", "mpi4")
MPIS = ("openmpi", "mpich")

# Open MPI yields when oversubscribed: sizes 0..64 bytes, 20 iterations (also in
# non-aggregate mode and for Window, the -iter's third number), and IMB's 10 s
# per size, which here only sets the time-out limit, so load on the machine
# cannot turn rows into time-outs.
PLAN = ("-msglog", "0:4", "-iter", "20,40,20", "-time", "10")
# MPICH busy-polls: on 3 or 4 ranks over 2 cores every collective call waits
# for a descheduled rank (~10 ms each, measured; MPIR_CVAR_POLLS_BEFORE_YIELD,
# MPIR_CVAR_CH4_GLOBAL_PROGRESS and -bind-to none did not help). There the
# plan is one message size and 2 iterations, exactly (no calibration or
# warm-up), which still checks every benchmark's data at every process count.
MPICH_OVERSUBSCRIBED_PLAN = ("-msgsize", "64", "-iter", "2,40,2", "-iter_policy", "off", "-warm_up", "off",
                             "-time", "10")
RUN_TIMEOUT = 300.0


@dataclass(frozen=True)
class Mpi:
    name: str            # openmpi | mpich
    version: str         # the library's version, "4.1.4"
    standard: tuple[int, int]
    core: Path
    mpiexec: list[str]   # for Open MPI: scripts/mpiexec.sh; else the launcher and its flags

    def launcher(self, n: int) -> list[str]:
        if self.name == "openmpi":
            return ["bash", str(MPIEXEC), str(n)]
        from mpimark.execution.mpi import cores, find, launch_flags
        return [*self.mpiexec, *launch_flags(find(self.name), n, cores()), "-n", str(n)]

    def oversubscribed(self, n: int) -> bool:
        return n > (os.cpu_count() or 1)

    def plan(self, n: int) -> tuple[str, ...]:
        return MPICH_OVERSUBSCRIBED_PLAN if self.name == "mpich" and self.oversubscribed(n) else PLAN


def _discover(name: str) -> Mpi | None:
    load_env()
    from mpimark.execution import build
    from mpimark.execution import mpi
    try:
        impl = mpi.find(name)
    except mpi.MpiError:
        return None
    if impl.name != name:
        return None
    standard = tuple(int(x) for x in impl.standard_version.split(".")[:2])
    if name == "openmpi":
        # build/core is scripts/setup.sh's build with the default MPI; the run record tells which it is.
        return Mpi(name, impl.version, standard, CORE, [])
    return Mpi(name, impl.version, standard, build.ensure_core(impl), [impl.mpiexec])


_mpis: dict[str, Mpi | None] = {}


def get_mpi(name: str) -> Mpi:
    if name not in _mpis:
        _mpis[name] = _discover(name)
    found = _mpis[name]
    if found is None:
        pytest.skip(f"no {name} on this machine")
    return found


_probes: dict[tuple[str, str], Path] = {}


def preload_probe(mpi_name: str, source: str) -> tuple[Mpi, Path]:
    """The MPI and tests/suites/SOURCE (an MPI profiling-interface shim) built with that MPI's own
    mpicc as a library for LD_PRELOAD, once per session."""
    mpi = get_mpi(mpi_name)
    if (mpi_name, source) not in _probes:
        from mpimark.execution.mpi import find
        out = scratch_dir() / f"{Path(source).stem}-{mpi_name}.so"
        done = subprocess.run([find(mpi_name).mpicc, "-shared", "-fPIC", "-O1", "-o", str(out),
                               str(Path(__file__).resolve().parent / source)],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        _probes[(mpi_name, source)] = out
    return mpi, _probes[(mpi_name, source)]


def non_default(suite: str) -> list[str]:
    return imbtext.SUITES[suite].non_default


def suite_args(mpi: Mpi, suite: str, n: int) -> list[str]:
    """Every benchmark of the suite, defaults and the rest, with -check and the plan;
    without those a known bug makes end the run (they get a test of their own)."""
    args = [suite]
    if non_default(suite):
        args += ["-include", ",".join(non_default(suite))]
    left_out = known_bugs.aborting(mpi.name, mpi.version, suite, n)
    if left_out:
        args += ["-exclude", ",".join(left_out)]
    return [*args, "-check", *mpi.plan(n)]


def run_with(mpi: Mpi, n: int, *args: str, timeout: float = RUN_TIMEOUT, env: dict | None = None,
             allow_timeout: bool = False, program: list[str] | None = None) -> CoreRun:
    """run_core under this MPI; program: a wrapper and the core instead of the core."""
    return run_core(n, *args, timeout=timeout, env=env, program=program or [str(mpi.core)],
                    launcher=mpi.launcher(n), allow_timeout=allow_timeout)


@dataclass
class SuiteRun:
    mpi: Mpi
    suite: str
    n: int
    run: CoreRun
    left_out: list[str]

    @property
    def rules(self) -> imbtext.Suite:
        return imbtext.SUITES[self.suite]

    @property
    def expected_list(self) -> list[str]:
        return [b for b in self.rules.all if b not in self.left_out]


_runs: dict[tuple[str, str, int], SuiteRun] = {}


@pytest.fixture(scope="session")
def suite_run():
    """suite_run(mpi, suite, n): the shared run of that case (one launch per session)."""

    def get(mpi_name: str, suite: str, n: int) -> SuiteRun:
        key = (mpi_name, suite, n)
        if key not in _runs:
            mpi = get_mpi(mpi_name)
            if suite == "mpi4" and mpi.standard < (4, 0):
                pytest.skip(f"{mpi_name} {mpi.version} implements MPI {mpi.standard[0]}.{mpi.standard[1]}: "
                            "no mpi4 suite (test_mpi4_on_an_mpi3_library covers it)")
            args = suite_args(mpi, suite, n)
            left_out = known_bugs.aborting(mpi.name, mpi.version, suite, n)
            _runs[key] = SuiteRun(mpi, suite, n, run_with(mpi, n, *args), left_out)
        return _runs[key]

    return get


# Odd counts (3) under Open MPI only: MPICH's ranks busy-poll, so its
# oversubscribed runs cost most of this directory's time; 4 ranks already
# runs MPICH oversubscribed.
CASES = [(m, s, n) for m in MPIS for s in SUITES for n in RANKS if not (m == "mpich" and n == 3)]


def case_id(case: tuple[str, str, int]) -> str:
    return "-".join(map(str, case))
