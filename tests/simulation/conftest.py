"""What the simulation tests share: the core built for SimGrid's SMPI
(build/smpi, by scripts/setup.sh when smpicc exists), a small flat platform
with its host file, and a bounded way to launch the core under smpirun.

The tests here are marked `mpi` by tests/conftest.py (MPI_DIRECTORIES) and
skip, saying why, where SimGrid or the SMPI build is missing."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SMPI_CORE = ROOT / "build" / "smpi" / "mpimark-core"

# What mpimark passes smpirun by default (docs/core.md, "The core under SimGrid SMPI"):
# no simulated computation (the ranks' own CPU time is not charged), MPICH-like
# collectives (the default selector's naive algorithms take minutes at start-up),
# and SimGrid's own configuration chatter silenced; its warnings stay.
SMPIRUN_CFG = ("--cfg=smpi/simulate-computation:no", "--cfg=smpi/coll-selector:mpich",
               "--log=xbt_cfg.thres:warning", "--log=smpi_config.thres:error")
DEFAULT_TIMEOUT = 120.0


@pytest.fixture(scope="session")
def smpi_core() -> Path:
    """build/smpi/mpimark-core, or a skip naming what is missing."""
    if shutil.which("smpirun") is None:
        pytest.skip("SimGrid is not installed (no smpirun): apt-get install libsimgrid-dev")
    if not SMPI_CORE.is_file():
        pytest.skip(f"{SMPI_CORE} is missing: run 'bash scripts/setup.sh' (it builds build/smpi when smpicc exists)")
    return SMPI_CORE


FLAT_PLATFORM = """<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <!-- A test platform: {hosts} hosts of 1 Gflop/s, each on its own 10 GB/s, 1 us link to one backbone. -->
  <cluster id="test" prefix="host-" suffix="" radical="0-{last}" speed="1Gf"
           bw="10GBps" lat="1us" bb_bw="100GBps" bb_lat="0us"/>
</platform>
"""


@dataclass
class Platform:
    xml: Path
    hostfile: Path
    hosts: int


def write_flat_platform(directory: Path, hosts: int = 4) -> Platform:
    """A flat cluster of `hosts` hosts and its host file (one name a line) in directory."""
    directory.mkdir(parents=True, exist_ok=True)
    xml = directory / f"flat{hosts}.xml"
    xml.write_text(FLAT_PLATFORM.format(hosts=hosts, last=hosts - 1))
    hostfile = directory / f"flat{hosts}.hosts"
    hostfile.write_text("".join(f"host-{i}\n" for i in range(hosts)))
    return Platform(xml, hostfile, hosts)


@pytest.fixture
def flat_platform(tmp_path) -> Platform:
    """A 4-host flat platform in the test's directory."""
    return write_flat_platform(tmp_path / "platform", 4)


@dataclass
class SmpiRun:
    argv: list[str]
    returncode: int | None  # None: killed at the time-out
    stdout: str
    stderr: str

    def error_lines(self) -> list[str]:
        """The core's one-line errors (`mpimark-core: error: ...`) on stderr."""
        return [line for line in self.stderr.splitlines() if line.startswith("mpimark-core: error:")]

    def describe(self) -> str:
        return f"{' '.join(self.argv)}\nexit {self.returncode}\nstderr (tail):\n{self.stderr[-3000:]}"


def run_smpi(core: Path, platform: Platform, np: int, *args: str, env: dict | None = None,
             timeout: float = DEFAULT_TIMEOUT, cfg: tuple[str, ...] = SMPIRUN_CFG) -> SmpiRun:
    """`smpirun -platform P -hostfile H -np N CFG core ARGS`, killed (its whole
    process group) past timeout so a hung simulation never hangs the suite."""
    argv = ["smpirun", "-platform", str(platform.xml), "-hostfile", str(platform.hostfile), "-np", str(np),
            *cfg, str(core), *args]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                            env={**os.environ, **(env or {})}, start_new_session=True,
                            cwd=platform.xml.parent)
    try:
        out, err = proc.communicate(timeout=timeout)
        code: int | None = proc.returncode
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        code = None
    return SmpiRun(argv, code, out.decode(errors="replace"), err.decode(errors="replace"))
