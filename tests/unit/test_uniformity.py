"""mixed_launches: the launches a side pools in one row must be one condition (MPI, placement, job size)."""

from __future__ import annotations

import pytest

from mpimark.storage.selection import resolve
from mpimark.storage.store import Store
from mpimark.storage.uniformity import mixed_launches

from .conftest import store_records
from .records import end_record, result_record, run_record


def _run(store: Store, library: str = "Open MPI v5.0.11", processes: int = 2, hosts: tuple[str, ...] = ("node1",),
         per_node: tuple[int, ...] | None = None, rows: tuple[dict, ...] | None = None) -> int:
    run = run_record()
    run["mpi"] = {**run["mpi"], "library_version": library}
    run["processes"], run["hosts"] = processes, list(hosts)
    if per_node is not None:
        run["nodes"], run["ranks_per_node"] = len(per_node), list(per_node)
    rows = rows if rows is not None else (result_record(bytes=0, count=0), result_record())
    return store_records(store, [run, *rows, end_record()], status="complete", requested_processes=processes)


@pytest.fixture
def store(tmp_path):
    with Store(tmp_path / "results.db") as opened:
        yield opened


@pytest.mark.parametrize("results", [True, False])  # rows from the loaded results, or read by SQL
def test_launches_of_one_condition_have_no_reason(store, results):
    for _ in range(3):
        _run(store)
    series, = resolve(store, "1-3", results=results)
    assert mixed_launches(series, None if results else store) == []


@pytest.mark.parametrize("results", [True, False])
def test_another_mpi_library_in_the_same_rows_is_a_reason(store, results):
    _run(store)
    _run(store)
    _run(store, library="MPICH Version: 4.0.2")
    series, = resolve(store, "1-3", results=results)
    assert mixed_launches(series, None if results else store) == [
        "Open MPI 5.0.11: 2 rows would pool launches that differ in MPI library: MPICH 4.0.2 (run 3); "
        "Open MPI 5.0.11 (runs 1-2)"]


def test_another_placement_is_a_reason(store):
    _run(store, per_node=(2,))
    _run(store, hosts=("node1", "node2"), per_node=(1, 1))
    _run(store)  # one host: 1 node of 2 ranks, as run 1
    reasons = mixed_launches(resolve(store, "1-3", results=False)[0], store)
    assert reasons == ["Open MPI 5.0.11: 2 rows would pool launches that differ in placement (nodes x ranks per "
                       "node): 1 × 2 (runs 1,3); 2 × 1 (run 2)"]


def test_job_sizes_apart_in_their_rows_are_no_reason_but_pooled_ones_are(store):
    # PingPong in a 4-rank job runs on 2 ranks, 2 waiting: another row than a 2-rank job's (with_waiting).
    _run(store, processes=2)
    _run(store, processes=4, rows=(result_record(), result_record(benchmark="Allreduce", processes=4)))
    assert mixed_launches(resolve(store, "1-2")[0]) == []
    # -multi 0 keeps every rank busy: 1 group of 2 in a 2-rank job, 2 groups in a 4-rank job, one key.
    _run(store, processes=2, rows=(result_record(multi=0),))
    _run(store, processes=4, rows=(result_record(multi=0, groups=2),))
    assert mixed_launches(resolve(store, "3-4")[0]) == [
        "Open MPI 5.0.11: 1 row would pool launches that differ in job size (processes): 2 (run 3); 4 (run 4)"]


def test_each_aspect_is_its_own_line(store):
    _run(store, per_node=(2,))
    _run(store, library="MPICH Version: 4.0.2", hosts=("a", "b"), per_node=(1, 1))
    reasons = mixed_launches(resolve(store, "1-2", results=False)[0], store)
    assert [reason.split(" differ in ")[1].split(":")[0] for reason in reasons] == [
        "MPI library", "placement (nodes x ranks per node)"]


def test_what_a_run_does_not_record_differs_from_nothing(store):
    _run(store)
    # An imported log: no run record, so no library, placement or job size to hold against run 1.
    store.add_run(records=[result_record(), result_record(bytes=0, count=0)], status="complete", message=None,
                  suite="mpi1", requested_processes=2, launch_command=["imported"])
    assert mixed_launches(resolve(store, "1-2", results=False)[0], store) == []
