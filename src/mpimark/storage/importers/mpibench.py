"""LLNL mpiBench output as result records (reference/peers.md §2, seeds/003).

Version 1.5 brackets its rows with `START mpiBench v1.5` / `END mpiBench`,
lists `rank : host` first, and prints one row per collective and size:

    Alltoall  Bytes: 8  Iters: 100  Avg: 1.0094  Min: 1.0067  Max: 1.0121  Comm: CartDim-1of2  Ranks: 2

(tab-separated; older versions end at Max:). Times are microseconds per
call with the barrier of mpiBench's loop included: its own definition, so
the rows keep suite "mpibench". Avg/Min/Max are over all world ranks, which
all take part at once (every group of a sub-communicator level runs), so a
row's processes is the world's size and, as the core's own mpiBench rows
(docs/mpibench.md), `comm` holds the communicator label and `comm_ranks` the
Ranks: column (rank 0's communicator size). `#` lines are comments (the
core's mpiBench prints one first; crunch_mpiBench skips them too).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from mpimark.storage.importers.common import (benchmark_name, datatype_for, fail, number, Parsed, plausible_name,
                                              result_record)

START = re.compile(r"^START mpiBench\s*(\S*)")
HOST = re.compile(r"^(\d+)\s*:\s*(\S+)$")
BUFFERS = re.compile(r"^Message buffers \(KB\):")
ROW = re.compile(r"^\S+\s+Bytes:")
# A row of MPI_COMM_WORLD says the world's size, where no rank list does.
WORLD_RANKS = re.compile(r"Comm:\s*MPI_COMM_WORLD\s+Ranks:\s*(\d+)")
REQUIRED = ("Bytes", "Iters", "Avg", "Min", "Max")


def _fields(path: Path, line: int, words: list[str]) -> dict[str, str]:
    """The `Label: value` pairs after the operation name."""
    fields: dict[str, str] = {}
    index = 0
    while index < len(words):
        label = words[index]
        if not label.endswith(":"):
            raise fail(path, line, f"expected a 'Label:' field, found {label!r}")
        if index + 1 >= len(words):
            raise fail(path, line, f"truncated row: {label} has no value")
        fields[label[:-1]] = words[index + 1]
        index += 2
    missing = [name for name in REQUIRED if name not in fields]
    if missing:
        raise fail(path, line, f"truncated row: no {', '.join(m + ':' for m in missing)} field")
    return fields


def parse(path: Path, lines: Callable[[], Iterable[str]], processes: int | None = None) -> Parsed:
    """Read and check the whole file, keeping only counts; the Parsed reads the rows again when stored.

    lines() gives the file's lines from the start on every call. The rank list comes first in the file
    but a row without Ranks: needs its length, so the file is read once for the rank list and the tool,
    once to check the rows (importers/imb.py reads twice), and once more when stored."""
    hosts: dict[int, str] = {}
    source: dict[str, str] = {}
    starts = 0
    world_ranks = 0
    for raw in lines():
        text = raw.strip()
        if match := START.match(text):
            source["tool"] = f"mpiBench {match.group(1)}".strip()
            starts += 1
        elif match := HOST.match(text):
            hosts[int(match.group(1))] = match.group(2)
        elif match := WORLD_RANKS.search(text):
            world_ranks = max(world_ranks, int(match.group(1)))
    world = len(hosts) or processes or world_ranks or None
    count = max_processes = 0
    for record in _rows(path, lines(), world):
        count += 1
        max_processes = max(max_processes, record["processes"])
    if not count:
        raise fail(path, None, "no mpiBench rows in the file (no '<Op> Bytes: ...' line)")
    if hosts:
        source["hosts"] = ", ".join(dict.fromkeys(hosts[r] for r in sorted(hosts)))
    warnings = []
    if starts > 1:  # cat run1.txt run2.txt > all.txt
        warnings.append(f"the file looks like {starts} runs one after another ({starts} 'START mpiBench' lines), "
                        "stored as one run; split the file to keep them apart")
    return Parsed(path, "mpibench", lambda: _rows(path, lines(), world), count, max_processes, source,
                  notes=warnings, warnings=warnings)


def _rows(path: Path, lines: Iterable[str], world: int | None) -> Iterator[dict]:
    """The result records of the file's lines, one at a time; ImportFormatError on a bad line."""
    for line_number, raw in enumerate(lines, start=1):
        text = raw.strip()
        if (not text or text.startswith("#") or text == "END mpiBench" or BUFFERS.match(text) or START.match(text)
                or HOST.match(text)):
            continue
        if ROW.match(text):
            words = text.split()
            yield _record(path, line_number, words[0], _fields(path, line_number, words[1:]), world)
        else:
            raise fail(path, line_number, "not an mpiBench line (expected 'START mpiBench', 'rank : host', "
                                          "'<Op> Bytes: ... Iters: ... Avg: ... Min: ... Max: ...' or 'END mpiBench')")


def _record(path: Path, line: int, op: str, fields: dict[str, str], world: int | None) -> dict:
    ranks = number(fields["Ranks"], path, line, "Ranks", integer=True) if "Ranks" in fields else None
    if ranks is None and not world:
        raise fail(path, line, "the row has no Ranks: field and the file no rank list; give the count with --np N")
    if ranks is not None and ranks < 1:
        raise fail(path, line, "Ranks: must be at least 1")
    if ranks is not None and world and ranks > world:
        raise fail(path, line, f"Ranks: {ranks} is more than the {world} ranks of the run")
    # A label becomes part of table titles and plot names: checked as names are (common.plausible_name).
    communicator = fields.get("Comm") and plausible_name(path, line, "communicator label", fields["Comm"])
    # As the core's rows: comm and comm_ranks where the line names its communicator (results.communicator).
    extra = {"comm": communicator, **({"comm_ranks": ranks} if ranks else {})} if communicator else None
    return result_record(
        benchmark=op, suite="mpibench", processes=world or ranks,
        size=number(fields["Bytes"], path, line, "Bytes", integer=True),
        # mpiBench reduces vectors of doubles (MPI_SUM); the rest move bytes.
        datatype=datatype_for(benchmark_name(path, line, op, "mpibench"), "MPI_BYTE", "MPI_DOUBLE"),
        repetitions=number(fields["Iters"], path, line, "Iters", integer=True),
        t_avg_usec=number(fields["Avg"], path, line, "Avg"), t_min_usec=number(fields["Min"], path, line, "Min"),
        t_max_usec=number(fields["Max"], path, line, "Max"),
        extra=extra,
    )
