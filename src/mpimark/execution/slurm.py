"""Slurm: srun as the launcher inside an allocation, batch jobs, and what became of a job.

Three parts, none of which touches the results database:

- the launcher: `srun --mpi=PLUGIN --ntasks=N` in place of mpiexec. The PMI
  plugin follows the implementation (Open MPI: pmix; MPICH and Intel MPI:
  pmi2), unless the user names one (--srun-mpi, or SLURM_MPI_TYPE, which
  srun itself reads). Inside an allocation (SLURM_JOB_ID set) srun is
  chosen by itself when the plugin the implementation needs is one this
  srun has (`srun --mpi=list`).
- the batch job: a directory (`JobFiles`) holding the script sbatch runs,
  a copy of the core, and what the job leaves: the results stream, the
  core's stdout (IMB's tables) and stderr, Slurm's own output file, and the
  launch's exit status, written by the script when srun returns.
- the job's fate (`query`): Slurm's own answer while it still has one
  (`scontrol show job`, which knows a finished job for MinJobAge, 300 s
  by default), else accounting (`sacct`, where the cluster has it), else
  the files the job left: the exit status the script wrote, or the line
  slurmstepd writes into the job's output when it ends a job
  ("*** JOB 12 ON node CANCELLED AT ... DUE TO TIME LIMIT ***").
"""

from __future__ import annotations

import functools
import os
import re
import shlex
import shutil
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from mpimark.errors import MpimarkError

# The PMI plugin srun needs for each kind of implementation. Debian's Open MPI
# 4.1 is built against PMIx; Debian's MPICH 4.0 (hydra, simple PMI) speaks PMI-2
# to srun's pmi2 plugin; Intel MPI reads PMI-2 through I_MPI_PMI_LIBRARY.
MPI_PLUGINS = {"openmpi": "pmix", "mpich": "pmi2", "impi": "pmi2"}
DEFAULT_PLUGIN = "pmi2"
QUERY_TIMEOUT_S = 30

# Slurm job states in which the job has not ended yet.
ACTIVE_STATES = frozenset({
    "PENDING", "RUNNING", "CONFIGURING", "COMPLETING", "SUSPENDED", "REQUEUED", "REQUEUE_HOLD", "REQUEUE_FED",
    "RESIZING", "SIGNALING", "STAGE_OUT", "STOPPED", "SPECIAL_EXIT", "RESV_DEL_HOLD",
})
# How a failed run names what Slurm did to its job.
STATE_WORDS = {
    "FAILED": "failed", "CANCELLED": "was cancelled", "TIMEOUT": "hit its time limit",
    "NODE_FAIL": "lost a node", "OUT_OF_MEMORY": "ran out of memory", "PREEMPTED": "was preempted",
    "BOOT_FAIL": "could not boot its nodes", "DEADLINE": "missed its deadline", "UNKNOWN": "ended unseen",
}
# What slurmstepd writes into the job's output when it ends the job.
STEPD_LINE = re.compile(r"\*\*\* JOB (\d+) ON \S+ CANCELLED AT \S+(?: DUE (?:TO|to) ([A-Za-z ]+?))?(?: \*\*\*|$)")
STEPD_STATES = {"TIME LIMIT": "TIMEOUT", "PREEMPTION": "PREEMPTED", "NODE FAILURE": "NODE_FAIL"}


class SlurmError(MpimarkError):
    """Slurm cannot do what was asked: no allocation, no srun, sbatch refused the job."""


# ---------------------------------------------------------------- launcher


def in_allocation(env: Mapping[str, str] | None = None) -> bool:
    """Whether this process runs inside a Slurm job (salloc, sbatch, srun --pty)."""
    return bool((os.environ if env is None else env).get("SLURM_JOB_ID"))


def plugin_for(kind: str, chosen: str | None = None, env: Mapping[str, str] | None = None) -> str:
    """The --mpi value: the one chosen, else $SLURM_MPI_TYPE, else the implementation's own."""
    env = os.environ if env is None else env
    return chosen or env.get("SLURM_MPI_TYPE") or MPI_PLUGINS.get(kind, DEFAULT_PLUGIN)


