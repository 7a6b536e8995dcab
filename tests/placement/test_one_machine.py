"""Fake hosts on one machine count its cores once (issue 22, item 7).

The two fake hosts (conftest.py) are UTS namespaces of this machine's one
kernel: the ranks report two host names but share one boot id, so the
self-checks see one machine with all four ranks on its cores, read its
competition once, and call it oversubscribed where it has fewer than four
cores; the placement (hosts, ranks_per_node) still shows the two names.
"""

from __future__ import annotations

import os

import pytest

from mpimark.records.results import read_records

from .conftest import launcher_args, mpimark, MPIS

SMALL = ("-msglog", "0:1", "-iter", "20", "-iter_policy", "off", "-time", "60")


@pytest.mark.parametrize("name", MPIS)
def test_two_fake_hosts_are_one_machine(need, fake_hosts, tmp_path, name):
    impl = need(name)
    stream = tmp_path / "run.jsonl"
    result = mpimark(impl, "run", "mpi1", "PingPong", *SMALL, "-n", "4", "--mpi", name,
                     "--hosts", "mm-node1,mm-node2", "--ppn", "2", *launcher_args(impl),
                     "--db", str(tmp_path / "results.db"), "--json", str(stream))
    assert result.returncode == 0, result.stderr
    records = read_records(stream)
    run = records[0]
    assert run["hosts"] == ["mm-node1", "mm-node2"] and run["ranks_per_node"] == [2, 2]  # where, by name

    cores = os.cpu_count()
    check = run["selfcheck"]
    assert [r["ranks_on_host"] for r in check["ranks"]] == [4] * 4  # not 2 per host name
    assert [r["cores"] for r in check["ranks"]] == [cores] * 4
    [machine] = check["machines"]  # read once, by the machine's lowest rank
    assert (machine["rank"], machine["ranks"], machine["cores"]) == (0, 4, cores)
    over = 4 > cores
    assert run["oversubscribed"] == over and check["oversubscribed"] == over
    warned = [e["message"] for e in records if e["type"] == "event" and e.get("kind") == "oversubscribed"]
    assert warned == ([f"oversubscribed: 4 ranks on the machine of rank 0, which has {cores} cores; ranks wait for a "
                       "core and the times include that"] if over else [])
