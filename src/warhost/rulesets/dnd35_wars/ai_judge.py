"""What the `dnd35-wars` AI counts: expected damage of one attack, and rough geometry.

Expected damage is exact in its parts: the hit and confirmed-critical chances of
:func:`odds.hit_chances` (bonus from :func:`combat.attack_bonus` against
:func:`combat.ac_against`), the mean of one damage roll (every die enumerated, at least 1),
DR off the roll, times the multiplier, capped at the target's HP. Positions the unit is only
thinking of are judged from bounding boxes, so a judgement costs a few steps per nearby unit.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from warhost.geometry.grid import Square, bresenham, side_contacts
from warhost.rulesets.dnd35_wars import combat, damage, defence, odds, reach, tables
from warhost.rulesets.dnd35_wars.state import Single, Unit, UnitAttack, WarState

Box = tuple[int, int, int, int]
"""x0, y0, x1, y1 of a block of squares (inclusive)."""

NEAR = 12
"""Units farther than this many squares are ignored by the per-decision judgements."""


@lru_cache(maxsize=512)
def roll_mean(expr: str) -> Fraction:
    """The mean of one damage roll of ``expr`` (at least 1 a roll)."""
    return odds.mean(odds.damage_roll_distribution(expr))


@lru_cache(maxsize=4096)
def per_hit(attack: UnitAttack, bonus: int, ac: int, crit_ok: bool, dr: int) -> float:
    """Expected damage of one roll of ``attack`` (hits and crits counted), DR off each roll;
    remembered, since a battle asks for the same few combinations thousands of times."""
    chances = odds.hit_chances(bonus, ac, crit_range=attack.crit_range, crit_ok=crit_ok)
    if not chances.hit:
        return 0.0
    base = max(0.0, float(roll_mean(attack.damage)) - dr)
    crit_extra = float(roll_mean(attack.damage)) * (attack.crit_multiplier - 1)
    return float(chances.hit) * base + float(chances.crit) * crit_extra


def unit_on_unit(state: WarState, att: Unit, target: Unit, kind: str, multiplier: int,
                 *, extra: int = 0) -> float:
    """Expected HP ``target`` loses to one attack of ``kind`` by ``att`` with ``multiplier``."""
    melee = kind in combat.MELEE_KINDS
    attack = att.melee if melee else att.ranged
    if attack is None or multiplier < 1 or damage.sheltered(state, target):
        return 0.0
    if target.creature.mundane_immune and not attack.magic:
        return 0.0
    bonus = combat.attack_bonus(state, att, target, kind, extra=extra).total
    ac = combat.ac_against(state, target, att, kind)
    hit = per_hit(attack, bonus, ac, damage.crits_allowed(state, att, target),
                  damage.unit_dr(state, target))
    return min(hit * multiplier, float(target.hp))


def unit_on_single(state: WarState, att: Unit, target: Single, *, ranged: bool,
                   extra: int = 0, attackers: int | None = None) -> float:
    """Expected HP the creature ``target`` loses to ``att``'s attack (W35-DMG-09/12)."""
    attack = att.ranged if ranged else att.melee
    if attack is None:
        return 0.0
    if attackers is None:
        attackers = 0
        if target.square is not None:
            attackers, _ = damage.attackers_against(state, att, target, target.square, ranged)
        if not attackers:
            attackers = min(att.derived_creatures, 3 * reach.creatures_per_side(att.per_counter))
    ac = target.creature.ac - (2 if target.charge_ac_penalty else 0) + (
        4 if target.total_defense else 0)
    hit = per_hit(attack, attack.bonus + extra, ac, damage.crits_allowed(state, att, target),
                  target.creature.dr)
    return min(hit * attackers, float(target.hp))


