"""Errors meant for people: each names where the problem is (file, line, field)."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable, Iterator
from contextvars import ContextVar
from pathlib import Path
from typing import NoReturn


class WarhostError(Exception):
    """A problem with the user's input. The CLI prints it in one line and exits with code 2."""

    def __init__(
        self,
        message: str,
        *,
        file: str | None = None,
        line: int | None = None,
        field: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line
        self.field = field

    def located(self, *, file: str | None = None, line: int | None = None) -> WarhostError:
        """Fill in a file and line that were not known where the error was raised."""
        if self.file is None and file is not None:
            self.file = file
        if self.line is None and line is not None:
            self.line = line
        return self

    def __str__(self) -> str:
        where = ""
        if self.file:
            where = self.file
            if self.line is not None:
                where += f":{self.line}"
            where += ": "
        field = f"{self.field}: " if self.field else ""
        return f"{where}{field}{self.message}"


class ScenarioError(WarhostError):
    """The scenario file is malformed or breaks a setup rule."""


FieldPath = tuple[str | int, ...]


class SetupError(ScenarioError):
    """A scenario that breaks a setup rule; ``path`` locates the field in the file, e.g.
    ``('sides', 0, 'units', 1, 'at')``, and the loader turns it into a field name and line."""

    def __init__(self, message: str, path: FieldPath) -> None:
        super().__init__(message)
        self.path = path


def fail(message: str, *path: str | int) -> NoReturn:
    """Raise a :class:`SetupError` for the field at ``path``."""
    raise SetupError(message, tuple(path))


class IllegalOrderError(WarhostError):
    """A commander gave an order that is not among the legal options."""


class ReplayError(WarhostError):
    """A replay file is from another version, is damaged, or does not reproduce its log."""


class DiceExhaustedError(WarhostError):
    """A scripted dice source ran out of faces."""


class UserFileRefused(ScenarioError):
    """A scenario read under :func:`no_user_files` (an upload to ``warhost serve``) named a
    file of the machine; ``path`` is the file it named, so the caller can find the field."""

    def __init__(self, message: str, path: str, *, file: str | None = None) -> None:
        super().__init__(message, file=file)
        self.path = path


_PACKAGE = Path(__file__).resolve().parents[1]
"""The warhost package: files inside it (dnd35-wars' shipped spell libraries) stay readable
under :func:`no_user_files`."""

_guard: ContextVar[tuple[str, frozenset[Path]] | None] = ContextVar("warhost_no_user_files",
                                                                    default=None)


@contextlib.contextmanager
def no_user_files(source: str = "upload.yaml", allow: Iterable[str | Path] = ()) -> Iterator[None]:
    """While inside, :func:`read_user_file` reads only files of the warhost package and the
    ``allow``-ed ones (a temporary copy of an upload); any other file a scenario, army or
    replay names is refused with :class:`UserFileRefused` (a :class:`ScenarioError` naming
    ``source``). For text that came from elsewhere (a web upload), which must never read the
    server's files. The guard is a context variable: it holds in this thread (or task) only.

    Example:
        >>> with no_user_files():
        ...     read_user_file("/etc/passwd", ScenarioError, "army")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        warhost.core.errors.UserFileRefused: upload.yaml: an uploaded scenario cannot read ...
    """
    allowed = frozenset(Path(p).resolve() for p in allow)
    token = _guard.set((source, allowed))
    try:
        yield
    finally:
        _guard.reset(token)


def _check_guard(path: str | Path, noun: str) -> None:
    """Refuse ``path`` when :func:`no_user_files` is in force and it is not allowed."""
    guard = _guard.get()
    if guard is None:
        return
    source, allowed = guard
    try:
        real = Path(path).resolve()
    except (OSError, RuntimeError, ValueError):
        real = None
    if real is not None and (real in allowed or real.is_relative_to(_PACKAGE)):
        return
    raise UserFileRefused(f"an uploaded scenario cannot read files of the server (the {noun} "
                          f"file {str(path)!r}); put its content in the scenario instead",
                          str(path), file=source)


def read_user_file(
    path: str | Path, error: type[WarhostError], noun: str, max_bytes: int | None = None
) -> str:
    """The text of a file the user named; a missing or unreadable file raises ``error``, and
    so does one longer than ``max_bytes`` (checked before it is read, and while reading, for
    devices and pipes whose size is not known). Under :func:`no_user_files` only the files
    it allows are read (others raise :class:`UserFileRefused`)."""
    source = str(path)
    _check_guard(path, noun)
    try:
        if max_bytes is None:
            return Path(path).read_text(encoding="utf-8")
        with open(path, "rb") as handle:
            if os.fstat(handle.fileno()).st_size > max_bytes:
                raise error(f"the {noun} file is larger than {max_bytes} bytes", file=source)
            data = handle.read(max_bytes + 1)
        if len(data) > max_bytes:
            raise error(f"the {noun} file is larger than {max_bytes} bytes", file=source)
        return data.decode("utf-8")
    except FileNotFoundError:
        raise error(f"no such {noun} file", file=source) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise error(f"cannot read {noun}: {exc}", file=source) from None
