"""Slurm without Slurm: srun's choice, the batch script, a job's fate, submit and collect,
with scontrol, sacct, sbatch, scancel and srun replaced by small scripts on PATH."""

from __future__ import annotations

import dataclasses
import json
import sqlite3
import subprocess
from pathlib import Path

import pytest

from mpimark.commands import slurm_cmds
from mpimark.execution import slurm
from mpimark.execution.mpi import MpiImpl
from mpimark.storage import store as store_module
from mpimark.storage.store import MIGRATIONS, Store, StoreError

from .cli_helpers import assert_one_error_line, invoke
from .conftest import store_records
from .records import end_record, event_record, result_record, run_record

IMPL = MpiImpl(name="openmpi", kind="openmpi", vendor="Open MPI", version="5.0.11", standard_version="3.1",
               library_version="Open MPI v5.0.11", mpicc="/usr/bin/mpicc.openmpi", mpiexec="/usr/bin/mpiexec.openmpi",
               prefix="/usr", source="system", env={"OMPI_MCA_btl": "self,vader"})
RECORDS = [run_record(), event_record(), result_record(bytes=0), result_record(), end_record()]


@pytest.fixture
def fake_bin(tmp_path, monkeypatch):
    """A directory first on PATH; fake_bin(name, script) puts a shell script there."""
    directory = tmp_path / "bin"
    directory.mkdir()
    monkeypatch.setenv("PATH", f"{directory}:/usr/bin:/bin")

    def add(name: str, body: str) -> Path:
        path = directory / name
        path.write_text("#!/bin/sh\n" + body + "\n")
        path.chmod(0o755)
        return path

    slurm.plugins.cache_clear()
    yield add
    slurm.plugins.cache_clear()


def scontrol_says(fake_bin, line: str | None, *, down: bool = False) -> None:
    if down:
        fake_bin("scontrol", 'echo "slurm_load_jobs error: Unable to contact slurm controller (connect failure)" >&2'
                             "; exit 1")
    elif line is None:
        fake_bin("scontrol", 'echo "slurm_load_jobs error: Invalid job id specified" >&2; exit 1')
    else:
        fake_bin("scontrol", f"echo '{line}'")
    fake_bin("sacct", 'echo "Slurm accounting storage is disabled" >&2; exit 1')


def job_line(job_id: str, state: str, reason: str = "None", exit_code: str = "0:0") -> str:
    return (f"JobId={job_id} JobName=mpimark-mpi1 UserId=root(0) JobState={state} Reason={reason} "
            f"Dependency=(null) ExitCode={exit_code} Command=/tmp/a b/job.sbatch WorkDir=/tmp/a b")


# ---------------------------------------------------------------- launcher


def test_srun_is_refused_outside_an_allocation_and_without_srun(fake_bin):
    fake_bin("srun", 'echo "MPI plugin types are..."; echo "	pmix"; echo "	pmi2"')
    with pytest.raises(slurm.SlurmError, match=r"--launcher srun needs a Slurm allocation \(SLURM_JOB_ID is not "
                                               r"set\): run mpimark inside 'salloc -n N'"):
        slurm.resolve("srun", "openmpi", env={"PATH": str(fake_bin("x", "").parent)})
    with pytest.raises(slurm.SlurmError, match="there is no srun on PATH"):
        slurm.resolve("srun", "openmpi", env={"PATH": "/nonexistent", "SLURM_JOB_ID": "7"})


def test_srun_is_chosen_inside_an_allocation_when_it_has_the_plugin(fake_bin):
    path = str(fake_bin("srun", 'echo "MPI plugin types are..."; printf "\\tnone\\n\\tpmi2\\n"').parent)
    inside = {"PATH": path, "SLURM_JOB_ID": "7"}
    assert slurm.resolve(None, "mpich", env=inside) == slurm.Srun(f"{path}/srun", "pmi2", "mpich")
    assert slurm.resolve(None, "openmpi", env=inside) is None  # no pmix here: mpiexec
    assert slurm.resolve(None, "mpich", env={"PATH": path}) is None  # not in an allocation
    assert slurm.resolve("mpiexec", "mpich", env=inside) is None
    with pytest.raises(slurm.SlurmError, match=r"this srun has no 'pmix' MPI plugin \(it has none, pmi2\); "
                                               r"choose one with --srun-mpi"):
        slurm.resolve("srun", "openmpi", env=inside)
    assert slurm.resolve("srun", "openmpi", "pmi2", env=inside).plugin == "pmi2"
    assert slurm.resolve("srun", "openmpi", env={**inside, "SLURM_MPI_TYPE": "pmi2"}).plugin == "pmi2"


