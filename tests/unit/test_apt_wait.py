"""scripts/apt-wait.sh: setup's apt-get waits, bounded and saying so, while another apt-get holds the lock
(it failed with 100 in 3 s). A fake apt-get on PATH stands in for apt's."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LOCKED = ("E: Could not get lock /var/lib/apt/lists/lock. It is held by process 4242 (apt-get)\n"
          "E: Unable to lock directory /var/lib/apt/lists/\n")


def fake_apt(tmp_path: Path, locked_calls: int) -> Path:
    """An apt-get that fails on the lock for its first locked_calls calls, then succeeds; calls counted."""
    bindir = tmp_path / "bin"
    bindir.mkdir()
    script = bindir / "apt-get"
    script.write_text(f"""#!/bin/bash
echo "$*" >>{tmp_path}/calls
n=$(wc -l <{tmp_path}/calls)
if [ "$n" -le {locked_calls} ]; then printf '{LOCKED}' >&2; exit 100; fi
echo "Reading package lists..."
""")
    script.chmod(0o755)
    return bindir


def apt_get(tmp_path: Path, bindir: Path, wait_s: int, *args: str) -> subprocess.CompletedProcess:
    command = (f'set -euo pipefail; PATH={bindir}:$PATH APT_LOCK_WAIT_S={wait_s} APT_LOCK_POLL_S=0.1; '
               f'. {ROOT}/scripts/apt-wait.sh; apt_get {" ".join(args)}')
    return subprocess.run(["bash", "-c", command], capture_output=True, text=True, timeout=60)


def test_a_held_lock_is_waited_for_and_said(tmp_path):
    done = apt_get(tmp_path, fake_apt(tmp_path, 3), 60, "update", "-q")
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""  # apt's own chatter dropped, as setup did
    assert done.stderr.splitlines() == [
        "apt-get update: another apt-get or dpkg holds apt's lock (held by process 4242 (apt-get)); waiting for it, "
        "at most 60 s (APT_LOCK_WAIT_S)"]
    calls = (tmp_path / "calls").read_text().splitlines()
    assert calls == ["-o DPkg::Lock::Timeout=60 update -q"] * 4


def test_the_wait_is_bounded(tmp_path):
    done = apt_get(tmp_path, fake_apt(tmp_path, 10**6), 1, "install", "-y", "mpich")
    assert done.returncode == 100
    assert "Could not get lock" in done.stderr
    assert done.stderr.splitlines()[-1] == "apt-get: gave up after waiting 1 s for apt's lock (APT_LOCK_WAIT_S)"


def test_the_setup_scripts_call_apt_get_through_it():
    for script in ("setup.sh", "slurm-local.sh"):
        text = (ROOT / "scripts" / script).read_text()
        assert "apt-wait.sh" in text
        assert not re.search(r"^\s*[^#\n]*\bapt-get (update|install)", text, re.M), script
