"""The mpimark subcommands, one module per group of commands (docs/frontend.md).

Each module lists its click commands in COMMANDS; cli.py registers them.
What every command module needs (the --db option, the error line) is here.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TextIO, TypeVar

import click
from rich.console import Console

from mpimark.presentation.cells import terminal

F = TypeVar("F", bound=Callable)


def error_line(message: str) -> None:
    """The one form every failure takes (DESIGN.md, Conventions); a name from a file in it is shown, not obeyed."""
    click.echo(f"mpimark: error: {terminal(message, layout=True)}", err=True)


def echo_stored(text: str, nl: bool = True, err: bool = False, layout: bool = True) -> None:
    """click.echo of lines made of stored or imported text (hosts, library versions, messages, names): through
    cells.terminal, so an escape sequence in them is shown, not obeyed; layout=False for what is one line
    by design, where a newline too is the data's and is written out."""
    click.echo(terminal(text, layout=layout), nl=nl, err=err)


def db_option(function: F) -> F:
    """--db PATH, also read from $MPIMARK_DB; None means the default database."""
    return click.option(
        "--db", "db", type=click.Path(dir_okay=False), envvar="MPIMARK_DB",
        help="Results database [default: $MPIMARK_DB, else $XDG_DATA_HOME/mpimark/results.db, "
             "$XDG_DATA_HOME defaulting to ~/.local/share].",
    )(function)


def console(stream: TextIO) -> Console:
    """A rich console on stream; off a terminal 200 columns, so that a file or a log gets whole headers
    (rich would assume 80; show --stats of an IMB-NBC run with -check needs about 160)."""
    return Console(file=stream, width=None if stream.isatty() else 200)


def note(message: str) -> None:
    """A line of news on stderr: what mpimark did (built, stored as run N), not a result."""
    click.echo(f"mpimark: {terminal(message, layout=True)}", err=True)


def tilde(path: Path) -> str:
    """path with the home directory as ~, for messages."""
    home = os.path.expanduser("~")
    text = str(path)
    return "~" + text[len(home):] if home != "/" and text.startswith(home + os.sep) else text
