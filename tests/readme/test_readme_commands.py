"""Every command in the README's ```sh blocks, run as written, in the README's order.

The commands run with bash in a scratch directory that looks like the
checkout (build/, scripts/, .venv/ linked), against a results database made
here to hold what the README's commands refer to: runs 1-8 (run 3 and 4
comparable, 7 a stored run to show), the study mpi-eval of two
implementations, the files `old-imb-output.txt` and `run.jsonl`. A command
that needs no MPI runs in every test session (with the other quick tests);
a command that launches MPI or builds a core is marked mpi and slow (minutes
on a shared 2-core machine); a command that cannot run here is listed in
NOT_HERE with the reason. A listed command the README no longer has fails
the test, so the lists stay the README's.
"""

from __future__ import annotations

import dataclasses

import os
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from mpimark.cli import cli
from mpimark.storage import studies
from mpimark.storage.importers import parse_file
from mpimark.storage.importers import store_parsed
from mpimark.storage.store import Store

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
FIXTURES = ROOT / "tests" / "unit" / "data" / "imb"
KEPT = ("PingPong", "Allreduce")  # of the fixture's benchmarks

# Commands that cannot run in a test, and why.
NOT_HERE = {
    "bash scripts/demo.sh": "the demo itself: sets everything up and runs a 7-benchmark set at 2 ranks (minutes)",
    "bash scripts/test.sh": "the whole test suite, this test included",
    "bash scripts/test.sh --quick": "the quick suite, this test included",
    "bash scripts/test.sh tests/integration -k PingPong": "runs part of the test suite from inside it",
    "mpimark mpi install impi": "downloads the Intel MPI wheels (~130 MB) from PyPI",
    "salloc -N 2": "needs a Slurm cluster of 2 nodes",
    "salloc -n 2 mpimark run": "needs a running Slurm (tests/unit/test_run_cmds.py checks the default -n from "
                               "SLURM_NTASKS)",
    "mpimark submit": "needs a Slurm cluster with a partition P",
    "mpimark runs; mpimark collect --wait": "waits for the Slurm job of the submit before it",
    "mpimark matrix --mpi openmpi,mpich,impi": "needs Intel MPI (downloaded) and takes 11 minutes",
    "bash benchmarks/imb_parity.sh": "needs the Intel MPI wheel (downloaded) and a quiet machine; a benchmark, "
                                     "not a test (tests/unit/test_imb_parity.py and test_parity_launches.py "
                                     "cover its analysis)",
    "python3 benchmarks/parity_launches.py": "reads the output directory the imb_parity.sh run before it makes",
    "for i in $(seq 10); do for p in /opt/mpi-before": "needs two builds of an MPI under /opt (20 launches)",
    "mpimark compare $(seq -s, 1 2 19)": "compares the 20 launches of the loop before it",
    "mpimark compare mpis": "compares the study the matrix line before it makes (20 launches)",
    "mpimark run mpi1 Allreduce -msglog 0:10 -n 1536 --mpi smpi": "a 1,536-rank simulation: minutes of wall time "
                                                                  "(tests/simulation runs 16 ranks on each platform)",
}
# Commands that launch MPI (or build a core for an implementation): minutes on a shared 2-core machine; and
# those that read what such a command stored (show and tune the algorithm study the line before them makes).
LAUNCHING = ("bash scripts/mpiexec.sh", "mpiexec ", "L=$(date", "mpimark run ", "mpimark beff", "mpimark mpibench",
             "mpimark startup", "mpimark algorithms list", "mpimark matrix ", "mpimark algorithms study",
             "mpimark algorithms show coll", "mpimark algorithms tune coll")
# Exit statuses a command (that starts so) may end with as written, other than 0: the gate's 3 when B is
# slower and 4 when the launches cannot tell.
ALLOWED_EXIT = {"mpimark compare 1-4 5-8 --fail-if-slower": (0, 3, 4),
                "mpimark matrix --mpi openmpi,mpich -n 2 --until-decided": (0, 3, 4)}


def commands() -> list[str]:
    """The README's sh commands in order, continuation lines joined, comments kept (bash ignores them)."""
    found = []
    for block in re.findall(r"```sh\n(.*?)```", README.read_text(encoding="utf-8"), re.S):
        for line in re.sub(r"\\\n\s*", " ", block).splitlines():
            if line.strip():
                found.append(line.strip())
    return found


