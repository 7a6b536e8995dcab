"""The text output of a run of every MPI-1 benchmark obeys IMB's layout,
line by line (imbtext.parse checks each line; the tests below check what the
parse returns against IMB's rules for this run)."""

from __future__ import annotations

import pytest

from . import imbtext
from .conftest import INCLUDE_ALL, core_stderr_lines, run_core

RANKS = [2, 3, 4]
EXPECTED_LIST = imbtext.ALL  # -include's names first, then the defaults (IMB's order)


def expected_tables(world: int) -> list[tuple[str, int]]:
    return [(name, np) for name in EXPECTED_LIST for np in imbtext.process_counts(name, world)]


@pytest.mark.parametrize("n", RANKS)
def test_run_succeeds_quietly(full_run, n):
    run = full_run(n)
    assert run.returncode == 0, run.describe()
    assert core_stderr_lines(run.stderr) == [], run.describe()


@pytest.mark.parametrize("n", RANKS)
def test_header_block(full_run, n):
    rep = full_run(n).report  # parse() has checked every header line's exact form
    assert rep.header["MPI Thread Environment"] == "MPI_THREAD_SINGLE"
    run = full_run(n)
    assert rep.calling_sequence.split() == run.cmd[3:]  # the core's argv, as IMB echoes it
    assert (rep.user_defined_lengths, rep.min_length, rep.max_length) == (False, 0, 16)
    assert (rep.datatype, rep.red_datatype) == ("MPI_BYTE", "MPI_FLOAT")
    assert rep.benchmarks == EXPECTED_LIST
    assert rep.invalid == []


@pytest.mark.parametrize("n", RANKS)
def test_tables_follow_the_process_sweep(full_run, n):
    rep = full_run(n).report
    assert [t.key for t in rep.tables] == expected_tables(n)
    # spelled out for the brief's cases
    counts = {name: [t.processes for t in rep.tables_of(name)] for name in EXPECTED_LIST}
    assert counts["Sendrecv"] == {2: [2], 3: [2, 3], 4: [2, 4]}[n]
    assert counts["Uniband"] == counts["Biband"] == {2: [2], 3: [2], 4: [2, 4]}[n]
    assert all(counts[b] == [2] for b in imbtext.SINGLE)


@pytest.mark.parametrize("n", RANKS)
def test_every_table_has_imb_header_lines(full_run, n):
    for t in full_run(n).report.tables:
        where = f"{t.name} on {t.processes} (line {t.lineno})"
        assert not t.multi_prefix, where
        assert t.columns == imbtext.expected_columns(t.name), where
        assert t.dash_len - 1 == len(t.columns) * 13 - 1, where  # '#' + ncols*13-1 dashes
        assert t.groups is None and t.grid is None, where
        assert t.idle == n - t.processes, where


@pytest.mark.parametrize("n", RANKS)
def test_idle_line_text(full_run, n):
    """Exactly the tables with idle ranks carry the line, singular for one."""
    lines = full_run(n).stdout.splitlines()
    idle_lines = [x for x in lines if "waiting in MPI_Barrier" in x]
    tables = full_run(n).report.tables
    assert len(idle_lines) == sum(1 for t in tables if t.processes < n)
    for t in tables:
        k = n - t.processes
        if k:
            word = "process" if k == 1 else "processes"
            assert f"# ( {k} additional {word} waiting in MPI_Barrier)" in idle_lines


@pytest.mark.parametrize("n", RANKS)
def test_rows_cover_the_message_sizes(full_run, n):
    for t in full_run(n).report.tables:
        where = f"{t.name} on {t.processes}"
        assert all(r.status == "ok" for r in t.rows), where
        if t.name in imbtext.SYNC:
            assert len(t.rows) == 1 and "#bytes" not in t.rows[0].fields, where
        else:
            unit = imbtext.unit_of(t.name)
            assert [r.bytes for r in t.rows] == imbtext.msglog_sizes(0, 4, unit), where
        for r in t.rows:
            assert 1 <= r.as_int("#repetitions") <= 50, (where, r.line)


@pytest.mark.parametrize("n", RANKS)
def test_reductions_start_0_4_8(full_run, n):
    rep = full_run(n).report
    for name in imbtext.REDUCTIONS:
        for t in rep.tables_of(name):
            assert [r.bytes for r in t.rows][:3] == [0, 4, 8], name


def test_single_rank_declares_pair_benchmarks_invalid():
    run = run_core(1, "mpi1", *INCLUDE_ALL, "-msgsize", "0,4", "-iter", "5")
    assert run.returncode == 0, run.describe()
    rep = run.report
    assert [name for name, _ in rep.invalid] == [b for b in EXPECTED_LIST
                                                 if b in imbtext.SINGLE | imbtext.MSGRATE]
    assert [t.key for t in rep.tables] == [(b, 1) for b in EXPECTED_LIST
                                           if b not in imbtext.SINGLE | imbtext.MSGRATE]
    invalid_events = run.events("invalid_process_count")
    assert [e["benchmark"] for e in invalid_events] == [name for name, _ in rep.invalid]


def test_closing_line(full_run):
    out = full_run(2).stdout
    assert out.endswith("\n\n\n# All processes entering MPI_Finalize\n\n")
    assert out.count("# All processes entering MPI_Finalize") == 1


def test_exact_table_text(full_run):
    """One table checked character by character against IMB's format."""
    lines = full_run(3).stdout.splitlines()
    start = lines.index("# Benchmarking PingPong ")
    assert lines[start - 2: start + 5] == [
        "",
        "#" + "-" * 51,
        "# Benchmarking PingPong ",
        "# #processes = 2 ",
        "# ( 1 additional process waiting in MPI_Barrier)",
        "#" + "-" * 51,
        "       #bytes #repetitions      t[usec]   Mbytes/sec",
    ]
    start = lines.index("# Benchmarking Barrier ")
    assert lines[start - 1: start + 5] == [
        "#" + "-" * 51,
        "# Benchmarking Barrier ",
        "# #processes = 2 ",
        "# ( 1 additional process waiting in MPI_Barrier)",
        "#" + "-" * 51,
        " #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]",
    ]


# The parser must catch a deviation in each rule; otherwise the layout tests
# above could not fail. Each mutation breaks one rule in a real output.
MUTATIONS = {
    "title without trailing space": ("# Benchmarking Sendrecv \n", "# Benchmarking Sendrecv\n"),
    "dash line one short": ("\n#" + "-" * 77 + "\n# Benchmarking Sendrecv",
                            "\n#" + "-" * 76 + "\n# Benchmarking Sendrecv"),
    "processes without trailing space": ("# #processes = 3 \n", "# #processes = 3\n"),
    "idle line plural for one": ("( 1 additional process waiting", "( 1 additional processes waiting"),
    "header token left-aligned": ("       #bytes #repetitions      t[usec]",
                                  "#bytes        #repetitions      t[usec]"),
    "row field wider than 13": ("\n            0 ", "\n             0 "),
    "missing blank line before a table": ("\n\n#-----", "\n#-----"),
    "list line without '# '": ("\n# Biband\n", "\nBiband\n"),
    "closing line missing": ("# All processes entering MPI_Finalize\n", ""),
    "MPI_Op without two trailing spaces": ("MPI_SUM  \n", "MPI_SUM\n"),
}


@pytest.mark.parametrize("what", MUTATIONS)
def test_parser_rejects_layout_deviations(full_run, what):
    good = full_run(3).stdout
    old, new = MUTATIONS[what]
    assert old in good, f"mutation {what!r} does not apply"
    with pytest.raises(imbtext.ParseError):
        imbtext.parse(good.replace(old, new, 1))
