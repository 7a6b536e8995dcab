"""A result record as its row of the results table, and back, exactly (database version 8 on).

Before, a row held every value twice: in its typed columns (for SQL) and in
the record as JSON text (for `records()`), and samples_ns a third time: a
212 MB IMB log took 1.99 GB. Now the record column keeps only what the
typed columns cannot give back exactly (`rest`), and a shape, shared by
every row whose record has the same fields in the same order (the
result_shapes table), says where each field's value is:

    "key"              the typed column of that field ("type": always "result", samples_ns: its JSON column);
                       a field that has no column: null
    ["key"]            rest["key"]
    ["key", [entries]] an object (distribution), its fields by the same entries, rest["key"] its rest

A value goes to rest when its column would give back something else:
SQLite's REAL column turns an integer into a float (the core writes
`"mbytes_per_sec":0`), an INTEGER column keeps no float, a TEXT column no
number, and -0.0 comes back as 0.0. So join(split(r)) == r, with the same
types and the same order (tests/unit/test_store_compact.py).
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Callable, Sequence

# (column, field, SQL type) of the results table, in its order after run_id and seq; "group" is an SQL word.
RESULT_COLUMNS = (
    ("benchmark", "benchmark", "TEXT"), ("suite", "suite", "TEXT"), ("processes", "processes", "INTEGER"),
    ("multi", "multi", "INTEGER"), ("groups", "groups", "INTEGER"), ("grp", "group", "INTEGER"),
    ("bytes", "bytes", "INTEGER"), ("count", "count", "INTEGER"), ("datatype", "datatype", "TEXT"),
    ("status", "status", "TEXT"), ("repetitions", "repetitions", "INTEGER"), ("t_min_usec", "t_min_usec", "REAL"),
    ("t_max_usec", "t_max_usec", "REAL"), ("t_avg_usec", "t_avg_usec", "REAL"),
    ("mbytes_per_sec", "mbytes_per_sec", "REAL"), ("msgs_per_sec", "msgs_per_sec", "REAL"),
    ("defects", "defects", "INTEGER"), ("needed_gb", "needed_gb", "REAL"),
)
# The distribution object's fields, each in the column of its name.
DISTRIBUTION_COLUMNS = (
    ("median_usec", "REAL"), ("ci_low_usec", "REAL"), ("ci_high_usec", "REAL"), ("ci_level", "REAL"),
    ("ci_coverage", "REAL"), ("q1_usec", "REAL"), ("q3_usec", "REAL"), ("p5_usec", "REAL"), ("p95_usec", "REAL"),
    ("min_usec", "REAL"), ("max_usec", "REAL"), ("samples", "INTEGER"), ("batch_size", "INTEGER"),
)
# Every typed column in table order, then samples_ns: what split() gives and join() reads, by position.
COLUMNS = (*(c for c, _, _ in RESULT_COLUMNS), *(c for c, _ in DISTRIBUTION_COLUMNS), "samples_ns")
SAMPLES = len(COLUMNS) - 1
FIELD_COLUMNS = {field: COLUMNS.index(column) for column, field, _ in RESULT_COLUMNS}  # a record field's place

_PYTHON = {"REAL": float, "INTEGER": int, "TEXT": str}  # what each SQL type gives back
_TOP = {field: (FIELD_COLUMNS[field], _PYTHON[kind]) for _, field, kind in RESULT_COLUMNS}
_INNER = {field: (COLUMNS.index(field), _PYTHON[kind]) for field, kind in DISTRIBUTION_COLUMNS}
_SHORT = 64  # strings up to this long are interned on reading: the same few names in every row
_SHAPES: dict[tuple, str] = {}  # shape -> its JSON: the few shapes of a run are written once each


def dumps(value: object) -> str:
    # Lossless (repr floats), compact; NaN is refused, as by the schema.
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def _kept(kind: type, value: object) -> bool:
    """Whether a column giving back kind (value's type: checked by type() is, as True is no int here, nor 1
    a float, and SQLite would give back 1 and 1.0) gives back value itself."""
    if kind is int:
        return -2**63 <= value < 2**63
    return kind is not float or value != 0 or math.copysign(1.0, value) > 0  # -0.0 comes back 0.0


def _entries(fields: dict, columns: dict, values: list, rest: dict) -> list:
    """The shape entries of a record's fields (columns _TOP) or its distribution's (_INNER), filling values
    (the typed columns) and rest (what they would not give back exactly)."""
    top = columns is _TOP
    entries: list = []
    for key, value in fields.items():
        if value is None and not (top and key == "type"):
            entries.append(key)
            continue
        place = columns.get(key)
        if place is not None:
            kind = place[1]
            if type(value) is kind and (kind is str or _kept(kind, value)):
                values[place[0]] = value
                entries.append(key)
                continue
            # A list or object where the schema has a scalar goes in as JSON text: the typed columns must not
            # refuse a record (rest keeps the truth).
            values[place[0]] = dumps(value) if isinstance(value, (dict, list)) else value
        elif top and key == "type" and value == "result":
            entries.append(key)
            continue
        elif top and key == "samples_ns" and type(value) is list:
            values[SAMPLES] = dumps(value) if value else "[]"  # imported text has no samples: 10^5 rows of []
            entries.append(key)
            continue
        elif top and key == "distribution" and type(value) is dict:
            inner: dict = {}
            entries.append((key, tuple(_entries(value, _INNER, values, inner))))
            if inner:
                rest[key] = inner
            continue
        rest[key] = value
        entries.append((key,))
    return entries


def split(record: dict) -> tuple[list, str, str]:
    """(the row's column values in COLUMNS order, rest as JSON, shape as JSON) of a result record.

    Raises TypeError or ValueError (from json) for a value JSON cannot hold."""
    values: list = [None] * len(COLUMNS)
    rest: dict = {}
    shape = _entries(record, _TOP, values, rest)
    shape_key = tuple(shape)
    text = _SHAPES.get(shape_key)
    if text is None:
        if len(_SHAPES) >= 10000:  # records of ever new fields: memory stays bounded
            _SHAPES.clear()
        text = _SHAPES[shape_key] = dumps(shape)
    return values, dumps(rest) if rest else "{}", text


def _reader(entries: list, columns: dict) -> Callable[[Sequence, dict], dict]:
    """A function of (row values, rest) giving the object that entries describe."""
    steps: list = []
    for entry in entries:
        if type(entry) is str:
            if entry == "type" and columns is _TOP:
                steps.append((entry, "constant", "result"))
            elif entry == "samples_ns" and columns is _TOP:
                steps.append((entry, "samples", SAMPLES))
            elif entry in columns:
                steps.append((entry, "column", columns[entry][0]))
            else:
                steps.append((entry, "constant", None))
        elif len(entry) == 1:
            steps.append((entry[0], "rest", entry[0]))
        else:
            steps.append((entry[0], "object", _reader(entry[1], _INNER)))

    def read(values: Sequence, rest: dict) -> dict:
        record = {}
        for key, how, where in steps:
            if how == "column":
                value = values[where]
                record[key] = sys.intern(value) if type(value) is str and len(value) <= _SHORT else value
            elif how == "constant":
                record[key] = where
            elif how == "rest":
                record[key] = rest[key]
            elif how == "samples":
                record[key] = None if values[where] is None else json.loads(values[where])
            else:
                record[key] = where(values, rest.get(key) or {})
        return record

    return read


class Reader:
    """join(): rows back to records, each shape's reader made once."""

    def __init__(self) -> None:
        self._readers: dict[str, Callable[[Sequence, dict], dict]] = {}

    def join(self, shape: str, rest: str, values: Sequence) -> dict:
        """The record of a row: its shape and rest (JSON) and its values in COLUMNS order."""
        reader = self._readers.get(shape)
        if reader is None:
            if len(self._readers) >= 10000:  # a database of ever new fields: memory stays bounded
                self._readers.clear()
            reader = self._readers[shape] = _reader(json.loads(shape), _TOP)
        return reader(values, json.loads(rest) if rest != "{}" else {})
