"""Shared machinery of the integration tests: the environment written by
scripts/setup.sh, a bounded way to run the core under the MPI launcher, the
reading of its stderr and JSON stream, and cached runs that several test
files share."""

from __future__ import annotations

import atexit
import json
import math
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from . import imbtext

ROOT = Path(__file__).resolve().parents[2]
CORE = ROOT / "build" / "core" / "mpimark-core"
MPIEXEC = ROOT / "scripts" / "mpiexec.sh"
ENV_FILE = ROOT / ".venv" / "mpimark-env.sh"
DEFAULT_TIMEOUT = 120.0

# The short plan every shared run uses: sizes 0..16 bytes, at most 50
# iterations. Here -time only caps the iterations (at 1 + time / t_iter,
# far above 50) and sets the time-out limit of a table ((sizes - 1) * time):
# IMB's 10 s keeps oversubscribed runs on a loaded machine clear of
# time-out rows without making any run longer.
SHORT = ("-msglog", "0:4", "-time", "10", "-iter", "50")
INCLUDE_ALL = ("-include", ",".join(imbtext.NON_DEFAULT))


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "slow: takes more than a minute; runs only with MPIMARK_SLOW=1")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if os.environ.get("MPIMARK_SLOW") == "1":
        return
    skip = pytest.mark.skip(reason="slow test: set MPIMARK_SLOW=1 to run it")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


# --- environment ---------------------------------------------------------------

_env_loaded = False


def load_env() -> None:
    """Source .venv/mpimark-env.sh once and copy what it exports into os.environ."""
    global _env_loaded
    if _env_loaded:
        return
    if not ENV_FILE.is_file():
        pytest.fail(f"{ENV_FILE} is missing: run 'bash scripts/setup.sh' first", pytrace=False)
    out = subprocess.run(["bash", "-c", f'. "{ENV_FILE}" && env -0'], check=True,
                         capture_output=True, timeout=30).stdout.decode()
    for item in out.split("\0"):
        if "=" in item:
            key, value = item.split("=", 1)
            if key not in ("_", "SHLVL", "PWD", "OLDPWD") and os.environ.get(key) != value:
                os.environ[key] = value
    _env_loaded = True


@pytest.fixture(scope="session", autouse=True)
def mpimark_env() -> None:
    load_env()
    if not CORE.is_file():
        pytest.fail(f"{CORE} is missing: run 'bash scripts/setup.sh' first", pytrace=False)


# --- running the core ------------------------------------------------------------

_tmpdir: Path | None = None


def scratch_dir() -> Path:
    global _tmpdir
    if _tmpdir is None:
        _tmpdir = Path(tempfile.mkdtemp(prefix="mpimark-it-"))
        atexit.register(shutil.rmtree, _tmpdir, True)
    return _tmpdir


@dataclass
class CoreRun:
    """What one launch gave. Unpacks as (returncode, stdout, stderr, records)."""

    returncode: int
    stdout: str
    stderr: str
    records: list[dict]
    cmd: list[str] = field(default_factory=list)
    json_path: Path | None = None
    elapsed: float = 0.0

    def __iter__(self):
        return iter((self.returncode, self.stdout, self.stderr, self.records))

    @property
    def report(self) -> imbtext.Report:
        return imbtext.parse(self.stdout)

    def results(self, benchmark: str | None = None) -> list[dict]:
        return [r for r in self.records if r["type"] == "result"
                and (benchmark is None or r["benchmark"] == benchmark)]

    def events(self, kind: str | None = None) -> list[dict]:
        return [r for r in self.records if r["type"] == "event" and (kind is None or r["kind"] == kind)]

    @property
    def run_record(self) -> dict:
        assert self.records and self.records[0]["type"] == "run", "no run record"
        return self.records[0]

    @property
    def end_record(self) -> dict:
        assert self.records and self.records[-1]["type"] == "end", "no end record"
        return self.records[-1]

    def core_stderr(self) -> list[str]:
        return core_stderr_lines(self.stderr)

    def describe(self) -> str:
        return (f"$ {' '.join(self.cmd)}\nexit {self.returncode}\n--- stderr ---\n{self.stderr[-3000:]}"
                f"\n--- stdout (tail) ---\n{self.stdout[-2000:]}")


