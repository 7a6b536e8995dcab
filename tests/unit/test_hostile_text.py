"""Names, hosts and messages from outside (issue 23, items 7-10): refused at import when they are benchmark
names nothing describes, and shown as text by every output when they got in some other way (an older
database): no raw control character on a terminal, no CSV row split, no Markdown heading, link or image."""

from __future__ import annotations

import copy
import csv
import io
import re
from pathlib import Path

import pytest

from mpimark.execution.core import benchmark_facts
from mpimark.presentation.cells import markdown, terminal
from mpimark.storage import studies
from mpimark.storage.store import Store

from .cli_helpers import assert_one_error_line, invoke
from .conftest import store_records
from .records import end_record, event_record, result_record, run_record

DATA = Path(__file__).parent / "data" / "hostile"
# Benchmark names a stream may carry (issue 23, item 7), each with what it would do to an output.
HOSTILE_NAMES = [
    "<script>alert(1)</script>",  # HTML
    "\r=1+1",  # a row split and a spreadsheet formula
    "PingPong\n# heading",  # a Markdown heading
    "\x1b]0;owned\x07\x1b[2J",  # a terminal's title and a cleared screen
    "[link](http://x)",  # a Markdown link
    "![img](http://y)",  # a Markdown image
    "$x$",  # matplotlib's (and GitHub's) math
    "Ping Pong",  # a space: not a name any tool prints
]
ESCAPES = "\x1b]0;owned\x07\x1b[2J\x9b31m\r"
# What a terminal obeys: C0 controls but newline and tab, DEL, C1.
RAW_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


# -- import refuses them (item 7) ---------------------------------------------------------------------


def _stream(name: str) -> list[dict]:
    return [run_record(), result_record(benchmark=name), end_record()]


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_import_refuses_a_malformed_benchmark_name(write_jsonl, tmp_path, name):
    path = write_jsonl(_stream(name))
    db = tmp_path / "results.db"
    result = invoke("import", str(path), "--db", str(db))
    line = assert_one_error_line(result)
    assert f"{path}:2:" in line and repr(name) in line and "not a plausible name" in line
    assert not RAW_CONTROL.search(result.output)
    assert not db.exists() or invoke("runs", "--db", str(db)).stdout.startswith("no runs")


def test_import_refuses_a_name_nothing_describes(write_jsonl, tmp_path):
    result = invoke("import", str(write_jsonl(_stream("NoSuchBench"))), "--db", str(tmp_path / "results.db"))
    line = assert_one_error_line(result)
    assert ":2: unknown benchmark 'NoSuchBench' in suite 'mpi1'" in line


def _own_facts(name: str) -> dict:
    """The core's mpi1 facts with one more benchmark, as a newer core would describe it."""
    mpi1 = copy.deepcopy(next(s for s in benchmark_facts() if s["name"] == "mpi1"))
    mpi1["benchmarks"].append({**mpi1["benchmarks"][0], "name": name})
    return mpi1


def test_a_name_the_streams_own_facts_describe_is_imported(write_jsonl, tmp_path):
    run = {**run_record(), "benchmark_facts": _own_facts("PingPongNext")}
    path = write_jsonl([run, result_record(benchmark="PingPongNext"), end_record()])
    result = invoke("import", str(path), "--db", str(tmp_path / "results.db"))
    assert result.exit_code == 0, result.output


def test_the_streams_own_facts_must_hold_names(write_jsonl, tmp_path):
    run = {**run_record(), "benchmark_facts": _own_facts("<b>x</b>")}
    result = invoke("import", str(write_jsonl([run, end_record()])), "--db", str(tmp_path / "results.db"))
    assert "'<b>x</b>': not a plausible name" in assert_one_error_line(result)


@pytest.mark.parametrize("fixture, line, name", [
    ("names_imb_escape.txt", 12, "\x1b[2JPingPong"),
    ("names_imb_markup.txt", 12, "[PingPong](http://x)"),
    ("names_mpibench_html.txt", 4, "<b>Bcast</b>"),
    ("names_mpibench_unknown.txt", 4, "Bcastt"),
])
def test_peer_outputs_refuse_them_too(tmp_path, fixture, line, name):
    path = DATA / fixture
    result = invoke("import", str(path), "--np", "2", "--db", str(tmp_path / "results.db"))
    error = assert_one_error_line(result)
    assert f"{path}:{line}:" in error and repr(name) in error
    assert not RAW_CONTROL.search(result.output)


def test_the_same_peer_output_with_a_real_name_imports(tmp_path):
    result = invoke("import", str(DATA / "names_imb_plain.txt"), "--db", str(tmp_path / "results.db"))
    assert result.exit_code == 0, result.output


