"""Sentences for a ruleset's event types: each ruleset's view registers one wording per event
type it emits, and its ``describe_event`` hook looks them up (the narration tests check that
every emitted type has one)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from warhost.core.events import Event

Wording = Callable[[Event], str]
"""Turns one event into one line of narrative."""


class Wordings(dict[str, Wording]):
    """Wordings by event type.

    Example:
        >>> words = Wordings()
        >>> @words.of("round_start")
        ... def _start(e: Event) -> str:
        ...     return f"Round {e['round']}"
        >>> words.describe({"type": "round_start", "round": 2}), words.describe({"type": "x"})
        ('Round 2', None)
    """

    def of(self, *types: str) -> Callable[[Wording], Wording]:
        """A decorator: the function words the events of ``types``."""
        def register(wording: Wording) -> Wording:
            for type_ in types:
                self[type_] = wording
            return wording
        return register

    def describe(self, event: dict[str, Any]) -> str | None:
        """The event's line, or None when no wording is registered for its type."""
        wording = self.get(event["type"])
        return wording(event) if wording is not None else None
