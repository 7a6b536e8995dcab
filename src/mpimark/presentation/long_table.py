"""A long table written line by line in rich's look, without rich's table layout.

rich.Table measures and lays out every cell of a table at once: for a table of 66 000 rows (a synthetic
50 MB IMB log) that took 14 minutes of CPU and some hundred MB. This writer finds each column's width in
one pass over the cells and writes the lines rich would write (box.HEAVY_HEAD, padding 1, the title
left-justified over the table), so the text is the same byte for byte where rich would not have to fold
anything: `lines` returns None where it would (the table or its title wider than the console), and the
caller lays the table out with rich as before.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from rich.cells import cell_len
from rich.text import Text

# Above this many rows show --stats and compare write a table here instead of with rich's layout, whose
# time and memory grow with its cells (a 66 000-row table: over a minute of CPU and some hundred MB).
LONG_ROWS = 1000

# Lines per Text handed to the console: one print per line made a long table slow, one Text of every
# line held the whole table's text a second time.
CHUNK_LINES = 2000


def _justified(text: str, width: int, right: bool) -> str:
    pad = " " * (width - cell_len(text))
    return pad + text if right else text + pad


def lines(title: str, headers: Sequence[str], right: Sequence[bool], rows: Sequence[Sequence[str]],
          max_width: int, footer: Sequence[Sequence[str]] = ()) -> list[str] | None:
    """The table's lines as rich prints them at max_width columns, or None where rich would fold a cell
    or wrap the title (then rich must lay it out). footer: rows after a section rule (rich's
    add_section), as compare's geomean."""
    widths = [cell_len(h) for h in headers]
    for row in (*rows, *footer):
        for i, cell in enumerate(row):
            length = cell_len(cell)
            if length > widths[i]:
                widths[i] = length
    total = sum(widths) + 3 * len(widths) + 1  # "│ " before each cell, " " after, the closing "│"
    if total > max_width or cell_len(title) > total:
        return None

    def rule(left: str, line: str, cross: str, end: str) -> str:
        return left + cross.join(line * (w + 2) for w in widths) + end

    def row_line(bar: str, cells: Sequence[str]) -> str:
        return bar + bar.join(f" {_justified(c, w, r)} " for c, w, r in zip(cells, widths, right)) + bar

    return [_justified(title, total, False), rule("┏", "━", "┳", "┓"), row_line("┃", headers),
            rule("┡", "━", "╇", "┩"), *(row_line("│", row) for row in rows),
            *([rule("├", "─", "┼", "┤"), *(row_line("│", row) for row in footer)] if footer else []),
            rule("└", "─", "┴", "┘")]


def texts(table_lines: list[str], styles: Sequence[str | None]) -> Iterator[Text]:
    """The lines as Texts of CHUNK_LINES lines each, for console.print; styles: one per line after the
    header's rule (the rows, a footer's rule and rows), None for none, as rich's row style."""
    for start in range(0, len(table_lines), CHUNK_LINES):
        text = Text(no_wrap=True, overflow="ignore", end="\n")
        for index in range(start, min(start + CHUNK_LINES, len(table_lines))):
            if index > start:
                text.append("\n")
            row = index - 4  # the title, the top rule, the header, the header's rule come first
            style = styles[row] if 0 <= row < len(styles) else None
            text.append(table_lines[index], style=style)
        yield text
