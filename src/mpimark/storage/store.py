"""The results database: one SQLite file holding runs, results and events.

A result record is spread over typed columns (so results can be queried in
SQL), with only what those do not give back exactly kept as JSON beside
them (storage/compact.py); the other records are kept as the JSON the
caller handed in. `records()` gives back exactly what was added, fields the
schema does not know included. Each add_record commits on its own, in WAL
mode, so a run that dies keeps every row it finished and readers never block
the writer; an import (add_run) commits in batches.

Every public method raises StoreError, with one line saying what to do, for
problems with the file (locked, corrupt, too new, unknown run).
"""

from __future__ import annotations

import functools
import json
import operator
import os
import socket
import sqlite3
import stat
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Literal

from mpimark.errors import MpimarkError
from mpimark.paths import data_dir
from mpimark.storage import intact
from mpimark.records import per_rank
from mpimark.records.results import MACHINE_EVENT, TableKey
from mpimark.storage import compact

# Marks the file as ours (PRAGMA application_id, "mpmk"), so another
# program's SQLite file is refused instead of being written into.
APPLICATION_ID = 0x6D706D6B
BUSY_TIMEOUT_S = 5.0
FINAL_STATUSES = ("complete", "incomplete", "failed", "interrupted")
# An import writes its records in batches (add_run): each prepared, parse and all, outside the write lock
# for at most this long (or this many records), then written in one transaction; between two, another
# writer gets the lock.
IMPORT_BATCH_S = 0.25
IMPORT_BATCH_ROWS = 20000
# The status message of a run while it is being imported (add_run): its records are not all stored yet.
IMPORTING = "being imported: not all of its records are stored yet"
# A run submitted as a Slurm batch job is 'pending' until Slurm starts it, then 'running'.
JOB_STATUSES = ("pending", "running")

# Environment variables that steer an MPI library or its launcher; only these
# are stored with a run (the rest of an environment may hold secrets).
STEERING_PREFIXES = ("OMPI_", "MPICH_", "MPIR_CVAR_", "I_MPI_", "FI_", "UCX_", "PMIX_", "HYDRA_")

# Columns filled from a result record (column, field), and from its distribution (storage/compact.py).
RESULT_FIELDS = tuple((column, field) for column, field, _ in compact.RESULT_COLUMNS)
DISTRIBUTION_FIELDS = tuple(field for field, _ in compact.DISTRIBUTION_COLUMNS)
EVENT_FIELDS = ("level", "kind", "message", "benchmark", "processes", "bytes")

