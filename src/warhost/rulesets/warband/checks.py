"""Every test a `warband` character makes (WB-TEST): one wrapper over the core's roll-under.

It adds what belongs to the character rather than to the rule asking: the Rally penalty
(WB-UTIL-18), Frightened and total blindness (roll twice, keep the worse; WB-TEST-05) and
Humiliated's cut to degrees of success (WB-INCIDENT-08).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from warhost.core.battle import Battle
from warhost.core.checks import CheckResult, roll_under
from warhost.rulesets.warband.state import Character, WarbandState


@dataclass(frozen=True)
class Mod:
    """One modifier to a test's target, with its name and the rule that gives it."""

    name: str
    value: int
    rule: str


def total(mods: Iterable[Mod]) -> int:
    """The sum of the modifiers (they all stack, WB-TEST-07)."""
    return sum(m.value for m in mods)


def target_of(char: Character, score: str, mods: Iterable[Mod], base: int | None = None,
              ward: bool = False) -> int:
    """The target number of a test of ``score`` (or of ``base``) with ``mods``."""
    value = char.score(score) if base is None else base
    penalty = -1 if char.rallied and not ward else 0
    return value + total(mods) + penalty


def worst_of_two(char: Character, score: str) -> bool:
    """Whether this character rolls this score's tests twice, keeping the worse."""
    return (score == "resolve" and char.worse_resolve) or (
        score == "agility" and char.worse_agility
    )


def take_test(
    state: WarbandState,
    battle: Battle,
    char: Character,
    score: str,
    why: str,
    mods: Iterable[Mod] = (),
    *,
    base: int | None = None,
    ward: bool = False,
) -> CheckResult:
    """``char`` tests ``score`` (or ``base``, for sums such as the Defense test) with ``mods``.

    A score of 0 fails without a roll (WB-TEST-03). The Rally penalty does not touch the Ward
    save, which only effects naming Ward change (WB-AMB-29).
    """
    mods = list(mods)
    value = char.score(score) if base is None else base
    target = target_of(char, score, mods, base, ward)
    result = roll_under(
        battle.dice, target, f"{why} ({char.id})", score_is_zero=value <= 0,
        worst_of_two=worst_of_two(char, score),
        natural_ten_fails=state.options.natural_ten_always_fails, who=char.id,
    )
    if score == "resolve" and char.resolve_dos_cut and result.passed:
        result = replace(result, dos=max(0, result.dos - char.resolve_dos_cut))
    return result
