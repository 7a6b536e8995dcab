"""`mpimark matrix` with the real MPIs of this machine: a study under three implementations.

Open MPI and MPICH come from Debian, Intel MPI from its pinned wheels, which
`mpimark mpi install impi` puts into a prefix of this test session (the
wheel files stay in the user data directory, so a rerun downloads nothing).
One tiny study is made for the module and read by every test; its report is
rendered once in headless Chromium (Debian's `chromium`, which
scripts/setup.sh installs with MPIMARK_CHROMIUM=1) for the screenshot and
DOM checks.
"""

from __future__ import annotations

import json
import re
import os
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from mpimark.storage import studies
from mpimark.storage.store import Store

from .conftest import mpimark

TINY = ("PingPong", "Allreduce", "-msglog", "0:4", "-time", "10", "-iter", "20")
COUNTS = (2, 4)
STUDY = "three"
CHROMIUM_TIMEOUT_S = 180  # a cold start on a loaded machine
WINDOW = (1400, 4000)


@pytest.fixture(scope="session")
def intel_mpi(tmp_path_factory):
    """The environment that makes Intel MPI findable, and why it is not there (None when it is).

    The installation (300 MB unpacked) goes when the session ends; the wheel files stay cached."""
    home = tmp_path_factory.mktemp("mpis")
    env = {"MPIMARK_MPI_HOME": str(home),
           # Without network, fail within a minute rather than after pip's five retries of 15 s each.
           "PIP_RETRIES": "1", "PIP_TIMEOUT": "20"}
    try:
        done = mpimark("mpi", "install", "impi", timeout=900, env=env)
        why = None
        if done.returncode != 0:
            lines = [line for line in done.stderr.splitlines() if line.strip()]
            why = ("the Intel MPI wheels could not be installed (is PyPI reachable?): "
                   + (lines[-1] if lines else f"exit status {done.returncode}"))
    except subprocess.TimeoutExpired:
        why = "installing the Intel MPI wheels took more than 15 minutes"
    yield env, why
    shutil.rmtree(home, ignore_errors=True)


@pytest.fixture(scope="module")
def study(available, intel_mpi, tmp_path_factory):
    env, intel_missing = intel_mpi
    names = [name for name in ("openmpi", "mpich") if name in available] + ([] if intel_missing else ["impi"])
    if len(names) < 2:
        pytest.skip(f"a study needs two MPI implementations; found {names or 'none'}")
    db = tmp_path_factory.mktemp("study") / "results.db"
    result = mpimark("matrix", "--mpi", ",".join(names), "-n", ",".join(map(str, COUNTS)), "--study", STUDY,
                     "--db", str(db), "--timeout", "150", *TINY, timeout=900, env=env)
    return names, db, env, result


def test_the_study_holds_every_launch_in_order(study):
    names, db, _, result = study
    assert result.returncode == 0, result.stderr
    with Store(db, create=False) as store:
        members = studies.members(store, STUDY)
        rows = {m.run_id: store.run(m.run_id) for m in members}
        label = {m.run_id: m.implementation for m in members}
        first = {run_id: store.records(run_id)[0] for run_id in rows}
    expected = [(name, n) for n in COUNTS for name in names]  # one round, round robin
    assert [(label[i], rows[i].requested_processes) for i in sorted(rows)] == expected
    for run_id, row in rows.items():
        assert (row.status, row.processes) == ("complete", row.requested_processes), row.status_message
        assert first[run_id]["type"] == "run" and row.mpi_library_version == first[run_id]["mpi"]["library_version"]
        assert row.launch_command[-4:-2] == ["-npmin", str(row.requested_processes)]
        assert {"PingPong", "Allreduce"} <= set(first[run_id]["benchmarks"])
    vendors = {label[i]: rows[i].mpi_library_version.split()[0] for i in rows}
    assert {vendors.get("openmpi", "Open"), vendors.get("mpich", "MPICH"), vendors.get("impi", "Intel(R)")} == {
        "Open", "MPICH", "Intel(R)"}
    for name in names:
        assert f"│ {name} " in result.stdout  # the summary table
    assert f"mpimark compare {STUDY} --db {db}" in result.stdout


@pytest.mark.network
def test_intel_mpi_runs_beside_the_system_mpis(study, intel_mpi):
    names, db, env, _ = study
    if intel_mpi[1]:
        pytest.skip(intel_mpi[1])
    home = Path(env["MPIMARK_MPI_HOME"])
    with Store(db, create=False) as store:
        rows = [store.run(m.run_id) for m in studies.members(store, f"{STUDY}") if m.implementation == "impi"]
    assert len(rows) == len(COUNTS)
    for row in rows:
        assert row.mpi_library_version.startswith("Intel(R) MPI Library 2021.18.1")
        assert row.mpi_name == "impi-wheel" and row.mpi_prefix == str(home / "impi")
        assert row.launch_command[0] == str(home / "impi" / "bin" / "mpiexec")
        assert row.environment["I_MPI_ROOT"] == str(home / "impi")
    # Nothing of it on PATH: the system's launcher is still the system's.
    assert not str(shutil.which("mpiexec") or "").startswith(str(home))
    listed = mpimark("mpi", "list", env=env)
    assert "impi-wheel" in listed.stdout and "openmpi" in listed.stdout and "mpich" in listed.stdout


