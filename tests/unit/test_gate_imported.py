"""The regression gate on imported IMB logs: each log is one launch valued by IMB's own figures.

Five launches a side are made from a real IMB 2021 log (tests/unit/data/import/imb_2021.txt) with a
launch effect (every time of a launch scaled by its level, as measured launches move together)."""

from __future__ import annotations

import re

import numpy
import pytest

from .cli_helpers import invoke

LOG = (__import__("pathlib").Path(__file__).parent / "data" / "import" / "imb_2021.txt").read_text()


def scaled_log(text: str, factor: float) -> str:
    """The log with every time column ([usec]) times factor and Mbytes/sec divided by it, as IMB prints them."""
    out, header = [], []
    for line in text.splitlines():
        if re.match(r"\s*#(bytes|repetitions)", line):
            header = line.split()
        elif header and line.strip() and not line.lstrip().startswith("#"):
            cells = line.split()
            names = header[-len(cells):]
            line = "".join(f"{_scaled(name, cell, factor):>{13 if i else 13}}" for i, (name, cell)
                           in enumerate(zip(names, cells)))
        elif not line.strip():
            header = []
        out.append(line)
    return "\n".join(out) + "\n"


def _scaled(name: str, cell: str, factor: float) -> str:
    if "usec" in name:
        return f"{float(cell) * factor:.2f}"
    if "Mbytes" in name:
        return f"{float(cell) / factor:.2f}"
    return cell


def test_scaled_log_scales_the_times_and_keeps_the_rest():
    doubled = scaled_log(LOG, 2.0)
    assert "179.50" in LOG and "359.00" in doubled and "2920.89" in doubled  # 5841.78 / 2
    assert doubled.count("\n") == LOG.count("\n") + (0 if LOG.endswith("\n") else 1)
    assert "# All processes entering MPI_Finalize" in doubled


@pytest.fixture
def db(tmp_path):
    """Study "imb": old and new, five launches each of the same log with launch levels (1 % spread: with 3 %
    five a side cannot rule out 5 % over 4 geomeans, and the gate says so, test_launch_calibration.py);
    "slow": five a side, new ones 1.5x slower (3 % spread); "one": a log a side."""
    rng = numpy.random.default_rng(2026)
    path = tmp_path / "results.db"
    for study, factor, count, spread in (("imb", 1.0, 5, 0.01), ("slow", 1.5, 5, 0.03), ("one", 1.5, 1, 0.03)):
        for impl, scale in (("old", 1.0), ("new", factor)):
            for i in range(count):
                log = tmp_path / f"{study}-{impl}-{i}.txt"
                log.write_text(scaled_log(LOG, scale * float(numpy.exp(rng.normal(0, spread)))))
                result = invoke("import", str(log), "--mpi", "impi", "--study", study, "--impl", impl,
                                "--db", str(path))
                assert result.exit_code == 0, result.stderr
    return path


def test_imported_logs_five_a_side_one_side_half_slower_fail_the_gate(db):
    result = invoke("compare", "slow:old", "slow:new", "--fail-if-slower", "5%", "--db", str(db))
    assert result.exit_code == 3, result.stdout
    assert "SLOWER (exit 3)" in result.stdout and "(0 rows" not in result.stdout


def test_imported_logs_five_a_side_without_a_slowdown_pass_the_gate(db):
    result = invoke("compare", "imb:old", "imb:new", "--fail-if-slower", "5%", "--db", str(db))
    assert result.exit_code == 0, result.stdout
    assert "NOT SLOWER (exit 0)" in result.stdout


def test_one_imported_log_a_side_is_undecided_never_a_pass(db):
    result = invoke("compare", "one:old", "one:new", "--fail-if-slower", "5%", "--db", str(db))
    assert result.exit_code == 4, result.stdout
    assert "UNDECIDED (exit 4)" in result.stdout and "Launches decide" in result.stdout
    geomean = next(line for line in result.stdout.splitlines() if line.startswith("│ geomean"))
    assert "1.5" in geomean  # the geomean of imported figures is computed: about 1.5
