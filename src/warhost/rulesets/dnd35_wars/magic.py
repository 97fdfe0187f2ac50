"""Singular creatures casting spells, and what spells do to units and creatures (W35-MAGIC,
W35-SPELL, W35-AOE-04, W35-ABIL-06/07).

Plugged into a singular creature's action (:mod:`singles`, :mod:`inunit`) through
``cast_options`` (the casts open to it), ``judge_cast`` (a cast not among them) and
``take_cast`` (carry one out); :func:`busy` is asked first at each of its turns (a cast of
several rounds under way, or a creature held, asleep or frightened by a spell).

Orders: ``cast WHO SPELL TARGET`` (TARGET a unit id, a creature id, or ``x,y``: the unit or
creature standing there) and ``turn WHO TARGET`` (turning undead, W35-SPELL-15/16).

Rulings of this module (beyond the catalog):

* A cast of ``casting_rounds`` n > 1 takes the creature's whole turn in n rounds running; the
  use is spent when it begins and the spell takes effect at its turn in the n-th round, if
  the target is still legal (else the spell is lost).
* An area spell is placed on one target: a unit (the counters it covers are the area's,
  capped by the unit's, W35-AOE-02/05) or an independent creature (that creature alone).
* An embedded caster measures range and sight from its own square; its own unit's counters do
  not block its view (it casts over its own troops), everything else follows W35-AMB-35.
* Area damage to a unit: the per-creature roll is halved on a save for half, then the unit's
  DR comes off (standard 3.5 order: the save, then resistances). Spells ignore a singular
  creature's DR (standard 3.5: DR stops weapons).
* ``on_save: half`` halves only damage; for other effects a save negates.
* A singular creature's standard effects: held (speed zero or half), taken out of the fight
  (charm, sleep, ``disable``/``hd``) or frightened (it flees: it loses its actions) for the
  spell's duration; buffs and penalties are kept on the creature (:func:`single_modifier`:
  its attack rolls and saves read them).
* No casts inside a phalanx (casting is an attack action, W35-MAGIC-03, W35-DEFEND-16).
* A special ability (``special``) uses the creature's caster level, else its Hit Dice.
* An area spell's damage is rolled once for the unit and every creature it catches.
* A targeted (non-area) hit-point damage spell may be aimed at an enemy war machine,
  ``machine:UNIT``, even inside its unit (W35-SIEGE-03, W35-AMB-97): range and sight to the
  machine's counter, the carrying unit's own counters not blocking; the machine makes no save
  (an object, standard 3.5) and its hardness comes off the roll (W35-AMB-88). Energy types are
  not modelled, so the 3.5 halving of fire and electricity against objects is not applied.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from warhost.core.battle import Battle
from warhost.core.damage_dice import DamageDice
from warhost.core.decisions import Refusal
from warhost.core.orders import Order
from warhost.geometry.grid import Square, chebyshev
from warhost.rulesets.dnd35_wars import (
    areas,
    conditions,
    damage,
    derive,
    machines,
    morale,
    reach,
    singles,
    spellbook,
    tables,
)
from warhost.rulesets.dnd35_wars.model import Dnd35WarsScenario, KnownSpell, Spell
from warhost.rulesets.dnd35_wars.state import Single, Unit, WarState

CAST = "cast"
TURN = "turn"
CAST_KINDS: tuple[str, ...] = (CAST, TURN)
"""The order kinds of a singular creature's casts (and turning)."""

HARMLESS = frozenset({"heal", "buff"})
"""Effects cast on friends, with no save (W35-SPELL-03/04)."""

TURNING_FEET = 60
"""Standard 3.5: turning reaches undead within 60 ft."""

TURNING_ROUNDS = 10
"""Standard 3.5: turned undead flee for 10 rounds."""

TURNING_TABLE: tuple[tuple[int, int], ...] = (
    (0, -4), (3, -3), (6, -2), (9, -1), (12, 0), (15, 1), (18, 2), (21, 3))
"""Standard 3.5 turning check: the highest check result of each row and the change to the
cleric's level it gives for the most Hit Dice turned (22 or more: +4)."""

Caster = Unit | Single
Target = Unit | Single


# ---- set-up


def prepare(state: WarState, scenario: Dnd35WarsScenario) -> None:
    """Nothing to set up: uses and recharges are counted on each creature as it casts."""


# ---- what a creature knows and may use (W35-MAGIC-01, W35-ABIL-06/07)


def known(single: Single, name: str) -> KnownSpell | None:
    """The creature's entry for spell ``name``."""
    return next((k for k in single.creature.spells if k.spell == name), None)


def caster_level(single: Single, entry: KnownSpell) -> int:
    """The caster level of a cast: the creature's; a special ability without one uses its Hit
    Dice (ruling)."""
    level = single.creature.caster_level
    if entry.special and level <= 0:
        return morale.hit_dice(single)
    return level


def uses_left(single: Single, entry: KnownSpell) -> int | None:
    """Casts left in the battle (None: at will)."""
    if entry.uses is None:
        return None
    return entry.uses - single.casts_made.get(entry.spell, 0)


