"""Attack rolls and the four damage pathways of `dnd35-wars` (W35-DMG-01..18).

Unit against unit (:func:`hit_unit`, the caller gives the multiplier), unit against a singular
creature (:func:`unit_attacks_single`, W35-DMG-08..12), singular creature against a unit
(:func:`hit_unit_by_single`, W35-DMG-13/14) and singular against singular (:func:`hit_single`,
W35-DMG-15). Damage reduction, structure DR and mundane immunity come off each single roll
first (W35-STRUCT-05, W35-AMB-88, W35-ABIL-08); unit damage is pooled and counters are removed
by the defender's choice (W35-UNIT-11..13, W35-DMG-17/18, W35-AMB-90). Collateral damage to
embedded creatures: W35-COLL-01..06.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from warhost.core.battle import Battle
from warhost.core.decisions import Refusal
from warhost.core.orders import Order
from warhost.geometry.grid import (
    DIRECTIONS4,
    DIRECTIONS8,
    Square,
    formation_ok,
    removal_ok,
    removal_order,
    square_of_text,
)
from warhost.rulesets.dnd35_wars import conditions, derive, morale, reach, tables
from warhost.rulesets.dnd35_wars.state import (
    SLAIN,
    VANQUISHED,
    Single,
    Unit,
    UnitAttack,
    WarState,
)

REMOVE_COUNTERS = "remove_counters"
"""Decision kind (W35-DEC-19): which counters a unit loses; orders ``remove <unit> x,y ...``."""

REMOVE = "remove"
"""Order kind of :data:`REMOVE_COUNTERS`."""

FLANKING_BONUS = 2
"""W35-DMG-10: a unit surrounding a singular creature."""

CHARGE_BONUS = 2
"""W35-AMB-30: a singular creature's charge attack."""

CHARGE_AC_PENALTY = 2
"""W35-UATK-04, W35-AMB-30: AC lost until the charger's next turn."""

TOTAL_DEFENSE_AC = 4
"""Standard 3.5 total defense: +4 dodge to AC until the creature's next turn (W35-COMBAT-07)."""

COLLATERAL_DC = 10
"""W35-COLL-05: Reflex DC against stray missiles."""

_STACKING_TYPES = ("dodge", "circumstance")
_UNTYPED = ("", "untyped")


def _hook(name: str) -> Callable[..., Any] | None:
    """A morale hook by name, if the morale module has it yet."""
    hook: Callable[..., Any] | None = getattr(morale, name, None)
    return hook


# ------------------------------------------------------------------- rolls (W35-GEN, COMBAT)


@dataclass(frozen=True)
class AttackRoll:
    """One attack roll: the natural die, the total, whether it hit, and whether a threat was
    confirmed as a critical hit (``confirm``: the natural confirmation die, if rolled)."""

    roll: int
    total: int
    hit: bool
    crit: bool
    threat: bool = False
    confirm: int | None = None


def _hits(natural: int, total: int, ac: int) -> bool:
    return natural == 20 or (natural != 1 and total >= ac)


def roll_attack(battle: Battle, bonus: int, ac: int, *, crit_range: int = 20,
                crit_ok: bool = True, why: str = "") -> AttackRoll:
    """d20 + ``bonus`` against ``ac``: natural 20 hits, natural 1 misses (W35-COMBAT-03,
    W35-GEN-02); a hit in the threat range rolls once more against the same AC to confirm a
    critical (W35-GEN-03, W35-AMB-89) unless ``crit_ok`` is False."""
    natural = battle.dice.draw(20, why or "attack")
    total = natural + bonus
    hit = _hits(natural, total, ac)
    if not (hit and crit_ok and natural >= crit_range):
        return AttackRoll(natural, total, hit, False)
    confirm = battle.dice.draw(20, f"{why or 'attack'} confirm")
    return AttackRoll(natural, total, hit, _hits(confirm, confirm + bonus, ac), True, confirm)


def roll_damage(battle: Battle, attack: UnitAttack, crit: bool, why: str = "") -> int:
    """One damage roll of ``attack`` (at least 1, standard 3.5), times its critical multiplier
    on a confirmed critical (W35-AMB-89: one roll, multiplied before any counter multiplier)."""
    rolled = max(1, battle.dice.roll(attack.damage, why or "damage"))
    return rolled * attack.crit_multiplier if crit else rolled


