"""A long table written line by line in rich's look, without rich's table layout.

rich.Table measures and lays out every cell of a table at once: for a table of 66 000 rows (a synthetic
50 MB IMB log) that took 14 minutes of CPU and some hundred MB. This writer finds each column's width in
one pass over the cells and writes the lines rich would write (box.HEAVY_HEAD, padding 1, the title
left-justified over the table), so the text is the same byte for byte where rich would not have to fold
anything: `lines` returns None where it would (the table or its title wider than the console), and the
caller lays the table out with rich as before.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from rich.cells import cell_len
from rich.text import Text

# Above this many rows show --stats and compare write a table here instead of with rich's layout, whose
# time and memory grow with its cells (a 66 000-row table: over a minute of CPU and some hundred MB; compare's
# 315 rows of a 16-rank MPI-1 run: 1.2 s of its 2 s).
LONG_ROWS = 200

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


# Characters one terminal cell wide each: a line of only these has its cells at fixed offsets.
_SINGLE_CELLS = re.compile(r"[\x20-\x7e─-╿]*")


def _widths(top_rule: str) -> list[int]:
    return [len(part) - 2 for part in top_rule[1:-1].split("┳")]


def _cell_spans(line: str, widths: Sequence[int]) -> list[tuple[int, int]]:
    """Each cell's justified text in a row line as (start, end) offsets, its padding and the bars left out;
    walked a character at a time where a cell holds a wide or zero-width character."""
    spans, start = [], 2  # after the first bar and its padding space
    uniform = _SINGLE_CELLS.fullmatch(line) is not None
    for width in widths:
        end = start + width
        if not uniform:
            end, used = start, 0
            while used < width:
                used += cell_len(line[end])
                end += 1
        spans.append((start, end))
        start = end + 3  # the padding space, the bar, the next cell's padding space
    return spans


def texts(table_lines: list[str], styles: Sequence[str | None],
          cell_styles: Sequence[dict[int, str]] = ()) -> Iterator[Text]:
    """The lines as Texts of CHUNK_LINES lines each, for console.print, styled as rich styles its table: the
    header bold; styles, one per line after the header's rule (the rows, a footer's rule and rows), a row's
    style (None for none) on each cell with its padding but not the bars; cell_styles, per row, {column:
    style} on that cell's text alone, as rich prints Text(cell, style=style)."""
    widths = _widths(table_lines[1])

    def styled(index: int, line: str) -> Text | str:
        row = index - 4  # the title, the top rule, the header, the header's rule come first
        style = "bold" if index == 2 else styles[row] if 0 <= row < len(styles) else None
        cells = cell_styles[row] if 0 <= row < len(cell_styles) else {}
        if not (style or cells):
            return line
        text = Text(line)
        for column, (start, end) in enumerate(_cell_spans(line, widths)):
            if style:
                text.stylize(style, start - 1, end + 1)
            if column in cells:
                text.stylize(cells[column], start, end)
        return text

    for start in range(0, len(table_lines), CHUNK_LINES):
        text = Text(no_wrap=True, overflow="ignore", end="\n")
        for index in range(start, min(start + CHUNK_LINES, len(table_lines))):
            if index > start:
                text.append("\n")
            text.append(styled(index, table_lines[index]))
        yield text
