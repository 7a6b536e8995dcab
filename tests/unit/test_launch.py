"""launch.py with a fake launcher (fake_launcher.py) in place of mpiexec and the core."""

from __future__ import annotations

import json
import os
import signal
import sys
import threading
import time
from pathlib import Path

import pytest

from mpimark.execution import launch
from mpimark.execution.mpi import MpiImpl

from .records import end_record, result_record, run_record

FAKE = Path(__file__).parent / "fake_launcher.py"
# The Open MPI of records.run_record().
IMPL = MpiImpl(name="openmpi", kind="openmpi", vendor="Open MPI", version="5.0.11", standard_version="3.1",
               library_version="Open MPI v5.0.11", mpicc="/usr/bin/mpicc.openmpi", mpiexec="/usr/bin/mpiexec.openmpi",
               prefix="/usr", source="system", env={"OMPI_MCA_btl": "self,vader"})


def launch_fake(tmp_path: Path, scenario: str, **kwargs):
    json_path = tmp_path / "run.jsonl"
    records: list[dict] = []
    argv = [sys.executable, str(FAKE), scenario, "-json", str(json_path)]
    outcome = launch.run(argv, dict(os.environ), json_path, records.append, impl=IMPL, processes=2, **kwargs)
    return outcome, records


def test_command_line_and_environment(monkeypatch):
    monkeypatch.setattr(launch, "cores", lambda: 2)
    monkeypatch.setattr(launch, "launch_flags", lambda impl, n, cores: ["--oversubscribe"] if n > cores else [])
    argv, env = launch.command(IMPL, 4, Path("/cache/mpimark-core"), "mpi1", ["PingPong", "-msglog", "0:3"], "/tmp/r.jsonl")
    assert argv == ["/usr/bin/mpiexec.openmpi", "--oversubscribe", "-n", "4", "/cache/mpimark-core", "mpi1",
                    "PingPong", "-msglog", "0:3", "-json", "/tmp/r.jsonl"]
    assert env["OMPI_MCA_btl"] == "self,vader" and env["PATH"] == os.environ["PATH"]


def test_complete_run_streams_records_and_tables(tmp_path, capsys):
    outcome, records = launch_fake(tmp_path, "complete")
    assert outcome == launch.Outcome("complete", None, 0, 5, 2)
    assert [r["type"] for r in records] == ["run", "event", "result", "result", "end"]
    assert [r["bytes"] for r in records if r["type"] == "result"] == [0, 1024]
    assert capsys.readouterr().out == f"{0:>13} 1000 1.62\n{1024:>13} 1000 1.62\n"


def test_quiet_prints_no_tables(tmp_path, capsys):
    launch_fake(tmp_path, "complete", quiet=True)
    assert capsys.readouterr().out == ""


def test_old_lines_in_the_json_file_are_not_taken(tmp_path):
    (tmp_path / "run.jsonl").write_text("\n".join(f'{{"type": "end", "n": {i}}}' for i in range(50)) + "\n")
    outcome, records = launch_fake(tmp_path, "complete")
    assert outcome.status == "complete" and len(records) == 5


def test_the_core_error_line_replaces_the_launcher_epilogue(tmp_path, capsys):
    outcome, records = launch_fake(tmp_path, "bad_input")
    assert (outcome.status, outcome.returncode, records) == ("failed", 2, [])
    # The core's own listing command is not on PATH through mpimark: the line names mpimark's.
    assert outcome.message == "unknown benchmark 'Foo' in suite mpi1; run 'mpimark list mpi1' to see the names"
    assert capsys.readouterr().err == ""  # "Primary job terminated ..." is held back


def test_a_launcher_that_refuses_to_start_says_why(tmp_path, capsys):
    outcome, _ = launch_fake(tmp_path, "refuse")
    assert outcome.status == "failed"
    assert outcome.message == f"{Path(sys.executable).name} exited with status 1 before the core started: " \
                              "to satisfy the 4 slots requested."
    assert "not enough slots" in capsys.readouterr().err


