"""The collective algorithms an MPI library can be forced to, and the settings that force them.

Read from the library itself through the MPI tool information interface
(`mpimark-core mpit`, a singleton, no launcher), except Intel MPI, whose
I_MPI_ADJUST ids are documented data (data/impi_adjust.json):

| library | control variable | algorithms from | forcing setting | check that it took |
|---|---|---|---|---|
| Open MPI | `coll_tuned_<op>_algorithm` | the cvar's MPI_T enumeration | `OMPI_MCA_coll_tuned_<op>_algorithm=ID` and `OMPI_MCA_coll_tuned_use_dynamic_rules=1` | the value read back through MPI_T in the run |
| MPICH | `MPIR_CVAR_<OP>_INTRA_ALGORITHM` | the cvar's description (an int cvar without an enumeration in MPICH 4.0; the names are what the variable takes) | `MPIR_CVAR_<OP>_INTRA_ALGORITHM=NAME` and `MPIR_CVAR_COLLECTIVE_FALLBACK=error` | the value read back (its position in the list), and the fallback setting makes an algorithm that cannot run an error |
| Intel MPI | `I_MPI_ADJUST_<OP>` | data/impi_adjust.json | `I_MPI_ADJUST_<OP>=ID` | none (not verifiable) |

Pure parsing (`from_mpit`, `mpich_items`) is separate from asking the core
(`catalog`), so the parsers are unit-tested on recorded documents.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from mpimark.errors import MpimarkError
from mpimark.execution.mpi import MpiImpl

MPIT_CVARS_ENV = "MPIMARK_MPIT_CVARS"  # the core records these cvars' values in the run record
EXIT_NO_MPIT = 5  # mpimark-core mpit: the library has no MPI_T

# IMB's benchmark names of the blocking collectives, as the libraries spell the operation.
OPERATIONS = ("Allgather", "Allgatherv", "Allreduce", "Alltoall", "Alltoallv", "Barrier", "Bcast", "Exscan",
              "Gather", "Gatherv", "Reduce", "Reduce_scatter", "Reduce_scatter_block", "Scan", "Scatter",
              "Scatterv")


class AlgorithmError(MpimarkError):
    """No algorithms to be had: an operation without selectable algorithms, a library without MPI_T."""


@dataclass(frozen=True)
class Algorithm:
    id: int  # the library's number: Open MPI's enumeration value, MPICH's position, Intel's id
    name: str
    value: str  # what the forcing variable is set to


@dataclass(frozen=True)
class Selectable:
    """One collective of one library: its algorithms and how to force one."""

    op: str  # IMB's name (Allreduce)
    variable: str  # the environment variable that forces it
    cvar: str | None  # the MPI_T control variable read back in the run (None: not verifiable)
    algorithms: tuple[Algorithm, ...]
    extra_env: tuple[tuple[str, str], ...] = ()  # what must be set with it

    def find(self, word: str) -> Algorithm:
        for a in self.algorithms:
            if word == str(a.id) or word.lower() == a.name.lower():
                return a
        known = ", ".join(f"{a.id} ({a.name})" for a in self.algorithms)
        raise AlgorithmError(f"{self.op} has no algorithm '{word}'; it has {known}")

    def env(self, algorithm: Algorithm) -> tuple[tuple[str, str], ...]:
        """The variables that force the algorithm, in order."""
        return (*self.extra_env, (self.variable, algorithm.value))

    def setting(self, algorithm: Algorithm) -> str:
        return " ".join(f"{k}={v}" for k, v in self.env(algorithm))

    def to_record(self) -> dict:
        return {"op": self.op, "variable": self.variable, "cvar": self.cvar, "extra_env": [list(e) for e in self.extra_env],
                "algorithms": [{"id": a.id, "name": a.name, "value": a.value} for a in self.algorithms]}

    @classmethod
    def from_record(cls, record: Mapping) -> Selectable:
        return cls(record["op"], record["variable"], record.get("cvar"),
                   tuple(Algorithm(a["id"], a["name"], a["value"]) for a in record["algorithms"]),
                   tuple(tuple(e) for e in record.get("extra_env", ())))


def canonical_op(word: str) -> str:
    for op in OPERATIONS:
        if op.lower() == word.lower():
            return op
    raise AlgorithmError(f"'{word}' is not a blocking collective of IMB-MPI1 ({', '.join(OPERATIONS)})")


# -- parsing ---------------------------------------------------------------------------------------

_MPICH_ITEM = re.compile(r"(\s+)- ")


def mpich_items(description: str) -> list[str]:
    """The names MPICH's `MPIR_CVAR_<OP>_INTRA_ALGORITHM` takes, in order (auto first), from its description.

    MPICH 4.0 joins the description's lines without a separator: "...select
    bcast algorithmauto - Internal ... JSON_FILE)binomial      - Force Binomial
    Treenb      - Force ...". The names after `auto` are padded to one column
    width, and the first of them follows auto's ")" exactly, which gives the
    width; each later name is the last (width - padding) characters before
    its padding.
    """
    start = description.find("auto - ")
    if start < 0:
        return []
    names = ["auto"]
    text = description[start + len("auto - "):]
    marks = list(_MPICH_ITEM.finditer(text))
    width = None
    for i, mark in enumerate(marks):
        before = text[marks[i - 1].end() if i else 0:mark.start()]
        pad = len(mark.group(1))
        if width is None:
            first = re.search(r"[A-Za-z0-9_]+$", before.rsplit(")", 1)[-1])
            if not first:
                return names
            width = len(first.group(0)) + pad
        take = width - pad
        if take < 1:
            continue
        name = before[-take:]
        if re.fullmatch(r"[A-Za-z0-9_]+", name):
            names.append(name)
    return names


def from_mpit(kind: str, doc: Mapping) -> dict[str, Selectable]:
    """Every blocking collective with selectable algorithms, from `mpimark-core mpit`'s document."""
    found: dict[str, Selectable] = {}
    cvars = {c["name"]: c for c in doc.get("cvars", [])}
    for op in OPERATIONS:
        if kind == "openmpi":
            name = f"coll_tuned_{op.lower()}_algorithm"
            c = cvars.get(name)
            if not c or not c.get("enumeration"):
                continue
            algs = tuple(Algorithm(i["value"], i["name"], str(i["value"]))
                         for i in c["enumeration"]["items"] if i["value"] != 0)
            if algs:
                found[op] = Selectable(op, f"OMPI_MCA_{name}", name, algs,
                                       (("OMPI_MCA_coll_tuned_use_dynamic_rules", "1"),))
        elif kind == "mpich":
            name = f"MPIR_CVAR_{op.upper()}_INTRA_ALGORITHM"
            c = cvars.get(name)
            if not c:
                continue
            items = mpich_items(c.get("description") or "")
            algs = tuple(Algorithm(i, n, n) for i, n in enumerate(items) if n != "auto")
            if algs:
                found[op] = Selectable(op, name, name, algs, (("MPIR_CVAR_COLLECTIVE_FALLBACK", "error"),))
    return found


