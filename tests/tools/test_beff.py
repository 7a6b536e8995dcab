"""`mpimark beff` at 2, 3 and 4 ranks under Open MPI, 2 under MPICH (3 and 4: slow, conftest.cases()):
files, stored run, closing line, show."""

from __future__ import annotations

import os
import re

import pytest

from mpimark.presentation.tools import beff as view
from mpimark.records.results import core_records, read_records
from mpimark.storage.store import Store

from .conftest import TIMEOUT_S, cases, mpimark, ok, stored_as

# The shortest b_eff: -short -test (2 repetitions, 2 random patterns, 5 ms per loop) and 1 MiB per
# process (Lmax = 8 KiB), so a run takes seconds where the processes are not descheduled.
QUICK = ("-short", "-test", "--mem-per-proc", "1")
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
CLOSING = re.compile(r"^b_effSHORT&TEST = +(\d+\.\d{3}) MB/s = +(\d+\.\d{3}) \* +(\d+) PEs with +1 MB/PE on (.+)$")


def uname_a() -> str:
    u = os.uname()
    return f"{u.sysname} {u.nodename} {u.release} {u.version} {u.machine}"


def plot_blocks(plot: str) -> dict[str, list[list[float]]]:
    """The .plot file's blocks by their title ("Sndrcv: additional", ...), rows of numbers."""
    blocks: dict[str, list[list[float]]] = {}
    title = None
    for line in plot.splitlines():
        if line.startswith("# index "):
            title = line.split(" -- ", 1)[1]
            blocks[title] = []
        elif line.strip() and not line.startswith("#") and title is not None:
            blocks[title].append([float(x) for x in line.split()])
    return blocks


def assert_plot_columns_as_original(plot: str, patterns: dict[int, dict], n: int) -> None:
    """The "additional" blocks hold the original b_eff's nine columns: its patterns 36-38 and 40-45, i.e.
    the reported-only patterns in order without the ping-pong pair (39), and none after the ninth
    (at 4 processes 46-47, the 3-dim cyclic y and all, are left out)."""
    extra = [i for i, p in patterns.items() if p["class"] == "additional"]
    assert patterns[extra[3]]["label"] == "one PingPong Pair"
    assert len(extra) == (12 if n == 4 else 10)  # the original's 46 patterns at 2 and 3 processes, 48 at 4
    want = [i for i in extra if patterns[i]["label"] != "one PingPong Pair"][:9]
    assert want == extra[:3] + extra[4:10]
    header = next(line for line in plot.splitlines() if line.startswith("# .prot and .short): L,"))
    assert [f"p{i:02d}={patterns[i]['label']}" for i in want] == header.split("L, ", 1)[1].split(", ")
    blocks = plot_blocks(plot)
    for method in ("Sndrcv", "Alltoal", "non-blk", "best"):
        assert {len(row) for row in blocks[f"{method}: additional"]} == {1 + 9}, method
    for row in blocks["best: additional"]:  # the best method's columns are the stored per-pattern values
        for k, index in enumerate(want):
            assert row[1 + k] == pytest.approx(dict(patterns[index]["points"])[int(row[0])], abs=0.0011)