def use_problem(state: WarState, single: Single, name: str) -> Refusal | None:
    """Why ``single`` may not cast ``name`` now, whatever the target."""
    entry = known(single, name)
    if entry is None or name not in state.spells:
        return Refusal(f"{single.label} does not know {name}", rule="W35-MAGIC-01")
    spell = state.spells[name]
    if not entry.special and spell.level > spellbook.max_spell_level(single.creature.caster_level):
        return Refusal(f"{single.label} cannot cast a level {spell.level} spell",
                       rule="W35-MAGIC-01")
    left = uses_left(single, entry)
    if left is not None and left <= 0:
        return Refusal(f"{single.label} has no uses of {name} left", rule="W35-MAGIC-01")
    last = single.last_cast.get(name)
    if last is not None and (entry.special or entry.recharge) and (
            state.round - last <= entry.recharge):
        rule = "W35-ABIL-06" if entry.special else "W35-MAGIC-01"
        return Refusal(f"{name} is recharging ({entry.recharge} rounds between uses)", rule=rule)
    if single.casting is not None:
        return Refusal(f"{single.label} is still casting", rule="W35-MAGIC-02")
    host = state.units.get(single.host) if single.host is not None else None
    if host is not None and host.phalanx:
        return Refusal("no casting inside a phalanx", rule="W35-AMB-29")
    return None


# ---- targets (W35-MAGIC-04..08, W35-SPELL-03/04/17, W35-AMB-58)


def find_target(state: WarState, text: str) -> Target | None:
    """The unit or creature an order's TARGET names: an id, or ``x,y`` (who stands there)."""
    if text in state.units:
        return state.units[text]
    if text in state.singles:
        return state.singles[text]
    try:
        sq = singles.parse_square(text)
    except ValueError:
        return None
    occupant = state.at.get(sq)
    if occupant is None:
        return None
    return state.units.get(occupant) or state.singles.get(occupant)


def aim_squares(state: WarState, target: Target, text: str) -> set[Square]:
    """Where the spell is aimed: the square named, else every square of the target."""
    if "," in text:
        return {singles.parse_square(text)}
    if isinstance(target, Unit):
        return set(target.squares)
    spot = origin(state, target)
    return {spot} if spot is not None else set()


def _own_unit(single: Single, unit: Unit) -> bool:
    return single.host == unit.id


def kind_problem(state: WarState, single: Single, spell: Spell, target: Target) -> Refusal | None:
    """Whether the spell may be aimed at that kind of target at all."""
    if spell.range == "personal" and spell.area is None and target is not single:
        return Refusal(f"{spell.name} affects only its caster", rule="W35-MAGIC-01")
    if isinstance(target, Single):
        if target is not single and (target.host is not None or target.inside is not None):
            return Refusal(f"{target.label} is inside a unit: only area spells reach it",
                           rule="W35-MAGIC-05")
        if not target.alive or origin(state, target) is None:
            return Refusal(f"{target.label} is not on the field", rule="W35-MAGIC-04")
        return None
    if not target.on_map:
        return Refusal(f"{target.label} is not on the map", rule="W35-MAGIC-06")
    if spell.effect in HARMLESS:
        if not _own_unit(single, target):
            rule = "W35-SPELL-04" if spell.effect == "heal" else "W35-SPELL-03"
            return Refusal(f"{spell.name} may be cast only on the caster's own unit", rule=rule)
        return None
    if spell.area is None and spell.effect != "damage":
        return Refusal(f"{spell.name} deals no hit-point damage and has no area: it cannot be "
                       "aimed at a unit", rule="W35-AMB-58")
    if damage.sheltered(state, target):
        rule = "W35-AMB-46" if target.closed_tower else "W35-AMB-45"
        return Refusal(f"{target.label} is under cover and has not shown itself",
                       rule=rule)
    return None


def origin(state: WarState, single: Single) -> Square | None:
    """Where a creature stands; an embedded one not yet seated takes its seat first."""
    if single.square is None and single.host is not None:
        singles.seat(state, single)
    return single.square


def _blocked(state: WarState, single: Single, aim: set[Square],
             target: str) -> Callable[[Square], bool]:
    """Squares that stop the caster's view: terrain, and any unit or figure but the caster,
    its own unit and the target; the aimed squares never do."""
    return reach.view_blocker(state, {single.id, single.host, target}, aim)


def sees(state: WarState, single: Single, aim: set[Square], target: str = "") -> bool:
    """Line of sight from the caster's square to one of ``aim`` (W35-AMB-35); the target's
    own squares do not block."""
    start = origin(state, single)
    if start is None:
        return False
    if start in aim:
        return True
    blocks = _blocked(state, single, aim, target)
    return any(reach.line_of_sight(start, sq, blocks) for sq in sorted(aim))


def gap_to(state: WarState, single: Single, aim: set[Square]) -> int | None:
    """Squares from the caster to the nearest of ``aim`` (W35-AMB-36)."""
    start = origin(state, single)
    if start is None or not aim:
        return None
    return min(chebyshev(start, sq) for sq in aim)


def reach_problem(state: WarState, single: Single, spell: Spell, level: int,
                  aim: set[Square], target: str) -> Refusal | None:
    """Range (touch: contact, W35-MAGIC-07; else feet between squares, W35-MAGIC-08) and line
    of sight (W35-AMB-35)."""
    gap = gap_to(state, single, aim)
    if gap is None:
        return Refusal("no target square", rule="W35-MAGIC-08")
    feet = spellbook.range_feet(spell, level)
    if feet is None:
        if gap > 1:
            return Refusal(f"{spell.name} needs contact with the target", rule="W35-MAGIC-07")
    elif tables.distance_feet(gap, state.scale) > feet:
        return Refusal(f"the target is {tables.distance_feet(gap, state.scale)} ft away; "
                       f"{spell.name} reaches {feet} ft", rule="W35-MAGIC-08")
    if not sees(state, single, aim, target):
        return Refusal(f"{single.label} cannot see the target", rule="W35-AMB-35")
    return None


