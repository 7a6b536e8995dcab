"""The fast check of stream records (records/record_check.py) against jsonschema, the reference: what the
fast check accepts jsonschema accepts, real records take the fast path, and errors still name the field."""

from __future__ import annotations

import copy
import json

import pytest
from jsonschema.exceptions import best_match

from mpimark.records import record_check
from mpimark.records.results import _validator, read_records, validate_record
from mpimark.storage.importers import ImportFormatError, parse_file

from .conftest import IMB_FIXTURES

ODD_VALUES = (None, -1, 0, 1, 1.5, 1.0, -0.5, "", "x", True, False, [], [1], [-1], [1, "a"], [True], {}, {"a": 1},
              2**70)


def fixture_records() -> list[dict]:
    return [record for path in IMB_FIXTURES for record in read_records(path)]


def jsonschema_accepts(record: object) -> bool:
    return best_match(_validator().iter_errors(record)) is None


def mutations(record: dict, inner: bool):
    """record with each field (and with inner, each field of its objects) set to each odd value, or left out."""
    for key, value in record.items():
        for odd in ODD_VALUES:
            yield {**record, key: odd}
        yield {k: v for k, v in record.items() if k != key}
        if isinstance(value, dict) and inner:
            for inner in value:
                for odd in ODD_VALUES:
                    yield {**record, key: {**value, inner: odd}}
        if isinstance(value, list) and value:
            for odd in ODD_VALUES:
                yield {**record, key: [odd, *value[1:]]}


def one_of_each_kind() -> list[dict]:
    seen: dict[tuple, dict] = {}
    for record in fixture_records():
        seen.setdefault((record["type"], record.get("status"), record.get("distribution") is None), record)
    return list(seen.values())


def test_every_real_record_takes_the_fast_path():
    records = fixture_records()
    assert len(records) > 100
    assert all(record_check.valid(record) for record in records)


@pytest.mark.parametrize("record", one_of_each_kind(), ids=lambda r: f"{r['type']}-{r.get('status')}")
def test_what_the_fast_check_accepts_jsonschema_accepts(record):
    checked = rejected = 0
    # The run record's objects nest deep and jsonschema takes 30 ms a run record: its fields alone.
    for mutated in mutations(copy.deepcopy(record), inner=record["type"] != "run"):
        if record_check.valid(mutated):
            assert jsonschema_accepts(mutated), json.dumps(mutated)[:300]
        else:
            rejected += 1
            if rejected % 40 == 1 and not jsonschema_accepts(mutated):  # a few: jsonschema is slow
                with pytest.raises(ValueError):  # with jsonschema's reason, as before
                    validate_record(mutated)
        checked += 1
    assert checked > 50 and rejected > 10


def test_where_the_fast_check_is_stricter_jsonschema_decides():
    record = next(r for r in fixture_records() if r["type"] == "result" and r["distribution"])
    whole_float = {**record, "repetitions": 1000.0}  # an integer to JSON Schema, not to fastjsonschema
    assert jsonschema_accepts(whole_float)
    validate_record(whole_float)


def test_a_bad_sample_is_named_with_file_and_line(tmp_path):
    lines = [line for line in (IMB_FIXTURES[0]).read_text().splitlines()]
    number, record = next((n, json.loads(line)) for n, line in enumerate(lines, 1)
                          if json.loads(line)["type"] == "result" and json.loads(line)["samples_ns"])
    record["samples_ns"][3] = -1
    lines[number - 1] = json.dumps(record)
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(ImportFormatError) as caught:
        parse_file(path)
    assert f"bad.jsonl:{number}" in str(caught.value) and "samples_ns[3]" in str(caught.value)
    assert "-1 is less than the minimum of 0" in str(caught.value)


@pytest.mark.parametrize("samples, good", [([], True), (None, True), ([0, 1.5, 10**20], True), ([-0.1], False),
                                           ([True], False), (["1"], False), ({"a": 1}, False), ("1,2", False)])
def test_samples_are_checked_as_an_array(samples, good):
    record = next(r for r in fixture_records() if r["type"] == "result" and r["distribution"])
    assert record_check.valid({**record, "samples_ns": samples}) is good
    assert jsonschema_accepts({**record, "samples_ns": samples}) is good


def test_the_compiled_check_is_kept_and_a_damaged_copy_is_compiled_again(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    record_check._compiled.cache_clear()
    result = next(r for r in fixture_records() if r["type"] == "result")
    try:
        assert record_check.valid(result)
        [kept] = (tmp_path / "mpimark" / "validators").glob("result-*.marshal")
        record_check._compiled.cache_clear()
        kept.write_bytes(b"N")  # marshalled None: not code (a copy cut short or written over)
        assert record_check.valid(result) and not record_check.valid({**result, "bytes": -1})
        assert kept.read_bytes() != b"N"  # compiled again and kept again
    finally:
        record_check._compiled.cache_clear()  # the next test compiles against its own cache directory
