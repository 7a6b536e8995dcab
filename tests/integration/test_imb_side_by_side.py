"""IMB itself against the core, under Intel MPI (the impi-rt wheel, `mpimark mpi install impi`, ships
IMB-MPI1, IMB-NBC and IMB-RMA): the same command line to both at 2 ranks with tiny sizes must give
the same table sets (benchmark, processes, mode), row sets (sizes and status), repetitions, column
titles and header text, except the lines docs/imb-compatibility.md lists as different on purpose.
Issue 16's parity check against the real program; numbers are not compared (timing belongs in
benchmarks/imb_parity.sh)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from mpimark.execution import build
from tests.tools.conftest import available, setup_env  # noqa: F401

from . import imbtext

# 0:2, not 0:1: IMB cuts every size to 2^max rounded down to the element, so its single-element
# benchmarks (Fetch_and_op, Compare_and_swap) would measure 0 bytes below 4 (docs/imb-compatibility.md).
TINY = ("-msglog", "0:2", "-iter", "20,40,20", "-time", "10")
# One launch per program in CI: a few benchmarks of every kind (-include runs them first, as in IMB,
# and -exclude of everything else would be longer to write than the names).
CASES = [
    pytest.param("IMB-MPI1", "mpi1", ("PingPong", "Reduce_scatter", "Allreduce", "Barrier", "-include", "Biband"),
                 id="mpi1"),
    pytest.param("IMB-NBC", "nbc", ("Iallreduce", "Ireduce_scatter", "Ibarrier"), id="nbc"),
    pytest.param("IMB-RMA", "rma", ("Unidir_put", "One_put_all", "Compare_and_swap", "Truly_passive_put"), id="rma"),
    # The whole default sets: every table of each program (about a minute in all).
    pytest.param("IMB-MPI1", "mpi1", (), id="mpi1-defaults", marks=pytest.mark.slow),
    pytest.param("IMB-NBC", "nbc", (), id="nbc-defaults", marks=pytest.mark.slow),
    pytest.param("IMB-RMA", "rma", (), id="rma-defaults", marks=pytest.mark.slow),
]

# Header lines that differ on purpose (docs/imb-compatibility.md): the title names mpimark, the
# thread line says the level, the calling sequence names the program, the date may tick, and the
# core's own "# mpimark warning:" lines (-selfcheck) are not IMB's.
DIFFERENT = ("#    ", "# Date ", "# MPI Thread Environment:", "# mpimark ")


@pytest.fixture
def impi(available):  # noqa: F811
    impl = next((i for i in available.values() if i.kind == "impi"), None)
    if impl is None:
        pytest.skip("no Intel MPI: its wheel is not installed here (`mpimark mpi install impi` downloads "
                    "impi-rt/impi-devel from PyPI; offline machines cannot)")
    return impl


def launch(impl, program: list[str], args: tuple[str, ...]) -> str:
    run = subprocess.run([impl.mpiexec, "-n", "2", *program, *args], env={**os.environ, **impl.env},
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, f"{program} exit {run.returncode}\n{run.stderr[-2000:]}"
    return run.stdout


def header_lines(text: str) -> list[str]:
    """The header block up to the first table, without the lines that differ on purpose and without
    the calling sequence and the core's CPU-kernel block (IMB-NBC prints none)."""
    head = text.split("\n#---", 2)
    lines = (head[0] + "\n#---" + head[1]).splitlines()
    calling = lines.index("# Calling sequence was: ") + 2
    lines = [x for i, x in enumerate(lines) if i != calling and not x.startswith(DIFFERENT)]
    if "# For nonblocking benchmarks:" in lines:
        start = lines.index("# For nonblocking benchmarks:")
        del lines[start - 1:start + 4]
    return lines


def table_lines(text: str) -> list[str]:
    """Every line of the tables that is not a result row, without mpimark's Reduce_scatter line."""
    body = text[text.index("# Benchmarking"):]
    return [x for x in body.splitlines() if not imbtext.SPLIT_NOTE.fullmatch(x) and not x.startswith("# mpimark ")
            and not (x[:13].strip().isdigit() and x.startswith(" "))]


@pytest.mark.parametrize("program,suite,names", CASES)
def test_imb_and_the_core_print_the_same_tables(impi, program, suite, names):
    imb = Path(impi.mpiexec).parent / program
    if not imb.exists():
        pytest.skip(f"this Intel MPI wheel has no {program}")
    core = build.ensure_core(impi)
    args = (*names, *TINY)
    theirs, ours = launch(impi, [str(imb)], args), launch(impi, [str(core), suite], args)
    a, b = imbtext.parse(theirs), imbtext.parse(ours)
    assert a.benchmarks == b.benchmarks
    assert a.table_keys == b.table_keys
    for ta, tb in zip(a.tables, b.tables):
        assert ta.columns == tb.columns, ta.key
        assert [(r.bytes, r.status, r.fields.get("#repetitions")) for r in ta.rows] == \
            [(r.bytes, r.status, r.fields.get("#repetitions")) for r in tb.rows], (ta.key, ta.mode)
    assert header_lines(theirs) == header_lines(ours)
    assert table_lines(theirs) == table_lines(ours)


@pytest.mark.parametrize("program,suite", [("IMB-MPI1", "mpi1"), ("IMB-NBC", "nbc"), ("IMB-RMA", "rma")])
def test_list_prints_imbs_names_labels_and_comment_lines(impi, program, suite):
    """-list as IMB's: the program's label, the names in IMB's (alphabetical) order, "(non-default)",
    and IMB-RMA's comment lines under Compare_and_swap and Truly_passive_put. Only the first line
    differs: it names the program that prints it."""
    imb = Path(impi.mpiexec).parent / program
    if not imb.exists():
        pytest.skip(f"this Intel MPI wheel has no {program}")
    core = build.ensure_core(impi)
    env = {**os.environ, **impi.env}
    theirs = subprocess.run([str(imb), "-list"], env=env, capture_output=True, text=True, timeout=60)
    ours = subprocess.run([str(core), suite, "-list"], env=env, capture_output=True, text=True, timeout=60)
    assert theirs.returncode == ours.returncode == 0, ours.stderr
    assert theirs.stdout.splitlines()[1:] == ours.stdout.splitlines()[1:]
