"""`mpimark run osu NAME`: OSU's programs launched through the front end, stored with OSU's records and
samples, shown in OSU's text, compared and reported as IMB's runs are; the core's text imported back.

Short real runs at 2 ranks under Open MPI (`-m 1:16 -i 50`). MPIMARK_TEST_CORE: a core built elsewhere
(an engineer's build directory) is the one `mpimark run` uses and asks for its facts.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest

from mpimark.execution import build, mpi
from mpimark.execution.core import benchmark_facts
from mpimark.presentation import osu_text
from mpimark.records import benchmarks
from mpimark.records.results import core_records, read_records, validate_record
from mpimark.storage.store import Store

from integration.corerun import run_core
from .conftest import mpimark

SHORT = ("-m", "1:16", "-i", "50", "-x", "5")
TEST_CORE = os.environ.get("MPIMARK_TEST_CORE")


@pytest.fixture(scope="session")
def test_core_env(private_build_cache, tmp_path_factory) -> dict[str, str]:
    """The environment that makes `mpimark run` use MPIMARK_TEST_CORE, where it is set: a frozen copy of the
    core's sources (MPIMARK_SOURCE: the checkout's sources change while others edit them, and a stale stamp
    would rebuild) with the test core in the build cache as the core built from them for Open MPI, so
    build.ensure_core finds it up to date and builds nothing; and its facts (MPIMARK_CORE)."""
    if not TEST_CORE:
        return {}
    source = tmp_path_factory.mktemp("core-source") / "core"
    shutil.copytree(build.source_dir(), source)
    impl = mpi.find("openmpi", None)
    directory = build.build_dir(impl, source)
    directory.mkdir(parents=True, exist_ok=True)
    shutil.copy2(TEST_CORE, directory / build.CORE_BINARY)
    stamp = {"mpicc": impl.mpicc, "library_version": impl.library_version, "source": str(source),
             "sources_sha256": build.sources_hash(source)}
    (directory / build.STAMP).write_text(json.dumps(stamp, indent=1), encoding="utf-8")
    return {"MPIMARK_SOURCE": str(source), "MPIMARK_CORE": TEST_CORE}


@pytest.fixture
def osu(need, test_core_env, db):
    """mpimark under Open MPI with the test's database, and the test core where one is given."""
    need("openmpi")

    def run(*args: str):
        return mpimark(*args, "--db", str(db), env=test_core_env)

    return run


def _results(records: list[dict]) -> list[dict]:
    return [r for r in records if r["type"] == "result"]


def _osu_block(text: str) -> str:
    """OSU's lines of a text (from its title on): what OSU itself prints, without mpimark's lines (the
    core's `# mpimark: ...` self-check warnings after the table, show's run description before it)."""
    lines = text.splitlines(keepends=True)
    start = next(i for i, line in enumerate(lines) if line.startswith("# OSU MPI"))
    end = next((i for i in range(start + 1, len(lines))
                if not re.match(r"^(#|\d|$)", lines[i]) or lines[i].startswith("# mpimark")), len(lines))
    return "".join(lines[start:end]).rstrip("\n") + "\n"


def test_osu_latency_is_stored_with_its_samples_and_shown_as_osu_prints_it(osu, db, tmp_path):
    json_path = tmp_path / "latency.jsonl"
    result = osu("run", "osu", "latency", "-n", "2", *SHORT, "--json", str(json_path))
    assert result.returncode == 0, result.stderr
    assert "# OSU MPI Latency Test v7.4" in result.stdout
    assert result.stderr.splitlines()[-1] == f"mpimark: stored as run 1 in {db}"
    assert not TEST_CORE or "core" not in result.stderr, result.stderr  # the test core: nothing built

    written = read_records(json_path)
    with Store(db) as store:
        row, stored = store.run(1), store.records(1)
    assert core_records(stored) == written  # every OSU field, read back exactly
    assert (row.suite, row.status, row.requested_processes) == ("osu", "complete", 2)
    rows = _results(written)
    assert [(r["benchmark"], r["bytes"], r["datatype"]) for r in rows] == [
        ("osu_latency", size, "MPI_CHAR") for size in (1, 2, 4, 8, 16)]
    for r in rows:
        assert len(r["samples_ns"]) == 50 and r["distribution"]["samples"] == 50
        # OSU's average is the mean of the samples (each iteration's round trip / 2)
        assert r["t_avg_usec"] == pytest.approx(sum(r["samples_ns"]) / 50 / 1000, rel=1e-6, abs=0.01)

    shown = osu("show", "1")
    assert shown.returncode == 0, shown.stderr
    assert _osu_block(shown.stdout) == _osu_block(result.stdout)  # the core's text, as OSU prints it
    stats = osu("show", "1", "--stats")
    assert stats.returncode == 0, stats.stderr
    assert "osu_latency" in stats.stdout and "median" in stats.stdout.lower()


