"""Launching the core and watching it run.

command() builds the launch line: the implementation's own mpiexec, its
flags (mpi.launch_flags), `-n N`, the core, the suite, IMB's options and
`-json FILE`. run() starts it and, until it ends:

- streams the core's stdout (IMB's tables) to the terminal as it arrives;
- tails the JSON Lines file and hands each complete, schema-valid record to
  a callback (which stores it), so a run that dies keeps what it finished;
- shows a progress bar on stderr when stderr is a terminal;
- holds the launcher's stderr back (its first and last lines, bounded:
  launcher_stderr.py): the core's own one-line error replaces the launcher's
  multi-line epilogue about a non-zero exit; without one, the MPI library's
  lines (an MPICH error stack, an Open MPI abort) are shown with the
  failure, the line that says why ends the run's status message, and the
  lines kept are handed on as an event record (LAUNCHER_STDERR_EVENT);
- ends the job on --timeout (failed), Ctrl-C or SIGTERM (interrupted), and
  on a run record that shows the wrong MPI was started (failed).

The launcher runs in a session of its own, so a Ctrl-C at the terminal
reaches mpimark alone and mpimark ends the job in order: SIGTERM to the
launcher's process group and to every process under it (Open MPI and MPICH
put each rank in a process group of its own), SIGKILL after a grace period.
Should mpimark die without doing so (kill -9), a guard (guard.py) watching
a pipe only mpimark holds ends every process of that session.
"""

from __future__ import annotations

import io
import os
import re
import select
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn, \
    TimeRemainingColumn

from mpimark.execution import guard, simulation as simulation_module
from mpimark.execution.launcher_stderr import HeldLines, reason
from mpimark.execution.mpi import cores, launch_flags, MpiImpl
from mpimark.execution.placement import launcher_args, launcher_env, launcher_for, Placement
from mpimark.execution.slurm import Srun
from mpimark.records.mpi_library import identify
from mpimark.records.results import LAUNCHER_STDERR_EVENT, parse_record

GRACE_S = 3.0  # from SIGTERM to SIGKILL: long enough for mpiexec to take its ranks down
POLL_S = 0.1
CORE_ERROR = "mpimark-core: error: "
CORE_WARNING = "mpimark-core: warning: "
# The core's errors name its own listing ("run 'mpimark-core mpi1 -list' to see the names"), right for
# whoever launches the core; through mpimark the core is not on PATH, and `mpimark list SUITE` lists the same.
_CORE_LISTING = re.compile(r"'mpimark-core (\w+) -list'")
STARTING_NEWS_S = 10.0  # while the launcher starts the ranks (no run record yet): a line this often
INTERRUPTS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)  # each ends the job in order: status interrupted


@dataclass(frozen=True)
class Outcome:
    status: str  # complete | incomplete | failed | interrupted (store.FINAL_STATUSES)
    message: str | None  # one line saying why, when not complete
    returncode: int | None  # the launcher's; None when it never started
    records: int  # records handed to on_record
    results: int  # of which result records
    # With run(stamp_env=...): the wall-clock time (ns since the epoch) just before the
    # launcher started, and when mpimark saw it exit (None if it was ended by mpimark).
    launch_ns: int | None = None
    exit_ns: int | None = None
    # The core's own exit status when it said why it stopped (CORE_EXITS), passed on by `mpimark run`.
    core_exit: int | None = None


# The core's exit statuses that say what went wrong (docs/core.md, "Exit status").
CORE_EXITS = {2: "bad input", 3: "out of memory", 4: "-check found wrong data"}


def _core_exit(returncode: int | None, core_errors: list[str]) -> int | None:
    # The launchers pass a rank's non-zero status on; it is the core's when the core said why.
    return returncode if core_errors and returncode in CORE_EXITS else None


