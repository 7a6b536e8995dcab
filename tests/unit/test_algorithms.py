"""execution/algorithms.py: parsing MPI_T documents into selectable algorithms (no MPI needed)."""

from __future__ import annotations

import pytest

from mpimark.execution import algorithms as A

# MPICH 4.0.2's description of MPIR_CVAR_BCAST_INTRA_ALGORITHM, as MPI_T gives it (lines joined).
MPICH_BCAST = ("Variable to select bcast algorithmauto - Internal algorithm selection (can be overridden with "
               "MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE)binomial                                - Force Binomial "
               "Treenb                                      - Force nonblocking algorithmsmp                      "
               "               - Force smp algorithmscatter_recursive_doubling_allgather    - Force Scatter "
               "Recursive-Doubling Allgatherscatter_ring_allgather                  - Force Scatter Ring")


def test_mpich_items_split_joined_lines_by_the_column_width():
    assert A.mpich_items(MPICH_BCAST) == ["auto", "binomial", "nb", "smp", "scatter_recursive_doubling_allgather",
                                          "scatter_ring_allgather"]
    assert A.mpich_items("no list here") == []


def test_from_mpit_openmpi_drops_ignore_and_needs_dynamic_rules():
    doc = {"cvars": [{"name": "coll_tuned_bcast_algorithm", "enumeration": {"name": "x", "items": [
        {"value": 0, "name": "ignore"}, {"value": 1, "name": "basic_linear"}, {"value": 6, "name": "binomial"}]}},
        {"name": "coll_tuned_gatherv_algorithm", "enumeration": None}]}
    found = A.from_mpit("openmpi", doc)
    assert list(found) == ["Bcast"]
    s = found["Bcast"]
    assert [(a.id, a.name) for a in s.algorithms] == [(1, "basic_linear"), (6, "binomial")]
    assert s.setting(s.find("binomial")) == ("OMPI_MCA_coll_tuned_use_dynamic_rules=1 "
                                             "OMPI_MCA_coll_tuned_bcast_algorithm=6")
    assert s.find("6").name == "binomial"
    with pytest.raises(A.AlgorithmError, match="no algorithm 'ring'"):
        s.find("ring")


def test_from_mpit_mpich_ids_are_positions_and_values_names():
    found = A.from_mpit("mpich", {"cvars": [{"name": "MPIR_CVAR_BCAST_INTRA_ALGORITHM", "description": MPICH_BCAST}]})
    s = found["Bcast"]
    assert s.find("smp").id == 3 and s.find("smp").value == "smp"
    assert dict(s.env(s.find("smp")))["MPIR_CVAR_COLLECTIVE_FALLBACK"] == "error"
    assert A.Selectable.from_record(s.to_record()) == s


def test_impi_data_holds_documented_ids():
    found, origin = A.impi_catalog()
    assert found["Allreduce"].find("Rabenseifner's").id == 2
    assert found["Alltoall"].variable == "I_MPI_ADJUST_ALLTOALL" and found["Alltoall"].cvar is None
    assert "2019" in origin["source"]


def test_verify_reads_the_cvar_back():
    s = A.from_mpit("mpich", {"cvars": [{"name": "MPIR_CVAR_BCAST_INTRA_ALGORITHM", "description": MPICH_BCAST}]})["Bcast"]
    smp = s.find("smp")
    cvar = "MPIR_CVAR_BCAST_INTRA_ALGORITHM"
    assert A.verify(s, smp, {"mpit_cvars": {cvar: {"value": 3}}}) is None
    assert "not 3" in A.verify(s, smp, {"mpit_cvars": {cvar: {"value": 0}}})
    assert A.verify(s, None, {"mpit_cvars": {cvar: {"value": 0}}}) is None
    assert "holds no value" in A.verify(s, smp, {})


def test_select_refuses_an_op_without_algorithms():
    class Impl:
        name, library_version = "x", "X 1"
    with pytest.raises(A.AlgorithmError, match="Gatherv has no selectable algorithms in x"):
        A.select({}, ["gatherv"], Impl())


def test_a_library_without_mpi_t_is_one_line(tmp_path):
    """mpimark-core mpit exits 5 when MPI_T_init_thread fails; the front end says so in one line."""
    fake = tmp_path / "core"
    fake.write_text("#!/bin/sh\necho 'mpimark-core: error: mpit: no MPI_T' >&2\nexit 5\n")
    fake.chmod(0o755)

    class Impl:
        name, library_version, env = "old", "Old MPI 1.0", {}
    with pytest.raises(A.AlgorithmError, match=r"^old \(Old MPI 1.0\) has no MPI tool information interface"):
        A.mpit_document(Impl(), fake, "x")


def test_tuning_env_and_its_read_back(tmp_path):
    f = tmp_path / "rules.txt"
    env, expected = A.tuning_env("openmpi", f)
    assert dict(env) == {"OMPI_MCA_coll_tuned_use_dynamic_rules": "1", "OMPI_MCA_coll_tuned_dynamic_rules_filename": str(f)}
    good = {"mpit_cvars": {"coll_tuned_use_dynamic_rules": {"value": 1},
                           "coll_tuned_dynamic_rules_filename": {"value": str(f)}}}
    assert A.verify_tuning(expected, good) is None
    bad = {"mpit_cvars": {"coll_tuned_use_dynamic_rules": {"value": 1}, "coll_tuned_dynamic_rules_filename": {"value": ""}}}
    assert "was not taken" in A.verify_tuning(expected, bad)
    assert "holds no value" in A.verify_tuning(expected, {})
    env, expected = A.tuning_env("mpich", f)
    assert env == (("MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE", str(f)),) and expected == {}
    env, expected = A.tuning_env("impi", f, {"I_MPI_ADJUST_ALLREDUCE": "1:0-10@1-4"})
    assert env == (("I_MPI_ADJUST_ALLREDUCE", "1:0-10@1-4"),) and expected == {}