# -- outputs show them as text (items 8-10) -----------------------------------------------------------


def _hostile_run(benchmark: str = "PingPong") -> list[dict]:
    run = run_record()
    run["mpi"] = {**run["mpi"], "library_version": f"Open MPI v4.1.4{ESCAPES}"}
    run["hosts"] = [f"node1{ESCAPES}", "\r=1+1", "n\n# heading [link](http://x) ![img](http://y)",
                    "<script>alert(1)</script>"]
    event = {**event_record(), "level": "warning", "kind": "timer", "message": f"the timer{ESCAPES}warns"}
    return [run, event, result_record(benchmark=benchmark, datatype="MPI_BYTE\r=1+1"),
            result_record(bytes=8, count=8, datatype="\x1b[2J[x](y)"), end_record()]


@pytest.fixture
def db(tmp_path):
    """An older database: what import refuses today, stored with the Store API as an older mpimark did."""
    path = tmp_path / "results.db"
    with Store(path) as store:
        a = store_records(store, _hostile_run(), mpi_name=f"open{ESCAPES}mpi", status="complete")
        b = store_records(store, _hostile_run(), mpi_name="\r=1+1\n# mpich", status="complete")
        c = store_records(store, _hostile_run("PingPong\n# heading"), status="complete")
        studies.add_run(store, "s", a, LABEL_A)
        studies.add_run(store, "s", b, "y\r=1+1\n# heading")
        assert c == 3
    return path


def _clean_terminal(result) -> None:
    assert not RAW_CONTROL.search(result.output), repr(result.output)
    assert "Traceback" not in result.output


@pytest.mark.parametrize("args", [["runs"], ["show", "1"], ["show", "--stats", "1"], ["show", "2"],
                                  ["compare", "1", "2"], ["compare", "s"], ["study", "list", "s"],
                                  ["show", "3"], ["export", "1", "--format", "imb"], ["export", "3", "--format", "imb"]])
def test_no_raw_control_character_reaches_the_terminal(db, args):
    result = invoke(*args, "--db", str(db))
    _clean_terminal(result)
    # a host's or a label's newline is written out, not obeyed
    assert not any(line.startswith("# heading") for line in result.output.splitlines())
    if args[-1] in ("1", "2"):
        assert result.exit_code == 0, result.output
        assert "\\x1b]0;owned\\x07" in result.stdout  # shown, as an escape


@pytest.mark.parametrize("args", [["show", "3"], ["export", "3", "--format", "imb"]])
def test_a_stored_name_no_facts_describe_names_the_run_and_what_still_writes_it(db, args):
    result = invoke(*args, "--db", str(db))
    assert result.exit_code == 1
    line = assert_one_error_line(result)
    assert line.startswith("mpimark: error: run 3 holds the benchmark 'PingPong\\n# heading', which neither")
    assert line.endswith("'mpimark export 3 --format json' (or csv) still writes every record")
    assert invoke("export", "3", "--format", "json", "--db", str(db)).exit_code == 0
    assert invoke("export", "3", "--format", "markdown", "--db", str(db)).exit_code == 0  # needs no facts


def _csv_rows(text: str, firsts: set[str] | None = None) -> list[list[str]]:
    """The rows, checked: no cell a formula; firsts, the first cells a row may have (a split row starts with a
    piece of a cell); without it, every row as long as the header."""
    assert not re.search(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]", text)  # tab, CR, newline: inside quotes
    rows = list(csv.reader(io.StringIO(text, newline="")))
    if firsts is None:
        assert len({len(row) for row in rows}) == 1, rows
    else:
        assert {row[0] for row in rows} <= firsts, rows
    for cell in (cell for row in rows for cell in row):
        if cell[:1] in ("=", "+", "-", "@", "\t", "\r"):
            float(cell)  # only numbers may start so
    return rows


LABEL_A = f"x{ESCAPES}[link](http://x)"


@pytest.mark.parametrize("args, rows, firsts", [
    (["export", "1", "--format", "csv"], 3, None),
    (["export", "3", "--format", "csv"], 3, None),
    (["export", "s", "--format", "csv"], None, None),
    (["compare", "1", "2", "--format", "csv"], None, {"benchmark", "PingPong", "geomean", "geomean:PingPong"}),
    (["compare", "s", "--format", "csv"], None, {"a", terminal(LABEL_A).replace("\\r", "\r")}),
])
def test_csv_keeps_every_cell_whole(db, args, rows, firsts):
    result = invoke(*args, "--db", str(db))
    assert result.exit_code == 0, result.output
    found = _csv_rows(result.stdout, firsts)
    assert rows is None or len(found) == rows
    assert any("\r=1+1" in cell for row in found for cell in row) or args[:3] == ["compare", "1", "2"]


