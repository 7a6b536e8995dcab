"""-check: every received buffer is verified. With correct kernels the data
always arrives intact, under every option that moves buffers or roots
around; the defects column follows IMB's CHECK layout."""

from __future__ import annotations

import pytest

from . import imbtext
from .conftest import INCLUDE_ALL, SHORT, core_stderr_lines, match_tables

VARIANTS = {
    "plain": (),
    "root_shift": ("-root_shift", "on"),
    "off_cache": ("-off_cache", "-1"),
    "int_and_double": ("-data_type", "int", "-red_data_type", "double"),
    "multi0": ("-multi", "0"),
    "multi1": ("-multi", "1"),
    "imb_barrier": ("-imb_barrier", "on"),
}
CASES = [(n, v) for n in (2, 3, 4) for v in VARIANTS] + [(4, "map")]


def check_args(variant: str) -> tuple[str, ...]:
    extra = ("-map", "2x2") if variant == "map" else VARIANTS[variant]
    return ("mpi1", *INCLUDE_ALL, *SHORT, "-check", *extra)


@pytest.mark.parametrize("n,variant", CASES, ids=[f"{n}-{v}" for n, v in CASES])
def test_check_finds_no_defects(cached_run, n, variant):
    run = cached_run(n, *check_args(variant))
    assert run.returncode == 0, run.describe()
    assert core_stderr_lines(run.stderr) == [], run.describe()
    rep = run.report
    multi = {"multi0": 0, "multi1": 1}.get(variant)
    names = {t.name for t in rep.tables}
    assert names == set(imbtext.ALL)
    for t in rep.tables:
        assert t.columns == imbtext.expected_columns(t.name, multi=multi, check=True), t.name
        if t.name in imbtext.SYNC:
            assert "defects" not in t.columns
            continue
        assert t.columns[-1] == "defects"
        bad = [r.line for r in t.rows if r.status != "ok" or float(r.fields["defects"]) != 0]
        assert bad == [], f"{t.name} on {t.processes}"
    results = run.results()
    assert results and match_tables(rep, results) == []
    for rec in results:
        expected = None if rec["benchmark"] in imbtext.SYNC else 0
        assert rec["defects"] == expected, (rec["benchmark"], rec["processes"], rec["bytes"])
    assert run.run_record["options"]["check"] == "on"
    assert run.events("check_failed") == []


def test_check_with_int_and_double_really_uses_them(cached_run):
    """The datatype variant above checks int/double buffers, not bytes."""
    run = cached_run(3, *check_args("int_and_double"))
    types = {(r["benchmark"] in imbtext.REDUCTIONS, r["datatype"]) for r in run.results()
             if r["benchmark"] not in imbtext.SYNC}
    assert types == {(False, "MPI_INT"), (True, "MPI_DOUBLE")}


def test_check_char_reductions(cached_run):
    run = cached_run(2, "mpi1", "Allreduce", "Reduce", "Reduce_local", "Reduce_scatter_block",
                     "-msglog", "0:6", "-iter", "20", "-red_data_type", "char", "-check")
    assert run.returncode == 0, run.describe()
    assert all(r["defects"] == 0 for r in run.results())
