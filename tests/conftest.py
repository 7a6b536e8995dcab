"""What every test directory shares: the markers' effects and the `need` fixture.

The markers (mpi, network, browser, slow) are declared in pyproject.toml. Every
test of a directory in MPI_DIRECTORIES is marked `mpi` here, so a new test
file there needs no mark of its own; `slow` tests run only with
MPIMARK_SLOW=1.

`need(name)` skips a test when the named implementation is missing; each
directory's conftest provides the `available` mapping it draws from (they set
up their environments differently).

Every test that uses the front end's modules directly gets the benchmark facts
as the command line does: from the built core (records/benchmarks.py).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from mpimark.execution import mpi
from mpimark.execution.core import benchmark_facts
from mpimark.records import benchmarks

benchmarks.use_core_facts(benchmark_facts)

# Open MPI's mpiexec waits odls_base_sigkill_timeout (1 s, twice) between
# SIGTERM and SIGKILL whenever a rank exits non-zero, even when every rank
# has already gone: about 2 s of nothing after each of the many launches
# here that end in a core error. The tests do not depend on that grace.
os.environ.setdefault("OMPI_MCA_odls_base_sigkill_timeout", "0")

TESTS = Path(__file__).parent
MPI_DIRECTORIES = ("integration", "suites", "tools", "io", "frontend", "placement", "slurm", "algorithms",
                   "rigour", "simulation")


# Session fixtures holding MPI runs that several test files share: under
# pytest-xdist (scripts/test.sh: --dist loadgroup) the tests using one of them
# go to one worker, which launches each run once.
SHARED_RUN_FIXTURES = ("full_run", "cached_run", "suite_run")


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook reads the xdist_group marks
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    run_slow = os.environ.get("MPIMARK_SLOW") == "1"
    skip_slow = pytest.mark.skip(reason="slow test: set MPIMARK_SLOW=1 to run it")
    for item in items:
        relative = Path(item.path).relative_to(TESTS)
        if relative.parts[0] in MPI_DIRECTORIES:
            item.add_marker(pytest.mark.mpi)
        if "slow" in item.keywords and not run_slow:
            item.add_marker(skip_slow)
        item.add_marker(pytest.mark.xdist_group(xdist_group_of(item, relative)))


def xdist_group_of(item: pytest.Item, relative: Path) -> str:
    """The unit one xdist worker runs whole: the test's file (its module
    fixtures are set up once), or all the tests sharing a session's runs."""
    shared = [name for name in SHARED_RUN_FIXTURES if name in getattr(item, "fixturenames", ())]
    return f"shared-{shared[0]}" if shared else relative.as_posix()


@pytest.fixture
def need(available):
    def need(name: str) -> mpi.MpiImpl:
        if name not in available:
            pytest.skip(f"no {name} on this machine")
        return available[name]

    return need


def session_shared_dir(tmp_path_factory, name: str) -> Path:
    """A directory of this test session, the same for all its xdist workers.

    Under pytest-xdist (scripts/test.sh) every worker is a session of its own
    with a base temp of its own (popen-gw0, popen-gw1, ...) under one root:
    the directory is made there, so the workers share what they build
    (ensure_core locks a build directory, the facts cache is written
    atomically) instead of building each core once per worker."""
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent
    path = base / name
    path.mkdir(exist_ok=True)
    return path


@pytest.fixture(scope="session", autouse=True)
def private_build_cache(tmp_path_factory):
    """XDG_CACHE_HOME in a directory of this session: the cores mpimark builds for the
    tests (and their facts) stay out of the user's cache and are built afresh once.

    Autouse for the whole session, set before the first test: were it set only by
    some directories, the ones before them (tests/algorithms) would build MPICH's
    and Intel MPI's cores into the user's cache and the later ones build them again
    here (about 25 s each on 2 loaded cores), and which cache a directory used would
    depend on what ran before it. The xdist workers of one session share it."""
    saved = os.environ.get("XDG_CACHE_HOME")
    os.environ["XDG_CACHE_HOME"] = str(session_shared_dir(tmp_path_factory, "cache"))
    yield
    if saved is None:
        del os.environ["XDG_CACHE_HOME"]
    else:
        os.environ["XDG_CACHE_HOME"] = saved


@pytest.fixture(scope="session")
def system_mpis(private_build_cache) -> dict[str, mpi.MpiImpl]:
    """Every MPI implementation mpimark finds on this machine, by name; not SimGrid's SMPI, a simulator
    (tests/simulation)."""
    return {impl.name: impl for impl in mpi.discover()[0] if impl.kind != mpi.SMPI}
