"""A fast yes/no check of a stream record against the schema, for reading streams of any size.

jsonschema, the reference validator, took 93 % of an import of the core's
stream (about 3 ms a result record: it walks every sample of samples_ns as
a schema instance). Here each record kind's part of the schema (the `then`
of its `if type == kind`) is compiled to Python by fastjsonschema (kept in the cache
directory: _compiled), and samples_ns, the one array of thousands of numbers, is checked
as an array (numbers, none negative) rather than sample by sample.

valid() only says yes or no; results.validate_record asks jsonschema for
the reason (and has the last word) when it says no, so an error reads as
before, with the field. A record valid() accepts is one jsonschema accepts:
tests/unit/test_record_check.py compares the two on mutated real records.
"""

from __future__ import annotations

import hashlib
import json
import marshal
import sys
from collections.abc import Callable
from functools import lru_cache
from types import CodeType

from mpimark.paths import cache_dir, write_cached

# The record kinds of a stream; anything else (a benchmark_facts document, an unknown type) goes to jsonschema.
STREAM_KINDS = ("run", "result", "event", "end")


@lru_cache(maxsize=None)
def _compiled(kind: str) -> Callable[[dict], object]:
    """kind's validator: fastjsonschema's code for it, compiled by Python once and kept (marshalled) in the
    cache directory, keyed by the schema, fastjsonschema's version and Python's: generating and compiling
    it took 0.08 s a process (the run record's part is 190 kB of code), a fifth of importing a 16-rank
    stream; loading it back takes about a millisecond."""
    # Imported here: commands that read no stream do not pay for fastjsonschema.
    import fastjsonschema

    from mpimark.records.results import schema

    whole = schema()
    case = next((c for c in whole["allOf"] if c["if"]["properties"]["type"].get("const") == kind), None)
    if case is None:
        raise KeyError(kind)
    # format is an annotation in draft 2020-12 (jsonschema does not assert it by default): not checked.
    definition = {**case["then"], "$defs": whole["$defs"]}
    key = hashlib.sha256(json.dumps([definition, fastjsonschema.VERSION, sys.version], sort_keys=True)
                         .encode()).hexdigest()[:32]
    kept = cache_dir() / "validators" / f"{kind}-{key}.marshal"
    try:
        code = marshal.loads(kept.read_bytes())
    except (OSError, EOFError, ValueError, TypeError):
        code = None
    if not isinstance(code, CodeType):  # missing, cut short, or another object marshalled
        code = compile(fastjsonschema.compile_to_code(definition, use_formats=False), f"<schema of {kind}>", "exec")
        write_cached(kept, marshal.dumps(code))
    namespace: dict = {}
    exec(code, namespace)  # fastjsonschema's own code, as its compile() runs it
    return namespace["validate"]


def _samples_valid(samples: object) -> bool:
    """samples_ns as the schema has it: null, or an array of numbers (not booleans) none below 0."""
    if samples is None:
        return True
    if type(samples) is not list:
        return False
    # type() is, not isinstance: True is an int to Python and not a number to JSON Schema.
    return all(type(x) is float or type(x) is int for x in samples) and (not samples or min(samples) >= 0)


def valid(record: object) -> bool:
    """Whether record is a valid run, result, event or end record; False also for anything it cannot tell."""
    import fastjsonschema

    if type(record) is not dict or record.get("type") not in STREAM_KINDS:
        return False
    if "samples_ns" in record:
        if not _samples_valid(record["samples_ns"]):
            return False
        record = {**record, "samples_ns": None}
    try:
        _compiled(record["type"])(record)
    except fastjsonschema.JsonSchemaException:
        return False
    return True