def test_csv_quotes_text_and_leaves_numbers():
    from mpimark.presentation.cells import csv_writer

    out = io.StringIO()
    csv_writer(out).writerow(["a\rb", "\r=1+1", 1.5, 3, None, "PingPong", "\x1b]0;t\x07"])
    assert out.getvalue() == '"a\rb","\'\r=1+1",1.5,3,"","PingPong","\\x1b]0;t\\x07"\n'


# Our own headings: the document's, and one per table.
OWN_HEADING = re.compile(r"^#{1,3} ")


def _pipes(line: str) -> int:
    return len(re.findall(r"(?<!\\)\|", line))


def _markdown_is_text(text: str) -> None:
    assert "<script" not in text and "\x1b" not in text and "\r" not in text
    assert not re.search(r"(?<!\\)\]\(", text)  # no link nor image: each "](" escaped
    header = None  # the unescaped pipes of the table's header line
    for line in text.splitlines():
        assert not line.startswith("#") or OWN_HEADING.match(line), line
        assert "# heading" not in line or "\\# heading" in line or not line.startswith("# heading"), line
        if line.startswith("|"):
            header = header or _pipes(line)
            assert _pipes(line) == header, line  # no row injected, no cell split
        else:
            header = None
    assert not any(line.startswith(("# heading", "#heading")) for line in text.splitlines())


@pytest.mark.parametrize("args", [["export", "1", "--format", "markdown"], ["export", "3", "--format", "markdown"],
                                  ["compare", "1", "2", "--format", "markdown"],
                                  ["compare", "s", "--format", "markdown"]])
def test_markdown_injects_no_heading_link_or_row(db, args):
    result = invoke(*args, "--db", str(db))
    assert result.exit_code == 0, result.output
    _markdown_is_text(result.stdout)


def test_markdown_escapes_what_would_act():
    assert markdown("a\n# h") == "a # h"
    assert markdown("# h", cell=False) == "\\# h"
    assert markdown("[l](x) ![i](y) [r]: z") == "[l\\](x) ![i\\](y) [r\\]: z"
    assert markdown("t_min[usec] Reduce_scatter _x_ *b* `c` $x$") == \
        "t_min[usec] Reduce_scatter \\_x\\_ \\*b\\* \\`c\\` \\$x\\$"


def test_terminal_shows_escapes_and_keeps_layout():
    assert terminal(ESCAPES) == "\\x1b]0;owned\\x07\\x1b[2J\\x9b31m\\r"
    assert terminal("a\nb\tc") == "a\\nb\\tc" and terminal("a\nb\tc", layout=True) == "a\nb\tc"
    assert terminal("\u202eevil") == "\\u202eevil"


def test_summary_of_a_hostile_stream(write_jsonl):
    path = write_jsonl(_hostile_run())
    table = invoke("summary", str(path))
    _clean_terminal(table)
    assert table.exit_code == 0, table.output
    text = invoke("summary", str(path), "--format", "markdown")
    assert text.exit_code == 0, text.output
    _markdown_is_text(text.stdout)
    _csv_rows(invoke("summary", str(path), "--format", "csv").stdout)


@pytest.mark.filterwarnings("error:Glyph")  # a control character in a plot's label: matplotlib has no glyph
def test_report_escapes_html(db, tmp_path):
    out = tmp_path / "report.html"
    result = invoke("report", "1", "2", "-o", str(out), "--db", str(db))
    _clean_terminal(result)
    assert result.exit_code == 0, result.output
    html = out.read_text(encoding="utf-8")
    assert "<script>alert(1)</script>" not in html and "&lt;script&gt;" in html


def test_plot_labels_are_text():
    from mpimark.presentation.plots import _text

    assert _text(f"$x$ {ESCAPES}") == "\\$x\\$ \\x1b]0;owned\\x07\\x1b[2J\\x9b31m\\r"


def test_an_algorithm_studys_markdown_keeps_labels_text():
    from mpimark.analysis.algorithms import Verdict
    from mpimark.presentation.algorithms import gains_markdown, markdown as study_markdown

    hostile = "x\n# heading [link](http://x) <script>"
    verdict = Verdict(rows=[], excluded_runs=[(3, hostile, "a\n# reason")], unfinished=[(4, hostile, "died")])
    for text in (study_markdown(verdict, f"study {hostile}"), gains_markdown([], f"tuned {hostile}")):
        _markdown_is_text(text)