def test_the_plugin_follows_the_implementation():
    assert slurm.plugin_for("openmpi", env={}) == "pmix"
    assert slurm.plugin_for("mpich", env={}) == "pmi2"
    assert slurm.plugin_for("impi", env={}) == "pmi2"
    assert slurm.plugin_for("mpich", "pmix", env={}) == "pmix"


def test_srun_with_a_wrong_plugin_says_what_to_try():
    hint = slurm.Srun("srun", "pmix", "mpich").hint
    assert "started each rank on its own" in hint and "try --srun-mpi pmi2" in hint


def test_srun_plugins_of_an_old_slurm_and_pmix_versions(fake_bin):
    srun = fake_bin("srun", 'echo "srun: MPI types are..."; echo "srun: none"; echo "srun: pmi2"')
    assert slurm.plugins(str(srun)) == ["none", "pmi2"]
    slurm.plugins.cache_clear()
    srun = fake_bin("srun", 'printf "MPI plugin types are...\\n\\tpmix\\n\\tnone\\n'
                            'specific pmix plugin versions available: pmix_v4\\n"')
    assert slurm.plugins(str(srun)) == ["pmix", "none", "pmix_v4"]


# -------------------------------------------------------------- batch jobs


def test_the_batch_script(tmp_path):
    files = slurm.JobFiles(tmp_path / "job dir")
    request = slurm.BatchRequest(nodes=2, ntasks_per_node=4, partition="debug", time="10", account=None,
                                 job_name="mpimark-mpi1")
    launch = ["srun", "--mpi=pmix", "--ntasks=8", "./mpimark-core", "mpi1", "-msglog", "0:3", "-json",
              "results.jsonl"]
    script = slurm.batch_script(files, request, launch, {"OMPI_MCA_btl": "self,vader", "X": "a b"}, "one\ntwo")
    lines = script.splitlines()
    assert lines[:3] == ["#!/bin/bash", "# one", "# two"]
    assert "#SBATCH --nodes=2" in lines and "#SBATCH --ntasks-per-node=4" in lines
    assert "#SBATCH --partition=debug" in lines and "#SBATCH --time=10" in lines
    assert not any("--account" in line for line in lines)
    assert f"#SBATCH --output='{files.directory}/slurm-%j.out'" in lines
    assert f"cd '{files.directory}' || exit 1" in lines
    assert "export X='a b'" in lines
    assert ("srun --mpi=pmix --ntasks=8 ./mpimark-core mpi1 -msglog 0:3 -json results.jsonl >stdout.txt "
            "2>stderr.txt") in lines
    assert lines[-1] == 'exit "$status"'
    assert subprocess.run(["bash", "-n"], input=script, text=True).returncode == 0


def test_the_batch_script_runs_and_leaves_its_exit_status(tmp_path, fake_bin):
    fake_bin("srun", 'echo "srun: error: Unable to create step" >&2; exit 7')
    files = slurm.JobFiles(tmp_path / "job")
    files.directory.mkdir()
    script = slurm.batch_script(files, slurm.BatchRequest(nodes=1, ntasks_per_node=2),
                                ["srun", "--ntasks=2", "./core"], {}, "test")
    assert subprocess.run(["bash", "-c", script]).returncode == 7
    assert files.exit_status.read_text() == "7\n"
    assert files.stderr.read_text() == "srun: error: Unable to create step\n"


def test_sbatch_refusing_says_why(fake_bin, tmp_path):
    fake_bin("sbatch", 'echo "sbatch: error: Batch job submission failed: Invalid partition name specified" >&2; '
                       "exit 1")
    with pytest.raises(slurm.SlurmError, match=r"^sbatch refused the job: Invalid partition name specified; "
                                               r"check --partition, --account, --time and --nodes"):
        slurm.sbatch(tmp_path / "job.sbatch")
    fake_bin("sbatch", 'echo "42;cluster1"')
    assert slurm.sbatch(tmp_path / "job.sbatch") == ("42", "cluster1")


