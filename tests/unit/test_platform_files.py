"""The SimGrid platforms --platform names (execution/platforms.py): the shipped ones, their sized forms,
and the user's XML files, good and bad. No SimGrid needed here; tests/simulation/test_platforms.py
checks the shipped numbers against smpirun."""

from __future__ import annotations

import hashlib
import itertools
import json
import os
from pathlib import Path

import pytest

from mpimark.execution import platforms
from mpimark.execution.platforms import PlatformError, resolve


@pytest.fixture(autouse=True)
def cache(tmp_path, monkeypatch) -> Path:
    """Sized forms are generated into the cache: a fresh one per test."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path / "cache" / "mpimark" / "platforms"


@pytest.mark.parametrize("name", platforms.SHIPPED_NAMES)
def test_shipped_file_is_what_the_code_generates(name):
    # The numbers live in platforms.py; the shipped file must be its output, byte for byte.
    platform = resolve(name)
    assert platform.path.read_text(encoding="utf-8") == platforms.shipped_xml(name)
    assert platform.sha256 == hashlib.sha256(platform.path.read_bytes()).hexdigest()


@pytest.mark.parametrize("name, hosts, topology", [
    ("torus", 3072, "TORUS 16,12,16"),
    ("torus:4x6x16", 384, "TORUS 4,6,16"),
    ("fattree", 64, "FAT_TREE 2;8,8;1,8;1,1"),
    ("fattree:128", 128, "FAT_TREE 2;8,16;1,8;1,1"),
    ("flat", 4096, "FLAT 4096"),
    ("flat:16", 16, "FLAT 16"),
])
def test_shipped_platforms(name, hosts, topology):
    platform = resolve(name)
    assert (platform.name, platform.host_count, platform.topology, platform.shipped) == (name, hosts, topology, True)
    names = list(platform.host_names())
    assert names[0] == "node-0" and names[-1] == f"node-{hosts - 1}" and len(set(names)) == hosts
    described = platform.describe()
    assert described == json.loads(json.dumps(described))  # stored as JSON with the run
    assert set(described) == {"name", "file", "sha256", "topology", "parameters", "hosts", "shipped"}
    assert described["hosts"] == hosts and Path(described["file"]).is_file()
    parameters = described["parameters"]
    assert parameters["link_bandwidth_Bps"] > 0 and parameters["link_latency_s"] > 0
    assert parameters["node_speed_flops"] > 0 and all("_" in key for key in parameters)  # units in the names


def test_shipped_numbers_with_their_sources():
    torus = resolve("torus").parameters
    assert torus["link_latency_s"] == 1.05e-6  # seed 001 line 58: IMB PingPong, 0 bytes, 2 nodes
    assert torus["link_bandwidth_Bps"] == 6.275e9  # seed 001 line 81: IMB PingPong, 4 MiB, 6,275 MB/s
    assert torus["node_speed_flops"] == pytest.approx(48 * 2.2e9 * 32)  # A64FX
    fattree = resolve("fattree").parameters
    assert fattree["link_bandwidth_Bps"] == 2.0e9  # 4x DDR: 16 Gb/s of data
    assert fattree["node_speed_flops"] == pytest.approx(8 * 2.93e9 * 4)  # 2 x quad-core X5570 (seed 004)
    assert fattree["loopback_bandwidth_Bps"] == 6377.59 * 2**20  # seed 004 line 74: MVAPICH2, 1 MB PingPong
    # RIKEN's two collective shapes (seed 001 lines 39-43), four processes per node.
    assert 4 * resolve("torus:4x6x16").host_count == 1536 and 4 * resolve("torus").host_count == 12288


def test_sized_form_is_generated_once_with_a_stable_hash(cache):
    first = resolve("torus:4x6x16")
    assert first.path == cache / "torus-4x6x16.xml" and first.path.is_file()
    assert first.sha256 == hashlib.sha256(first.path.read_bytes()).hexdigest()
    modified = first.path.stat().st_mtime_ns
    again = resolve("torus:4x6x16")
    assert again.sha256 == first.sha256 and first.path.stat().st_mtime_ns == modified  # not rewritten
    first.path.write_text("damaged")  # a damaged cache file is regenerated, same bytes as before
    assert resolve("torus:4x6x16").sha256 == first.sha256
    assert first.path.read_bytes() == again.path.read_bytes()
    # The default size written as a sized form is the shipped file itself.
    assert resolve("torus:16x12x16").path == resolve("torus").path


@pytest.mark.parametrize("text, expected", [
    ("torus:4x6", "torus:AxBxC"),
    ("torus:4x0x2", "torus:AxBxC"),
    ("torus:axbxc", "torus:AxBxC"),
    ("fattree:100", "multiple of 8"),
    ("fattree:-8", "fattree:N"),
    ("flat:", None),  # empty size: the default
    ("flat:1", "at least 2 hosts"),
    ("flat:many", "flat:N"),
    ("torus:1024x1024x1024", "more than"),
])
def test_bad_sizes(text, expected):
    if expected is None:
        assert resolve(text).host_count == 4096
        return
    with pytest.raises(PlatformError) as caught:
        resolve(text)
    message = str(caught.value)
    assert expected in message and "\n" not in message and message.startswith(f"--platform {text}")


def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


PLATFORM = """<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="AS0" routing="Full">
    {body}
  </zone>