def _reject_constant(name: str) -> float:
    raise ValueError(f"{name} is not valid JSON")


def read_jsonl(path: Path) -> list[dict]:
    if not path.exists():
        return []
    records = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.strip():
            try:
                records.append(json.loads(line, parse_constant=_reject_constant))
            except ValueError as exc:
                raise AssertionError(f"{path}:{number}: not JSON: {exc}: {line[:200]!r}") from None
    return records


def run_core(n: int, *args: str, json: bool = True, timeout: float = DEFAULT_TIMEOUT,
             cwd: Path | None = None, env: dict | None = None, program: list[str] | None = None) -> CoreRun:
    """Run `scripts/mpiexec.sh n build/core/mpimark-core *args` with a time limit.

    args start with the suite (normally "mpi1"). With json=True a fresh
    "-json FILE" is appended and its records are returned. On time-out the
    whole process group (launcher and ranks) is killed and the test fails.
    program replaces the core (e.g. a wrapper followed by the core)."""
    load_env()
    json_path = None
    argv = [str(a) for a in args]
    if json:
        json_path = Path(tempfile.mkstemp(suffix=".jsonl", dir=scratch_dir())[1])
        json_path.unlink()
        argv += ["-json", str(json_path)]
    cmd = ["bash", str(MPIEXEC), str(n), *(program or [str(CORE)]), *argv]
    full_env = dict(os.environ)
    if env:
        full_env.update(env)
    t0 = time.monotonic()
    proc = subprocess.Popen(cmd, cwd=cwd or ROOT, env=full_env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill_group(proc)
        out, err = proc.communicate()
        pytest.fail(f"core run did not finish in {timeout:.0f} s (killed): {' '.join(cmd)}\n"
                    f"stderr: {err.decode(errors='replace')[-2000:]}", pytrace=False)
    elapsed = time.monotonic() - t0
    records = read_jsonl(json_path) if json_path else []
    return CoreRun(proc.returncode, out.decode(errors="replace"), err.decode(errors="replace"),
                   records, cmd, json_path, elapsed)


def _kill_group(proc: subprocess.Popen) -> None:
    for sig, wait in ((signal.SIGTERM, 5), (signal.SIGKILL, 5)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(timeout=wait)
            return
        except subprocess.TimeoutExpired:
            continue


# --- stderr ------------------------------------------------------------------------

_LAUNCHER_LINE = re.compile(
    r"^(mpirun|mpiexec|prterun|prte|orterun)\b|Primary job|^\[[^\]]+\] |^=+$|BAD TERMINATION|YOUR APPLICATION")


def core_stderr_lines(stderr: str) -> list[str]:
    """stderr without what the launcher adds after a non-zero exit: Open MPI's
    blocks between '-----' lines ("Primary job terminated ...", "mpiexec
    detected that one or more processes exited ..."), prterun / Hydra lines."""
    out, in_block = [], False
    for line in stderr.splitlines():
        if re.fullmatch(r"-{10,}", line.strip()):
            in_block = not in_block
            continue
        if in_block or not line.strip() or _LAUNCHER_LINE.search(line):
            continue
        out.append(line)
    return out


def error_lines(lines: list[str]) -> list[str]:
    return [x for x in lines if x.startswith("mpimark-core: error:")]


# --- numbers -------------------------------------------------------------------------

def same_printed(value: float, text: str, decimals: int) -> bool:
    """Does `text` (C's %.{decimals}f of the core's double) show `value` (the
    same double written to JSON with 12 significant digits)? Equal strings,
    or - only where value sits on a rounding boundary - one unit apart."""
    if f"{value:.{decimals}f}" == text:
        return True
    scaled = abs(value) * 10 ** decimals
    on_boundary = abs(scaled - math.floor(scaled) - 0.5) < 1e-6 * max(1.0, scaled)
    return on_boundary and abs(float(text) - value) <= 0.5 * 10 ** -decimals * (1 + 1e-9)


def close(a: float, b: float, rel: float = 1e-9, abs_: float = 1e-12) -> bool:
    return abs(a - b) <= max(rel * max(abs(a), abs(b)), abs_)


# --- shared runs ------------------------------------------------------------------------

@pytest.fixture(scope="session")
def full_run():
    """full_run(n): every MPI-1 benchmark (defaults + the six non-default ones)
    at n ranks with the SHORT plan and -json; one launch per n per session."""
    cache: dict[int, CoreRun] = {}

    def get(n: int) -> CoreRun:
        if n not in cache:
            cache[n] = run_core(n, "mpi1", *INCLUDE_ALL, *SHORT)
        return cache[n]

    return get


@pytest.fixture(scope="session")
def cached_run():
    """cached_run(n, *args): run_core with json, shared by every test asking the same."""
    cache: dict[tuple, CoreRun] = {}

    def get(n: int, *args: str) -> CoreRun:
        key = (n, *args)
        if key not in cache:
            cache[key] = run_core(n, *args)
        return cache[key]

    return get


# --- text rows vs JSON results ------------------------------------------------------------

# text column -> (JSON field, decimals printed; None = integer printed as is)
COLUMN_FIELDS = {
    "Group": ("group", None),
    "#bytes": ("bytes", None),
    "#repetitions": ("repetitions", None),
    "t[usec]": ("t_max_usec", 2),
    "t_min[usec]": ("t_min_usec", 2),
    "t_max[usec]": ("t_max_usec", 2),
    "t_avg[usec]": ("t_avg_usec", 2),
    "Mbytes/sec": ("mbytes_per_sec", 2),
    "Msg/sec": ("msgs_per_sec", 0),
    "defects": ("defects", None),
}


def result_key(rec: dict) -> tuple:
    return (rec["benchmark"], rec["processes"], rec["group"], rec["bytes"])


def row_key(table: imbtext.Table, row: imbtext.Row) -> tuple:
    return (table.name, table.processes, row.group, row.bytes if row.bytes is not None else 0)


def row_mismatches(row: imbtext.Row, rec: dict) -> list[str]:
    """The columns where a text row does not show the JSON record's value."""
    bad = []
    if row.status != {"ok": "ok", "timeout": "time-out", "out_of_memory": "out-of-mem",
                      "int_overflow": "int-overflow"}[rec["status"]]:
        bad.append(f"status {row.status} vs {rec['status']}")
    for col, text in row.fields.items():
        name, decimals = COLUMN_FIELDS[col]
        value = rec[name]
        if value is None:
            bad.append(f"{col}: JSON {name} is null, text {text!r}")
        elif decimals is None:
            if int(text) != value:
                bad.append(f"{col}: text {text} vs JSON {name} {value}")
        elif not same_printed(value, text, decimals):
            bad.append(f"{col}: text {text} vs JSON {name} {value}")
    return bad


def match_tables(report: imbtext.Report, results: list[dict]) -> list[str]:
    """Every text row has exactly one JSON result with its values and vice versa."""
    problems = []
    by_key: dict[tuple, list[dict]] = {}
    for rec in results:
        by_key.setdefault(result_key(rec), []).append(rec)
    problems += [f"{k}: {len(v)} JSON results" for k, v in by_key.items() if len(v) != 1]
    seen = set()
    for t in report.tables:
        for row in t.rows:
            key = row_key(t, row)
            if key in seen:
                problems.append(f"{key}: two text rows")
            seen.add(key)
            if key not in by_key:
                problems.append(f"{key}: text row without JSON result: {row.line!r}")
                continue
            problems += [f"{key}: {m}" for m in row_mismatches(row, by_key[key][0])]
    problems += [f"{k}: JSON result without text row" for k in by_key if k not in seen]
    return problems
