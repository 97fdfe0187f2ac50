"""Courage tests and what makes units take them (W4-COUR, W4-PANIC, W4-FEAR, W4-IMMUNE,
W4-CMD-09/11). STUB: the psychology helper fills this in."""

from __future__ import annotations

from warhost.core.battle import Battle
from warhost.rulesets.dnd4e_war.state import Unit, WarState


def courage_bonus(state: WarState, unit: Unit) -> int:
    """W4-COUR-02 to 08: the best bonus available to the unit, always-on bonuses added."""
    return 0


def courage_test(state: WarState, battle: Battle, unit: Unit, dc: int, why: str, rule: str,
                 kind: str = "courage", natural_20_only: bool = False) -> bool:
    """W4-COUR-01: d20 + bonus >= DC passes (W4-AMB-42). ``kind`` is one of ``rally``,
    ``panic``, ``fear``, ``terror``, ``break``, ``courage``; fearless and immune units pass
    the tests their rule covers (W4-IMMUNE). Emits ``courage_test``."""
    return True


def panic(state: WarState, battle: Battle, unit: Unit, dc: int, causes: list[Unit], why: str,
          rule: str) -> bool:
    """A panic test (at most one a phase, W4-PANIC-06); on a failure the unit falls back
    away from ``causes`` (W4-PANIC-09). Returns True when the unit stands."""
    return True


def start_of_turn(state: WarState, battle: Battle) -> None:
    """Right after the Initiative phase: ongoing damage (W4-AMB-56) and terror tests for
    units with a terror-causing enemy within 6" (W4-FEAR-04, W4-AMB-44)."""


def end_of_turn(state: WarState, battle: Battle) -> None:
    """The End of Turn phase: saving throws (W4-CAS-10, W4-AMB-56)."""


def after_shooting(state: WarState, battle: Battle, shooters: str) -> None:
    """Step 6 of W4-SHOOT-02: panic tests for the other side's units that lost a company's
    worth of models to ``shooters`` this phase (W4-SHOOT-22, W4-PANIC-02/07/08)."""


def unit_destroyed(state: WarState, battle: Battle, unit: Unit) -> None:
    """W4-PANIC-03, W4-AMB-22: allies within 6" of ``unit`` (just destroyed) test."""


def fled_from_combat(state: WarState, battle: Battle, unit: Unit, fight: list[str]) -> None:
    """W4-PANIC-04, W4-AMB-23: allies within 6" of ``unit``, not in ``fight``, test."""
