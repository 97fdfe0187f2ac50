"""The command-line commands, one module each.

Each module defines ``register(app: typer.Typer) -> None`` that adds its command; the CLI calls
:func:`register_all` once. Modules whose names start with ``_`` are helpers: shared CLI helpers
(commander overrides, JSON printing, output checks) in :mod:`warhost.commands._shared`, and what
one command needs only when it runs. A command module imports the engine, the rulesets and the
heavy libraries inside its command function, so that ``warhost --version`` and ``warhost
rulesets`` start fast.
"""

from __future__ import annotations

import importlib
import pkgutil

import typer


def register_all(app: typer.Typer) -> None:
    """Import every module of this package and let it add its commands to ``app``."""
    for info in sorted(pkgutil.iter_modules(__path__, __name__ + "."), key=lambda i: i.name):
        if info.name.rpartition(".")[2].startswith("_"):
            continue  # a helper module, imported by its command when it runs
        module = importlib.import_module(info.name)
        register = getattr(module, "register", None)
        if register is not None:
            register(app)
