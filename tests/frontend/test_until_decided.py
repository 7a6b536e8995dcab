"""`mpimark matrix --until-decided` with this machine's Open MPI and MPICH: a tiny 2-rank PingPong, 3 launches
a side at most, ends with the gate's status and says how it ended."""

from __future__ import annotations

from mpimark.storage import studies
from mpimark.storage.store import Store

from .conftest import mpimark


def test_open_mpi_against_mpich_until_decided(need, db):
    need("openmpi"), need("mpich")
    result = mpimark("matrix", "--mpi", "openmpi,mpich", "-n", "2", "--study", "seq", "--db", str(db),
                     "--until-decided", "--fail-if-slower", "5%", "--max-launches", "3", "--timeout", "120",
                     "PingPong", "-msglog", "0:2", "-iter", "20", timeout=600)
    assert result.returncode in (0, 3, 4), result.stderr
    assert "mpimark: until decided at 5%: looks after 3 launches a side" in result.stderr
    assert "after 3 launches a side (look 1 of 1, " in result.stderr
    assert "regression gate: " in result.stdout
    last = result.stdout.rstrip().splitlines()[-1]
    if result.returncode == 4:
        assert last.startswith("budget spent (--max-launches 3): undecided after 3 launches a side (")
    else:
        assert last.startswith("decided after 3 launches a side (")
    with Store(db, create=False) as store:
        members = studies.members(store, "seq")
        assert sorted(m.implementation for m in members) == ["mpich"] * 3 + ["openmpi"] * 3
        assert all(store.run(m.run_id).status == "complete" for m in members)