def target_problem(state: WarState, single: Single, name: str, text: str) -> Refusal | None:
    """Why the target named ``text`` is not legal for ``name`` (the spell's uses aside)."""
    if machines.named(text) is not None:
        return machine_problem(state, single, name, text)
    target = find_target(state, text)
    if target is None:
        return Refusal(f"nothing to aim {name} at on {text}", rule="W35-MAGIC-04")
    entry = known(single, name)
    spell = state.spells[name]
    if entry is None:
        return Refusal(f"{single.label} does not know {name}", rule="W35-MAGIC-01")
    return kind_problem(state, single, spell, target) or reach_problem(
        state, single, spell, caster_level(single, entry), aim_squares(state, target, text),
        target.id)


# ---- the options


def _candidates(state: WarState, single: Single, spell: Spell) -> list[Target]:
    """Sensible targets to list: enemies for harmful spells, friends for heals and buffs."""
    host = state.units.get(single.host) if single.host is not None else None
    if spell.range == "personal":  # on itself, or an area around it on its own unit
        return ([host] if host is not None and spell.area is not None else []) + [single]
    if spell.effect in HARMLESS:
        friends: list[Target] = [host] if host is not None else []
        friends += [] if single.independent else [single]
        return friends + [s for s in state.singles.values()
                          if s.side == single.side and s.independent]
    foes: list[Target] = list(state.units_of(state.other(single.side)))
    return foes + [s for s in state.singles.values()
                   if s.side != single.side and s.independent]


def cast_options(state: WarState, single: Single) -> list[Order]:
    """The casts open to ``single`` now: each usable spell at each legal target, and turning."""
    if not single.alive or origin(state, single) is None:
        return []
    out: list[Order] = []
    for entry in single.creature.spells:
        if use_problem(state, single, entry.spell) is not None:
            continue
        spell = state.spells[entry.spell]
        for target in _candidates(state, single, spell):
            if target_problem(state, single, entry.spell, target.id) is None:
                out.append(Order.of(CAST, single.id, entry.spell, target.id))
        out += machine_options(state, single, entry.spell)
    out += turn_options(state, single)
    return out


def judge_cast(state: WarState, single: Single, order: Order) -> Order | Refusal | None:
    """Judge a cast that is not among the options: the order, or why it is refused."""
    if order.kind == TURN:
        return judge_turn(state, single, order)
    if order.kind != CAST or len(order.args) != 3:
        return Refusal("a cast reads: cast WHO SPELL TARGET", rule="W35-MAGIC-01")
    name, text = str(order.args[1]), str(order.args[2])
    return use_problem(state, single, name) or target_problem(state, single, name, text) or order


# ---- casting (W35-MAGIC-02/03)


def take_cast(state: WarState, battle: Battle, single: Single, order: Order) -> None:
    """Carry out a cast (or a turning attempt): it is the creature's whole round."""
    single.attacked_round = state.round
    if order.kind == TURN:
        turn(state, battle, single, str(order.args[1]))
        return
    name, text = str(order.args[1]), str(order.args[2])
    spell = state.spells[name]
    single.casts_made[name] = single.casts_made.get(name, 0) + 1
    single.last_cast[name] = state.round
    battle.emit("cast", who=single.id, spell=name, target=text, rounds=spell.casting_rounds)
    if spell.casting_rounds > 1:
        single.casting = str(order)
        single.cast_ends = state.round + spell.casting_rounds - 1
        return
    complete(state, battle, single, name, text)


def busy(state: WarState, battle: Battle, single: Single) -> bool:
    """Whether ``single``'s turn is already spoken for: a long cast going on (it takes effect
    in its last round), or a spell's hold, sleep, charm or fear on it."""
    if single.out_until >= state.round:
        battle.emit("spell_bound", who=single.id, why=single.out_why)
        return True
    if single.casting is None:
        return False
    order = Order.parse(single.casting)
    name, text = str(order.args[1]), str(order.args[2])
    if state.round < single.cast_ends:
        battle.emit("casting", who=single.id, spell=name, left=single.cast_ends - state.round)
        return True
    single.casting = None
    complete(state, battle, single, name, text)
    return True


def complete(state: WarState, battle: Battle, single: Single, name: str, text: str) -> None:
    """The spell takes effect on its target, if still legal (else it is lost)."""
    problem = target_problem(state, single, name, text)
    if problem is None and machines.named(text) is not None:
        at_machine(state, battle, single, name, str(machines.named(text)))
        return
    target = find_target(state, text)
    if problem is not None or target is None:
        battle.emit("spell_lost", who=single.id, spell=name,
                    reason=problem.reason if problem else "no target")
        return
    entry = known(single, name)
    assert entry is not None
    spell = state.spells[name]
    level = caster_level(single, entry)
    dc = spellbook.save_dc(spell, entry, single.creature)
    if isinstance(target, Single):
        resolve_on_single(state, battle, spell, target, dc, caster=single, caster_level=level,
                          source=single.id)
        return
    before = target.hp
    if spell.area is not None:
        area_on_unit(state, battle, single, spell, target, dc, level)
    else:
        resolve_on_unit(state, battle, spell, target, _single_counters(spell, target), dc,
                        caster=single, caster_level=level, source=single.id,
                        single_target=spell.targets == 1)
    if single.kind == "pc" and target.side != single.side and (
            10 * (before - target.hp) >= target.start_hp):
        singles.pc_deed(state, battle, single, "slew_tenth")  # W35-PC-11, W35-AMB-21


