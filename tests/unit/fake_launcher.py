"""A stand-in for `mpiexec ... mpimark-core ... -json FILE`, for launch.py's unit tests.

Usage: python fake_launcher.py SCENARIO -json FILE. It writes the records of
tests/unit/records.py as the core would (flushed line by line), prints a
table line per result, and ends as SCENARIO says.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from records import end_record, event_record, result_record, run_record  # noqa: E402

scenario, json_path = sys.argv[1], sys.argv[sys.argv.index("-json") + 1]


def emit(stream, record) -> None:
    stream.write(json.dumps(record) + "\n")
    stream.flush()


if scenario == "bad_input":
    print("mpimark-core: error: unknown benchmark 'Foo' in suite mpi1; run 'mpimark-core mpi1 -list' to see the names",
          file=sys.stderr)
    print("-------------------------------------------------------\nPrimary job  terminated normally, but 1 process "
          "returned\na non-zero exit code.", file=sys.stderr)
    sys.exit(2)
if scenario == "refuse":
    print("There are not enough slots available in the system\nto satisfy the 4 slots requested.", file=sys.stderr)
    sys.exit(1)

with open(json_path, "w") as out:
    run = run_record()
    if scenario == "singletons":
        run["processes"] = 1
    emit(out, run)
    event = event_record()
    event["sizes"] = 2
    emit(out, event)
    for size in (0, 1024):
        time.sleep(0.05)
        emit(out, result_record(bytes=size, count=size))
        print(f"{size:>13} 1000 1.62", flush=True)
    if scenario == "partial":
        out.write('{"type": "result", "bench')
        out.flush()
        os._exit(137)
    if scenario == "rank_dies":
        sys.exit(137)
    if scenario == "library_aborts":  # MPICH's error stack of a forced algorithm it cannot use, as hydra passes it on
        sys.stderr.write((Path(__file__).parent / "data" / "launcher_stderr" / "mpich-alltoall-not-usable.txt")
                         .read_text())
        sys.exit(15)
    if scenario == "hang":
        # A "rank" in a process group of its own, as Open MPI starts them.
        child = os.fork()
        if child == 0:
            os.setpgid(0, 0)
            time.sleep(60)
            os._exit(0)
        Path(json_path + ".child").write_text(str(child))
        time.sleep(60)
    if scenario == "warnings":
        print("WARNING: a transport was not used", file=sys.stderr)
    emit(out, end_record())
sys.exit(0)
