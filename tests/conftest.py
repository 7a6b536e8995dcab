"""Fixtures shared by the test directories that drive real MPI installations.

`need(name)` skips a test when the named implementation is missing; each
directory's conftest provides the `available` mapping it draws from (they set
up their environments differently).

Every test that uses the front end's modules directly gets the benchmark facts
as the command line does: from the built core (records/benchmarks.py).
"""

from __future__ import annotations

import pytest

from mpimark.execution import mpi
from mpimark.execution.core import benchmark_facts
from mpimark.records import benchmarks

benchmarks.use_core_facts(benchmark_facts)


@pytest.fixture
def need(available):
    def need(name: str) -> mpi.MpiImpl:
        if name not in available:
            pytest.skip(f"no {name} on this machine")
        return available[name]

    return need