def roll_save(battle: Battle, bonus: int, dc: int, why: str = "") -> bool:
    """A saving throw: d20 + ``bonus`` ≥ ``dc``; natural 20 succeeds, natural 1 fails
    (W35-GEN-04)."""
    natural = battle.dice.draw(20, why or "save")
    if natural in (1, 20):
        return natural == 20
    return natural + bonus >= dc


def stack(bonuses: Sequence[tuple[str, int]]) -> int:
    """The total of typed bonuses and penalties (W35-GEN-05).

    Each entry is ``(type, value)``; a type may name its source as ``type:source``. Penalties
    (negative values) and untyped bonuses always add up. Dodge and circumstance bonuses add up
    across different sources (an entry without a source is a source of its own); any other
    named type counts only its highest bonus.
    """
    total = 0
    best: dict[str, int] = {}
    for name, value in bonuses:
        kind, _, source = name.lower().partition(":")
        if value < 0 or kind in _UNTYPED:
            total += value
            continue
        if kind in _STACKING_TYPES:
            key = f"{kind}:{source}" if source else f"{kind}#{len(best)}"
        else:
            key = kind
        best[key] = max(best.get(key, 0), value)
    return total + sum(best.values())


def crits_allowed(state: WarState, attacker: Unit | Single | None,
                  target: Unit | Single) -> bool:
    """Whether an attack may score a critical: never on crit-immune targets, and with a unit
    on either end only under option ``unit_crits`` (W35-AMB-89)."""
    if isinstance(target, Unit):
        if target.crit_immune:
            return False
    elif target.creature.crit_immune:
        return False
    if isinstance(target, Unit) or isinstance(attacker, Unit):
        return state.options.unit_crits
    return True


def emit_attack(battle: Battle, attacker: Unit | Single, target: Unit | Single,
                roll: AttackRoll, ac: int, **extra: Any) -> None:
    """The ``attack`` event: a unit attacker under ``unit``, a creature under ``who``."""
    who = {"unit": attacker.id} if isinstance(attacker, Unit) else {"who": attacker.id}
    battle.emit("attack", **who, target=target.id, roll=roll.roll, total=roll.total, ac=ac,
                hit=roll.hit, crit=roll.crit, threat=roll.threat, confirm=roll.confirm, **extra)


# ------------------------------------------------------------- DR and structures (STRUCT)


def fortification_dr(state: WarState, unit: Unit) -> int | None:
    """The DR of the intact structure sections holding every counter of ``unit`` (the weakest
    of them), or None when some counter stands outside an intact section (W35-STRUCT-01/06,
    W35-AMB-45: a breached section gives nothing)."""
    if not unit.squares or not state.structure_at:
        return None
    weakest: int | None = None
    for sq in unit.squares:
        sid = state.structure_at.get(sq)
        if sid is None or state.structure_hp.get(sid, 1) <= 0:
            return None
        dr = state.structures[sid].dr
        weakest = dr if weakest is None else min(weakest, dr)
    return weakest


def sheltered(state: WarState, unit: Unit) -> bool:
    """A unit inside a fortification that neither guards the walls nor has fired or attacked
    since its last turn takes no damage (W35-STRUCT-03, W35-AMB-45)."""
    if unit.closed_tower:  # total cover until it shoots through the slits (W35-AMB-46)
        return not unit.exposed
    return not (unit.guarding_walls or unit.exposed) and fortification_dr(state, unit) is not None


def unit_dr(state: WarState, unit: Unit) -> int:
    """The DR off each single roll against ``unit``: its creatures' DR (W35-STAT-09) plus the
    structure's while it guards the walls or fires (W35-STRUCT-02)."""
    structure = fortification_dr(state, unit) if unit.guarding_walls or unit.exposed else None
    return unit.dr + (structure or 0)


def hit_structure(state: WarState, battle: Battle, sid: str, per_hit: int, multiplier: int = 1,
                  *, source: str) -> int:
    """Damage to a structure section: its hardness off each single roll, then times
    ``multiplier`` (W35-AMB-88); at 0 HP it is breached and gives no more DR (W35-AMB-45).
    A section without hit points cannot be attacked (a ValueError). Returns the HP lost."""
    section = state.structures[sid]
    if sid not in state.structure_hp:
        raise ValueError(f"structure {sid} has no hit points and cannot be attacked")
    left = state.structure_hp[sid]
    lost = min(left, max(0, per_hit - section.hardness) * max(0, multiplier))
    if lost <= 0:
        return 0
    state.structure_hp[sid] = left - lost
    battle.emit("structure_damage", structure=sid, source=source, hp=lost, left=left - lost)
    if left - lost == 0:
        battle.emit("breached", structure=sid)
    return lost


