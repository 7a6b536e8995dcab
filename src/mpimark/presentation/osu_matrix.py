"""osu_mbw_mr -V's tables: a column per window, a row per size (osu_mbw_mr.c's own printing).

With -V (vary window) osu_mbw_mr measures each size at the windows 1, 2, ..., 128 and prints, under
its title and `# [ pairs: P ] [ window size: varied ]`, a bandwidth table and (with -R 1, its default)
a message-rate table, each `#` then a column per window. A row of either is one size at one window:
stored as one record per size and window (`window_size`, `window_varied`), both figures in it.
"""

from __future__ import annotations


SIZE_WIDTH, FIGURE_WIDTH = 7, 10  # "%-7d", then "  %10.2f" per window ("#      " then "  %10d" above)
TABLES = (("mbytes_per_sec", "# Uni-directional Bandwidth (MB/sec)"), ("msgs_per_sec", "# Message Rate Profile"))


def is_varied(row: dict) -> bool:
    return bool(row.get("window_varied"))


def lines(rows: list[dict], pairs: int, datatype_line: bool) -> list[str]:
    """The lines after the title: the pairs line, then each table the rows have figures of."""
    windows = sorted({row["window_size"] for row in rows})
    sizes = sorted({row["bytes"] for row in rows})
    by_key = {(row["bytes"], row["window_size"]): row for row in rows}
    out = [f"# [ pairs: {pairs} ] [ window size: varied ]"]
    for field, heading in TABLES:
        if all(row.get(field) is None for row in rows):
            continue  # -R 0: no message rates
        out += ["", heading]
        if field == TABLES[0][0] and datatype_line:
            out.append(f"# Datatype: {rows[0]['datatype']}.")
        out.append("#" + " " * (SIZE_WIDTH - 1) + "".join(f"  {w:{FIGURE_WIDTH}d}" for w in windows))
        for size in sizes:
            cells = [by_key.get((size, w), {}).get(field) for w in windows]
            out.append(f"{size:<{SIZE_WIDTH}d}" + "".join(
                f"  {value:{FIGURE_WIDTH}.2f}" if value is not None else "  " + " " * FIGURE_WIDTH
                for value in cells).rstrip())
    return out


def same_table(last: dict, row: dict) -> bool:
    """Whether row continues last's -V test: the same test's next window, or a next size."""
    return (is_varied(last) and is_varied(row) and row["datatype"] == last["datatype"]
            and (row["bytes"], row["window_size"]) > (last["bytes"], last["window_size"])
            and all(last.get(f) == row.get(f) for f in ("benchmark", "processes", "pairs")))