def test_the_mpis_warnings_are_shown_after_a_complete_run(tmp_path, capsys):
    outcome, _ = launch_fake(tmp_path, "warnings")
    assert outcome.status == "complete"
    assert capsys.readouterr().err == "WARNING: a transport was not used\n"


def test_a_dead_rank_keeps_the_results_and_marks_the_run_incomplete(tmp_path):
    outcome, records = launch_fake(tmp_path, "rank_dies")
    assert (outcome.status, outcome.results) == ("incomplete", 2)
    assert outcome.message.startswith("a rank died: ") and "exited with status 137 before the run's end record" in outcome.message
    assert outcome.message.endswith("the 2 results received are kept")
    assert [r["type"] for r in records] == ["run", "event", "result", "result"]


NOT_USABLE = "Fatal error in internal_Alltoall: User set collective algorithm is not usable for the provided arguments"


def test_a_library_abort_says_why_in_the_message_on_stderr_and_in_an_event(tmp_path, capsys):
    outcome, records = launch_fake(tmp_path, "library_aborts")
    assert (outcome.status, outcome.results, outcome.records) == ("incomplete", 2, 4)
    assert outcome.message.startswith("a rank died: ") and outcome.message.endswith(
        f"the 2 results received are kept; stderr: {NOT_USABLE}")
    assert "MPIR_Alltoall_impl(2899)...................: User set collective" in capsys.readouterr().err
    event = records[-1]  # after the stream's records, not counted as the core's
    assert (event["type"], event["level"], event["kind"]) == ("event", "error", launch.LAUNCHER_STDERR_EVENT)
    assert event["message"].splitlines()[0].startswith("Abort(337188623) on node 0")
    assert len(event["message"].splitlines()) == 10


def test_a_batch_job_is_judged_with_the_same_words(tmp_path):
    # `mpimark collect` judges a Slurm job's files as run() judges a live launch.
    stream = tmp_path / "run.jsonl"
    stream.write_text("".join(json.dumps(r) + "\n" for r in (run_record(), result_record())))
    stderr = (Path(__file__).parent / "data" / "launcher_stderr" / "mpich-alltoall-not-usable.txt").read_text()
    records, outcome = launch.judge(stream, stderr, 15, impl=IMPL, processes=2, launcher="srun")
    assert outcome.message.endswith(f"; stderr: {NOT_USABLE}") and outcome.records == 2
    assert [r["type"] for r in records] == ["run", "result", "event"]
    assert records[-1]["kind"] == launch.LAUNCHER_STDERR_EVENT


def test_a_line_cut_off_by_a_kill_is_dropped(tmp_path):
    outcome, records = launch_fake(tmp_path, "partial")
    assert outcome.status == "incomplete" and len(records) == 4


def test_singletons_are_detected_and_stopped(tmp_path):
    started = time.monotonic()
    outcome, records = launch_fake(tmp_path, "singletons")
    assert time.monotonic() - started < 5
    assert outcome.status == "failed" and [r["type"] for r in records] == ["run"]
    assert outcome.message.startswith("the core reports 1 process(es), not the 2 asked for")


def assert_job_gone(tmp_path: Path) -> None:
    child = int((tmp_path / "run.jsonl.child").read_text())
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            os.kill(child, 0)
        except ProcessLookupError:
            return
        try:
            os.waitpid(child, os.WNOHANG)  # not ours to reap; a zombie would do as "gone"
        except ChildProcessError:
            pass
        if Path(f"/proc/{child}/stat").exists() and Path(f"/proc/{child}/stat").read_text().split()[2] == "Z":
            return
        time.sleep(0.1)
    pytest.fail(f"process {child} of the job is still running")


