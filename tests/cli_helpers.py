"""Shared helpers for tests that drive the command line."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner, Result

from warhost.cli import app

runner = CliRunner()


def run(*args: str | Path) -> Result:
    """Run ``warhost ARGS`` and return the result (stdout and stderr kept apart)."""
    return runner.invoke(app, [str(a) for a in args])


def assert_user_error(result: Result, *needles: str) -> str:
    """Exit 2, exactly one line on stderr starting with ``error:``, no traceback."""
    assert result.exit_code == 2, (result.stdout, result.stderr)
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    assert "Traceback" not in result.output
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]