@functools.lru_cache(maxsize=None)
def plugins(srun: str) -> list[str]:
    """The PMI plugins this srun has (`srun --mpi=list`), without the pmix_vN variants' details."""
    try:
        done = subprocess.run([srun, "--mpi=list"], capture_output=True, text=True, timeout=QUERY_TIMEOUT_S)
    except (OSError, subprocess.TimeoutExpired):
        return []
    words = []
    for line in (done.stdout + done.stderr).splitlines():
        line = line.strip()
        if line.startswith("srun: "):  # Slurm < 21.08: "srun: pmi2"
            line = line[len("srun: "):]
        if re.fullmatch(r"[a-z][a-z0-9_]*", line):
            words.append(line)
        elif line.startswith("specific pmix plugin versions available:"):
            words += [w.strip() for w in line.split(":", 1)[1].split(",") if w.strip()]
    return words


LAUNCHERS = ("mpiexec", "srun")


@dataclass(frozen=True)
class Srun:
    """srun as the launcher of one implementation's core."""

    path: str
    plugin: str  # the --mpi value
    kind: str  # the implementation's (MpiImpl.kind)

    def words(self, processes: int, extra: tuple[str, ...] | list[str] = ()) -> list[str]:
        """srun's part of the launch line (placement's words in extra); the core and its arguments follow."""
        return [self.path, f"--mpi={self.plugin}", f"--ntasks={processes}", *extra]

    @property
    def hint(self) -> str:
        """What to do when the ranks came up as singletons instead of one job of N."""
        other = "pmix" if self.plugin == "pmi2" else "pmi2"
        return (f"srun --mpi={self.plugin} started each rank on its own: the {self.kind} library does not speak "
                f"that PMI; try --srun-mpi {other} ('srun --mpi=list' shows what this Slurm has)")


def resolve(requested: str | None, kind: str, srun_mpi: str | None = None,
            env: Mapping[str, str] | None = None) -> Srun | None:
    """srun (a Srun) or mpiexec (None) for an implementation of kind.

    Asked for (--launcher srun), srun must be usable: SlurmError says why not.
    Not asked, srun is chosen inside an allocation when it has the PMI plugin
    the implementation needs; else mpiexec, as outside Slurm.
    """
    env = os.environ if env is None else env
    if requested not in (None, *LAUNCHERS):
        raise SlurmError(f"--launcher {requested}: give one of {', '.join(LAUNCHERS)}")
    if requested == "mpiexec":
        return None
    path = shutil.which("srun", path=env.get("PATH"))
    plugin = plugin_for(kind, srun_mpi, env)
    if requested == "srun":
        if path is None:
            raise SlurmError("--launcher srun: there is no srun on PATH; load Slurm's module, or use "
                             "--launcher mpiexec")
        if not in_allocation(env):
            raise SlurmError("--launcher srun needs a Slurm allocation (SLURM_JOB_ID is not set): run mpimark "
                             "inside 'salloc -n N', or submit a batch job with 'mpimark submit'")
        have = plugins(path)
        if have and plugin not in have:
            raise SlurmError(f"this srun has no '{plugin}' MPI plugin (it has {', '.join(have)}); "
                             "choose one with --srun-mpi")
        return Srun(path, plugin, kind)
    if path is None or not in_allocation(env) or plugin not in plugins(path):
        return None
    return Srun(path, plugin, kind)


# -------------------------------------------------------------- batch jobs


@dataclass(frozen=True)
class JobFiles:
    """The files of one batch job, in a directory the compute nodes can read and write."""

    directory: Path

    @property
    def script(self) -> Path:
        return self.directory / "job.sbatch"

    @property
    def core(self) -> Path:
        return self.directory / "mpimark-core"

    @property
    def stream(self) -> Path:
        return self.directory / "results.jsonl"

    @property
    def stdout(self) -> Path:  # the core's: IMB's tables
        return self.directory / "stdout.txt"

    @property
    def stderr(self) -> Path:  # the core's and srun's
        return self.directory / "stderr.txt"

    @property
    def exit_status(self) -> Path:  # srun's exit status, written when srun returns
        return self.directory / "exit-status"

    def slurm_output(self, job_id: str | None = None) -> Path:  # the batch script's, and slurmstepd's notices
        return self.directory / f"slurm-{job_id or '%j'}.out"


