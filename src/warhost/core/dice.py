"""Dice sources. Every random draw of a battle goes through exactly one of these.

* :class:`SeededDice` draws from one NumPy generator built from the battle's seed. Faces are
  drawn in blocks (one NumPy call per block, not per die) and handed out in order, so a seed fixes
  every roll of the battle.
* :class:`ScriptedDice` hands out faces from a list: tests use it for exact outcomes.
* :class:`ManualDice` asks a person for the faces of the physical dice they rolled.

Each roll is recorded as a ``roll`` event (expression, faces, total, purpose).
Dice expressions use the notation of the ``d20`` library (``3d6kh1``, ``2d8+3``). ``d20`` itself
draws from Python's global ``random`` module; :meth:`DiceSource.roll` evaluates the parsed
expression with this source's faces instead.
"""

from __future__ import annotations

import contextvars
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import d20
import d20.expression
import numpy as np

from warhost.core.errors import DiceExhaustedError, WarhostError
from warhost.core.events import EventLog

_BLOCK = 512

_active_source: contextvars.ContextVar[DiceSource | None] = contextvars.ContextVar(
    "warhost_active_dice", default=None
)


class _SourceRandom:
    """Stands in for the ``random`` module inside d20 so its dice come from our source."""

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        source = _active_source.get()
        if source is None:
            raise RuntimeError("d20 dice rolled outside a warhost dice source")
        if stop is None:  # randrange(size): faces 0..size-1
            return source.draw(start) - 1
        # randrange(0, 100, 10): the percentile die, faces 0, 10, ..., 90
        count = (stop - start) // step
        return start + (source.draw(count) - 1) * step


d20.expression.random = _SourceRandom()  # type: ignore[attr-defined, assignment]


def make_rng(seed: int | np.random.SeedSequence) -> np.random.Generator:
    """The one helper that turns a seed into a generator (PCG64 through a SeedSequence)."""
    seq = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    return np.random.Generator(np.random.PCG64(seq))


class DiceSource(ABC):
    """Where faces come from. Subclasses implement :meth:`_faces`; the rest is shared."""

    def __init__(self) -> None:
        self.log: EventLog | None = None
        self.rolls = 0

    @abstractmethod
    def _faces(self, count: int, sides: int, why: str) -> list[int]:
        """Return ``count`` faces of a ``sides``-sided die."""

    def draw(self, sides: int, why: str = "") -> int:
        """One face of one die, not recorded on its own (used inside larger rolls)."""
        return self._faces(1, sides, why)[0]

    def pool(self, count: int, sides: int = 6, why: str = "", **fields: Any) -> list[int]:
        """Roll ``count`` dice of ``sides`` faces and record them as one event.

        Returns the faces in the order rolled; the caller decides what is kept.

        Example:
            >>> ScriptedDice([4, 2, 6]).pool(3, 6, "attack")
            [4, 2, 6]
        """
        faces = self._faces(count, sides, why)
        self.rolls += count
        if self.log is not None:
            self.log.emit("roll", expr=f"{count}d{sides}", faces=faces, why=why, **fields)
        return faces

    def roll(self, expr: str, why: str = "", **fields: Any) -> int:
        """Roll a d20-notation expression with this source's faces; record and return the total.

        Example:
            >>> ScriptedDice([3, 5]).roll("2d6kh1+1", "test")
            6
        """
        try:
            tree = d20.parse(expr)
        except d20.RollSyntaxError as exc:
            raise WarhostError(f"bad dice expression {expr!r}: {exc}") from None
        token = _active_source.set(self)
        try:
            result = d20.roll(tree)
        finally:
            _active_source.reset(token)
        faces = [int(v.total) for v in _leaf_values(result.expr)]
        self.rolls += len(faces)
        total = int(result.total)
        if self.log is not None:
            self.log.emit("roll", expr=expr, faces=faces, total=total, why=why, **fields)
        return total


def _leaf_values(node: Any) -> Iterable[Any]:
    """Every die face in a d20 result tree, including dropped ones, left to right."""
    if isinstance(node, d20.Die):
        yield from node.values
        return
    if isinstance(node, d20.Dice):
        for die in node.values:
            yield from _leaf_values(die)
        return
    for child in getattr(node, "children", []):
        yield from _leaf_values(child)


class SeededDice(DiceSource):
    """Faces from one seeded NumPy generator, drawn in blocks for speed."""

    def __init__(self, seed: int | np.random.SeedSequence) -> None:
        super().__init__()
        self.rng = make_rng(seed)
        self._buffers: dict[int, list[int]] = {}

    def _faces(self, count: int, sides: int, why: str) -> list[int]:
        buf = self._buffers.get(sides)
        if buf is None or len(buf) < count:
            fresh = self.rng.integers(1, sides + 1, size=max(_BLOCK, count)).tolist()
            buf = (buf or []) + fresh
            buf.reverse()  # pop() from the end hands faces out in drawn order
            self._buffers[sides] = buf
        return [buf.pop() for _ in range(count)]


class ScriptedDice(DiceSource):
    """Faces from a fixed list, in order. Running out is an error, so tests stay exact."""

    def __init__(self, faces: Sequence[int]) -> None:
        super().__init__()
        self.remaining = list(faces)
        self.remaining.reverse()

    def _faces(self, count: int, sides: int, why: str) -> list[int]:
        if len(self.remaining) < count:
            raise DiceExhaustedError(f"scripted dice ran out while rolling {count}d{sides} ({why})")
        out = [self.remaining.pop() for _ in range(count)]
        for face in out:
            if not 1 <= face <= sides:
                raise WarhostError(f"scripted face {face} is not on a d{sides} ({why})")
        return out

    @property
    def unused(self) -> int:
        """How many scripted faces have not been used."""
        return len(self.remaining)


class ManualDice(DiceSource):
    """Asks a person for the faces of real dice.

    ``ask`` receives a prompt and returns the typed text; it is asked again until the answer
    is ``count`` whole numbers between 1 and ``sides``.
    """

    def __init__(self, ask: Callable[[str], str]) -> None:
        super().__init__()
        self.ask = ask

    def _faces(self, count: int, sides: int, why: str) -> list[int]:
        prompt = f"Roll {count}d{sides}" + (f" for {why}" if why else "") + ": "
        while True:
            answer = self.ask(prompt)
            try:
                faces = [int(part) for part in answer.replace(",", " ").split()]
            except ValueError:
                faces = []
            if len(faces) == count and all(1 <= f <= sides for f in faces):
                return faces
            prompt = f"Please type {count} number(s) from 1 to {sides}: "