def command(impl: MpiImpl, processes: int, core: Path | str, suite: str, args: list[str],
            json_path: Path | str, placement: Placement = Placement(), *,
            srun: Srun | None = None,
            simulation: simulation_module.Prepared | None = None) -> tuple[list[str], dict[str, str]]:
    """The launch argv and its environment (the caller's plus what impl needs).

    placement's words (placement.launcher_args) go after the launcher's own
    flags and before `-n N`; its --env variables travel on the launch line,
    not in the launcher's environment, so a rank has them only if the
    launcher delivered them. With srun (execution/slurm.py) in place of
    impl's mpiexec, they go into srun's environment, which srun hands on.
    SimGrid's SMPI (impl.kind smpi) launches with smpirun on simulation's
    platform and host file (execution/simulation.py); placement's --env
    variables then go into smpirun's environment: every rank is a thread of it.
    """
    if impl.kind == "smpi":
        if simulation is None:
            raise simulation_module.SimulationError("--mpi smpi needs --platform NAME|FILE (a simulated machine)")
        argv, setup = simulation_module.command(impl.mpiexec, simulation, processes, core, suite, args, json_path)
        return argv, {**os.environ, **impl.env, **dict(placement.env), **setup}
    if srun is not None:
        words = srun.words(processes, launcher_args(placement, "srun", processes))
        argv = [*words, str(core), suite, *args, "-json", str(json_path)]
        return argv, {**os.environ, **impl.env, **launcher_env(placement, "srun")}
    words = launcher_args(placement, launcher_for(impl.kind), processes)
    # Open MPI's --oversubscribe is about the ranks on one host; with hosts, that is K of them.
    per_host = placement.ranks_per_host(processes) if placement.hosts else processes
    argv = [impl.mpiexec, *launch_flags(impl, per_host, cores()), *words, "-n", str(processes), str(core), suite,
            *args, "-json", str(json_path)]
    return argv, {**os.environ, **impl.env}


def judge(json_path: Path | str, stderr_text: str, returncode: int | None, *, impl: MpiImpl,
          processes: int, launcher: str, count_hint: str | None = None) -> tuple[list[dict], Outcome]:
    """A launch that ran elsewhere (a batch job), judged from what it left as run() judges a live one.

    The records of the stream (a cut-off last line dropped), the core's error
    lines and the launcher's from its stderr, and the launcher's exit status
    (None when it did not get to write one) give the same statuses and
    messages as run(); nothing is printed. The records end with run()'s
    LAUNCHER_STDERR_EVENT where run() would hand one on.
    """
    seen = _Seen(impl, processes, count_hint)
    records: list[dict] = []
    for record in _Tail(Path(json_path)).read(seen, final=True):
        if seen.mismatch:
            break
        records.append(record)
        seen.records += 1
        kind = record["type"]
        if kind == "run":
            seen.run = record
            seen.mismatch = check_run_record(record, impl, processes, count_hint)
        elif kind == "result":
            seen.results += 1
        elif kind == "end":
            seen.end = record
    core_errors: list[str] = []
    held = HeldLines()
    sort = _stderr_sorter(None, core_errors, held)
    for line in stderr_text.splitlines(keepends=True):
        sort(line)
    library = held.kept_text()
    status, message = _verdict(None, returncode, seen, core_errors, library, None, launcher)
    event = _stderr_event(status, library, core_errors, None, seen)
    return records + ([event] if event else []), Outcome(status, message, returncode, seen.records, seen.results,
                                                         core_exit=_core_exit(returncode, core_errors))


def check_run_record(record: dict, impl: MpiImpl, processes: int, count_hint: str | None = None) -> str | None:
    """Why the run record shows that something else than asked for was started, or None.

    A launcher of one implementation starting a core linked with another
    starts N singletons, each reporting 1 process (and all writing one file);
    so does srun with a PMI plugin the library does not speak (count_hint
    then says what to do instead of naming mpiexec).
    """
    got, library = record["processes"], record["mpi"]["library_version"]
    chosen = f"{impl.name} ({impl.vendor} {impl.version})"
    if library != impl.library_version:
        _, vendor, version = identify(library)
        other = f"{vendor} {version}"
        if got != processes:
            return (f"the core reports {got} process(es), not {processes}: the launcher of {chosen} started a core "
                    f"built for {other}, as {processes} separate singletons; "
                    f"rebuild with 'mpimark build --mpi {impl.name}'")
        return (f"the core runs on {other}, not on {chosen}: it is linked with another MPI library; "
                f"rebuild with 'mpimark build --mpi {impl.name}' and check LD_LIBRARY_PATH")
    if got != processes:
        fix = count_hint or f"check {impl.mpiexec}"
        return f"the core reports {got} process(es), not the {processes} asked for; {fix}"
    return None