def _unharmed(battle: Battle, target: Unit | Single, source: str, reason: str) -> int:
    who = {"unit": target.id} if isinstance(target, Unit) else {"who": target.id}
    battle.emit("unharmed", **who, source=source, reason=reason)
    return 0


# --------------------------------------------------------------------- the four pathways


def hit_unit(state: WarState, battle: Battle, target: Unit, per_hit: int, multiplier: int, *,
             source: str, kind: str, attacker: Unit | Single | None = None,
             magic: bool = False) -> int:
    """Unit-scale damage: DR off the single roll (W35-STRUCT-05, W35-AMB-88), nothing from
    mundane weapons to immune creatures (W35-ABIL-08, W35-AMB-74), then times ``multiplier``
    (W35-DMG-02/03) into the pool; the HP lost."""
    if not target.on_map or multiplier <= 0 or per_hit <= 0:
        return 0
    target.hit_counters = target.counters
    if sheltered(state, target):
        return _unharmed(battle, target, source, "sheltered")
    if target.creature.mundane_immune and not magic and kind != "area":
        return _unharmed(battle, target, source, "mundane")
    per = max(0, per_hit - unit_dr(state, target))
    if per == 0:
        return _unharmed(battle, target, source, "dr")
    return apply_to_unit(state, battle, target, per * multiplier, source, kind=kind,
                         attacker=attacker)


def hit_unit_by_single(state: WarState, battle: Battle, target: Unit, per_hit: int, *,
                       source: str, attacker: Single | None, magic: bool = False,
                       kind: str = "single") -> int:
    """A singular creature's hit on a unit: after DR, divided by the creatures in one counter
    and rounded down, so a counter holding more creatures than the damage takes nothing
    (W35-DMG-13/14, W35-AMB-09). ``kind``: "siege" for a siege weapon's hit (W35-SIEGE-06),
    a morale trigger."""
    if not target.on_map or per_hit <= 0:
        return 0
    if sheltered(state, target):
        return _unharmed(battle, target, source, "sheltered")
    if target.creature.mundane_immune and not magic:
        return _unharmed(battle, target, source, "mundane")
    per = max(0, per_hit - unit_dr(state, target))
    lost = int(Fraction(per) / target.per_counter)
    if lost == 0:
        return _unharmed(battle, target, source, "dr" if per == 0 else "spread")
    return apply_to_unit(state, battle, target, lost, source, kind=kind, attacker=attacker)


def hit_single(state: WarState, battle: Battle, target: Single, per_hit: int, *, source: str,
               attacker: Unit | Single | None = None, multiplier: int = 1,
               magic: bool = False) -> int:
    """Damage to a singular creature: its DR off the single roll, mundane immunity, then times
    ``multiplier`` (the unit's attacking creatures, W35-DMG-09; 1 between singles, W35-DMG-15)."""
    if not target.alive or per_hit <= 0 or multiplier <= 0:
        return 0
    if target.creature.mundane_immune and not magic:
        return _unharmed(battle, target, source, "mundane")
    per = max(0, per_hit - target.creature.dr)
    if per == 0:
        return _unharmed(battle, target, source, "dr")
    return apply_to_single(state, battle, target, per * multiplier, source, attacker=attacker)


# ------------------------------------------------------------- pooled HP (UNIT-11..13)


