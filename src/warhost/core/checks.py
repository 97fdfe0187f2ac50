"""Roll-under tests with degrees of success: one d10 against a target number.

A rule system whose tests are "roll at or under the score" (``warband``) makes every test
through :func:`roll_under`, and works out its exact odds with :func:`chance_under`; no rule
re-implements the comparison. The conventions (WB-TEST-01 to WB-TEST-05):

* the target is the score plus every modifier; the die is never modified;
* a 1 always passes; a 10 always fails (unless ``natural_ten_fails`` is off, when a target of
  10 or more passes on any face);
* a score of 0 fails at once and no die is rolled;
* degrees of success are ``target - die``, degrees of failure ``die - target``, never below 0;
* "roll twice and keep the worse" rolls two dice and uses the higher face.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from warhost.core.dice import DiceSource

DIE = 10
"""Faces of the test die."""


@dataclass(frozen=True, slots=True)
class CheckResult:
    """The result of one roll-under test. ``die`` is None when no die was rolled (score 0)."""

    target: int
    die: int | None
    passed: bool
    dos: int
    dof: int

    @property
    def degrees(self) -> int:
        """Degrees of success if passed, else of failure."""
        return self.dos if self.passed else self.dof


def judge_face(target: int, die: int, natural_ten_fails: bool = True) -> CheckResult:
    """The result of a test whose die showed ``die`` (no dice drawn here)."""
    if die == 1:
        passed = True
    elif die == DIE:
        passed = not natural_ten_fails and target >= DIE
    else:
        passed = die <= target
    # A pass scores only DoS and a fail only DoF (WB-TEST-04): a natural 1 under a target
    # below 1 has no DoF, and a natural 10 over a target of 10 or more has no DoS.
    if passed:
        return CheckResult(target, die, True, max(0, target - die), 0)
    return CheckResult(target, die, False, 0, max(0, die - target))


def roll_under(
    dice: DiceSource,
    target: int,
    why: str,
    *,
    score_is_zero: bool = False,
    worst_of_two: bool = False,
    natural_ten_fails: bool = True,
    **fields: Any,
) -> CheckResult:
    """Make one test against ``target``; the die (or dice) is recorded as one roll event.

    ``score_is_zero`` fails the test without a roll (WB-TEST-03). ``worst_of_two`` rolls twice
    and keeps the higher face (WB-TEST-05). ``fields`` go on the roll event.

    Example:
        >>> from warhost.core.dice import ScriptedDice
        >>> roll_under(ScriptedDice([8]), 6, "jump")
        CheckResult(target=6, die=8, passed=False, dos=0, dof=2)
    """
    if score_is_zero:
        return CheckResult(target, None, False, 0, 0)
    if worst_of_two:
        die = max(dice.pool(2, DIE, why, target=target, **fields))
    else:
        die = dice.pool(1, DIE, why, target=target, **fields)[0]
    return judge_face(target, die, natural_ten_fails)


def face_chances(worst_of_two: bool = False) -> tuple[tuple[int, Fraction], ...]:
    """Each face the test keeps, with its exact probability (the higher of two dice when
    ``worst_of_two``), for enumerating what follows from the face (a 1 is a Critical Hit).

    Example:
        >>> face_chances()[0], face_chances(worst_of_two=True)[-1]
        ((1, Fraction(1, 10)), (10, Fraction(19, 100)))
    """
    if not worst_of_two:
        return tuple((face, Fraction(1, DIE)) for face in range(1, DIE + 1))
    return tuple((face, Fraction(face * face - (face - 1) * (face - 1), DIE * DIE))
                 for face in range(1, DIE + 1))


def chance_under(
    target: int,
    *,
    score_is_zero: bool = False,
    worst_of_two: bool = False,
    natural_ten_fails: bool = True,
) -> Fraction:
    """The exact probability that :func:`roll_under` passes with these arguments.

    Example:
        >>> chance_under(6), chance_under(12), chance_under(-3), chance_under(6, worst_of_two=True)
        (Fraction(3, 5), Fraction(9, 10), Fraction(1, 10), Fraction(9, 25))
    """
    if score_is_zero:
        return Fraction(0)
    passing = sum(1 for die in range(1, DIE + 1) if judge_face(target, die, natural_ten_fails).passed)
    single = Fraction(passing, DIE)
    if not worst_of_two:
        return single
    # The higher of two faces passes iff both pass, since passing is "face small enough"
    # (faces 1 always pass and 10 only passes when every face passes).
    return single * single
