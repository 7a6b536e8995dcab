"""Shared machinery of the integration tests: the environment written by
scripts/setup.sh, a bounded way to run the core under the MPI launcher, the
reading of its stderr and JSON stream (all in corerun.py, importable by other
test packages), and cached runs that several test files share."""

from __future__ import annotations


import pytest

from . import imbtext
from .corerun import *  # noqa: F401,F403 - the test files import the helpers from here
from .corerun import CORE, CoreRun, load_env, run_core

# The short plan every shared run uses: sizes 0..16 bytes, at most 50
# iterations. Here -time only caps the iterations (at 1 + time / t_iter,
# far above 50) and sets the time-out limit of a table ((sizes - 1) * time):
# IMB's 10 s keeps oversubscribed runs on a loaded machine clear of
# time-out rows without making any run longer.
SHORT = ("-msglog", "0:4", "-time", "10", "-iter", "50")
INCLUDE_ALL = ("-include", ",".join(imbtext.NON_DEFAULT))


@pytest.fixture(scope="session", autouse=True)
def mpimark_env() -> None:
    load_env()
    if not CORE.is_file():
        pytest.fail(f"{CORE} is missing: run 'bash scripts/setup.sh' first", pytrace=False)


# --- shared runs ------------------------------------------------------------------------

@pytest.fixture(scope="session")
def full_run():
    """full_run(n): every MPI-1 benchmark (defaults + the non-default ones)
    at n ranks with the SHORT plan and -json; one launch per n per session."""
    cache: dict[int, CoreRun] = {}

    def get(n: int) -> CoreRun:
        if n not in cache:
            cache[n] = run_core(n, "mpi1", *INCLUDE_ALL, *SHORT)
        return cache[n]

    return get


@pytest.fixture(scope="session")
def cached_run():
    """cached_run(n, *args): run_core with json, shared by every test asking the same."""
    cache: dict[tuple, CoreRun] = {}

    def get(n: int, *args: str) -> CoreRun:
        key = (n, *args)
        if key not in cache:
            cache[key] = run_core(n, *args)
        return cache[key]

    return get


