"""LLNL mpiBench output as result records (reference/peers.md §2, seeds/003).

Version 1.5 brackets its rows with `START mpiBench v1.5` / `END mpiBench`,
lists `rank : host` first, and prints one row per collective and size:

    Alltoall  Bytes: 8  Iters: 100  Avg: 1.0094  Min: 1.0067  Max: 1.0121  Comm: CartDim-1of2  Ranks: 2

(tab-separated; older versions end at Max:). Times are microseconds per
call with the barrier of mpiBench's loop included: its own definition, so
the rows keep suite "mpibench". Avg/Min/Max are over all world ranks.
"""

from __future__ import annotations

import re
from pathlib import Path

from mpimark.storage.importers.common import datatype_for, fail, number, Parsed, result_record

START = re.compile(r"^START mpiBench\s*(\S*)")
HOST = re.compile(r"^(\d+)\s*:\s*(\S+)$")
BUFFERS = re.compile(r"^Message buffers \(KB\):")
ROW = re.compile(r"^\S+\s+Bytes:")
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


def parse(path: Path, lines: list[str], processes: int | None = None) -> Parsed:
    hosts: dict[int, str] = {}
    rows: list[tuple[int, str, dict[str, str]]] = []
    source: dict[str, str] = {}
    for line_number, raw in enumerate(lines, start=1):
        text = raw.strip()
        if not text or text == "END mpiBench" or BUFFERS.match(text):
            continue
        if match := START.match(text):
            source["tool"] = f"mpiBench {match.group(1)}".strip()
        elif match := HOST.match(text):
            hosts[int(match.group(1))] = match.group(2)
        elif ROW.match(text):
            words = text.split()
            rows.append((line_number, words[0], _fields(path, line_number, words[1:])))
        else:
            raise fail(path, line_number, "not an mpiBench line (expected 'START mpiBench', 'rank : host', "
                                          "'<Op> Bytes: ... Iters: ... Avg: ... Min: ... Max: ...' or 'END mpiBench')")
    if not rows:
        raise fail(path, None, "no mpiBench rows in the file (no '<Op> Bytes: ...' line)")
    world = len(hosts) or processes
    if hosts:
        source["hosts"] = ", ".join(dict.fromkeys(hosts[r] for r in sorted(hosts)))
    results = [_record(path, line, op, fields, world) for line, op, fields in rows]
    return Parsed.of(path, "mpibench", results, source)


def _record(path: Path, line: int, op: str, fields: dict[str, str], world: int | None) -> dict:
    if "Ranks" in fields:
        ranks = number(fields["Ranks"], path, line, "Ranks", integer=True)
    elif world:
        ranks = world
    else:
        raise fail(path, line, "the row has no Ranks: field and the file no rank list; give the count with --np N")
    if ranks < 1:
        raise fail(path, line, "Ranks: must be at least 1")
    communicator = fields.get("Comm")
    return result_record(
        benchmark=op, suite="mpibench", processes=ranks,
        size=number(fields["Bytes"], path, line, "Bytes", integer=True),
        # mpiBench reduces vectors of doubles (MPI_SUM); the rest move bytes.
        datatype=datatype_for(op, "MPI_BYTE", "MPI_DOUBLE"),
        repetitions=number(fields["Iters"], path, line, "Iters", integer=True),
        t_avg_usec=number(fields["Avg"], path, line, "Avg"), t_min_usec=number(fields["Min"], path, line, "Min"),
        t_max_usec=number(fields["Max"], path, line, "Max"),
        # Rows of sub-communicators are other measurements than MPI_COMM_WORLD's (figures.mode).
        extra={"communicator": communicator} if communicator and communicator != "MPI_COMM_WORLD" else None,
    )