def test_launches_of_osu_runs_compare_gate_and_report(osu, db, tmp_path):
    for _ in range(2):
        result = osu("run", "osu", "latency", "-n", "2", *SHORT, "--quiet", "--launches", "2")
        assert result.returncode == 0, result.stderr
    assert "# OSU MPI" not in result.stdout  # --quiet
    compared = osu("compare", "1-2", "3-4", "--format", "csv")
    assert compared.returncode == 0, compared.stderr
    assert sum(line.startswith('"osu_latency"') for line in compared.stdout.splitlines()) == 5
    gated = osu("compare", "1-2", "3-4", "--fail-if-slower", "5%")
    assert gated.returncode in (0, 3, 4), gated.stderr  # two launches a side rarely decide; it must not fail
    report = tmp_path / "r.html"
    reported = osu("report", "1-2", "3-4", "-o", str(report))
    assert reported.returncode == 0, reported.stderr
    assert ">osu_latency, 2 processes<" in report.read_text(encoding="utf-8")


def test_an_osu_run_is_never_paired_with_imbs_rows(osu, db):
    assert osu("run", "osu", "latency", "-n", "2", *SHORT, "--quiet").returncode == 0
    imb = osu("run", "mpi1", "PingPong", "-n", "2", "-msglog", "0:4", "-iter", "50", "-time", "30", "--quiet")
    assert imb.returncode == 0, imb.stderr
    compared = osu("compare", "1", "2")
    assert compared.returncode == 1 and "have no measured row in common" in compared.stderr


@pytest.mark.parametrize("program, figure", [("latency", "t_avg_usec"), ("allreduce", "t_avg_usec"),
                                             ("bw", "mbytes_per_sec")])
def test_the_cores_text_imports_back_to_the_same_numbers(osu, db, tmp_path, program, figure):
    json_path = tmp_path / f"{program}.jsonl"
    result = osu("run", "osu", program, "-n", "2", *SHORT, "--json", str(json_path))
    assert result.returncode == 0, result.stderr
    text = tmp_path / f"{program}.txt"
    text.write_text(_osu_block(result.stdout), encoding="utf-8")
    imported = osu("import", "--format", "osu", "--np", "2", str(text))
    assert imported.returncode == 0, imported.stderr
    with Store(db) as store:
        back = _results(store.records(2))
    measured = _results(read_records(json_path))
    assert [(r["benchmark"], r["bytes"], r["datatype"]) for r in back] == \
        [(r["benchmark"], r["bytes"], r["datatype"]) for r in measured]
    # OSU's text has two decimals: each figure read back is the core's, rounded
    assert all(abs(b[figure] - m[figure]) <= 0.005 + 1e-9 for b, m in zip(back, measured))


@pytest.mark.parametrize("args, says", [
    (("nosuch", "-n", "2"), "nosuch"),
    (("latency", "-n", "2", "-d", "cuda"), "-d"),
    (("latency", "-n", "2", "-m", "10:2"), "-m"),
    (("latency", "-n", "3"), "osu_latency needs exactly 2 processes"),
    (("latency", "-n", "2", "-v"), "-v runs no benchmark"),
])
def test_a_refused_command_line_is_one_line_exit_2_and_stores_nothing(osu, db, args, says):
    result = osu("run", "osu", *args)
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    errors = [line for line in result.stderr.splitlines() if line.startswith("mpimark: error:")]
    assert len(errors) == 1 and says in errors[0], result.stderr
    if db.exists():
        with Store(db) as store:
            assert store.runs() == []


# One program of each family, with the options that change OSU's text (columns, option lines, blocks).
EVERY_LAYOUT = [
    "latency -c -z", "latency -T all", "bw", "bibw -z", "mbw_mr", "mbw_mr -V", "mbw_mr -R 0 -W 16", "multi_lat -z",
    "latency_mt", "latency_mp", "latency_mp -c", "put_latency", "put_bw -w create -s lock", "put_bibw",
    "acc_latency -c -z", "cas_latency -T all", "allreduce -f -c -z", "bcast -T all", "barrier -f",
    "iallreduce", "iallreduce -f", "ibarrier -f", "init",
]


@pytest.fixture
def test_core_facts():
    """This process's facts from the test core, where one is given (the text's layout comes from them)."""
    if TEST_CORE:
        benchmarks.use_core_facts(lambda: benchmark_facts(Path(TEST_CORE)))
    yield
    benchmarks.use_core_facts(benchmark_facts)


@pytest.mark.parametrize("line", EVERY_LAYOUT)
def test_show_gives_back_the_cores_text_from_its_records(need, test_core_facts, line):
    """`mpimark show` of a core run prints what the core printed (records -> presentation/osu_text.py),
    for every layout: the records hold what the text needs, and nothing that it must not print."""
    need("openmpi")
    name, *options = line.split()
    sized = () if name in ("barrier", "ibarrier", "init") else ("-m", "1:8")
    short = () if name == "init" else ("-i", "5", "-x", "1")  # osu_init times MPI_Init once
    done = run_core(2, "osu", name, *sized, *short, *options)
    assert done.returncode == 0, done.describe()
    for record in done.records:
        validate_record(record)  # what `mpimark run` checks as each record arrives
    printed = "".join(line for line in done.stdout.splitlines(keepends=True) if not line.startswith("# mpimark"))
    assert osu_text.text(done.records) == printed
