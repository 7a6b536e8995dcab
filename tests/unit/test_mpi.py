"""mpi.py without an MPI: the probe is replaced or its subprocess mocked."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from mpimark.execution import mpi

OPEN_MPI = "Open MPI v4.1.4, package: Debian OpenMPI, ident: 4.1.4, repo rev: v4.1.4, May 26, 2022"
MPICH = "MPICH Version:\t4.0.2\nMPICH Release date:\tThu Apr  7 12:34:45 CDT 2022"
INTEL = "Intel(R) MPI Library 2021.18.1 for Linux* OS\n"


def executable(path: Path, text: str = "#!/bin/sh\n") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(0o755)
    return path


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))  # no wheels mpimark installed for real
    monkeypatch.delenv("MPIMARK_MPI_HOME", raising=False)
    monkeypatch.delenv(mpi.DEFAULT_ENV, raising=False)  # set by a wheel setup's env file (test_default_mpi.py)


@pytest.fixture
def fake_system(tmp_path, monkeypatch):
    """Debian's layout in a temporary /usr/bin: mpicc -> mpicc.openmpi, and mpicc.mpich; no wheels."""
    bindir = tmp_path / "usr" / "bin"
    ompi = executable(bindir / "mpicc.openmpi")
    mpich = executable(bindir / "mpicc.mpich")
    for launcher in ("mpiexec.openmpi", "mpiexec.hydra"):
        executable(bindir / launcher)
    os.symlink(ompi, bindir / "mpicc")  # the alternatives link, as on Debian
    monkeypatch.setattr(mpi, "DEBIAN_WRAPPERS", (
        (str(ompi), (str(bindir / "mpiexec.openmpi"),)),
        (str(mpich), (str(bindir / "mpiexec.hydra"), str(bindir / "mpiexec.mpich"))),
    ))
    monkeypatch.setenv("PATH", str(bindir))
    monkeypatch.setattr(mpi, "installed_wheels", lambda: [])
    answers = {str(ompi): ("3.1", OPEN_MPI), str(mpich): ("4.0", MPICH)}
    monkeypatch.setattr(mpi, "probe", lambda mpicc, env=None: answers[mpicc])
    return bindir


@pytest.mark.parametrize("line, expected", [
    (OPEN_MPI, ("openmpi", "Open MPI", "4.1.4")),
    ("MPICH Version:\t4.0.2", ("mpich", "MPICH", "4.0.2")),
    ("Intel(R) MPI Library 2021.18.1 for Linux* OS", ("impi", "Intel MPI", "2021.18.1")),
    ("SMPI Version 3.32. Copyright The SimGrid Team 2007-2022", ("smpi", "SimGrid SMPI", "3.32")),
    ("FooMPI 1.0 (c) Foo", ("mpi", "FooMPI", "unknown")),
])
def test_identify(line, expected):
    assert mpi.identify(line) == expected


def test_discovery_pairs_each_wrapper_with_its_own_launcher(fake_system):
    impls, problems = mpi.discover()
    assert problems == []
    assert [(i.name, i.vendor, i.version, i.standard_version, i.source) for i in impls] == [
        ("openmpi", "Open MPI", "4.1.4", "3.1", "system"),
        ("mpich", "MPICH", "4.0.2", "4.0", "system"),
    ]
    # PATH's mpicc is the alternatives link to mpicc.openmpi: found once, by its Debian name.
    assert impls[0].mpicc == str(fake_system / "mpicc.openmpi")
    assert impls[0].mpiexec == str(fake_system / "mpiexec.openmpi")
    assert impls[1].mpiexec == str(fake_system / "mpiexec.hydra")
    assert impls[0].library_version == OPEN_MPI
    assert impls[1].library_version == "MPICH Version:\t4.0.2"  # the first line, as the core reports it


def test_find_default_named_and_unknown(fake_system):
    assert mpi.find().name == "openmpi"
    assert mpi.find("mpich").vendor == "MPICH"
    with pytest.raises(mpi.MpiError, match=r"unknown MPI implementation 'nope'; found: openmpi, mpich"):
        mpi.find("nope")


