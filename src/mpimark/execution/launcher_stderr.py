"""What the launcher's stderr says about a launch that failed: the lines kept, and the one that says why.

A launch's stderr holds the MPI library's own lines (MPICH's error stack,
Open MPI's `*** An error occurred in ...` block, a rank's signal) and the
launcher's epilogue about a non-zero exit. mpimark keeps a bounded part of
it (the first HEAD_LINES and the last TAIL_LINES: the first rank to fail
usually says why, the others follow from it; a chatty run cannot fill
memory), drops the epilogues, which only repeat the exit status the message
already gives, and picks the line that says why for the run's one-line
status message.
"""

from __future__ import annotations

import re
from collections import deque

HEAD_LINES = 40
TAIL_LINES = 60
MAX_REASON = 300  # characters of the why in a one-line message

# The launchers' epilogues about a rank's exit: a block framed by rule lines (Open MPI's dashes,
# hydra's equals signs) that holds one of these, and hydra's advice after it.
_RULE = re.compile(r"^\s*(-{20,}|={20,})\s*$")
_EPILOGUE_MARKS = ("Primary job  terminated normally", "Primary job terminated normally",
                   "detected that one or more processes exited with non-zero status",
                   "BAD TERMINATION OF ONE OF YOUR APPLICATION PROCESSES")
_ADVICE = ("This typically refers to a problem with your application.",
           "Please see the FAQ page for debugging suggestions")

# MPICH: "Abort(N) on node 0 (rank 0 in comm 0): Fatal error in internal_Alltoall: Other MPI error, error
# stack:" then "FUNCTION(LINE)....: text" lines, the deepest (last) the one that says why.
_MPICH_ABORT = re.compile(r"^Abort\(\d+\) on node \d+ \(rank \d+ in comm \d+\): (Fatal error in [^:]+)")
_MPICH_STACK = re.compile(r"^\w+\(\d+\)\.*:\s*(.*)$")
# Open MPI: "[host:pid] *** An error occurred in MPI_Send" ... "[host:pid] *** MPI_ERR_RANK: invalid rank".
_OMPI_MARK = re.compile(r"^(?:\[[^\]]*\] )?\*\*\* ")
_OMPI_CLASS = re.compile(r"^MPI_ERR_\w+: .+")
# SimGrid SMPI (smpirun): "[n0:0:(1) 0.000000] ./src/smpi/...cpp:341: [root/CRITICAL] Cannot read from ..."
# then a backtrace and "Execution failed with code 134."; smpirun's own: "[smpirun] ** error: the file ...".
_SMPI_LOG = re.compile(r"\[[\w.]+/(?:CRITICAL|ERROR)\] (.+)$")
_SMPIRUN_ERROR = re.compile(r"^\[smpirun\] \*\* error: (.+)$")


class HeldLines:
    """The first HEAD_LINES and the last TAIL_LINES lines given, and how many between them were dropped."""

    def __init__(self, head: int = HEAD_LINES, tail: int = TAIL_LINES) -> None:
        self.head: list[str] = []
        self.tail: deque[str] = deque(maxlen=tail)
        self.head_size = head
        self.dropped = 0

    def append(self, line: str) -> None:
        if len(self.head) < self.head_size:
            self.head.append(line)
            return
        if len(self.tail) == self.tail.maxlen:
            self.dropped += 1
        self.tail.append(line)

    def lines(self) -> list[str]:
        """The lines kept, in order (each as given, with its newline)."""
        return [*self.head, *self.tail]

    def kept_text(self) -> list[str]:
        """library_lines() of what was kept, with a line saying where lines were dropped."""
        head, tail = library_lines(self.head), library_lines(list(self.tail))
        gap = [f"[{self.dropped} line(s) of the launcher's stderr not kept]"] if self.dropped else []
        return [*head, *gap, *tail]


def library_lines(lines: list[str]) -> list[str]:
    """The lines (without newlines) less the launchers' exit epilogues and blank lines."""
    kept: list[str] = []
    block: list[str] | None = None  # inside a rule-framed block
    for raw in lines:
        line = raw.rstrip("\n")
        if _RULE.match(line):
            if block is None:
                block = []
                continue
            if not any(mark in text for text in block for mark in _EPILOGUE_MARKS):
                kept.extend(text for text in block if text.strip())
            block = None
            continue
        if block is not None:
            block.append(line)
        elif line.strip() and line.strip() not in _ADVICE:
            kept.append(line)
    if block:  # a block left open (the stream was cut): keep it
        kept.extend(text for text in block if text.strip())
    return kept


def reason(lines: list[str]) -> str | None:
    """The line that says why the launch failed, from library_lines(): MPICH's deepest error of the first
    stack, Open MPI's error class, or else the last line; None when there is none."""
    found = _mpich_reason(lines) or _openmpi_reason(lines) or _smpi_reason(lines)
    if found is None:
        found = next((line.strip() for line in reversed(lines) if line.strip(" -=")), None)
    if found is not None and len(found) > MAX_REASON:
        found = found[:MAX_REASON - 3] + "..."
    return found


def _mpich_reason(lines: list[str]) -> str | None:
    for at, line in enumerate(lines):
        head = _MPICH_ABORT.match(line)
        if not head:
            continue
        deepest = None
        for stack_line in lines[at + 1:]:
            frame = _MPICH_STACK.match(stack_line)
            if not frame:
                break
            deepest = frame.group(1).strip() or deepest
        why = deepest or line.split(": ", 2)[-1].removesuffix(", error stack:")
        return f"{head.group(1)}: {why}"
    return None


def _openmpi_reason(lines: list[str]) -> str | None:
    texts = [_OMPI_MARK.sub("", line, count=1).strip() for line in lines if _OMPI_MARK.match(line)]
    where = next((t for t in texts if t.startswith("An error occurred in ")), None)
    error = next((t for t in texts if _OMPI_CLASS.match(t)), None)
    if where and error:
        return f"{where}: {error}"
    return error or where


def _smpi_reason(lines: list[str]) -> str | None:
    for line in lines:
        found = _SMPIRUN_ERROR.match(line) or _SMPI_LOG.search(line)
        if found:
            return found.group(1).strip()
    return None
