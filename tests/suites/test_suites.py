"""Every benchmark of ext, rma, nbc and mpi4 at 2, 3 and 4 ranks under Open MPI
and at 2 and 4 under MPICH, with -check: exit status, IMB's layout of every table (MODE
blocks, overlap columns), the JSON stream against the schema and against the
text, defects, and the overlap figures. Known library bugs are asserted as
such (known_bugs.py)."""

from __future__ import annotations

import math

import pytest
from mpimark.records.results import validate_record

from integration import imbtext
from integration.corerun import core_stderr_lines, error_lines, match_tables, same_printed

from . import known_bugs
from .conftest import CASES, SuiteRun, case_id

pytestmark = pytest.mark.parametrize("case", CASES, ids=case_id)


def sizes_of(r: SuiteRun, name: str) -> list[int]:
    plan = r.mpi.plan(r.n)
    if "-msgsize" in plan:
        return imbtext.list_sizes(r.rules, name, [int(x) for x in plan[plan.index("-msgsize") + 1].split(",")])
    lo, hi = (int(x) for x in plan[plan.index("-msglog") + 1].split(":"))
    return imbtext.suite_sizes(r.rules, name, lo, hi)


def expected_defects(r: SuiteRun, rec: dict) -> tuple[bool, known_bugs.KnownBug | None]:
    """Whether this result must show defects, and the known bug that makes it so."""
    bug = known_bugs.persistent_bug(r.mpi.name, r.mpi.version, r.suite, rec["benchmark"])
    if bug is None or rec["bytes"] == 0:
        return False, None
    return rec["processes"] in known_bugs.DEFECTS_AT[bug], bug


def shown_bugs(r: SuiteRun) -> list[known_bugs.KnownBug]:
    out = []
    for rec in r.run.results():
        must, bug = expected_defects(r, rec)
        if must and bug not in out:
            out.append(bug)
    return out


def test_exit_status_and_stderr(suite_run, case):
    r = suite_run(*case)
    run = r.run
    bugs = shown_bugs(r)
    lines = core_stderr_lines(run.stderr)
    if not bugs:
        assert run.returncode == 0, run.describe()
        assert lines == [], run.describe()
        return
    # -check found the known wrong data: exit 4, one check_failed line per bad row, then the verdict.
    assert run.returncode == 4, run.describe()
    bad_rows = [rec for rec in run.results() if rec["defects"]]
    assert lines[:-1] == [f"mpimark-core: error: -check: {rec['defects']} received elements of "
                          f"{rec['benchmark']} at {rec['bytes']} bytes differ from what was sent" for rec in bad_rows]
    total = sum(rec["defects"] for rec in bad_rows)
    assert error_lines(lines[-1:]) == [f"mpimark-core: error: -check found {total} received elements that differ "
                                       "from what was sent; see the defects column"]
    pytest.xfail("; ".join(b.reason() for b in bugs))


def test_layout_of_every_table(suite_run, case):
    r = suite_run(*case)
    rep = r.run.report  # parse() has checked every line's form
    rules = r.rules
    assert rep.part == rules.part
    assert rep.calling_sequence.split() == r.run.core_argv
    assert rep.benchmarks == r.expected_list
    assert (rep.cpu_mflops is not None) == rules.overlap
    assert rep.invalid == []
    expected = imbtext.suite_tables(rules, r.expected_list, r.n)
    assert rep.table_keys == expected
    for t in rep.tables:
        b = rules.bench(t.name)
        where = f"{t.name} on {t.processes} ({t.mode}, line {t.lineno})"
        assert t.columns == imbtext.suite_columns(rules, t.name, check=True), where
        assert t.dash_len == 13 * len(t.columns), where
        assert not t.multi_prefix and t.groups is None and t.grid is None, where
        assert t.idle == r.n - t.processes, where
        assert (t.mode is not None) == b.modes, where
        assert all(row.status == "ok" for row in t.rows), where
        if "#bytes" in t.columns:
            assert [row.bytes for row in t.rows] == sizes_of(r, t.name), where
        else:
            assert len(t.rows) == 1, where
        for row in t.rows:
            reps = row.as_int("#repetitions")
            if "-iter_policy" in r.mpi.plan(r.n):
                assert reps == 2, (where, row.line)
            else:
                assert 1 <= reps <= 20, (where, row.line)
    if rules.mode_order:  # EXT aggregate first, RMA non-aggregate first
        for name in r.expected_list:
            modes = [t.mode for t in rep.tables_of(name) if t.processes == 2]
            if rules.bench(name).modes:
                assert modes == list(rules.mode_order), name