def _single_counters(spell: Spell, unit: Unit) -> Fraction:
    """Counters a non-area spell on several creatures of a unit affects: creatures ÷
    creatures per counter, rounded down (W35-AMB-96)."""
    return Fraction(min(int(Fraction(spell.targets) / unit.per_counter), unit.counters))


def area_on_unit(state: WarState, battle: Battle, caster: Single, spell: Spell, unit: Unit,
                 dc: int, level: int) -> int:
    """An area spell placed on ``unit``: the counters it covers (W35-AOE-02/05, W35-AMB-53),
    its effect on them, and, when it covers every counter, on each creature inside
    (W35-AOE-04)."""
    assert spell.area is not None
    value = areas.area_counters(spell.area, state.scale, state.options)
    counters = areas.counters_hit(value, unit.counters, state.options, battle)
    whole = areas.covers_whole(counters, unit.counters)
    inside = state.singles_in(unit) + singles.intruders(state, unit) if whole else []
    battle.emit("area", who=caster.id, spell=spell.name, unit=unit.id,
                counters=str(counters), whole=whole)
    rolled = None  # one damage roll for everything in the area (standard 3.5)
    if spell.effect == "damage":
        rolled = roll_amount(battle, spellbook.damage_expr(spell, level), f"{spell.name} damage")
    result = resolve_on_unit(state, battle, spell, unit, counters, dc, caster=caster,
                             caster_level=level, source=caster.id, rolled=rolled)
    for creature in inside:
        if creature.alive:
            resolve_on_single(state, battle, spell, creature, dc, caster=caster,
                              caster_level=level, source=caster.id, rolled=rolled)
    return result


# ---- spells at a war machine (W35-SIEGE-03, W35-AMB-97, W35-AMB-88)


def _aims_at_machines(spell: Spell) -> bool:
    """A targeted hit-point damage spell (no area, not on the caster alone)."""
    return spell.effect == "damage" and spell.area is None and spell.range != "personal"


def machine_problem(state: WarState, single: Single, name: str, text: str) -> Refusal | None:
    """Why ``single`` may not aim ``name`` at the machine ``text`` (``machine:UNIT``): it
    must be a targeted damage spell, at an enemy machine on the map, in range and in sight of
    the machine's counter (the carrying unit's counters do not block: W35-AMB-97)."""
    entry = known(single, name)
    if entry is None or name not in state.spells:
        return Refusal(f"{single.label} does not know {name}", rule="W35-MAGIC-01")
    spell = state.spells[name]
    if not _aims_at_machines(spell):
        return Refusal(f"only a targeted hit-point damage spell may be aimed at a machine; "
                       f"{name} is not one", rule="W35-AMB-97")
    mid = machines.named(text) or ""
    owner = state.units.get(mid)
    machine = machines.machine_of(state, mid)
    if owner is None or machine is None or not owner.on_map:
        return Refusal(f"{mid} carries no machine", rule="W35-SIEGE-03")
    if owner.side == single.side:
        return Refusal(f"the machine of {owner.label} is not an enemy's", rule="W35-SIEGE-03")
    return reach_problem(state, single, spell, caster_level(single, entry), {machine.square},
                         owner.id)


def machine_options(state: WarState, single: Single, name: str) -> list[Order]:
    """The casts of ``name`` at each enemy machine in reach ([] for other spells)."""
    if not state.machines or not _aims_at_machines(state.spells[name]):
        return []
    out = []
    for owner, _machine in machines.enemy_machines(state, single.side):
        text = machines.target_text(owner.id)
        if machine_problem(state, single, name, text) is None:
            out.append(Order.of(CAST, single.id, name, text))
    return out


def at_machine(state: WarState, battle: Battle, single: Single, name: str, mid: str) -> int:
    """The spell's damage on the machine carried by ``mid``: no save, hardness off the roll,
    destroyed at 0 HP (:func:`machines.hit_machine`); the HP it lost."""
    entry = known(single, name)
    assert entry is not None
    spell = state.spells[name]
    rolled = roll_amount(battle, spellbook.damage_expr(spell, caster_level(single, entry)),
                         f"{spell.name} damage")
    battle.emit("spell_at_machine", who=single.id, spell=name, unit=mid, per=rolled)
    return machines.hit_machine(state, battle, state.units[mid], rolled, 1, source=single.id)


# ---- spells on a unit (W35-MAGIC-09/10, W35-PROP, W35-SPELL, W35-AMB-53/54/96)


@dataclass(frozen=True)
class Split:
    """The counters of a unit that failed and that saved against one spell."""

    failed: Fraction
    saved: Fraction


def unit_save(state: WarState, battle: Battle, spell: Spell, unit: Unit, counters: Fraction,
              dc: int, *, single_target: bool = False) -> Split:
    """The unit's save: one roll for all of them (W35-MAGIC-10), or under option
    ``proportional_saves`` a share of the counters (W35-PROP-01..03; below one counter, or a
    single creature aimed at, one ordinary save: W35-AMB-55)."""
    if spell.save == "none" or spell.effect in HARMLESS:
        return Split(counters, Fraction(0))
    bonus = spellbook.save_bonus(unit, spell.save)
    if state.options.proportional_saves and not single_target and counters >= 1:
        failed = Fraction(areas.failing_counters(dc, bonus, int(counters)))
        battle.emit("save", unit=unit.id, spell=spell.name, save=spell.save, dc=dc,
                    failing=int(failed), counters=int(counters))
        return Split(failed, counters - failed)
    saved = spellbook.unit_saves(battle, bonus, dc, f"{unit.id} {spell.save} vs {spell.name}")
    battle.emit("save", unit=unit.id, spell=spell.name, save=spell.save, dc=dc, saved=saved)
    return Split(Fraction(0), counters) if saved else Split(counters, Fraction(0))