def apply_to_unit(state: WarState, battle: Battle, unit: Unit, amount: int, source: str, *,
                  kind: str = "melee", attacker: Unit | Single | None = None) -> int:
    """Take ``amount`` HP from ``unit``'s pool (W35-UNIT-11); counters it no longer fills are
    removed, chosen by its commander (W35-UNIT-12/13, W35-DMG-17/18); the HP lost."""
    lost = min(max(0, amount), unit.hp)
    if not lost or not unit.on_map:
        return 0
    unit.hp -= lost
    note = _hook("note_damage")
    if note is not None:  # while the counters still stand (W35-AMB-18 sees them)
        note(state, battle, unit, lost, kind=kind, attacker=attacker)
    gone = unit.counters - tables.counters_left(unit.hp, unit.counter_hp)
    last = set(unit.squares)
    if gone > 0 and unit.stack and unit.hp > 0:  # a tower's stack loses its top (AMB-77)
        unit.stack -= gone
        gone = 0
        battle.emit("counters_removed", unit=unit.id, squares=[], left=unit.stack)
    if gone > 0:
        chosen = last if gone >= unit.counters else choose_removal(state, battle, unit, gone,
                                                                   attacker)
        state.remove_counters(unit, chosen)
        battle.emit("counters_removed", unit=unit.id, squares=[list(s) for s in sorted(chosen)],
                    left=unit.counters)
    battle.emit("unit_damage", unit=unit.id, source=source, hp=lost, left=unit.hp,
                counters=unit.counters)
    if not unit.squares:
        vanquish(state, battle, unit, last)
    return lost


def vanquish(state: WarState, battle: Battle, unit: Unit, last: set[Square]) -> None:
    """A unit with no counters left is vanquished (W35-DMG-17): its engagements end and its
    embedded creatures stay behind on its last squares as independent creatures."""
    unit.status = VANQUISHED
    state.disengage(unit.id)
    freed = [s.id for s in state.singles_in(unit) if s.host == unit.id]
    for sid in freed:
        _leave_behind(state, state.singles[sid], unit, last)
    battle.emit("vanquished", unit=unit.id, freed=freed)
    gone = _hook("unit_gone")
    if gone is not None:
        gone(state, battle, unit, "wiped")


def _leave_behind(state: WarState, single: Single, unit: Unit, last: set[Square]) -> None:
    single.host = None
    if single.id in unit.singles:
        unit.singles.remove(single.id)
    spot = _free_square(state, single.square, last)
    state.put_single(single, spot)
    if spot is None or single.id in state.order:
        return
    if unit.id in state.initiative:
        state.act_after(unit.id, single.id)  # W35-AMB-64: acts at the unit's count - 1
    elif unit.id in state.order:
        state.order.insert(state.order.index(unit.id) + 1, single.id)


def _free_square(state: WarState, own: Square | None, last: set[Square]) -> Square | None:
    """The creature's own square if free, else the first free of ``last``, else the first free
    square next to them."""
    if own is not None and own in last and own not in state.at:
        return own
    for sq in sorted(last):
        if sq not in state.at:
            return sq
    for x, y in sorted(last):
        for dx, dy in DIRECTIONS8:
            sq = (x + dx, y + dy)
            if state.inside(sq) and sq not in state.at:
                return sq
    return None


def apply_to_single(state: WarState, battle: Battle, single: Single, amount: int, source: str,
                    *, attacker: Unit | Single | None = None) -> int:
    """Take ``amount`` HP from a singular creature; at 0 HP or below it is out of the battle
    (slain). Returns the HP lost."""
    lost = max(0, amount)
    if not lost or not single.alive:
        return 0
    single.hp -= lost
    battle.emit("single_damage", who=single.id, source=source, hp=lost, left=single.hp)
    if single.hp <= 0:
        single.status = SLAIN
        host = state.units.get(single.host) if single.host is not None else None
        if single.host is None:
            state.put_single(single, None)
        battle.emit("slain", who=single.id, source=source)
        if host is not None and host.leader == single.id:
            hook = _hook("leader_lost")
            if hook is not None:
                hook(state, battle, host)
    return lost


# ---------------------------------------------------- which counters go (DMG-18, AMB-90)


def _enemy_squares(state: WarState, unit: Unit, attacker: Unit | Single | None) -> set[Square]:
    """The squares of the enemies nearest to hand: the attacker and the units engaged with
    ``unit``; failing those, every enemy unit on the map."""
    out: set[Square] = set()
    if isinstance(attacker, Unit):
        out |= attacker.squares
    elif attacker is not None and attacker.square is not None:
        out.add(attacker.square)
    for uid in state.foes_engaged(unit.id):
        out |= state.units[uid].squares
    if not out:
        for foe in state.units_of(state.other(unit.side)):
            out |= foe.squares
    return _rim(out)


