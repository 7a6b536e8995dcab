"""plots: which figures are drawn from stored runs, and that the files are real PNG and SVG."""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree

import pytest

from mpimark.presentation import plots
from mpimark.storage.selection import load
from mpimark.storage.store import Store

from .cli_helpers import assert_one_error_line, invoke
from .conftest import store_records
from .records import run_record
from .sweeps import store_sweeps

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    path = tmp_path_factory.mktemp("plots") / "results.db"
    store_sweeps(path, ("Open MPI v5.0.11, package: Open MPI", 1.0, None), ("MPICH Version: 4.2.0", 1.5, None))
    return path


@pytest.fixture(scope="module")
def series(db):
    with Store(db, create=False) as store:
        return load(store, ["1", "2"])


def test_one_time_plot_per_benchmark_and_process_count_and_bandwidth_where_imb_has_it(series):
    names = {p.name for p in plots.size_plots(series)}
    assert names == {
        "PingPong-np2-time", "PingPong-np2-bandwidth", "PingPing-np2-time", "PingPing-np2-bandwidth",
        "Sendrecv-np2-time", "Sendrecv-np2-bandwidth", "Sendrecv-np4-time", "Sendrecv-np4-bandwidth",
        "Allreduce-np2-time", "Allreduce-np4-time",  # no bandwidth for collectives; Barrier has no size > 0
    }


def test_runs_are_overlaid_with_the_library_name_and_a_ci_band(series):
    plot = next(p for p in plots.size_plots(series) if p.name == "PingPong-np2-time")
    axes = plot.figure.axes[0]
    assert [t.get_text() for t in axes.get_legend().get_texts()] == ["Open MPI 5.0.11", "MPICH 4.2.0"]
    assert len(axes.lines) == 2 and len(axes.collections) == 2  # a line and an interval band per run
    assert axes.get_xscale() == "log" and axes.get_yscale() == "log"
    x, y = axes.lines[0].get_data()
    assert list(x) == [1 << k for k in range(0, 21, 2)]  # the 0-byte row has no place on a log axis
    assert y[0] == pytest.approx(1.0 + 1 / 5000)


def test_collectives_against_process_count_at_one_mebibyte(series):
    scaling = {p.name: p for p in plots.scaling_plots(series)}
    assert set(scaling) == {"Allreduce-scaling-1048576B", "Barrier-scaling-0B"}
    x, _ = scaling["Allreduce-scaling-1048576B"].figure.axes[0].lines[0].get_data()
    assert list(x) == pytest.approx([2, 4], rel=0.05)  # the series drawn a little apart, not hiding each other
    assert [t.get_text() for t in scaling["Allreduce-scaling-1048576B"].figure.axes[0].texts] == [
        "band: 95 % CI of the median (one run) or range of the runs; series drawn slightly apart around each "
        "process count"]
    assert {p.name for p in plots.scaling_plots(series, 4096)} == {"Allreduce-scaling-4096B", "Barrier-scaling-0B"}
    assert {p.name for p in plots.scaling_plots(series, 12345)} == {"Barrier-scaling-0B"}  # no such size


def test_png_and_svg_files(series, tmp_path):
    chosen = [p for p in plots.size_plots(series) if p.name == "Sendrecv-np4-bandwidth"]
    png, = plots.write(chosen, tmp_path / "png", "png")
    data = png.read_bytes()
    assert png.name == "Sendrecv-np4-bandwidth.png"
    assert data.startswith(PNG_SIGNATURE) and len(data) > 10_000
    svg, = plots.write(chosen, tmp_path / "svg", "svg")
    root = ElementTree.fromstring(svg.read_bytes())
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert len(svg.read_bytes()) > 10_000


def test_labels_are_plain_text(tmp_path):
    # "$" would start matplotlib's math mode and a leading "_" hide the legend entry.
    path = tmp_path / "odd.db"
    store_sweeps(path, ("_$weird MPI", 1.0, None), ("<b>MPI</b> $x_1", 2.0, None))
    with Store(path, create=False) as store:
        plot = plots.size_plots(load(store, ["1", "2"]))[0]
    labels = [t.get_text() for t in plot.figure.axes[0].get_legend().get_texts()]
    assert labels == [" _\\$weird MPI", "<b>MPI</b> \\$x_1"]
    assert plots.render(plot.figure, "png").startswith(PNG_SIGNATURE)


def test_plot_command_writes_the_files(db, tmp_path):
    out = tmp_path / "plots"
    result = invoke("plot", "1", "2", "-o", str(out), "--format", "svg", "--size", "4K", "--db", str(db))
    assert result.exit_code == 0, result.stderr
    written = result.stdout.split()
    assert str(out / "PingPong-np2-time.svg") in written and str(out / "Allreduce-scaling-4096B.svg") in written
    assert all((out / name).stat().st_size > 10_000 for name in (p.rsplit("/", 1)[1] for p in written))


def test_plot_command_errors(tmp_path):
    db = tmp_path / "empty.db"
    with Store(db) as store:
        store_records(store, [run_record()])
    assert "nothing to plot" in assert_one_error_line(invoke("plot", "1", "-o", str(tmp_path), "--db", str(db)))
    assert_one_error_line(invoke("plot", "1", "-o", str(tmp_path), "--size", "lots", "--db", str(db)), 2)


def test_an_implementation_keeps_its_colour_and_sizes_read_1k_1m(series):
    colours = {}
    for plot in plots.size_plots(series) + plots.scaling_plots(series):
        for line in plot.figure.axes[0].lines:
            if line.get_label().startswith("_"):
                continue
            colours.setdefault(line.get_label(), set()).add(line.get_color())
    assert colours and all(len(found) == 1 for found in colours.values())
    assert len({next(iter(found)) for found in colours.values()}) == len(colours)
    assert [plots.size_label(v) for v in (1, 512, 1024, 65536, 1 << 20, 3 << 29)] == ["1", "512", "1K", "64K", "1M",
                                                                                       "1.5G"]


def test_a_wild_band_is_clipped_and_said(series):
    run = series[0].runs[0]
    record = next(r for r in run.results if r["benchmark"] == "PingPong" and r["bytes"] == 1024)
    record["distribution"] = {**record["distribution"], "ci_high_usec": 1e6}
    plot = next(p for p in plots.size_plots(series) if p.name == "PingPong-np2-time")
    axes = plot.figure.axes[0]
    assert axes.get_ylim()[1] < 1e5 and "clipped" in axes.texts[0].get_text()