# -------------------------------------------------------------- a job's fate


def test_scontrol_lines_are_read_with_spaces_in_values():
    fields = slurm.parse_scontrol(job_line("12", "TIMEOUT", "TimeLimit", "0:15"))
    assert fields["JobState"] == "TIMEOUT" and fields["Reason"] == "TimeLimit" and fields["ExitCode"] == "0:15"
    assert fields["Command"] == "/tmp/a b/job.sbatch"


@pytest.mark.parametrize("state, reason, finished", [
    ("PENDING", "Priority", False), ("RUNNING", None, False), ("COMPLETING", None, False),
    ("TIMEOUT", "TimeLimit", True), ("CANCELLED", None, True), ("COMPLETED", None, True),
    ("NODE_FAIL", "NodeDown", True)])
def test_what_scontrol_says_while_it_remembers_the_job(fake_bin, tmp_path, state, reason, finished):
    scontrol_says(fake_bin, job_line("12", state, reason or "None"))
    answer = slurm.query("12", slurm.JobFiles(tmp_path))
    assert (answer.state, answer.reason, answer.finished, answer.source) == (state, reason, finished, "scontrol")


def test_a_forgotten_job_is_told_by_its_exit_status_file(fake_bin, tmp_path):
    scontrol_says(fake_bin, None)
    files = slurm.JobFiles(tmp_path)
    files.exit_status.write_text("0\n")
    assert slurm.query("12", files) == slurm.JobState("COMPLETED", None, 0, "files")
    files.exit_status.write_text("3\n")
    assert slurm.query("12", files) == slurm.JobState("FAILED", "NonZeroExitCode", 3, "files")


@pytest.mark.parametrize("line, state, reason", [
    ("slurmstepd-vm: error: *** JOB 12 ON vm CANCELLED AT 2026-11-24T03:34:55 DUE TO TIME LIMIT ***", "TIMEOUT",
     "TimeLimit"),
    ("slurmstepd-vm: error: *** JOB 12 ON vm CANCELLED AT 2026-11-24T03:33:25 ***", "CANCELLED", None),
    ("slurmstepd: error: *** JOB 12 ON n1 CANCELLED AT 2026-11-24T03:33:25 DUE TO PREEMPTION ***", "PREEMPTED",
     None)])
def test_a_forgotten_job_ended_by_slurm_is_told_by_slurmstepds_line(fake_bin, tmp_path, line, state, reason):
    scontrol_says(fake_bin, None)
    files = slurm.JobFiles(tmp_path)
    files.slurm_output("12").write_text(f"something\n{line}\n")
    assert slurm.query("12", files) == slurm.JobState(state, reason, None, "files")


def test_a_forgotten_job_that_left_nothing_is_unknown_and_ended(fake_bin, tmp_path):
    scontrol_says(fake_bin, None)
    answer = slurm.query("12", slurm.JobFiles(tmp_path))
    assert answer.state == "UNKNOWN" and answer.finished
    assert answer.describe("12") == ("Slurm job 12 ended unseen (UNKNOWN, reason Slurm no longer knows the job "
                                     "and it left no exit status)")


def test_accounting_answers_when_scontrol_forgot(fake_bin, tmp_path):
    scontrol_says(fake_bin, None)
    fake_bin("sacct", 'echo "CANCELLED by 0|None"')
    assert slurm.query("12", slurm.JobFiles(tmp_path)) == slurm.JobState("CANCELLED", None, None, "sacct")


def test_a_controller_that_cannot_be_asked_is_an_error_unless_the_files_tell(fake_bin, tmp_path):
    scontrol_says(fake_bin, None, down=True)
    files = slurm.JobFiles(tmp_path)
    with pytest.raises(slurm.SlurmError, match="cannot ask Slurm about job 12: .*Unable to contact slurm controller"):
        slurm.query("12", files)
    files.exit_status.write_text("0\n")
    assert slurm.query("12", files).state == "COMPLETED"


# ------------------------------------------------------------------- store


