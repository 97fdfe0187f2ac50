"""Every test a `warband` character makes (WB-TEST): one wrapper over the core's roll-under.

It adds what belongs to the character rather than to the rule asking: the Rally penalty
(WB-UTIL-18), Frightened and total blindness (roll twice, keep the worse; WB-TEST-05) and
Humiliated's cut to degrees of success (WB-INCIDENT-08).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from fractions import Fraction

from warhost.core.battle import Battle
from warhost.core.checks import (
    CheckResult,
    chance_under,
    face_chances,
    judge_face,
    roll_under,
)
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


@dataclass(frozen=True)
class CheckOdds:
    """The exact chances of one test that :func:`take_test` would make (no die drawn)."""

    target: int
    passes: Fraction
    faces: tuple[tuple[int, Fraction], ...]  # the kept faces; empty when no die is rolled
    natural_ten_fails: bool

    def passed(self, face: int) -> bool:
        """Whether the test passes with ``face`` kept."""
        return judge_face(self.target, face, self.natural_ten_fails).passed


def check_odds(
    state: WarbandState,
    char: Character,
    score: str,
    mods: Iterable[Mod] = (),
    *,
    base: int | None = None,
    ward: bool = False,
) -> CheckOdds:
    """The odds of the test ``take_test(state, battle, char, score, ..., mods, base=, ward=)``
    (same target, same automatic failure, same "keep the worse die")."""
    mods = list(mods)
    value = char.score(score) if base is None else base
    target = target_of(char, score, mods, base, ward)
    zero = value <= 0
    worse = worst_of_two(char, score)
    tens = state.options.natural_ten_always_fails
    passes = chance_under(target, score_is_zero=zero, worst_of_two=worse,
                          natural_ten_fails=tens)
    return CheckOdds(target, passes, () if zero else face_chances(worse), tens)
