"""execution/placement.py: the options checked, hostfiles read, and the launch words per launcher."""

from __future__ import annotations

import socket

import pytest

from mpimark.execution import placement as pl
from mpimark.execution.placement import Placement, PlacementError
from mpimark.records import placement as stored


def known(host: str) -> None:
    """A resolver that knows every name but 'nowhere'."""
    if host == "nowhere":
        raise socket.gaierror(-2, "Name or service not known")


def options(**kwargs) -> Placement:
    kwargs.setdefault("resolve", known)
    return pl.from_options(**kwargs)


# ------------------------------------------------------------ translation


TWO_BY_TWO = Placement(hosts=("n1", "n2"), ppn=2, bind="core", env=(("UCX_TLS", "tcp"), ("X", "a b")),
                       launcher_args=("--mca", "btl", "self,tcp"))


def test_open_mpi_words():
    assert pl.launcher_args(TWO_BY_TWO, "openmpi", 4) == [
        "--host", "n1:2,n2:2", "--bind-to", "core",
        "-x", "UCX_TLS=tcp", "-x", "X=a b", "-x", "MPIMARK_RECORD_ENV=UCX_TLS,X",
        "--mca", "btl", "self,tcp"]


def test_hydra_words():
    assert pl.launcher_args(TWO_BY_TWO, "hydra", 4) == [
        "-hosts", "n1,n2", "-ppn", "2", "-bind-to", "core",
        "-genv", "UCX_TLS", "tcp", "-genv", "X", "a b", "-genv", "MPIMARK_RECORD_ENV", "UCX_TLS,X",
        "--mca", "btl", "self,tcp"]


@pytest.mark.parametrize("kind, launcher", [("openmpi", "openmpi"), ("mpich", "hydra"), ("impi", "hydra"),
                                            ("mpi", None)])
def test_launcher_of_each_kind(kind, launcher):
    assert pl.launcher_for(kind) == launcher


def test_the_default_placement_adds_nothing():
    for launcher in ("openmpi", "hydra", None):
        assert pl.launcher_args(Placement(), launcher, 4) == []
    assert Placement().is_default


@pytest.mark.parametrize("n, openmpi, hydra", [
    (4, ["--host", "a:2,b:2"], ["-hosts", "a,b", "-ppn", "2"]),
    (3, ["--host", "a:2,b:2"], ["-hosts", "a,b", "-ppn", "2"]),  # ceil(3/2): a gets 2, b 1
    (5, ["--host", "a:3,b:3"], ["-hosts", "a,b", "-ppn", "3"]),
])
def test_hosts_without_ppn_fill_each_host_in_turn(n, openmpi, hydra):
    placement = Placement(hosts=("a", "b"))
    assert pl.launcher_args(placement, "openmpi", n) == openmpi
    assert pl.launcher_args(placement, "hydra", n) == hydra


def test_ppn_without_hosts_is_per_node_of_the_launchers_allocation():
    placement = Placement(ppn=4)
    assert pl.launcher_args(placement, "openmpi", 8) == ["--map-by", "ppr:4:node"]
    assert pl.launcher_args(placement, "hydra", 8) == ["-ppn", "4"]


@pytest.mark.parametrize("bind", pl.BINDS)
def test_bind(bind):
    assert pl.launcher_args(Placement(bind=bind), "openmpi", 2) == ["--bind-to", bind]
    assert pl.launcher_args(Placement(bind=bind), "hydra", 2) == ["-bind-to", bind]


def test_an_unknown_launcher_takes_launcher_args_only():
    assert pl.launcher_args(Placement(launcher_args=("-foo",)), None, 2) == ["-foo"]
    with pytest.raises(PlacementError, match="--launcher-arg"):
        pl.launcher_args(Placement(hosts=("a",)), None, 2)


def test_a_new_launcher_is_one_more_translator(monkeypatch):
    monkeypatch.setitem(pl.TRANSLATORS, "srun", lambda p, n: [f"--nodes={len(p.hosts)}"])
    assert pl.launcher_args(Placement(hosts=("a", "b"), launcher_args=("-v",)), "srun", 4) == ["--nodes=2", "-v"]


# ---------------------------------------------------------------- options


def test_options_make_a_placement():
    placement = options(hosts="a,b", ppn=2, bind="socket", env=["A=1", "B=", "A=2"], launcher_args=["-v"],
                        processes=[4])
    assert placement == Placement(hosts=("a", "b"), ppn=2, bind="socket", env=(("B", ""), ("A", "2")),
                                  launcher_args=("-v",))


