"""`mpimark matrix --until-decided` with MPI, the build and the launch replaced (as test_matrix.py): rounds
until the gate decides, at the planned looks, or until the budget ends; its bad input."""

from __future__ import annotations

import numpy
import pytest

from mpimark.analysis import sequential
from mpimark.analysis.launches import compare_launches
from mpimark.commands import until_decided
from mpimark.execution import launch, matrix
from mpimark.presentation import sequential_text
from mpimark.storage import studies
from mpimark.storage.store import Store

from .cli_helpers import assert_one_error_line, invoke
from .launch_model import launches as model_launches
from .records import end_record, result_record, run_record
from .test_matrix import fake  # noqa: F401 (the fixture: MPI and the build replaced)


class NoisyLaunch:
    """launch.run: Allreduce rows whose every launch has a level of its own (3 % launch-to-launch spread,
    fixed seed), MPICH's times `factor` times Open MPI's. Launches listed in endings (1-based) end so."""

    def __init__(self, factor: float, endings: dict[int, str] | None = None, seed: int = 5) -> None:
        self.factor, self.endings = factor, endings or {}
        self.rng = numpy.random.default_rng(seed)
        self.launches: list[tuple[str, int]] = []

    def __call__(self, argv, env, json_path, on_record, *, impl, processes, timeout=None, quiet=False, **more):
        self.launches.append((impl.kind, processes))
        status = self.endings.get(len(self.launches), "complete")
        run = run_record()
        run["processes"] = processes
        run["mpi"] = {**run["mpi"], "library_version": impl.library_version}
        on_record(run)
        level = float(numpy.exp(self.rng.normal(0, 0.03))) * (self.factor if impl.kind == "mpich" else 1.0)
        for size in (8, 1024, 65536):
            samples = [(1000 + size / 10 + 10 * i) * level for i in range(10)]
            on_record(result_record(benchmark="Allreduce", processes=processes, bytes=size, count=size // 4,
                                    mbytes_per_sec=None, samples_ns=samples))
        on_record(end_record())
        return launch.Outcome(status, None if status == "complete" else f"it {status}",
                              0 if status == "complete" else 1, 5, 3)


@pytest.fixture
def noisy(fake, monkeypatch):  # noqa: F811
    def make(factor: float, endings: dict[int, str] | None = None) -> NoisyLaunch:
        runner = NoisyLaunch(factor, endings)
        runner.db = fake.db
        monkeypatch.setattr(launch, "run", runner)
        return runner
    return make


def _matrix(db, *options: str):
    return invoke("matrix", "--mpi", "openmpi,mpich", "-n", "2", "--study", "gate", "--db", str(db),
                  "--until-decided", *options, "Allreduce")


def test_a_slower_implementation_is_decided_at_the_first_look(noisy):
    runner = noisy(1.5)
    result = _matrix(runner.db, "--fail-if-slower", "5%")
    assert result.exit_code == 3, result.output
    assert runner.launches == [("openmpi", 2), ("mpich", 2)] * 3  # interleaved, 3 rounds: the first look
    assert "mpimark: until decided at 5%: looks after 3, 5, 8, 12, 18, 30 launches a side, each at alpha " \
           "0.05/6 = 0.0083" in result.stderr
    look = next(line for line in result.stderr.splitlines() if "after 3 launches a side" in line)
    head = "mpimark: after 3 launches a side (look 1 of 6, 99.2% intervals): mpich/openmpi geomean "
    assert look.startswith(head) and look.endswith("slower than x1.05: decided")
    assert 1.3 < float(look[len(head):].split()[0]) < 1.7
    assert "regression gate: SLOWER (exit 3)" in result.stdout
    assert result.stdout.rstrip().splitlines()[-1].startswith("decided after 3 launches a side (")
    with Store(runner.db, create=False) as store:
        assert len(studies.members(store, "gate")) == 6
        plan = studies.plans(store, "gate")[0]
    assert plan["launches"] == 30 and plan["until_decided"]["checkpoints"] == [3, 5, 8, 12, 18, 30]
    # The study is compared afterwards as any other: the same gate at the full alpha.
    again = invoke("compare", "gate", "--fail-if-slower", "5%", "--db", str(runner.db))
    assert again.exit_code == 3


def test_equal_implementations_stop_at_a_look_not_slower(noisy):
    runner = noisy(1.0)
    result = _matrix(runner.db, "--fail-if-slower", "5%")
    assert result.exit_code == 0, result.output
    rounds = len(runner.launches) // 2
    assert rounds in (3, 5, 8, 12, 18) and len(runner.launches) == 2 * rounds
    looks = [line for line in result.stderr.splitlines() if " launches a side (look " in line]
    assert len(looks) == sequential.plan(30).checkpoints.index(rounds) + 1
    assert all("undecided" in line for line in looks[:-1]) and looks[-1].endswith("not slower than x1.05: decided")
    assert "regression gate: NOT SLOWER (exit 0)" in result.stdout
    assert f"decided after {rounds} launches a side (" in result.stdout