# MPICH oversubscribed busy-polls: minutes for b_eff's ~2500 measurements (conftest.py).
@pytest.mark.parametrize("name, n", list(cases()))
def test_beff(need, name, n, tmp_path):
    need(name)
    db, out, stream = tmp_path / "results.db", tmp_path / "out", tmp_path / "beff.jsonl"
    slow = name == "mpich" and n > 2
    # -yrange in the original's [MIN:MAX] form (its help text's), written to the script as gnuplot takes it.
    result = ok(mpimark("beff", "-n", str(n), "--mpi", name, *QUICK, "-yrange", "[0.01:10000]", "--out", str(out),
                        "--db", str(db),
                        "--json", str(stream), "--timeout", "1200" if slow else "600",
                        timeout=1260 if slow else TIMEOUT_S))
    (run_id,) = stored_as(result)

    # The closing line: the core's last stdout line, ours after the table, and its stderr copy.
    lines = result.stdout.splitlines()
    closing = lines[-1]
    match = CLOSING.match(closing)
    assert match, closing
    total, per_pe, pes, system = float(match[1]), float(match[2]), int(match[3]), match[4]
    assert pes == n and system == uname_a()
    assert total == pytest.approx(per_pe * n, abs=0.002 * n)
    assert lines.count(closing) == 2 and closing in result.stderr

    # The files, each holding what it should.
    prefix = out / "b_eff"
    files = {suffix: prefix.with_name("b_eff" + suffix) for suffix in (*view.FILE_SUFFIXES, view.PNG_SUFFIX)}
    for path in files.values():
        assert path.is_file() and path.stat().st_size > 0, path
    prot = files[".prot"].read_text()
    for section in ("SECTION-HEAD", "SECTION-LOOP", "SECTION-LOOPLNGS", "SECTION-VALUES"):
        assert f"{section}-BEGIN" in prot and f"{section}-END" in prot, section
    short = files[".short"].read_text()
    for section in ("SECTION-ELAPSED", "SECTION-PATTERN", "SECTION-BY-PATTERN-MSGLNG", "SECTION-BEFF"):
        assert f"{section}-BEGIN" in short, section
    assert short.rstrip().splitlines()[-1] == closing
    summary_file = files[".sum"].read_text()
    assert "accumulated |" in summary_file and "per process |" in summary_file
    assert summary_file.rstrip().splitlines()[-1] == closing
    plot = files[".plot"].read_text()
    data = [line.split() for line in plot.splitlines() if line.strip() and not line.startswith("#")]
    assert len(data) >= 21 and all(float(row[0]) >= 1 for row in data)
    assert "b_eff.plot" in files[".gps"].read_text()
    assert "\nset yrange [0.01:10000]\n" in files[".gps"].read_text()
    assert files[".png"].read_bytes()[:8] == PNG_SIGNATURE
    assert f"files: {prefix}.prot" in result.stderr

    # The stored run is the stream the core wrote, and says what the output says.
    written = read_records(stream)
    with Store(db) as store:
        row, records = store.run(run_id), store.records(run_id)
    assert core_records(records) == written
    assert (row.status, row.suite, row.processes, row.mpi_name) == ("complete", "beff", n, name)
    assert row.launch_command[-4:-2] == ["-out", str(prefix)]
    summary = view.summary(records)
    assert summary["summary_line"] == closing and summary["mode"] == "SHORT&TEST"
    assert summary["b_eff_mbytes_per_sec"] == pytest.approx(total, abs=0.0005)
    assert summary["lmax_bytes"] == 8192 and summary["mem_mb_per_process"] == 1
    lengths = [r for r in records if r.get("record") == "length"]
    assert [r["bytes"] for r in lengths][-1] == 8192 and len(lengths) == 21
    patterns = view.pattern_series(records)
    assert {p["class"] for p in patterns.values()} == {"ring", "random", "additional"}
    assert sum(p["class"] == "random" for p in patterns.values()) == 2
    assert_plot_columns_as_original(plot, patterns, n)

    # The published table, as the command printed it and as `mpimark show` prints it again.
    row_text = view.table_row(summary, written[0])
    assert row_text in result.stdout
    cells = row_text.split()
    assert int(cells[0]) == n and float(cells[1]) == pytest.approx(total, abs=0.0005)
    assert float(cells[2]) == pytest.approx(per_pe, abs=0.0005)
    assert float(cells[4]) == pytest.approx(summary["pingpong_latency_usec"], abs=0.0005)
    assert cells[-3:] == ["1", "*", str(n)]
    shown = ok(mpimark("show", str(run_id), "--db", str(db)))
    assert view.TABLE_HEAD in shown.stdout and row_text in shown.stdout
    assert shown.stdout.splitlines()[-1] == closing