@dataclass(frozen=True)
class BatchRequest:
    nodes: int
    ntasks_per_node: int
    partition: str | None = None
    time: str | None = None
    account: str | None = None
    job_name: str = "mpimark"


def batch_script(files: JobFiles, request: BatchRequest, launch: list[str], env: Mapping[str, str],
                 header: str) -> str:
    """The script sbatch runs, in the job's directory (--chdir): one srun of the core (launch, with the
    job's files named relative to it), its output into files there, and srun's exit status written
    last (renamed into place, so it is whole or absent)."""
    q = shlex.quote
    lines = ["#!/bin/bash", *(f"# {line}" for line in header.splitlines())]
    directives = [("job-name", request.job_name), ("nodes", request.nodes),
                  ("ntasks-per-node", request.ntasks_per_node), ("partition", request.partition),
                  ("time", request.time), ("account", request.account),
                  ("output", files.slurm_output()), ("chdir", files.directory)]
    lines += [f"#SBATCH --{name}={q(str(value))}" for name, value in directives if value is not None]
    lines += ["", f"cd {q(str(files.directory))} || exit 1"]
    lines += [f"export {name}={q(value)}" for name, value in sorted(env.items())]
    exit_file = files.exit_status.name
    lines += [
        f"rm -f {exit_file}",
        f"{shlex.join(launch)} >{files.stdout.name} 2>{files.stderr.name}",
        "status=$?",
        f'echo "$status" >{exit_file}.tmp && mv {exit_file}.tmp {exit_file}',
        'exit "$status"',
    ]
    return "\n".join(lines) + "\n"


def sbatch(script: Path, *, env: Mapping[str, str] | None = None) -> tuple[str, str | None]:
    """Submit the script; (job id, cluster or None). SlurmError with sbatch's own reason when refused."""
    exe = shutil.which("sbatch")
    if exe is None:
        raise SlurmError("there is no sbatch on PATH: submit from a machine with Slurm's client commands "
                         "(a login node), or load Slurm's module")
    try:
        done = subprocess.run([exe, "--parsable", str(script)], capture_output=True, text=True,
                              timeout=QUERY_TIMEOUT_S, env=None if env is None else dict(env))
    except subprocess.TimeoutExpired:
        raise SlurmError(f"sbatch did not answer within {QUERY_TIMEOUT_S} s; is slurmctld up ('sinfo')?") from None
    if done.returncode != 0:
        raise SlurmError(f"sbatch refused the job: {_last_error(done.stderr) or f'exit status {done.returncode}'}; "
                         "check --partition, --account, --time and --nodes against 'sinfo'")
    answer = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""
    job_id, _, cluster = answer.partition(";")
    if not job_id.isdigit():
        raise SlurmError(f"sbatch answered {answer!r}, not a job id")
    return job_id, cluster or None


def cancel(job_id: str) -> None:
    """scancel, quietly: for a job whose run could not be stored."""
    exe = shutil.which("scancel")
    if exe:
        subprocess.run([exe, job_id], capture_output=True, timeout=QUERY_TIMEOUT_S, check=False)