def run(argv: list[str], env: dict[str, str], json_path: Path | str, on_record: Callable[[dict], None], *,
        impl: MpiImpl, processes: int, timeout: float | None = None, quiet: bool = False,
        stamp_env: str | None = None, count_hint: str | None = None, silent: bool = False) -> Outcome:
    """Run the launch command to its end (or the watchdog's), streaming records to on_record.

    stamp_env names an environment variable set to the wall-clock time in ns
    since the epoch taken just before the launcher starts (the start-up
    time tool's MPIMARK_LAUNCH_NS); Outcome.launch_ns and exit_ns hold it
    and the time the launcher was seen to exit.
    silent: nothing printed at all, neither tables nor the MPI's lines (a probe, execution/applicability.py).
    An exception from on_record (the store failing) ends the job and propagates.
    A launch that did not complete, and whose core did not say why, hands
    on_record a last LAUNCHER_STDERR_EVENT with what its stderr said (not
    counted in Outcome.records: it is not the core's).
    """
    seen = _Seen(impl, processes, count_hint)
    display = _Display(quiet or silent, err=io.StringIO() if silent else None)
    # The core truncates the file when it opens it, which may be after the
    # first read here: old lines in it must not pass for this run's.
    Path(json_path).unlink(missing_ok=True)
    launch_ns = exit_ns = None
    try:
        if stamp_env:
            launch_ns = time.time_ns()  # last thing before the launcher: RIKEN's time stamp (A)
            env = {**env, stamp_env: str(launch_ns)}
        job = subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, start_new_session=True)
    except OSError as exc:
        return Outcome("failed", f"cannot start {argv[0]}: {exc.strerror}", None, 0, 0)
    watcher = _watch(job.pid)  # ends the job should mpimark die without ending it
    held = HeldLines()
    core_errors: list[str] = []
    pumps = [threading.Thread(target=_pump, args=(job.stdout, display.table_line), daemon=True),
             threading.Thread(target=_pump, args=(job.stderr, _stderr_sorter(display, core_errors, held)),
                              daemon=True)]
    for pump in pumps:
        pump.start()
    tail = _Tail(Path(json_path))
    deadline = time.monotonic() + timeout if timeout else None
    started = time.monotonic()
    news = started + STARTING_NEWS_S
    stop: str | None = None  # why mpimark ended the job: interrupted | timeout
    stop_signal: str | None = None  # with interrupted: the signal's name
    drain = False  # false while an exception (from on_record) is on its way out
    with display, _interrupts() as interrupted:
        try:
            while not seen.mismatch:
                ended = _wait(job, POLL_S)
                if ended and stamp_env:
                    exit_ns = time.time_ns()
                for record in tail.read(seen):
                    _take(record, seen, on_record, display)
                display.tick()
                if ended:
                    break
                if seen.run is None and time.monotonic() >= news:  # many ranks, or a slow launcher
                    display.note(f"mpimark: {Path(argv[0]).name} is still starting {processes} processes "
                                 f"({time.monotonic() - started:.0f} s)\n")
                    news += STARTING_NEWS_S
                if interrupted.is_set():
                    stop = "interrupted"
                    stop_signal = getattr(interrupted, "signal_name", None)
                    break
                if deadline is not None and time.monotonic() > deadline:
                    stop = "timeout"
                    break
            drain = True
        finally:
            if job.poll() is None:
                _end_job(job)
            for pid in _descendants_of_session(job.pid):  # ranks a dead or killed launcher left behind
                _signal(lambda: os.kill(pid, signal.SIGKILL))
            _release(watcher)
            if drain:  # what the core finished before it ended is kept too
                for record in tail.read(seen, final=True):
                    _take(record, seen, on_record, display)
    for pump in pumps:
        pump.join(timeout=GRACE_S)  # a rank orphaned by SIGKILL may hold the pipe open: do not wait for it
    library = held.kept_text()
    status, message = _verdict(stop, job.returncode, seen, core_errors, library, timeout, Path(argv[0]).name,
                               stop_signal)
    event = _stderr_event(status, library, core_errors, stop, seen)
    if status == "complete" or event or (status == "failed" and seen.run is None and not core_errors):
        for line in library:  # the MPI's own warnings; why the launcher refused to start, or the library aborted
            display.note(line + "\n")
    if event:
        on_record(event)
    return Outcome(status, message, job.returncode, seen.records, seen.results, launch_ns, exit_ns,
                   None if stop else _core_exit(job.returncode, core_errors))


