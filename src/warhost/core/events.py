"""The event log: the only output of the engine. Every event is plain JSON-ready data."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from typing import Any

Event = dict[str, Any]


def canonical_json(data: Any) -> str:
    """JSON text with sorted keys and no spaces: the same data always gives the same bytes."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


class EventLog:
    """An append-only list of events, numbered in order.

    Example:
        >>> log = EventLog()
        >>> log.emit("round_start", round=1)["seq"]
        0
    """

    def __init__(self, record: bool = True) -> None:
        self.events: list[Event] = []
        self.record = record
        self._count = 0

    def emit(self, type_: str, **fields: Any) -> Event:
        """Append one event of the given type and return it."""
        event: Event = {"seq": self._count, "type": type_, **fields}
        self._count += 1
        if self.record:
            self.events.append(event)
        return event

    def __len__(self) -> int:
        return self._count

    def __iter__(self) -> Iterator[Event]:
        return iter(self.events)

    def of_type(self, type_: str) -> list[Event]:
        """All events of one type, in order."""
        return [e for e in self.events if e["type"] == type_]

    def to_jsonl(self) -> str:
        """The whole log as canonical JSON lines."""
        return "".join(canonical_json(e) + "\n" for e in self.events)

    def digest(self) -> str:
        """SHA-256 of the canonical log: equal digests mean byte-identical logs."""
        return hashlib.sha256(self.to_jsonl().encode("utf-8")).hexdigest()