def _last_error(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if not lines:
        return ""
    line = lines[-1]
    for prefix in ("sbatch: error: ", "Batch job submission failed: ", "error: "):
        if line.startswith(prefix):
            line = line[len(prefix):]
    return line


# -------------------------------------------------------- a job's fate


@dataclass(frozen=True)
class JobState:
    state: str  # Slurm's JobState (PENDING, RUNNING, COMPLETED, TIMEOUT, ...), or UNKNOWN
    reason: str | None  # Slurm's Reason (Resources, TimeLimit, NonZeroExitCode, ...), None for None
    exit_status: int | None  # srun's, from the file the script wrote; None when it did not get there
    source: str  # scontrol | sacct | files: where the answer came from

    @property
    def finished(self) -> bool:
        return self.state not in ACTIVE_STATES

    def describe(self, job_id: str) -> str:
        """'Slurm job 12 hit its time limit (TIMEOUT, reason TimeLimit)'."""
        words = STATE_WORDS.get(self.state, self.state.lower())
        why = f", reason {self.reason}" if self.reason else ""
        return f"Slurm job {job_id} {words} ({self.state}{why})"


def query(job_id: str, files: JobFiles) -> JobState:
    """What became of the job. SlurmError when Slurm cannot be asked and the files say nothing."""
    exit_status = _exit_status(files)
    answer, problem = _scontrol(job_id)
    source = "scontrol"
    if answer is None and problem is None:
        answer, source = _sacct(job_id), "sacct"
    if answer is not None:
        state, reason = answer
        return JobState(state, reason, exit_status, source)
    # Slurm does not remember the job (purged after MinJobAge, no accounting), or cannot be asked.
    stepd = _stepd_notice(files, job_id)
    if stepd is not None:
        return JobState(stepd[0], stepd[1], exit_status, "files")
    if exit_status is not None:
        return JobState("COMPLETED" if exit_status == 0 else "FAILED",
                        None if exit_status == 0 else "NonZeroExitCode", exit_status, "files")
    if problem is not None:
        raise SlurmError(f"cannot ask Slurm about job {job_id}: {problem}")
    return JobState("UNKNOWN", "Slurm no longer knows the job and it left no exit status", None, "files")


def parse_scontrol(line: str) -> dict[str, str]:
    """`scontrol show job -o` (one line of KEY=VALUE words) as a dict; values may hold no spaces
    except Command=, WorkDir= and the like, which come whole up to the next KEY=."""
    fields: dict[str, str] = {}
    key = None
    for word in line.split(" "):
        match = re.match(r"^([A-Za-z][A-Za-z0-9_:/]*)=(.*)$", word)
        if match:
            key = match.group(1)
            fields[key] = match.group(2)
        elif key is not None and word:
            fields[key] += " " + word
    return fields


def _scontrol(job_id: str) -> tuple[tuple[str, str | None] | None, str | None]:
    """((state, reason), None) when Slurm knows the job; (None, None) when it does not; (None, why) when
    it cannot be asked."""
    exe = shutil.which("scontrol")
    if exe is None:
        return None, "there is no scontrol on PATH"
    try:
        done = subprocess.run([exe, "show", "job", "-o", job_id], capture_output=True, text=True,
                              timeout=QUERY_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return None, f"scontrol did not answer within {QUERY_TIMEOUT_S} s"
    if done.returncode != 0:
        text = (done.stderr or done.stdout).strip()
        if "Invalid job id" in text:
            return None, None
        return None, _last_error(text) or f"scontrol exited with status {done.returncode}"
    for line in done.stdout.splitlines():
        fields = parse_scontrol(line.strip())
        if fields.get("JobId") == job_id:
            reason = fields.get("Reason")
            return (fields.get("JobState", "UNKNOWN"), None if reason in (None, "None") else reason), None
    return None, None


def _sacct(job_id: str) -> tuple[str, str | None] | None:
    """(state, reason) from accounting, or None where there is none (or it does not know the job)."""
    exe = shutil.which("sacct")
    if exe is None:
        return None
    try:
        done = subprocess.run([exe, "-n", "-P", "-X", "-j", job_id, "-o", "State,Reason"], capture_output=True,
                              text=True, timeout=QUERY_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return None
    lines = [line for line in done.stdout.splitlines() if "|" in line]
    if done.returncode != 0 or not lines:
        return None  # "Slurm accounting storage is disabled"
    state, _, reason = lines[0].partition("|")
    state = state.split()[0] if state.strip() else "UNKNOWN"  # "CANCELLED by 0"
    return state, None if reason in ("", "None") else reason


def _exit_status(files: JobFiles) -> int | None:
    try:
        return int(files.exit_status.read_text().strip())
    except (OSError, ValueError):
        return None


def _stepd_notice(files: JobFiles, job_id: str) -> tuple[str, str | None] | None:
    for path in (files.slurm_output(job_id), files.stderr):
        try:
            text = path.read_text(errors="replace")
        except OSError:
            continue
        for match in STEPD_LINE.finditer(text):
            if match.group(1) != job_id:
                continue
            due = (match.group(2) or "").strip().upper()
            state = STEPD_STATES.get(due, "CANCELLED")
            return state, {"TIMEOUT": "TimeLimit"}.get(state)
    return None


def last_line(path: Path) -> str | None:
    """The last non-empty line of a file (Slurm's output), for a message; None if there is none."""
    try:
        lines = [line.strip() for line in path.read_text(errors="replace").splitlines() if line.strip()]
    except OSError:
        return None
    return lines[-1] if lines else None