def test_an_mpicc_on_path_outside_debian_uses_the_launcher_beside_it(tmp_path, monkeypatch, fake_system):
    other = tmp_path / "opt" / "ompi5" / "bin"
    executable(other / "mpicc")
    executable(other / "mpiexec")
    monkeypatch.setenv("PATH", f"{other}{os.pathsep}{fake_system}")
    answers = {str(other / "mpicc"): ("3.1", "Open MPI v5.0.3, package: Open MPI"),
               str(fake_system / "mpicc.openmpi"): ("3.1", OPEN_MPI), str(fake_system / "mpicc.mpich"): ("4.0", MPICH)}
    monkeypatch.setattr(mpi, "probe", lambda mpicc, env=None: answers[mpicc])
    impls, _ = mpi.discover()
    assert [(i.name, i.version, i.mpiexec, i.prefix) for i in impls] == [
        ("openmpi", "5.0.3", str(other / "mpiexec"), str(other.parent)),
        ("openmpi-2", "4.1.4", str(fake_system / "mpiexec.openmpi"), str(fake_system.parent)),
        ("mpich", "4.0.2", str(fake_system / "mpiexec.hydra"), str(fake_system.parent)),
    ]


def test_wheel_in_the_running_environment(tmp_path, monkeypatch):
    prefix = tmp_path / "venv"
    executable(prefix / "bin" / "mpicc")
    executable(prefix / "bin" / "mpiexec")
    executable(prefix / "bin" / "impi_info")  # an Intel MPI layout: needs I_MPI_ROOT
    monkeypatch.setattr(sys, "prefix", str(prefix))
    monkeypatch.setenv("PATH", str(prefix / "bin"))  # an activated venv: its mpicc is the wheel, not "system"
    monkeypatch.setattr(mpi, "DEBIAN_WRAPPERS", ())
    monkeypatch.setattr(mpi, "installed_wheels", lambda: ["impi"])
    seen_env = {}

    def probe(mpicc, env=None):
        seen_env.update(env)
        return "4.1", INTEL

    monkeypatch.setattr(mpi, "probe", probe)
    impls, _ = mpi.discover()
    assert [(i.name, i.vendor, i.version, i.source) for i in impls] == [("impi-wheel", "Intel MPI", "2021.18.1", "wheel")]
    assert seen_env["I_MPI_ROOT"] == str(prefix) == impls[0].env["I_MPI_ROOT"]
    assert impls[0].env["LD_LIBRARY_PATH"].split(":")[0] == f"{prefix}/lib"


def test_prefix(tmp_path, monkeypatch):
    prefix = tmp_path / "mpich"
    executable(prefix / "bin" / "mpicc")
    executable(prefix / "bin" / "mpiexec")
    monkeypatch.setattr(mpi, "probe", lambda mpicc, env=None: ("4.0", MPICH))
    impl = mpi.find(prefix=str(prefix))
    assert (impl.name, impl.source, impl.mpicc, impl.mpiexec, impl.env) == (
        "mpich-prefix", "prefix", str(prefix / "bin" / "mpicc"), str(prefix / "bin" / "mpiexec"), {})
    with pytest.raises(mpi.MpiError, match="not both"):
        mpi.find("mpich", prefix=str(prefix))


def test_empty_prefix_says_where_mpicc_was_looked_for(tmp_path):
    with pytest.raises(mpi.MpiError, match=f"no MPI C compiler at {tmp_path}/bin/mpicc; give --mpi-prefix"):
        mpi.find(prefix=str(tmp_path))


def test_a_broken_candidate_is_reported_not_fatal(fake_system, monkeypatch):
    def probe(mpicc, env=None):
        if mpicc.endswith("mpich"):
            raise mpi.MpiError(f"{mpicc} cannot compile an MPI program: mpi.h: No such file or directory")
        return "3.1", OPEN_MPI

    monkeypatch.setattr(mpi, "probe", probe)
    impls, problems = mpi.discover()
    assert [i.name for i in impls] == ["openmpi"]
    assert len(problems) == 1 and "mpi.h: No such file" in problems[0]


