"""`mpimark mpibench` at 2, 3 and 4 ranks under Open MPI, 2 under MPICH
(3 and 4: slow, conftest.cases()): mpiBench's lines, stored and shown."""

from __future__ import annotations

import re

import pytest

from mpimark.presentation.tools import mpibench as view
from mpimark.storage.store import Store

from .conftest import cases, mpimark, ok, stored_as

LINE = re.compile(r"^(\w+) *\tBytes:\t *(\d+)\tIters:\t *(\d+)\tAvg:\t *([\d.]+)\tMin:\t *([\d.]+)\tMax:\t *([\d.]+)"
                  r"\tComm: (\S+)\tRanks: (\d+)$")
OPERATIONS = ("Barrier", "Bcast", "Allreduce")
SIZES = (0, 1, 2, 4, 8)  # -e 8; Allreduce only at 8 (vectors of doubles)


def communicators(n: int) -> list[tuple[str, int]]:
    """The labels and rank 0's communicator size with -d 2 -p 2."""
    dims = {2: (2, 1), 3: (3, 1), 4: (2, 2)}[n]
    labels = [("MPI_COMM_WORLD", n), ("CartDim-1of2", dims[0]), ("CartDim-2of2", dims[1])]
    size = n
    while size >= 2:
        labels.append((f"PartSize-{size}", size))
        size //= 2
    return labels


@pytest.mark.parametrize("name, n", list(cases()))
def test_mpibench(need, name, n, tmp_path):
    need(name)
    db, out = tmp_path / "results.db", tmp_path / "out"
    result = ok(mpimark("mpibench", "-n", str(n), "--mpi", name, "-e", "8", "-i", "5", "-d", "2", "-p", "2",
                        *OPERATIONS, "--out", str(out), "--db", str(db)))
    (run_id,) = stored_as(result)
    stdout = result.stdout.splitlines()
    assert stdout[0].startswith("# mpimark-core ") and "at most 5 iterations" in stdout[0]
    start, end = stdout.index("START mpiBench v1.5"), stdout.index("END mpiBench")
    assert stdout[start + 1:start + 1 + n] == [f"{rank} : {stdout[start + 1].split(' : ')[1]}" for rank in range(n)]
    lines = [line for line in stdout[start:end] if "\tBytes:\t" in line]
    parsed = [LINE.match(line) for line in lines]
    assert all(parsed), [line for line, m in zip(lines, parsed) if not m]

    expected = [(op, size, label, ranks) for label, ranks in communicators(n) for op in OPERATIONS
                for size in ((0,) if op == "Barrier" else (8,) if op == "Allreduce" else SIZES)]
    assert [(m[1], int(m[2]), m[7], int(m[8])) for m in parsed] == expected
    for m in parsed:
        avg, low, high = float(m[4]), float(m[5]), float(m[6])
        assert int(m[3]) == 5 and 0 <= low <= avg <= high, m[0]  # -i 5: the 5-call estimate is reported

    with Store(db) as store:
        row, records = store.run(run_id), store.records(run_id)
    assert (row.status, row.suite, row.processes) == ("complete", "mpibench", n)
    results = view.results(records)
    # Every stored result gives back the core's line (the times rounded from the stream's 12 digits).
    regenerated = [LINE.match(view.line(r)) for r in results]
    assert [m.group(1, 2, 3, 7, 8) for m in regenerated] == [m.group(1, 2, 3, 7, 8) for m in parsed]
    for ours, core in zip(regenerated, parsed):
        assert [float(v) for v in ours.group(4, 5, 6)] == pytest.approx([float(v) for v in core.group(4, 5, 6)],
                                                                         abs=0.00011)
    for r in results:
        assert len(r["rank_usec"]) == n
        assert r["t_min_usec"] == pytest.approx(min(r["rank_usec"])) and r["t_max_usec"] == pytest.approx(
            max(r["rank_usec"]))
    assert (out / "mpibench.txt").read_text() == view.text(records)
    shown = ok(mpimark("show", str(run_id), "--db", str(db)))
    assert view.text(records) in shown.stdout and shown.stdout.rstrip().endswith("END mpiBench")


def test_i_without_t_keeps_the_50_ms_limit(need, tmp_path):
    """mpiBench sets its 50 ms limit before reading its options, so -i alone keeps it: a Barrier cannot run
    10^8 times in 50 ms, and the count reported is the limit's, not -i's. -t 0 lifts it (not run: 10^8 calls)."""
    need("openmpi")
    db, stream = tmp_path / "results.db", tmp_path / "mpibench.jsonl"
    result = ok(mpimark("mpibench", "-n", "2", "--mpi", "openmpi", "-i", "100000000", "Barrier", "--db", str(db),
                        "--json", str(stream)))
    assert "time limit 50000 usec, at most 100000000 iterations" in result.stdout.splitlines()[0]
    (line,) = [m for m in map(LINE.match, result.stdout.splitlines()) if m]
    assert 5 <= int(line[3]) < 100000000
    with Store(db) as store:
        records = store.records(stored_as(result)[0])
    run = next(r for r in records if r["type"] == "run")
    assert run["options"]["t_usec"] == 50000 and run["options"]["t_default"] is True
