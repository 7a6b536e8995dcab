"""`mpimark algorithms` under the real MPIs of this machine: the helpers of tests/tools (a user's
environment, `python -m mpimark.cli` with a time limit, Open MPI yielding when idle)."""

from tests.tools.conftest import available, error_line, mpimark, ok, setup_env  # noqa: F401
