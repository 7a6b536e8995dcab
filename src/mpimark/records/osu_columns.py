"""OSU Micro-Benchmarks' table columns: the header OSU 7.4 prints, the record field each is stored in.

The importer (storage/importers/osu.py) reads a column by its header and
stores it under its field; the text writer (presentation/osu_text.py)
prints the fields a test's rows have, in OSU's order, under the same
headers. Two programs may spell one field's header differently (osu_latency's
"Avg Latency(us)", osu_put_latency's "Latency (us)"): the benchmark's facts
(`columns`, records/peers/osu.json) say which spelling it prints.

The time a row stands for (figures.time_usec) is t_avg_usec: OSU's headline
column, the average latency, and for the non-blocking collectives (osu_i*)
"Overall(us)", the time of a call with computation overlapped, which OSU
prints first. Every other column keeps its own field, with its unit in
the name as IMB's overlap columns (t_pure_usec, overlap_percent): Pure
Comm. is not the time of a non-blocking row, it is the pure_comm_usec next
to it. The tail-latency columns (-z) keep the names the importer has
always given them (p50_tail_lat_us, p99_tail_bw_mb_s).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

SUITE = "osu"  # the core's suite of OSU's programs, and the suite of every OSU row (the core's or imported)
FIELD_WIDTH = 18  # OSU's configure sets FIELD_WIDTH to 18 (the header's fallback, 20, is not what ships)


@dataclass(frozen=True)
class Column:
    header: str  # as OSU prints it
    field: str  # the record field
    kind: str = "float"  # float ("%.2f"), int, text
    width: int = FIELD_WIDTH


# Every column OSU 7.4 prints after the size, in the order it prints them
# (print_only_header, print_only_header_nbc, print_header_one_sided in
# c/util/osu_util_mpi.c); the tail-latency columns come before Transmit Size.
COLUMNS = (
    Column("Avg Latency(us)", "t_avg_usec"), Column("Latency (us)", "t_avg_usec"),
    Column("Overall(us)", "t_avg_usec"), Column("Bandwidth (MB/s)", "mbytes_per_sec"),
    Column("MB/s", "mbytes_per_sec"), Column("Messages/s", "msgs_per_sec"),
    Column("Compute(us)", "compute_usec"), Column("Coll. Init(us)", "coll_init_usec"),
    Column("MPI_Test(us)", "mpi_test_usec"), Column("MPI_Wait(us)", "mpi_wait_usec"),
    Column("Pure Comm.(us)", "pure_comm_usec"), Column("Min Comm.(us)", "min_comm_usec"),
    Column("Max Comm.(us)", "max_comm_usec"), Column("Overlap(%)", "overlap_percent"),
    Column("Min Latency(us)", "t_min_usec"), Column("Max Latency(us)", "t_max_usec"),
    Column("Iterations", "repetitions", "int", 12), Column("Validation", "validation", "text"),
)
# The lines of how a test ran, as OSU prints them (`# <label>: <value>`), and their record fields: the
# one-sided tests' window and synchronisation after the title (part of the row's identity, figures.mode:
# a put with lock and one with flush are different measurements), osu_latency_mt's threads and
# osu_latency_mp's processes before it.
SETTINGS = {"Window creation": "window_creation", "Synchronization": "synchronization",
            "Number of Sender threads": "sender_threads", "Number of Receiver threads": "receiver_threads",
            "Number of forked processes in sender": "sender_processes",
            "Number of forked processes in receiver": "receiver_processes"}
BEFORE_TITLE = ("sender_threads", "receiver_threads", "sender_processes", "receiver_processes")
# OSU's window of back-to-back messages unless -W says otherwise (WINDOW_SIZE_LARGE in osu_util.h).
DEFAULT_WINDOW = 64
# What OSU prints after a setting's value: osu_latency_mt's sender line ends in a space ("%d \n").
SETTING_ENDS = {"sender_threads": " "}
# Programs whose rows print their figures narrower than the header's FIELD_WIDTH: osu_latency_mp's own
# printf ("%-10d%10.2f") under print_preamble's 18-wide header; with -c (a Validation column) it prints 18.
NARROW_FIGURES = {"osu_latency_mp": 10}
TRANSMIT_SIZE = Column("Transmit Size", "transmit_size", "int")  # -D (derived datatypes): always last
# The Validation column's word for a size that passed: "Pass" (VALIDATION_STATUS in osu_util_mpi.h); the
# atomic one-sided tests (acc, cas, fop, get_acc latency) print their own "passed"/"failed".
VALIDATION_PASSED = ("Pass", "passed")
BY_HEADER = {c.header: c for c in (*COLUMNS, TRANSMIT_SIZE)}
# The size column: OSU's "Size", OMB-Py's "Size (B)".
SIZE_HEADERS = ("Size", "Size (B)")
# -z: "P50 Tail Lat(us)", "P99 Tail BW(MB/s)", any percentile.
TAIL = re.compile(r"^P(\d+) Tail (Lat\(us\)|BW\(MB/s\))$")
TAIL_FIELD = re.compile(r"^p(\d+)_tail_(lat_us|bw_mb_s)$")


def column(header: str) -> Column | None:
    """The column of a header as OSU prints it; None for a header OSU 7.4 does not print."""
    if match := TAIL.match(header):
        return Column(header, tail_field(int(match.group(1)), match.group(2).startswith("BW")))
    return BY_HEADER.get(header)


def split_header(text: str) -> list[str]:
    """The column names of a header line (without its `#`). OSU right-aligns each name in its field, so
    a long name may follow the previous one after a single space ("Bandwidth (MB/s) P50 Tail BW(MB/s)"):
    known names are taken as they are; an unknown one runs to the next two spaces."""
    names, rest = [], text.strip()
    while rest:
        tail = TAIL.match(rest[:rest.index(")") + 1]) if rest.startswith("P") and ")" in rest else None
        name = tail.group(0) if tail else next((k for k in _LONGEST_FIRST if rest.startswith(k)), None)
        if name is None:
            name = re.split(r"\s{2,}", rest, maxsplit=1)[0]
        names.append(name)
        rest = rest[len(name):].strip()
    return names


_LONGEST_FIRST = sorted((*BY_HEADER, *SIZE_HEADERS), key=len, reverse=True)  # "Size (B)" before "Size"


def tail_field(percentile: int, bandwidth: bool) -> str:
    return f"p{percentile}_tail_{'bw_mb_s' if bandwidth else 'lat_us'}"


def tail_column(field: str) -> Column | None:
    """The -z column a field holds, or None."""
    match = TAIL_FIELD.match(field)
    if not match:
        return None
    return Column(f"P{match.group(1)} Tail {'BW(MB/s)' if match.group(2) == 'bw_mb_s' else 'Lat(us)'}", field)
