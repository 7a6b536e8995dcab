"""The results schema accepts what docs/results-format.md allows, and no more."""

from __future__ import annotations

import copy

import jsonschema
import pytest

from mpimark.records.results import schema, validate_record

from .records import end_record, event_record, result_record, run_record, skipped_record


def _copy_at(record: dict, dotted: str) -> tuple[dict, dict, str]:
    """A deep copy of record, the object holding field a.b.c in it, and "c"."""
    record = copy.deepcopy(record)
    *parents, last = dotted.split(".")
    holder = record
    for name in parents:
        holder = holder[name]
    return record, holder, last


def without(record: dict, dotted: str) -> dict:
    record, holder, last = _copy_at(record, dotted)
    del holder[last]
    return record


def with_value(record: dict, dotted: str, value: object) -> dict:
    record, holder, last = _copy_at(record, dotted)
    holder[last] = value
    return record


def test_schema_is_valid_draft_2020_12():
    assert schema()["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(schema())


@pytest.mark.parametrize(
    "record",
    [
        run_record(),
        result_record(),
        skipped_record("timeout"),
        skipped_record("out_of_memory", needed_gb=12.5),
        event_record(),
        {"type": "event", "level": "warning", "kind": "timeout", "message": "x"},
        end_record(),
    ],
    ids=["run", "result", "timeout", "out_of_memory", "event", "event-minimal", "end"],
)
def test_valid_records_pass(record):
    validate_record(record)


def test_nulls_where_the_doc_allows_them():
    # Fewer than 6 samples: no 95 % interval exists.
    few = with_value(result_record(), "distribution.samples", 5)
    for field in ("ci_low_usec", "ci_high_usec", "ci_coverage"):
        few = with_value(few, f"distribution.{field}", None)
    validate_record(few)
    validate_record(result_record(multi=1, groups=2, group=1, defects=0, msgs_per_sec=1e6))


def test_unknown_fields_are_allowed():
    validate_record({**run_record(), "future_field": {"any": 1}})
    validate_record(with_value(result_record(), "distribution.p99_usec", 3.0))


@pytest.mark.parametrize(
    "record, field",
    [
        (run_record(), "schema_version"),
        (run_record(), "mpi.library_version"),
        (run_record(), "processes"),
        (run_record(), "timer.overhead_ns"),
        (result_record(), "t_avg_usec"),
        (result_record(), "status"),
        (result_record(), "distribution.median_usec"),
        (event_record(), "message"),
        (end_record(), "status"),
        (end_record(), "load_average_after"),
    ],
)
def test_missing_required_field_is_rejected(record, field):
    with pytest.raises(ValueError, match=repr(field.split(".")[-1])):
        validate_record(without(record, field))


@pytest.mark.parametrize(
    "record, field, value",
    [
        (run_record(), "schema_version", 2),
        (run_record(), "hosts", "node1"),
        (run_record(), "oversubscribed", "no"),
        (result_record(), "bytes", "1024"),
        (result_record(), "bytes", 1.5),
        (result_record(), "processes", 0),
        (result_record(), "multi", 2),
        (result_record(), "status", "crashed"),
        (result_record(), "t_avg_usec", None),  # status ok needs IMB's figures
        (result_record(), "distribution.median_usec", "1.6"),
        (result_record(), "samples_ns", [1, "2"]),
        (skipped_record(), "distribution", result_record()["distribution"]),  # not ok: null
        (event_record(), "level", "debug"),
        (end_record(), "load_average_after", [1, 1]),
        (end_record(), "status", "done"),
    ],
)
def test_wrong_type_or_value_is_rejected(record, field, value):
    with pytest.raises(ValueError):
        validate_record(with_value(record, field, value))


def test_unknown_record_type_is_rejected():
    with pytest.raises(ValueError, match="'summary' is not one of"):
        validate_record({"type": "summary"})
