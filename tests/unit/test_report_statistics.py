"""The report's comparison: ratio, verdict and interval beside each other, labelled gaps, runs one click away.

A study built here with known samples: B twice as slow as A for Allreduce at 2 processes (significant),
as fast within noise at 4 processes (not significant), and B's 1 MiB row at 4 processes timed out.
"""

from __future__ import annotations

import re

import pytest

from mpimark.presentation import report
from mpimark.storage import studies
from mpimark.storage.selection import load
from mpimark.storage.store import Store

from .conftest import store_records
from .records import end_record, result_record, run_record, skipped_record

BASE = [10_000.0 + 100 * i for i in range(12)]  # ns: 10.0 .. 11.1 usec, median 10.55
NOISE = [10_050.0 + 100 * i for i in range((12))]  # interleaved with BASE: no difference shown


def _allreduce(processes: int, size: int, samples: list[float]) -> dict:
    return result_record(benchmark="Allreduce", processes=processes, bytes=size, count=size // 4,
                         samples_ns=samples, mbytes_per_sec=None, distribution={
                             **result_record()["distribution"], "median_usec": (sorted(samples)[5] + sorted(samples)[6]) / 2000,
                             "ci_low_usec": min(samples) / 1000, "ci_high_usec": max(samples) / 1000})


def _run(library: str, processes: int, records: list[dict]) -> list[dict]:
    run = run_record()
    run["mpi"] = {**run["mpi"], "library_version": library}
    run["processes"] = processes
    return [run, *records, end_record()]


@pytest.fixture(scope="module")
def html(tmp_path_factory):
    path = tmp_path_factory.mktemp("stats") / "results.db"
    with Store(path) as store:
        runs = {
            ("a", 2): _run("Open MPI v5.0.11", 2, [_allreduce(2, 1024, BASE), _allreduce(2, 1 << 20, BASE)]),
            ("b", 2): _run("MPICH Version: 4.1", 2, [_allreduce(2, 1024, [2 * s for s in BASE]),
                                                      _allreduce(2, 1 << 20, BASE)]),
            ("a", 4): _run("Open MPI v5.0.11", 4, [_allreduce(4, 1024, BASE), _allreduce(4, 1 << 20, BASE)]),
            ("b", 4): _run("MPICH Version: 4.1", 4, [_allreduce(4, 1024, NOISE), skipped_record(
                benchmark="Allreduce", processes=4, bytes=1 << 20, count=1 << 18)]),
        }
        for (impl, processes), records in runs.items():
            run_id = store_records(store, records, status="complete", requested_processes=processes,
                                   mpi_name="openmpi" if impl == "a" else "mpich")
            studies.add_run(store, "s", run_id, impl)
        series = load(store, ["s"])
    return report.render(series, size=1024)


def _row(html: str, caption: str, first_cell: str) -> list[str]:
    table = html[html.index(f"<caption>{caption}</caption>"):]
    table = table[:table.index("</table>")]
    row = next(r for r in table.split("<tr>") if f'<th scope="row">{first_cell}</th>' in r)
    return [re.sub(r"<[^>]+>", "", cell).strip() for cell in re.split(r"</t[dh]>", row)][:-1]


def test_significant_and_not_significant_differences_read_differently(html):
    assert "Allreduce: time [usec] at 1024 bytes" in html
    two = _row(html, "Allreduce: time [usec] at 1024 bytes", "2")
    four = _row(html, "Allreduce: time [usec] at 1024 bytes", "4")
    # processes | a (median [95 % CI]) | b | b/a with verdict and the corrected p
    assert two[1] == "10.55 [10.00, 11.10]" and two[2] == "21.10 [20.00, 22.20]"
    assert two[3].startswith("2× slower (p ")
    assert four[3].startswith("1× ~ (p ")
    assert "Benjamini-Hochberg" in html and "~ when it is not" in html


def test_a_timed_out_cell_is_labelled(html):
    four = _row(html, "Allreduce, 4 processes", "1048576")
    assert four[1:] == ["1.06E-05", "timed out"]
    assert "not measured" not in four


def test_runs_are_one_table_with_details_one_click_away(html):
    assert "<caption>Runs</caption>" in html
    assert html.count("<details>") == 4 and "<summary>a: run 1 details</summary>" in html
    assert "band: the 95 % confidence interval of the median" in html


def test_aramco_and_riken_sections(html):
    assert "Implementations compared (the Aramco study&#39;s tables)" in html or \
        "Implementations compared (the Aramco study's tables)" in html
    assert "<caption>Measurement conditions</caption>" in html
    ranking = _row(html, "Ranking per benchmark and size range (geometric mean of median times over the sizes all "
                         "implementations measured, relative to the fastest; significance: Mann-Whitney, corrected)",
                   "Allreduce")
    # 2 processes, 1 KiB and below: a (10.55) before b (21.10), significantly at the one size
    assert ranking[1:] == ["2", "0 B - 1 KiB", "1", "a &lt; b (2.00×)", "a faster than b at 1 of 1 sizes"] or \
        ranking[1:] == ["2", "0 B - 1 KiB", "1", "a < b (2.00×)", "a faster than b at 1 of 1 sizes"]
