"""Which forced collective algorithms apply to the call a benchmark makes: probed once, cheaply, and cached.

A library may refuse a forced algorithm for the arguments of a call. MPICH,
with MPIR_CVAR_COLLECTIVE_FALLBACK=error (which a study sets so that a
forced algorithm is never silently replaced), aborts the job with "User set
collective algorithm is not usable for the provided arguments": its
Alltoall `pairwise_sendrecv_replace` serves MPI_IN_PLACE only, which IMB's
Alltoall never passes; other algorithms need a power-of-two communicator or
a commutative operation. Every launch of such an arm would die, and the
study with it.

So before a study each forced algorithm is launched once at each process
count, with the study's own arguments (the sizes may matter) but one
iteration per size (`-iter 1`), nothing stored and nothing printed: a
launch that dies with the library's refusal (NOT_USABLE) marks the
algorithm "not applicable to this call" at that count; any other outcome
leaves it in the study, which then measures it or reports its failure.
The definite answers are cached per library, core, operation, forced
setting, process count and arguments (cache_dir()/algorithm-probes.json),
so a second study of the same call launches nothing.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from mpimark.execution import launch, slurm
from mpimark.execution.mpi import MpiImpl
from mpimark.execution.placement import Placement
from mpimark.paths import cache_dir, read_cached_json, write_cached

# What the libraries say when a forced algorithm cannot serve the call's arguments (MPICH's **collalgo).
NOT_USABLE = ("User set collective algorithm is not usable for the provided arguments",)
PROBE_ARGS = ("-iter", "1")  # after the study's own: one message per sample, at each of its sizes
PROBE_TIMEOUT_S = 120.0
CACHE_NAME = "algorithm-probes.json"


class Interrupted(Exception):
    """A probe was ended by Ctrl-C, SIGTERM or SIGHUP: the study must not start (the answers so far are kept)."""


@dataclass(frozen=True)
class Probe:
    """One forced algorithm at one process count: what the probe launches."""

    label: str  # the study's arm (Alltoall:pairwise_sendrecv_replace)
    processes: int
    args: tuple[str, ...]  # the core's arguments after the suite (the operation, the study's options)
    placement: Placement  # with the variables that force the algorithm


def refusal(message: str | None) -> str | None:
    """The library's refusal in a failed launch's message (launch.Outcome.message), or None."""
    if not message or not any(sign in message for sign in NOT_USABLE):
        return None
    _, said, why = message.partition("stderr: ")
    return why if said else message


def not_applicable(impl: MpiImpl, core: Path, suite: str, probes: Sequence[Probe], *, srun: slurm.Srun | None,
                   news: Callable[[str], None] = lambda line: None) -> dict[tuple[str, int], str]:
    """(label, processes) -> the library's refusal, for each probe whose algorithm does not apply.

    Raises Interrupted when a probe was interrupted."""
    cache = _Cache(cache_dir() / CACHE_NAME)
    refused: dict[tuple[str, int], str] = {}
    try:
        for probe in probes:
            key = _key(impl, core, suite, probe)
            answer = cache.get(key)
            if answer is None:
                news(f"probing {probe.label} at {probe.processes} processes (one launch, -iter 1)")
                answer = _launch_once(impl, core, suite, probe, srun)
                if answer is not None:
                    cache.put(key, answer)
            if answer is not None and answer.get("refused"):
                refused[(probe.label, probe.processes)] = answer["refused"]
    finally:
        cache.save()
    return refused


def _launch_once(impl: MpiImpl, core: Path, suite: str, probe: Probe, srun: slurm.Srun | None) -> dict | None:
    """{"refused": why} or {"refused": None} (the launch completed); None when it failed otherwise (not known)."""
    with tempfile.TemporaryDirectory(prefix="mpimark-probe-") as scratch:
        stream = Path(scratch) / "probe.jsonl"
        argv, env = launch.command(impl, probe.processes, core, suite, [*probe.args, *PROBE_ARGS], stream,
                                   probe.placement, srun=srun)
        outcome = launch.run(argv, env, stream, lambda record: None, impl=impl, processes=probe.processes,
                             timeout=PROBE_TIMEOUT_S, silent=True, count_hint=srun.hint if srun else None)
    if outcome.status == "interrupted":
        raise Interrupted(outcome.message)
    if outcome.status == "complete":
        return {"refused": None}
    why = refusal(outcome.message)
    return {"refused": why} if why else None


def _key(impl: MpiImpl, core: Path, suite: str, probe: Probe) -> str:
    try:
        built = os.stat(core).st_mtime_ns  # a rebuilt core (another library) asks again
    except OSError:
        built = 0
    what = [impl.library_version, str(core), built, suite, list(probe.args), probe.processes,
            probe.placement.to_record()]
    return hashlib.sha256(json.dumps(what).encode()).hexdigest()


class _Cache:
    """A JSON object of answers in a file; a file that cannot be read or written is no cache."""

    def __init__(self, path: Path) -> None:
        self.path, self.changed = path, False
        answers = read_cached_json(path)
        self.answers = answers if isinstance(answers, dict) else {}

    def get(self, key: str) -> dict | None:
        found = self.answers.get(key)
        return found if isinstance(found, dict) else None

    def put(self, key: str, answer: dict) -> None:
        self.answers[key], self.changed = answer, True

    def save(self) -> None:
        if self.changed:  # unwritten, the answers are asked for again next time
            write_cached(self.path, json.dumps(self.answers, indent=0))
