"""The job cannot outlive its mpimark: a watcher that ends the launcher's session when mpimark dies.

The launcher runs in a session of its own (a Ctrl-C reaches mpimark alone,
which ends the job in order). Should mpimark die without doing so (kill -9,
an out-of-memory kill), nothing would end the job: Open MPI's ranks, their
mpirun gone, spin at 100 % CPU for minutes. So each launch has a watcher,
`python -m mpimark.execution.guard FD SESSION`, in a session of its own
(a terminal's SIGINT or SIGHUP does not reach it): it blocks reading the
pipe FD, whose write end only mpimark holds. mpimark writes one byte when it
has ended the job itself; end of file without it means mpimark died, and
the watcher ends every process of the job's session: SIGTERM (and SIGCONT,
for a stopped rank), SIGKILL to what is left after GRACE_S.

Standard library only: it starts in a few tens of milliseconds.
"""

from __future__ import annotations

import os
import signal
import sys
import time

GRACE_S = 3.0


def processes() -> dict[int, tuple[int, int]]:
    """pid -> (parent pid, session id) of every process, from /proc."""
    table = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as stream:
                fields = stream.read().rsplit(b")", 1)[1].split()  # the name in parentheses may hold spaces
        except OSError:
            continue
        table[int(entry)] = (int(fields[1]), int(fields[3]))
    return table


def session_members(session: int) -> list[int]:
    me = os.getpid()
    return [pid for pid, (_, sid) in processes().items() if sid == session and pid != me]


def end_session(session: int, grace_s: float = GRACE_S) -> None:
    """SIGTERM (and SIGCONT) to every process of the session, SIGKILL to those left after grace_s."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        members = session_members(session)
        if not members:
            return
        for pid in members:
            for send in (sig, signal.SIGCONT):  # a stopped process takes its SIGTERM only when continued
                try:
                    os.kill(pid, send)
                except (ProcessLookupError, PermissionError):
                    pass
        deadline = time.monotonic() + grace_s
        while time.monotonic() < deadline and session_members(session):
            time.sleep(0.05)


def main(argv: list[str]) -> int:
    fd, session = int(argv[1]), int(argv[2])
    for sig in (signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, signal.SIG_IGN)
    try:
        ended_in_order = os.read(fd, 1)
    except OSError:
        ended_in_order = b""
    if not ended_in_order:
        end_session(session)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