def impi_catalog() -> tuple[dict[str, Selectable], dict]:
    """Intel MPI's documented ids (data/impi_adjust.json) and the file's provenance."""
    data = json.loads(resources.files("mpimark.execution").joinpath("data/impi_adjust.json").read_text("utf-8"))
    found = {}
    for op, names in data["operations"].items():
        algs = tuple(Algorithm(i, n, str(i)) for i, n in enumerate(names, start=1))
        found[op] = Selectable(op, f"I_MPI_ADJUST_{op.upper()}", None, algs)
    return found, {k: data[k] for k in ("source", "holds_for")}


# -- asking the core -------------------------------------------------------------------------------


def mpit_document(impl: MpiImpl, core: Path | str, match: str) -> dict:
    """`mpimark-core mpit -match MATCH` run as a singleton under impl's environment."""
    try:
        proc = subprocess.run([str(core), "mpit", "-match", match], capture_output=True, text=True, errors="replace",
                              timeout=120,
                              stdin=subprocess.DEVNULL, env={**os.environ, **impl.env})
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise AlgorithmError(f"cannot ask {impl.name} for its control variables: {exc}") from None
    if proc.returncode == EXIT_NO_MPIT:
        raise AlgorithmError(f"{impl.name} ({impl.library_version}) has no MPI tool information interface (MPI_T)")
    if proc.returncode != 0:
        last = (proc.stderr.strip().splitlines() or ["no message"])[-1]
        raise AlgorithmError(f"mpimark-core mpit failed under {impl.name} (exit {proc.returncode}): {last}")
    try:
        return json.loads(proc.stdout)
    except ValueError as exc:
        raise AlgorithmError(f"mpimark-core mpit under {impl.name} wrote no JSON: {exc}") from None