def resolve_on_unit(state: WarState, battle: Battle, spell: Spell, target: Unit,
                    counters: Fraction, dc: int, *, caster: Caster, caster_level: int,
                    source: str, single_target: bool = False, rolled: int | None = None) -> int:
    """Everything ``spell`` does to ``target`` once the counters it reaches are known: the
    save, then its effect. Returns the HP lost (or healed). ``rolled``: the spell's damage
    roll when it was already made for the whole area."""
    if not target.on_map:
        return 0
    if not spellbook.affects(spell, target.creature):
        battle.emit("no_effect", unit=target.id, spell=spell.name, reason="immune")
        return 0
    if spell.effect == "hd":
        return _hd_on_unit(state, battle, spell, target, counters, dc, caster_level)
    if single_target and spell.effect == "damage":
        counters = Fraction(1)  # the one creature aimed at saves or not
    split = unit_save(state, battle, spell, target, counters, dc, single_target=single_target)
    effect = spell.effect
    if effect == "damage":
        if rolled is None:
            rolled = roll_amount(battle, spellbook.damage_expr(spell, caster_level),
                                 f"{spell.name} damage")
        return _damage_unit(state, battle, spell, target, split, caster, rolled, source,
                            single_target)
    if effect == "heal":
        return _heal_by_spell(state, battle, spell, target, counters, caster_level,
                              single_target)
    if effect in ("buff", "penalty"):
        _modify_unit(state, battle, spell, target, split.failed, caster_level)
        return 0
    _condition_on_unit(state, battle, spell, target, split.failed, caster_level)
    return 0


def roll_amount(battle: Battle, expr: str | None, why: str) -> int:
    """One roll of a spell's damage or healing (0 without one)."""
    return max(0, battle.dice.roll(expr, why)) if expr else 0


def _damage_unit(state: WarState, battle: Battle, spell: Spell, unit: Unit, split: Split,
                 caster: Caster, rolled: int, source: str, single_target: bool) -> int:
    """W35-SPELL-01, W35-AMB-54: a single-target spell from a creature is divided like its
    blow (W35-DMG-13); an area spell gives each affected counter the per-creature damage after
    DR, halved per creature on a save for half; a fraction of a counter scales it
    (W35-AMB-53)."""
    half = rolled // 2 if spell.on_save == "half" else 0
    attacker = caster if isinstance(caster, Single) else None
    if single_target:
        per = rolled if split.failed else half
        battle.emit("spell_damage", unit=unit.id, spell=spell.name, per=per, total=per)
        return damage.hit_unit_by_single(state, battle, unit, per, source=source,
                                         attacker=attacker, magic=True)
    if damage.sheltered(state, unit):
        battle.emit("unharmed", unit=unit.id, source=source, reason="sheltered")
        return 0
    dr = damage.unit_dr(state, unit)
    total = int(max(0, rolled - dr) * split.failed + max(0, half - dr) * split.saved)
    battle.emit("spell_damage", unit=unit.id, spell=spell.name, per=rolled,
                counters=str(split.failed + split.saved), total=total)
    if total <= 0:
        battle.emit("unharmed", unit=unit.id, source=source, reason="dr")
        return 0
    return damage.apply_to_unit(state, battle, unit, total, source, kind="area", attacker=caster)


def _heal_by_spell(state: WarState, battle: Battle, spell: Spell, unit: Unit,
                   counters: Fraction, level: int, single_target: bool) -> int:
    """W35-AMB-96: one creature healed gives the healing ÷ creatures per counter, rounded
    down; several or an area give the per-creature healing per affected counter."""
    rolled = roll_amount(battle, spellbook.heal_amount_expr(spell, level), f"{spell.name} heal")
    amount = int(Fraction(rolled) / unit.per_counter) if single_target else int(rolled * counters)
    return heal_unit(state, battle, unit, amount, spell.name)


def _modify_unit(state: WarState, battle: Battle, spell: Spell, unit: Unit,
                 affected: Fraction, level: int) -> None:
    """A buff (W35-SPELL-03, W35-AMB-96) or a penalty (W35-SPELL-09) in proportion to the
    counters affected, rounded toward zero (W35-AMB-56); the spell is the modifier's source,
    so the same spell does not stack with itself."""
    amount = areas.proportional_modifier(spell.amount, affected, unit.counters)
    if amount == 0 or spell.stat is None:
        battle.emit("no_effect", unit=unit.id, spell=spell.name, reason="too few counters")
        return
    conditions.add_modifier(state, battle, unit, spell.stat, amount,
                            spellbook.duration_rounds(spell, level), spell.name)