def test_a_version_3_database_keeps_its_runs_results_and_studies(tmp_path):
    path = tmp_path / "v3.db"
    sql = sqlite3.connect(path)
    for migration in MIGRATIONS[:3]:
        for statement in migration:
            sql.execute(statement)
    # A run as mpimark wrote it at version 3: the columns of that version, every record whole in `record`.
    run_id = sql.execute("INSERT INTO runs (started_utc, status, suite, requested_processes, launch_command,"
                         " environment, record_count) VALUES ('2025-01-01T00:00:00Z', 'complete', 'mpi1', 2,"
                         " '[\"mpiexec\"]', '{}', ?)", (len(RECORDS),)).lastrowid
    for seq, record in enumerate(RECORDS):
        if record["type"] == "result":
            sql.execute('INSERT INTO results (run_id, seq, "benchmark", "processes", "bytes", record)'
                        " VALUES (?, ?, ?, ?, ?, ?)", (run_id, seq, record["benchmark"], record["processes"],
                                                      record["bytes"], json.dumps(record)))
        elif record["type"] == "event":
            sql.execute("INSERT INTO events (run_id, seq, record) VALUES (?, ?, ?)", (run_id, seq, json.dumps(record)))
        else:
            sql.execute(f"UPDATE runs SET {record['type']}_seq = ?, {record['type']}_record = ? WHERE id = ?",
                        (seq, json.dumps(record), run_id))
    sql.execute("INSERT INTO study_runs VALUES ('s', 'openmpi', ?, 'now')", (run_id,))
    sql.execute("PRAGMA user_version = 3")
    sql.execute(f"PRAGMA application_id = {store_module.APPLICATION_ID}")
    sql.commit()
    sql.close()
    with Store(path) as store:
        assert store.run(run_id).results == 2 and store.records(run_id) == RECORDS
        assert store.query("SELECT study, run_id FROM study_runs") == [("s", run_id)]
        pending = store.begin_job(launch_command=["srun"], environment={}, mpi_name="openmpi", mpi_prefix="/usr",
                                  requested_processes=2, suite="mpi1", job_id="5", cluster=None,
                                  directory=str(tmp_path), mpi={"name": "openmpi"})
        assert store.run(pending).status == "pending"
        assert store._conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    assert sqlite3.connect(path).execute("PRAGMA foreign_key_check").fetchall() == []


def begin(store: Store, directory: Path) -> int:
    return store.begin_job(launch_command=["srun", "--mpi=pmix", "--ntasks=2", "./mpimark-core", "mpi1"],
                           environment={"OMPI_MCA_btl": "self", "HOME": "/root"}, mpi_name="openmpi",
                           mpi_prefix="/usr", requested_processes=2, suite="mpi1", job_id="12", cluster=None,
                           directory=str(directory), mpi=dataclasses.asdict(IMPL))


def test_a_collection_is_all_or_nothing(tmp_path):
    with Store(tmp_path / "r.db") as store:
        run_id = begin(store, tmp_path)
        with pytest.raises(StoreError, match="cannot store a record of type 'bogus'"):
            store.collect_job(run_id, [*RECORDS[:3], {"type": "bogus"}], "complete", None, "COMPLETED", None)
        with pytest.raises(StoreError, match="already has its run record"):
            store.collect_job(run_id, [RECORDS[0], RECORDS[0]], "complete", None, "COMPLETED", None)
        assert store.records(run_id) == [] and store.run(run_id).status == "pending"
        store.collect_job(run_id, RECORDS, "complete", None, "COMPLETED", None)
        assert len(store.records(run_id)) == len(RECORDS) and store.run(run_id).status == "complete"
        with pytest.raises(StoreError, match="was collected at .* already"):
            store.collect_job(run_id, RECORDS, "complete", None, "COMPLETED", None)
        assert store.jobs(uncollected=True) == []


def test_a_job_goes_from_pending_to_running(tmp_path):
    with Store(tmp_path / "r.db") as store:
        run_id = begin(store, tmp_path)
        store.update_job(run_id, "PENDING", "Resources", "pending")
        assert (store.job(run_id).reason, store.run(run_id).status) == ("Resources", "pending")
        store.update_job(run_id, "RUNNING", None, "running")
        assert (store.job(run_id).state, store.run(run_id).status) == ("RUNNING", "running")
        assert store.run(run_id).environment == {"OMPI_MCA_btl": "self"}  # steering variables only


# --------------------------------------------------------- submit, collect