# Schema migrations, applied in order; PRAGMA user_version counts those applied.
# Never edit one that has shipped (it is literal SQL for that reason): add the
# next one (ALTER TABLE ... ADD COLUMN) and the new column to the lists above.
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        """CREATE TABLE runs (
            id INTEGER PRIMARY KEY,
            started_utc TEXT NOT NULL,
            finished_utc TEXT,
            status TEXT NOT NULL
                CHECK (status IN ('running', 'complete', 'incomplete', 'failed', 'interrupted')),
            status_message TEXT,
            suite TEXT NOT NULL,
            mpi_name TEXT,
            mpi_prefix TEXT,
            mpi_library_version TEXT,
            mpi_standard_version TEXT,
            requested_processes INTEGER NOT NULL,
            processes INTEGER,
            hosts TEXT,                     -- JSON list, from the run record
            launch_command TEXT NOT NULL,   -- JSON list
            environment TEXT NOT NULL,      -- JSON object of the steering variables
            record_count INTEGER NOT NULL DEFAULT 0,  -- records added: the next one's seq
            run_seq INTEGER,
            run_record TEXT,                -- JSON, as added
            end_seq INTEGER,
            end_status TEXT,
            elapsed_s REAL,
            results_reported INTEGER,
            load_average_after TEXT,        -- JSON list
            end_record TEXT                 -- JSON, as added
        )""",
        """CREATE TABLE results (
            run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
            seq INTEGER NOT NULL,
            "benchmark" TEXT, "suite" TEXT, "processes" INTEGER, "multi" INTEGER, "groups" INTEGER,
            "grp" INTEGER, "bytes" INTEGER, "count" INTEGER, "datatype" TEXT, "status" TEXT,
            "repetitions" INTEGER, "t_min_usec" REAL, "t_max_usec" REAL, "t_avg_usec" REAL,
            "mbytes_per_sec" REAL, "msgs_per_sec" REAL, "defects" INTEGER, "needed_gb" REAL,
            "median_usec" REAL, "ci_low_usec" REAL, "ci_high_usec" REAL, "ci_level" REAL,
            "ci_coverage" REAL, "q1_usec" REAL, "q3_usec" REAL, "p5_usec" REAL, "p95_usec" REAL,
            "min_usec" REAL, "max_usec" REAL, "samples" INTEGER, "batch_size" INTEGER,
            samples_ns TEXT,                -- JSON list
            record TEXT NOT NULL,           -- JSON, as added
            PRIMARY KEY (run_id, seq)
        )""",
        'CREATE INDEX results_by_benchmark ON results ("benchmark", "processes", "bytes")',
        """CREATE TABLE events (
            run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
            seq INTEGER NOT NULL,
            "level" TEXT, "kind" TEXT, "message" TEXT, "benchmark" TEXT, "processes" INTEGER,
            "bytes" INTEGER,
            record TEXT NOT NULL,           -- JSON, as added
            PRIMARY KEY (run_id, seq)
        )""",
    ),
    # 2: studies (storage/studies.py). Their tables were created outside the
    # migrations before; IF NOT EXISTS adopts them as they are.
    (
        """CREATE TABLE IF NOT EXISTS study_runs (
            study TEXT NOT NULL,
            implementation TEXT NOT NULL,
            run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
            added_utc TEXT NOT NULL,
            PRIMARY KEY (study, run_id)
        )""",
        """CREATE TABLE IF NOT EXISTS study_plans (
            study TEXT NOT NULL,
            added_utc TEXT NOT NULL,
            plan TEXT NOT NULL      -- JSON: what one `mpimark matrix` set out to run
        )""",
    ),
    # 3: placement (docs/clusters.md): what was asked for, from the options
    # (execution.placement.Placement.to_record(); NULL: the launcher's
    # defaults), and from the run record the nodes and ranks per node. Runs
    # stored before on one host get 1 node of all their ranks.
    (
        "ALTER TABLE runs ADD COLUMN placement TEXT",      # JSON object, as asked for
        "ALTER TABLE runs ADD COLUMN nodes INTEGER",       # from the run record
        "ALTER TABLE runs ADD COLUMN ranks_per_node TEXT",  # JSON list, in the order of hosts
        """UPDATE runs SET nodes = 1, ranks_per_node = '[' || processes || ']'
            WHERE processes IS NOT NULL AND hosts LIKE '["%"]' AND hosts NOT LIKE '%","%'""",
    ),
    (
        # 4: Slurm batch jobs. A run gets status 'pending' (submitted, not started);
        # SQLite cannot change a CHECK, so runs is rebuilt (with foreign keys off,
        # see _migrate, so results and events keep their rows).
        """CREATE TABLE runs_new (
            id INTEGER PRIMARY KEY,
            started_utc TEXT NOT NULL,
            finished_utc TEXT,
            status TEXT NOT NULL
                CHECK (status IN ('pending', 'running', 'complete', 'incomplete', 'failed', 'interrupted')),
            status_message TEXT,
            suite TEXT NOT NULL,
            mpi_name TEXT,
            mpi_prefix TEXT,
            mpi_library_version TEXT,
            mpi_standard_version TEXT,
            requested_processes INTEGER NOT NULL,
            processes INTEGER,
            hosts TEXT,
            launch_command TEXT NOT NULL,
            environment TEXT NOT NULL,
            record_count INTEGER NOT NULL DEFAULT 0,
            run_seq INTEGER,
            run_record TEXT,
            end_seq INTEGER,
            end_status TEXT,
            elapsed_s REAL,
            results_reported INTEGER,
            load_average_after TEXT,
            end_record TEXT,
            placement TEXT,
            nodes INTEGER,
            ranks_per_node TEXT
        )""",
        """INSERT INTO runs_new SELECT id, started_utc, finished_utc, status, status_message, suite, mpi_name,
            mpi_prefix, mpi_library_version, mpi_standard_version, requested_processes, processes, hosts,
            launch_command, environment, record_count, run_seq, run_record, end_seq, end_status, elapsed_s,
            results_reported, load_average_after, end_record, placement, nodes, ranks_per_node FROM runs""",
        "DROP TABLE runs",
        "ALTER TABLE runs_new RENAME TO runs",
        """CREATE TABLE slurm_jobs (
            run_id INTEGER PRIMARY KEY REFERENCES runs (id) ON DELETE CASCADE,
            job_id TEXT NOT NULL,
            cluster TEXT,
            directory TEXT NOT NULL,        -- the job's files (execution.slurm.JobFiles)
            submitted_utc TEXT NOT NULL,
            state TEXT NOT NULL,            -- Slurm's JobState, as last seen
            reason TEXT,                    -- Slurm's Reason, as last seen
            checked_utc TEXT,
            collected_utc TEXT,             -- set when the job's files were stored
            mpi TEXT NOT NULL               -- JSON: the implementation, to check the run record against
        )""",
    ),
    # 5: who writes a running run (JSON: host, boot id, pid, start time of that mpimark process), so a run
    # whose mpimark died is seen as such, and where its stream file is, so `mpimark recover` can store it.
    (
        "ALTER TABLE runs ADD COLUMN owner TEXT",
        "ALTER TABLE runs ADD COLUMN stream_path TEXT",
    ),
    # 6: the SHA-256 of an imported file, so importing the same file again is seen (NULL: not imported).
    (
        "ALTER TABLE runs ADD COLUMN source_sha256 TEXT",
        "CREATE INDEX runs_by_source_sha256 ON runs (source_sha256)",
    ),
    # 7: the measurement a run is a launch of (`mpimark run --launches N`): the id of the measurement's
    # first run, on each of its runs, that one included; NULL for a run stored alone (a measurement of
    # one launch). Launches, not samples, are what compare replicates (docs/analysis.md).
    (
        "ALTER TABLE runs ADD COLUMN measurement INTEGER",
        "CREATE INDEX runs_by_measurement ON runs (measurement)",
    ),
    # 8: result rows stored once (storage/compact.py): a row's record keeps only what its typed columns do
    # not give back exactly, and its shape (the record's fields in order, shared by the rows alike) says
    # where each value is. Rows stored before keep their whole record and no shape (NULL), and read as before.
    (
        """CREATE TABLE result_shapes (
            id INTEGER PRIMARY KEY,
            shape TEXT NOT NULL UNIQUE      -- JSON, compact.split's
        )""",
        "ALTER TABLE results ADD COLUMN shape INTEGER",
    ),
    # 9: a run on a simulated machine (SimGrid SMPI): its run record's "simulation" object (simulator, version,
    # setup: platform, collective selector ...) as JSON, NULL for a measured run, so every view can mark it
    # (records/simulation.py) without reading the run record. Runs stored before get it from their run record.
    (
        "ALTER TABLE runs ADD COLUMN simulation TEXT",
        # CASE, not AND: SQLite evaluates CASE lazily, and json_type would raise on a run record that is not JSON.
        """UPDATE runs SET simulation = CASE WHEN json_valid(run_record) THEN
               CASE WHEN json_type(run_record, '$.simulation') = 'object'
                    THEN json_extract(run_record, '$.simulation') END END
            WHERE run_record LIKE '%"simulation"%'""",
    ),
)

SCHEMA_VERSION = len(MIGRATIONS)  # what PRAGMA user_version reads after migrating

# SQLite's integers are 64-bit: a larger Python int (a run id of 23 digits, a size of 2^63 bytes) cannot be
# stored or looked up, and sqlite3 raises OverflowError. Checked where numbers come in (importers.common.number,
# run ids here and in selection), and turned into one line by _guard wherever else one slips through.
MAX_INTEGER = 2**63 - 1


def fits_integer(value: int) -> bool:
    """Whether SQLite can store (and look up) value: a 64-bit signed integer."""
    return -MAX_INTEGER - 1 <= value <= MAX_INTEGER


class StoreError(MpimarkError):
    """The results database cannot do what was asked; the message says why and what to do."""


class StoreLocked(StoreError):
    """Another process holds the write lock, for longer than the busy timeout: trying again later may work
    (storage/locking.py waits for it)."""


@dataclass(frozen=True)
class ImportEnd:
    """What a one-pass import knows of its run only once every record is read and checked (add_run's ending)."""

    first: dict  # the record stored at seq 0, ahead of the others: the import's event, which counts them
    status: str
    message: str | None
    requested_processes: int


@dataclass(frozen=True)
class JobRow:
    """A run submitted to Slurm (mpimark submit)."""

    run_id: int
    job_id: str
    cluster: str | None
    directory: str
    submitted_utc: str
    state: str
    reason: str | None
    checked_utc: str | None
    collected_utc: str | None
    mpi: dict


