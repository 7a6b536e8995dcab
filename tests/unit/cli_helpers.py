"""Driving the mpimark command through click's CliRunner, as a user would."""

from __future__ import annotations

from click.testing import CliRunner

from mpimark.cli import cli


def invoke(*args: str, **env: str):
    return CliRunner().invoke(cli, list(args), env=env)


def assert_one_error_line(result, exit_code: int = 1) -> str:
    """The failure is one line `mpimark: error: ...` on stderr, with no traceback."""
    assert result.exit_code == exit_code
    assert "Traceback" not in result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("mpimark: error: "), result.stderr
    return lines[0]
