"""Text from outside (imported files, --impl/--mpi labels, library strings) made safe for a format.

Every CSV writer writes through csv_writer() and every Markdown writer puts
names, labels and descriptions through markdown(), so a hostile or odd name
cannot become a spreadsheet formula or HTML in a rendered Markdown file.
The HTML report escapes with jinja2's autoescape (report.py).
"""

from __future__ import annotations

import csv
from collections.abc import Iterable
from typing import IO

# What makes a spreadsheet read a cell as a formula (OWASP, "CSV Injection").
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def csv_cell(value: object) -> object:
    """value as a CSV cell: None empty, a text that a spreadsheet would run as a formula with a leading '.

    Numbers (and texts that are numbers, such as "-1.5" read back from a CSV) stay as they are.
    """
    if value is None:
        return ""
    if isinstance(value, str) and value.startswith(FORMULA_START) and not _is_number(value):
        return "'" + value
    return value


class _SafeWriter:
    def __init__(self, out: IO[str]) -> None:
        self._writer = csv.writer(out, lineterminator="\n")

    def writerow(self, row: Iterable[object]) -> None:
        self._writer.writerow([csv_cell(value) for value in row])

    def writerows(self, rows: Iterable[Iterable[object]]) -> None:
        for row in rows:
            self.writerow(row)


def csv_writer(out: IO[str]) -> _SafeWriter:
    """The one CSV writer of the package: csv.writer's rows, each cell through csv_cell."""
    return _SafeWriter(out)


_MARKDOWN = {"&": "&amp;", "<": "&lt;", ">": "&gt;", "|": "\\|"}


def markdown(text: object, *, cell: bool = True) -> str:
    """text for Markdown: & < > as HTML entities (as the HTML report does); in a table cell | escaped too.

    cell=False for a line outside a table (a paragraph, a list item), where | is just a character.
    """
    return "".join(c if c == "|" and not cell else _MARKDOWN.get(c, c) for c in str(text))