def _listed(command: str, names) -> str | None:
    """The longest name the command starts with (`bash scripts/test.sh --quick` before `bash scripts/test.sh`)."""
    return max((name for name in names if command.startswith(name)), key=len, default=None)


def _param(command: str):
    text = command.split("  #")[0].strip()
    if _listed(command, NOT_HERE):
        return pytest.param(command, id=text, marks=pytest.mark.skip(reason=NOT_HERE[_listed(command, NOT_HERE)]))
    if _listed(command, LAUNCHING):
        return pytest.param(command, id=text, marks=[pytest.mark.mpi, pytest.mark.slow])
    return pytest.param(command, id=text)


def test_the_lists_name_commands_the_readme_has():
    found = commands()
    for name in [*NOT_HERE, *LAUNCHING, *ALLOWED_EXIT]:
        assert any(c.startswith(name) for c in found), f"{name!r} is not in the README any more"


@pytest.fixture(scope="module")
def workspace(tmp_path_factory):
    """A directory that looks like the checkout, and a results database holding what the commands name."""
    home = tmp_path_factory.mktemp("readme")
    for name in ("build", "scripts", ".venv", "core", "src"):
        (home / name).symlink_to(ROOT / name)
    shutil.copy(FIXTURES / "basic.txt", home / "old-imb-output.txt")
    shutil.copy(FIXTURES / "basic.jsonl", home / "run.jsonl")
    db = home / "results.db"
    with Store(db) as store:
        for number in range(1, 9):  # runs 1-8: the same measurement, so 3 and 4 compare row by row
            stream = parse_file(FIXTURES / "basic.jsonl")
            # Two benchmarks are enough to plot and report, and keep those commands quick.
            kept = [r for r in stream.records if r.get("benchmark") in (None, *KEPT)]
            stream = dataclasses.replace(stream, rows=lambda kept=kept: iter(kept),
                                         count=sum(r["type"] == "result" for r in kept))
            run_id = store_parsed(store, stream)
            studies.add_run(store, "mpi-eval", run_id, "openmpi" if number % 2 else "mpich")
    env = {**os.environ, "MPIMARK_DB": str(db), "HOME": str(home / "home")}
    (home / "home").mkdir()
    # The wheels' prefixes and build cache stay the user's (a core built once is not built again).
    env.setdefault("XDG_CACHE_HOME", str(Path(os.path.expanduser("~")) / ".cache"))
    env.setdefault("XDG_DATA_HOME", str(home / "data"))
    return home, env


def _in_process(command: str, home: Path, env: dict, monkeypatch) -> tuple[int, str]:
    """An `mpimark ...` line through the command line's own entry point, in this process: the same argv
    bash would give it (shlex), `> FILE` written as bash would. A new interpreter per line costs 2-3 s
    on a loaded 2-core machine, which the quick tests cannot afford for 20 lines."""
    words = shlex.split(command, comments=True)
    target = None
    if ">" in words:
        at = words.index(">")
        words, target = words[:at], words[at + 1]
    monkeypatch.chdir(home)
    for name in ("MPIMARK_DB", "HOME", "XDG_DATA_HOME"):
        monkeypatch.setenv(name, env[name])
    result = CliRunner().invoke(cli, words[1:], catch_exceptions=False)
    if target:
        (home / target).write_text(result.stdout, encoding="utf-8")
    return result.exit_code, result.stderr


@pytest.mark.parametrize("command", [_param(c) for c in commands()])
def test_readme_command(workspace, command, monkeypatch):
    home, env = workspace
    allowed = ALLOWED_EXIT.get(_listed(command, ALLOWED_EXIT), (0,))
    if command.startswith(". .venv/mpimark-env.sh"):
        command = command + " && command -v mpimark >/dev/null"  # the line itself; then mpimark is on PATH
    elif command.startswith("mpimark ") and not _listed(command, LAUNCHING):
        status, stderr = _in_process(command, home, env, monkeypatch)
        assert status in allowed, f"{command}\nexit {status}\n{stderr[-2000:]}"
        return
    # Each line runs as a user at a new prompt would after `. .venv/mpimark-env.sh` (the blocks start with it).
    done = subprocess.run(["bash", "-c", f". .venv/mpimark-env.sh && {command}"], cwd=home, env=env,
                          capture_output=True, text=True, timeout=900)
    assert done.returncode in allowed, f"{command}\nexit {done.returncode}\n{done.stderr[-2000:]}"
    assert "Traceback" not in done.stderr
