"""What number a result record stands for: its key, its time, its bandwidth.

compare, plots and the report must agree on which figure of a record they
show, so the choice is made here, once:

- time: the median of the samples with its 95 % interval where mpimark
  measured the row (`distribution`); otherwise (imported runs) IMB's own
  figure: `t` (= t_max) for the PingPong family, `t_avg` for the rest.
- bandwidth: IMB's MB/s (10^6 bytes/s) rescaled to that time. IMB computes
  MB/s = factor * bytes / t_max with a per-benchmark factor, so
  mbytes_per_sec * t_max / time applies the same factor to another time
  without a second copy of the factor table (it lives in the core).
"""

from __future__ import annotations

import re
from typing import NamedTuple

from mpimark.records import osu_columns
from mpimark.records.benchmarks import benchmark_class, BenchmarkClass, default_datatype
from mpimark.records.results import communicator, TableKey


class Key(NamedTuple):
    """What a result row is about, size included: rows of two runs with equal keys are compared."""

    benchmark: str
    processes: int
    mode: str
    group: int | None
    bytes: int


def mode(record: dict) -> str:
    """The run mode as one word: "" (plain), "multi0", "multi1", plus a mode an importer recorded.

    Importers put IMB-EXT/IO's AGGREGATE mode in the record (field `mode`),
    and mpiBench rows, the core's and imported, their communicator
    (results.communicator): rows that differ only in those are different
    measurements and must not be matched. So
    are rows measured while other ranks of the job waited (`waiting`, which
    selection.py adds from the run record: PingPong in a 4-rank job runs on
    2 ranks, IMB's "2 additional processes waiting in MPI_Barrier"); on an
    oversubscribed machine busy-polling waiters change the result.
    """
    multi = [] if record.get("multi") is None else [f"multi{record['multi']}"]
    return " ".join(multi + _extra_modes(record))


def _extra_modes(record: dict) -> list[str]:
    modes = [str(mode) for mode in (record.get("mode"), communicator(record)) if mode] + _how_it_ran(record)
    if record.get("waiting"):
        modes.append(f"{record['waiting']} waiting")
    return modes


# How an imported OSU row ran, as the importer recorded it (records/osu_columns.py): on which device
# (OSU's -d), how a one-sided test made its window and synchronised (a put with MPI_Win_lock/unlock is
# another measurement than one with MPI_Win_flush).
_RUN_FIELDS = ("accelerator", "window_creation", "synchronization")


def _how_it_ran(record: dict) -> list[str]:
    """The datatype where it is not what the benchmark moves by default (OSU's -T all prints MPI_CHAR,
    MPI_INT and MPI_FLOAT rows of one size: three measurements), the _RUN_FIELDS, and an OSU row's window
    where it is not OSU's default (-W 16, osu_mbw_mr -V's columns: other measurements)."""
    default = default_datatype(record["benchmark"], record.get("suite"))
    modes = [] if default is None or record.get("datatype") in (None, default) else [str(record["datatype"])]
    for field in _RUN_FIELDS:
        if record.get(field):
            modes.append(str(record[field]))
    window = record.get("window_size")
    if record.get("suite") == osu_columns.SUITE and window is not None and window != osu_columns.DEFAULT_WINDOW:
        modes.append(f"window {window}")
    return modes


def key(record: dict) -> Key:
    return Key(record["benchmark"], record["processes"], mode(record), record.get("group"), record["bytes"])


def table_key(record: dict) -> tuple[TableKey, str]:
    """The table (plot) a row belongs to: results.TableKey, plus the mode beyond multi."""
    return (TableKey(record["benchmark"], record.get("multi"), record["processes"], record.get("group")),
            " ".join(_extra_modes(record)))


def title(table: tuple[TableKey, str]) -> str:
    key_, extra = table
    return key_.title() + (f" ({extra})" if extra else "")


def record_class(record: dict) -> BenchmarkClass:
    """The benchmark's class: what an importer recorded (`benchmark_class`, e.g.
    "single transfer" for osu_latency), else the core's facts for the record's
    suite; UnknownBenchmark for a name the core does not have."""
    recorded = _CLASSES.get(record.get("benchmark_class"))
    return recorded if recorded is not None else benchmark_class(record["benchmark"], record.get("suite"))


_CLASSES = {c.value: c for c in BenchmarkClass}  # made once: record_class runs per row, 10^6 times in a report


def is_collective(record: dict) -> bool:
    return record_class(record) in (BenchmarkClass.COLLECTIVE, BenchmarkClass.SYNC)


def imb_time_usec(record: dict) -> float | None:
    """IMB's headline time: t (t_max) for single transfers, t_avg otherwise; None if unknown."""
    order = ("t_max_usec", "t_avg_usec") if record_class(record) is BenchmarkClass.SINGLE \
        else ("t_avg_usec", "t_max_usec")
    return next((record[f] for f in order if record.get(f) is not None), None)


def t_avg_usec(record: dict) -> float | None:
    """t_avg over the processes; for a row of two processes with a single t (IMB's PingPong family prints
    t[usec] alone, stored as t_max), that t: both ranks time the same round trips, so their times agree to
    well under the two decimals IMB prints (the core's own PingPong rows: t_min and t_max 0.01 % apart)."""
    if record.get("t_avg_usec") is not None:
        return record["t_avg_usec"]
    single = record.get("t_min_usec") is None and record.get("processes") == 2
    return record.get("t_max_usec") if single else None


def time_usec(record: dict) -> float | None:
    """The median where mpimark measured the row, else IMB's figure; None for skipped rows."""
    if record.get("status", "ok") != "ok":
        return None
    median = (record.get("distribution") or {}).get("median_usec")
    return median if median is not None else imb_time_usec(record)


def time_ci_usec(record: dict) -> tuple[float, float] | None:
    """The 95 % interval of the median, or None (no distribution, or too few samples)."""
    distribution = record.get("distribution") or {}
    low, high = distribution.get("ci_low_usec"), distribution.get("ci_high_usec")
    return None if low is None or high is None else (low, high)


def bandwidth_mbs(record: dict, time: float | None = None) -> float | None:
    """MB/s (10^6 bytes/s) at `time` (default: time_usec), or None where IMB reports none.

    The reported MB/s comes from t_max (IMB), or from t_avg where a row has no t_max (the core's OSU
    bandwidth rows: the mean window time, MB/s = bytes x window / t_avg)."""
    reported = record.get("mbytes_per_sec")
    basis = record.get("t_max_usec") if record.get("t_max_usec") is not None else record.get("t_avg_usec")
    if reported is None or record.get("status", "ok") != "ok":
        return None
    time = time_usec(record) if time is None else time
    if not basis or not time:  # no time to rescale (imported OSU bandwidth tests report MB/s alone)
        return reported
    return reported * basis / time


def safe_name(text: str) -> str:
    """A file-name part from a benchmark name, which imported files may spell any way."""
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text).strip("._") or "benchmark"