def test_compare_shows_every_implementation(study):
    names, db, env, result = study
    assert result.returncode == 0, result.stderr
    table = mpimark("compare", STUDY, "--db", str(db), env=env)
    assert table.returncode == 0, table.stderr
    others = ", ".join(names[1:])
    assert f"{others}  against  {names[0]}" in table.stdout
    for name in names:
        assert f"{name} [usec]" in table.stdout
    libraries = {"openmpi": "openmpi: Open MPI 4.", "mpich": "mpich: MPICH 4.", "impi": "impi: Intel MPI 2021.18.1"}
    for name in names:
        assert libraries[name] in table.stdout
    assert "PingPong (2 waiting)" in table.stdout  # PingPong in the 4-rank jobs, kept apart
    pair = json.loads(mpimark("compare", f"{STUDY}:{names[0]}", f"{STUDY}:{names[-1]}", "--format", "json",
                              "--db", str(db), env=env).stdout)
    assert {row["benchmark"] for row in pair["rows"]} == {"PingPong", "Allreduce"}
    assert {row["processes"] for row in pair["rows"] if row["benchmark"] == "Allreduce"} == set(COUNTS)


@pytest.fixture(scope="session")
def chromium() -> str:
    """Debian's chromium, installed if missing (as root with apt-get), else a skip saying how to get it."""
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if not found and os.geteuid() == 0 and shutil.which("apt-get"):
        apt_env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        install = ["apt-get", "install", "-y", "-q", "chromium"]
        if subprocess.run(install, env=apt_env, capture_output=True, timeout=1200).returncode != 0:
            subprocess.run(["apt-get", "update", "-q"], env=apt_env, capture_output=True, timeout=600)
            subprocess.run(install, env=apt_env, capture_output=True, timeout=1200)
        found = shutil.which("chromium")
    if not found:
        pytest.skip("no chromium to render the report (apt-get install chromium; "
                    "MPIMARK_CHROMIUM=1 bash scripts/setup.sh does it)")
    return found


@pytest.fixture(scope="module")
def rendered(study, chromium, tmp_path_factory):
    """The study's report, its screenshot (PNG) and its DOM as Chromium built it: one render for every check."""
    names, db, env, result = study
    assert result.returncode == 0, result.stderr
    out = tmp_path_factory.mktemp("report")
    html = out / "report.html"
    made = mpimark("report", STUDY, "-o", str(html), "--db", str(db), env=env)
    assert made.returncode == 0, made.stderr
    browser = [chromium, "--headless", "--disable-gpu", "--hide-scrollbars", f"--user-data-dir={out / 'profile'}",
               *(["--no-sandbox"] if os.geteuid() == 0 else [])]  # as root Chromium refuses its sandbox
    png = out / "report.png"
    shot = subprocess.run([*browser, f"--screenshot={png}", f"--window-size={WINDOW[0]},{WINDOW[1]}",
                           html.as_uri()], capture_output=True, text=True, timeout=CHROMIUM_TIMEOUT_S)
    assert png.exists(), shot.stderr
    dom = subprocess.run([*browser, "--dump-dom", html.as_uri()], capture_output=True, text=True,
                         timeout=CHROMIUM_TIMEOUT_S)
    assert dom.returncode == 0, dom.stderr
    return names, html.read_text(encoding="utf-8"), png, dom.stdout


@pytest.mark.browser
def test_the_report_screenshot_shows_a_page(rendered):
    from matplotlib.image import imread  # matplotlib is a dependency already

    names, _, png, _ = rendered
    assert png.stat().st_size > 50_000
    pixels = imread(png)
    assert pixels.shape[:2] == (WINDOW[1], WINDOW[0])
    rgb = (pixels[..., :3] * 255).round().astype(np.uint32).reshape(-1, 3)
    packed = rgb[:, 0] << 16 | rgb[:, 1] << 8 | rgb[:, 2]
    colours = np.unique(packed)
    assert len(colours) > 200  # text, table rules, plot lines and bands, not a blank or one-colour page
    ink = (rgb.min(axis=1) < 200).mean()
    assert 0.01 < ink < 0.6  # something drawn on a white page
    # The plots' lines: matplotlib's first colours (blue, orange, green), one per implementation, are on the page.
    for r, g, b in ((31, 119, 180), (255, 127, 14), (44, 160, 44))[:len(names)]:
        assert np.isin(r << 16 | g << 8 | b, colours), (r, g, b)


@pytest.mark.browser
def test_the_report_dom_has_the_tables_and_images(rendered):
    names, html, _, dom = rendered
    assert dom.count("<img") == html.count("<img") >= 4
    assert dom.count('src="data:image/png;base64,') == dom.count("<img")
    for caption in ("Series", "Single transfer benchmarks at 16 bytes", "Allreduce: time [usec] at 16 bytes",
                    "PingPong, 2 processes", "Allreduce against process count"):
        assert caption in dom, caption
    assert dom.count("<table") == html.count("<table") > 2 * len(names)
    assert '<h2 id="comparison">Implementations compared (the Aramco study\'s tables)</h2>' in dom
    # Ratio and verdict beside the medians: "1.37× slower (p 3.1e-117)", "1.02× ~ (p 0.85)", "? (too few ...)"
    assert re.search(r"<td[^>]*>[0-9.e+-]+× (slower|faster|~|\?) \(", dom)
    assert dom.count("<details>") == html.count("<details>") > 0  # the runs' details, one click away
    for name in names:
        assert f'<th scope="row">{name}</th>' in dom
