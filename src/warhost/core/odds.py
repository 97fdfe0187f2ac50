"""Exact odds of one attack, as every ruleset reports them (:meth:`Ruleset.exact_odds`).

A report gives exact fractions, found by enumerating the dice rather than by sampling. The
convention for :attr:`OddsReport.outcomes`:

* ``success`` and ``failure`` always appear, and they sum to 1;
* every other key is a result of a success (``defeat``, ``wound``, ``dismount`` ...). Those
  results are exclusive, and they sum to ``success``. So ``failure`` plus the results is a
  partition: they sum to 1 (:meth:`OddsReport.partition`).

:attr:`OddsReport.alternatives` holds "what if" success probabilities for choices the
enumeration leaves out (for instance, a side spending a Fate Point). Its keys are readable
labels.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from warhost.core.errors import WarhostError

__all__ = ["IllegalAttackError", "OddsReport", "fraction_json"]

SUCCESS = "success"
FAILURE = "failure"


class IllegalAttackError(WarhostError):
    """The attacker cannot make that attack on the defender where they stand.

    ``reason`` says why, in one sentence (the message adds who and what).
    """

    def __init__(self, message: str, reason: str, *, field: str | None = "attacker") -> None:
        super().__init__(message, field=field)
        self.reason = reason


def fraction_json(value: Fraction) -> dict[str, Any]:
    """A probability as JSON data: the exact fraction as text, and a float.

    Example:
        >>> fraction_json(Fraction(5, 12))
        {'fraction': '5/12', 'probability': 0.4166666666666667}
    """
    text = f"{value.numerator}/{value.denominator}" if value.denominator != 1 else str(
        value.numerator)
    return {"fraction": text, "probability": float(value)}


@dataclass
class OddsReport:
    """Exact probabilities of every outcome of one attack.

    ``attacker``/``defender`` are unit ids; ``kind`` the kind of attack; ``modifiers`` one
    readable line per modifier in force; ``outcomes`` exact fractions (see the module
    docstring); ``notes`` what the numbers leave out or assume. ``dice`` describes the rolls in
    one line, ``alternatives`` gives "what if" success probabilities, and ``details`` holds
    ruleset-specific plain (JSON-ready) data such as positions and modifier totals.
    """

    attacker: str
    defender: str
    kind: str
    modifiers: list[str]
    outcomes: dict[str, Fraction]
    notes: list[str] = field(default_factory=list)
    dice: str = ""
    alternatives: dict[str, Fraction] = field(default_factory=dict)
    details: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        problems = self.check()
        if problems:
            raise ValueError("; ".join(problems))

    @property
    def results(self) -> dict[str, Fraction]:
        """The outcomes of a success (everything but ``success`` and ``failure``)."""
        return {k: v for k, v in self.outcomes.items() if k not in (SUCCESS, FAILURE)}

    def partition(self) -> dict[str, Fraction]:
        """``failure`` and every result of a success: exclusive outcomes that sum to 1."""
        return {FAILURE: self.outcomes[FAILURE], **self.results}

    def check(self) -> list[str]:
        """The ways this report breaks the conventions (empty: none)."""
        out: list[str] = []
        for key in (SUCCESS, FAILURE):
            if key not in self.outcomes:
                out.append(f"outcome {key!r} missing")
        if out:
            return out
        for key, value in self.outcomes.items():
            if not 0 <= value <= 1:
                out.append(f"outcome {key!r} = {value} is not a probability")
        if self.outcomes[SUCCESS] + self.outcomes[FAILURE] != 1:
            out.append("success and failure do not sum to 1")
        results = self.results
        if results and sum(results.values(), Fraction(0)) != self.outcomes[SUCCESS]:
            out.append("the results of a success do not sum to success")
        return out

    def to_json(self) -> dict[str, Any]:
        """The report as plain JSON data; every probability as a fraction string and a float."""
        return {
            "attacker": self.attacker,
            "defender": self.defender,
            "kind": self.kind,
            "dice": self.dice,
            "modifiers": list(self.modifiers),
            "outcomes": _fractions_json(self.outcomes),
            "alternatives": _fractions_json(self.alternatives),
            "notes": list(self.notes),
            "details": dict(self.details),
        }


def _fractions_json(values: Mapping[str, Fraction]) -> dict[str, dict[str, Any]]:
    return {key: fraction_json(value) for key, value in values.items()}
