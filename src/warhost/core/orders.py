"""Orders: small hashable value objects whose text form round-trips.

An order is a kind plus a few arguments (whole numbers or words without spaces). Its text is the
kind followed by the arguments, separated by spaces: ``move 3 4``, ``attack B-knight-1``, ``pass``.

Example:
    >>> Order.parse("move 3 4") == Order("move", (3, 4))
    True
    >>> str(Order("attack", ("B-knight-1",)))
    'attack B-knight-1'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Union

Arg = Union[int, str]


@dataclass(frozen=True, slots=True)
class Order:
    """One choice a commander can make."""

    kind: str
    args: tuple[Arg, ...] = ()
    # The text, made on first use: the same order objects are offered and logged many times.
    _text: str | None = field(default=None, init=False, compare=False, repr=False)

    def __str__(self) -> str:
        text = self._text
        if text is None:
            text = " ".join([self.kind, *map(str, self.args)])
            object.__setattr__(self, "_text", text)
        return text

    @property
    def text(self) -> str:
        """The order's text form."""
        return str(self)

    @classmethod
    def of(cls, kind: str, *args: Arg) -> Order:
        """Build an order from its kind and arguments: ``Order.of("move", 3, 4)``."""
        return cls(kind, args)

    @classmethod
    def parse(cls, text: str) -> Order:
        """Read an order from its text form. Numeric arguments become ints."""
        parts = text.split()
        if not parts:
            raise ValueError("an order needs at least a kind")
        args: list[Arg] = []
        for part in parts[1:]:
            try:
                args.append(int(part))
            except ValueError:
                args.append(part)
        return cls(parts[0], tuple(args))
