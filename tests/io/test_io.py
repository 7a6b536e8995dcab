"""IMB-IO (`mpimark-core io`) against the real MPI libraries: every benchmark
at 1, 2 and 3 ranks under Open MPI and MPICH with -check, no file left in
-iodir (also after a rank is SIGKILLed), and one error line for a bad -iodir.

Each (MPI, ranks) case is one core run of all benchmarks; the six runs start
together in the background when the first test asks for one. -npmin N makes
P_/C_ run on exactly N processes (the 1- and 2-rank runs cover the smaller
counts), so the 3-rank run does not repeat the others' sweep."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import pytest

# tests/io has no __init__.py (a package named io would shadow the standard library's):
# make tests/ importable for the integration helpers.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from integration.corerun import CORE, MPIEXEC, ROOT, CoreRun, core_stderr_lines, error_lines, load_env, run_core

MPIS = ("openmpi", "mpich")
RANKS = (1, 2, 3)
# Two sizes, three iterations, no calibration or warm-up: each of the
# benchmarks a few calls, so the 6 runs stay short even oversubscribed.
PLAN = ("-msgsize", "0,64", "-iter", "3,16,3", "-iter_policy", "off", "-warm_up", "off", "-time", "30", "-check")
RUN_TIMEOUT = 400.0


def benchmark_list() -> list[str]:
    load_env()
    # The facts keep the suite's (IMB's run) order; the text -list is alphabetical, as IMB's.
    out = subprocess.run([str(CORE), "io", "-list", "-json"], capture_output=True, text=True, timeout=30).stdout
    names = [b["name"] for b in json.loads(out)["suites"][0]["benchmarks"]]
    assert names, out
    return names


def is_write(name: str) -> bool:
    return "Write" in name and "IWrite" not in name


def is_nonblocking(name: str) -> bool:
    return bool(re.search(r"_I(Write|Read)_", name))


# --- MPI libraries ------------------------------------------------------------------

_mpis: dict[str, tuple[list[str], object] | None] = {}


def mpi_setup(name: str):
    """(program, launcher(n)) for the MPI, or None when it is not here."""
    if name not in _mpis:
        load_env()
        if name == "openmpi":
            _mpis[name] = ([str(CORE)], lambda n: ["bash", str(MPIEXEC), str(n)])
        else:
            from mpimark.execution import build
            from mpimark.execution import mpi
            try:
                impl = mpi.find(name)
            except mpi.MpiError:
                impl = None
            if impl is None or impl.name != name:
                _mpis[name] = None
            else:
                core = build.ensure_core(impl)
                _mpis[name] = ([str(core)], lambda n: [impl.mpiexec, *mpi.launch_flags(impl, n, mpi.cores()), "-n", str(n)])
    return _mpis[name]


# --- the shared runs ------------------------------------------------------------------

# One run at a time: on 2 cores concurrent oversubscribed runs only slow each other.
_pool = ThreadPoolExecutor(max_workers=1)
_runs: dict[tuple[str, int], tuple[Future, Path]] = {}
# tmpfs where there is one: MPI_File_sync on a disk costs milliseconds here.
_base = Path(tempfile.mkdtemp(prefix="mpimark-io-", dir="/dev/shm" if os.path.isdir("/dev/shm") else None))


def _start_all() -> None:
    if _runs:
        return
    names = benchmark_list()
    for m in MPIS:
        setup = mpi_setup(m)
        for n in RANKS:
            iodir = _base / f"{m}-{n}"
            iodir.mkdir()
            if setup is None:
                fut: Future = Future()
                fut.set_exception(pytest.skip.Exception(f"no {m} on this machine"))
            else:
                program, launcher = setup
                # Named, not -include: IMB's -include adds to the default list (which would run twice).
                fut = _pool.submit(run_core, n, "io", ",".join(names), "-npmin", str(n), *PLAN,
                                   "-iodir", str(iodir), timeout=RUN_TIMEOUT, program=program,
                                   launcher=launcher(n))
            _runs[(m, n)] = (fut, iodir)


@pytest.fixture(scope="module")
def io_run():
    _start_all()

    def get(m: str, n: int) -> tuple[CoreRun, Path]:
        fut, iodir = _runs[(m, n)]
        return fut.result(), iodir

    yield get
    shutil.rmtree(_base, ignore_errors=True)


# The odd, oversubscribed count (3) under Open MPI only, as in tests/suites: MPICH's ranks busy-poll.
CASES = [(m, n) for m in MPIS for n in RANKS if not (m == "mpich" and n == 3)]


@pytest.mark.parametrize("m,n", CASES, ids=[f"{m}-{n}" for m, n in CASES])
def test_every_benchmark(io_run, m, n):
    from mpimark.records.results import validate_record
    run, iodir = io_run(m, n)
    names = benchmark_list()
    assert run.returncode == 0, run.describe()
    assert run.records, run.describe()
    for rec in run.records:
        validate_record(rec)
    results = run.results()
    assert {r["benchmark"] for r in results} == set(names)
    bad = [(r["benchmark"], r["processes"], r["bytes"], r["status"]) for r in results if r["status"] != "ok"]
    assert not bad, bad
    defects = [(r["benchmark"], r["processes"], r.get("mode"), r["bytes"], r["defects"])
               for r in results if r.get("defects") not in (0, None)]
    assert not defects, defects
    reads = [r for r in results if "Read" in r["benchmark"]]
    assert reads and all(r["defects"] == 0 for r in reads)

    # text tables
    lines = run.stdout.splitlines()
    for name in names:
        assert any(line.startswith(f"# Benchmarking {name} ") for line in lines), name
    tables = _tables(lines)
    for name in names:
        mine = [t for t in tables if t[0] == name]
        assert mine, name
        for procs in sorted({t[1] for t in mine}):
            modes = [t[2] for t in mine if t[1] == procs]
            if is_write(name):
                assert modes == ["AGGREGATE", "NON-AGGREGATE"], (name, procs, modes)
            else:
                assert modes == [None], (name, procs, modes)
            cols = [t[3] for t in mine if t[1] == procs]
            for c in cols:
                if name == "Open_Close":  # nothing to check: no defects column
                    assert c == ["#repetitions", "t_min[usec]", "t_max[usec]", "t_avg[usec]"], c
                    continue
                assert c[-1] == "defects", (name, c)
                if is_nonblocking(name):
                    assert c[2:6] == ["t_ovrl[usec]", "t_pure[usec]", "t_CPU[usec]", "overlap[%]"], (name, c)
                else:
                    assert "overlap[%]" not in c, (name, c)
    assert sorted(os.listdir(iodir)) == [], f"left in -iodir: {os.listdir(iodir)}"


def _tables(lines: list[str]) -> list[tuple[str, int, str | None, list[str]]]:
    """(name, processes, MODE or None, columns) of every table, from its
    '# Benchmarking' line to its column header."""
    out = []
    i = 0
    while i < len(lines):
        m = re.match(r"^# Benchmarking (\S+) $", lines[i])
        if not m:
            i += 1
            continue
        name, procs, mode = m.group(1), None, None
        i += 1
        while i < len(lines) and lines[i].startswith("#"):
            p = re.match(r"^# #processes = (\d+)", lines[i])
            if p:
                procs = int(p.group(1))
            mm = re.match(r"^#\s+MODE: (\S+) ?$", lines[i])
            if mm:
                mode = mm.group(1)
            i += 1
        while i < len(lines) and not lines[i].strip():
            i += 1
        out.append((name, procs, mode, lines[i].split() if i < len(lines) else []))
    return out


# --- a killed rank leaves nothing --------------------------------------------------------

def _ranks_mentioning(text: str) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                cmd = Path(f"/proc/{entry}/cmdline").read_bytes()
                comm = Path(f"/proc/{entry}/comm").read_text().strip()
            except OSError:
                continue
            if text.encode() in cmd and comm == "mpimark-core":
                found.append(int(entry))
    return sorted(found)


@pytest.mark.parametrize("m", MPIS)
def test_no_file_left_after_sigkill(tmp_path, m):
    setup = mpi_setup(m)
    if setup is None:
        pytest.skip(f"no {m} on this machine")
    program, launcher = setup
    iodir = tmp_path / f"killed-iodir-{os.getpid()}-{m}"
    iodir.mkdir()
    json_path = tmp_path / "out.jsonl"
    cmd = [*launcher(2), *program, "io", "P_Write_indv", "-msglog", "16:24", "-time", "60", "-iter", "1000",
           "-iodir", str(iodir), "-json", str(json_path)]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            has_result = json_path.exists() and '"result"' in json_path.read_text(errors="replace")
            if os.listdir(iodir) or has_result:
                break
            assert proc.poll() is None, f"run ended early: {proc.returncode} {proc.stderr.read()!r}"
            assert time.monotonic() < deadline, "no file and no result in 60 s"
            time.sleep(0.02)
        ranks = _ranks_mentioning(str(iodir))
        assert ranks, "no rank found"
        os.kill(ranks[-1], signal.SIGKILL)
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            pytest.fail("launcher did not exit within 60 s of the SIGKILL")
        assert proc.returncode != 0
        deadline = time.monotonic() + 5
        while os.listdir(iodir) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert os.listdir(iodir) == [], f"left behind: {os.listdir(iodir)}"
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        for pid in _ranks_mentioning(str(iodir)):
            os.kill(pid, signal.SIGKILL)


# --- bad input ------------------------------------------------------------------------------

@pytest.mark.parametrize("what", ["missing", "file", "unwritable"])
def test_bad_iodir(tmp_path, what):
    if what == "missing":
        iodir = tmp_path / "no" / "such"
    elif what == "file":
        iodir = tmp_path / "plain"
        iodir.write_text("x")
    else:
        iodir = Path("/proc/self")  # not writable, even for root
    run = run_core(2, "io", "S_Write_Indv", "-iodir", str(iodir), timeout=60)
    errors = error_lines(core_stderr_lines(run.stderr))
    assert run.returncode == 2, run.describe()
    assert len(errors) == 1, run.describe()
    assert "-iodir" in errors[0]


# --- the free-space check ----------------------------------------------------------------

def test_the_space_check_on_a_small_tmpfs_accepts_what_fits(tmp_path):
    """2 ranks on a 2 MB tmpfs: 1 MiB files fit. Each rank measured the free space right after its own probe,
    while the other's probe file still took room, and refused the run now and then."""
    small = tmp_path / "small"
    small.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(small)],
                      capture_output=True).returncode:
        pytest.skip("cannot mount a tmpfs here (needs root)")
    try:
        for _ in range(4):  # it was a race: most tries failed before the fix
            run = run_core(2, "io", "S_Write_indv", "-msglog", "0:19", "-iter", "50,1", "-iodir", str(small),
                           json=False, timeout=120)
            assert run.returncode == 0, run.describe()
            assert not error_lines(core_stderr_lines(run.stderr)), run.describe()
    finally:
        subprocess.run(["umount", str(small)], capture_output=True)
