"""Extra command-line commands, one module each.

Each module defines ``register(app: typer.Typer) -> None`` that adds its commands; the CLI calls
:func:`register_all` once. Shared CLI helpers (commander overrides, JSON printing, output
checks) live in :mod:`warhost.cli`.
"""

from __future__ import annotations

import importlib
import pkgutil

import typer


def register_all(app: typer.Typer) -> None:
    """Import every module of this package and let it add its commands to ``app``."""
    for info in sorted(pkgutil.iter_modules(__path__, __name__ + "."), key=lambda i: i.name):
        module = importlib.import_module(info.name)
        register = getattr(module, "register", None)
        if register is not None:
            register(app)