def test_the_launches_budget_ends_undecided(noisy):
    # Equal, at the strictest threshold: the interval straddles 1 at every look.
    runner = noisy(1.0)
    result = _matrix(runner.db, "--fail-if-slower", "0", "--max-launches", "5")
    assert result.exit_code == 4, result.output
    assert len(runner.launches) == 10
    looks = [line for line in result.stderr.splitlines() if " launches a side (look " in line]
    assert [line.split(" (look ")[1].split(",")[0] for line in looks] == ["1 of 2", "2 of 2"]
    assert "regression gate: UNDECIDED (exit 4)" in result.stdout
    assert "budget spent (--max-launches 5): undecided after 5 launches a side (" in result.stdout


def test_an_interrupted_launch_ends_it_with_130_and_keeps_what_ran(noisy):
    runner = noisy(1.0, {4: "interrupted"})
    result = _matrix(runner.db, "--fail-if-slower", "5%")
    assert result.exit_code == 130
    assert len(runner.launches) == 4
    assert "interrupted after 4 of up to 60 launches; the study holds what ran" in result.stderr
    assert "stopped in round 2 (" in result.stdout and "after 2 launches a side (look" not in result.stderr
    with Store(runner.db, create=False) as store:
        assert len(studies.members(store, "gate")) == 4


def test_a_failed_launch_stops_it_after_its_round_with_1(noisy):
    runner = noisy(1.0, {3: "failed"})
    result = _matrix(runner.db, "--fail-if-slower", "5%")
    assert result.exit_code == 1
    assert len(runner.launches) == 4  # its round finished
    assert "stopped in round 2 (" in result.stdout
    # Between checkpoints: one last look at what ran, in the place of the planned ones.
    assert "mpimark: after 2 launches a side (look 1 of 6, " in result.stderr
    assert "regression gate: " in result.stdout
    assert "1 of 4 launches did not complete (run 3 failed)" in result.stderr


def test_the_minutes_budget_starts_no_round_that_would_end_after_it():
    # Rounds of 60 s on a clock of their own, 150 s of budget: a third round would end at 180 s.
    rng = numpy.random.default_rng(3)
    a, b = model_launches(rng, 30), model_launches(rng, 30)
    now, ran, said = [0.0], [], []

    def launch_round(order):
        now[0] += 60
        ran.append(order)
        return [matrix.Done(x, len(ran), "complete", None, 1, 60.0, 0.0) for x in order]

    def look_at():
        return [("A", "B", compare_launches(a[:len(ran)], b[:len(ran)]))]

    rounds = until_decided.rounds_of(matrix.plan(["A", "B"], [2], 30))
    end = until_decided.launch_until_decided(rounds, launch_round, look_at, sequential.plan(30), 0.0, 150.0,
                                             said.append, clock=lambda: now[0])
    assert (end.reason, end.launches, end.seconds) == (sequential_text.MINUTES_SPENT, 2, 120.0)
    # No planned look at 2 launches; the budget's last look is made instead of the ones that will not be.
    assert len(said) == 1 and said[0].startswith("after 2 launches a side (look 1 of 6, 99.7% intervals): B/A ")
    assert end.decision is not None and end.decision.level == pytest.approx(1 - 0.05 / 6 / 3)


@pytest.mark.parametrize("options, says", [
    ((), "--until-decided needs --fail-if-slower PERCENT"),
    (("--fail-if-slower", "5%", "--launches", "5"), "not --launches"),
    (("--fail-if-slower", "5%", "--max-launches", "0"), "0 launches measure nothing"),
    (("--fail-if-slower", "5%", "--max-launches", "abc"), "'abc' is not a number of launches"),
    (("--fail-if-slower", "5%", "--max-launches", "1001"), "more launches than one command makes"),
    (("--fail-if-slower", "5%", "--max-launches", "1"), "a look needs 2 launches a side"),
    (("--fail-if-slower", "5%", "--max-minutes", "0"), "--max-minutes"),
    (("--fail-if-slower", "5%", "--max-minutes", "-1"), "--max-minutes"),
    (("--fail-if-slower", "5%", "--max-minutes", "nan"), "'nan' is not a number of minutes"),
    (("--fail-if-slower", "5%", "--max-minutes", "soon"), "--max-minutes"),
    (("--fail-if-slower", "five"), "'five' is not a percentage"),
    (("--fail-if-slower", "5%", "--append"), "--append would pool launches"),
])
def test_bad_input_is_one_line_exit_2_and_nothing_launched(noisy, options, says):
    runner = noisy(1.0)
    line = assert_one_error_line(_matrix(runner.db, *options), exit_code=2)
    assert says in line
    assert runner.launches == [] and not runner.db.exists()


def test_the_budget_options_go_with_until_decided_and_two_implementations(noisy):
    runner = noisy(1.0)
    for options in (("--fail-if-slower", "5%"), ("--max-launches", "5"), ("--max-minutes", "3")):
        line = assert_one_error_line(invoke("matrix", "--mpi", "openmpi,mpich", "-n", "2", "--db", str(runner.db),
                                            *options, "Allreduce"), exit_code=2)
        assert f"{options[0]} goes with --until-decided" in line
    line = assert_one_error_line(invoke("matrix", "--mpi", "openmpi", "-n", "2", "--db", str(runner.db),
                                        "--until-decided", "--fail-if-slower", "5%", "Allreduce"), exit_code=2)
    assert "--mpi needs two or more" in line
    assert runner.launches == []
