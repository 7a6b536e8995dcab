"""execution/applicability.py: which forced algorithms the library refuses for the benchmark's call, probed
once and cached (launch.run stubbed: no MPI), and how a study shows them."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from mpimark.execution import applicability, launch
from mpimark.execution.placement import Placement
from mpimark.presentation import algorithms as shown

from .test_launch import IMPL

REFUSED = ("a rank died: mpiexec.hydra exited with status 15 before the run's end record; the 1 results received "
           "are kept; stderr: Fatal error in internal_Alltoall: User set collective algorithm is not usable for "
           "the provided arguments")
WHY = "Fatal error in internal_Alltoall: User set collective algorithm is not usable for the provided arguments"


@pytest.fixture
def launches(tmp_path, monkeypatch):
    """The launches made, by the forcing value; each ends as OUTCOMES says."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    made: list[tuple[str, int, list[str]]] = []

    def run(argv, env, json_path, on_record, *, impl, processes, silent=False, **options):
        assert silent  # a probe prints nothing
        value = argv[argv.index("-genv") + 2]  # MPIR_CVAR_ALLTOALL_INTRA_ALGORITHM's, on hydra's line
        made.append((value, processes, argv))
        status, message = OUTCOMES[value]
        return launch.Outcome(status, message, 0 if status == "complete" else 15, 3, 1)

    monkeypatch.setattr(applicability.launch, "run", run)
    monkeypatch.setattr(launch, "launch_flags", lambda impl, n, cores: [])
    return made


OUTCOMES = {"pairwise": ("complete", None), "pairwise_sendrecv_replace": ("incomplete", REFUSED),
            "brucks": ("failed", "timed out after 120 s (--timeout); the job was killed")}


def probes(*values: str, counts=(2, 4)) -> list[applicability.Probe]:
    return [applicability.Probe(f"Alltoall:{v}", n, ("Alltoall", "-msglog", "0:4", "-npmin", str(n)),
                                Placement(env=(("MPIR_CVAR_ALLTOALL_INTRA_ALGORITHM", v),)))
            for v in values for n in counts]


def ask(*values: str) -> dict:
    mpich = dataclasses.replace(IMPL, kind="mpich", mpiexec="/usr/bin/mpiexec.hydra")
    return applicability.not_applicable(mpich, Path("/nonexistent/mpimark-core"), "mpi1", probes(*values), srun=None)


def test_only_the_librarys_refusal_leaves_an_algorithm_out(launches):
    assert ask("pairwise", "pairwise_sendrecv_replace", "brucks") == {
        ("Alltoall:pairwise_sendrecv_replace", 2): WHY, ("Alltoall:pairwise_sendrecv_replace", 4): WHY}
    assert len(launches) == 6
    value, processes, argv = launches[0]
    # The study's own arguments, then one iteration per size.
    assert argv[-6:] == ["-npmin", "2", "-iter", "1", "-json", argv[-1]]


def test_definite_answers_are_cached_and_the_unknown_asked_again(launches):
    ask("pairwise", "pairwise_sendrecv_replace", "brucks")
    launches.clear()
    assert ask("pairwise", "pairwise_sendrecv_replace", "brucks") == {
        ("Alltoall:pairwise_sendrecv_replace", 2): WHY, ("Alltoall:pairwise_sendrecv_replace", 4): WHY}
    assert [v for v, _, _ in launches] == ["brucks", "brucks"]  # the timed-out probe told nothing


def test_a_broken_cache_is_no_cache(launches, tmp_path):
    cache = tmp_path / "cache" / "mpimark" / applicability.CACHE_NAME
    cache.parent.mkdir(parents=True)
    cache.write_text("[not an object")
    assert ask("pairwise_sendrecv_replace") == {("Alltoall:pairwise_sendrecv_replace", 2): WHY,
                                                 ("Alltoall:pairwise_sendrecv_replace", 4): WHY}
    assert len(launches) == 2


def test_refusal_reads_the_launch_message():
    assert applicability.refusal(REFUSED) == WHY
    assert applicability.refusal("a rank died: mpiexec exited with status 9 before the run's end record") is None
    assert applicability.refusal(None) is None


def test_the_study_lists_them_as_not_applicable():
    refused = [{"label": "Alltoall:pairwise_sendrecv_replace", "processes": n, "why": WHY} for n in (4, 2)]
    assert shown.not_applicable_notes(refused) == [
        f"Alltoall:pairwise_sendrecv_replace: not applicable to this call at np 2, 4 (not launched): {WHY}"]


def test_an_interrupted_probe_stops_the_probing_and_keeps_the_answers(launches):
    OUTCOMES["nb"] = ("interrupted", "the job was ended on SIGINT; the 0 results received are kept")
    try:
        with pytest.raises(applicability.Interrupted):
            ask("pairwise", "nb", "brucks")
        assert [v for v, _, _ in launches] == ["pairwise", "pairwise", "nb"]  # nothing after the interrupted one
        launches.clear()
        ask("pairwise")
        assert launches == []  # the answers before it were kept
    finally:
        del OUTCOMES["nb"]
