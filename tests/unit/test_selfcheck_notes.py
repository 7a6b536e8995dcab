"""presentation/selfcheck_notes.py: a series' self-check warnings as short lines with the runs that gave them."""

from __future__ import annotations

from mpimark.presentation.selfcheck_notes import Alerts, series_warnings, short
from mpimark.storage.selection import LoadedRun, Series

OVERSUBSCRIBED = ("oversubscribed: 4 ranks on the machine of rank 0, which has 2 cores; ranks wait for a core and the "
                  "times include that")
LOADED = ("loaded machine: 3.2 tasks runnable beyond the 2 ranks on average (40 samples) during the 0.50 s noise probe "
          "on the machine of rank 0, which has 2 cores (0 left free by the ranks); CPU steal unknown; other work "
          "competes for the ranks' cores and the times include that")
RESOLUTION = ("Barrier on 2 processes: 1 row(s) from 0 to 0 bytes were timed in clock intervals under 100 times the "
              "timer's resolution of 1 ns (the shortest 0.050 us), so the resolution is more than 1 % of what was "
              "measured")


class _Row:
    def __init__(self, run_id: int) -> None:
        self.id = run_id


def _warning(kind: str, message: str, **fields) -> dict:
    return {"type": "event", "level": "warning", "kind": kind, "message": message, **fields}


def _series(*runs: tuple[int, list[dict]]) -> Series:
    return Series("mpich", tuple(LoadedRun(_Row(run_id), records) for run_id, records in runs))


def test_the_core_s_findings_read_short():
    assert short(OVERSUBSCRIBED) == "oversubscribed: 4 ranks on 2 cores"
    assert short(LOADED) == "loaded machine: 3.2 tasks runnable beyond the 2 ranks"
    assert short(RESOLUTION) == "Barrier on 2 processes, up to 0 bytes: timed near the timer's resolution"
    assert short("something new; with details") == "something new"


def test_a_line_per_warning_with_the_runs_that_gave_it():
    series = _series((7, [_warning("oversubscribed", OVERSUBSCRIBED)]),
                     (8, [{"type": "event", "level": "info", "kind": "benchmark_start", "message": "x"}]),
                     (9, [_warning("oversubscribed", OVERSUBSCRIBED), _warning("loaded", LOADED)]))
    assert series_warnings(series) == ["runs 7, 9: oversubscribed: 4 ranks on 2 cores",
                                       "run 9: loaded machine: 3.2 tasks runnable beyond the 2 ranks"]
    alerts = Alerts([series])
    assert alerts.lines(series, [1]) == []  # run 8 alone, as a row's launches name it
    assert alerts.lines(series, [0]) == ["run 7: oversubscribed: 4 ranks on 2 cores"]


def test_a_warning_about_one_benchmark_stays_with_it():
    series = _series((3, [_warning("timer_resolution", RESOLUTION, benchmark="Barrier")]))
    alerts = Alerts([series])
    assert alerts.lines(series, benchmark="Allreduce") == []
    assert alerts.lines(series, benchmark="Barrier") == [
        "run 3: Barrier on 2 processes, up to 0 bytes: timed near the timer's resolution"]


def test_warnings_that_differ_only_in_their_numbers_are_one_line_with_ranges():
    def noise(rank: int, lost: float) -> dict:
        return _warning("noise", f"high OS noise: rank {rank} lost {lost} % of a fixed work quantum's time to 4 "
                                 "interruptions; the longest interruption was 900 us (rank 0)")
    series = _series((1, [noise(1, 11.7)]), (3, [noise(0, 2.9)]), (5, [noise(1, 5.1)]),
                     (6, [_warning("oversubscribed", OVERSUBSCRIBED)]))
    assert series_warnings(series) == ["runs 1, 3, 5: high OS noise: a rank lost 2.9-11.7 % of its time",
                                       "run 6: oversubscribed: 4 ranks on 2 cores"]
