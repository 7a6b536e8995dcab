"""Waiting for the results database's write lock, bounded, saying who is waited for.

SQLite lets one process write at a time. A run that ended while an import
held the lock used to fail after the 5 s busy timeout and was left 'running'
with rows missing. A launch's records now wait in order (the stream file
holds them too) while another process writes (RecordQueue), and at the end
of the run mpimark waits for the lock, up to lock_wait_s(), with a line on
stderr every NEWS_EVERY_S naming the processes that have the database open
(when_free). Past that bound the caller says where the rows are safe.
"""

from __future__ import annotations

import os
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from mpimark.storage.store import Store, StoreError, StoreLocked

T = TypeVar("T")

LOCK_WAIT_ENV = "MPIMARK_LOCK_WAIT_S"
# A whole batch of an import commits in well under a second; an old mpimark's import held the lock for
# its whole length (18 min for a 212 MB log). Five minutes covers the one and bounds the other.
DEFAULT_LOCK_WAIT_S = 300.0
NEWS_EVERY_S = 10.0
# While a launch runs and the database is locked, a record is not waited for (the launch would stall):
# it joins the queue, and the queue is tried again at most every RETRY_S, waiting RETRY_WAIT_S at most
# (an import that commits in batches leaves the lock free while it reads the next one).
RETRY_S = 1.0
RETRY_WAIT_S = 0.05


def lock_wait_s(env: dict | None = None) -> float:
    """How long to wait for another writer's lock: $MPIMARK_LOCK_WAIT_S seconds, else DEFAULT_LOCK_WAIT_S."""
    text = (os.environ if env is None else env).get(LOCK_WAIT_ENV, "").strip()
    if not text:
        return DEFAULT_LOCK_WAIT_S
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not 0 <= seconds < float("inf"):
        raise StoreError(f"{LOCK_WAIT_ENV}={text!r} is not a number of seconds (0 or more)")
    return seconds


def holders(database: Path) -> list[str]:
    """The other processes of this host that have the database (or its -wal) open, as "pid N (command)":
    one of them holds the lock. Only those this user may look at are seen."""
    wanted = {str(database.resolve()), f"{database.resolve()}-wal"}
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            if not any(os.readlink(fd) in wanted for fd in (entry / "fd").iterdir()):
                continue
            command = " ".join((entry / "cmdline").read_bytes().decode("utf-8", "replace").replace("\0", " ").split())
        except OSError:  # gone meanwhile, or another user's
            continue
        found.append(f"pid {entry.name} ({command[:80]})")
    return found


def when_free(store: Store, write: Callable[[], T], what: str, *, wait_s: float,
              news: Callable[[str], None]) -> T:
    """write() (a store write), waiting up to wait_s for another process's lock with news every NEWS_EVERY_S;
    StoreLocked once wait_s has passed. what: what is waited to do, for the news ("store run 12's end")."""
    started = time.monotonic()
    while True:
        left = wait_s - (time.monotonic() - started)
        try:
            with store.patience(max(0.0, min(NEWS_EVERY_S, left))):
                return write()
        except StoreLocked:
            waited = time.monotonic() - started
            who = holders(store.path)
            opened = f" (open in {', '.join(who)})" if who else ""
            if waited >= wait_s:
                raise StoreLocked(f"the results database {store.path} stayed locked by another process{opened} "
                                  f"for {wait_s:g} s ({LOCK_WAIT_ENV}): could not {what}; try again once it is done, "
                                  "or use --db") from None
            news(f"the results database {store.path} is locked by another process{opened}; waiting to {what}: "
                 f"{waited:.0f} s of at most {wait_s:g} s ({LOCK_WAIT_ENV})")


class RecordQueue:
    """A running launch's records on their way to its run: each stored as it comes, and while another process
    holds the lock, kept in order and stored once it frees (store_waiting, or the next record's try)."""

    def __init__(self, store: Store, run_id: int) -> None:
        self.store, self.run_id = store, run_id
        self.waiting: deque[dict] = deque()
        self.next_try = 0.0

    def add(self, record: dict) -> None:
        self.waiting.append(record)
        if len(self.waiting) > 1 and time.monotonic() < self.next_try:
            return  # locked a moment ago: do not stall the launch to find out again
        try:
            with self.store.patience(RETRY_WAIT_S if len(self.waiting) > 1 else self.store.timeout_s):
                self.store_waiting()
        except StoreLocked:
            self.next_try = time.monotonic() + RETRY_S

    def store_waiting(self) -> None:
        """Every waiting record, oldest first; StoreLocked leaves those not stored waiting."""
        while self.waiting:
            self.store.add_record(self.run_id, self.waiting[0])
            self.waiting.popleft()