def single_on(state: WarState, att: Single, target: Unit | Single, *, charge: bool = False
              ) -> float:
    """Expected HP ``target`` loses to one attack action of ``att`` (averaged for monsters
    and NPCs, a full attack for a PC; W35-DMG-13..15)."""
    total = 0.0
    for attack in damage.single_attacks(att, charge=charge):
        bonus = attack.bonus + (2 if charge else 0)
        if isinstance(target, Unit):
            ac = combat.ac_against(state, target, att, "single")
            hit = per_hit(attack, bonus, ac, damage.crits_allowed(state, att, target),
                          damage.unit_dr(state, target))
            total += hit / float(target.per_counter)
        else:
            ac = target.creature.ac + (4 if target.total_defense else 0)
            total += per_hit(attack, bonus, ac, damage.crits_allowed(state, att, target),
                             target.creature.dr)
    return min(total, float(target.hp))


def contacts(squares: set[Square] | frozenset[Square], target: Unit) -> int:
    """Counters of ``squares`` sharing a side with ``target`` (the melee multiplier)."""
    return len(side_contacts(squares, target.squares))


def likely_contacts(att: Unit, target: Unit) -> int:
    """Counters a meeting would put in side contact, judged before it happens: a front as
    wide as the narrower of the two blocks."""
    return max(1, min(att.counters, target.counters, _width(att), _width(target) + 1))


def _width(unit: Unit) -> int:
    x0, y0, x1, y1 = box(unit.squares)
    return max(x1 - x0, y1 - y0) + 1


def box(squares: set[Square] | frozenset[Square]) -> Box:
    """The bounding box of ``squares``."""
    xs = [x for x, _ in squares]
    ys = [y for _, y in squares]
    return min(xs), min(ys), max(xs), max(ys)


def shifted(b: Box, dx: int, dy: int) -> Box:
    """``b`` moved by (dx, dy)."""
    return b[0] + dx, b[1] + dy, b[2] + dx, b[3] + dy


def box_gap(a: Box, b: Box) -> int:
    """Chebyshev distance between two boxes (1: touching, 0: overlapping)."""
    gx = max(b[0] - a[2], a[0] - b[2], 0)
    gy = max(b[1] - a[3], a[1] - b[3], 0)
    return max(gx, gy)


def threat_reach(unit: Unit) -> int:
    """The farthest box gap from which ``unit`` could strike next turn: a charge (its rate
    plus the square of contact), else a move into contact."""
    return max(1, int(unit.rate)) + 1


EARLY_BUFF = 0.01
"""A buff cast while no enemy could reach the unit next round keeps this share of its worth
(it may lapse before the fight, and the caster's unit waits for it)."""


def contact_soon(state: WarState, unit: Unit) -> float:
    """1 when ``unit`` fights now or an enemy unit could charge it (or be charged by it)
    next round, else :data:`EARLY_BUFF`: the weight of a buff cast on it now."""
    if not unit.squares or state.foes_engaged(unit.id):
        return 1.0
    here = box(unit.squares)
    own = threat_reach(unit)
    for foe in state.units_of(state.other(unit.side)):
        if foe.squares and box_gap(here, box(foe.squares)) <= max(own, threat_reach(foe)):
            return 1.0
    return EARLY_BUFF


def can_set(unit: Unit) -> bool:
    """A unit that may set against a charge (W35-DEFEND-01, W35-MOB-05)."""
    return defence.set_problem(unit) is None


def hp_fraction(unit: Unit) -> float:
    """HP left as a share of the start."""
    return unit.hp / unit.start_hp if unit.start_hp else 0.0


def lane_clear(state: WarState, charger: Unit, frm: Box, to: Box) -> bool:
    """Whether the straight line between the two blocks' centres crosses no water and no
    difficult terrain outside them, so a charge could run along it (W35-TERR-05/13)."""
    if charger.flying:
        return True
    a = ((frm[0] + frm[2]) // 2, (frm[1] + frm[3]) // 2)
    b = ((to[0] + to[2]) // 2, (to[1] + to[3]) // 2)
    for sq in bresenham(a, b):
        if _inside(frm, sq) or _inside(to, sq):
            continue
        if sq in state.water or tables.TERRAIN_COST.get(state.cost_of(sq), 1) > 1:
            return False
    return True


def _inside(b: Box, sq: Square) -> bool:
    return b[0] <= sq[0] <= b[2] and b[1] <= sq[1] <= b[3]
