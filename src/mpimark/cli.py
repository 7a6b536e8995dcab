"""The `mpimark` command. Click declarations only; the work is in the modules.

Every failure ends as one line `mpimark: error: ...` on stderr and a non-zero
exit, never a traceback (DESIGN.md, Conventions). The group's own main() does
this, rather than a wrapper function, so that tests driving the group with
click's CliRunner see exactly what users see.
"""

from __future__ import annotations

import sys
from typing import TextIO

import click
from rich.console import Console

from mpimark import __version__
from mpimark.core import core_path
from mpimark.results import ResultsError, group_results, read_records
from mpimark.summary import EXPORTS, to_rich

FORMATS = ("table", *EXPORTS)


def error_line(message: str) -> None:
    click.echo(f"mpimark: error: {message}", err=True)


class MpimarkGroup(click.Group):
    def main(self, args=None, prog_name=None, **kwargs):  # type: ignore[override]
        kwargs["standalone_mode"] = False  # exceptions come to us, not to click
        try:
            code = super().main(args, prog_name, **kwargs)
        except click.exceptions.NoArgsIsHelpError as exc:  # bare `mpimark`: help, as click does
            exc.show()
            code = exc.exit_code
        except click.UsageError as exc:
            command = exc.ctx.command_path if exc.ctx else "mpimark"
            error_line(f"{exc.format_message()} (see '{command} --help')")
            code = exc.exit_code
        except click.ClickException as exc:
            error_line(exc.format_message())
            code = exc.exit_code
        except click.Abort:
            error_line("interrupted")
            code = 130
        except ResultsError as exc:
            error_line(str(exc))
            code = 1
        except OSError as exc:
            error_line(f"{exc.filename}: {exc.strerror}" if exc.filename and exc.strerror else str(exc))
            code = 1
        except Exception as exc:  # a bug: still one line, saying what to report
            error_line(f"internal error ({type(exc).__name__}: {exc}); please report it")
            code = 1
        sys.exit(code if isinstance(code, int) else 0)


@click.group("mpimark", cls=MpimarkGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="mpimark")
def cli() -> None:
    """mpimark: MPI benchmarks with IMB's definitions and sound statistics."""


@cli.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.pass_context
def validate(ctx: click.Context, files: tuple[str, ...]) -> None:
    """Check results files (JSON Lines) against the results schema."""
    failed = False
    for path in files:  # every file is checked, so one run reports all bad files
        try:
            records = read_records(path)
        except ResultsError as exc:
            error_line(str(exc))
            failed = True
        else:
            click.echo(f"{path}: {len(records)} records OK")
    if failed:
        ctx.exit(1)


@cli.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="table", show_default=True,
              help="table: for a terminal; markdown, csv, json: for export.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True),
              help="Write to this file instead of standard output.")
def summary(file: str, fmt: str, output: str | None) -> None:
    """One table per benchmark x process count (x group) of a results file."""
    records = read_records(file)
    tables = group_results(records)
    if output is None:
        _write(sys.stdout, records[0], tables, fmt)
    else:
        with open(output, "w", encoding="utf-8") as stream:
            _write(stream, records[0], tables, fmt)


def _write(stream: TextIO, run: dict, tables: dict, fmt: str) -> None:
    if fmt == "table":
        # Off a terminal rich would assume 80 columns and wrap the headers.
        Console(file=stream, width=None if stream.isatty() else 120).print(to_rich(run, tables))
    else:
        stream.write(EXPORTS[fmt](run, tables))


@cli.command("core-path")
def core_path_command() -> None:
    """Print the path of the built core ($MPIMARK_CORE overrides it)."""
    click.echo(str(core_path()))


def main() -> None:
    """Console script entry point (pyproject.toml)."""
    cli.main(prog_name="mpimark")


if __name__ == "__main__":
    main()
