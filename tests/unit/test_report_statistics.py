"""The report's comparison: ratio, interval and verdict over launches beside each other, labelled gaps, the
self-checks' warnings beside the verdicts drawn from the runs that gave them, runs one click away.

A study built here with known launches, five a side, each launch's samples scaled by its launch level: B
twice as slow as A for Allreduce at 2 processes, 1 % slower, within the launches' noise, at 4 processes (two of
B's 4-process launches oversubscribed), and B's 1 MiB row at 4 processes timed out.
"""

from __future__ import annotations

import html as markup
import re

import pytest

from mpimark.presentation import report
from mpimark.storage import studies
from mpimark.storage.selection import load
from mpimark.storage.store import Store

from .conftest import store_records
from .records import end_record, result_record, run_record, skipped_record

BASE = [10_000.0 + 100 * i for i in range(12)]  # ns: 10.0 .. 11.1 usec, median 10.55
LEVELS = [1.00, 1.02, 0.99, 1.01, 0.98]  # each launch's level: launches vary by a few per cent
OTHER = [0.99, 1.00, 1.02, 0.98, 1.01]  # the same levels in another order: no difference between the sides
OVERSUBSCRIBED = {"type": "event", "level": "warning", "kind": "oversubscribed",
                  "message": "oversubscribed: 4 ranks on the machine of rank 0, which has 2 cores; ranks wait for "
                             "a core and the times include that", "bytes": -1}


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


def _scaled(factor: float) -> list[float]:
    return [factor * s for s in BASE]


def _launches(launch: int) -> dict[tuple[str, int], list[dict]]:
    """One round of the study: each implementation at each process count launched once."""
    a, b = LEVELS[launch], OTHER[launch]
    warned = [OVERSUBSCRIBED] if launch in (0, 2) else []
    return {
        ("a", 2): _run("Open MPI v5.0.11", 2, [_allreduce(2, 1024, _scaled(a)), _allreduce(2, 1 << 20, _scaled(a))]),
        ("b", 2): _run("MPICH Version: 4.1", 2, [_allreduce(2, 1024, _scaled(2 * b)),
                                                  _allreduce(2, 1 << 20, _scaled(b))]),
        ("a", 4): _run("Open MPI v5.0.11", 4, [_allreduce(4, 1024, _scaled(a)), _allreduce(4, 1 << 20, _scaled(a))]),
        ("b", 4): _run("MPICH Version: 4.1", 4, [*warned, _allreduce(4, 1024, _scaled(1.01 * b)), skipped_record(
            benchmark="Allreduce", processes=4, bytes=1 << 20, count=1 << 18)]),
    }


@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    """The study's store, the ids of B's oversubscribed runs."""
    path = tmp_path_factory.mktemp("stats") / "results.db"
    warned = []
    with Store(path) as store:
        for launch in range(len(LEVELS)):
            for (impl, processes), records in _launches(launch).items():
                run_id = store_records(store, records, status="complete", requested_processes=processes,
                                       mpi_name="openmpi" if impl == "a" else "mpich")
                studies.add_run(store, "s", run_id, impl)
                if any(r.get("kind") == "oversubscribed" for r in records):
                    warned.append(run_id)
    return path, warned


@pytest.fixture(scope="module")
def html(stored):
    with Store(stored[0]) as store:
        series = load(store, ["s"])
    return report.render(series, size=1024)


def _row(html: str, caption: str, first_cell: str) -> list[str]:
    table = html[html.index(f"<caption>{caption}</caption>"):]
    table = table[:table.index("</table>")]
    row = next(r for r in table.split("<tr>") if f'<th scope="row">{first_cell}</th>' in r)
    return [re.sub(r"<[^>]+>", "", cell).strip() for cell in re.split(r"</t[dh]>", row)][:-1]


def _notes(html: str, caption: str) -> list[str]:
    """The self-check notes under a table."""
    after = html[html.index(f"<caption>{caption}</caption>"):]
    after = after[after.index("</table>"):]
    if not after[len("</table>"):].lstrip().startswith('<ul class="note selfcheck">'):
        return []
    block = after[:after.index("</ul>")]
    return [markup.unescape(re.sub(r"<[^>]+>", "", item)).strip() for item in block.split("<li>")[1:]]


