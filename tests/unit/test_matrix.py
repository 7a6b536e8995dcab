"""`mpimark matrix` and the study it makes, with MPI, the build and the launch replaced."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from mpimark.commands import study_cmds
from mpimark.execution import launch, matrix
from mpimark.execution.mpi import MpiImpl
from mpimark.storage import studies
from mpimark.storage.selection import resolve, with_waiting
from mpimark.storage.store import Store

from .cli_helpers import assert_one_error_line, invoke
from .records import end_record, result_record, run_record

LIBRARIES = {"openmpi": ("Open MPI", "4.1.4", "Open MPI v4.1.4, package: Debian OpenMPI"),
             "mpich": ("MPICH", "4.0.2", "MPICH Version:\t4.0.2"),
             "impi": ("Intel MPI", "2021.18.1", "Intel(R) MPI Library 2021.18.1 for Linux* OS")}
# Times per implementation: Open MPI the baseline, MPICH twice as slow, Intel MPI as fast.
SPEED = {"openmpi": 1.0, "mpich": 2.0, "impi": 1.0}


def impl(kind: str) -> MpiImpl:
    vendor, version, library = LIBRARIES[kind]
    name = "impi-wheel" if kind == "impi" else kind
    return MpiImpl(name=name, kind=kind, vendor=vendor, version=version, standard_version="3.1",
                   library_version=library, mpicc=f"/{name}/bin/mpicc", mpiexec=f"/{name}/bin/mpiexec",
                   prefix=f"/{name}", source="wheel" if kind == "impi" else "system")


class FakeLaunch:
    """launch.run: a run record, one Allreduce row per size (samples scaled by SPEED), the end.

    Launches listed in `endings` (1-based) end so instead of complete."""

    def __init__(self, endings: dict[int, str] | None = None) -> None:
        self.launches: list[tuple[str, int, list[str]]] = []
        self.endings = endings or {}

    def __call__(self, argv, env, json_path, on_record, *, impl, processes, timeout=None, quiet=False, **more):
        self.launches.append((impl.kind, processes, argv))
        status = self.endings.get(len(self.launches), "complete")
        run = run_record()
        run["processes"] = processes
        run["mpi"] = {**run["mpi"], "library_version": impl.library_version}
        on_record(run)
        results = 0
        if status != "failed":
            # Every launch a little different (launch-to-launch variation), and the launches of each
            # implementation differ from the other's: 5 launch medians per side can be tested.
            jitter = 1 + len(self.launches) / 1000
            for size in (8, 1024):
                samples = [(1000 + size + 10 * i) * SPEED[impl.kind] * jitter for i in range(10)]
                on_record(result_record(benchmark="Allreduce", processes=processes, bytes=size, count=size // 4,
                                        mbytes_per_sec=None, samples_ns=samples))
                results += 1
            on_record(end_record())
        message = None if status == "complete" else f"it {status}"
        return launch.Outcome(status, message, 0 if status == "complete" else 1, results + 2, results)


@pytest.fixture
def fake(monkeypatch, tmp_path):
    found = {kind: impl(kind) for kind in LIBRARIES}

    def find(name=None, prefix=None):
        kind = "impi" if name == "impi-wheel" else name
        if kind not in found:
            raise study_cmds.mpi.MpiError(f"unknown MPI implementation '{name}'")
        return found[kind]

    built = []
    monkeypatch.setattr(study_cmds.mpi, "find", find)
    monkeypatch.setattr(study_cmds.build, "ensure_core", lambda impl, log: built.append(impl.name) or
                        Path(f"/cache/{impl.name}/mpimark-core"))
    monkeypatch.setattr(launch, "cores", lambda: 2)
    monkeypatch.setattr(launch, "launch_flags", lambda impl, n, cores: [])
    runner = FakeLaunch()
    monkeypatch.setattr(launch, "run", runner)
    runner.built = built
    runner.db = tmp_path / "results.db"
    return runner


def test_plan_is_round_robin_over_process_counts_and_implementations():
    order = matrix.plan(["openmpi", "mpich", "impi"], [2, 4], 2)
    assert [(x.index, x.round, x.label, x.processes) for x in order] == [
        (1, 1, "openmpi", 2), (2, 1, "mpich", 2), (3, 1, "impi", 2),
        (4, 1, "openmpi", 4), (5, 1, "mpich", 4), (6, 1, "impi", 4),
        (7, 2, "openmpi", 2), (8, 2, "mpich", 2), (9, 2, "impi", 2),
        (10, 2, "openmpi", 4), (11, 2, "mpich", 4), (12, 2, "impi", 4),
    ]


def test_a_seed_shuffles_each_round_reproducibly():
    labels, counts = ["a", "b", "c"], [2, 3, 4]
    order = matrix.plan(labels, counts, 4, seed=7)
    assert order == matrix.plan(labels, counts, 4, seed=7)
    assert order != matrix.plan(labels, counts, 4, seed=8)
    cells = sorted((label, n) for label in labels for n in counts)
    rounds = [[(x.label, x.processes) for x in order if x.round == r] for r in range(1, 5)]
    assert all(sorted(r) == cells for r in rounds)  # each round runs every cell once
    assert len({tuple(r) for r in rounds}) > 1  # but not in one fixed order
    assert [x.index for x in order] == list(range(1, 37))
    with pytest.raises(ValueError):
        matrix.plan(labels, counts, 0)


def test_each_launch_measures_at_its_own_process_count():
    assert matrix.core_args(["PingPong", "-msglog", "0:4"], 4) == ["PingPong", "-msglog", "0:4", "-npmin", "4"]
    assert matrix.core_args(["Allreduce", "-NPMIN", "2"], 4) == ["Allreduce", "-NPMIN", "2"]
    for suite in ("p2p", "mt", "osu"):  # their own command lines have no -npmin (the core refuses it)
        assert matrix.core_args(["latency", "-m", "1:8"], 4, suite) == ["latency", "-m", "1:8"]


def test_time_left_is_estimated_per_cell():
    order = matrix.plan(["a", "b"], [2], 3)
    done = [matrix.Done(order[0], 1, "complete", None, 1, 10.0, 0.0),
            matrix.Done(order[1], 2, "complete", None, 1, 30.0, 0.0)]
    assert matrix.estimate_left([], order) is None
    assert matrix.estimate_left(done, order[2:]) == 2 * 10.0 + 2 * 30.0


def test_a_study_of_three_implementations(fake):
    result = invoke("matrix", "--mpi", "openmpi,mpich,impi", "-n", "2,4", "--launches", "5", "--study", "eval",
                    "--db", str(fake.db), "Allreduce", "-msglog", "3:10", "-time", "1")
    assert result.exit_code == 0, result.stderr
    assert fake.built == ["openmpi", "mpich", "impi-wheel"]  # every core before the first launch
    assert [(kind, n) for kind, n, _ in fake.launches[:6]] == [
        ("openmpi", 2), ("mpich", 2), ("impi", 2), ("openmpi", 4), ("mpich", 4), ("impi", 4)]
    assert len(fake.launches) == 30
    argv = fake.launches[3][2]
    assert argv[:5] == ["/openmpi/bin/mpiexec", "-n", "4", "/cache/openmpi/mpimark-core", "mpi1"]
    assert argv[5:11] == ["Allreduce", "-msglog", "3:10", "-time", "1", "-npmin"] and argv[11] == "4"

    stderr = result.stderr.splitlines()
    assert stderr[0] == ("mpimark: study eval: 30 launches (3 implementations x 2 process counts x 5 rounds), "
                         "round robin")
    assert stderr[1] == "mpimark: [1/30] round 1 of 5: openmpi, 2 processes"
    assert stderr[2].startswith("mpimark: [1/30] run 1 complete: 2 results in 0:00:00, load ")
    assert "left" in stderr[2] and "left" not in stderr[-1]
    assert "study eval" in result.stdout and "30 launches in" in result.stdout
    for line in ("mpimark compare eval ", "mpimark compare eval:openmpi eval:mpich", "mpimark report eval -o "):
        assert line in result.stdout
    row = next(line for line in result.stdout.splitlines() if "│ impi " in line and "│  4 │" in line)
    assert "Intel MPI 2021.18.1" in row and "6, 12, 18, 24, 30" in row

    with Store(fake.db, create=False) as store:
        members = studies.members(store, "eval")
        plan = studies.plans(store, "eval")
        rows = {run_id: store.run(run_id) for run_id in range(1, 31)}
        series = resolve(store, "eval")
    assert len(members) == 30 and {m.implementation for m in members} == {"openmpi", "mpich", "impi"}
    assert all(row.status == "complete" for row in rows.values())
    assert rows[3].mpi_name == "impi-wheel" and rows[3].requested_processes == 2
    assert [s.label for s in series] == ["openmpi", "mpich", "impi"]  # as --mpi gave them, not by name
    assert len(plan) == 1 and plan[0]["seed"] is None and plan[0]["launches"] == 5
    assert [i["label"] for i in plan[0]["implementations"]] == ["openmpi", "mpich", "impi"]
    assert plan[0]["implementations"][2]["name"] == "impi-wheel" and plan[0]["processes"] == [2, 4]
    listed = invoke("study", "list", "eval", "--db", str(fake.db)).stdout.splitlines()
    assert len(listed) == 31 and listed[-1].startswith("# matrix ")
    assert listed[-1].endswith(": --mpi openmpi,mpich,impi -n 2,4 --launches 5 (round robin): "
                               "mpi1 Allreduce -msglog 3:10 -time 1")


def test_the_study_compared_and_reported(fake, tmp_path):
    made = invoke("matrix", "--mpi", "openmpi,mpich,impi", "-n", "2,4", "--repeat", "5", "--study", "eval",
                  "--db", str(fake.db), "Allreduce")
    assert made.exit_code == 0, made.stderr
    table = invoke("compare", "eval", "--db", str(fake.db))
    assert table.exit_code == 0, table.stderr
    for text in ("mpich, impi  against  openmpi", "openmpi [usec]", "mpich/openmpi", "impi/openmpi",
                 "openmpi: Open MPI 4.1.4, runs 1, 4, 7, 10, 13, 16, 19, 22, 25, 28",
                 "mpich: MPICH 4.0.2, runs 2, ", "impi: Intel MPI 2021.18.1, runs 3, "):
        assert text in table.stdout
    row = next(line for line in table.stdout.splitlines() if line.startswith("│ Allreduce") and "│  1024 │" in line)
    cells = [cell.strip() for cell in row.strip("│").split("│")]
    # MPICH twice as slow, shown (5 launch medians a side: the smallest p is 2/252; all 4 tested rows, 8 and
    # 1024 bytes at 2 and 4 processes, have it, so Benjamini-Hochberg leaves it at 0.008, where Holm would
    # make it 0.032); Intel MPI as fast.
    assert cells[5].startswith("2.00") and cells[6:8] == ["0.008", "slower"]
    assert cells[9].startswith("1.00") and cells[11] == "~"
    document = json.loads(invoke("compare", "eval", "--baseline", "mpich", "--format", "json",
                                 "--db", str(fake.db)).stdout)
    assert document["baseline"] == "mpich"
    assert [c["implementation"] for c in document["comparisons"]] == ["openmpi", "impi"]
    assert document["comparisons"][0]["geomean"]["ratio_b_a"] == pytest.approx(0.5, rel=0.01)
    csv_lines = invoke("compare", "eval", "--format", "csv", "--bytes", "1K", "--db", str(fake.db)).stdout.splitlines()
    # per implementation against openmpi: its 2 rows at 1 KiB, the geomean of all rows and of Allreduce's
    assert csv_lines[0].startswith('"a","b","benchmark","processes"') and len(csv_lines) == 1 + 2 * (2 + 2)
    markdown = invoke("compare", "eval", "--format", "markdown", "--db", str(fake.db)).stdout
    assert markdown.startswith("| benchmark | np | bytes | openmpi [usec] | mpich [usec] | mpich/openmpi | "
                               "mpich/openmpi 95% CI | p (bh) | verdict |")
    pair = invoke("compare", "eval:openmpi", "eval:impi", "--db", str(fake.db))
    assert pair.exit_code == 0 and "openmpi (runs 1, 4," in pair.stdout
    assert "no such implementation" in assert_one_error_line(invoke("compare", "eval", "--baseline", "x",
                                                                    "--db", str(fake.db)))
    assert "names one implementation" in assert_one_error_line(invoke("compare", "eval:impi", "--db", str(fake.db)),
                                                               exit_code=2)
    plotted = invoke("plot", "eval", "-o", str(tmp_path / "plots"), "--db", str(fake.db))
    assert plotted.exit_code == 0, plotted.stderr
    assert sorted(Path(line).name for line in plotted.stdout.splitlines()) == [
        "Allreduce-np2-time.png", "Allreduce-np4-time.png", "Allreduce-scaling-1024B.png"]
    out = tmp_path / "report.html"
    report = invoke("report", "eval", "-o", str(out), "--db", str(fake.db))
    assert report.exit_code == 0, report.stderr
    html = out.read_text(encoding="utf-8")
    assert "Allreduce: time [usec] at 1024 bytes" in html and "Allreduce against process count" in html
    assert html.index("<caption>Series</caption>") < html.index('id="comparison"') < html.index('id="runs"')
    # The ranking decides on launches: MPICH twice as slow in every launch, Intel MPI within their noise.
    assert re.search(r"openmpi ~ impi \(undecided: \d+ launches a side would tell\) &lt; mpich", html)


def test_a_failed_launch_is_stored_and_the_study_goes_on(fake):
    fake.endings = {2: "failed", 4: "incomplete"}
    result = invoke("matrix", "--mpi", "openmpi,mpich", "-n", "2,3", "--study", "s", "--db", str(fake.db))
    assert len(fake.launches) == 4
    assert result.exit_code == 1
    assert result.stderr.splitlines()[-1] == ("mpimark: error: 2 of 4 launches did not complete (run 2 failed, "
                                              "run 4 incomplete); 'mpimark show RUN' says what they hold")
    assert "mpimark: [2/4] run 2 failed (it failed): 0 results" in result.stderr
    with Store(fake.db, create=False) as store:
        assert [store.run(i).status for i in (1, 2, 3, 4)] == ["complete", "failed", "complete", "incomplete"]
        assert len(studies.members(store, "s")) == 4


def test_an_interrupted_launch_ends_the_study(fake):
    fake.endings = {2: "interrupted"}
    result = invoke("matrix", "--mpi", "openmpi,mpich", "-n", "2", "--repeat", "3", "--study", "s",
                    "--db", str(fake.db))
    assert len(fake.launches) == 2 and result.exit_code == 130
    assert "interrupted after 2 of 6 launches" in result.stderr.splitlines()[-1]


def test_shuffled_with_a_recorded_seed(fake):
    result = invoke("matrix", "--mpi", "openmpi,mpich,impi", "-n", "2,4", "--repeat", "2", "--seed", "11",
                    "--study", "s", "--db", str(fake.db))
    assert result.exit_code == 0, result.stderr
    expected = matrix.plan(["openmpi", "mpich", "impi"], [2, 4], 2, seed=11)
    assert [(kind, n) for kind, n, _ in fake.launches] == [(x.label, x.processes) for x in expected]
    assert "each round shuffled with seed 11" in result.stderr
    # 2 launches a side: no row verdict (4 needed), said with the way out
    assert ("compare decides on launches, and needs 4 a side for a row's verdict (Mann-Whitney on launch medians) "
            "and 2 a side for a geomean's interval; use --launches 5 or more") in result.stderr
    random_seed = invoke("matrix", "--mpi", "openmpi", "-n", "2", "--shuffle", "--study", "t", "--db", str(fake.db))
    with Store(fake.db, create=False) as store:
        assert isinstance(studies.plans(store, "t")[0]["seed"], int)
    assert f"seed {studies_seed(fake.db, 't')}" in random_seed.stderr


def studies_seed(db: Path, study: str) -> int:
    with Store(db, create=False) as store:
        return studies.plans(store, study)[0]["seed"]


def test_bad_matrices_are_one_line_errors(fake):
    db = ["--db", str(fake.db)]
    assert "names an implementation twice" in assert_one_error_line(invoke("matrix", "--mpi", "mpich,mpich",
                                                                           "-n", "2", *db), exit_code=2)
    assert "names impi-wheel twice" in assert_one_error_line(invoke("matrix", "--mpi", "impi,impi-wheel",
                                                                    "-n", "2", *db), exit_code=2)
    assert "process counts" in assert_one_error_line(invoke("matrix", "--mpi", "mpich", "-n", "2,x", *db),
                                                     exit_code=2)
    assert "twice" in assert_one_error_line(invoke("matrix", "--mpi", "mpich", "-n", "2,2", *db), exit_code=2)
    assert "unknown MPI implementation 'lam'" in assert_one_error_line(invoke("matrix", "--mpi", "mpich,lam",
                                                                              "-n", "2", *db))
    assert "cannot name a study" in assert_one_error_line(invoke("matrix", "--mpi", "mpich", "-n", "2",
                                                                 "--study", "a:b", *db))
    assert fake.launches == []
    assert invoke("matrix", "--mpi", "mpich", "-n", "2", "--study", "s", *db).exit_code == 0
    again = invoke("matrix", "--mpi", "mpich", "-n", "2", "--study", "s", *db)
    assert "exists already (1 runs)" in assert_one_error_line(again) and len(fake.launches) == 1
    assert invoke("matrix", "--mpi", "mpich", "-n", "2", "--study", "s", "--append", *db).exit_code == 0
    with Store(fake.db, create=False) as store:
        assert len(studies.members(store, "s")) == 2 and len(studies.plans(store, "s")) == 2


def test_a_count_at_which_no_benchmark_runs_is_refused(fake):
    """The check of `mpimark run` (preflight.check_processes), at every process count of the matrix."""
    line = assert_one_error_line(invoke("matrix", "--mpi", "mpich", "-n", "1,2", "PingPong", "--db", str(fake.db)),
                                 exit_code=2)
    assert "PingPong needs 2 processes; -n 1 runs none of them: give -n 2" in line
    assert fake.launches == [] and not fake.db.exists()
    assert invoke("matrix", "--mpi", "mpich", "-n", "1,2", "PingPong", "Barrier", "--db", str(fake.db)).exit_code == 0


def test_rows_with_waiting_ranks_are_kept_apart():
    run = run_record()
    run["processes"] = 4
    records = [run, result_record(processes=2), result_record(processes=4, benchmark="Allreduce"),
               result_record(processes=2, multi=0), end_record()]
    marked = with_waiting(records)
    assert marked[1]["waiting"] == 2 and "waiting" not in marked[2] and "waiting" not in marked[3]
    assert "waiting" not in records[1]  # the stored records are not changed
    from mpimark.records.figures import key, title, table_key
    assert key(marked[1]).mode == "2 waiting" and key(records[1]).mode == ""
    assert title(table_key(marked[1])) == "PingPong, 2 processes (2 waiting)"
    assert with_waiting([result_record()]) == [result_record()]  # imported: no run record


def test_the_old_name_of_launches_still_works_but_help_says_launches(fake):
    # --repeat: what scripts and plans said before --launches; it still launches, hidden from --help.
    result = invoke("matrix", "--mpi", "openmpi", "-n", "2", "--repeat", "2", "--study", "old", "--db", str(fake.db))
    assert result.exit_code == 0, result.stderr and len(fake.launches) == 2
    shown = invoke("matrix", "--help").stdout
    assert "--launches N" in shown and "--repeat" not in shown


@pytest.mark.parametrize("value, why", [("0", "0 launches measure nothing"), ("-1", "-1 launches measure nothing"),
                                        ("abc", "'abc' is not a number of launches"),
                                        ("1001", "1001 is more launches than one command makes (1000)")])
@pytest.mark.parametrize("spelling", ["--launches", "--repeat"])
def test_bad_launch_counts_launch_and_store_nothing(fake, value, why, spelling):
    line = assert_one_error_line(invoke("matrix", "--mpi", "openmpi", "-n", "2", spelling, value, "--study", "s",
                                        "--db", str(fake.db)), exit_code=2)
    assert f"Invalid value for '--launches': {why}" in line
    assert fake.launches == [] and fake.built == [] and not fake.db.exists()


def test_plans_written_with_repeat_read_as_launches(tmp_path):
    with Store(tmp_path / "results.db") as store:
        studies.add_plan(store, "old", {"processes": [2], "repeat": 3, "seed": None})
        studies.add_plan(store, "old", {"processes": [2], "launches": 4, "seed": None})
        assert [plan["launches"] for plan in studies.plans(store, "old")] == [3, 4]
