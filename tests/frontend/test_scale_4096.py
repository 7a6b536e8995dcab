"""A 4,096-rank simulated run imports, shows, compares, reports and plots (issue 24, item 5).

The run is synthetic: scale_stream.py scales a recorded 64-rank SimGrid SMPI stream (data/) to 4,096
ranks in the form the core writes (per-rank fields summarized past 64 ranks), a second copy with noise is
the other side of compare, and a third lists every rank (as MPIMARK_PER_RANK=1 asks the core to). No
SimGrid is needed. What is checked is content (rows at 4,096 processes, the simulated marking, nothing
listing all 4,096 hosts); the times are in benchmarks/README.md (benchmarks/frontend_scale.py).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from . import scale_stream
from .conftest import mpimark

P = 4096
COUNTS = scale_stream.progression(P)  # 2, 4, ..., 4096
BENCHMARKS = ("Allreduce", "Bcast", "Alltoall")


@pytest.fixture(scope="module")
def stored(tmp_path_factory) -> dict:
    """The three streams imported into one database: runs 1 (summarized), 2 (noisy copy), 3 (every rank)."""
    directory = tmp_path_factory.mktemp("scale4096")
    recorded = scale_stream.recorded()
    streams = [scale_stream.write(directory / "a.jsonl", scale_stream.scaled(recorded, P)),
               scale_stream.write(directory / "b.jsonl", scale_stream.scaled(recorded, P, noise=0.03, seed=2)),
               scale_stream.write(directory / "full.jsonl", scale_stream.scaled(recorded, P, listed=True))]
    env = {"MPIMARK_DB": str(directory / "results.db")}
    done = mpimark("import", *map(str, streams), "--mpi", "smpi", env=env)
    assert done.returncode == 0, done.stderr
    return {"env": env, "dir": directory, "import": done.stdout}


def run(stored: dict, *args: str):
    done = mpimark(*args, env=stored["env"])
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_scaled_stream_is_the_cores_form_at_4096_ranks():
    records = scale_stream.scaled(scale_stream.recorded(), P)
    run_record, end = records[0], records[-1]
    results = [r for r in records if r["type"] == "result"]
    assert run_record["processes"] == P and run_record["per_rank"] == {"bound": 64, "listed": False}
    assert len(run_record["hosts"]) == 64 and run_record["hosts_omitted"] == P - 64
    assert "ranks" not in run_record and run_record["ranks_summary"]["ranks"] == P
    assert run_record["simulation"]["simulator"] == "SimGrid SMPI"
    assert run_record["simulation"]["setup"]["platform"]["hosts"] == P
    assert {r["processes"] for r in results} == set(COUNTS) and end["results"] == len(results)
    # Samples per result as the core writes them (-iter 10), every time of a row scaled alike.
    assert all(len(r["samples_ns"]) == r["distribution"]["samples"] == 10 for r in results)
    assert len(scale_stream.scaled(scale_stream.recorded(), P, listed=True)[0]["ranks"]) == P


def test_import_stores_the_three_runs_marked_simulated(stored):
    lines = stored["import"].splitlines()
    assert len(lines) == 3
    assert all(re.search(rf"run \d+, {len(COUNTS) * 34} results \(jsonl\); simulated: SimGrid SMPI", line)
               for line in lines), lines


def test_runs_lists_them_simulated_without_every_host(stored):
    listing = run(stored, "runs")
    assert listing.count("simulated") >= 3
    assert "node-4095" not in listing  # the full run's 4,096 hosts are not all listed


def test_show_has_every_process_count_and_says_simulated(stored):
    text = run(stored, "show", "1")
    for count in COUNTS:
        assert f"# #processes = {count} " in text or f"# #processes = {count}\n" in text
    assert "simulated: SimGrid SMPI" in text
    full = run(stored, "show", "3")
    assert "node-4095" not in full and "4096 processes" in full  # the header names the hosts, not all of them


def test_show_stats_has_the_4096_rows(stored):
    text = run(stored, "show", "--stats", "1")
    for benchmark in BENCHMARKS:
        assert f"{benchmark}, 4096 processes" in text


def test_compare_matches_every_row_at_4096(stored):
    text = run(stored, "compare", "1", "2", "--format", "csv")
    rows = [line.split(",") for line in text.splitlines()[1:] if line]
    at_4096 = [row for row in rows if "4096" in row]
    # Allreduce 10 sizes, Bcast and Alltoall 12 each (0 B to 1 KiB): all matched at the full count.
    assert len(at_4096) == 34, text[:2000]


def test_report_draws_one_figure_per_benchmark_and_marks_simulated(stored):
    out = stored["dir"] / "report.html"
    run(stored, "report", "-o", str(out), "1", "2")
    html = out.read_text()
    assert "simulated" in html
    for benchmark in BENCHMARKS:
        assert f"{benchmark}, 4096 processes" in html  # the tables: one per count
        # a figure per series with a line per process count, not one per count
        assert f"{benchmark}, 2 to 4096 processes" in html
    assert html.count("<img ") <= 2 * len(BENCHMARKS) + 3  # two series; the process-count plots at most


def test_plot_writes_one_file_per_benchmark(stored):
    out = stored["dir"] / "plots"
    text = run(stored, "plot", "-o", str(out), "1")
    names = sorted(Path(line).name for line in text.splitlines())
    assert [n for n in names if "-np2-4096-" in n] == sorted(f"{b}-np2-4096-time.png" for b in BENCHMARKS)
    assert not [n for n in names if re.search(r"-np\d+-time", n)]  # no figure per count


def test_the_report_of_loaded_runs_draws_the_same_figures(stored):
    """report.render (runs loaded whole) groups the counts as render_stored (a benchmark at a time) does."""
    from mpimark.presentation import report
    from mpimark.storage.selection import load
    from mpimark.storage.store import Store

    with Store(Path(stored["env"]["MPIMARK_DB"]), for_reading=True) as store:
        html = report.render(load(store, ("1",)))
    assert html.count("<img ") == len(BENCHMARKS)
    assert all(f"{benchmark} at {len(COUNTS)} process counts" in html for benchmark in BENCHMARKS)