@pytest.fixture
def submitting(monkeypatch, tmp_path, fake_bin):
    core = tmp_path / "built" / "mpimark-core"
    core.parent.mkdir()
    core.write_text("#!/bin/sh\n")
    monkeypatch.setattr(slurm_cmds.mpi, "find", lambda name=None, prefix=None: IMPL)
    monkeypatch.setattr(slurm_cmds.build, "ensure_core", lambda impl, log: core)
    monkeypatch.chdir(tmp_path)
    fake_bin("srun", 'printf "MPI plugin types are...\\n\\tpmix\\n\\tpmi2\\n"')
    fake_bin("scancel", f'echo "$@" >>{tmp_path}/scancelled')
    return tmp_path


def test_dry_run_prints_the_script_and_leaves_nothing(submitting):
    db = submitting / "r.db"
    result = invoke("submit", "mpi1", "PingPong", "-msglog", "0:3", "--nodes", "2", "--ntasks-per-node", "4",
                    "--time", "10", "--partition", "batch", "--account", "proj1", "--dry-run", "--db", str(db))
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("#!/bin/bash\n")
    for line in ("#SBATCH --nodes=2", "#SBATCH --ntasks-per-node=4", "#SBATCH --time=10",
                 "#SBATCH --partition=batch", "#SBATCH --account=proj1", "export OMPI_MCA_btl=self,vader"):
        assert line in result.stdout.splitlines()
    assert ("srun --mpi=pmix --ntasks=8 --ntasks-per-node=4 ./mpimark-core mpi1 PingPong -msglog 0:3 -json "
            "results.jsonl >stdout.txt 2>stderr.txt") in result.stdout
    assert not db.exists() and not (submitting / "mpimark-jobs").exists()


def test_sbatch_refusing_the_job_leaves_nothing(submitting, fake_bin):
    fake_bin("sbatch", 'echo "sbatch: error: Batch job submission failed: Invalid account" >&2; exit 1')
    db = submitting / "r.db"
    result = invoke("submit", "mpi1", "--nodes", "1", "--ntasks-per-node", "2", "--account", "nope", "--db", str(db))
    line = assert_one_error_line(result)
    assert line.startswith("mpimark: error: sbatch refused the job: Invalid account; check --partition")
    assert list((submitting / "mpimark-jobs").iterdir()) == []
    with Store(db) as store:
        assert store.runs() == []


def test_without_sbatch_submit_says_where_to_go(submitting, monkeypatch):
    monkeypatch.setenv("PATH", str(submitting / "bin"))  # the fakes only: no sbatch
    result = invoke("submit", "mpi1", "--nodes", "1", "--ntasks-per-node", "2", "--db", str(submitting / "r.db"))
    assert "there is no sbatch on PATH" in assert_one_error_line(result)
    assert not (submitting / "r.db").exists()


def test_a_plugin_this_slurm_lacks_is_refused(submitting):
    result = invoke("submit", "mpi1", "--nodes", "1", "--ntasks-per-node", "2", "--srun-mpi", "cray_shasta",
                    "--db", str(submitting / "r.db"))
    assert "has no 'cray_shasta' MPI plugin (it has pmix, pmi2)" in assert_one_error_line(result)


def submit_one(submitting, fake_bin) -> tuple[Path, int, slurm.JobFiles]:
    fake_bin("sbatch", 'echo 12')
    db = submitting / "r.db"
    result = invoke("submit", "mpi1", "PingPong", "--nodes", "1", "--ntasks-per-node", "2", "--db", str(db))
    assert result.exit_code == 0, result.output
    assert result.stdout == "run 1: Slurm job 12\n"
    (directory,) = (submitting / "mpimark-jobs").iterdir()
    return db, 1, slurm.JobFiles(directory)


def test_submit_stores_a_pending_run_beside_its_files(submitting, fake_bin):
    db, run_id, files = submit_one(submitting, fake_bin)
    assert files.script.is_file() and files.core.read_text() == "#!/bin/sh\n"
    with Store(db) as store:
        row, job = store.run(run_id), store.job(run_id)
        assert row.status == "pending" and row.requested_processes == 2
        assert row.launch_command[:4] == ["srun", "--mpi=pmix", "--ntasks=2", "--ntasks-per-node=2"]
        assert (job.job_id, job.state, job.directory) == ("12", "PENDING", str(files.directory))
        assert MpiImpl(**job.mpi) == IMPL


