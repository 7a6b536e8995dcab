"""`mpimark run --mpi smpi --platform P`: SimGrid's SMPI as an implementation of the front end.

A 16-rank Allreduce on each shipped platform is stored, carries its platform
and is marked simulated; every bad input is one line and exit 2, before
anything is built or launched. The runs need SimGrid and build/smpi (the
smpi_core fixture skips without them); the refusals that come before
SimGrid is looked for need neither.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from mpimark.execution import simulation
from mpimark.storage.store import Store

TIMEOUT_S = 300  # a build of the core (adopting build/smpi) and a 16-rank simulation on 2 loaded cores
ALLREDUCE = ("mpi1", "Allreduce", "-msglog", "0:4", "-iter", "10", "-npmin", "16")


def mpimark(*args: str, env: dict[str, str] | None = None, timeout: float = TIMEOUT_S) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mpimark.cli", *args], capture_output=True, text=True,
                          timeout=timeout, env={**os.environ, **(env or {})})


def one_error(result: subprocess.CompletedProcess) -> str:
    """The one `mpimark: error:` line of a refused command (exit 2), nothing else on stderr."""
    assert "Traceback" not in result.stderr
    assert result.returncode == 2, result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("mpimark: error: "), result.stderr
    return lines[0]


@pytest.fixture
def db(tmp_path) -> Path:
    return tmp_path / "results.db"


@pytest.fixture(scope="module")
def smpirun() -> str:
    found = shutil.which("smpirun")
    if found is None or shutil.which("smpicc") is None:
        pytest.skip("SimGrid is not installed (no smpicc/smpirun): apt-get install libsimgrid-dev")
    return found


def test_mpi_list_shows_smpi_last_and_never_the_default(smpirun):
    result = mpimark("mpi", "list")
    assert result.returncode == 0, result.stderr
    rows = [[cell.strip() for cell in line.strip("│").split("│")] for line in result.stdout.splitlines() if "│" in line]
    names = [row[0] for row in rows[1:]]
    assert names[-1] == "smpi", result.stdout
    row = rows[-1]
    assert row[1] == "SimGrid SMPI" and row[2].startswith("3.") and row[3] == "3.1" and row[4] == smpirun
    if len(names) > 1:  # the default (the first) is a real MPI
        assert names[0] != "smpi"


@pytest.mark.parametrize("platform", ["flat", "fattree", "torus"])
def test_a_simulated_allreduce_is_stored_with_its_platform(smpi_core, platform, db):
    result = mpimark("run", *ALLREDUCE, "-n", "16", "--mpi", "smpi", "--platform", platform, "--db", str(db),
                     "--quiet")
    assert result.returncode == 0, result.stderr
    with Store(db) as store:
        (row,) = store.runs()
        results = list(store.iter_results(row.id))
    assert row.status == "complete" and row.processes == 16
    assert {r["benchmark"] for r in results} == {"Allreduce"} and len(results) == row.results > 0
    sim = row.simulation
    assert sim["simulator"] == "SimGrid SMPI"
    setup = sim["setup"]
    assert setup["platform"]["name"] == platform and setup["platform"]["shipped"] is True
    assert len(setup["platform"]["sha256"]) == 64 and setup["platform"]["hosts"] >= 16
    assert setup["coll_selector"] == simulation.DEFAULT_COLL_SELECTOR and setup["ranks_per_host"] == 1
    assert setup["simulate_computation"] is False
    # The stored launch names the host file, never the hosts: it does not grow with -n.
    assert row.launch_command[0].endswith("smpirun") and "-hostfile" in row.launch_command
    assert not any(word.startswith("node-") for word in row.launch_command)
    assert not Path(row.launch_command[row.launch_command.index("-hostfile") + 1]).exists()  # gone with the launch
    listed = mpimark("runs", "--db", str(db))
    assert listed.returncode == 0 and "simulated" in listed.stdout, listed.stdout


def test_ranks_per_host_fill_hosts_in_order(smpi_core, db):
    result = mpimark("run", *ALLREDUCE, "-n", "16", "--ppn", "4", "--mpi", "smpi", "--platform", "fattree",
                     "--db", str(db), "--quiet")
    assert result.returncode == 0, result.stderr
    with Store(db) as store:
        (row,) = store.runs()
    assert row.simulation["setup"]["ranks_per_host"] == 4
    # What the core saw: 4 simulated hosts of 4 ranks each (the host file's consecutive ranks).
    assert (row.processes, row.nodes, row.ranks_per_node) == (16, 4, [4, 4, 4, 4])


def write_hostfile(ppn: int, processes: int, hosts: int) -> list[str]:
    class Platform:  # what write_hostfile reads of a platforms.Platform
        name = "test"
        host_count = hosts

        @staticmethod
        def host_names():
            return (f"h{i}" for i in range(hosts))

    path = Path(os.environ.get("TMPDIR", "/tmp")) / f"mpimark-test-hostfile-{os.getpid()}"
    try:
        simulation.write_hostfile(simulation.Simulation(Platform(), ppn=ppn), processes, path)
        return path.read_text().splitlines()
    finally:
        path.unlink(missing_ok=True)


def test_the_host_file_holds_one_line_per_rank_ppn_per_host():
    assert write_hostfile(1, 3, 8) == ["h0", "h1", "h2"]
    assert write_hostfile(2, 5, 8) == ["h0", "h0", "h1", "h1", "h2"]


# ------------------------------------------------------------------ bad input


@pytest.mark.parametrize("option", [("--platform", "flat"), ("--coll-selector", "mpich")])
def test_simulation_options_without_smpi_are_refused(option, db):
    line = one_error(mpimark("run", "PingPong", "-n", "2", *option, "--db", str(db)))
    assert f"{option[0]} is for simulated runs: give --mpi smpi" in line
    assert not db.exists()


def test_smpi_without_a_platform_names_the_shipped_ones(db):
    line = one_error(mpimark("run", "PingPong", "-n", "2", "--mpi", "smpi", "--db", str(db)))
    assert "give --platform NAME|FILE" in line and "torus, fattree, flat" in line


def test_smpi_where_simgrid_is_not_installed(tmp_path, db):
    result = mpimark("run", "PingPong", "-n", "2", "--mpi", "smpi", "--platform", "flat", "--db", str(db),
                     env={"MPIMARK_SMPI_PATH": str(tmp_path / "no-simgrid")})
    assert one_error(result) == "mpimark: error: SimGrid SMPI is not installed: apt-get install libsimgrid-dev"


def platform_file(tmp_path: Path, name: str, text: str | None) -> str:
    path = tmp_path / name
    if text is not None:
        path.write_text(text)
    return str(path)


@pytest.mark.parametrize("name, text, says", [
    ("missing.xml", None, "no such file"),
    ("garbage.xml", "this is not XML <", "not XML"),
    ("other.xml", "<?xml version='1.0'?><html><body/></html>", "not a SimGrid <platform>"),
    ("empty.xml", "<?xml version='1.0'?><platform version='4.1'><zone id='z' routing='Full'/></platform>",
     "no <host> or <cluster>"),
])
def test_a_platform_that_is_not_a_simgrid_platform(smpirun, tmp_path, db, name, text, says):
    path = platform_file(tmp_path, name, text)
    line = one_error(mpimark("run", "PingPong", "-n", "2", "--mpi", "smpi", "--platform", path, "--db", str(db)))
    assert f"--platform {path}" in line and says in line
    assert not db.exists()


def test_an_unreadable_platform_file(smpirun, tmp_path, db):
    if os.geteuid() == 0:
        pytest.skip("root reads any file")
    path = platform_file(tmp_path, "secret.xml", "<platform/>")
    os.chmod(path, 0)
    line = one_error(mpimark("run", "PingPong", "-n", "2", "--mpi", "smpi", "--platform", path, "--db", str(db)))
    assert "cannot read it" in line


def test_more_ranks_than_hosts_asks_for_ranks_per_host(smpirun, db):
    line = one_error(mpimark("run", "PingPong", "-n", "100", "--mpi", "smpi", "--platform", "fattree",
                             "--db", str(db)))
    assert line == ("mpimark: error: the platform fattree has 64 hosts; -n 100 at 1 rank(s) per host needs 100 "
                    "hosts: give --ppn 2 (ranks per simulated host) or a larger platform")
    assert not db.exists()


@pytest.mark.parametrize("option", [("--hosts", "a,b"), ("--bind", "core"), ("--launcher", "srun")])
def test_options_for_real_processes_are_refused_in_a_simulation(smpirun, db, option):
    line = one_error(mpimark("run", "PingPong", "-n", "2", "--mpi", "smpi", "--platform", "flat", *option,
                             "--db", str(db)))
    assert option[0] in line


@pytest.mark.parametrize("command", [
    ("matrix", "--mpi", "smpi", "-n", "2", "PingPong"),
    ("startup", "--mpi", "smpi", "-n", "2"),
    ("submit", "--mpi", "smpi", "-n", "2", "--nodes", "1", "--ntasks-per-node", "2", "PingPong"),
    ("algorithms", "list", "--mpi", "smpi"),
])
def test_commands_that_launch_no_simulation_refuse_smpi(smpirun, command, db):
    line = one_error(mpimark(*command))
    assert "runs only with 'mpimark run --mpi smpi --platform P'" in line


def test_a_coll_selector_not_offered_is_refused(db):
    result = mpimark("run", "PingPong", "-n", "2", "--mpi", "smpi", "--platform", "flat", "--coll-selector", "ompi",
                     "--db", str(db))
    assert result.returncode == 2 and "Invalid value for '--coll-selector': 'ompi'" in result.stderr


def test_a_platform_simgrid_rejects_fails_in_one_line_saying_why(smpi_core, tmp_path, db):
    # Valid XML with a <cluster>, so mpimark takes it; SimGrid's parser refuses the speed.
    path = platform_file(tmp_path, "bad.xml", "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM "
                         "'https://simgrid.org/simgrid.dtd'>\n<platform version='4.1'>\n<cluster id='c' "
                         "prefix='n' suffix='' radical='0-3' speed='fast' bw='1GBps' lat='1us'/>\n</platform>\n")
    result = mpimark("run", "PingPong", "-n", "2", "--mpi", "smpi", "--platform", path, "--db", str(db))
    assert result.returncode == 1 and "Traceback" not in result.stderr
    errors = [line for line in result.stderr.splitlines() if line.startswith("mpimark: error: ")]
    assert len(errors) == 1 and "before the core started: Parse error at" in errors[0], result.stderr
    assert "cannot parse number:fast" in errors[0]


def test_simgrids_own_error_line_is_the_reason_not_its_exit_epilogue():
    from mpimark.execution.launcher_stderr import reason
    assert reason(["[n0:0:(1) 0.000000] ./src/smpi/internals/smpi_global.cpp:341: [root/CRITICAL] Cannot read "
                   "from /x/core. Please make sure that the file exists and is executable.",
                   "Backtrace (displayed in actor 0):", "Aborted", "Execution failed with code 134."]) == \
        "Cannot read from /x/core. Please make sure that the file exists and is executable."
    assert reason(["[smpirun] ** error: the file 'p.xml' does not exist. Aborting."]) == \
        "the file 'p.xml' does not exist. Aborting."


def test_the_setup_is_handed_to_the_core_as_json():
    argv, env = simulation.command("smpirun", simulation.Prepared(simulation.Simulation(_Tiny()), Path("/h")), 2,
                                   "core", "mpi1", ["PingPong"], "out.jsonl")
    setup = json.loads(env[simulation.SETUP_ENV])
    assert setup["platform"] == _Tiny().describe() and setup["smpirun"].startswith("smpirun -platform tiny.xml")
    assert argv[:6] == ["smpirun", "-platform", "tiny.xml", "-hostfile", "/h", "-np"]
    assert "--cfg=smpi/simulate-computation:no" in argv and argv[-2:] == ["-json", "out.jsonl"]


class _Tiny:
    name, path, host_count = "tiny", "tiny.xml", 2

    def describe(self) -> dict:
        return {"name": self.name, "file": self.path, "hosts": self.host_count}
