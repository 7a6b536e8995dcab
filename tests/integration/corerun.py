"""The machinery of the integration tests, importable by other test packages
(tests/suites): the environment written by scripts/setup.sh, a bounded way to
run the core under an MPI launcher, the reading of its stderr and JSON
stream, and the comparison of IMB's text tables with the JSON results.

conftest.py re-exports all of it and adds the fixtures."""

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
# MPIMARK_TEST_CORE: another build of the core (an engineer's own build directory while build/core is in use).
CORE = Path(os.environ.get("MPIMARK_TEST_CORE") or ROOT / "build" / "core" / "mpimark-core")
MPIEXEC = ROOT / "scripts" / "mpiexec.sh"
ENV_FILE = ROOT / ".venv" / "mpimark-env.sh"
DEFAULT_TIMEOUT = 120.0


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
    core_argv: list[str] = field(default_factory=list)  # the core's own argv: program, suite, options
    timed_out: bool = False  # killed at the time limit (run_core(..., allow_timeout=True))

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
             cwd: Path | None = None, env: dict | None = None, program: list[str] | None = None,
             launcher: list[str] | None = None, allow_timeout: bool = False) -> CoreRun:
    """Run `scripts/mpiexec.sh n build/core/mpimark-core *args` with a time limit.

    args start with the suite (normally "mpi1"). With json=True a fresh
    "-json FILE" is appended and its records are returned. On time-out the
    whole process group (launcher and ranks) is killed and the test fails.
    program replaces the core (e.g. a wrapper followed by the core, or the
    core built for another MPI); launcher replaces `bash scripts/mpiexec.sh n`
    (e.g. another MPI's mpiexec with its flags and `-n N`). allow_timeout:
    a run killed at the limit is returned (timed_out, returncode None)
    instead of failing the test, for a hang that is the expected outcome."""
    load_env()
    json_path = None
    argv = [str(a) for a in args]
    if json:
        json_path = Path(tempfile.mkstemp(suffix=".jsonl", dir=scratch_dir())[1])
        json_path.unlink()
        argv += ["-json", str(json_path)]
    core_argv = [*(program or [str(CORE)]), *argv]
    cmd = [*(launcher or ["bash", str(MPIEXEC), str(n)]), *core_argv]
    full_env = dict(os.environ)
    if env:
        full_env.update(env)
    t0 = time.monotonic()
    proc = subprocess.Popen(cmd, cwd=cwd or ROOT, env=full_env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True)
    timed_out = False
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill_group(proc)
        out, err = proc.communicate()
        timed_out = True
    if timed_out and not allow_timeout:
        pytest.fail(f"core run did not finish in {timeout:.0f} s (killed): {' '.join(cmd)}\n"
                    f"stderr: {err.decode(errors='replace')[-2000:]}", pytrace=False)
    elapsed = time.monotonic() - t0
    records = read_jsonl(json_path) if json_path else []
    return CoreRun(None if timed_out else proc.returncode, out.decode(errors="replace"),
                   err.decode(errors="replace"), records, cmd, json_path, elapsed, core_argv, timed_out)


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


# --- text rows vs JSON results ------------------------------------------------------------

# text column -> (JSON field, "a.b" for a field of an object; decimals printed,
# None = integer printed as is)
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
    # the overlap tables (IMB-NBC, MPI-4) and Truly_passive_put
    "t_ovrl[usec]": ("t_max_usec", 2),
    "t_pure[usec]": ("overlap.t_pure_usec", 2),
    "t_CPU[usec]": ("overlap.t_cpu_usec", 2),
    # IMB's figure (divided by max(t_pure, t_CPU)); -imb_compat guide prints overlap_percent instead
    "overlap[%]": ("overlap.overlap_percent_max_denominator", 2),
}


def json_field(rec: dict, name: str):
    """rec's value of a COLUMN_FIELDS name; None where the field or its object is null."""
    value = rec
    for part in name.split("."):
        value = value.get(part) if isinstance(value, dict) else None
    return value


def result_key(rec: dict) -> tuple:
    return (rec["benchmark"], rec["processes"], rec["group"], rec["bytes"], rec.get("mode"))


def row_key(table: imbtext.Table, row: imbtext.Row) -> tuple:
    return (table.name, table.processes, row.group, row.bytes if row.bytes is not None else 0, table.mode)


def row_mismatches(row: imbtext.Row, rec: dict, imb_compat: str = "2021") -> list[str]:
    """The columns where a text row does not show the JSON record's value."""
    bad = []
    if row.status != {"ok": "ok", "timeout": "time-out", "out_of_memory": "out-of-mem",
                      "int_overflow": "int-overflow"}[rec["status"]]:
        bad.append(f"status {row.status} vs {rec['status']}")
    for col, text in row.fields.items():
        name, decimals = COLUMN_FIELDS[col]
        if col == "overlap[%]" and (rec.get("suite") == "io" or imb_compat == "guide"):
            name = "overlap.overlap_percent"  # IMB-IO's figure, and the guide's: divided by the minimum
        value = json_field(rec, name)
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