# ---------------------------------------------------------------- records


@dataclass
class _Seen:
    impl: MpiImpl
    processes: int
    count_hint: str | None = None
    run: dict | None = None
    end: dict | None = None
    records: int = 0
    results: int = 0
    mismatch: str | None = None
    bad: list[str] = field(default_factory=list)  # lines that are not records


def _take(record: dict, seen: _Seen, on_record: Callable[[dict], None], display: _Display) -> None:
    if seen.mismatch:
        return  # the rest comes from N singletons writing one file: not a run
    on_record(record)
    seen.records += 1
    kind = record["type"]
    if kind == "run":
        seen.run = record
        # Set, it ends the job: N singletons would each run the whole benchmark list.
        seen.mismatch = check_run_record(record, seen.impl, seen.processes, seen.count_hint)
    elif kind == "result":
        seen.results += 1
    elif kind == "end":
        seen.end = record
    display.record(record)


class _Tail:
    """The complete lines added to a file since the last read."""

    def __init__(self, path: Path) -> None:
        self.path, self.offset, self.partial = path, 0, b""

    def read(self, seen: _Seen, final: bool = False) -> Iterator[dict]:
        try:
            with open(self.path, "rb") as stream:
                if os.fstat(stream.fileno()).st_size < self.offset:  # truncated: someone started it afresh
                    self.offset, self.partial = 0, b""
                stream.seek(self.offset)
                data = stream.read()
        except FileNotFoundError:
            return  # the core has not opened it yet
        self.offset += len(data)
        lines = (self.partial + data).split(b"\n")
        self.partial = lines.pop()  # a line still being written; at the end, one cut off by a kill
        for line in lines:
            if not line.strip():
                continue
            try:
                yield parse_record(line.decode("utf-8"))
            except ValueError as exc:  # JSONDecodeError and UnicodeDecodeError are ValueErrors too
                seen.bad.append(str(exc))
        if final:
            self.partial = b""


def _stderr_event(status: str, library: list[str], core_errors: list[str], stop: str | None,
                  seen: _Seen) -> dict | None:
    """The event record of what the launcher's stderr said, for a launch that failed on its own
    (not ended by mpimark, not explained by the core), or None."""
    if status == "complete" or not library or core_errors or stop or seen.mismatch:
        return None
    return {"type": "event", "level": "error", "kind": LAUNCHER_STDERR_EVENT, "message": "\n".join(library)}


def _verdict(stop: str | None, returncode: int | None, seen: _Seen, core_errors: list[str],
             library: list[str], timeout: float | None, launcher: str,
             stop_signal: str | None = None) -> tuple[str, str | None]:
    """The run's status and one-line message; library: launcher_stderr.library_lines of its stderr."""
    kept = f"the {seen.results} results received are kept"
    why = reason(library)
    said = f"; stderr: {why}" if why else ""
    if seen.mismatch:
        return "failed", seen.mismatch
    if stop == "interrupted":
        return "interrupted", f"the job was ended on {stop_signal or 'a signal'}; {kept}"
    if stop == "timeout":
        return "failed", f"timed out after {timeout:g} s (--timeout); the job was killed, {kept}"
    if core_errors:  # the core said why, in one line (exit 2 bad input, 3 out of memory, 4 -check)
        skipped = seen.end is not None and seen.end["status"] == "incomplete"
        return ("incomplete" if skipped else "failed"), core_errors[0]
    if returncode is not None and returncode < 0:
        exit_text = f"was killed by signal {-returncode}"
    else:
        exit_text = f"exited with status {returncode}"
    if seen.run is None:
        return "failed", f"{launcher} {exit_text} before the core started" + (f": {why}" if why else "")
    if seen.end is None:
        return "incomplete", f"a rank died: {launcher} {exit_text} before the run's end record; {kept}{said}"
    if seen.bad:
        return "failed", f"the core wrote {len(seen.bad)} line(s) that are not valid records, the first: {seen.bad[0]}"
    if seen.end["status"] != "complete":
        return "incomplete", "some message sizes were skipped (see the core's warnings)"
    if returncode != 0:
        return "failed", f"{launcher} {exit_text} after the run's end record{said}"
    return "complete", None


