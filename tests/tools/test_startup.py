"""`mpimark startup` at 2, 3 and 4 ranks under Open MPI, 2 under MPICH
(3 and 4: slow, conftest.cases()): RIKEN's table, osu_init, osu_hello."""

from __future__ import annotations

import re

import pytest

from mpimark.presentation.tools import startup as view
from mpimark.storage.store import Store

from .conftest import MPIS, cases, mpimark, ok, stored_as

ROW = re.compile(r"^ +(\d+) +(\d+) +(\d+):1host((?: +[\d.]+)+)$")
MEDIAN = re.compile(r"^ +median((?: +[\d.]+)+)$")
OSU_INIT = re.compile(r"^nprocs: (\d+), min: (\d+) ms, max: (\d+) ms, avg: (\d+) ms$")


def table_rows(stdout: str) -> list[list[float]]:
    return [[float(v) for v in m[4].split()] for m in map(ROW.match, stdout.splitlines()) if m]


@pytest.mark.parametrize("name, n", list(cases()))
def test_startup(need, name, n, tmp_path):
    need(name)
    db, out = tmp_path / "results.db", tmp_path / "out"
    result = ok(mpimark("startup", "-n", str(n), "--mpi", name, "--launches", "2", "--out", str(out), "--db", str(db)))
    ids = stored_as(result)
    assert len(ids) == 2

    # RIKEN's table: per launch TIME(MIN) TIME(MAX) in s for the three phases, in order, then the median.
    rows = table_rows(result.stdout)
    assert len(rows) == 2 and all(len(r) == 6 for r in rows)
    for times in rows:
        start_min, start_max, init_min, init_max, barrier_min, barrier_max = times
        assert 0 <= start_min <= start_max and init_min <= init_max and barrier_min <= barrier_max
        assert start_min <= init_min <= barrier_min and start_max <= init_max <= barrier_max
    median = [float(v) for v in next(m for m in map(MEDIAN.match, result.stdout.splitlines()) if m)[1].split()]
    assert median == pytest.approx([(a + b) / 2 for a, b in zip(*rows)], abs=0.0015)
    osu = [m for m in map(OSU_INIT.match, result.stdout.splitlines()) if m]
    assert len(osu) == 2 and all(int(m[1]) == n and int(m[2]) <= int(m[4]) <= int(m[3]) for m in osu)
    assert (out / "startup.txt").read_text() == result.stdout

    # Each launch is a stored run with the launch time mpimark took; the ms values order the same way.
    with Store(db) as store:
        stored = [(store.run(i), store.records(i)) for i in ids]
    assert [row.measurement for row, _ in stored] == [ids[0], ids[0]]  # the launches of one measurement
    for (row, records), times in zip(stored, rows):
        assert (row.status, row.suite, row.processes) == ("complete", "startup", n)
        run = records[0]
        assert run["options"]["launch_source"] == "environment" and run["options"]["launch_ns"] > 0
        launch = view.launch(records, row.id)
        phases = [launch.since_launch[key] for key, _ in view.PHASES]
        for low, avg, high in phases:
            assert 0 <= low <= avg <= high
        assert [p[0] for p in phases] == sorted(p[0] for p in phases)
        assert [p[2] for p in phases] == sorted(p[2] for p in phases)
        assert [round(v / 1000, 3) for p in phases for v in (p[0], p[2])] == pytest.approx(times, abs=0.0011)
        assert len(launch.init_rank_ms) == n and launch.init_ms[0] <= launch.init_ms[2]

    # `mpimark show` of the launches gives the same table again.
    shown = ok(mpimark("show", *map(str, ids), "--db", str(db)))
    assert view.report([view.launch(r, row.id) for row, r in stored]) in shown.stdout
    assert table_rows(shown.stdout) == rows


@pytest.mark.parametrize("name", MPIS)
def test_init_only_and_hello(need, name, tmp_path):
    need(name)
    db = tmp_path / "results.db"
    result = ok(mpimark("startup", "-n", "3", "--mpi", name, "--init-only", "--db", str(db)))
    rows = table_rows(result.stdout)
    assert len(rows) == 1 and len(rows[0]) == 4  # no barrier phase
    assert "end of 1st barrier" not in result.stdout and "median" not in result.stdout
    (osu,) = [m for m in map(OSU_INIT.match, result.stdout.splitlines()) if m]
    assert int(osu[1]) == 3
    with Store(db) as store:
        records = store.records(stored_as(result)[0])
    assert records[0]["options"]["init_only"] is True
    assert "MPI_Barrier_first" not in {r.get("benchmark") for r in records}

    result = ok(mpimark("startup", "-n", "2", "--mpi", name, "--hello", "--db", str(db)))
    lines = result.stdout.splitlines()
    index = lines.index("# OSU MPI Hello World Test")
    assert lines[index + 1] == "This is a test with 2 processes"
    assert re.search(r"launcher start to exit \[s\].*: \d+\.\d{3}$", result.stdout, re.M)
