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

import difflib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from warhost.core.errors import ScenarioError, WarhostError

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


def option_value(text: Any) -> Any:
    """A value as typed on a command line: true/false, null, a whole number, else the text."""
    if not isinstance(text, str):
        return text
    low = text.strip().lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    if low in ("null", "none", "~"):
        return None
    try:
        return int(low)
    except ValueError:
        return text.strip()


def situation_flag(situation: Mapping[str, Any], key: str, default: bool = False) -> bool:
    """A yes/no situation key, given as a bool or as text (true/false, yes/no, 1/0, on/off)."""
    value = situation.get(key, default)
    if isinstance(value, str):
        low = value.strip().lower()
        if low in ("true", "yes", "1", "on"):
            return True
        if low in ("false", "no", "0", "off", ""):
            return False
        raise WarhostError(f"expected true or false, got {value!r}", field=key)
    return bool(value)


ModelT = TypeVar("ModelT", bound=BaseModel)


def close_match_hint(name: str, known: Sequence[str], listing: str) -> str:
    """``; did you mean 'x'?`` for the nearest of ``known``, else `` (listing: a, b, ...)``."""
    close = difflib.get_close_matches(name, list(known), n=1, cutoff=0.6)
    return f"; did you mean {close[0]!r}?" if close else f" ({listing}: {', '.join(known)})"


def check_situation_keys(situation: Mapping[str, Any], known: Sequence[str],
                         where: str = "") -> None:
    """Refuse the first key of ``situation`` that is not in ``known`` (``where`` is added to
    the message, e.g. `` for dnd5e-tactics``); the error names that key as its field."""
    for key in situation:
        if key not in known:
            raise WarhostError(
                f"unknown situation {key!r}{where}{close_match_hint(key, known, 'known')}",
                field=key)


def with_options(model: ModelT, overrides: Mapping[str, Any],
                 check: Callable[[ModelT], None]) -> ModelT:
    """``model`` (a scenario with an ``options`` field) with some options changed, validated
    and put through the ruleset's setup ``check`` again; problems name the field ``options``."""
    if not overrides:
        return model
    current: BaseModel = getattr(model, "options")
    known = list(type(current).model_fields)
    data = current.model_dump()
    for name, value in overrides.items():
        if name not in known:
            raise WarhostError(f"unknown option {name!r}{close_match_hint(name, known, 'options')}",
                               field="options")
        data[name] = option_value(value)
    try:
        options = type(current).model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        name = ".".join(str(p) for p in err["loc"])
        raise WarhostError(f"{name}: {err['msg']} (got {err.get('input')!r})",
                           field="options") from None
    changed = model.model_copy(update={"options": options})
    try:
        check(changed)
    except ScenarioError as exc:
        raise WarhostError(f"with these options the scenario breaks a setup rule: "
                           f"{exc.message}", field="options") from None
    return changed
