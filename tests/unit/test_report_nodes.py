"""Nodes as a dimension of the report and the plots: runs that differ only in placement are told apart.

A study stored here with fake placements (the core's run record says nodes and ranks per node): Open MPI
at 2 ranks on one node, 4 ranks on one node and 4 ranks on two nodes (2 per node). 4 ranks on one node and
4 ranks on two nodes must not be pooled in any table or plot against process count.
"""

from __future__ import annotations

import re

import pytest

from mpimark.presentation import plots, report
from mpimark.storage import studies
from mpimark.storage.selection import by_placement, load
from mpimark.storage.store import Store

from .conftest import store_records
from .records import end_record, result_record, run_record

PLACEMENTS = {  # run: (processes, hosts, ranks per node, Allreduce median at 1 KiB [usec])
    "2@1": (2, ["node1"], [2], 3.0),
    "4@1": (4, ["node1"], [4], 5.0),
    "4@2": (4, ["node1", "node2"], [2, 2], 40.0),
}


def _records(processes: int, hosts: list[str], per_node: list[int], usec: float) -> list[dict]:
    run = run_record()
    run.update(processes=processes, hosts=hosts, nodes=len(hosts), ranks_per_node=per_node)
    rows = [result_record(benchmark="Allreduce", processes=processes, bytes=size, count=size // 4,
                          mbytes_per_sec=None, t_avg_usec=usec,
                          distribution={**result_record()["distribution"], "median_usec": usec,
                                        "ci_low_usec": usec * 0.9, "ci_high_usec": usec * 1.1})
            for size in (0, 1024, 1 << 20)]
    # PingPong's 0-byte row moves nothing: IMB's MB/s is 0 there
    rows.append(result_record(bytes=0, count=0, mbytes_per_sec=0.0, t_max_usec=0.5, t_avg_usec=0.5))
    return [run, *rows, end_record()]


def _store(path, placements: dict) -> list:
    with Store(path) as store:
        for name, (processes, hosts, per_node, usec) in placements.items():
            run_id = store_records(store, _records(processes, hosts, per_node, usec), status="complete",
                                   requested_processes=processes)
            studies.add_run(store, "p", run_id, "openmpi")
        return load(store, ["p"])


@pytest.fixture(scope="module")
def series(tmp_path_factory):
    return _store(tmp_path_factory.mktemp("nodes") / "results.db", PLACEMENTS)


@pytest.fixture(scope="module")
def html(series):
    return report.render(series, size=1024)


def _table(html: str, caption: str) -> str:
    table = html[html.index(f"<caption>{caption}</caption>"):]
    return table[:table.index("</table>")]


def _cells(row: str) -> list[str]:
    return [re.sub(r"<[^>]+>", "", cell).strip() for cell in re.split(r"</t[dh]>", row)][:-1]


def test_a_process_count_on_two_placements_splits_the_series_by_ranks_per_node(series):
    split = by_placement(series)
    assert [s.label for s in split] == ["openmpi, 2 ranks/node", "openmpi, 4 ranks/node"]
    assert [sorted(run.row.nodes for run in s.runs) for s in split] == [[1, 2], [1]]
    assert {s.implementation for s in split} == {"openmpi"}
    assert by_placement(split) == split  # idempotent


def test_one_node_at_several_counts_is_not_split(tmp_path):
    alike = _store(tmp_path / "r.db", {k: v for k, v in PLACEMENTS.items() if k != "4@2"})
    assert by_placement(alike) == alike


def test_placements_keep_the_implementation_colour_with_their_own_marker(series):
    style = plots.styles(by_placement(series))
    two, four = style["openmpi, 2 ranks/node"], style["openmpi, 4 ranks/node"]
    assert two[0] == four[0] and two[1] != four[1]


def test_per_count_table_has_a_column_per_placement(html):
    header = _cells(_table(html, "Allreduce, 4 processes").split("<tr>")[1])
    assert header == ["Message size [bytes]", "openmpi, 2 ranks/node: Communication time [sec]",
                      "openmpi, 4 ranks/node: Communication time [sec]"]
    row = next(r for r in _table(html, "Allreduce, 4 processes").split("<tr>") if ">1024<" in r)
    assert _cells(row)[1:] == ["4.00E-05", "5.00E-06"]  # 2 nodes, then 1 node: not pooled


def test_process_tables_say_the_nodes_of_each_count(html):
    table = _table(html, "Allreduce: communication time [sec]")
    header = _cells(table.split("<tr>")[1])
    assert header[1:] == ["openmpi, 2 ranks/node: 2 procs on 1 node", "openmpi, 2 ranks/node: 4 procs on 2 nodes",
                          "openmpi, 4 ranks/node: 4 procs on 1 node"]
    aramco = _table(html, "Allreduce: time [usec] at 1024 bytes")
    assert "<th>nodes × ranks</th>" in aramco or "nodes × ranks" in _cells(aramco.split("<tr>")[1])
    four = next(_cells(r) for r in aramco.split("<tr>") if '<th scope="row">4</th>' in r)
    assert four[1] == "1 × 4, 2 × 2"


def test_the_scaling_plot_draws_a_line_per_placement(series):
    split = by_placement(series)
    plot = plots.scaling_plot("Allreduce", split, 1024)
    labels = [line.get_label() for line in plot.figure.axes[0].get_lines() if not line.get_label().startswith("_")]
    assert labels == ["openmpi, 2 ranks/node", "openmpi, 4 ranks/node"]


def test_zero_byte_throughput_is_zero_not_missing(html):
    table = _table(html, "PingPong, 2 processes")
    row = next(r for r in table.split("<tr>") if '<th scope="row">0</th>' in r)
    assert _cells(row)[2] == "0 (no data moved)"
    assert "not measured" not in html.split("<caption>PingPong, 2 processes</caption>")[1].split("</table>")[0]
