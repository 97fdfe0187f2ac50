"""Stand-ins for the damage and morale functions the singular-creature rules call, so their
tests check the order of events and the singles' own logic, whatever the damage rules roll."""

from __future__ import annotations

from typing import Any

import pytest

from warhost.rulesets.dnd35_wars import damage, morale


class Calls:
    """Every faked call, in order, as (function name, attacker id, target id)."""

    def __init__(self) -> None:
        self.log: list[tuple[str, str, str]] = []
        self.kwargs: list[dict[str, Any]] = []
        self.deeds: list[tuple[str, str]] = []
        self.leaders_lost: list[str] = []


def fake_damage(monkeypatch: pytest.MonkeyPatch, unit_loss: int = 0,
                single_loss: int = 0) -> Calls:
    """Replace the attack functions: a singular creature's attack on a unit takes
    ``unit_loss`` HP, any attack on a creature ``single_loss`` HP."""
    calls = Calls()

    def single_attacks_unit(state: Any, battle: Any, attacker: Any, target: Any,
                            **kw: Any) -> int:
        calls.log.append(("single_attacks_unit", attacker.id, target.id))
        calls.kwargs.append(kw)
        return damage.apply_to_unit(state, battle, target, unit_loss, attacker.id)

    def single_attacks_single(state: Any, battle: Any, attacker: Any, target: Any,
                              **kw: Any) -> int:
        calls.log.append(("single_attacks_single", attacker.id, target.id))
        calls.kwargs.append(kw)
        return damage.apply_to_single(state, battle, target, single_loss, attacker.id)

    def unit_attacks_single(state: Any, battle: Any, attacker: Any, target: Any,
                            **kw: Any) -> int:
        calls.log.append(("unit_attacks_single", attacker.id, target.id))
        calls.kwargs.append(kw)
        return damage.apply_to_single(state, battle, target, single_loss, attacker.id)

    def pc_action(state: Any, battle: Any, pc: Any, what: str) -> None:
        calls.deeds.append((pc.id, what))

    def leader_lost(state: Any, battle: Any, unit: Any) -> None:
        calls.leaders_lost.append(unit.id)

    for name, fn in (("single_attacks_unit", single_attacks_unit),
                     ("single_attacks_single", single_attacks_single),
                     ("unit_attacks_single", unit_attacks_single)):
        monkeypatch.setattr(damage, name, fn, raising=False)
    monkeypatch.setattr(morale, "pc_action", pc_action, raising=False)
    monkeypatch.setattr(morale, "leader_lost", leader_lost, raising=False)
    return calls
