"""OSU 7.4's text layout, for comparing the core's `mpimark-core osu NAME` output with real OSU output
(tests/unit/data/osu/*.txt) whatever the figures and however many sizes each ran.

The layout of a text is its lines in order, with mpimark's own lines (`# mpimark: ...`) left out: every
`#` line and every other text line exactly (titles, option lines, column lines, osu_init's line with its
numbers masked), blank lines as blank, and each row as its shape: where every field ends (OSU
right-aligns its figures; the size is left-aligned, so where it starts) and what it is (whole number,
two-decimal figure, word). Consecutive rows of one shape count once, so a run over 1..64 bytes has the
layout of a capture over 1..4096 as long as its figures are as wide.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MPIMARK_LINE = "# mpimark"
_TOKEN = re.compile(r"\S+")
_FIGURE = re.compile(r"-?\d+\.\d\d")
_WHOLE = re.compile(r"-?\d+")


@dataclass(frozen=True)
class Row:
    """One table row: per field (end column, kind); the size's start column instead of its end."""
    fields: tuple[tuple[int, str], ...]


def _kind(token: str) -> str:
    if _FIGURE.fullmatch(token):
        return "figure"
    if _WHOLE.fullmatch(token):
        return "whole"
    return "word"


def row_shape(line: str) -> Row | None:
    """The shape of a table row; None for a line that is not one (text, a title)."""
    tokens = list(_TOKEN.finditer(line))
    if not tokens or _kind(tokens[0].group()) == "word":
        return None
    fields = []
    for index, match in enumerate(tokens):
        kind = _kind(match.group())
        if kind == "word" and index == 0:
            return None
        # A row that starts with the size has it left-aligned at column 0; OSU's size-less rows right-align
        # their first figure like the others.
        left = index == 0 and match.start() == 0 and kind == "whole"
        fields.append((match.start() if left else match.end(), kind))
    return Row(tuple(fields))


def layout(text: str) -> list[object]:
    """The layout of an OSU text: a list of lines (str) and row shapes (Row), rows of one shape collapsed."""
    out: list[object] = []
    for line in text.splitlines():
        if line.startswith(MPIMARK_LINE):
            continue
        if line.startswith("#") or not line.strip():
            out.append(line.rstrip() if line.strip() else "")
            continue
        shape = row_shape(line)
        if shape is None:
            out.append(_WHOLE.sub("N", line))  # a text line (osu_init's, osu_hello's): its words, numbers masked
            continue
        if out and out[-1] == shape:
            continue
        out.append(shape)
    return out


def rows(text: str) -> list[list[str]]:
    """The fields of every table row of a text, in order."""
    return [line.split() for line in text.splitlines()
            if not line.startswith("#") and line.strip() and row_shape(line) is not None]


def differences(ours: str, theirs: str) -> list[str]:
    """Where the layout of ours departs from theirs, as readable lines; [] when they agree."""
    a, b = layout(ours), layout(theirs)
    out = []
    for index in range(max(len(a), len(b))):
        x = a[index] if index < len(a) else "<nothing>"
        y = b[index] if index < len(b) else "<nothing>"
        if x != y:
            out.append(f"line group {index}: ours {x!r}, OSU's {y!r}")
    return out


def assert_same_layout(ours: str, theirs: str) -> None:
    found = differences(ours, theirs)
    assert not found, "OSU layout differs:\n" + "\n".join(found) + f"\n--- ours ---\n{ours}"
