"""Damage and healing expressions in scenario files (``1d8+3``, ``2d6+1d4-1``): the field type
that checks them when a scenario is read, and :class:`DamageDice`, their parsed form with the
maximum and average the rules ask for."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Annotated

from pydantic import AfterValidator, Field

from warhost.core.bounds import MAX_DICE, MAX_DICE_TERMS, MAX_FLAT, MAX_SIDES

_TERM = re.compile(r"([+-]?)(\d+)(?:d(\d+))?")


@dataclass(frozen=True)
class DamageDice:
    """A parsed damage expression: dice groups ``(count, sides, sign)`` plus a flat part."""

    dice: tuple[tuple[int, int, int], ...]
    flat: int

    @classmethod
    def parse(cls, expr: str) -> DamageDice:
        """Read ``1d8+3``, ``2d6+1d4-1`` ... (the scenario model has checked the form)."""
        known = _PARSED.get(expr)
        if known is None or type(known) is not cls:
            known = cls._read(expr)
            if len(_PARSED) < 4096:  # a scenario has a few dozen expressions
                _PARSED[expr] = known
        return known

    @classmethod
    def _read(cls, expr: str) -> DamageDice:
        dice: list[tuple[int, int, int]] = []
        flat = 0
        for sign_text, number, sides in _TERM.findall(expr.replace(" ", "")):
            sign = -1 if sign_text == "-" else 1
            if sides:
                dice.append((int(number), int(sides), sign))
            else:
                flat += sign * int(number)
        return cls(tuple(dice), flat)

    @property
    def maximum(self) -> int:
        """Every die at its highest (T5-AMB-23): 1d6+2 gives 8."""
        return self.flat + sum(sign * count * sides for count, sides, sign in self.dice)

    @property
    def critical_maximum(self) -> int:
        """Dice doubled, all at their highest (T5-AMB-16): 1d8+3 gives 19."""
        return self.flat + sum(2 * sign * count * sides for count, sides, sign in self.dice)

    @property
    def average(self) -> int:
        """(sides + 1) / 2 per die, summed, rounded down at the end (T5-AMB-25): 8d6 gives 28."""
        halves = 2 * self.flat + sum(sign * count * (sides + 1) for count, sides, sign in self.dice)
        return halves // 2

    def doubled(self) -> str:
        """The expression with its dice doubled, for a rolled critical hit."""
        parts = [f"{'-' if sign < 0 else '+'}{2 * count}d{sides}" for count, sides, sign in self.dice]
        if self.flat:
            parts.append(f"{self.flat:+d}")
        return "".join(parts).lstrip("+") or "0"


_PARSED: dict[str, DamageDice] = {}
"""Expressions already read (a parsed expression never changes)."""


DAMAGE_PATTERN = re.compile(r"^\s*(\d+d\d+|\d+)(\s*[+-]\s*(\d+d\d+|\d+))*\s*$")
"""Damage expressions: dice and whole numbers joined by + or -, e.g. ``1d8+3`` or ``2d6+1d4``."""

DICE_TERM = re.compile(r"(\d+)(?:d(\d+))?")
"""One term of a damage expression: a count of dice and their faces, or a plain number."""

DICE_TEXT_MAX = 100
"""The longest damage or healing expression, in characters."""


def _check_damage(value: str) -> str:
    """A damage expression's form, then its bounds: at most MAX_DICE_TERMS terms, 1 to MAX_DICE
    dice of 1 to MAX_SIDES faces a group, numbers up to MAX_FLAT, and a maximum of 0 or more."""
    if not DAMAGE_PATTERN.match(value):
        raise ValueError(f"{value!r} is not a damage expression like 1d8+3 or 2d6+1d4")
    text = value.replace(" ", "")
    terms = DICE_TERM.findall(text)
    if len(terms) > MAX_DICE_TERMS:
        raise ValueError(f"{text!r} has {len(terms)} terms; the most is {MAX_DICE_TERMS}")
    for count, sides in terms:
        if not sides and int(count) > MAX_FLAT:
            raise ValueError(f"{text!r}: {count} is more than {MAX_FLAT}")
        if sides and not 1 <= int(count) <= MAX_DICE:
            raise ValueError(f"{text!r}: {count} dice in one group; use 1 to {MAX_DICE}")
        if sides and not 1 <= int(sides) <= MAX_SIDES:
            raise ValueError(f"{text!r}: a die of {sides} faces; use 1 to {MAX_SIDES}")
    highest = DamageDice.parse(text).maximum
    if highest < 0:
        raise ValueError(f"{text!r} is at most {highest}; it may never be below 0 at its highest")
    return text


Dice = Annotated[str, Field(max_length=DICE_TEXT_MAX), AfterValidator(_check_damage)]
"""A damage or healing expression, checked when the scenario is read."""
