"""Unit attack actions (W35-UATK, W35-DMG, W35-MULTI): melee, ranged fire and charges.

SKELETON: a melee attack on a unit sharing a side, one roll, damage times the counters in
contact; the combat helper replaces this module.
"""

from __future__ import annotations

from warhost.core.battle import Battle
from warhost.core.orders import Order
from warhost.rulesets.dnd35_wars import damage
from warhost.rulesets.dnd35_wars.state import Unit, WarState

ORDER_KINDS: tuple[str, ...] = ("melee", "shoot", "charge")
"""The order kinds this module offers and carries out."""


def _contact(attacker: Unit, target: Unit) -> int:
    own = attacker.squares
    return sum(1 for x, y in own
               if any((x + dx, y + dy) in target.squares
                      for dx, dy in ((0, 1), (1, 0), (0, -1), (-1, 0))))


def attack_options(state: WarState, unit: Unit) -> list[Order]:
    """Melee attacks on enemy units in side contact."""
    if unit.melee is None:
        return []
    out = []
    for uid in sorted(state.neighbours_of(unit.squares)):
        other = state.units.get(uid)
        if other is not None and other.side != unit.side and other.on_map:
            out.append(Order.of("melee", unit.id, uid))
    return out


def take_attack(state: WarState, battle: Battle, unit: Unit, order: Order) -> None:
    """One melee attack roll; on a hit, damage times the counters in contact (W35-DMG-02)."""
    target = state.units[str(order.args[1])]
    assert unit.melee is not None
    state.engage(unit.id, target.id)
    state.melee_happened = True
    roll = battle.dice.draw(20, f"{unit.id} attacks {target.id}")
    total = roll + unit.melee.bonus
    hit = roll == 20 or (roll != 1 and total >= target.ac)
    battle.emit("attack", unit=unit.id, target=target.id, roll=roll, total=total, ac=target.ac,
                hit=hit)
    if hit:
        per = battle.dice.roll(unit.melee.damage, f"{unit.id} damage")
        damage.apply_to_unit(state, battle, target, per * _contact(unit, target), unit.id)
