"""Text from outside (imported files, --impl/--mpi labels, library strings) made safe for a format.

Every CSV writer writes through csv_writer() and every Markdown writer puts
names, labels and descriptions through markdown(), so a hostile or odd name
cannot become a spreadsheet formula, a split row, a heading, a link or HTML.
Text from the database or a file that reaches a terminal goes through
terminal() (rich cells through text()), so an escape sequence in a host name
or a message is shown, not obeyed. The HTML report escapes with jinja2's
autoescape (report.py), plots with plots._text.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable
from typing import IO

from rich.text import Text

# What makes a spreadsheet read a cell as a formula (OWASP, "CSV Injection").
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
# What a CSV cell has no use for: the C0 controls but tab, newline and CR (which the quotes keep in the cell),
# DEL and C1.
_CSV_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def csv_cell(value: object) -> object:
    """value as a CSV cell: None empty, a text that a spreadsheet would run as a formula with a leading ',
    the control characters a cell has no use for (ESC, BEL, C1: what acts on a terminal that shows the file)
    written out as terminal() does; tab, CR and newline stay, inside the quoted cell.

    Numbers (and texts that are numbers, such as "-1.5" read back from a CSV) stay as they are.
    """
    if value is None:
        return ""
    if isinstance(value, str):
        if not value.isprintable():  # the common case, a plain name, is one C call
            value = _CSV_CONTROL.sub(_visible, value)
        if value.startswith(FORMULA_START) and not _is_number(value):
            return "'" + value
    return value


class _SafeWriter:
    def __init__(self, out: IO[str]) -> None:
        # Every text quoted (numbers not): a CR or a newline inside a name stays inside its cell, whichever
        # reader splits rows at it; csv_cell's leading quote still keeps a spreadsheet from running it.
        self._writer = csv.writer(out, lineterminator="\n", quoting=csv.QUOTE_NONNUMERIC)

    def writerow(self, row: Iterable[object]) -> None:
        self._writer.writerow([csv_cell(value) for value in row])

    def writerows(self, rows: Iterable[Iterable[object]]) -> None:
        for row in rows:
            self.writerow(row)


def csv_writer(out: IO[str]) -> _SafeWriter:
    """The one CSV writer of the package: csv.writer's rows, each cell through csv_cell, every text quoted."""
    return _SafeWriter(out)


_MARKDOWN = {"&": "&amp;", "<": "&lt;", ">": "&gt;", "|": "\\|",
             # What starts emphasis, code or math wherever it stands.
             "*": "\\*", "`": "\\`", "$": "\\$", "\\": "\\\\"}
# Control characters (C0, DEL, C1) and the Unicode line and paragraph separators: a line break in a
# name would end a table row or start a heading, so each becomes a space.
_MARKDOWN_BREAKS = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
# What acts only where it stands, escaped there alone so that "t_min[usec]" and "Reduce_scatter" stay readable:
# a "]" before "(", "[" or ":" (a link, an image, a reference or its definition), a "#" first on the line (a
# heading), a "_" at a word's edge (emphasis).
_IN_PLACE = re.compile(r"\](?=[(\[:])|^\s*#|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])")


def _escaped_in_place(match: re.Match) -> str:
    found = match.group()
    return found[:-1] + "\\" + found[-1]


def markdown(text: object, *, cell: bool = True) -> str:
    """text for Markdown, one line: control characters as spaces, & < > as HTML entities (as the HTML report
    does), * ` $ \\ backslash-escaped, and ] # _ where they would make a link, a heading or emphasis; in a table
    cell | escaped too.

    cell=False for a line outside a table (a paragraph, a list item), where | is just a character.
    """
    escaped = "".join(c if c == "|" and not cell else _MARKDOWN.get(c, c)
                      for c in _MARKDOWN_BREAKS.sub(" ", str(text)))
    return _IN_PLACE.sub(_escaped_in_place, escaped)


# What a terminal obeys rather than shows: C0 controls (ESC starts CSI and OSC sequences, CR overwrites a
# line), DEL, C1 controls (0x9b is a one-byte CSI), and the bidirectional overrides that reorder what is shown.
_TERMINAL = re.compile(r"[\x00-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")
# The same but the newline and tab of lines that we laid out (IMB's tables, mpiBench's tab-separated rows).
_TERMINAL_BUT_LAYOUT = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def _visible(match: re.Match) -> str:
    # "\x1b", "\r", "\u202e": the user sees that the data holds it, and the terminal does nothing.
    return match.group().encode("unicode_escape").decode("ascii")


def terminal(text: object, *, layout: bool = False) -> str:
    """text from the database or a file as a terminal should get it: every control character written out as
    an escape (\\x1b, \\r), so `ESC]0;...BEL` in a host name cannot retitle the window nor ESC[2J clear it.

    layout=True for a block of lines we laid out (a whole table): its newlines and tabs stay.
    """
    return (_TERMINAL_BUT_LAYOUT if layout else _TERMINAL).sub(_visible, str(text))


def text(value: object, style: str = "") -> Text:
    """A rich cell of stored text: through terminal(), and a Text, so "[bold]" in a name is not rich markup."""
    return Text(terminal(value), style=style)
