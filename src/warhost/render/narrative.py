"""Narrative: the event log as lines of text, one line per event, dice shown.

A ruleset may word its own events (:meth:`warhost.core.ruleset.Ruleset.describe_event`); every
event it leaves alone gets the generic text of :func:`generic_line`.

Example:
    >>> generic_line({"seq": 3, "type": "roll", "expr": "3d6", "faces": [4, 2, 6], "why": "attack"})
    'rolls 3d6: 4 2 6 (attack)'
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from warhost.core.ruleset import Ruleset

_SKIP = {"seq", "type"}

CORE_EVENTS = frozenset({"roll", "decision", "battle_start", "battle_end", "deployed",
                         "round_start", "round_end"})
"""Event types :func:`generic_line` words itself; any other type gets its fields in words, a
fallback the rulesets' own wordings make unneeded (the narration tests check that)."""

STYLES: dict[str, str] = {
    "battle_start": "bold",
    "battle_end": "bold",
    "round_start": "bold cyan",
    "round_end": "cyan",
    "roll": "dim",
    "decision": "italic",
    "victory": "bold green",
    "draw": "bold yellow",
    "defeated": "red",
    "score": "green",
}


def _value(value: Any) -> str:
    if isinstance(value, (list, tuple)) and len(value) == 2 and all(
        isinstance(v, int) for v in value
    ):
        return f"({value[0]}, {value[1]})"
    if isinstance(value, Mapping):
        return ", ".join(f"{k} {_value(v)}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return ", ".join(_value(v) for v in value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _fields(event: Mapping[str, Any], skip: Iterable[str] = ()) -> str:
    """``unit x, at (1, 2)``: the fields of an event no wording knows, in words (empty values
    left out), never as ``key=value``."""
    drop = _SKIP | set(skip)
    return ", ".join(f"{k.replace('_', ' ')} {_value(v)}" for k, v in event.items()
                     if k not in drop and v is not None and v != "")


def generic_line(event: Mapping[str, Any]) -> str:
    """The ruleset-independent text of one event."""
    kind = event.get("type", "?")
    if kind == "roll":
        who = event.get("unit") or event.get("side") or ""
        faces = " ".join(str(f) for f in event.get("faces", []))
        line = f"{who + ' ' if who else ''}rolls {event.get('expr', '?')}: {faces}"
        if "total" in event and len(event.get("faces", [])) != 1:
            line += f" = {event['total']}"
        if event.get("why"):
            line += f" ({event['why']})"
        return line
    if kind == "decision":
        return f"{event.get('side')} decides {event.get('kind')}: {event.get('order')}"
    if kind == "battle_start":
        sides = event.get("sides") or {}
        who = " vs ".join(f"{side} ({c})" for side, c in sides.items())
        return (f"Battle '{event.get('scenario')}' under {event.get('ruleset')}, "
                f"seed {event.get('seed')}: {who}")
    if kind == "battle_end":
        winner = event.get("winner")
        head = f"{winner} wins" if winner else "Draw"
        scores = _value(event.get("scores") or {})
        reason = f" ({event['reason']})" if event.get("reason") else ""
        return f"{head} after {event.get('rounds')} round(s){reason}; scores: {scores}"
    if kind == "deployed":
        return f"{event.get('unit')} ({event.get('side')}) deploys at {_value(event.get('at'))}"
    if kind == "round_start":
        return f"=== Round {event.get('round')} ==="
    if kind == "round_end":
        rest = _fields(event, ("round",))
        return f"--- end of round {event.get('round')}" + (f"; {rest}" if rest else "")
    name = str(kind).replace("_", " ")
    rest = _fields(event)
    return f"{name}: {rest}" if rest else name


class Narrator:
    """Words events for one ruleset; remembers how far it has read a growing log."""

    def __init__(self, ruleset: Ruleset | None = None) -> None:
        self.ruleset = ruleset
        self.position = 0

    def line(self, event: Mapping[str, Any]) -> str:
        """One line for one event: the ruleset's wording, else the generic one."""
        if self.ruleset is not None:
            try:
                text = self.ruleset.describe_event(dict(event))
            except (KeyError, TypeError, ValueError, IndexError):
                text = None  # an event the ruleset words differently: fall back
            if text is not None:
                return text
        return generic_line(event)

    def lines(self, events: Iterable[Mapping[str, Any]]) -> Iterator[tuple[str, str]]:
        """``(text, rich style)`` for each event."""
        for event in events:
            text = self.line(event)
            if text:  # a ruleset words an event as "" to leave it out of the story
                yield text, STYLES.get(str(event.get("type")), "")

    def new_lines(self, events: list[dict[str, Any]]) -> list[tuple[str, str]]:
        """Lines for the events added to ``events`` since the last call."""
        fresh = events[self.position:]
        self.position = len(events)
        return list(self.lines(fresh))


def narrate(events: Iterable[Mapping[str, Any]], ruleset: Ruleset | None = None) -> list[str]:
    """Every event as one line of text."""
    return [text for text, _ in Narrator(ruleset).lines(events)]