</platform>
"""


@pytest.mark.parametrize("body, problem", [
    (None, "no such file"),
    ("", "no <host> or <cluster>"),
    ('<cluster id="c" prefix="n" suffix="" radical="0-x" speed="1Gf" bw="1GBps" lat="1us"/>', "radical"),
    ('<cluster id="c" prefix="n" suffix="" radical="5-3" speed="1Gf" bw="1GBps" lat="1us"/>', "radical"),
    ('<cluster id="c" prefix="n" suffix="" speed="1Gf" bw="1GBps" lat="1us"/>', "no radical"),
    ('<host speed="1Gf"/>', "without an id"),
    ('<include file="other.xml"/>', "cannot be expanded"),
])
def test_bad_platform_files(tmp_path, body, problem):
    path = tmp_path / "p.xml"
    if body is not None:
        _write(path, PLATFORM.format(body=body))
    with pytest.raises(PlatformError) as caught:
        resolve(str(path))
    message = str(caught.value)
    assert problem in message and "\n" not in message, message


@pytest.mark.parametrize("content, problem", [
    ("", "not XML"),
    ("this is not a platform\n", "not XML"),
    ("<platform><host id='a'/>", "not XML"),  # truncated
    ("<?xml version='1.0'?><html><body/></html>", "not a SimGrid <platform>"),
])
def test_files_that_are_not_platforms(tmp_path, content, problem):
    path = _write(tmp_path / "p.xml", content)
    with pytest.raises(PlatformError) as caught:
        resolve(str(path))
    message = str(caught.value)
    assert problem in message and "\n" not in message
    assert "name a shipped platform (torus" in message  # how to fix it


def test_directory_and_unreadable_file(tmp_path):
    with pytest.raises(PlatformError, match="is a directory"):
        resolve(str(tmp_path))
    path = _write(tmp_path / "p.xml", PLATFORM.format(body='<host id="a" speed="1Gf"/>'))
    path.chmod(0)
    try:
        if os.access(path, os.R_OK):
            pytest.skip("running as root: a mode-0 file is still readable")
        with pytest.raises(PlatformError, match="cannot read it"):
            resolve(str(path))
    finally:
        path.chmod(0o644)


def test_empty_platform_argument():
    with pytest.raises(PlatformError, match="--platform is empty"):
        resolve("  ")


def test_user_file_hosts_in_order(tmp_path):
    body = ('<host id="front" speed="1Gf"/>\n'
            '<cluster id="c" prefix="n-" suffix=".lan" radical="0-3,8-9" speed="2Gf" bw="10Gbps" lat="5us"/>\n'
            '<host id="back" speed="1Gf"/>')
    path = _write(tmp_path / "mine.xml", PLATFORM.format(body=body))
    platform = resolve(str(path))
    assert list(platform.host_names()) == ["front", "n-0.lan", "n-1.lan", "n-2.lan", "n-3.lan", "n-8.lan",
                                           "n-9.lan", "back"]
    assert (platform.name, platform.host_count, platform.shipped) == ("mine", 8, False)
    assert platform.topology == "CUSTOM 1 clusters, 2 hosts"
    assert platform.sha256 == hashlib.sha256(path.read_bytes()).hexdigest()
    with pytest.raises(PlatformError, match="shipped platforms only"):
        platform.route(0, 1)


def test_user_cluster_parameters_in_si_units(tmp_path):
    body = ('<cluster id="c" prefix="h" suffix="" radical="0-15" speed="1.5Gf" core="4" bw="10Gbps" lat="50us" '
            'bb_bw="125MBps" bb_lat="0.5ms" topology="TORUS" topo_parameters="4,4"/>')
    platform = resolve(str(_write(tmp_path / "t.xml", PLATFORM.format(body=body))))
    assert platform.topology == "TORUS 4,4" and platform.host_count == 16
    assert platform.parameters == pytest.approx({
        "link_bandwidth_Bps": 1.25e9, "link_latency_s": 50e-6, "backbone_bandwidth_Bps": 125e6,
        "backbone_latency_s": 0.5e-3, "core_speed_flops": 1.5e9, "cores_per_node": 4})


def test_host_count_without_listing_hosts(tmp_path):
    # A million-host cluster: counted from its radical, named lazily.
    body = '<cluster id="c" prefix="h" suffix="" radical="0-999999" speed="1Gf" bw="1GBps" lat="1us"/>'
    platform = resolve(str(_write(tmp_path / "big.xml", PLATFORM.format(body=body))))
    assert platform.host_count == 1_000_000
    assert list(itertools.islice(platform.host_names(), 2)) == ["h0", "h1"]


def test_a_file_named_like_a_shipped_platform_is_a_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _write(tmp_path / "torus", PLATFORM.format(body='<host id="a" speed="1Gf"/><host id="b" speed="1Gf"/>'))
    platform = resolve("torus")
    assert (platform.shipped, platform.host_count) == (False, 2)


@pytest.mark.parametrize("name, first, second, links", [
    ("torus", 0, 1, 1), ("torus", 0, 8, 8), ("torus", 0, 15, 1), ("torus", 0, 16, 1), ("torus", 0, 16 * 12, 1),
    ("torus", 0, 8 + 16 * 6 + 16 * 12 * 8, 22),
    ("fattree", 0, 7, 2), ("fattree", 0, 8, 4), ("flat", 0, 4095, 3),
])
def test_routes_of_shipped_platforms(name, first, second, links):
    platform = resolve(name)
    latency, bandwidth, count = platform.route(first, second)
    assert count == links
    backbone = "backbone_latency_s" in platform.parameters  # flat: private link, backbone, private link
    assert latency == pytest.approx((links - backbone) * platform.parameters["link_latency_s"]
                                    + platform.parameters.get("backbone_latency_s", 0.0))
    assert bandwidth == platform.parameters["link_bandwidth_Bps"]
    with pytest.raises(PlatformError, match="no host"):
        platform.route(0, platform.host_count)


def test_unwritable_cache_is_one_line(tmp_path, monkeypatch):
    blocker = _write(tmp_path / "not-a-directory", "")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    with pytest.raises(PlatformError) as caught:
        resolve("flat:8")
    message = str(caught.value)
    assert "cannot write" in message and "XDG_CACHE_HOME" in message and "\n" not in message
    assert resolve("flat").host_count == 4096  # the shipped sizes need no cache