def test_json_stream(suite_run, case):
    r = suite_run(*case)
    run = r.run
    for number, record in enumerate(run.records, 1):
        try:
            validate_record(record)
        except ValueError as exc:
            pytest.fail(f"line {number}: {exc}")
    types = [rec["type"] for rec in run.records]
    assert types[0] == "run" and types[-1] == "end" and types.count("run") == types.count("end") == 1
    head = run.run_record
    assert head["suite"] == r.suite and head["processes"] == r.n
    assert head["command_line"] == run.core_argv
    assert head["benchmarks"] == r.expected_list
    assert head["options"]["check"] == "on"
    library = head["mpi"]["library_version"]
    assert {"openmpi": "Open MPI", "mpich": "MPICH"}[r.mpi.name] in library and r.mpi.version in library
    rep = run.report
    if r.rules.overlap:
        assert same_printed(head["cpu_exploit_mflops"], f"{rep.cpu_mflops:.2f}", 2)
    else:
        assert "cpu_exploit_mflops" not in head
    starts = run.events("benchmark_start")
    assert [(e["benchmark"], e["processes"], e.get("mode")) for e in starts] == rep.table_keys
    assert [e["sizes"] for e in starts] == [len(t.rows) for t in rep.tables]
    results = run.results()
    assert match_tables(rep, results) == []
    for rec in results:
        assert rec["suite"] == r.suite and rec["status"] == "ok" and rec["multi"] is None
        assert (rec["mode"] is not None) == r.rules.bench(rec["benchmark"]).modes
    end = run.end_record
    assert end["status"] == "complete" and end["results"] == len(results)


def test_check_validates_every_transfer(suite_run, case):
    """Every Put, Get, Accumulate, Get_accumulate, Fetch_and_op, Compare_and_swap and
    every nonblocking or persistent collective has its data checked; nothing is wrong
    but the known bugs, which show exactly where they are known to."""
    r = suite_run(*case)
    results = r.run.results()
    assert {rec["benchmark"] for rec in results} == set(r.expected_list)
    unexpected, shown = [], []
    for rec in results:
        where = (rec["benchmark"], rec["processes"], rec["mode"], rec["bytes"])
        if not r.rules.bench(rec["benchmark"]).data:
            assert rec["defects"] is None, where  # Ibarrier, Barrier_persist: nothing to check
            continue
        assert isinstance(rec["defects"], int), where
        must, bug = expected_defects(r, rec)
        if must:
            if rec["defects"] == 0:
                unexpected.append(f"{where}: no defects, but {bug.reason()}")
            elif bug not in shown:
                shown.append(bug)
        elif rec["defects"] != 0:
            unexpected.append(f"{where}: {rec['defects']} defects")
    assert unexpected == []
    failed = [(e["benchmark"], e["processes"], e["bytes"]) for e in r.run.events("check_failed")]
    assert failed == [(rec["benchmark"], rec["processes"], rec["bytes"]) for rec in results if rec["defects"]]
    if shown:
        pytest.xfail("; ".join(b.reason() for b in shown))


def overlap_percent(t_ovrl: float, t_pure: float, t_cpu: float, denominator) -> float:
    """The user guide's overlap: 100 * clamp((t_pure + t_CPU - t_ovrl) / min(t_pure, t_CPU), 0, 1);
    current IMB code divides by the max instead."""
    d = denominator(t_pure, t_cpu)
    return 100.0 * max(0.0, min(1.0, (t_pure + t_cpu - t_ovrl) / d)) if d > 0 else 0.0


