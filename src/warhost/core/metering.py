"""Counts of the work a battle does, so tests can check how cost grows without a clock.

Rules code calls :func:`count` where it does work that grows with the army (a geometry query,
a square visited by a path search, an option built). Outside :func:`metered` a call costs one
context-variable lookup and counts nothing.

Example:
    >>> with metered() as meter:
    ...     count("geometry", 3)
    >>> meter["geometry"]
    3
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

GEOMETRY = "geometry"
"""A geometry query: a distance, overlap or line test, or a square visited by a search."""
OPTIONS = "options"
"""An option built for a decision."""

_meter: ContextVar[Counter[str] | None] = ContextVar("warhost_meter", default=None)


def count(kind: str, amount: int = 1) -> None:
    """Add ``amount`` to the count of ``kind`` in the active meter, if one is active."""
    meter = _meter.get()
    if meter is not None:
        meter[kind] += amount


@contextmanager
def metered() -> Iterator[Counter[str]]:
    """Count the work done inside the ``with`` block; yields the counts as they grow."""
    meter: Counter[str] = Counter()
    token = _meter.set(meter)
    try:
        yield meter
    finally:
        _meter.reset(token)
