"""report: one self-contained HTML file that parses, holds the tables and plots, and escapes what came from outside."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest

from mpimark.presentation import report
from mpimark.storage import studies
from mpimark.storage.selection import load
from mpimark.storage.store import Store

from .cli_helpers import assert_one_error_line, invoke
from .sweeps import store_sweeps

INJECTION = "<script>alert(1)</script>"
VOID = {"meta", "img", "br", "hr", "link", "input", "col", "source", "wbr"}


class Page(HTMLParser):
    """Tags, their nesting, text, and every attribute value that could load something."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.tags: list[str] = []
        self.errors: list[str] = []
        self.sources: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.sources += [value for name, value in attrs if name in ("src", "href") and value]
        if tag not in VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1] if self.stack else 'nothing'}")
        else:
            self.stack.pop()

    def handle_data(self, data):
        self.text.append(data)


def parse(html: str) -> Page:
    page = Page()
    page.feed(html)
    page.close()
    assert page.errors == [] and page.stack == [], (page.errors, page.stack)
    return page


# Module scope: rendering a report draws a dozen plots; the tests only read it.
@pytest.fixture(scope="module")
def db(tmp_path_factory):
    path = tmp_path_factory.mktemp("report") / "results.db"
    store_sweeps(path, ("Open MPI v5.0.11, package: Open MPI", 1.0, [INJECTION, "node2"]),
                 ("MPICH Version: 4.2.0 <b>bold</b>", 1.5, None))
    return path


@pytest.fixture(scope="module")
def html(db):
    with Store(db, create=False) as store:
        return report.render(load(store, ["1", "2"]))


def test_the_report_parses_and_is_self_contained(html):
    page = parse(html)
    assert page.tags.count("html") == 1 and "script" not in page.tags
    assert page.sources and all(src.startswith("data:image/png;base64,") for src in page.sources)
    assert "http://" not in html and "https://" not in html  # nothing to fetch from anywhere


def test_outside_text_is_escaped(html):
    assert INJECTION not in html and "<b>bold</b>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    page = parse(html)
    assert INJECTION in "".join(page.text)  # shown to the reader as text
    assert "MPICH Version: 4.2.0 <b>bold</b>" in "".join(page.text)


def test_plots_per_benchmark_and_riken_tables(html):
    page = parse(html)
    assert page.tags.count("img") == 12  # 10 size plots + Allreduce and Barrier against process count
    assert "PingPong, 2 processes" in html and "Allreduce against process count" in html
    # RIKEN's columns: time in seconds, throughput in MB/s, per series.
    # The library as records/mpi_library.label() names it (the rest of its text is in the metadata).
    assert "Open MPI 5.0.11: Communication time [sec]" in html and "MPICH 4.2.0: Throughput [MB/s]" in html
    # PingPong at 1 MiB for Open MPI: (1 + 1048576/5000) usec = 2.107E-04 s.
    assert "2.11E-04" in html
    assert "Allreduce: communication time [sec]" in html and "Open MPI 5.0.11: 4 procs" in html


def test_implementations_are_compared_in_the_aramco_tables(html):
    assert "Single transfer benchmarks at 1048576 bytes" in html
    assert "Sendrecv: bandwidth [MB/s] at 1048576 bytes" in html
    assert "Allreduce: time [usec] at 1048576 bytes" in html and "Barrier: time [usec] at 0 bytes" in html
    # PingPong bandwidth at the median: IMB's factor 1 * 1048576 B / 210.7152 usec = 4976.27 MB/s.
    assert "4976.27" in html


def test_run_metadata(html):
    for text in ("Open MPI v5.0.11, package: Open MPI", "mpiexec -n 2 mpimark-core mpi1", "OMPI_MCA_btl=self,vader",
                 "2025-01-02T03:04:05Z"):
        assert text in html
    assert "HOME=/root" not in html  # the store keeps only the variables that steer MPI


def test_a_single_run_has_no_comparison_section(db):
    with Store(db, create=False) as store:
        html = report.render(load(store, ["1"]))
    parse(html)
    assert "Implementations compared" not in html and "Communication time [sec]" in html


def test_report_command_with_a_study(db, tmp_path):
    with Store(db) as store:
        studies.add_run(store, "eval", 1, "ompi")
        studies.add_run(store, "eval", 2, "mpich")
    out = tmp_path / "report.html"
    result = invoke("report", "eval", "-o", str(out), "--size", "4096", "--db", str(db))
    assert result.exit_code == 0, result.stderr
    html = out.read_text(encoding="utf-8")
    parse(html)
    assert "Single transfer benchmarks at 4096 bytes" in html and "<th scope=\"row\">ompi</th>" in html
    assert "unknown" in assert_one_error_line(invoke("report", "unknown", "-o", str(out), "--db", str(db)))