def catalog(impl: MpiImpl, core: Path | str) -> tuple[dict[str, Selectable], str]:
    """The selectable collectives of impl and where the list came from."""
    if impl.kind == "openmpi":
        return from_mpit("openmpi", mpit_document(impl, core, "coll_tuned_")), "MPI_T (coll_tuned enumerations)"
    if impl.kind == "mpich":
        return from_mpit("mpich", mpit_document(impl, core, "_INTRA_ALGORITHM")), "MPI_T (cvar descriptions)"
    if impl.kind == "impi":
        found, origin = impi_catalog()
        return found, f"documentation: {origin['source']}; {origin['holds_for']}"
    raise AlgorithmError(f"{impl.name} ({impl.vendor}): mpimark knows no way to select its collective algorithms")


def select(found: Mapping[str, Selectable], ops: list[str], impl: MpiImpl) -> list[Selectable]:
    """The Selectable of each op named (every one with none named); an op without algorithms is an error."""
    if not ops:
        return list(found.values())
    chosen = []
    for word in ops:
        op = canonical_op(word)
        if op not in found:
            raise AlgorithmError(f"{op} has no selectable algorithms in {impl.name} ({impl.library_version})")
        chosen.append(found[op])
    return chosen


def verify(selectable: Selectable, algorithm: Algorithm | None, run_record: Mapping) -> str | None:
    """Why the run does not show the algorithm forced (None: it does, or there is nothing to check).

    algorithm None is the library's default: its cvar must read the default (0).
    """
    if selectable.cvar is None:
        return None
    values = run_record.get("mpit_cvars")
    if not isinstance(values, Mapping) or selectable.cvar not in values:
        return f"the run record holds no value of {selectable.cvar} (the core could not read it through MPI_T)"
    got = values[selectable.cvar]
    if got is None:
        return f"{selectable.cvar} is unknown to the library in the run"
    want = 0 if algorithm is None else algorithm.id
    if got.get("value") != want:
        what = "the default" if algorithm is None else f"{algorithm.name} ({algorithm.id})"
        return f"{selectable.cvar} read {got.get('value')} in the run, not {want}: {what} was not forced"
    return None


def mpich_builtin_selection(core: Path | str) -> dict | None:
    """MPICH's own MPIR-level selection tree, read from the libmpich the core is linked with.

    A file given with MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE replaces the
    whole tree, and MPICH 4.0 asserts (mpir_coll.c, `cnt`) when a collective
    has no entry, so a tuning file must carry every other collective as the
    library selects it. MPICH keeps that tree as one JSON string in the
    library; this finds it (the one whose algorithms are MPIR_*). None when
    it cannot be found.
    """
    try:
        out = subprocess.run(["ldd", str(core)], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.TimeoutExpired):
        return None
    libs = re.findall(r"=>\s*(\S*lib(?:mpich|mpi)\.so\S*)", out)
    for lib in libs:
        try:
            data = Path(lib).read_bytes()
        except OSError:
            continue
        for blob in re.findall(rb'\{"collective=[^\x00]+', data):
            if b'"algorithm=MPIR_Allreduce_intra' not in blob:
                continue
            try:
                return json.loads(blob.decode())
            except ValueError:
                continue
    return None


# -- a tuning file in a run (tune --verify) ---------------------------------------------------------


def tuning_env(kind: str, path: Path, impi_settings: Mapping[str, str] | None = None
               ) -> tuple[tuple[tuple[str, str], ...], dict[str, str]]:
    """The variables that make the library use a tuning file (as --env sets them), and the MPI_T
    control variables whose value in the run shows that it took them (name -> expected value)."""
    if kind == "openmpi":
        return ((("OMPI_MCA_coll_tuned_use_dynamic_rules", "1"),
                 ("OMPI_MCA_coll_tuned_dynamic_rules_filename", str(path))),
                {"coll_tuned_use_dynamic_rules": "1", "coll_tuned_dynamic_rules_filename": str(path)})
    if kind == "mpich":
        # MPICH 4.0.2 gives its string control variables a count of 0 through MPI_T, so the file's name
        # reads back empty: nothing to check in the run (docs/algorithms.md).
        return (("MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE", str(path)),), {}
    if kind == "impi":
        return tuple((impi_settings or {}).items()), {}
    raise AlgorithmError(f"no tuning file format for an MPI of kind {kind}")


def verify_tuning(expected: Mapping[str, str], run_record: Mapping) -> str | None:
    """Why the run does not show the tuning file's settings taken (None: it does, or nothing to check)."""
    if not expected:
        return None
    values = run_record.get("mpit_cvars")
    for name, want in expected.items():
        got = values.get(name) if isinstance(values, Mapping) else None
        if got is None:
            return f"the run record holds no value of {name} (the core could not read it through MPI_T)"
        value = got.get("value")
        if str(int(value) if isinstance(value, bool) else value) != want:
            return f"{name} read {value!r} in the run, not {want!r}: the tuning file was not taken"
    return None
