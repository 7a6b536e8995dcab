"""Selectors of stored runs: ids, ranges and lists, and a run id that is a launch of a measurement."""

from __future__ import annotations

import csv
import io

import pytest

from mpimark.storage import studies
from mpimark.storage.selection import load, resolve, run_ranges, selector_of
from mpimark.storage.store import Store, StoreError

from .cli_helpers import assert_one_error_line, invoke
from .conftest import store_records
from .records import end_record, result_record, run_record


def _launch(store: Store, measurement=None) -> int:
    return store_records(store, [run_record(), result_record(), end_record()], status="complete",
                         measurement=measurement)


@pytest.fixture
def db(tmp_path):
    """Run 1 alone; runs 2-4 one measurement (2); run 5 alone."""
    path = tmp_path / "results.db"
    with Store(path) as store:
        _launch(store)
        first = _launch(store, "new")
        _launch(store, first)
        _launch(store, first)
        _launch(store)
    return path


def ids(series) -> list[list[int]]:
    return [[run.row.id for run in s.runs] for s in series]


def test_ranges_and_lists_name_one_series_of_those_runs(db):
    with Store(db, for_reading=True) as store:
        assert ids(resolve(store, "1-3")) == [[1, 2, 3]]
        assert ids(resolve(store, "1,3,5")) == [[1, 3, 5]]
        assert ids(resolve(store, "4-5,1,1-2")) == [[1, 2, 4, 5]]  # in id order, each once
        assert ids(resolve(store, "1")) == [[1]]  # alone, not a measurement


def test_a_launch_of_a_measurement_stands_for_the_whole_measurement(db):
    with Store(db, for_reading=True) as store:
        assert [store.run(i).measurement for i in range(1, 6)] == [None, 2, 2, 2, None]
        assert ids(resolve(store, "3")) == [[2, 3, 4]]
        assert ids(resolve(store, "3-3")) == [[3]]  # the run alone, named as a range
        assert ids(resolve(store, "3", measurements=False)) == [[3]]  # what show and export take
        assert ids(load(store, ["2", "5"])) == [[2, 3, 4], [5]]


def test_what_names_no_stored_run_is_one_line(db):
    with Store(db, for_reading=True) as store:
        with pytest.raises(StoreError, match="no run 6 in"):
            resolve(store, "4-7")
        with pytest.raises(StoreError, match="no run 6 in"):
            resolve(store, "1-99999999")  # one query per range, not a hundred million
        with pytest.raises(StoreError, match=r"goes from the lower id to the higher \(3-5\)"):
            resolve(store, "5-3")
    assert "no run 9" in assert_one_error_line(invoke("compare", "1-3", "9", "--db", str(db)))


def test_selectors_are_told_from_study_names():
    assert run_ranges("12-16,20") == [(12, 16), (20, 20)]
    assert run_ranges("matrix-20250101-1200") is None and run_ranges("12-") is None and run_ranges("1,,2") is None
    for name in ("12-16", "12,13", "7"):
        with pytest.raises(StoreError, match="cannot name a study"):
            studies.check_name(name)
    studies.check_name("run-12")


def test_the_selector_of_runs_names_exactly_them():
    assert selector_of([12, 13, 14, 15, 16]) == "12-16"
    assert selector_of([15, 12, 13]) == "12-13,15"
    assert selector_of([3]) == "3" and selector_of([1, 3, 5]) == "1,3,5"


def test_runs_shows_each_launch_of_a_measurement(db):
    result = invoke("runs", "--db", str(db))
    assert result.exit_code == 0, result.stderr
    assert "measurement" in result.stdout
    line = {int(row.split("│")[1]): row for row in result.stdout.splitlines() if row.startswith("│ ")}
    assert "2 (launch 1 of 3)" in line[2] and "2 (launch 3 of 3)" in line[4]
    assert "launch" not in line[1] and "launch" not in line[5]


def test_export_of_one_run_id_is_that_run(db):
    result = invoke("export", "3", "--samples", "--format", "csv", "--db", str(db))
    assert result.exit_code == 0, result.stderr
    rows = list(csv.reader(io.StringIO(result.stdout)))
    assert rows[0][1] == "run_id" and len(rows) == 4 and {row[1] for row in rows[1:]} == {"3"}
    every = list(csv.reader(io.StringIO(invoke("export", "2-4", "--samples", "--format", "csv", "--db", str(db)).stdout)))
    assert {row[1] for row in every[1:]} == {"2", "3", "4"}
