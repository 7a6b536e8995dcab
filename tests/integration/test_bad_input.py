"""Bad input: one line on stderr from the core ("mpimark-core: error: ..."),
exit status 2 on every rank, nothing benchmarked, no hang."""

from __future__ import annotations

import os

import pytest

from .conftest import CORE, core_stderr_lines, run_core

RANKS = 3
TIMEOUT = 60.0


def bad_msglen(tmp_path):
    path = tmp_path / "bad.len"
    path.write_text("0\n8\n# comment\n1k\n12abc\n")
    return ["mpi1", "-msglen", str(path)], ["line 5", "12abc"]


CASES = {
    "unknown benchmark": (["mpi1", "PingPong", "NoSuchBench"], ["NoSuchBench"]),
    "unknown -include": (["mpi1", "-include", "Nope"], ["Nope"]),
    "msglog not a number": (["mpi1", "-msglog", "0:abc"], ["0:abc", "-msglog"]),
    "msglog min above max": (["mpi1", "-msglog", "9:3"], ["9:3", "-msglog"]),
    "msglog above 40": (["mpi1", "-msglog", "41"], ["41"]),
    "unreadable msglen": (["mpi1", "-msglen", "/nonexistent/sizes.txt"], ["/nonexistent/sizes.txt"]),
    "msglen bad line": (bad_msglen, None),
    "bad msgsize": (["mpi1", "-msgsize", "8,x"], ["-msgsize"]),
    "unknown option": (["mpi1", "-bogus"], ["-bogus"]),
    "missing value": (["mpi1", "PingPong", "-npmin"], ["-npmin"]),
    "missing value of a switch": (["mpi1", "-sync"], ["-sync"]),
    "bad multi": (["mpi1", "-multi", "2"], ["-multi"]),
    "bad iter_policy": (["mpi1", "-iter_policy", "sometimes"], ["sometimes"]),
    "bad data_type": (["mpi1", "-data_type", "quad"], ["quad"]),
    "unknown suite": (["mpi9", "PingPong"], ["suite"]),
    "no suite": ([], ["suite"]),
    "map does not match": (["mpi1", "-map", "2x2"], ["2x2", "3"]),
    "everything excluded": (["mpi1", "Barrier", "-exclude", "barrier"], ["-exclude"]),
    "unreadable input file": (["mpi1", "-input", "/nonexistent/names"], ["/nonexistent/names"]),
    # nan passes every "<= 0" check: the memory check, -time and the cache flush would be off
    "time nan": (["mpi1", "PingPong", "-time", "nan"], ["nan", "-time"]),
    "mem nan": (["mpi1", "PingPong", "-mem", "nan"], ["nan", "-mem"]),
    "off_cache nan": (["mpi1", "PingPong", "-off_cache", "nan"], ["nan", "-off_cache"]),
    "min_samples zero": (["rma", "-min_samples", "0"], ["'0'", "-min_samples"]),
    # an empty list is not the whole default set
    "empty benchmark list": (["mpi1", ""], ["names no benchmark"]),
    "comma as benchmark list": (["mpi1", ","], ["names no benchmark"]),
    "empty input file": (lambda tmp: (["mpi1", "-input", str(_empty(tmp))], ["names no benchmark"]), None),
}


def _empty(tmp_path):
    path = tmp_path / "names.txt"
    path.write_text("# nothing\n\n")
    return path


@pytest.mark.parametrize("case", CASES)
def test_bad_input_gives_one_error_line(tmp_path, case):
    args, words = CASES[case]
    if callable(args):
        args, words = args(tmp_path)
    run = run_core(RANKS, *args, json=False, timeout=TIMEOUT)
    assert run.returncode == 2, run.describe()  # Open MPI returns the first non-zero rank status
    lines = core_stderr_lines(run.stderr)
    assert len(lines) == 1, run.describe()
    assert lines[0].startswith("mpimark-core: error: ")
    for word in words:
        assert word in lines[0]
    assert "Benchmarking" not in run.stdout and "usage" not in run.stdout


def test_every_rank_exits_with_status_2(tmp_path):
    """A wrapper records each rank's own exit status; the launcher is told not
    to kill the others when the first one exits non-zero."""
    wrapper = tmp_path / "record-status.sh"
    wrapper.write_text('#!/bin/sh\n"$@"\nrc=$?\n'
                       'echo $rc > "$RCDIR/rank.${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-${PMIX_RANK:-x}}}"\n'
                       'exit $rc\n')
    wrapper.chmod(0o755)
    env = {"RCDIR": str(tmp_path), "OMPI_MCA_orte_abort_on_non_zero_status": "0"}
    run = run_core(RANKS, "mpi1", "NoSuchBench", json=False, timeout=TIMEOUT, env=env,
                   program=[str(wrapper), str(CORE)])
    statuses = {p.name: p.read_text().strip() for p in tmp_path.glob("rank.*")}
    assert statuses == {f"rank.{r}": "2" for r in range(RANKS)}, (statuses, run.describe())
    assert len(core_stderr_lines(run.stderr)) == 1


def test_bad_input_does_not_write_json(tmp_path):
    out = tmp_path / "out.jsonl"
    run = run_core(2, "mpi1", "-msglog", "9:3", "-json", str(out), json=False, timeout=TIMEOUT)
    assert run.returncode == 2
    assert not out.exists()
    assert os.listdir(tmp_path) == []
