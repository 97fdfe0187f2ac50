"""The ``warhost`` command line: assembles the commands of :mod:`warhost.commands` (one
module each) under one group that turns every failure into one line and an exit code.

Every problem with the user's input ends with one line on stderr, ``error: file:line: field:
message``, and exit code 2 (a traceback only with ``warhost --debug ...``). Output files
(replays, maps) are written only when the command succeeded, and atomically.

Exit codes: 0 success; 1 ``replay``: the battle does not come out the same; 2 bad input or
usage; 3 an internal error (a bug: please report it with ``--debug`` output); 130 interrupted.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Annotated, Any, NoReturn

import typer

try:  # typer carries its own copy of click since 0.2x
    from typer._click import exceptions as _click_errors
    from typer._click.core import Context as _Context
except ImportError:  # pragma: no cover - older typer on top of click
    from click import Context as _Context  # type: ignore[assignment, unused-ignore]
    from click import exceptions as _click_errors  # type: ignore[no-redef, unused-ignore]

from warhost import __version__
from warhost.commands._shared import (
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_USAGE,
    one_line,
)
from warhost.core.errors import WarhostError

_options: dict[str, bool] = {"debug": False}


class _Interrupted(Exception):
    """Ctrl-C during a command."""


class _InputEnded(Exception):
    """Standard input closed while a person was being asked something."""


def _fail(message: str) -> None:
    sys.stderr.write(f"error: {one_line(message)}\n")
    sys.stderr.flush()


class WarhostGroup(typer.core.TyperGroup):
    """The top-level command group: turns every failure into one line and an exit code."""

    def invoke(self, ctx: _Context) -> Any:
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            raise _Interrupted() from None
        except EOFError:
            raise _InputEnded() from None

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        windows_expand_args: bool = True,
        **extra: Any,
    ) -> NoReturn:
        _options["debug"] = False
        code = self._run(args, prog_name or "warhost", complete_var, **extra)
        sys.exit(code)

    def _run(
        self, args: Sequence[str] | None, prog_name: str, complete_var: str | None, **extra: Any
    ) -> int:
        try:
            rv = super().main(args=args, prog_name=prog_name, complete_var=complete_var,
                              standalone_mode=False, **extra)
        except _click_errors.NoArgsIsHelpError as exc:
            typer.echo(exc.format_message())
            return 0
        except _click_errors.UsageError as exc:
            _fail(exc.format_message() + " (see warhost --help)")
            return EXIT_USAGE
        except _click_errors.ClickException as exc:
            _fail(exc.format_message())
            return EXIT_USAGE
        except (typer.Abort, _Interrupted, KeyboardInterrupt):
            if _options["debug"]:
                raise
            _fail("interrupted")
            return EXIT_INTERRUPTED
        except _InputEnded:
            _fail("input ended before the battle did")
            return EXIT_USAGE
        except WarhostError as exc:
            if _options["debug"]:
                raise
            _fail(str(exc))
            return EXIT_USAGE
        except Exception as exc:
            if _options["debug"]:
                raise
            _fail(f"internal error: {type(exc).__name__}: {exc} "
                  "(run warhost --debug ... for the traceback)")
            return EXIT_INTERNAL
        return rv if isinstance(rv, int) else 0


app = typer.Typer(
    cls=WarhostGroup,
    name="warhost",
    help="Play, adjudicate and simulate fantasy mass battles.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"warhost {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    debug: Annotated[bool, typer.Option("--debug", help="Show tracebacks for errors.")] = False,
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print the version.")
    ] = False,
) -> None:
    """Play, adjudicate and simulate fantasy mass battles.

    Every problem with your input is reported in one line with its file, line and field,
    and exit code 2.
    """
    _options["debug"] = debug


def _register_commands() -> None:
    from warhost.commands import register_all

    register_all(app)


_register_commands()


def main() -> None:
    """Console entry point (``warhost``)."""
    app(prog_name="warhost")


if __name__ == "__main__":
    main()