def _condition_on_unit(state: WarState, battle: Battle, spell: Spell, unit: Unit,
                       failed: Fraction, level: int) -> None:
    """Hinder, disable and fear go to the conditions rules; only whole counters can be held or
    taken out (W35-AMB-53)."""
    rounds = spellbook.duration_rounds(spell, level)
    whole_counters = int(failed)
    if spell.effect == "fear":
        if failed > 0:
            conditions.frighten(state, battle, unit, areas.covers_whole(failed, unit.counters),
                                spell.name)
        return
    if whole_counters < 1:
        battle.emit("no_effect", unit=unit.id, spell=spell.name, reason="too few counters")
        return
    if spell.effect == "hinder":
        conditions.hinder(state, battle, unit, whole_counters, spell.speed or "zero", rounds,
                          spell.name)
    else:
        conditions.disable(state, battle, unit, whole_counters, rounds, spell.name)


def _hd_on_unit(state: WarState, battle: Battle, spell: Spell, unit: Unit, counters: Fraction,
                dc: int, level: int) -> int:
    """A spell affecting Hit Dice (sleep): the HD rolled become counters (W35-SPELL-14), no
    more than the area covers, then the save; those failing are taken out."""
    rolled = roll_amount(battle, spell.hit_dice, f"{spell.name} Hit Dice")
    reached = min(areas.counters_from_hd(rolled, morale.hit_dice(unit), unit.per_counter),
                  int(counters))
    battle.emit("hit_dice", unit=unit.id, spell=spell.name, hd=rolled, counters=reached)
    if reached < 1:
        battle.emit("no_effect", unit=unit.id, spell=spell.name, reason="too few Hit Dice")
        return 0
    split = unit_save(state, battle, spell, unit, Fraction(reached), dc)
    if split.failed >= 1:
        conditions.disable(state, battle, unit, int(split.failed),
                           spellbook.duration_rounds(spell, level), spell.name)
    return 0


def heal_unit(state: WarState, battle: Battle, unit: Unit, amount: int, source: str) -> int:
    """Add ``amount`` HP to ``unit``, never above its starting HP, bringing back the counters
    they fill, placed by its commander; a unit with no counters cannot be healed
    (W35-AMB-27). Returns the HP healed."""
    if not unit.on_map or amount <= 0:
        return 0
    gain = min(amount, unit.start_hp - unit.hp)
    if gain <= 0:
        battle.emit("no_effect", unit=unit.id, spell=source, reason="unhurt")
        return 0
    gain, placed = morale.restore_hp(state, battle, unit, gain)
    battle.emit("healed", unit=unit.id, source=source, hp=gain, left=unit.hp,
                counters=unit.counters, placed=placed)
    return gain


# ---- spells on one creature (W35-MAGIC-04, W35-SPELL-02/17, W35-AOE-04)


def resolve_on_single(state: WarState, battle: Battle, spell: Spell, target: Single, dc: int,
                      *, caster: Caster, caster_level: int, source: str,
                      rolled: int | None = None) -> None:
    """The standard effect of ``spell`` on one creature: its save, then damage, healing, a
    modifier, or being held, taken out or frightened for the spell's duration. ``rolled``:
    the damage roll already made for a whole area."""
    if not target.alive:
        return
    if not spellbook.affects(spell, target.creature) or (
            spell.effect == "hd" and not _hd_reaches(battle, spell, target)):
        battle.emit("no_effect", who=target.id, spell=spell.name, reason="immune")
        return
    saved = single_save(state, battle, spell, target, dc)
    effect = spell.effect
    if effect == "damage":
        if rolled is None:
            rolled = roll_amount(battle, spellbook.damage_expr(spell, caster_level),
                                 f"{spell.name} damage")
        _damage_single(state, battle, spell, target, saved, caster, rolled, source)
    elif saved:
        battle.emit("no_effect", who=target.id, spell=spell.name, reason="saved")
    elif effect == "heal":
        rolled = roll_amount(battle, spellbook.heal_amount_expr(spell, caster_level),
                             f"{spell.name} heal")
        heal_single(battle, target, rolled, spell.name)
    else:
        bind_single(state, battle, spell, target, spellbook.duration_rounds(spell, caster_level))


def _hd_reaches(battle: Battle, spell: Spell, target: Single) -> bool:
    """A Hit Dice spell reaches a creature whose HD are within the HD rolled (standard 3.5)."""
    return morale.hit_dice(target) <= roll_amount(battle, spell.hit_dice, f"{spell.name} Hit Dice")


def single_save(state: WarState, battle: Battle, spell: Spell, target: Single, dc: int) -> bool:
    """A creature's saving throw against a harmful spell (natural 1 fails, 20 succeeds), with
    the spells' modifiers to its saves."""
    if spell.save == "none" or spell.effect in HARMLESS:
        return False
    bonus = spellbook.save_bonus(target, spell.save) + single_modifier(state, target, "saves")
    saved = damage.roll_save(battle, bonus, dc, f"{target.id} {spell.save} vs {spell.name}")
    battle.emit("save", who=target.id, spell=spell.name, save=spell.save, dc=dc, saved=saved)
    return saved


