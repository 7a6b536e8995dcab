"""A large IMB text log (benchmarks/big_imb_log.py) imports correctly, read as a stream.

No timing or resident-memory assertion: the memory figures are in benchmarks/README.md. The one memory
check is tracemalloc's peak over parsing and reading the rows, which counts allocations, not time, and
so cannot flake: below the file's own size, which reading the file whole (as before) took for its text
alone, before about 15 times that for its records.
"""

from __future__ import annotations

import importlib.util
import tracemalloc
from pathlib import Path

from mpimark.storage.importers import parse_file
from mpimark.storage.store import Store

from .cli_helpers import invoke

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).parent / "data" / "import"


def generator():
    spec = importlib.util.spec_from_file_location("big_imb_log", ROOT / "benchmarks" / "big_imb_log.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def data_rows(path: Path) -> list[list[str]]:
    return [line.split() for line in path.read_text().splitlines() if line[:1] == " " and line.split()[0].isdigit()]


def test_a_large_log_is_parsed_as_a_stream(tmp_path):
    big = tmp_path / "big.txt"
    generator().write(big, 0.6)
    rows = data_rows(big)
    parse_file(DATA / "imb_2021.txt")  # the core's facts loaded before measuring
    tracemalloc.start()
    try:
        parsed = parse_file(big)
        first = last = None
        stored = 0
        for record in parsed.rows():
            first, last, stored = first or record, record, stored + 1
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert parsed.count == stored == len(rows) > 9000
    assert peak < 600_000, peak  # the file's size
    assert parsed.status == "complete" and not parsed.warnings
    assert (first["benchmark"], first["processes"], first["bytes"], first["t_max_usec"]) == (
        "PingPong", 2, 0, float(rows[0][2]))
    assert (last["bytes"], last["t_min_usec"], last["t_max_usec"], last["t_avg_usec"]) == (
        int(rows[-1][0]), *map(float, rows[-1][2:5]))


def test_several_concatenated_runs_are_stored_with_a_warning(tmp_path):
    big = tmp_path / "three.txt"
    generator().write(big, 0.4, runs=3)
    db = tmp_path / "results.db"
    result = invoke("import", str(big), "--db", str(db))
    assert result.exit_code == 0, result.stderr
    assert "mpimark: warning: " in result.stderr and "looks like 3 runs one after another" in result.stderr
    with Store(db) as store:
        row = store.run(1)
        assert row.results == len(data_rows(big)) and row.status == "complete"
        assert sum(1 for r in store.iter_records(1) if r["type"] == "result") == row.results
