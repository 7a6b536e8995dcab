"""What an MPI library's version string (MPI_Get_library_version) says: vendor, version, a short label.

execution/mpi.py identifies the implementations it finds with identify();
tables, legends and headings name a stored run's library with label(), so
"MPICH Version:\t4.0.2\nMPICH Release date: ..." is shown as "MPICH 4.0.2".
"""

from __future__ import annotations

import re

VENDORS = (
    ("openmpi", "Open MPI", re.compile(r"^Open MPI v([^\s,]+)")),  # Open MPI v4.1.4, package: ...
    ("mpich", "MPICH", re.compile(r"^MPICH Version:\s*(\S+)")),  # MPICH Version:<TAB>4.0.2
    # Intel(R) MPI Library 2021.18.1 for ...; its I_MPI_DEBUG start-up line: Intel(R) MPI Library, Version 2021.18.1 ...
    ("impi", "Intel MPI", re.compile(r"^Intel\(R\) MPI Library,? (?:Version )?(\S+)")),
    # SimGrid's SMPI (a simulator, docs/simulation.md): SMPI Version 3.32. Copyright The SimGrid Team 2007-2022
    ("smpi", "SimGrid SMPI", re.compile(r"^SMPI Version (\d+(?:\.\d+)*)")),
)


def identify(library_version: str) -> tuple[str, str, str]:
    """(kind, vendor, version) from the first line of MPI_Get_library_version."""
    for kind, vendor, pattern in VENDORS:
        match = pattern.match(library_version)
        if match:
            return kind, vendor, match.group(1)
    return "mpi", library_version.split(" ")[0] or "unknown", "unknown"


def one_line(library_version: str | None) -> str:
    """The full version string as one line of text: MPICH's "MPICH Version:<TAB>4.0.2" (and any other run of
    tabs, newlines or spaces) becomes one space, so a table cell or a `show` line is not broken by it."""
    return " ".join((library_version or "").split())


def label(library_version: str | None) -> str | None:
    """A short name of the library: "Open MPI 4.1.4", "MPICH 4.0.2", "Intel MPI 2021.18.1".

    A library of another vendor: its first line up to the first comma. None for no text.
    """
    first = (library_version or "").strip().splitlines()[0].strip() if (library_version or "").strip() else ""
    if not first:
        return None
    kind, vendor, version = identify(first)
    if kind != "mpi":
        return f"{vendor} {version}"
    return first.split(",")[0].strip() or None