def _damage_single(state: WarState, battle: Battle, spell: Spell, target: Single, saved: bool,
                   caster: Caster, rolled: int, source: str) -> None:
    amount = (rolled // 2 if spell.on_save == "half" else 0) if saved else rolled
    battle.emit("spell_damage", who=target.id, spell=spell.name, per=rolled, total=amount)
    was_alive = target.alive
    damage.apply_to_single(state, battle, target, amount, source, attacker=caster)
    singles.fallen(state, battle, target, was_alive,
                   by=caster if isinstance(caster, Single) else None)


def heal_single(battle: Battle, target: Single, amount: int, source: str) -> int:
    """Healing on one creature, up to its full HP. Returns the HP healed."""
    gain = max(0, min(amount, target.creature.hp - target.hp))
    target.hp += gain
    battle.emit("healed", who=target.id, source=source, hp=gain, left=target.hp)
    return gain


def bind_single(state: WarState, battle: Battle, spell: Spell, target: Single,
                rounds: int) -> None:
    """A lasting standard effect on one creature: a modifier, held, or out of the fight."""
    until = state.round + max(1, rounds)
    if spell.effect in ("buff", "penalty") and spell.stat is not None:
        target.spell_mods[spell.name] = (spell.stat, spell.amount, until)
    elif spell.effect == "hinder":
        target.slowed = (spell.speed or "zero", until)
    else:
        target.out_until = max(target.out_until, until)
        target.out_why = spell.effect
    battle.emit("spell_on", who=target.id, spell=spell.name, effect=spell.effect, until=until)


def single_modifier(state: WarState, single: Single, stat: str) -> int:
    """The spells' modifier to one of a creature's numbers (attack, ac, saves, damage)."""
    return sum(amount for name, (which, amount, until) in single.spell_mods.items()
               if which == stat and until >= state.round)


def speed_factor(state: WarState, single: Single) -> Fraction:
    """A creature held by a spell moves at no speed or half speed (W35-SPELL-06, standard)."""
    speed, until = single.slowed
    if until < state.round:
        return Fraction(1)
    return Fraction(0) if speed == "zero" else Fraction(1, 2)


# ---- turning undead (W35-SPELL-15/16)


def turning_max_hd(level: int, check: int) -> int:
    """The most Hit Dice a turning check of ``check`` affects (standard 3.5 table)."""
    change = next((c for top, c in TURNING_TABLE if check <= top), 4)
    return level + change


def _turnable(state: WarState, cleric: Single) -> bool:
    creature = cleric.creature
    return (creature.turning_level > 0 and cleric.turns_made < creature.turning_uses
            and origin(state, cleric) is not None)


def turn_target_problem(state: WarState, cleric: Single, tid: str) -> Refusal | None:
    """Why ``cleric`` may not turn ``tid``: undead only, within 60 ft, in sight."""
    target = state.units.get(tid) or state.singles.get(tid)
    if target is None or not target.creature.undead:
        return Refusal(f"{tid} is not undead", rule="W35-SPELL-15")
    if isinstance(target, Unit) and not target.on_map or (
            isinstance(target, Single) and not target.independent):
        return Refusal(f"{tid} cannot be turned where it is", rule="W35-SPELL-15")
    aim = aim_squares(state, target, tid)
    gap = gap_to(state, cleric, aim)
    if gap is None or tables.distance_feet(gap, state.scale) > TURNING_FEET:
        return Refusal(f"{tid} is beyond {TURNING_FEET} ft", rule="W35-SPELL-15")
    if not sees(state, cleric, aim, tid):
        return Refusal(f"{cleric.label} cannot see {tid}", rule="W35-AMB-35")
    return None


def turn_options(state: WarState, cleric: Single) -> list[Order]:
    """Turning attempts at each undead enemy in reach."""
    if not _turnable(state, cleric):
        return []
    foes: list[Target] = [u for u in state.units_of(state.other(cleric.side)) if u.creature.undead]
    foes += [s for s in state.singles.values()
             if s.side != cleric.side and s.independent and s.creature.undead]
    return [Order.of(TURN, cleric.id, f.id) for f in foes
            if turn_target_problem(state, cleric, f.id) is None]


def judge_turn(state: WarState, cleric: Single, order: Order) -> Order | Refusal:
    """A turning attempt not listed: the order, or why not."""
    if len(order.args) != 2:
        return Refusal("turning reads: turn WHO UNIT", rule="W35-SPELL-15")
    if not _turnable(state, cleric):
        return Refusal(f"{cleric.label} has no turning attempts", rule="W35-SPELL-15")
    return turn_target_problem(state, cleric, str(order.args[1])) or order


def turn(state: WarState, battle: Battle, cleric: Single, tid: str) -> None:
    """A turning attempt (W35-SPELL-15): the check (1d20 + Cha modifier) gives the most Hit
    Dice turned, the turning damage (2d6 + level + Cha modifier) the Hit Dice affected; a unit
    whose creatures are within both goes to the conditions rules (counters by W35-SPELL-14,
    the whole unit routs, W35-SPELL-16); an undead creature flees for 10 rounds."""
    cleric.turns_made += 1
    cha = derive.ability_modifier(cleric.creature.cha)
    level = cleric.creature.turning_level
    check = battle.dice.draw(20, f"{cleric.id} turning check") + cha
    most = turning_max_hd(level, check)
    hd = battle.dice.roll("2d6", f"{cleric.id} turning damage") + level + cha
    target = state.units.get(tid) or state.singles[tid]
    battle.emit("turning", who=cleric.id, target=tid, check=check, max_hd=most, hd=hd)
    if morale.hit_dice(target) > most or hd <= 0:
        battle.emit("no_effect", **_who(target), spell="turning", reason="too strong")
        return
    if isinstance(target, Unit):
        conditions.turn_undead(state, battle, cleric, target, hd)
    elif morale.hit_dice(target) <= hd:
        target.out_until = state.round + TURNING_ROUNDS
        target.out_why = "turned"
        battle.emit("spell_on", who=target.id, spell="turning", effect="fear",
                    until=target.out_until)
    else:
        battle.emit("no_effect", who=target.id, spell="turning", reason="too strong")


def _who(target: Target) -> dict[str, str]:
    return {"unit": target.id} if isinstance(target, Unit) else {"who": target.id}


# ---- the AI's worth of a cast


def _save_chance(bonus: int, dc: int) -> Fraction:
    """Chance a d20 save succeeds (natural 1 fails, 20 succeeds)."""
    wins = sum(1 for roll in range(1, 21) if roll == 20 or (roll != 1 and roll + bonus >= dc))
    return Fraction(wins, 20)


def _average(expr: str | None) -> int:
    return DamageDice.parse(expr).average if expr else 0


def ai_value(state: WarState, single: Single, order: Order) -> float:
    """Expected enemy HP a cast takes (or own HP it heals); conditions count by the counters'
    HP they take out of the fight, at half worth; a turning attempt by the undead's HP."""
    if order.kind == TURN:
        return _turning_value(state, single, str(order.args[1]))
    name, text = str(order.args[1]), str(order.args[2])
    entry, target = known(single, name), find_target(state, text)
    if entry is None or target is None or name not in state.spells:
        return 0.0
    spell = state.spells[name]
    if not spellbook.affects(spell, target.creature):
        return 0.0
    level = caster_level(single, entry)
    dc = spellbook.save_dc(spell, entry, single.creature)
    fail = Fraction(1) if spell.save == "none" or spell.effect in HARMLESS else (
        1 - _save_chance(spellbook.save_bonus(target, spell.save), dc))
    if isinstance(target, Single):
        return _value_on_single(state, spell, target, level, fail)
    return _value_on_unit(state, spell, target, level, fail)


def _turning_value(state: WarState, cleric: Single, tid: str) -> float:
    """HP of the undead a turning attempt is expected to drive off: over the 20 checks, the
    counters (or the creature) its average turning damage reaches."""
    target = state.units.get(tid) or state.singles.get(tid)
    if target is None:
        return 0.0
    cha = derive.ability_modifier(cleric.creature.cha)
    level = cleric.creature.turning_level
    hd = 7 + level + cha  # 2d6 averages 7
    own = morale.hit_dice(target)
    if isinstance(target, Unit):
        reached = min(areas.counters_from_hd(hd, own, target.per_counter), target.counters)
        worth = reached * target.counter_hp
    else:
        worth = target.hp if own <= hd else 0
    turned = sum(1 for roll in range(1, 21) if own <= turning_max_hd(level, roll + cha))
    return worth * turned / 20


def _value_on_single(state: WarState, spell: Spell, target: Single, level: int,
                     fail: Fraction) -> float:
    if spell.effect == "buff":
        return _buff_on_single(state, spell, target)
    if spell.effect == "damage":
        avg = _average(spellbook.damage_expr(spell, level))
        kept = Fraction(1, 2) if spell.on_save == "half" else Fraction(0)
        return float(min(target.hp, avg) * (fail + (1 - fail) * kept))
    if spell.effect == "heal":
        return float(min(_average(spellbook.heal_amount_expr(spell, level)),
                         target.creature.hp - target.hp))
    return float(fail * target.hp) / 2


def _buff_on_single(state: WarState, spell: Spell, target: Single) -> float:
    """A buff on one creature: a couple of HP a point, once a fight is near (none while the
    same spell still holds)."""
    held = target.spell_mods.get(spell.name)
    if held is not None and held[2] > state.round + 1:
        return 0.0
    host = state.units.get(target.host) if target.host is not None else None
    soon = _contact_soon(state, host) if host is not None else 1.0
    return 2.0 * abs(spell.amount) * soon


def _value_on_unit(state: WarState, spell: Spell, unit: Unit, level: int,
                   fail: Fraction) -> float:
    if spell.area is not None:
        counters = min(areas.area_counters(spell.area, state.scale, state.options),
                       Fraction(unit.counters))
    else:
        counters = Fraction(int(Fraction(spell.targets) / unit.per_counter))
    if spell.effect == "damage":
        avg = _average(spellbook.damage_expr(spell, level))
        if spell.area is None:
            return float(fail * int(Fraction(max(0, avg - unit.dr)) / unit.per_counter))
        kept = Fraction(max(0, avg // 2 - unit.dr)) if spell.on_save == "half" else Fraction(0)
        per = fail * max(0, avg - unit.dr) + (1 - fail) * kept
        return float(min(per * counters, Fraction(unit.hp)))
    if spell.effect == "heal":
        avg = _average(spellbook.heal_amount_expr(spell, level))
        amount = Fraction(avg) / unit.per_counter if spell.targets == 1 else avg * counters
        return float(min(int(amount), unit.start_hp - unit.hp))
    if spell.effect == "buff":
        if _still_buffed(state, unit.modifiers.get((spell.stat or "", spell.name))):
            return 0.0
        return float(counters * unit.counter_hp) / 4 * _contact_soon(state, unit)
    if spell.effect == "fear" and not morale.checks_morale(unit):
        return 0.0
    return float(fail * min(counters, Fraction(unit.counters)) * unit.counter_hp) / 2


def _still_buffed(state: WarState, held: tuple[int, int] | None) -> bool:
    """A modifier (amount, ending round) from the same spell that lasts past next round."""
    return held is not None and (held[1] == 0 or held[1] > state.round + 1)


def _contact_soon(state: WarState, unit: Unit) -> float:
    from warhost.rulesets.dnd35_wars.ai_judge import contact_soon

    return contact_soon(state, unit)
