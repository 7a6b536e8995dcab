"""Fixtures shared by the test directories that drive real MPI installations.

`need(name)` skips a test when the named implementation is missing; each
directory's conftest provides the `available` mapping it draws from (they set
up their environments differently).
"""

from __future__ import annotations

import pytest

from mpimark.execution import mpi


@pytest.fixture
def need(available):
    def need(name: str) -> mpi.MpiImpl:
        if name not in available:
            pytest.skip(f"no {name} on this machine")
        return available[name]

    return need