def test_watchdog_kills_the_job_and_its_ranks(tmp_path):
    started = time.monotonic()
    outcome, records = launch_fake(tmp_path, "hang", timeout=1.5)
    assert time.monotonic() - started < 6
    assert outcome.status == "failed"
    assert outcome.message == "timed out after 1.5 s (--timeout); the job was killed, the 2 results received are kept"
    assert len(records) == 4
    assert_job_gone(tmp_path)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_interrupt_ends_the_job_and_keeps_the_records(tmp_path, sig):
    def interrupt_when_results_arrived():
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and not (tmp_path / "run.jsonl.child").exists():
            time.sleep(0.05)
        os.kill(os.getpid(), sig)

    threading.Thread(target=interrupt_when_results_arrived, daemon=True).start()
    outcome, records = launch_fake(tmp_path, "hang")
    assert (outcome.status, outcome.message) == ("interrupted",
                                                 f"the job was ended on {sig.name}; the 2 results received are kept")
    assert len(records) == 4
    assert_job_gone(tmp_path)


def test_a_failing_store_ends_the_job(tmp_path):
    def on_record(record):
        if record["type"] == "result":
            raise RuntimeError("disk full")

    argv = [sys.executable, str(FAKE), "hang", "-json", str(tmp_path / "run.jsonl")]
    started = time.monotonic()
    with pytest.raises(RuntimeError, match="disk full"):
        launch.run(argv, dict(os.environ), tmp_path / "run.jsonl", on_record, impl=IMPL, processes=2)
    assert time.monotonic() - started < 10


def test_missing_launcher(tmp_path):
    outcome = launch.run([str(tmp_path / "mpiexec")], {}, tmp_path / "r.jsonl", print, impl=IMPL, processes=2)
    assert outcome.status == "failed" and outcome.message == f"cannot start {tmp_path / 'mpiexec'}: No such file or directory"


def test_check_run_record():
    assert launch.check_run_record(run_record(), IMPL, 2) is None
    mpich = {**run_record(), "processes": 1, "mpi": {**run_record()["mpi"], "library_version": "MPICH Version:\t4.0.2"}}
    message = launch.check_run_record(mpich, IMPL, 2)
    assert message == ("the core reports 1 process(es), not 2: the launcher of openmpi (Open MPI 5.0.11) started a core "
                       "built for MPICH 4.0.2, as 2 separate singletons; rebuild with 'mpimark build --mpi openmpi'")
    assert "not on openmpi (Open MPI 5.0.11)" in launch.check_run_record({**mpich, "processes": 2}, IMPL, 2)
    assert "not the 4 asked for" in launch.check_run_record(run_record(), IMPL, 4)


def seen(run=True, end="complete", results=3) -> launch._Seen:
    state = launch._Seen(IMPL, 2, results=results)
    state.run = run_record() if run else None
    state.end = {**end_record(), "status": end} if end else None
    return state


@pytest.mark.parametrize("stop, code, state, errors, expected", [
    (None, 0, seen(), [], ("complete", None)),
    (None, 0, seen(end="incomplete"), [], ("incomplete", "some message sizes were skipped (see the core's warnings)")),
    (None, 3, seen(end="incomplete"), ["2 message size(s) did not fit in memory"],
     ("incomplete", "2 message size(s) did not fit in memory")),
    (None, 4, seen(), ["-check found 3 received elements that differ"], ("failed", "-check found 3 received elements that differ")),
    (None, -9, seen(end=None), [], ("incomplete", "a rank died: mpiexec was killed by signal 9 before the run's end record; "
                                                  "the 3 results received are kept")),
    (None, 1, seen(), [], ("failed", "mpiexec exited with status 1 after the run's end record")),
    ("interrupted", -15, seen(end=None), [], ("interrupted", "the job was ended on a signal; the 3 results received are kept")),
])
def test_verdict(stop, code, state, errors, expected):
    assert launch._verdict(stop, code, state, errors, [], None, "mpiexec") == expected


def test_tail_reads_whole_lines_only(tmp_path):
    path = tmp_path / "t.jsonl"
    tail, state = launch._Tail(path), seen(run=False, end=None)
    assert list(tail.read(state)) == []  # not there yet
    line = json.dumps(result_record())
    path.write_text(line[:10])
    assert list(tail.read(state)) == []
    with open(path, "a") as stream:
        stream.write(line[10:] + "\n" + "not json\n")
    assert [r["bytes"] for r in tail.read(state)] == [1024]
    assert len(state.bad) == 1