@pytest.mark.parametrize("kwargs, message", [
    (dict(hosts="a,nowhere"), "unknown host 'nowhere' (--hosts): it does not resolve (Name or service not known); "
                              "check the name, or add it to DNS or /etc/hosts"),
    (dict(hosts="a,,b"), "--hosts 'a,,b' has an empty host name"),
    (dict(hosts="a,b,a"), "--hosts names a more than once"),
    (dict(hosts="a,b", ppn=1, processes=[2, 3]), "--ppn 1 on 2 host(s) places 2 ranks, fewer than -n 3; raise --ppn to 2"),
    (dict(env=["NOEQUALS"]), "--env 'NOEQUALS' has no '='; give --env NAME=VALUE"),
    (dict(env=["1X=2"]), "'1X' is not a variable name"),
    (dict(env=["MPIMARK_RECORD_ENV=A"]), "set by mpimark itself"),
    (dict(bind="numa"), "--bind 'numa' is not one of core, socket, none"),
    (dict(ppn=0), "--ppn 0: give at least 1"),
    (dict(hosts="a", hostfile="f"), "give --hosts or --hostfile, not both"),
])
def test_bad_options_say_what_is_wrong_and_what_to_do(kwargs, message):
    with pytest.raises(PlacementError) as caught:
        options(**kwargs)
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_the_real_resolver_refuses_an_unknown_host():
    with pytest.raises(PlacementError, match="unknown host 'no-such-host.invalid'"):
        pl.from_options(hosts="no-such-host.invalid")
    assert pl.from_options(hosts="localhost").hosts == ("localhost",)


# --------------------------------------------------------------- hostfiles


@pytest.mark.parametrize("text, hosts, ppn", [
    ("a\nb\n", ("a", "b"), None),
    ("# nodes\na  # first\n\nb\n", ("a", "b"), None),
    ("a slots=4\nb slots=4 max_slots=8\n", ("a", "b"), 4),
    ("a:2\nb:2\n", ("a", "b"), 2),
    ("a\na\nb\nb\n", ("a", "b"), 2),  # one line per rank
])
def test_hostfile_formats(tmp_path, text, hosts, ppn):
    path = tmp_path / "hosts"
    path.write_text(text)
    assert pl.read_hostfile(str(path)) == (hosts, ppn)
    placement = options(hostfile=str(path), processes=[2])
    assert (placement.hosts, placement.ppn, placement.hostfile) == (hosts, ppn, str(path.resolve()))


def test_ppn_overrides_the_hostfile_counts(tmp_path):
    path = tmp_path / "hosts"
    path.write_text("a slots=8\nb slots=8\n")
    assert options(hostfile=str(path), ppn=1, processes=[2]).ppn == 1


@pytest.mark.parametrize("text, message", [
    ("", "names no host; give one host name per line"),
    ("# only a comment\n\n", "names no host"),
    ("a slots=2\nb slots=4\n", "gives different rank counts per host (a 2, b 4); mpimark puts the same number on every "
                               "host: give --ppn K"),
    ("a:0\n", "line 1: 'a:0' is not 'HOST', 'HOST slots=K' or 'HOST:K' with K >= 1"),
    ("a b c\n", "line 1: 'a b c' is not"),
])
def test_bad_hostfiles(tmp_path, text, message):
    path = tmp_path / "hosts"
    path.write_text(text)
    with pytest.raises(PlacementError, match=None) as caught:
        options(hostfile=str(path))
    assert message in str(caught.value)


def test_a_missing_hostfile(tmp_path):
    with pytest.raises(PlacementError, match=r"--hostfile .*nope: no such file; give a file with one host name"):
        options(hostfile=str(tmp_path / "nope"))


def test_an_unknown_host_in_a_hostfile_names_the_file(tmp_path):
    path = tmp_path / "hosts"
    path.write_text("a\nnowhere\n")
    with pytest.raises(PlacementError, match=r"unknown host 'nowhere' \(--hostfile .*hosts\)"):
        options(hostfile=str(path))


# ------------------------------------------------------------------ records


def test_record_round_trip():
    record = TWO_BY_TWO.to_record()
    assert record == {"hosts": ["n1", "n2"], "hostfile": None, "ppn": 2, "bind": "core",
                      "env": {"UCX_TLS": "tcp", "X": "a b"}, "launcher_args": ["--mca", "btl", "self,tcp"]}
    assert Placement.from_record(record) == TWO_BY_TWO
    assert Placement.from_record(None) == Placement()