def test_differences_decided_over_launches_and_within_their_noise_read_differently(html):
    assert "Allreduce: time [usec] at 1024 bytes" in html
    two = _row(html, "Allreduce: time [usec] at 1024 bytes", "2")
    four = _row(html, "Allreduce: time [usec] at 1024 bytes", "4")
    # processes | a (median of the launches [their range]) | b | b/a [interval over launches] verdict (p)
    assert two[1] == "10.55 [10.34, 10.76]" and two[2] == "21.10 [20.68, 21.52]"
    # 5 launches a side, separated: p 2/252 = 0.0079, times 3 rows tested over 1 under Benjamini-Hochberg
    assert re.fullmatch(r"2× \[1\.9\d*, 2\.0\d*\] slower \(p 0\.024\)", two[3]), two[3]
    assert re.fullmatch(r"1\.01× \[0\.9\d*, 1\.0\d*\] ~ \(p [\d.]+\) \u26a0", four[3]), four[3]
    assert "Benjamini-Hochberg" in html and "~ when it is not" in html and "launch by launch" in html


def test_a_self_check_warning_stands_beside_the_verdict_drawn_from_its_runs(html, stored):
    first, second = stored[1]
    notes = _notes(html, "Allreduce: time [usec] at 1024 bytes")
    assert notes == [f"\u26a0 self-check: 4 processes: b's runs {first}, {second}: oversubscribed: 4 ranks on 2 cores"]
    assert "\u26a0" not in _row(html, "Allreduce: time [usec] at 1024 bytes", "2")[3]  # other runs: no mark
    assert "<details>" not in html[html.index('<ul class="note selfcheck">') - 200:
                                   html.index('<ul class="note selfcheck">')]


def test_a_timed_out_cell_is_labelled(html):
    four = _row(html, "Allreduce, 4 processes", "1048576")
    assert four[1:] == ["1.06E-05", "timed out"]
    assert "not measured" not in four


def test_runs_are_one_table_with_details_one_click_away(html):
    assert "<caption>Runs</caption>" in html
    assert html.count("<details>") == 20 and "<summary>a: run 1 details</summary>" in html
    assert "band: the 95 % confidence interval of the median" in html


RANKING = ("Ranking per benchmark and size range, decided over launches: each implementation against the one before "
           "it by the geometric mean of the time ratio over the sizes all implementations measured, with its 95 % "
           "interval over launches; &lt; where the interval lies above 1, ~ where it holds 1 (undecided) or where "
           "one launch a side gives none")


def test_aramco_and_riken_sections(html, stored):
    assert "Implementations compared (the Aramco study&#39;s tables)" in html or \
        "Implementations compared (the Aramco study's tables)" in html
    assert "<caption>Measurement conditions</caption>" in html
    table = html[html.index(f"<caption>{RANKING}</caption>"):]
    table = table[:table.index("</table>")]
    rows = [[re.sub(r"<[^>]+>", "", cell).strip() for cell in re.split(r"</t[dh]>", row)][:-1]
            for row in table.split("<tr>")[2:]]
    by_place = {(r[1], r[2]): r for r in rows}
    # 2 processes, 1 KiB and below: b twice as slow in every launch, decided
    two = by_place["2", "0 B - 1 KiB"]
    assert two[3:5] == ["1", "a &lt; b"] and two[6] == "a 5; b 5"
    assert re.fullmatch(r"b/a 2\.00× \[1\.9\d, 2\.0\d\]", two[5]), two[5]
    # 1 MiB at 2 processes: the same launch levels a side, ratio 1: no number of launches would tell
    assert by_place["2", "over 64 KiB"][4].startswith("a ~ b (undecided: the difference is too small")
    # 4 processes: within the noise, and drawn from oversubscribed runs: marked, the warning under the table
    four = by_place["4", "0 B - 1 KiB"]
    assert re.fullmatch(r"\w ~ \w \(undecided: \d+ launches a side would tell\) \u26a0", four[4]), four[4]
    first, second = stored[1]
    assert _notes(html, RANKING) == [f"\u26a0 self-check: Allreduce 4 processes: b's runs {first}, {second}: "
                                     "oversubscribed: 4 ranks on 2 cores"]
