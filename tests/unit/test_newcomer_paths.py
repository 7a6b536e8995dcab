"""What a newcomer following the README meets: hints that name commands that exist, and the files README
commands create in the checkout kept out of git."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from mpimark.cli import cli
from mpimark.commands.slurm_cmds import DEFAULT_JOB_DIR
from mpimark.records import benchmarks

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("suite", ["mpi1", None])
def test_an_unknown_benchmark_names_a_listing_command_that_runs(suite):
    with pytest.raises(benchmarks.UnknownBenchmark) as raised:
        benchmarks.core_catalog().get("NoSuchBench", suite)
    hint = re.search(r"\('([^']+)' shows them\)", str(raised.value)).group(1)
    words = shlex.split(hint)
    assert words[0] == "mpimark"  # on PATH after `. .venv/mpimark-env.sh`; mpimark-core is not
    result = CliRunner().invoke(cli, words[1:])
    assert result.exit_code == 0 and "PingPong" in result.stdout


def readme_outputs() -> list[str]:
    """The files and folders the README's sh commands write, relative to where they run (the checkout)."""
    found = []
    for block in re.findall(r"```sh\n(.*?)```", (ROOT / "README.md").read_text(encoding="utf-8"), re.S):
        for line in re.sub(r"\\\n\s*", " ", block).splitlines():
            command = line.split("  #")[0]
            found += re.findall(r"(?:^|\s)(?:-o|--out|>|-json|--json)\s+([^\s;]+)", command)
    return found


def test_the_readme_writes_files():
    assert {"plots/", "report.html", "pp.jsonl"} <= set(readme_outputs())  # the parsing finds them


@pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(), reason="not a git checkout")
@pytest.mark.parametrize("path", [f"{DEFAULT_JOB_DIR}/job-1/stream.jsonl", *readme_outputs()])
def test_what_readme_commands_write_into_the_checkout_is_ignored(path):
    # `mpimark submit` writes ./mpimark-jobs/ by default; the other commands what they are told to.
    target = f"{path}x.png" if path.endswith("/") else path  # a file inside a folder they write
    done = subprocess.run(["git", "-C", str(ROOT), "check-ignore", "-q", "--no-index", target])
    assert done.returncode == 0, f"{path} is not in .gitignore"