def test_describe_and_differences():
    assert stored.describe(None) == stored.describe(Placement().to_record()) == "launcher default"
    assert stored.describe(TWO_BY_TWO.to_record()) == ("hosts n1,n2; 2 per node; bind core; env UCX_TLS=tcp X=a b; "
                                                       "launcher args --mca btl self,tcp")
    assert stored.describe(Placement(hosts=("a",), hostfile="/h").to_record()) == "hosts a (from /h)"
    other = Placement(hosts=("n1", "n2"), ppn=2, bind="none", env=(("UCX_TLS", "tcp"), ("X", "a b")))
    assert stored.differences(TWO_BY_TWO.to_record(), other.to_record()) == [
        "bind: core vs none", "launcher args: --mca btl self,tcp vs default"]
    assert stored.differences(TWO_BY_TWO.to_record(), TWO_BY_TWO.to_record()) == []
    assert stored.differences(None, Placement().to_record()) == []
    assert stored.differences(None, {"hosts": ["a"]}) == ["hosts: default vs a"]


@pytest.mark.parametrize("record, text", [
    ({"hosts": ["a", "b"], "processes": 4, "ranks_per_node": [2, 2]}, "2 × 2"),
    ({"hosts": ["a", "b"], "processes": 3, "ranks_per_node": [2, 1]}, "2 × 1-2"),
    ({"hosts": ["vm"], "processes": 4}, "1 × 4"),  # a stream of an older core
    ({"hosts": ["a", "b"], "processes": 4}, None),
    (None, None),
])
def test_nodes_by_ranks(record, text):
    assert stored.nodes_by_ranks(record) == text


def test_env_everywhere():
    ranks = [{"env": {"A": "1", "B": None}}, {"env": {"A": "1", "B": "x"}}, {"env": {"A": "1", "B": "x"}}]
    assert stored.env_everywhere({"ranks": ranks}) == {"A": True, "B": False}
    assert stored.rank_env({"ranks": ranks}) == {"A": ["1"], "B": [None, "x"]}
    assert stored.env_everywhere({}) == {}


def test_rank_lines():
    ranks = [{"rank": 0, "host": "a", "cpus": "0"}, {"rank": 1, "host": "a", "cpus": "1"},
             {"rank": 2, "host": "b", "cpus": "0-1"}, {"rank": 3, "host": "a", "cpus": None}]
    assert stored.rank_lines({"ranks": ranks}) == ["a: ranks 0-1,3 on cpus 0 | 1 | ?", "b: ranks 2 on cpus 0-1"]


# ------------------------------------------------- the commands refuse bad input


@pytest.mark.parametrize("command", [["run", "mpi1", "PingPong", "-n", "4"], ["matrix", "--mpi", "openmpi", "-n", "2,4"],
                                     ["beff", "-n", "4"], ["mpibench", "-n", "4"], ["startup", "-n", "4"]])
@pytest.mark.parametrize("options, message", [
    (["--hosts", "mm-nowhere.invalid"], "unknown host 'mm-nowhere.invalid' (--hosts): it does not resolve"),
    (["--hostfile", "/nonexistent/hosts"], "--hostfile /nonexistent/hosts: no such file"),
    (["--hosts", "localhost", "--ppn", "2"], "--ppn 2 on 1 host(s) places 2 ranks, fewer than -n 4"),
    (["--env", "UCX_TLS"], "--env 'UCX_TLS' has no '='; give --env NAME=VALUE"),
])
def test_every_launching_command_refuses_bad_placement_before_storing(tmp_path, command, options, message):
    from .cli_helpers import assert_one_error_line, invoke

    db = tmp_path / "results.db"
    line = assert_one_error_line(invoke(*command, *options, "--db", str(db)))
    assert message in line
    assert not db.exists()  # nothing stored, not even an empty database


def test_an_empty_hostfile_is_refused(tmp_path):
    from .cli_helpers import assert_one_error_line, invoke

    (tmp_path / "hosts").write_text("# none yet\n")
    line = assert_one_error_line(invoke("run", "-n", "2", "--hostfile", str(tmp_path / "hosts"),
                                        "--db", str(tmp_path / "results.db")))
    assert line == f"mpimark: error: --hostfile {tmp_path / 'hosts'} names no host; give one host name per line"
