"""Several "hosts" on one machine, reached through a stand-in for ssh, for the placement tests.

scripts/fake-hosts.sh maps mm-node1..3 to 127.0.0.2..4 in /etc/hosts
(scripts/test.sh runs it); scripts/fake-rsh stands where ssh would and runs
the command here, in a UTS namespace named after the host, so ranks started
"on" mm-node1 report mm-node1 as their host. What the launchers need for
that is set here, for the tests only, never as a user-facing default:

- Open MPI: OMPI_MCA_plm_rsh_agent=fake-rsh (mpirun then starts an orted on
  each host through it: it does not take 127.0.0.2 for this machine), and
  its TCP transports on lo (`--mca btl_tcp_if_include lo --mca
  oob_tcp_if_include lo`, given with --launcher-arg): ranks on different
  "hosts" cannot share memory, and Open MPI leaves the loopback interface
  out of TCP by default, which on a machine with nothing but lo leaves none;
- hydra (MPICH): HYDRA_LAUNCHER=ssh, HYDRA_LAUNCHER_EXEC=fake-rsh.

The tests skip, saying why, where the names do not resolve or the stand-in
cannot name the hosts (not root, no unshare).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from mpimark.execution import mpi

ROOT = Path(__file__).resolve().parents[2]
FAKE_RSH = ROOT / "scripts" / "fake-rsh"
HOSTS = ("mm-node1", "mm-node2", "mm-node3")
TIMEOUT_S = 300
MPIS = ("openmpi", "mpich")
# Per kind: the environment of the mpimark process, and launcher words, that reach the fake hosts.
LAUNCHER_ENV = {
    "openmpi": {"OMPI_MCA_plm_rsh_agent": str(FAKE_RSH), "OMPI_MCA_mpi_yield_when_idle": "1"},
    "mpich": {"HYDRA_LAUNCHER": "ssh", "HYDRA_LAUNCHER_EXEC": str(FAKE_RSH)},
}
LAUNCHER_ARGS = {
    "openmpi": ["--mca", "btl_tcp_if_include", "lo", "--mca", "oob_tcp_if_include", "lo"],
    "mpich": [],
}


@pytest.fixture(scope="session")
def available(system_mpis) -> dict[str, mpi.MpiImpl]:
    return system_mpis


@pytest.fixture(scope="session")
def fake_hosts() -> tuple[str, ...]:
    for host in HOSTS:
        try:
            socket.getaddrinfo(host, None)
        except OSError:
            pytest.skip(f"{host} does not resolve: run 'bash scripts/fake-hosts.sh' as root (scripts/test.sh does)")
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        pytest.skip("scripts/fake-rsh needs root and unshare to give each fake host its own host name")
    probe = subprocess.run([str(FAKE_RSH), HOSTS[0], "hostname"], capture_output=True, text=True, timeout=30)
    if probe.stdout.strip() != HOSTS[0]:
        pytest.skip(f"scripts/fake-rsh cannot name a UTS namespace here: {probe.stderr.strip() or probe.stdout}")
    return HOSTS


@pytest.fixture
def rsh_log(tmp_path, monkeypatch) -> Path:
    """Where fake-rsh writes each call (host and command), to see that the launcher went through it."""
    path = tmp_path / "rsh.log"
    monkeypatch.setenv("MPIMARK_FAKE_RSH_LOG", str(path))
    return path


def mpimark(impl: mpi.MpiImpl, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """`mpimark ARGS` with what impl's launcher needs to reach the fake hosts."""
    return subprocess.run([sys.executable, "-m", "mpimark.cli", *args], capture_output=True, text=True,
                          timeout=TIMEOUT_S, env={**os.environ, **LAUNCHER_ENV[impl.kind], **(env or {})})


def launcher_args(impl: mpi.MpiImpl) -> list[str]:
    return [f"--launcher-arg={word}" for word in LAUNCHER_ARGS[impl.kind]]