def _rim(squares: set[Square]) -> set[Square]:
    """The squares of ``squares`` with a neighbour outside it: the nearest square of the set
    to any square outside it (Chebyshev) is always one of these."""
    return {(x, y) for x, y in squares
            if any((x + dx, y + dy) not in squares for dx, dy in DIRECTIONS8)}


def _far_point(squares: set[Square], direction: Square) -> Square:
    """A point far beyond ``squares`` in ``direction``: nearest to it means that edge first."""
    reach_ = 4 * (len(squares) + 1)
    xs = sorted(x for x, _ in squares)
    ys = sorted(y for _, y in squares)
    return (xs[len(xs) // 2] + direction[0] * (xs[-1] - xs[0] + reach_),
            ys[len(ys) // 2] + direction[1] * (ys[-1] - ys[0] + reach_))


def removal_choices(state: WarState, unit: Unit, k: int,
                    attacker: Unit | Single | None = None) -> list[tuple[Square, ...]]:
    """Sets of ``k`` counters to remove: first the automatic choice (farthest from the nearest
    enemy, W35-AMB-90), then the legal sets taken from each edge of the formation."""
    out = [_auto_pick(state, unit, k, attacker)]
    legal = formation_ok(unit.squares)
    for direction in DIRECTIONS4:
        pick = _edge_pick(unit, k, direction)
        if pick not in out and (legal or removal_ok(unit.squares, pick)):
            out.append(pick)
    return out


def _auto_pick(state: WarState, unit: Unit, k: int,
               attacker: Unit | Single | None) -> tuple[Square, ...]:
    return tuple(sorted(removal_order(unit.squares, _enemy_squares(state, unit, attacker), k)))


def _edge_pick(unit: Unit, k: int, direction: Square) -> tuple[Square, ...]:
    """``k`` counters taken from the edge facing ``direction`` (an enemy far on the opposite
    side makes that edge the farthest)."""
    far = _far_point(unit.squares, (-direction[0], -direction[1]))
    return tuple(sorted(removal_order(unit.squares, [far], k)))


def removal_order_of(unit: Unit, squares: Iterable[Square]) -> Order:
    """The ``remove`` order for ``squares`` of ``unit``."""
    return Order.of(REMOVE, unit.id, *(f"{x},{y}" for x, y in sorted(squares)))



def judge_removal(unit: Unit, k: int, legal_exists: bool, order: Order) -> Order | Refusal:
    """Whether ``order`` removes exactly ``k`` distinct counters of ``unit`` and, when a legal
    removal exists, leaves a connected formation without holes (W35-DMG-18, W35-AMB-90)."""
    if order.kind != REMOVE or not order.args or str(order.args[0]) != unit.id:
        return Refusal(f"name {k} counters of {unit.id} to remove", rule="W35-DMG-18")
    squares = [square_of_text(str(a)) for a in order.args[1:]]
    picked = {sq for sq in squares if sq is not None}
    if None in squares or len(picked) != len(squares) or not picked <= unit.squares:
        return Refusal(f"squares must be distinct counters of {unit.id}", rule="W35-DMG-18")
    if len(picked) != k:
        return Refusal(f"{unit.id} loses exactly {k} counters, not {len(picked)}",
                       rule="W35-UNIT-12")
    if legal_exists and not removal_ok(unit.squares, picked):
        return Refusal("the counters left must stay connected and without holes",
                       rule="W35-AMB-90")
    return removal_order_of(unit, picked)


def choose_removal(state: WarState, battle: Battle, unit: Unit, k: int,
                   attacker: Unit | Single | None = None) -> set[Square]:
    """Ask ``unit``'s commander which ``k`` counters it loses (W35-DEC-19); the default is the
    automatic choice of W35-AMB-90.

    From a legal formation every greedy pick of ``removal_order`` is legal (a hole-free
    formation always has a counter it can lose), so the edge sets are built only when a
    commander reads them; they may then repeat the automatic set.
    """
    auto = _auto_pick(state, unit, k, attacker)
    prompt = f"{unit.id} loses {k} counters: which?"
    if not formation_ok(unit.squares):
        choices = removal_choices(state, unit, k, attacker)
        legal_exists = any(removal_ok(unit.squares, c) for c in choices)
        options = tuple(removal_order_of(unit, c) for c in choices)
        order = battle.ask(unit.side, REMOVE_COUNTERS, options, prompt, unit.id,
                           default=options[0],
                           accept=lambda o: judge_removal(unit, k, legal_exists, o))
    else:
        def make(i: int) -> Order:
            pick = auto if i == 0 else _edge_pick(unit, k, DIRECTIONS4[i - 1])
            return removal_order_of(unit, pick)

        order = battle.ask_lazy(unit.side, REMOVE_COUNTERS, 1 + len(DIRECTIONS4), make, prompt,
                                unit.id, default_of=lambda: make(0),
                                accept=lambda o: judge_removal(unit, k, True, o))
    judged = judge_removal(unit, k, True, order)
    if isinstance(judged, Refusal):  # only when no legal set exists
        judged = order
    return {sq for sq in (square_of_text(str(a)) for a in judged.args[1:]) if sq is not None}


# --------------------------------------------------- units against singles (DMG-08..12)


def single_target_ok(state: WarState, attacker: Unit, target: Single) -> bool:
    """A unit may attack a singular creature that is alive, on the map and not embedded in a
    unit of its own side (W35-DMG-08); one inside the attacker is fair game (W35-INUNIT-07)."""
    if not target.alive or target.side == attacker.side:
        return False
    if target.host is None:
        return target.square is not None
    return target.host == attacker.id


def _target_square(attacker: Unit, target: Single) -> Square | None:
    if target.square is not None:
        return target.square
    if target.host == attacker.id and attacker.squares:
        return min(attacker.squares)
    return None


def _sight(state: WarState, attacker: Unit, target: Single) -> Callable[[Square, Square], bool]:
    blocks = reach.view_blocker(state, (attacker.id, target.id))
    return lambda counter, aim: reach.line_of_sight(counter, aim, blocks)


def attackers_against(state: WarState, attacker: Unit, target: Single, sq: Square,
                      ranged: bool) -> tuple[int, bool]:
    """How many of ``attacker``'s creatures strike ``target`` standing on ``sq``, and whether
    they surround it: W35-AMB-31 in melee, W35-AMB-32 at range, both capped at the unit's
    derived creatures."""
    if ranged:
        shooters = reach.ranged_attackers_on_single(attacker.squares, sq, attacker.per_counter,
                                                    _sight(state, attacker, target))
        return min(shooters, attacker.derived_creatures), False
    return reach.attackers_on_single(sq, tables.SIZE_CELLS[target.creature.size],
                                     tables.SIZE_CELLS[attacker.size], attacker.squares,
                                     attacker.derived_creatures)


def spell_modifier(state: WarState, single: Single, stat: str) -> int:
    """The spells' lasting modifier to one of a creature's numbers (its standard effect,
    W35-MAGIC-04), as the magic rules keep it."""
    if not single.spell_mods:
        return 0
    from warhost.rulesets.dnd35_wars import magic  # magic builds on this module

    return magic.single_modifier(state, single, stat)


def single_ac(target: Single, state: WarState | None = None) -> int:
    """A singular creature's AC: −2 after its charge, +4 in total defense (no flat-footed
    against units, W35-AMB-85); with ``state``, the spells' modifiers to its AC too."""
    ac = target.creature.ac
    if target.charge_ac_penalty:
        ac -= CHARGE_AC_PENALTY
    if target.total_defense:
        ac += TOTAL_DEFENSE_AC
    if state is not None:
        ac += spell_modifier(state, target, "ac")
    return ac


def _strike_single(state: WarState, battle: Battle, attacker: Unit, target: Single,
                   sq: Square, *, ranged: bool, extra_bonus: int) -> int:
    """One unit attack on a creature standing on ``sq`` (W35-DMG-09..12)."""
    attack = attacker.ranged if ranged else attacker.melee
    if attack is None:
        return 0
    count, surrounded = attackers_against(state, attacker, target, sq, ranged)
    if count <= 0:
        return 0
    flanked = surrounded and not target.creature.flank_immune
    bonus = attack.bonus + extra_bonus + (FLANKING_BONUS if flanked else 0)
    bonus += conditions.modifier(attacker, "attack")
    ac = single_ac(target, state)
    roll = roll_attack(battle, bonus, ac, crit_range=attack.crit_range,
                       crit_ok=crits_allowed(state, attacker, target),
                       why=f"{attacker.id} attacks {target.id}")
    emit_attack(battle, attacker, target, roll, ac, attackers=count, flanking=flanked)
    if not roll.hit:
        return 0
    per = roll_damage(battle, attack, roll.crit, f"{attacker.id} damage")
    per += extra_damage(battle, attacker, flanked=flanked)
    per = max(1, per + conditions.modifier(attacker, "damage"))
    return hit_single(state, battle, target, per, source=attacker.id, attacker=attacker,
                      multiplier=count, magic=attack.magic)


def unit_attacks_single(state: WarState, battle: Battle, attacker: Unit, target: Single, *,
                        ranged: bool, extra_bonus: int = 0) -> int:
    """A unit's whole attack on a singular creature (W35-DMG-08..12): attackers counted by
    W35-AMB-31/32, +2 flanking when it is surrounded, damage times the attackers. Range and
    its penalty are the caller's (pass the penalty in ``extra_bonus``). The HP lost (0 when
    the target may not be attacked)."""
    if not attacker.can_fight or not single_target_ok(state, attacker, target):
        return 0
    sq = _target_square(attacker, target)
    if sq is None:
        return 0
    attacker.exposed = True  # W35-AMB-45: it attacked since its last turn
    return _strike_single(state, battle, attacker, target, sq, ranged=ranged,
                          extra_bonus=extra_bonus)


# ------------------------------------------------ singles attacking (DMG-13..15, PC-04)


def single_attacks(single: Single, *, charge: bool = False,
                   ranged: bool = False) -> list[UnitAttack]:
    """The attacks a singular creature makes in one attack action: the averaged single attack
    for a monster or NPC (W35-MON-10/11), every attack of its list for a PC's full attack
    (W35-PC-04), only the first for a PC's charge (W35-AMB-30)."""
    listed = single.creature.ranged if ranged else single.creature.melee
    if not listed:
        return []
    if single.kind == "pc":
        attacks = [UnitAttack.of(a) for a in listed]
        return attacks[:1] if charge else attacks
    averaged = derive.single_attack(listed)
    return [averaged] if averaged is not None else []


def ac_for_single(state: WarState, target: Unit) -> int:
    """A unit's AC against a singular creature: its AC, −2 after its own charge (never
    flat-footed, W35-AMB-85); the combat helper's modifiers come on top."""
    ac = target.ac - (CHARGE_AC_PENALTY if target.charge_ac_penalty else 0)
    ac += TOTAL_DEFENSE_AC if target.siege_defense else 0  # W35-SWU-13
    return ac + conditions.modifier(target, "ac")


def _charging(attacker: Single, charge: bool) -> int:
    if charge:
        attacker.charge_ac_penalty = True
        return CHARGE_BONUS
    return 0


def single_attacks_unit(state: WarState, battle: Battle, attacker: Single, target: Unit, *,
                        extra_bonus: int = 0, charge: bool = False,
                        ranged: bool = False) -> int:
    """A singular creature's attack action on a unit (W35-DMG-13/14); the HP the unit lost
    (a monster fighting through needs at least 1, W35-MON-07)."""
    noted = _hook("note_attacked")
    if noted is not None:
        noted(state, target, attacker)
    bonus = extra_bonus + _charging(attacker, charge)
    lost = 0
    for attack in single_attacks(attacker, charge=charge, ranged=ranged):
        if not target.on_map:
            break
        per = _blow(state, battle, attacker, target, attack, bonus, ac_for_single(state, target))
        if per is not None:
            lost += hit_unit_by_single(state, battle, target, per, source=attacker.id,
                                       attacker=attacker, magic=attack.magic)
    return lost


def _blow(state: WarState, battle: Battle, attacker: Single, target: Unit | Single,
          attack: UnitAttack, bonus: int, ac: int) -> int | None:
    """One attack roll of a singular creature against ``ac``, reported; its damage roll on a
    hit, with the spells' modifier to its damage (at least 1), or None on a miss."""
    roll = roll_attack(battle, attack.bonus + bonus, ac, crit_range=attack.crit_range,
                       crit_ok=crits_allowed(state, attacker, target),
                       why=f"{attacker.id} attacks {target.id}")
    emit_attack(battle, attacker, target, roll, ac)
    if not roll.hit:
        return None
    per = roll_damage(battle, attack, roll.crit, f"{attacker.id} damage")
    mod = spell_modifier(state, attacker, "damage")
    return max(1, per + mod) if mod else per


def single_attacks_single(state: WarState, battle: Battle, attacker: Single, target: Single,
                          *, extra_bonus: int = 0, charge: bool = False,
                          ranged: bool = False) -> int:
    """One singular creature's attack action on another, full damage on the standard rules
    (W35-DMG-15); the HP lost."""
    bonus = extra_bonus + _charging(attacker, charge)
    lost = 0
    for attack in single_attacks(attacker, charge=charge, ranged=ranged):
        if not target.alive:
            break
        per = _blow(state, battle, attacker, target, attack, bonus,
                     single_ac(target, state))
        if per is not None:
            lost += hit_single(state, battle, target, per, source=attacker.id,
                               attacker=attacker, magic=attack.magic)
    return lost


# ------------------------------------------------------------- class abilities (STAT-07)


def sneak_dice(feats: Iterable[str]) -> int:
    """N of a "sneak attack N" feat or ability (0 without one)."""
    for feat in feats:
        words = feat.lower().split()
        if len(words) == 3 and words[:2] == ["sneak", "attack"] and words[2].isdigit():
            return int(words[2])
    return 0


def extra_damage(battle: Battle, attacker: Unit | Single, *, flanked: bool) -> int:
    """Class-ability damage added to one roll (W35-STAT-07): +Nd6 sneak attack against a
    flanked target; 0 otherwise."""
    feats = attacker.feats if isinstance(attacker, Unit) else attacker.creature.feats
    dice = sneak_dice(feats) if flanked else 0
    return battle.dice.roll(f"{dice}d6", f"{attacker.id} sneak attack") if dice else 0


# ------------------------------------------------------------ collateral (W35-COLL)


def _front_square(attacker: Unit, target: Unit, single: Single) -> Square | None:
    """Where a front-line creature meets the attack: its own square, else the first counter
    of its unit touching the attacker by a side."""
    if single.square is not None and single.square in target.squares:
        return single.square
    for x, y in sorted(target.squares):
        if any((x + dx, y + dy) in attacker.squares for dx, dy in DIRECTIONS4):
            return (x, y)
    return None


def melee_collateral(state: WarState, battle: Battle, attacker: Unit, target: Unit) -> None:
    """After a melee or charge hit on ``target``, each embedded creature on its front line is
    attacked as if directly (W35-COLL-02/03, W35-DEC-31); none behind a phalanx
    (W35-DEFEND-16, W35-AMB-29)."""
    if target.phalanx:
        return
    for single in state.singles_in(target):
        if not single.front_line or single.host != target.id:
            continue
        sq = _front_square(attacker, target, single)
        if sq is None:
            continue
        battle.emit("collateral", who=single.id, unit=target.id, source=attacker.id,
                    kind="melee", save=None)
        _strike_single(state, battle, attacker, single, sq, ranged=False, extra_bonus=0)


def ranged_collateral(state: WarState, battle: Battle, attacker: Unit, target: Unit,
                      per_hit: int, multiplier: int, *, counters: int | None = None) -> None:
    """Stray missiles (W35-COLL-04..06, W35-AMB-33): when ``multiplier`` reaches the target's
    counters (``counters``: as they were before the hit), each embedded creature takes the
    single unmultiplied roll after its DR, half on a DC 10 Reflex; after total defense, half
    or none on a save. Without ``counters``, the counters it had when :func:`hit_unit` last
    struck it."""
    if counters is None:
        counters = target.hit_counters or target.counters
    if target.phalanx or multiplier < counters:
        return
    magic = attacker.ranged.magic if attacker.ranged is not None else False
    for single in list(state.singles_in(target)):
        if single.host not in (target.id, None):
            continue
        saved = roll_save(battle, single.creature.ref, COLLATERAL_DC, f"{single.id} Reflex")
        battle.emit("collateral", who=single.id, unit=target.id, source=attacker.id,
                    kind="ranged", save=saved)
        if single.creature.mundane_immune and not magic:
            _unharmed(battle, single, attacker.id, "mundane")
            continue
        amount = max(0, per_hit - single.creature.dr)
        if single.total_defense:
            amount = 0 if saved else amount // 2
        elif saved:
            amount //= 2
        apply_to_single(state, battle, single, amount, attacker.id, attacker=attacker)