@dataclass(frozen=True)
class RunRow:
    id: int
    started_utc: str
    finished_utc: str | None
    status: str
    status_message: str | None
    suite: str
    mpi_name: str | None
    mpi_prefix: str | None
    mpi_library_version: str | None
    mpi_standard_version: str | None
    requested_processes: int
    processes: int | None
    hosts: list[str]
    launch_command: list[str]
    environment: dict[str, str]
    results: int  # result rows stored
    elapsed_s: float | None  # from the end record
    load_average_after: list[float] | None
    # Placement asked for (execution.placement.Placement.to_record(); None: the
    # launcher's defaults) and, from the run record, nodes and ranks per node.
    placement: dict | None = None
    nodes: int | None = None
    ranks_per_node: list[int] | None = None
    # The mpimark process that writes the run while it runs (owner_now()) and the stream file it reads.
    owner: dict | None = None
    stream_path: str | None = None
    # The measurement this run is a launch of: its first run's id (None: stored alone, one launch).
    measurement: int | None = None
    # The run record's "simulation" object (records/simulation.py): None for a run measured on real hardware.
    simulation: dict | None = None


def _process_start(pid: int) -> int | None:
    """The start time of a process (clock ticks since boot, /proc/PID/stat field 22), None if it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stream:
            return int(stream.read().rsplit(b")", 1)[1].split()[19])
    except (OSError, IndexError, ValueError):
        return None


def _boot_id() -> str | None:
    try:
        return Path("/proc/sys/kernel/random/boot_id").read_text().strip()
    except OSError:
        return None


def owner_now() -> dict:
    """This process as the owner of a run: host, boot, pid and start time (a pid alone is reused)."""
    pid = os.getpid()
    return {"host": socket.gethostname(), "boot_id": _boot_id(), "pid": pid, "start": _process_start(pid)}


def owner_alive(owner: dict | None) -> bool | None:
    """Whether the process that owns a run still runs: None when that cannot be told from here (another host)."""
    if not owner:
        return None
    if owner.get("host") != socket.gethostname():
        return None
    if owner.get("boot_id") and owner.get("boot_id") != _boot_id():
        return False  # the machine was restarted since
    start = _process_start(int(owner["pid"]))
    return start is not None and start == owner.get("start")


def being_imported(row: RunRow) -> bool:
    """Whether a run is an import not yet ended (add_run): some of its records may not be stored yet."""
    return row.status == "running" and bool(row.owner) and bool(row.owner.get("import"))


def steering_environment(env: Mapping[str, str]) -> dict[str, str]:
    """The variables of env that steer MPI, sorted by name."""
    return {k: env[k] for k in sorted(env) if k.startswith(STEERING_PREFIXES)}


def writable(path: Path) -> bool:
    """Whether path (a file or a directory) may be written: permissions and a read-only file system alike."""
    return os.access(path, os.W_OK)


def default_path() -> Path:
    """$MPIMARK_DB, else the XDG data directory (what platformdirs gives on Linux)."""
    if os.environ.get("MPIMARK_DB"):
        return Path(os.environ["MPIMARK_DB"])
    return data_dir() / "results.db"


def _now_utc() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


_dumps = compact.dumps


def _loads(text: str | None):
    return None if text is None else json.loads(text)


def _shared(obj: dict) -> dict:
    """A decoded object whose keys and short strings are shared with every other record's.

    json.loads makes new key strings for every record; a run of 10^6 results
    held at once (report, compare) took three times the memory for them."""
    return {sys.intern(k): sys.intern(v) if type(v) is str and len(v) <= 64 else v for k, v in obj.items()}


def _record(text: str) -> dict:
    return json.loads(text, object_hook=_shared)


def _nodes(run_record: dict) -> tuple[int | None, str | None]:
    """(nodes, ranks per node as JSON) of a run record; a core that predates them on one host: (1, [N])."""
    per_node = per_rank.ranks_per_node(run_record)  # listed, or past the core's bound its counts
    if per_node:
        return run_record.get("nodes") or len(per_node), _dumps(per_node)
    hosts, processes = run_record.get("hosts"), run_record.get("processes")
    if isinstance(hosts, list) and len(hosts) == 1 and isinstance(processes, int):
        return 1, _dumps([processes])
    return None, None


def _simulation(run_record: dict) -> str | None:
    """The runs.simulation column of a run record: its "simulation" object as JSON, None for a measured run."""
    simulation = run_record.get("simulation")
    return _dumps(simulation) if isinstance(simulation, dict) else None


def _insert(conn: sqlite3.Connection, table: str, run_id: int, seq: int, columns: dict, record: str) -> None:
    names = ", ".join(f'"{name}"' for name in columns)  # quoted: "count" and "groups" are SQL words
    marks = ", ".join("?" * len(columns))
    # A list or object where the schema has a scalar goes in as JSON text: the
    # record column keeps the truth, the typed columns must not refuse a record.
    values = [_dumps(v) if isinstance(v, (dict, list)) else v for v in columns.values()]
    try:
        conn.execute(f"INSERT INTO {table} (run_id, seq, {names}, record) VALUES (?, ?, {marks}, ?)",
                     (run_id, seq, *values, record))
    except OverflowError:  # looked for only now: checking every value of every row would slow imports
        raise _overflow(seq, columns, values) from None


def _overflow(seq: int, names: Iterable[str], values: Iterable) -> StoreError:
    name, value = next((n, v) for n, v in zip(names, values) if isinstance(v, int) and not fits_integer(v))
    return StoreError(f"cannot store record {seq + 1} of the stream: its {name} {value} is beyond the integers "
                      f"SQLite stores (at most {MAX_INTEGER})")


def _names(columns: Sequence[str]) -> str:
    return ", ".join(f'"{c}"' for c in columns)  # quoted: "count" and "groups" are SQL words


_RESULT_NAMES = _names(compact.COLUMNS)


@functools.lru_cache(maxsize=256)
def _result_insert(used: tuple[int, ...]) -> str:
    """The INSERT of result rows that fills the columns at these places of compact.COLUMNS (the others: NULL)."""
    names = _names(["run_id", "seq", *(compact.COLUMNS[place] for place in used), "record", "shape"])
    return f"INSERT INTO results ({names}) VALUES ({', '.join('?' * (len(used) + 4))})"


def _insert_results(conn: sqlite3.Connection, run_id: int, rows: list[tuple[int, list, str, str]]) -> None:
    """Result rows, each (seq, *compact.split(record)), in one statement; their shapes added where new.

    A column that no row of them fills is left out of the statement (NULL, its default): an imported text's
    row fills about a third of the 32, and binding the others took about 40 % of a row's insert."""
    ids: dict[str, int] = {}
    for _, _, _, shape in rows:
        if shape not in ids:
            conn.execute("INSERT OR IGNORE INTO result_shapes (shape) VALUES (?)", (shape,))
            ids[shape] = conn.execute("SELECT id FROM result_shapes WHERE shape = ?", (shape,)).fetchone()[0]
    if not rows:
        return
    columns = zip(*[values for _, values, _, _ in rows])  # each column's values, row by row
    used = tuple(place for place, column in enumerate(columns) if column.count(None) != len(column))
    # itemgetter of one place gives the value, not a tuple of it
    pick = operator.itemgetter(*used) if len(used) > 1 else (lambda values: tuple(values[p] for p in used))
    try:
        conn.executemany(_result_insert(used), [(run_id, seq, *pick(values), rest, ids[shape])
                                                for seq, values, rest, shape in rows])
    except OverflowError:
        seq, values = next((seq, values) for seq, values, _, _ in rows
                           if any(isinstance(v, int) and not fits_integer(v) for v in values))
        raise _overflow(seq, compact.COLUMNS, values) from None


