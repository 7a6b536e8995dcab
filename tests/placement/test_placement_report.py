"""Nodes in the report from real runs: 4 Open MPI ranks on one node and 4 on two fake nodes (2 per node).

The two runs differ only in placement; the report must keep them apart in every table against process
count (selection.by_placement) and say the binding each rank saw (records/machine.py).
"""

from __future__ import annotations

from .conftest import launcher_args, mpimark

SMALL = ("mpi1", "PingPong", "Allreduce", "-msglog", "0:1", "-iter", "20", "-iter_policy", "off", "-time", "60")


def test_one_node_and_two_nodes_are_series_of_their_own(need, fake_hosts, rsh_log, tmp_path):
    impl = need("openmpi")
    db = tmp_path / "results.db"
    local = mpimark(impl, "run", *SMALL, "-n", "4", "--mpi", "openmpi", "--db", str(db))
    assert local.returncode == 0, local.stderr
    spread = mpimark(impl, "run", *SMALL, "-n", "4", "--mpi", "openmpi", "--hosts", "mm-node1,mm-node2",
                     "--ppn", "2", *launcher_args(impl), "--db", str(db))
    assert spread.returncode == 0, spread.stderr
    html = tmp_path / "report.html"
    made = mpimark(impl, "report", "1", "2", "-o", str(html), "--db", str(db))
    assert made.returncode == 0, made.stderr
    text = html.read_text(encoding="utf-8")
    one, two = "(run 1), 4 ranks/node", "(run 2), 2 ranks/node"  # after the library's label
    # Allreduce at 4 processes: a column per placement, never one pooled column
    table = text[text.index("<caption>Allreduce, 4 processes</caption>"):]
    header = table[:table.index("</tr>")]
    assert f"{one}: Communication time [sec]" in header and f"{two}: Communication time [sec]" in header
    aramco = text[text.index("<caption>Allreduce: time [usec] at"):]
    assert "nodes × ranks" in aramco[:aramco.index("</tr>")]
    assert "1 × 4, 2 × 2" in aramco[:aramco.index("</table>")]
    assert "each rank on one CPU" in text or "not bound" in text  # the machine table's binding column