def test_runs_shows_the_jobs_state_and_collect_stores_the_stream(submitting, fake_bin):
    db, run_id, files = submit_one(submitting, fake_bin)
    scontrol_says(fake_bin, job_line("12", "PENDING", "Priority"))
    listing = invoke("runs", "--db", str(db))
    assert "pending" in listing.stdout and "12 PENDING (Priority)" in listing.stdout
    scontrol_says(fake_bin, job_line("12", "RUNNING"))
    assert "12 RUNNING" in invoke("runs", "--db", str(db)).stdout
    with Store(db) as store:
        assert store.run(run_id).status == "running"
    files.stream.write_text("".join(json.dumps(r) + "\n" for r in RECORDS))
    files.exit_status.write_text("0\n")
    scontrol_says(fake_bin, job_line("12", "COMPLETED"))
    result = invoke("collect", "--db", str(db))
    assert result.exit_code == 0, result.output
    assert "run 1: Slurm job 12 ended (COMPLETED); 2 results stored, run complete" in result.stderr
    with Store(db) as store:
        assert store.run(run_id).status == "complete" and store.run(run_id).results == 2
        assert store.records(run_id) == RECORDS
    assert "no Slurm job waiting to be collected" in invoke("collect", "--db", str(db)).stderr


def test_a_job_ended_by_its_time_limit_fails_its_run_keeping_its_results(submitting, fake_bin):
    db, run_id, files = submit_one(submitting, fake_bin)
    files.stream.write_text("".join(json.dumps(r) + "\n" for r in RECORDS[:4]) + '{"type":"res')  # cut off
    scontrol_says(fake_bin, job_line("12", "TIMEOUT", "TimeLimit", "0:15"))
    result = invoke("collect", "1", "--db", str(db))
    assert result.exit_code == 1
    assert result.stderr.splitlines()[-1] == (
        "mpimark: error: run 1 failed: Slurm job 12 hit its time limit (TIMEOUT, reason TimeLimit); "
        "the 2 results received are kept")
    with Store(db) as store:
        assert store.run(run_id).results == 2 and store.job(run_id).state == "TIMEOUT"


def test_a_job_that_ran_to_its_end_is_judged_as_a_live_launch(submitting, fake_bin):
    db, run_id, files = submit_one(submitting, fake_bin)
    files.stream.write_text(json.dumps(RECORDS[0]) + "\n")
    files.stderr.write_text("mpimark-core: error: -msglog 9:3: the first exponent is larger than the second\n")
    files.exit_status.write_text("2\n")
    scontrol_says(fake_bin, job_line("12", "FAILED", "NonZeroExitCode", "2:0"))
    result = invoke("collect", "--db", str(db))
    assert result.exit_code == 1
    assert result.stderr.splitlines()[-1] == (
        "mpimark: error: run 1 failed: -msglog 9:3: the first exponent is larger than the second")


def test_show_of_a_pending_run_says_where_its_job_is(submitting, fake_bin):
    db, run_id, files = submit_one(submitting, fake_bin)
    scontrol_says(fake_bin, job_line("12", "PENDING", "Resources"))
    result = invoke("show", "1", "--db", str(db))
    assert result.exit_code == 0
    assert "run 1: pending" in result.stdout
    assert f"run 1 is Slurm job 12, PENDING (Resources); its files are in {files.directory}" in result.stderr


def test_collect_of_a_run_that_is_no_job_is_refused(submitting, fake_bin):
    db = submitting / "r.db"
    with Store(db) as store:
        store_records(store, RECORDS)
    result = invoke("collect", "1", "--db", str(db))
    assert "run 1 was not submitted to Slurm" in assert_one_error_line(result, 2)


def test_a_run_that_cannot_be_stored_cancels_its_job(submitting, fake_bin, monkeypatch):
    fake_bin("sbatch", "echo 12")

    def refuse(self, **kwargs):
        raise StoreError("the results database is locked by another process")

    monkeypatch.setattr(Store, "begin_job", refuse)
    result = invoke("submit", "mpi1", "--nodes", "1", "--ntasks-per-node", "2", "--db", str(submitting / "r.db"))
    assert "locked" in assert_one_error_line(result)
    assert (submitting / "scancelled").read_text() == "12\n"
    assert list((submitting / "mpimark-jobs").iterdir()) == []