def test_overlap_figures(suite_run, case):
    """The overlap rows, checked against what was measured: nothing about how
    much overlap there should be is assumed."""
    r = suite_run(*case)
    rep = r.run.report
    by_key = {(rec["benchmark"], rec["processes"], rec["bytes"], rec["mode"]): rec for rec in r.run.results()}
    seen = 0
    for t in rep.tables:
        layout = r.rules.bench(t.name).layout
        for row in t.rows:
            rec = by_key[(t.name, t.processes, row.bytes or 0, t.mode)]
            ov = rec["overlap"]
            where = (t.name, t.processes, rec["bytes"])
            if layout not in ("overlap", "overlap_sync", "pure_ovrl"):
                assert ov is None, where
                continue
            seen += 1
            assert ov is not None, where
            # The rank whose figures these are belongs to the table's processes (0..Q-1 without -map/-multi),
            # and its t_ovrl is the table's t_max: the largest t_ovrl of all ranks.
            assert 0 <= ov["rank"] < t.processes, where
            assert ov["t_ovrl_usec"] == rec["t_max_usec"], where
            assert rec["t_min_usec"] <= rec["t_avg_usec"] * (1 + 1e-12) <= rec["t_max_usec"] * (1 + 1e-12), where
            printed = {"t_ovrl": row.fields["t_ovrl[usec]"], "t_pure": row.fields["t_pure[usec]"]}
            assert same_printed(rec["t_max_usec"], printed["t_ovrl"], 2), where
            assert same_printed(ov["t_pure_usec"], printed["t_pure"], 2), where
            if layout == "pure_ovrl":  # Truly_passive_put: the origin's t_pure and t_ovrl, nothing else
                assert (ov["t_cpu_usec"], ov["overlap_percent"], ov["overlap_percent_max_denominator"]) == (
                    None, None, None), where
                continue
            t_ovrl, t_pure, t_cpu = ov["t_ovrl_usec"], ov["t_pure_usec"], ov["t_cpu_usec"]
            pct, pct_max = ov["overlap_percent"], ov["overlap_percent_max_denominator"]
            text_pct = row.as_float("overlap[%]")
            assert 0 <= text_pct <= 100 and 0 <= pct <= 100 and 0 <= pct_max <= 100, where
            # The table prints IMB's figure (max denominator) unless the run chose -imb_compat guide.
            guide = r.run.run_record["options"].get("imb_compat") == "guide"
            assert same_printed(pct if guide else pct_max, row.fields["overlap[%]"], 2), where
            assert same_printed(t_cpu, row.fields["t_CPU[usec]"], 2), where
            # The definitions, recomputed from the JSON's own figures (12 significant digits).
            assert math.isclose(pct, overlap_percent(t_ovrl, t_pure, t_cpu, min), rel_tol=1e-9, abs_tol=1e-6), where
            assert math.isclose(pct_max, overlap_percent(t_ovrl, t_pure, t_cpu, max), rel_tol=1e-9,
                                abs_tol=1e-6), where
            assert pct_max <= pct + 1e-9, where  # a larger denominator never gives more overlap
            # By construction: some CPU work runs in every overlap iteration (at least one
            # kernel pass, even for t_pure = 0), so t_CPU > 0; it is timed inside the same
            # iteration as t_ovrl, on the same rank, so t_ovrl >= t_CPU.
            assert t_cpu > 0, where
            assert t_ovrl >= t_cpu * (1 - 1e-9), where
            # t_ovrl is each rank's mean over the overlap loop's iterations; the samples are the
            # slowest rank's time per iteration, so their mean is at least any rank's mean.
            dist = rec["distribution"]
            assert dist["batch_size"] == 1 and dist["samples"] == rec["repetitions"] == len(rec["samples_ns"]), where
            mean_us = sum(rec["samples_ns"]) / len(rec["samples_ns"]) * 1e-3
            assert mean_us >= t_ovrl - 1e-4 - 1e-9 * t_ovrl, (where, mean_us, t_ovrl)
    expected_rows = sum(len(t.rows) for t in rep.tables
                        if r.rules.bench(t.name).layout in ("overlap", "overlap_sync", "pure_ovrl"))
    assert seen == expected_rows and (seen > 0) == (r.suite != "ext")
