"""benchmarks/imb_parity.py: per row the median over rounds of the core against the IMB launches around
it, the median's 95 % interval, and a verdict that says whether the interval holds 1."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HEADER = ["#bytes", "#repetitions", "t[usec]", "Mbytes/sec"]


def pingpong(times: dict[int, float]) -> str:
    """An IMB-MPI1 PingPong table in IMB's 13-character columns."""
    lines = ["# Benchmarking PingPong ", "# #processes = 2 ", "#" + "-" * 60, "".join(h.rjust(13) for h in HEADER)]
    for size, t in times.items():
        lines.append("".join(f"{v:>13}" for v in (size, 1000, f"{t:.2f}", "0.00")))
    return "\n".join(lines) + "\n\n"


def write_rounds(outdir: Path, rounds: list[tuple[float, float, float]]) -> None:
    """One round per (imb, core, imb2) factor; every size's time is the factor times the size's base."""
    d = outdir / "np2" / "mpi1"
    d.mkdir(parents=True, exist_ok=True)
    for k, factors in enumerate(rounds, start=1):
        for program, f in zip(("imb", "core", "imb2"), factors):
            (d / f"r{k}-{program}.txt").write_text(pingpong({0: 0.5 * f, 1024: 2.0 * f, 65536: 20.0 * f}))


def row_of(outdir: Path) -> list[str]:
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks/imb_parity.py"), str(outdir)],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    rows = [line for line in out.stdout.splitlines() if line.startswith("| 2 | mpi1 | PingPong")]
    assert len(rows) == 1, out.stdout
    return [cell.strip() for cell in rows[0].strip("|").split("|")]


COLUMNS = ["ranks", "suite", "benchmark", "processes", "mode", "ratio", "ci", "range", "noise", "noise_ci",
           "verdict", "rounds"]


def test_the_core_is_set_against_both_imb_launches_around_it(tmp_path):
    # IMB drifts from 1 to 4 within every round; the core, launched between, at 2 is IMB's equal.
    write_rounds(tmp_path, [(1.0, 2.0, 4.0)] * 6)
    row = dict(zip(COLUMNS, row_of(tmp_path)))
    assert row["ratio"] == "1.000" and row["verdict"] == "within noise"
    assert row["noise"] == "4.000"


def test_a_core_slower_in_every_round_is_called_slower(tmp_path):
    rounds = [(1.0, 1.5, 1.1), (1.2, 1.6, 1.0), (0.9, 1.4, 1.0), (1.0, 1.5, 0.95), (1.1, 1.7, 1.0),
              (1.0, 1.45, 1.05), (0.95, 1.5, 1.0), (1.05, 1.55, 1.0), (1.0, 1.6, 1.1)]
    write_rounds(tmp_path, rounds)
    row = dict(zip(COLUMNS, row_of(tmp_path)))
    low, high = (float(x) for x in row["ci"].split("–"))
    assert 1.0 < low <= float(row["ratio"]) <= high
    assert row["verdict"] == "mpimark slower" and row["rounds"] == "9"
    # nine rounds: the interval is the 2nd to 8th order statistic, inside the range
    range_low, range_high = (float(x) for x in row["range"].split("–"))
    assert range_low < low and high < range_high


def test_a_core_that_is_faster_in_some_rounds_and_slower_in_others_is_within_noise(tmp_path):
    write_rounds(tmp_path, [(1.0, 0.7, 1.0), (1.0, 1.4, 1.0)] * 3)
    row = dict(zip(COLUMNS, row_of(tmp_path)))
    assert row["verdict"] == "within noise"


def test_fewer_rounds_than_an_interval_needs_say_so(tmp_path):
    write_rounds(tmp_path, [(1.0, 3.0, 1.0)] * 5)
    row = dict(zip(COLUMNS, row_of(tmp_path)))
    assert row["ci"] == "-" and row["verdict"] == "too few rounds (need 6)"
