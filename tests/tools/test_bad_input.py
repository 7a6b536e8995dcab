"""Bad input to beff, mpibench and startup ends in one line `mpimark: error: ...`."""

from __future__ import annotations

import pytest

from mpimark.storage.store import Store

from .conftest import error_line, mpimark


@pytest.mark.parametrize("args, expected", [
    (("beff", "-n", "1"), "b_eff needs 2 processes; -n 1 runs none of them: give -n 2"),
    (("beff", "-n", "2", "-json", "x.jsonl"), "-json: mpimark gives the core its -json file"),
    (("beff", "-n", "2", "-out", "x"), "-out: use --out DIR"),
    (("beff", "-n", "2", "--mem-per-proc", "4", "-mem", "4"), "give --mem-per-proc or -mem, not both"),
    (("beff", "-n", "2", "--mem-per-proc", "0"), "Invalid value for '--mem-per-proc'"),
    (("beff", "-n", "2", "--out", "/proc/version/x"), "--out /proc/version/x: cannot create the directory"),
    (("mpibench", "-n", "2", "-json", "x"), "-json: mpimark gives the core its -json file"),
    (("startup", "-n", "2", "-launch-ns", "5"), "-launch-ns: mpimark takes the launch time itself"),
    (("startup", "-n", "2", "--launches", "0"), "Invalid value for '--launches': 0 launches measure nothing"),
    (("startup", "-n", "2", "--repeat", "0"), "Invalid value for '--launches'"),  # the old name, still read
    (("startup", "--launches", "2"), "no process count: give -n N"),
    (("beff", "-n", "2", "--mpi", "no-such-mpi"), "unknown MPI implementation 'no-such-mpi'"),
])
def test_refused_before_anything_runs(args, expected, tmp_path):
    result = mpimark(*args, "--db", str(tmp_path / "results.db"), cwd=tmp_path)
    line = error_line(result, exit_code=1 if "MPI implementation" in expected else 2)
    assert expected in line, line
    assert not (tmp_path / "results.db").exists() or "MPI implementation" in expected


@pytest.mark.parametrize("args, expected", [
    (("beff", "-n", "2", "-seed", "minus-one"), "-seed 'minus-one' is not a non-negative integer"),
    (("mpibench", "-n", "2", "-e", "banana"), "-e 'banana' is not a byte count"),
    (("mpibench", "-n", "2", "Frobnicate"), "unknown operation 'Frobnicate'"),
    (("mpibench", "-n", "2", "-b", "64K", "-e", "1K"), "-b 65536 is larger than -e 1024: no message size to measure"),
    (("startup", "-n", "2", "-bogus"), "unknown startup option '-bogus'"),
])
def test_the_cores_own_line(need, args, expected, tmp_path):
    need("openmpi")
    db = tmp_path / "results.db"
    result = mpimark(*args, "--mpi", "openmpi", "--db", str(db), cwd=tmp_path)
    line = error_line(result, exit_code=2)  # the core's bad-input status, passed on
    assert expected in line and line.endswith(" (nothing stored)"), line
    with Store(db) as store:  # as `mpimark run`: a refused input leaves no failed run behind
        assert store.runs() == []
