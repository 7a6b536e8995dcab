"""Names and labels from outside cannot become spreadsheet formulas (CSV) or HTML (Markdown)."""

from __future__ import annotations

import ast
import csv
import io
from pathlib import Path

import pytest

import mpimark
from mpimark.presentation.cells import csv_cell, markdown
from mpimark.presentation.export import export
from mpimark.storage import studies
from mpimark.storage.store import Store

from .cli_helpers import invoke
from .conftest import store_records
from .records import end_record, result_record, run_record

FORMULA = "=HYPERLINK(\"http://x\",\"y\")"
HTML = "<script>alert(1)</script><img src=x onerror=alert(2)> & a|b"


@pytest.mark.parametrize("text", ["=1+2", "+1+2", "-1+cmd", "@SUM(A1)", "\tx", "\rx"])
def test_a_formula_gets_a_leading_quote(text):
    assert csv_cell(text) == "'" + text


@pytest.mark.parametrize("value", [-1.5, "-1.5", "1e-3", 0, "PingPong", "", "'=x"])
def test_numbers_and_plain_text_stay(value):
    assert csv_cell(value) == value


def test_markdown_escapes_html_and_pipes():
    assert markdown(HTML) == ("&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt; "
                              "&amp; a\\|b")


def test_every_csv_writer_goes_through_cells():
    """csv.writer appears in cells.py alone: a new CSV writer cannot forget the formula check."""
    package = Path(mpimark.__file__).parent
    users = []
    for path in package.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr in ("writer", "DictWriter") \
                    and isinstance(node.value, ast.Name) and node.value.id == "csv":
                users.append(path.name)
    assert set(users) == {"cells.py"}


def _hostile_run() -> list[dict]:
    run = run_record()
    run["mpi"] = {**run["mpi"], "library_version": HTML}
    run["hosts"] = [FORMULA]
    return [run, result_record(datatype=FORMULA, samples_ns=[1000.0 + i for i in range(10)]),
            result_record(bytes=8, count=8, mbytes_per_sec=-1.5), end_record()]


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "results.db"
    with Store(path) as store:
        a = store_records(store, _hostile_run(), mpi_name=FORMULA, status="complete")
        b = store_records(store, _hostile_run(), mpi_name="-2+3", status="complete")
        studies.add_run(store, "s", a, "@evil")
        studies.add_run(store, "s", b, FORMULA)
    return path


def _cells(text: str) -> list[str]:
    return [cell for row in csv.reader(io.StringIO(text)) for cell in row]


def _no_formula(cells: list[str]) -> None:
    for cell in cells:
        if cell[:1] in ("=", "+", "-", "@", "\t", "\r"):
            float(cell)  # only numbers may start so


def test_export_csv_neutralises_names(db):
    with Store(db) as store:
        text = export(store.run(1), store.records(1), "csv")
    cells = _cells(text)
    assert "'" + FORMULA in cells and "-1.5" in cells
    _no_formula(cells)


def test_compare_csv_neutralises_labels(db):
    for args in (["1", "2"], ["s"]):
        result = invoke("compare", *args, "--format", "csv", "--db", str(db))
        assert result.exit_code == 0, result.output
        _no_formula(_cells(result.stdout))
    assert "'" + FORMULA in _cells(invoke("compare", "s", "--format", "csv", "--db", str(db)).stdout)


def test_markdown_exports_carry_no_html(db):
    texts = [invoke("export", "1", "--format", "markdown", "--db", str(db)).stdout,
             invoke("compare", "1", "2", "--format", "markdown", "--db", str(db)).stdout,
             invoke("compare", "s", "--format", "markdown", "--db", str(db)).stdout]
    for text in texts:
        assert "<script>" not in text and "<img" not in text and text.strip()
    assert "&lt;script&gt;" in texts[0]
