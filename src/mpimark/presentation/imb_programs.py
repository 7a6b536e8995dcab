"""IMB-P2P's and IMB-MT's text output, regenerated from the records of a p2p or mt run.

A port of core/src/report/imb_p2p_text.c and imb_mt_text.c: IMB-P2P's
header and tables (13-character columns, `# Benchmarking Stencil2D (2 x 2)`,
`# !! Benchmark ... is invalid ...`), IMB-MT's title block and tables
(`# #processes = N (threads: T)`, `# window_size = W`, `# NO SUCCESSFUL
EXECUTIONS`). The Date line is start_utc in UTC, as in imb_text.py.
"""

from __future__ import annotations

from mpimark.presentation import imb_text  # its cells and date; it hands p2p and mt runs to this module
from mpimark.records.benchmarks import catalog, Layout

SUITES = ("p2p", "mt")


def owns(run: dict | None) -> bool:
    """Whether the run is of a suite whose text this module writes (IMB-P2P's, IMB-MT's), not IMB's."""
    return (run or {}).get("suite") in SUITES


P2P_BAR = "#" + "-" * 64 + "\n"
MT_BAR = "#" + "-" * 77 + "\n"
COLUMNS = {
    Layout.P2P: ["t[usec]", "Mbytes/sec", "Msg/sec"],
    Layout.AVG_RATE: ["t_avg[usec]", "Mbytes/sec", "Msg/sec"],
    Layout.RANGE_BW: ["t_min[usec]", "t_max[usec]", "t_avg[usec]", "Mbytes/sec"],
    Layout.RANGE: ["t_min[usec]", "t_max[usec]", "t_avg[usec]"],
    Layout.SYNC: ["t_min[usec]", "t_max[usec]", "t_avg[usec]"],
}
FIGURES = {
    Layout.P2P: [("t_avg_usec", ".2f"), ("mbytes_per_sec", ".2f"), ("msgs_per_sec", ".0f")],
    Layout.AVG_RATE: [("t_avg_usec", ".2f"), ("mbytes_per_sec", ".2f"), ("msgs_per_sec", ".0f")],
    Layout.RANGE_BW: [("t_min_usec", ".2f"), ("t_max_usec", ".2f"), ("t_avg_usec", ".2f"), ("mbytes_per_sec", ".2f")],
    Layout.RANGE: [("t_min_usec", ".2f"), ("t_max_usec", ".2f"), ("t_avg_usec", ".2f")],
    Layout.SYNC: [("t_min_usec", ".2f"), ("t_max_usec", ".2f"), ("t_avg_usec", ".2f")],
}


def _p2p_header(run: dict) -> str:
    uname, mpi, options = run.get("uname") or {}, run.get("mpi") or {}, run.get("options") or {}
    sizes = options.get("msgsizes") or [0]
    bar = "#" + "-" * 60 + "\n"
    return "".join([
        bar, f"#    mpimark-core {run.get('tool', {}).get('version', '')} (Intel(R) MPI Benchmarks "
             f"{imb_text.IMB_METHOD_VERSION} methodology), IMB-P2P part\n", bar,
        f"# Date                  : {imb_text.asctime_utc(run['start_utc']) if run.get('start_utc') else ''}\n",
        f"# Machine               : {uname.get('machine', '')}\n",
        f"# System                : {uname.get('sysname', '')}\n",
        f"# Release               : {uname.get('release', '')}\n",
        f"# Version               : {uname.get('version', '')}\n",
        f"# MPI Version           : {mpi.get('standard_version', '')}\n",
        "# MPI Thread Environment:\n#\n# Calling sequence was:\n#\n#",
        *(f" {arg}" for arg in run.get("command_line", [])),
        "\n#\n# List of Benchmarks to run:\n#\n", *(f"# {name}\n" for name in run.get("benchmarks", [])),
        f"#\n# Minimum message length in bytes:   {min(sizes)}\n",
        f"# Maximum message length in bytes:   {max(sizes)}\n#\n",
    ])


def _mt_header(run: dict) -> str:
    bar = "#" + "-" * 66 + "\n"
    return (f"{bar}#    mpimark-core {run.get('tool', {}).get('version', '')} (Intel(R) MPI Benchmarks "
            f"{imb_text.IMB_METHOD_VERSION} methodology), MT part    \n{bar}#\n")


def _head(suite: str, event: dict, layout: Layout, window: int | None, check: bool) -> str:
    name = event["benchmark"]
    if suite == "p2p":
        grid = f" ({event['grid']})" if event.get("grid") else ""
        out = ["\n", P2P_BAR, f"# Benchmarking {name}{grid}\n", f"# #processes = {event['processes']}\n", P2P_BAR]
    else:
        out = ["\n", MT_BAR, f"# Benchmarking {name}\n",
               f"# #processes = {event['processes']} (threads: {event.get('threads', 1)})\n"]
        if layout is Layout.AVG_RATE and window:
            out.append(f"# window_size = {window}\n")
        out.append(MT_BAR)
    columns = ([] if layout is Layout.SYNC else ["#bytes"]) + ["#repetitions"] + COLUMNS[layout]
    columns += ["defects"] if check else []
    return "".join(out) + "".join(f"{c:>{imb_text.WIDTH}}" for c in columns) + "\n"


def _invalid(suite: str, event: dict) -> str:
    if suite == "p2p":
        return f"\n# !! Benchmark {event['benchmark']} is invalid for {event['processes']} processes !!\n"
    return f"\n{MT_BAR}# Benchmarking {event['benchmark']}\n# NO SUCCESSFUL EXECUTIONS\n{MT_BAR}"


def _row(layout: Layout, result: dict, check: bool) -> str:
    cells = [] if layout is Layout.SYNC else [imb_text.column_cell(result["bytes"], "d")]
    cells.append(imb_text.column_cell(result["repetitions"], "d"))
    cells += [imb_text.column_cell(result.get(key), spec) for key, spec in FIGURES[layout]]
    if check:
        cells.append(imb_text.column_cell(result.get("defects"), "d"))
    return "".join(cells) + "\n"


def tables(records: list[dict]) -> str:
    run = next((r for r in records if r["type"] == "run"), {})
    suite = run.get("suite", "p2p")
    options = run.get("options") or {}
    check = options.get("check") == "on"
    facts = catalog(records)
    out: list[str] = []
    pending: dict | None = None  # a benchmark_start whose head waits for its first row (its layout, window)
    for record in records:
        if record["type"] == "event" and record.get("kind") == "benchmark_start":
            pending = record
        elif record["type"] == "event" and record.get("kind") == "invalid_process_count":
            out.append(_invalid(suite, record))
        elif record["type"] == "result":
            bench = facts.get(record["benchmark"], suite)
            layout, checked = bench.table_layout(), check and bench.moves_data
            if pending is not None:
                window = record.get("window_size") or options.get("window_size")
                out.append(_head(suite, pending, layout, window, checked))
                pending = None
            out.append(_row(layout, record, checked))
    return "".join(out)


def text(records: list[dict]) -> str:
    """The whole output of a p2p or mt run: header, tables, and the closing of a run that ended."""
    run = next((r for r in records if r["type"] == "run"), None)
    suite = (run or {}).get("suite", "p2p")
    ended = any(r["type"] == "end" for r in records)
    header = (_p2p_header(run) if suite == "p2p" else _mt_header(run)) if run else ""
    closing = ("\n\n# All processes entering MPI_Finalize\n\n" if suite == "p2p" else "\n") if ended else ""
    return header + tables(records) + closing
