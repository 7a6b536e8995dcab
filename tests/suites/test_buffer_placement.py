"""The send and receive buffers sit where IMB's do (issue 16). IMB allocates
its send buffer and then its receive buffer for every size and frees both
after it, so (Intel MPI serving MPI_Alloc_mem from malloc) the pair comes off
the top of the heap and the receive buffer starts 16 bytes after the send
buffer's end. Gather's root then copies its own block to 16 bytes past its
source modulo 4 KiB, where glibc's memcpy stalls on 4K aliasing; with the
buffers from two mallocs the core's Gather took 0.57x IMB's time
(benchmarks/README.md, "Gather: the root's own block"). buffer_placement.c,
loaded into the core with LD_PRELOAD, notes the distance from the send to the
receive buffer of every Gather (root) and Allreduce call; by default it must
be glibc's neighbour distance at every size, and with -buffer_align each
buffer is aligned on its own."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from integration.corerun import scratch_dir

from .conftest import get_mpi, run_with

HERE = Path(__file__).resolve().parent
SIZES = [2 ** k for k in range(0, 17)]
PLAN = ("-msglog", "0:16", "-iter", "4,40,4", "-iter_policy", "off", "-time", "10")
LINE = re.compile(r"^placement rank (\d+): (\w+) (\d+) (-?\d+)$", re.MULTILINE)


def probe():
    from mpimark.execution.mpi import find
    mpi = get_mpi("openmpi")
    out = scratch_dir() / "buffer_placement-openmpi.so"
    if not out.exists():
        done = subprocess.run([find("openmpi").mpicc, "-shared", "-fPIC", "-O1", "-o", str(out),
                               str(HERE / "buffer_placement.c")], capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
    return mpi, out


def neighbour_offset(request: int) -> int:
    """glibc's distance between two chunks carved one after the other (util/buflayout.c)."""
    return max(32, (request + 8 + 15) // 16 * 16)


def offsets(*options: str) -> dict[tuple[str, int], set[int]]:
    mpi, library = probe()
    # Allgather and Reduce_scatter before them leave holes in the heap, as a default run does.
    run = run_with(mpi, 2, "mpi1", "Allgather", "Reduce_scatter", "Gather", "Allreduce", *PLAN, *options,
                   timeout=300, program=["env", f"LD_PRELOAD={library}", str(mpi.core)])
    assert run.returncode == 0, run.describe()
    seen: dict[tuple[str, int], set[int]] = {}
    for rank, call, nbytes, offset in LINE.findall(run.stderr):
        seen.setdefault((call, int(nbytes)), set()).add(int(offset))
    # The probe was loaded and saw every size of both benchmarks (Gather on rank 0, the root;
    # Allreduce's floats from 4 bytes on).
    expected = {("Gather", x) for x in SIZES} | {("Allreduce", x) for x in SIZES if x >= 4}
    assert {key for key in seen if key[1] > 0} == expected, run.describe()
    return seen


def test_the_receive_buffer_follows_the_send_buffer_as_imbs_does():
    seen = offsets()
    wrong = {key: found for key, found in seen.items() if key[1] > 0 and found != {neighbour_offset(key[1])}}
    assert wrong == {}


def test_buffer_align_places_each_buffer_on_its_own_boundary():
    seen = offsets("-buffer_align", "4096")
    assert all(offset % 4096 == 0 for key, found in seen.items() if key[1] > 0 for offset in found)
