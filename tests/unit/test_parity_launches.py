"""benchmarks/parity_launches.py: one column of one benchmark, launch by launch, from imb_parity.sh
output directories, and each program's launches split at a threshold."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HEADER = ["#bytes", "#repetitions", "t_ovrl[usec]", "t_pure[usec]", "t_CPU[usec]", "overlap[%]"]


def nbc_table(name: str, rows: dict[int, float]) -> str:
    """An IMB-NBC table in IMB's 13-character columns; t_ovrl is twice t_pure, so a wrong column shows."""
    lines = [f"# Benchmarking {name} ", "# #processes = 2 ", "#" + "-" * 60, "".join(h.rjust(13) for h in HEADER)]
    for size, pure in rows.items():
        lines.append("".join(f"{v:>13}" for v in (size, 1000, f"{2 * pure:.2f}", f"{pure:.2f}", f"{pure:.2f}", "0.00")))
    return "\n".join(lines) + "\n\n"


def write_round(outdir: Path, round_: int, imb: float, core: float, imb2: float) -> None:
    d = outdir / "np2" / "nbc"
    d.mkdir(parents=True, exist_ok=True)
    for program, big in (("imb", imb), ("core", core), ("imb2", imb2)):
        text = nbc_table("Ibcast", {65536: 4.0, 4194304: big}) + nbc_table("Iallreduce", {4194304: 9999.0})
        (d / f"r{round_}-{program}.txt").write_text(text)


def run(*args: str | Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "benchmarks/parity_launches.py"), *map(str, args)],
                          capture_output=True, text=True, timeout=60)


def test_lists_each_launch_and_splits_each_program_at_the_threshold(tmp_path):
    write_round(tmp_path, 1, imb=200.0, core=800.0, imb2=210.0)
    write_round(tmp_path, 2, imb=750.0, core=205.0, imb2=700.0)
    out = run(tmp_path, "-bench", "Ibcast", "-sizes", "65536,4194304", "-slow", "4194304:300")
    assert out.returncode == 0, out.stderr
    launch_rows = [line for line in out.stdout.splitlines() if "/np2/nbc/r" in line]
    assert len(launch_rows) == 6
    assert any("r1-core" in row and "| mpimark | 4.00 | 800.00 |" in row for row in launch_rows)
    assert not any("9999" in row or "1600" in row for row in launch_rows)  # neither Iallreduce nor t_ovrl
    summary = {line.split("|")[1].strip(): line for line in out.stdout.splitlines() if line.startswith("| IMB")
               or line.startswith("| mpimark")}
    assert "| 2 | 4.00 (4.00–4.00) | 725.00 (700.00–750.00) |" in summary[
        "IMB slow (2 of 4 launches above 300 us at 4194304 B)"]
    assert "| 1 | 4.00 (4.00–4.00) | 800.00 (800.00–800.00) |" in summary[
        "mpimark slow (1 of 2 launches above 300 us at 4194304 B)"]
    assert "| 2 | 4.00 (4.00–4.00) | 205.00 (200.00–210.00) |" in summary["IMB fast"]


def test_the_column_option_reads_another_column(tmp_path):
    write_round(tmp_path, 1, imb=200.0, core=800.0, imb2=210.0)
    out = run(tmp_path, "-bench", "Ibcast", "-column", "t_ovrl", "-sizes", "4194304")
    assert out.returncode == 0, out.stderr
    assert "| mpimark | 1600.00 |" in out.stdout


def test_bad_input_gets_one_line_and_a_nonzero_exit(tmp_path):
    write_round(tmp_path, 1, imb=200.0, core=800.0, imb2=210.0)
    for args, code, words in (((tmp_path, "-bench", "Ibcast", "-slow", "300"), 2, "-slow SIZE:USEC"),
                              ((tmp_path, "-bench", "Ibcast", "-sizes", "big"), 2, "-sizes takes bytes"),
                              ((tmp_path, "-bench", "Nothing"), 1, "no Nothing table")):
        out = run(*args)
        assert out.returncode == code
        assert words in out.stderr and len(out.stderr.strip().splitlines()) == 1
        assert "Traceback" not in out.stderr


def test_a_launch_shows_the_vcpu_probe_around_it(tmp_path):
    write_round(tmp_path, 1, imb=200.0, core=800.0, imb2=210.0)
    pin = tmp_path / "np2" / "nbc" / "r1-core.pin"
    pin.write_text("load average at launch: 0.10 0.20 0.30\n"
                   "before: vcpu_probe cpus 0,1 round_trip_ns 112 copy_4MiB_us 119 copy_GBs 35.2\n"
                   "[0] MPI startup(): 0       29539    vm         {0}\n"
                   "after: vcpu_probe cpus 0,1 round_trip_ns 640 copy_4MiB_us 410 copy_GBs 10.2\n")
    out = run(tmp_path, "-bench", "Ibcast", "-sizes", "4194304")
    assert out.returncode == 0, out.stderr
    rows = {line.split("|")[1].strip() for line in out.stdout.splitlines() if "/np2/nbc/r1-" in line}
    assert f"{tmp_path.name}/np2/nbc/r1-core p2 (before 112 ns 119 us / after 640 ns 410 us)" in rows
    assert f"{tmp_path.name}/np2/nbc/r1-imb p2" in rows  # no .pin file: no probe figures
