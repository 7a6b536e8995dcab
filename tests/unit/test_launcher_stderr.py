"""launcher_stderr.py on the stderr that real launches left (tests/unit/data/launcher_stderr, captured from
Debian's MPICH 4.0.2 and Open MPI 4.1.4)."""

from __future__ import annotations

from pathlib import Path

import pytest

from mpimark.execution.launcher_stderr import HeldLines, library_lines, reason

DATA = Path(__file__).parent / "data" / "launcher_stderr"


def lines_of(name: str) -> list[str]:
    return (DATA / name).read_text().splitlines(keepends=True)


@pytest.mark.parametrize("name, why", [
    # MPICH with MPIR_CVAR_ALLTOALL_INTRA_ALGORITHM=pairwise_sendrecv_replace on IMB's Alltoall: the
    # deepest line of the first rank's error stack, not its "Other MPI error" header.
    ("mpich-alltoall-not-usable.txt",
     "Fatal error in internal_Alltoall: User set collective algorithm is not usable for the provided arguments"),
    ("openmpi-invalid-rank.txt", "An error occurred in MPI_Send: MPI_ERR_RANK: invalid rank"),
    # hydra's "BAD TERMINATION" frame and its advice dropped; the exit string it gives kept.
    ("hydra-rank-killed.txt", "YOUR APPLICATION TERMINATED WITH THE EXIT STRING: Killed (signal 9)"),
    # Open MPI's "Primary job terminated normally" frame dropped: the rank's own line is why.
    ("openmpi-exit-epilogue.txt", "rank says: disk full"),
])
def test_the_line_that_says_why(name, why):
    assert reason(library_lines(lines_of(name))) == why


def test_the_epilogues_are_dropped_and_the_librarys_lines_kept():
    kept = library_lines(lines_of("hydra-rank-killed.txt"))
    assert kept == ["YOUR APPLICATION TERMINATED WITH THE EXIT STRING: Killed (signal 9)"]
    assert library_lines(lines_of("mpich-alltoall-not-usable.txt")) == \
        [line.rstrip("\n") for line in lines_of("mpich-alltoall-not-usable.txt")]
    assert reason([]) is None


def test_held_lines_are_bounded_and_say_what_was_dropped():
    held = HeldLines(head=2, tail=3)
    for number in range(100):
        held.append(f"line {number}\n")
    assert held.lines() == ["line 0\n", "line 1\n", "line 97\n", "line 98\n", "line 99\n"]
    assert held.kept_text() == ["line 0", "line 1", "[95 line(s) of the launcher's stderr not kept]",
                                "line 97", "line 98", "line 99"]


def test_a_long_reason_is_cut():
    assert len(reason(["x" * 1000])) == 300
