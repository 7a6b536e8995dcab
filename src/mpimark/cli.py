"""The `mpimark` command. Click declarations only; the work is in the modules.

Every failure ends as one line `mpimark: error: ...` on stderr and a non-zero
exit, never a traceback (DESIGN.md, Conventions). The group's own main() does
this, rather than a wrapper function, so that tests driving the group with
click's CliRunner see exactly what users see.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys

import click

from mpimark import __version__
from mpimark.commands import error_line
from mpimark.errors import MpimarkError
from mpimark.execution.core import benchmark_facts, core_path
from mpimark.records import benchmarks
from mpimark.records.results import ResultsError

# ---- Command registration -------------------------------------------------
# The command modules under mpimark.commands, registered in this order; each
# lists its click commands in COMMANDS. A module not present yet is skipped,
# so the command works while the other half (run_cmds: run, build,
# mpi) is being written.
COMMAND_MODULES = ("results_cmds", "run_cmds", "tools_cmds", "slurm_cmds", "analysis_cmds", "study_cmds",
                   "algorithms_cmds", "list_cmds")


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
        except (ResultsError, MpimarkError) as exc:  # MpimarkError: StoreError and the like
            error_line(str(exc))
            code = getattr(exc, "exit_code", 1)  # 2 where the error is bad input (MpimarkError subclasses)
        except OSError as exc:
            error_line(f"{exc.filename}: {exc.strerror}" if exc.filename and exc.strerror else str(exc))
            code = 1
        except Exception as exc:  # a bug: still one line, saying what to report
            error_line(f"internal error ({type(exc).__name__}: {exc}); please report it")
            code = 1
        sys.exit(code if isinstance(code, int) else 0)


# What a benchmark is comes from the built core, asked when a command first needs it.
benchmarks.use_core_facts(benchmark_facts)


@click.group("mpimark", cls=MpimarkGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="mpimark")
def cli() -> None:
    """mpimark: MPI benchmarks with IMB's definitions and sound statistics."""


@cli.command("core-path")
def core_path_command() -> None:
    """Print the path of the built core ($MPIMARK_CORE overrides it)."""
    click.echo(str(core_path()))


def _register_commands() -> None:
    for name in COMMAND_MODULES:
        module_name = f"mpimark.commands.{name}"
        if importlib.util.find_spec(module_name) is None:
            continue  # not written yet (see COMMAND_MODULES)
        for command in _commands_of(importlib.import_module(module_name)):
            cli.add_command(command)


def _commands_of(module) -> list[click.Command]:
    commands = getattr(module, "COMMANDS", None)
    if commands is not None:
        return list(commands)
    # No COMMANDS list: its top-level commands, but not the subcommands of its
    # groups (`mpi list` must not become `mpimark list`).
    found = [value for value in vars(module).values() if isinstance(value, click.Command)]
    nested = {id(sub) for group in found if isinstance(group, click.Group) for sub in group.commands.values()}
    return [command for command in found if id(command) not in nested]


_register_commands()


def main() -> None:
    """Console script entry point (pyproject.toml)."""
    cli.main(prog_name="mpimark")


if __name__ == "__main__":
    main()
