"""The batch script and launch line of `mpimark submit` hold nothing of size O(P): 16 tasks and 12,288 tasks
(3,072 nodes x 4, RIKEN's largest count of issue 24) give the same script but for the counts.

`submit --dry-run` prints the script without Slurm (nothing is built, written or submitted), so these need
only an MPI implementation for the words of the launch line, no Slurm.
"""

from __future__ import annotations

import re

import pytest

from .conftest import mpimark

WORDS = ("mpi1", "Allreduce", "Bcast", "Alltoall", "-msglog", "0:10", "-iter", "10")


def dry_run(nodes: int, per_node: int, tmp_path, name: str) -> str:
    done = mpimark("submit", "--dry-run", "--mpi", name, *WORDS, "--nodes", str(nodes), "--ntasks-per-node",
                   str(per_node), "--job-dir", str(tmp_path / "jobs"), db=tmp_path / "results.db")
    assert done.returncode == 0, done.stderr
    # The job's directory is named by the time and mpimark's pid: the same in both scripts once named alike.
    text = done.stdout.replace(str(tmp_path), "TMP")  # the test's name, with its counts, is in tmp_path
    return re.sub(r"mpi1-\d{8}-\d{6}-\d+", "JOBDIR", re.sub(r"\d{8}-\d{6} UTC", "STAMP UTC", text))


@pytest.mark.parametrize("name", ("openmpi", "mpich"))
def test_the_script_for_12288_tasks_is_the_script_for_16_but_its_counts(need, name, tmp_path):
    need(name)
    small, large = dry_run(4, 4, tmp_path, name), dry_run(3072, 4, tmp_path, name)
    # Only the counts differ: nodes (4 -> 3072) and tasks (16 -> 12288), a few digits each.
    assert len(large) - len(small) <= 12, (small, large)
    assert large.replace("3072", "4").replace("12288", "16") == small
    assert "#SBATCH --nodes=3072" in large and "#SBATCH --ntasks-per-node=4" in large
    launch = next(line for line in large.splitlines() if line.startswith("srun "))
    assert "--ntasks=12288" in launch and "--ntasks-per-node=4" in launch
    # No host list, no per-rank argument or variable: Slurm places the tasks.
    assert not re.search(r"--nodelist|-w |--hostfile|SLURM_HOSTFILE|--multi-prog", large)
    assert len(large.splitlines()) == len(small.splitlines())
