"""IMB's plain data rows straight to the results table's columns: what makes `mpimark import` of a large log fast.

A table's rows differ only in their numbers: once imb.py has made the record
of a table's first row the one careful way (imb._row) and the store's
compact.split has split it, every further row of that table that is plain
numbers gives the same split with only its numbers in other columns. So a
row is split into words, its numbers read straight into a copy of the first
row's columns, and neither a record nor its split is made: reading and
splitting benchmarks/big_imb_log.py's rows took 2.0 µs a row, 16.6 the
careful way (benchmarks/README.md, "Imports"). Rows IMB could not measure
("<#bytes> time-out.; ...") are read alike (failure_reader).

Anything else gets None, and imb.py reads the row the careful way (which
refuses it with its line, or marks it as IMB's "time-out" and the like): a
word that is not a number, a number the careful way would refuse (negative,
not finite, beyond the database's integers) or whose column would not give
it back exactly (-0.0: compact.py keeps it beside the columns), a row of
another number of words. A table whose columns compact.py keeps beside the
typed ones (the overlap tables' t_ovrl, t_pure, ...) differs from row to row
there, and is read the careful way throughout.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from mpimark.storage import compact
from mpimark.storage.store import MAX_INTEGER

Split = tuple[list, str, str]  # compact.split's (column values, rest, shape)


def row_reader(columns: Sequence[str], fields: dict[str, tuple[str, bool]], first: Split, first_line: str,
               *, p2p: bool, mega: float, element_bytes: int) -> Callable[[str], Split | None] | None:
    """The reader of a table's further rows, given its column header, imb.COLUMNS (fields), the split of its first
    row and that row's text; None where the table is not read so (see the module's text).

    The reader is checked on the first row: it must give exactly `first`, else None."""
    integers, reals, scaled, defects = [], [], [], []  # (word, column place) of each kind; then the places
    for index, column in enumerate(columns):
        field, integer = fields[column]
        if p2p and field == "t_max_usec":  # imb._row: IMB-P2P's t[usec] is an average
            field = "t_avg_usec"
        place = compact.FIELD_COLUMNS.get(field)
        if place is None:  # kept beside the typed columns: differs per row
            return None
        (integers if integer else reals).append((index, place))
        if field == "mbytes_per_sec":  # times the table's factor (IMB before 4: 2^20 bytes a MB)
            scaled.append(place)
        elif field == "defects":  # read as a number, kept as a whole one
            defects.append(place)
    count_place = compact.FIELD_COLUMNS["count"] if "#bytes" in columns else None
    bytes_place = compact.FIELD_COLUMNS["bytes"]
    template, rest, shape = first
    width = len(columns)

    def read(line: str) -> Split | None:
        words = line.split()
        if len(words) != width:
            return None
        values = template.copy()
        try:
            for index, place in integers:
                word = words[index]
                if not word.isdigit() or (value := int(word)) > MAX_INTEGER:
                    return None
                values[place] = value
            for index, place in reals:
                value = float(words[index])
                if not 0.0 < value < math.inf and (value != 0.0 or math.copysign(1.0, value) < 0):
                    return None  # negative, not finite, NaN, or -0.0
                values[place] = value
        except ValueError:
            return None
        for place in scaled:
            values[place] *= mega
        for place in defects:
            if (value := int(values[place])) > MAX_INTEGER:
                return None
            values[place] = value
        if count_place is not None:
            values[count_place] = values[bytes_place] // element_bytes
        return values, rest, shape

    return _checked(read, first, first_line)


FAILURE_KEYS = ("Group", "#bytes")  # the only numbers of a row IMB could not measure (imb._row)


def failure_reader(columns: Sequence[str], fields: dict[str, tuple[str, bool]], first: Split, first_line: str,
                   *, element_bytes: int, **_: object) -> Callable[[str], Split | None] | None:
    """The reader of a table's further rows that IMB could not measure as its first ("<#bytes> time-out.; ..."),
    as row_reader's: a row whose text after its leading numbers (Group, #bytes) is the first's has the same
    status and needed_gb (imb._failure and NEEDED read them from that text: the numbers hold no letters)."""
    places = [compact.FIELD_COLUMNS[fields[column][0]] for column in columns if column in FAILURE_KEYS]
    keys = len(places)
    parts = first_line.split(None, keys)
    if len(parts) <= keys:
        return None
    tail = parts[keys].rstrip()
    count_place, bytes_place = compact.FIELD_COLUMNS["count"], compact.FIELD_COLUMNS["bytes"]
    template, rest, shape = first

    def read(line: str) -> Split | None:
        parts = line.split(None, keys)
        if len(parts) <= keys or parts[keys].rstrip() != tail:
            return None
        values = template.copy()
        for place, word in zip(places, parts):
            if not word.isdigit() or (value := int(word)) > MAX_INTEGER:
                return None
            values[place] = value
        values[count_place] = values[bytes_place] // element_bytes
        return values, rest, shape

    return _checked(read, first, first_line)


def _checked(read: Callable[[str], Split | None], first: Split,
             first_line: str) -> Callable[[str], Split | None] | None:
    """read, if it gives exactly `first` of the first row, types too (1 == 1.0, but a column would give back
    another value); else None."""
    again = read(first_line)
    same = again is not None and again[1:] == first[1:] and [(type(v), v) for v in again[0]] == [
        (type(v), v) for v in first[0]]
    return read if same else None