# The result rows as compact.Reader.join reads them: (seq, record, shape, the values in compact.COLUMNS order).
_RESULT_VALUES = ("results.seq, results.record, result_shapes.shape AS shape_json, "
                  + ", ".join(f'results."{c}"' for c in compact.COLUMNS))
_RESULT_FROM = " FROM results LEFT JOIN result_shapes ON result_shapes.id = results.shape"
_RESULT_ROWS = f"SELECT {_RESULT_VALUES}{_RESULT_FROM}"
_NO_RESULT_VALUES = ", ".join(["NULL"] * len(compact.COLUMNS))
_READER = compact.Reader()  # shapes are read by their text, so one reader serves every database


def _result_record(row: Sequence) -> dict:
    """The record of a row (record, shape, *values) of _RESULT_ROWS, or of one whose record is whole (no shape)."""
    text, shape = row[0], row[1]
    return _record(text) if shape is None else _READER.join(shape, text, row[2:])


class Store:
    def __init__(self, path: str | Path | None = None, *, timeout_s: float = BUSY_TIMEOUT_S,
                 create: bool = True, for_reading: bool = False) -> None:
        """Open (and create or migrate) the database at path, $MPIMARK_DB or the default path.

        create=False refuses a missing file instead of creating it, for
        commands that only read (a typo in --db should not make a new file).
        for_reading=True (implies create=False), for commands that only read:
        where the file or its directory cannot be written (a read-only file
        system, another user's directory), the database is opened read-only
        (self.readonly): SQLite's mode=ro, and immutable=1 where the directory
        is not writable (WAL would need to create its -shm file there; rows
        still in a -wal file are then not seen). Nothing is migrated then: an
        older database is refused with what to do.
        """
        create = create and not for_reading
        self.path = Path(path) if path else default_path()
        self.timeout_s = timeout_s
        self.readonly = for_reading and self.path.exists() and not (
            writable(self.path) and writable(self.path.resolve().parent))
        # launch.py may hand records over from a reader thread: share one
        # connection across threads, one statement sequence at a time.
        self._lock = threading.RLock()
        self._conn: sqlite3.Connection | None = None
        if not self.path.exists():
            if not create:
                raise StoreError(f"no results database at {self.path}; run 'mpimark run' first or use --db")
            if path is None:  # only the default location's directories are made for the user
                try:
                    self.path.parent.mkdir(parents=True, exist_ok=True)
                except OSError as exc:
                    raise StoreError(f"cannot create {self.path.parent}: {exc.strerror}") from None
        self._intact = False  # set once the file is found intact: then close() remembers it (intact.py)
        if self.readonly:
            self._open_readonly(timeout_s)
            return
        try:
            with self._guard():
                self._side_files_writable()
                # isolation_level=None: transactions are explicit (BEGIN IMMEDIATE below).
                self._conn = sqlite3.connect(self.path, timeout=timeout_s, isolation_level=None,
                                             check_same_thread=False)
                if not for_reading:  # before anything, journal_mode too, writes; readers check at their first write
                    self._require_intact()
                self._conn.execute("PRAGMA journal_mode=WAL")
                self._conn.execute("PRAGMA foreign_keys=ON")
                # WAL + NORMAL loses no committed row when the process dies; only
                # a power cut can drop the last few commits.
                self._conn.execute("PRAGMA synchronous=NORMAL")
                self._migrate()
        except BaseException:
            self.close()
            raise

    def _require_intact(self) -> None:
        """StoreError, before the first write, when PRAGMA quick_check finds the file damaged (intact.py)."""
        if self._intact:
            return
        damage = intact.problem(self._connection(), self.path)
        if damage:
            raise StoreError(f"{self.path} is damaged (SQLite's quick_check: {damage}); nothing is written to it. "
                             f"Keep a copy, save what can be read with 'sqlite3 {self.path} .recover | sqlite3 "
                             "repaired.db' and use --db repaired.db")
        self._intact = True

    def _side_files_writable(self) -> None:
        """A -wal or -shm left read-only by a session on the read-only database (SQLite gives them the
        database's mode) made every write fail with "attempt to write a readonly database" once the database
        was writable again. Ours: given the database's mode (harmless while others use them); another
        user's: what to do."""
        for side in (Path(f"{self.path}-wal"), Path(f"{self.path}-shm")):
            if not side.exists() or writable(side) or not writable(self.path):
                continue
            if side.stat().st_uid == os.geteuid():
                side.chmod(stat.S_IMODE(self.path.stat().st_mode))
                continue
            raise StoreError(f"{side} cannot be written (left by a read-only session of another user), so "
                             f"neither can {self.path}; once nothing has the database open, remove it "
                             f"(rm {side}) or have its owner make it writable")

    def _open_readonly(self, timeout_s: float) -> None:
        uri = self.path.resolve().as_uri() + "?mode=ro"
        if not writable(self.path.resolve().parent):
            uri += "&immutable=1"
        try:
            with self._guard():
                self._conn = sqlite3.connect(uri, uri=True, timeout=timeout_s, isolation_level=None,
                                             check_same_thread=False)
                conn = self._connection()
                version = conn.execute("PRAGMA user_version").fetchone()[0]
                self._check_identity(version, conn.execute("PRAGMA application_id").fetchone()[0])
                if version == 0 and conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
                    raise StoreError(f"{self.path} is not an mpimark results database (it has other tables); "
                                     "use --db")
                if version < SCHEMA_VERSION:
                    raise StoreError(f"{self.path} was written by an older mpimark (database version {version}) "
                                     f"and cannot be upgraded where it is (read-only); copy it somewhere writable "
                                     "and use --db")
        except BaseException:
            self.close()
            raise

    # -- plumbing ----------------------------------------------------------

    @contextmanager
    def _guard(self) -> Iterator[None]:
        """Turn sqlite3's exceptions into StoreError with the fix in the message."""
        with self._lock:
            try:
                yield
            except sqlite3.OperationalError as exc:
                text = str(exc)
                if "locked" in text or "busy" in text:
                    raise StoreLocked(f"the results database {self.path} is locked by another process; "
                                      "wait or use --db to pick another file") from None
                raise StoreError(f"cannot use the results database {self.path}: {text}") from None
            except OverflowError:
                raise StoreError(f"a number beyond what SQLite stores (integers up to {MAX_INTEGER}) was given "
                                 f"for {self.path}; no run id, size or count is that large") from None
            except (sqlite3.IntegrityError, sqlite3.InterfaceError, sqlite3.ProgrammingError) as exc:
                # What was asked does not fit the database; the file itself is fine.
                raise StoreError(f"the results database {self.path} refused a value: {exc}") from None
            except sqlite3.DatabaseError as exc:  # includes "file is not a database"
                raise StoreError(f"{self.path} is not an mpimark results database (or is corrupt): {exc}; "
                                 "move it away or use --db") from None

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction (the store's own, and its neighbours' such as studies.py); IMMEDIATE takes the write lock up front, so a
        busy database fails at BEGIN (after the busy timeout), not half way."""
        with self._guard():
            self._require_intact()
            conn = self._connection()
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
            except BaseException:
                if conn.in_transaction:  # some errors (disk full) end the transaction themselves
                    conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")

    @contextmanager
    def patience(self, seconds: float) -> Iterator[None]:
        """Inside, wait at most seconds for another process's lock before StoreLocked (else: timeout_s)."""
        with self._guard():
            conn = self._connection()
            conn.execute(f"PRAGMA busy_timeout = {max(0, round(seconds * 1000))}")
            try:
                yield
            finally:
                conn.execute(f"PRAGMA busy_timeout = {round(self.timeout_s * 1000)}")

    def query(self, sql: str, params: tuple = ()) -> list[tuple]:
        """The rows of one read-only statement."""
        with self._guard():
            return self._connection().execute(sql, params).fetchall()

    def _connection(self) -> sqlite3.Connection:
        if self._conn is None:
            raise StoreError(f"the results database {self.path} is closed")
        return self._conn

    def _migrate(self) -> None:
        conn = self._connection()
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        app = conn.execute("PRAGMA application_id").fetchone()[0]
        self._check_identity(version, app)
        if version == SCHEMA_VERSION:
            return
        self._require_intact()
        # A migration may rebuild a table others refer to: with foreign keys on,
        # dropping the old one would delete every result (the pragma is a no-op
        # inside a transaction, so it is set before BEGIN and checked before COMMIT).
        conn.execute("PRAGMA foreign_keys=OFF")
        conn.execute("BEGIN IMMEDIATE")
        try:
            # Read again under the write lock: another process may have migrated meanwhile.
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            if version == 0 and conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
                raise StoreError(f"{self.path} is not an mpimark results database (it has other tables); "
                                 "move it away or use --db")
            for number in range(version, SCHEMA_VERSION):
                for statement in MIGRATIONS[number]:
                    conn.execute(statement)
            if conn.execute("PRAGMA foreign_key_check").fetchone() is not None:
                raise StoreError(f"{self.path}: migrating the database broke a reference between its tables; "
                                 "nothing was changed (please report it)")
            conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        finally:
            if not conn.in_transaction:
                conn.execute("PRAGMA foreign_keys=ON")
        conn.execute("COMMIT")
        conn.execute("PRAGMA foreign_keys=ON")

    def _check_identity(self, version: int, app: int) -> None:
        if app not in (0, APPLICATION_ID) or (version > 0 and app != APPLICATION_ID):
            raise StoreError(f"{self.path} is not an mpimark results database (another program's SQLite file); "
                             "move it away or use --db")
        if version > SCHEMA_VERSION:
            raise StoreError(f"{self.path} was written by a newer mpimark (database version {version}, "
                             f"this one knows up to {SCHEMA_VERSION}); upgrade mpimark or use --db")

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None
                if self._intact:
                    intact.remember(self.path)
                    self._intact = False

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _require_run(self, conn: sqlite3.Connection, run_id: int) -> tuple:
        row = None
        if fits_integer(run_id):  # beyond: no such run, rather than sqlite3's OverflowError
            row = conn.execute("SELECT record_count, run_seq, end_seq FROM runs WHERE id = ?", (run_id,)).fetchone()
        if row is None:
            raise self._no_run(run_id)
        return row

    def _no_run(self, run_id: int) -> StoreError:
        return StoreError(f"no run {run_id} in {self.path}; 'mpimark runs' lists the stored runs")

    # -- writing -----------------------------------------------------------

    def begin_run(self, *, launch_command: list[str], environment: Mapping[str, str], mpi_name: str | None,
                  mpi_prefix: str | None, requested_processes: int, suite: str,
                  placement: Mapping | None = None, stream_path: str | Path | None = None,
                  measurement: int | Literal["new"] | None = None) -> int:
        """A new run in status 'running', owned by this process; only the MPI-steering part of environment is kept.

        placement: what was asked for (Placement.to_record()), None for the launcher's defaults.
        stream_path: the stream file the records come from, for `mpimark recover` should this process die.
        measurement: "new" begins a measurement of several launches (its id: this run's), an id adds the
        run to that measurement as its next launch, None stores the run alone.
        """
        with self.transaction() as conn:
            if isinstance(measurement, int):
                self._require_run(conn, measurement)
            cursor = conn.execute(
                "INSERT INTO runs (started_utc, status, suite, mpi_name, mpi_prefix, requested_processes,"
                " launch_command, environment, placement, owner, stream_path, measurement)"
                " VALUES (?, 'running', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (_now_utc(), suite, mpi_name, mpi_prefix, requested_processes, _dumps(list(launch_command)),
                 _dumps(steering_environment(environment)), None if placement is None else _dumps(dict(placement)),
                 _dumps(owner_now()), None if stream_path is None else str(stream_path),
                 measurement if isinstance(measurement, int) else None),
            )
            run_id = int(cursor.lastrowid)
            if measurement == "new":  # in the same transaction: no reader sees the first launch alone
                conn.execute("UPDATE runs SET measurement = id WHERE id = ?", (run_id,))
            return run_id

    def add_run(self, *, records: Iterable[dict | tuple], status: str | None = None, message: str | None = None,
                ending: Callable[[], ImportEnd] | None = None, **meta) -> int:
        """A whole run (begin_run's meta, the records, the final status), for imports; returns its id.

        A result may come as its compact.split (an importer that builds it directly: imb_rows.py). With
        ending, the run's status, message and requested_processes, and its record at seq 0, are asked of
        ending() once records are read to their end (which may raise: the file was found bad at its end),
        and the records are stored from seq 1.

        Written in batches of a fraction of a second, each its own transaction, and the next batch
        parsed and prepared while no lock is held: another mpimark (a run ending, another import) gets
        the lock between two. Until the last batch the run is 'running', owned by this process and marked
        as an import (owner["import"]); should the import fail or be interrupted, its run is deleted, and
        if even that cannot be done (or mpimark is killed), `mpimark recover` deletes it once this process
        is gone. records may be a generator: none is kept beyond its batch.
        """
        if ending is None and status not in FINAL_STATUSES:
            raise StoreError(f"a run ends {', '.join(FINAL_STATUSES)}, not {status!r}")
        run_id = self._begin_import({"requested_processes": 0, **meta})
        try:
            # The run is new and ours alone: its seq and record flags are counted here, not read per record.
            seq, run_seq, end_seq = (0 if ending is None else 1), None, None
            for batch in self._import_batches(run_id, records):
                with self.transaction() as conn:
                    results = []
                    for record, form in batch:
                        if record is None:  # a result, already split
                            results.append((seq, *form))
                        else:
                            self._add(conn, run_id, record, form, (seq, run_seq, end_seq))
                            run_seq = seq if record["type"] == "run" else run_seq
                            end_seq = seq if record["type"] == "end" else end_seq
                        seq += 1
                    _insert_results(conn, run_id, results)
            end = ending() if ending is not None else None
            if end is not None and end.status not in FINAL_STATUSES:
                raise StoreError(f"a run ends {', '.join(FINAL_STATUSES)}, not {end.status!r}")
            first = None if end is None else self._stored_form(run_id, end.first)
            with self.transaction() as conn:
                if end is not None:
                    self._add(conn, run_id, end.first, first, (0, run_seq, end_seq))
                    status, message = end.status, end.message
                    conn.execute("UPDATE runs SET requested_processes = ? WHERE id = ?",
                                 (end.requested_processes, run_id))
                conn.execute("UPDATE runs SET record_count = ?, status = ?, status_message = ?, finished_utc = ?"
                             " WHERE id = ?", (seq, status, message, _now_utc(), run_id))
        except BaseException:
            self._forget_import(run_id)
            raise
        self._checkpoint()
        return run_id

    def _begin_import(self, meta: Mapping) -> int:
        with self.transaction() as conn:
            # The file may say when the run started and its library (importers' Parsed.run_columns).
            cursor = conn.execute(
                "INSERT INTO runs (started_utc, status, status_message, suite, mpi_name, mpi_prefix,"
                " requested_processes, launch_command, environment, placement, owner, source_sha256,"
                " mpi_library_version, mpi_standard_version) VALUES (?, 'running', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (meta.get("started_utc") or _now_utc(), IMPORTING, meta["suite"], meta.get("mpi_name"),
                 meta.get("mpi_prefix"), meta["requested_processes"], _dumps(list(meta["launch_command"])),
                 _dumps(steering_environment(meta.get("environment") or {})),
                 None if meta.get("placement") is None else _dumps(dict(meta["placement"])),
                 _dumps({**owner_now(), "import": True}), meta.get("source_sha256") or None,
                 meta.get("mpi_library_version"), meta.get("mpi_standard_version")))
            return int(cursor.lastrowid)

    def _import_batches(self, run_id: int,
                        records: Iterable[dict | tuple]) -> Iterator[list[tuple[dict | None, object]]]:
        """The records as (record, _stored_form) in batches of IMPORT_BATCH_S of reading or IMPORT_BATCH_ROWS;
        a result's record is None (its split form is all that is written)."""
        batch: list[tuple[dict | None, object]] = []
        started = time.monotonic()
        for record in records:
            if type(record) is tuple:  # a result as its compact.split already
                batch.append((None, record))
            else:
                form = self._stored_form(run_id, record)
                batch.append((None if record["type"] == "result" else record, form))
            if len(batch) >= IMPORT_BATCH_ROWS or (len(batch) % 256 == 0
                                                   and time.monotonic() - started >= IMPORT_BATCH_S):
                yield batch
                batch, started = [], time.monotonic()
        if batch:
            yield batch

    def _forget_import(self, run_id: int) -> None:
        """Delete an import that did not finish; where that fails too, the run stays 'running' with this
        process as its owner, for `mpimark recover` to delete."""
        try:
            self.delete_run(run_id)
        except (StoreError, KeyboardInterrupt):
            pass

    def _checkpoint(self) -> None:
        """Copy the WAL into the database and truncate it: a large import should not leave a WAL of its size.
        TRUNCATE waits for readers and writers: at most a moment (then SQLite does what it can, not an error)."""
        try:
            with self.patience(0.5), self._guard():
                self._connection().execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        except StoreError:
            pass

    def run_of_source(self, sha256: str) -> int | None:
        """The first run imported from a file of this content (add_run's source_sha256), or None."""
        row = self.query("SELECT id FROM runs WHERE source_sha256 = ? ORDER BY id LIMIT 1", (sha256,))
        return int(row[0][0]) if row else None

    def add_record(self, run_id: int, record: dict) -> None:
        """Store one record of the stream (run, result, event or end) and commit."""
        form = self._stored_form(run_id, record)
        with self.transaction() as conn:
            self._add(conn, run_id, record, form)

    def _stored_form(self, run_id: int, record: dict) -> str | tuple[list, str, str]:
        """What _add writes of a record: a result's compact.split, any other record's JSON text."""
        kind = record.get("type") if isinstance(record, dict) else None
        if kind not in ("run", "result", "event", "end"):
            raise StoreError(f"cannot store a record of type {kind!r} (run {run_id})")
        try:
            return compact.split(record) if kind == "result" else _dumps(record)
        except (TypeError, ValueError) as exc:
            raise StoreError(f"cannot store a {kind} record of run {run_id}: {exc}") from None

    def _add(self, conn: sqlite3.Connection, run_id: int, record: dict, form: str | tuple[list, str, str],
             state: tuple[int, int | None, int | None] | None = None) -> None:
        """form: _stored_form's. state: the run's (record_count, run_seq, end_seq) when the caller keeps them
        (add_run); else they are read and record_count counted here."""
        kind = record["type"]
        seq, run_seq, end_seq = state if state is not None else self._require_run(conn, run_id)
        if (kind == "run" and run_seq is not None) or (kind == "end" and end_seq is not None):
            raise StoreError(f"run {run_id} already has its {kind} record")
        if kind == "run":
            mpi = record.get("mpi") or {}
            conn.execute(
                "UPDATE runs SET run_seq = ?, run_record = ?, processes = ?, hosts = ?,"
                " mpi_library_version = ?, mpi_standard_version = ?, nodes = ?, ranks_per_node = ?,"
                " simulation = ? WHERE id = ?",
                (seq, form, record.get("processes"), _dumps(record.get("hosts")),
                 mpi.get("library_version"), mpi.get("standard_version"), *_nodes(record),
                 _simulation(record), run_id),
            )
        elif kind == "end":
            conn.execute(
                "UPDATE runs SET end_seq = ?, end_record = ?, end_status = ?, elapsed_s = ?,"
                " results_reported = ?, load_average_after = ? WHERE id = ?",
                (seq, form, record.get("status"), record.get("elapsed_s"), record.get("results"),
                 _dumps(record.get("load_average_after")), run_id),
            )
        elif kind == "result":
            _insert_results(conn, run_id, [(seq, *form)])
        else:
            _insert(conn, "events", run_id, seq, {field: record.get(field) for field in EVENT_FIELDS}, form)
        if state is None:
            conn.execute("UPDATE runs SET record_count = record_count + 1 WHERE id = ?", (run_id,))

    def finish_run(self, run_id: int, status: str, message: str | None = None) -> None:
        if status not in FINAL_STATUSES:
            raise StoreError(f"a run ends {', '.join(FINAL_STATUSES)}, not {status!r}")
        with self.transaction() as conn:
            self._require_run(conn, run_id)
            conn.execute("UPDATE runs SET status = ?, status_message = ?, finished_utc = ? WHERE id = ?",
                         (status, message, _now_utc(), run_id))

    def recover_run(self, run_id: int, records: list[dict], message: str) -> int:
        """A run whose mpimark died: the records its stream holds beyond those stored, and status incomplete.

        records: the whole stream, in order; those stored already are its first ones. The run's
        record_count also counts mpimark's machine event, which is not in the stream: without
        taking it off, the first unstored stream record would be skipped (lost).
        One transaction, so recovering twice cannot store a record twice.
        """
        with self.transaction() as conn:
            added_here = conn.execute("SELECT COUNT(*) FROM events WHERE run_id = ? AND kind = ?",
                                      (run_id, MACHINE_EVENT)).fetchone()[0]
            stored = self._require_run(conn, run_id)[0] - added_here
            for record in records[stored:]:
                self._add(conn, run_id, record, self._stored_form(run_id, record))
            conn.execute("UPDATE runs SET status = 'incomplete', status_message = ?, finished_utc = ?,"
                         " stream_path = NULL WHERE id = ? AND status = 'running'", (message, _now_utc(), run_id))
        return max(0, len(records) - stored)

    def stream_dir(self) -> Path:
        """Where a launch's stream file lives while it runs: beside the database, so `recover` finds it."""
        return self.path.resolve().parent / f"{self.path.name}.streams"

    def delete_run(self, run_id: int) -> None:
        """Remove a run and everything stored with it (its rows go with it: ON DELETE CASCADE)."""
        with self.transaction() as conn:
            self._require_run(conn, run_id)
            conn.execute("DELETE FROM runs WHERE id = ?", (run_id,))

    # -- Slurm batch jobs ----------------------------------------------------

    def begin_job(self, *, launch_command: list[str], environment: Mapping[str, str], mpi_name: str | None,
                  mpi_prefix: str | None, requested_processes: int, suite: str, job_id: str,
                  cluster: str | None, directory: str, mpi: Mapping, placement: Mapping | None = None) -> int:
        """A run submitted as Slurm job job_id: status 'pending', its job row, in one transaction."""
        with self.transaction() as conn:
            now = _now_utc()
            cursor = conn.execute(
                "INSERT INTO runs (started_utc, status, suite, mpi_name, mpi_prefix, requested_processes,"
                " launch_command, environment, placement) VALUES (?, 'pending', ?, ?, ?, ?, ?, ?, ?)",
                (now, suite, mpi_name, mpi_prefix, requested_processes, _dumps(list(launch_command)),
                 _dumps(steering_environment(environment)), None if placement is None else _dumps(dict(placement))),
            )
            run_id = int(cursor.lastrowid)
            conn.execute("INSERT INTO slurm_jobs (run_id, job_id, cluster, directory, submitted_utc, state, mpi)"
                         " VALUES (?, ?, ?, ?, ?, 'PENDING', ?)",
                         (run_id, job_id, cluster, directory, now, _dumps(dict(mpi))))
            return run_id

    def update_job(self, run_id: int, state: str, reason: str | None, status: str) -> None:
        """What Slurm said of a job not yet ended; status is the run's: pending or running."""
        if status not in JOB_STATUSES:
            raise StoreError(f"a submitted run is {' or '.join(JOB_STATUSES)} until collected, not {status!r}")
        with self.transaction() as conn:
            self._require_run(conn, run_id)
            conn.execute("UPDATE slurm_jobs SET state = ?, reason = ?, checked_utc = ? WHERE run_id = ?",
                         (state, reason, _now_utc(), run_id))
            conn.execute("UPDATE runs SET status = ? WHERE id = ? AND status IN ('pending', 'running')",
                         (status, run_id))

    def collect_job(self, run_id: int, records: list[dict], status: str, message: str | None, state: str,
                    reason: str | None) -> None:
        """A finished job's stream, its run's final status and Slurm's last word, all in one transaction:
        a collection that fails half way stores nothing, and can be done again."""
        if status not in FINAL_STATUSES:
            raise StoreError(f"a run ends {', '.join(FINAL_STATUSES)}, not {status!r}")
        texts = [self._stored_form(run_id, record) for record in records]
        with self.transaction() as conn:
            row = conn.execute("SELECT collected_utc FROM slurm_jobs WHERE run_id = ?", (run_id,)).fetchone()
            if row is None:
                raise StoreError(f"run {run_id} is not a Slurm job")
            if row[0] is not None:
                raise StoreError(f"run {run_id} was collected at {row[0]} already")
            for record, text in zip(records, texts):
                self._add(conn, run_id, record, text)
            now = _now_utc()
            conn.execute("UPDATE runs SET status = ?, status_message = ?, finished_utc = ? WHERE id = ?",
                         (status, message, now, run_id))
            conn.execute("UPDATE slurm_jobs SET state = ?, reason = ?, checked_utc = ?, collected_utc = ?"
                         " WHERE run_id = ?", (state, reason, now, now, run_id))

    _JOB_QUERY = ("SELECT run_id, job_id, cluster, directory, submitted_utc, state, reason, checked_utc,"
                  " collected_utc, mpi FROM slurm_jobs")

    def jobs(self, *, uncollected: bool = False) -> list[JobRow]:
        """The runs submitted to Slurm, newest first; uncollected: those whose files are not stored yet."""
        where = " WHERE collected_utc IS NULL" if uncollected else ""
        with self._guard():
            rows = self._connection().execute(f"{self._JOB_QUERY}{where} ORDER BY run_id DESC").fetchall()
        return [JobRow(*row[:-1], json.loads(row[-1])) for row in rows]

    def job(self, run_id: int) -> JobRow | None:
        if not fits_integer(run_id):
            return None  # no run, so no job
        with self._guard():
            row = self._connection().execute(f"{self._JOB_QUERY} WHERE run_id = ?", (run_id,)).fetchone()
        return None if row is None else JobRow(*row[:-1], json.loads(row[-1]))

    # -- reading -----------------------------------------------------------

    _RUN_QUERY = (
        "SELECT id, started_utc, finished_utc, status, status_message, suite, mpi_name, mpi_prefix,"
        " mpi_library_version, mpi_standard_version, requested_processes, processes, hosts, launch_command,"
        " environment, (SELECT count(*) FROM results WHERE results.run_id = runs.id), elapsed_s,"
        " load_average_after, placement, nodes, ranks_per_node, owner, stream_path, measurement, simulation"
        " FROM runs"
    )

    @staticmethod
    def _run_row(row: tuple) -> RunRow:
        values = list(row)
        for index in (12, 13, 14, 17, 18, 20, 21, 24):  # the JSON columns
            values[index] = _loads(values[index])
        values[12] = values[12] or []
        return RunRow(*values)

    def runs(self) -> list[RunRow]:
        """Every stored run, newest first."""
        with self._guard():
            rows = self._connection().execute(f"{self._RUN_QUERY} ORDER BY id DESC").fetchall()
        return [self._run_row(r) for r in rows]

    def run(self, run_id: int) -> RunRow:
        if not fits_integer(run_id):
            raise self._no_run(run_id)
        with self._guard():
            row = self._connection().execute(f"{self._RUN_QUERY} WHERE id = ?", (run_id,)).fetchone()
        if row is None:
            raise self._no_run(run_id)
        return self._run_row(row)

    def readable_run(self, run_id: int) -> RunRow:
        """run(), refused while the run is being imported: part of a file, shown or compared, would pass for
        the whole (show, export, and every selection of runs)."""
        row = self.run(run_id)
        if being_imported(row):
            raise StoreError(f"run {run_id} is being imported: not all of its records are stored yet; wait for the "
                             "import to end ('mpimark recover' deletes it if that mpimark died)")
        return row

    def measurement_runs(self, measurement: int) -> list[int]:
        """The ids of a measurement's runs (its launches), in the order they ran; [] when there is none."""
        rows = self.query("SELECT id FROM runs WHERE measurement = ? ORDER BY id", (measurement,))
        return [int(row[0]) for row in rows]

    _CONTEXT_QUERY = (
        "SELECT seq, record FROM events WHERE run_id = :id"
        " UNION ALL SELECT run_seq, run_record FROM runs WHERE id = :id AND run_record IS NOT NULL"
        " UNION ALL SELECT end_seq, end_record FROM runs WHERE id = :id AND end_record IS NOT NULL")
    _RECORDS_QUERY = (f"{_RESULT_ROWS} WHERE results.run_id = :id"
                      f" UNION ALL SELECT *, NULL, {_NO_RESULT_VALUES} FROM ({_CONTEXT_QUERY}) ORDER BY 1")

    def records(self, run_id: int) -> list[dict]:
        """Every record of the run as added, in arrival order."""
        with self._guard():
            conn = self._connection()
            self._require_run(conn, run_id)
            rows = conn.execute(self._RECORDS_QUERY, {"id": run_id}).fetchall()
        return [_result_record(row[1:]) for row in rows]

    def iter_records(self, run_id: int) -> Iterator[dict]:
        """records(), one at a time as SQLite reads them: a run of any size in bounded memory.

        Consume it before the next call on this store (it holds the connection's cursor)."""
        for row in self._rows(run_id, self._RECORDS_QUERY):
            yield _result_record(row[1:])

    def iter_results(self, run_id: int) -> Iterator[dict]:
        """The run's result records alone, in arrival order, one at a time (as iter_records)."""
        for row in self._rows(run_id, f"{_RESULT_ROWS} WHERE results.run_id = :id ORDER BY seq"):
            yield _result_record(row[1:])

    def results_of(self, run_id: int, benchmarks: Iterable[str], processes: int | None = None) -> list[dict]:
        """The run's result records of some benchmarks (at one process count), in arrival order: what a
        report's section of a benchmark needs, without the rest of a run of any size."""
        return list(self.iter_results_of(run_id, benchmarks, processes))

    def iter_results_of(self, run_id: int, benchmarks: Iterable[str], processes: int | None = None) -> Iterator[dict]:
        """results_of(), one at a time as SQLite reads them (as iter_records)."""
        names = list(benchmarks)
        marks = ", ".join(f":b{i}" for i in range(len(names)))
        sql = (f"{_RESULT_ROWS} WHERE results.run_id = :id AND benchmark IN ({marks})"
               + ("" if processes is None else " AND processes = :processes") + " ORDER BY seq")
        values = {f"b{i}": name for i, name in enumerate(names)} | {"processes": processes}
        return (_result_record(row[1:]) for row in self._rows(run_id, sql, values))

    def _rows(self, run_id: int, sql: str, values: dict | None = None) -> Iterator[tuple]:
        """The rows of a query of one run (parameter :id, and values), fetched some at a time."""
        with self._guard():
            conn = self._connection()
            self._require_run(conn, run_id)
            cursor = conn.execute(sql, {"id": run_id, **(values or {})})
        while True:
            with self._guard():
                rows = cursor.fetchmany(1000)
            if not rows:
                return
            yield from rows

    # results.table_mode in SQL: the record's mode, else its communicator other than MPI_COMM_WORLD.
    TABLE_MODE_SQL = ("COALESCE(json_extract(record, '$.mode'), NULLIF(COALESCE(json_extract(record, '$.comm'),"
                      " json_extract(record, '$.communicator')), 'MPI_COMM_WORLD'))")
    # results.group_results' order, made by SQLite (which sorts in bounded memory, spilling to a
    # temporary file): tables in the order of their first row, each table's rows in arrival order.
    # The mode is TableKey's (IMB-EXT/RMA: aggregate, non_aggregate; mpiBench's communicator), which only
    # the record holds.
    _TABLES_QUERY = (
        f"SELECT benchmark, multi, processes, grp, mode, record, shape_json, {_RESULT_NAMES} FROM ("
        f" SELECT {_RESULT_VALUES}, {TABLE_MODE_SQL} AS mode,"
        f" min(seq) OVER (PARTITION BY benchmark, multi, processes, grp, {TABLE_MODE_SQL}) AS first"
        f"{_RESULT_FROM} WHERE results.run_id = :id) ORDER BY first, seq")

    def iter_tables(self, run_id: int) -> Iterator[tuple[TableKey, list[dict]]]:
        """group_results(records(run_id)).items(), one table held at a time: a run of any size in memory
        bounded by its largest table. Consume it before the next call on this store."""
        table: list[dict] = []
        current: TableKey | None = None
        for row in self._rows(run_id, self._TABLES_QUERY):
            key = TableKey(*row[:5])
            if key != current:
                if table:
                    yield current, table
                current, table = key, []
            table.append(_result_record(row[5:]))
        if table:
            yield current, table

    def context_records(self, run_id: int) -> list[dict]:
        """records() without the results: the run and end records and the events, in arrival order."""
        return [_record(text) for _, text in self._rows(run_id, f"{self._CONTEXT_QUERY} ORDER BY 1")]

    def run_record(self, run_id: int) -> dict | None:
        """The run's run record (the stream's first), None if it has none (imports of other suites' text)."""
        with self._guard():
            row = self._connection().execute("SELECT run_record FROM runs WHERE id = ?", (run_id,)).fetchone()
        return None if row is None else _loads(row[0])
