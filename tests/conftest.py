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

TESTS = Path(__file__).parent
MPI_DIRECTORIES = ("integration", "suites", "tools", "io", "frontend", "placement", "slurm", "rigour")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    run_slow = os.environ.get("MPIMARK_SLOW") == "1"
    skip_slow = pytest.mark.skip(reason="slow test: set MPIMARK_SLOW=1 to run it")
    for item in items:
        directory = Path(item.path).relative_to(TESTS).parts[0]
        if directory in MPI_DIRECTORIES:
            item.add_marker(pytest.mark.mpi)
        if "slow" in item.keywords and not run_slow:
            item.add_marker(skip_slow)


@pytest.fixture
def need(available):
    def need(name: str) -> mpi.MpiImpl:
        if name not in available:
            pytest.skip(f"no {name} on this machine")
        return available[name]

    return need