# --------------------------------------------------------------- processes


def _watch(session: int) -> tuple[subprocess.Popen, int] | None:
    """Start the guard (execution/guard.py) on the job's session: it, and the write end of its pipe; or None."""
    read, write = os.pipe()
    try:
        watcher = subprocess.Popen([sys.executable, "-m", "mpimark.execution.guard", str(read), str(session)],
                                   pass_fds=(read,), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL, start_new_session=True)
    except OSError:
        os.close(write)
        return None  # no guard: the job is still ended in order by everything but a kill -9
    finally:
        os.close(read)
    return watcher, write


def _release(watching: tuple[subprocess.Popen, int] | None) -> None:
    """Tell the guard the job was ended here: it exits without touching anything."""
    if watching is None:
        return
    watcher, write = watching
    try:
        os.write(write, b"x")
    except OSError:
        pass
    os.close(write)
    try:
        watcher.wait(timeout=GRACE_S)
    except subprocess.TimeoutExpired:
        pass


def _wait(job: subprocess.Popen, seconds: float) -> bool:
    # Popen.wait(timeout) polls with sleeps of up to 50 ms; a pidfd becomes
    # readable the moment the process exits, so an exit time (the start-up
    # tool's launcher exit) is exact. Without pidfds (Linux < 5.3): wait().
    if job.poll() is not None:
        return True
    try:
        fd = os.pidfd_open(job.pid)
    except (AttributeError, OSError):
        fd = None
    if fd is not None:
        try:
            select.select([fd], [], [], seconds)
        finally:
            os.close(fd)
        return job.poll() is not None
    try:
        job.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        return False
    return True