def test_nothing_found(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr(mpi, "DEBIAN_WRAPPERS", ())
    monkeypatch.setattr(mpi, "installed_wheels", lambda: [])
    with pytest.raises(mpi.MpiError, match="no MPI implementation found; install one"):
        mpi.find()


class FakeRun:
    """subprocess.run for the probe: 'compiles' by writing the output file, 'runs' by printing."""

    def __init__(self, output: str, compile_error: str | None = None) -> None:
        self.output, self.compile_error, self.calls = output, compile_error, []

    def __call__(self, argv, **kwargs):
        self.calls.append(argv)
        if len(argv) > 1:  # mpicc probe.c -o probe
            if self.compile_error:
                return subprocess.CompletedProcess(argv, 1, "", f"warning: x\n{self.compile_error}\n")
            Path(argv[-1]).write_text("")
            return subprocess.CompletedProcess(argv, 0, "", "")
        return subprocess.CompletedProcess(argv, 0, self.output, "")


def test_probe_is_cached_by_path_and_mtime(tmp_path, monkeypatch):
    mpicc = executable(tmp_path / "mpicc")
    fake = FakeRun(f"3.1\n{OPEN_MPI}\n")
    monkeypatch.setattr(mpi.subprocess, "run", fake)
    assert mpi.probe(str(mpicc)) == ("3.1", OPEN_MPI)
    assert len(fake.calls) == 2  # compiled and ran once
    assert mpi.probe(str(mpicc)) == ("3.1", OPEN_MPI)
    assert len(fake.calls) == 2  # answered from the cache
    os.utime(mpicc, ns=(1, 1))  # a reinstalled MPI has a new mtime
    mpi.probe(str(mpicc))
    assert len(fake.calls) == 4


def test_probe_compile_failure_is_one_line(tmp_path, monkeypatch):
    mpicc = executable(tmp_path / "mpicc")
    monkeypatch.setattr(mpi.subprocess, "run", FakeRun("", compile_error="probe.c:1:10: fatal error: mpi.h: No such file"))
    with pytest.raises(mpi.MpiError) as caught:
        mpi.probe(str(mpicc))
    assert str(caught.value) == f"{mpicc} cannot compile an MPI program: probe.c:1:10: fatal error: mpi.h: No such file"


def impl(kind: str) -> mpi.MpiImpl:
    return mpi.MpiImpl(name=kind, kind=kind, vendor=kind, version="1", standard_version="3.1", library_version=kind,
                       mpicc="mpicc", mpiexec="mpiexec", prefix="/usr", source="system")


@pytest.mark.parametrize("kind, root, n, expected", [
    ("openmpi", True, 2, ["--allow-run-as-root"]),
    ("openmpi", True, 3, ["--allow-run-as-root", "--oversubscribe"]),
    ("openmpi", False, 2, []),
    ("openmpi", False, 4, ["--oversubscribe"]),
    ("mpich", True, 4, []),
    ("impi", True, 4, []),
])
def test_launch_flags(monkeypatch, kind, root, n, expected):
    monkeypatch.setattr(mpi.os, "geteuid", lambda: 0 if root else 1000)
    assert mpi.launch_flags(impl(kind), n, cores=2) == expected


def test_cores_counts_at_most_the_cpus_we_may_use():
    assert 1 <= mpi.cores() <= len(os.sched_getaffinity(0))


def test_installed_wheels_are_found_side_by_side(fake_system, tmp_path, monkeypatch):
    home = tmp_path / "mpis"
    monkeypatch.setenv("MPIMARK_MPI_HOME", str(home))
    for name in ("impi", "openmpi"):
        executable(home / name / "bin" / "mpicc")
        executable(home / name / "bin" / "mpiexec")
    executable(home / "impi" / "bin" / "impi_info")
    answers = {str(fake_system / "mpicc.openmpi"): ("3.1", OPEN_MPI), str(fake_system / "mpicc.mpich"): ("4.0", MPICH),
               str(home / "openmpi" / "bin" / "mpicc"): ("3.1", "Open MPI v5.0.11, package: Open MPI"),
               str(home / "impi" / "bin" / "mpicc"): ("4.1", INTEL)}
    monkeypatch.setattr(mpi, "probe", lambda mpicc, env=None: answers[mpicc])
    impls, problems = mpi.discover()
    assert problems == []
    assert [(i.name, i.version, i.source, i.prefix) for i in impls] == [
        ("openmpi", "4.1.4", "system", str(fake_system.parent)),
        ("mpich", "4.0.2", "system", str(fake_system.parent)),
        ("openmpi-wheel", "5.0.11", "wheel", str(home / "openmpi")),
        ("impi-wheel", "2021.18.1", "wheel", str(home / "impi")),
    ]
    intel = impls[-1]
    assert intel.mpiexec == str(home / "impi" / "bin" / "mpiexec")
    assert intel.env["I_MPI_ROOT"] == str(home / "impi") == intel.env["FI_PROVIDER_PATH"][:-len("/lib")]
    assert impls[2].env == {}
    # A kind names its first implementation: the system's where there is one.
    assert mpi.find("impi") == intel and mpi.find("openmpi").source == "system"
    assert mpi.find("openmpi-wheel").prefix == str(home / "openmpi")


class FakePip:
    """subprocess.run for pip: download 'saves' the wheel files, install 'installs' the dist-info."""

    def __init__(self, fail: str | None = None) -> None:
        self.calls, self.fail = [], fail

    def __call__(self, argv, timeout=None):
        assert argv[:4] == [sys.executable, "-m", "pip", "--disable-pip-version-check"]
        command, args = argv[4], argv[5:]
        self.calls.append([command, *args])
        if command == self.fail:
            return subprocess.CompletedProcess(argv, 1)
        pins = [a for a in args if "==" in a]
        if command == "download":
            dest = Path(args[args.index("--dest") + 1])
            dest.mkdir(parents=True, exist_ok=True)
            for pin in pins:
                name, version = pin.split("==")
                (dest / f"{name.replace('-', '_')}-{version}-py2.py3-none-manylinux_2_28_x86_64.whl").write_text("")
        else:
            prefix = Path(args[args.index("--prefix") + 1])
            for pin in pins:
                name, version = pin.split("==")
                (prefix / "lib" / "python3.11" / "site-packages" / f"{name.replace('-', '_')}-{version}.dist-info"
                 ).mkdir(parents=True)
            executable(prefix / "bin" / "mpicc")
        return subprocess.CompletedProcess(argv, 0)


def test_install_puts_each_wheel_in_a_prefix_of_its_own(tmp_path, monkeypatch):
    monkeypatch.setenv("MPIMARK_MPI_HOME", str(tmp_path / "mpis"))
    wheels = tmp_path / "data" / "mpimark" / "wheels"
    pip = FakePip()
    monkeypatch.setattr(mpi.subprocess, "run", pip)
    said = []
    prefix = mpi.install_wheel("impi", log=said.append)
    pins = ["impi-rt==2021.18.1", "impi-devel==2021.18.1"]
    assert prefix == tmp_path / "mpis" / "impi" and (prefix / "bin" / "mpicc").exists()
    assert said == [f"downloading {' '.join(pins)} into {wheels}", f"installing {' '.join(pins)} into {prefix}"]
    download, install = pip.calls
    assert download == ["download", "--only-binary=:all:", "--no-cache-dir", "--dest", str(wheels), *pins]
    assert install[:5] == ["install", "--quiet", "--no-index", "--find-links", str(wheels)]
    assert install[-4:] == ["--ignore-installed", "--no-warn-script-location", *pins]
    assert sorted(p.name for p in prefix.parent.iterdir()) == ["impi"]  # no scratch directory left

    mpi.install_wheel("impi", log=said.append)  # installed: nothing to do
    assert len(pip.calls) == 2 and said[-1].endswith("already installed in " + str(prefix))
    mpi.install_wheel("mpich")  # another one, beside it
    assert sorted(p.name for p in prefix.parent.iterdir()) == ["impi", "mpich"]

    monkeypatch.setenv("MPIMARK_MPI_HOME", str(tmp_path / "elsewhere"))
    pip.calls.clear()
    mpi.install_wheel("impi")  # the wheels are kept: installed again without a download
    assert [call[0] for call in pip.calls] == ["install"]


def test_a_failed_install_leaves_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("MPIMARK_MPI_HOME", str(tmp_path / "mpis"))
    monkeypatch.setattr(mpi.subprocess, "run", FakePip(fail="install"))
    with pytest.raises(mpi.MpiError, match=r"'pip install .*openmpi==5.0.11' failed; see pip's output above"):
        mpi.install_wheel("openmpi")
    assert list((tmp_path / "mpis").iterdir()) == []
    monkeypatch.setattr(mpi.subprocess, "run", FakePip(fail="download"))
    with pytest.raises(mpi.MpiError, match=r"'pip download .*mpich==5.0.2' failed"):
        mpi.install_wheel("mpich")


@pytest.mark.parametrize("text, expected", [
    ("Open MPI v4.1.4, package: Debian OpenMPI, ident: 4.1.4, repo rev: v4.1.4, May 26, 2022", "Open MPI 4.1.4"),
    ("Open MPI v5.0.11", "Open MPI 5.0.11"),
    ("MPICH Version:\t4.0.2\nMPICH Release date:\tThu Apr  7 12:34:45 CDT 2022", "MPICH 4.0.2"),
    ("Intel(R) MPI Library 2021.18.1 for Linux* OS", "Intel MPI 2021.18.1"),
    ("FooMPI 1.0, (c) Foo", "FooMPI 1.0"),
    ("", None), (None, None),
])
def test_library_label(text, expected):
    from mpimark.records.mpi_library import label
    assert label(text) == expected
