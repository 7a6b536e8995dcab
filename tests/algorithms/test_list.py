"""`mpimark algorithms list`: the algorithms read from the library through MPI_T."""

from __future__ import annotations

import json

import pytest

from tests.algorithms.conftest import error_line, mpimark, ok


@pytest.mark.parametrize("name", ["openmpi", "mpich"])
def test_list_finds_three_algorithms_of_alltoall_allreduce_bcast(need, name, tmp_path):
    need(name)
    doc = json.loads(ok(mpimark("algorithms", "list", "--mpi", name, "--json", "Alltoall", "Allreduce", "Bcast")).stdout)
    ops = {o["op"]: o for o in doc["operations"]}
    assert set(ops) == {"Alltoall", "Allreduce", "Bcast"}
    for op in ops.values():
        assert len(op["algorithms"]) >= 3, op
        assert op["cvar"]
    if name == "openmpi":
        assert ops["Allreduce"]["variable"] == "OMPI_MCA_coll_tuned_allreduce_algorithm"
        assert {"id": 4, "name": "ring", "value": "4"} in ops["Allreduce"]["algorithms"]
    else:
        assert ops["Bcast"]["variable"] == "MPIR_CVAR_BCAST_INTRA_ALGORITHM"
        assert {"id": 1, "name": "binomial", "value": "binomial"} in ops["Bcast"]["algorithms"]


def test_list_table_names_the_setting(need):
    need("openmpi")
    out = ok(mpimark("algorithms", "list", "--mpi", "openmpi", "Bcast")).stdout
    assert "binomial" in out and "OMPI_MCA_coll_tuned_bcast_algorithm=6" in out


def test_op_without_algorithms_is_one_line(need):
    need("openmpi")
    line = error_line(mpimark("algorithms", "list", "--mpi", "openmpi", "Gatherv"))
    assert "Gatherv has no selectable algorithms in openmpi" in line
    line = error_line(mpimark("algorithms", "list", "--mpi", "openmpi", "PingPong"))
    assert "not a blocking collective" in line