def _end_job(job: subprocess.Popen) -> None:
    """SIGTERM to the job's processes, SIGKILL to what is left after GRACE_S."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        for pid in _descendants(job.pid):  # first: they outlive their parent's SIGKILL
            _signal(lambda: os.kill(pid, sig))
        _signal(lambda: os.killpg(job.pid, sig))
        if _wait(job, GRACE_S):
            break


def _signal(send: Callable[[], None]) -> None:
    try:
        send()
    except (ProcessLookupError, PermissionError):
        pass  # already gone


def _descendants(root: int) -> list[int]:
    table = guard.processes()
    children: dict[int, list[int]] = {}
    for pid, (parent, _) in table.items():
        children.setdefault(parent, []).append(pid)
    found, todo = [], [root]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def _descendants_of_session(session: int) -> list[int]:
    # Ranks orphaned by their launcher are re-parented to init but stay in its session
    # (unless they started their own, as hydra's proxies do; those die with the launcher).
    return [pid for pid, (_, sid) in guard.processes().items() if sid == session and pid != os.getpid()]


@contextmanager
def _interrupts() -> Iterator[threading.Event]:
    """An event set by Ctrl-C (SIGINT), SIGTERM or SIGHUP (the terminal went away) while the job runs.

    The event's signal_name says which signal came first.

    A flag, not KeyboardInterrupt: an exception could land between storing a
    record and counting it, losing or doubling it. The loop looks at the flag
    every POLL_S; a second Ctrl-C while the job is ended changes nothing.
    """
    event = threading.Event()
    if threading.current_thread() is not threading.main_thread():
        yield event  # signal handlers belong to the main thread; there, the caller ends the job
        return
    # A signal ignored on purpose (nohup, a shell's background job) stays ignored.
    wanted = [sig for sig in INTERRUPTS if signal.getsignal(sig) is not signal.SIG_IGN]

    def handler(signum: int, frame: object) -> None:
        if not event.is_set():
            event.signal_name = signal.Signals(signum).name  # type: ignore[attr-defined]
        event.set()

    previous = {sig: signal.signal(sig, handler) for sig in wanted}
    try:
        yield event
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _pump(stream: IO[bytes], sink: Callable[[str], None]) -> None:
    for raw in iter(stream.readline, b""):
        sink(raw.decode("utf-8", errors="replace"))
    stream.close()


def _stderr_sorter(display: _Display | None, core_errors: list[str], held: HeldLines) -> Callable[[str], None]:
    """Sorts stderr lines: the core's errors, its warnings (shown now; display None: judged later,
    nothing shown), and the rest, held."""
    def sort(line: str) -> None:
        if line.startswith(CORE_ERROR):
            core_errors.append(_CORE_LISTING.sub(r"'mpimark list \1'", line[len(CORE_ERROR):].strip()))
        elif line.startswith(CORE_WARNING):
            if display is not None:
                display.note(line)  # the core's one-line warnings are news: show them now
        else:
            held.append(line)

    return sort


# ----------------------------------------------------------------- display


class _Display:
    """IMB's tables on stdout, the core's warnings and a progress bar on stderr.

    With a bar on the terminal, table lines go through the bar's console so
    they scroll above it instead of tearing it.
    """

    def __init__(self, quiet: bool, out: IO[str] | None = None, err: IO[str] | None = None) -> None:
        self.quiet = quiet
        self.out = out or sys.stdout
        self.err = err or sys.stderr
        self.progress: Progress | None = None
        if self.err.isatty():
            # One row: the table being measured (bar, sizes done of planned, its
            # estimated time left) and the run as a whole (results, time so far).
            self.progress = Progress(
                SpinnerColumn(), TextColumn("{task.description}"), BarColumn(bar_width=12), MofNCompleteColumn(),
                TextColumn("{task.fields[bytes]} · {task.fields[results]} results · {task.fields[elapsed]} ·"),
                TimeRemainingColumn(), TextColumn("left"),
                console=Console(file=self.err), transient=True, redirect_stdout=False, redirect_stderr=False,
            )
            self.task = self.progress.add_task("starting", total=None, bytes="-", results=0, elapsed="0:00:00")
        self.started = time.monotonic()
        self.lock = threading.Lock()

    def __enter__(self) -> _Display:
        if self.progress:
            self.progress.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self.progress:
            self.progress.stop()

    def table_line(self, line: str) -> None:
        if self.quiet:
            return
        with self.lock:
            if self.progress and self.out.isatty():
                self.progress.console.out(line.rstrip("\n"), highlight=False)
            else:
                self.out.write(line)
                self.out.flush()

    def note(self, line: str) -> None:
        with self.lock:
            if self.progress:
                self.progress.console.out(line.rstrip("\n"), highlight=False)
            else:
                self.err.write(line)
                self.err.flush()

    def tick(self) -> None:
        if self.progress:
            elapsed = int(time.monotonic() - self.started)
            self.progress.update(self.task, elapsed=f"{elapsed // 3600}:{elapsed // 60 % 60:02}:{elapsed % 60:02}")

    def record(self, record: dict) -> None:
        if not self.progress:
            return
        kind = record["type"]
        if kind == "event" and record["kind"] == "benchmark_start":
            # A table starts: its planned sizes are the bar's total, and the estimate starts afresh.
            # (reset replaces every field, so all are given again)
            fields = self.progress.tasks[0].fields
            self.progress.reset(self.task, total=record.get("sizes") or None, bytes="-", results=fields["results"],
                                elapsed=fields["elapsed"],
                                description=f"{record['benchmark']} np={record.get('processes')}")
        elif kind == "result":
            results = self.progress.tasks[0].fields["results"] + 1
            self.progress.update(self.task, advance=1, bytes=f"{record['bytes']} B", results=results)
