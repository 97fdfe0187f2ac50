"""The ruleset registry. Rulesets register themselves by name; the core never names one."""

from __future__ import annotations

import difflib
import importlib
import pkgutil
import threading

from warhost.core.errors import WarhostError
from warhost.core.ruleset import Ruleset

_REGISTRY: dict[str, Ruleset] = {}
_discovered = False
_discovering = threading.RLock()


def register(ruleset: Ruleset) -> Ruleset:
    """Add a ruleset under its ``name``. Registering a second one under a taken name fails."""
    existing = _REGISTRY.get(ruleset.name)
    if existing is not None and existing is not ruleset:
        raise ValueError(f"ruleset {ruleset.name!r} is already registered")
    _REGISTRY[ruleset.name] = ruleset
    return ruleset


def _discover() -> None:
    """Import every package under ``warhost.rulesets`` so each can register itself (once,
    whichever thread asks first; the others wait until every ruleset is in)."""
    global _discovered
    if _discovered:
        return
    with _discovering:
        if _discovered:
            return
        import warhost.rulesets as pkg

        for info in pkgutil.iter_modules(pkg.__path__, pkg.__name__ + "."):
            importlib.import_module(info.name)
        _discovered = True


def all_rulesets() -> dict[str, Ruleset]:
    """Every registered ruleset by name, sorted by name."""
    _discover()
    return dict(sorted(_REGISTRY.items()))


def get_ruleset(name: str) -> Ruleset:
    """The ruleset registered under ``name``; an unknown name suggests the nearest one."""
    known = all_rulesets()
    if name in known:
        return known[name]
    close = difflib.get_close_matches(str(name), list(known), n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    raise WarhostError(f"unknown ruleset {name!r}{hint} (known: {', '.join(known)})", field="ruleset")
