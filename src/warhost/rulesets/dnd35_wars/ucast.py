"""Units casting spells, an optional rule (W35-UCAST, W35-SPELL-05, W35-AMB-59, W35-DEC-27).

With the scenario option ``units_cast_spells`` on, a unit whose creatures know spells casts
them as its attack action (W35-MAGIC-03 via W35-UCAST-02): every creature casts the same
spell, and the creatures of each casting counter aim at one target, an enemy counter or the
square of a lone singular creature (W35-UCAST-03/04). One cast spends a use for the whole
unit (W35-UCAST-05).

The order is ``ucast UNIT SPELL PLAN`` (the W35-DEC-27 decision is the unit action itself).
PLAN is either a target — a unit id, a creature id or a square ``x,y`` — and then every
counter able to cast does so (single-target spells at a unit: as many counters as can each
take a different enemy counter), or each casting counter's aim, ``x,y@tx,ty`` joined by
``+``. Heals and buffs are cast on the unit itself: PLAN is its own id.

Plugged into the set-up (``prepare``) and the unit action (:mod:`actions`) through
``options``, ``judge``, ``take`` and ``forbids``; the AI scores orders with ``ai_value``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction

from warhost.core.battle import Battle
from warhost.core.damage_dice import DamageDice
from warhost.core.decisions import Refusal
from warhost.core.orders import Order
from warhost.geometry.grid import Square, chebyshev, square_of_text, unit_distance
from warhost.rulesets.dnd35_wars import areas, damage, magic, morale, reach, singles, spellbook
from warhost.rulesets.dnd35_wars.model import Dnd35WarsScenario, KnownSpell, Spell
from warhost.rulesets.dnd35_wars.state import Single, Unit, WarState

ORDER_KINDS: tuple[str, ...] = ("ucast",)
"""The unit-action order kinds this module carries out."""

AIM = "@"
"""Between a casting counter and its target square in an explicit plan."""
JOIN = "+"
"""Between the aims of an explicit plan."""

OWN_EFFECTS = frozenset({"heal", "buff"})
"""Spells cast only on the caster's own unit (W35-SPELL-03/04)."""


@dataclass(frozen=True)
class Aim:
    """One casting counter, the target (a unit or creature id) and the square it aims at."""

    counter: Square
    target: str
    square: Square


@dataclass(frozen=True)
class Plan:
    """A judged casting: the spell, how the creature knows it, and every casting counter's
    aim (W35-UCAST-04)."""

    spell: Spell
    known: KnownSpell
    aims: tuple[Aim, ...]

    @property
    def targets(self) -> tuple[str, ...]:
        """The targets aimed at, in the order first named."""
        return tuple(dict.fromkeys(a.target for a in self.aims))

    def at(self, target: str) -> tuple[Aim, ...]:
        """The aims at ``target``."""
        return tuple(a for a in self.aims if a.target == target)


# ---------------------------------------------------------------------------------------------
# Set-up and what a unit can cast (W35-UCAST-01/05)
# ---------------------------------------------------------------------------------------------


def _castable(state: WarState, unit: Unit, known: KnownSpell) -> bool:
    """The creature casts ``known``: a special ability, or a spell of a level its caster level
    reaches (W35-MAGIC-01); a spell the scenario does not define is never cast."""
    spell = state.spells.get(known.spell)
    if spell is None:
        return False
    return known.special or spell.level <= spellbook.max_spell_level(unit.creature.caster_level)


def prepare(state: WarState, scenario: Dnd35WarsScenario) -> None:
    """With ``units_cast_spells`` on, give every unit whose creature casts some of its known
    spells the power to cast them, with the creature's uses as the unit's (W35-UCAST-01/05)."""
    if not state.options.units_cast_spells:
        return
    for unit in state.units.values():
        uses = {k.spell: k.uses for k in unit.creature.spells if _castable(state, unit, k)}
        if uses:
            unit.casts = True
            unit.spell_uses = uses


def caster_level(unit: Unit, known: KnownSpell) -> int:
    """The caster level of the unit's creatures for ``known``; a special ability of creatures
    without one uses their Hit Dice (as for a singular creature)."""
    level = unit.creature.caster_level
    if known.special and level <= 0:
        return morale.hit_dice(unit)
    return level


def _known(unit: Unit, name: str) -> KnownSpell | None:
    return next((k for k in unit.creature.spells if k.spell == name), None)


def ready_spells(state: WarState, unit: Unit) -> list[tuple[Spell, KnownSpell]]:
    """The spells ``unit`` may cast this round: uses left and recharge over."""
    out = []
    for name, left in unit.spell_uses.items():
        known = _known(unit, name)
        if known is None or left == 0 or unit.spell_ready.get(name, 0) > state.round:
            continue
        out.append((state.spells[name], known))
    return out


def _spell_problem(state: WarState, unit: Unit, name: str,
                   spent: bool = False) -> Refusal | tuple[Spell, KnownSpell]:
    if not state.options.units_cast_spells:
        return Refusal("units do not cast spells in this battle (option units_cast_spells)",
                       rule="W35-UCAST-01")
    if not unit.casts or not unit.can_fight:
        return Refusal(f"{unit.label} cannot cast spells", rule="W35-UCAST-01")
    if unit.phalanx:
        return Refusal("a phalanx attacks only with reach weapons", rule="W35-DEFEND-14")
    if name not in unit.spell_uses:
        return Refusal(f"{unit.label} does not cast {name}", rule="W35-MAGIC-01")
    known = _known(unit, name)
    assert known is not None
    if spent:  # a cast of several rounds under way: its use is spent already
        return state.spells[name], known
    if unit.spell_uses[name] == 0:
        return Refusal(f"{unit.label} has no uses of {name} left", rule="W35-UCAST-05")
    back = unit.spell_ready.get(name, 0)
    if back > state.round:
        return Refusal(f"{name} recharges until round {back}", rule="W35-ABIL-06")
    return state.spells[name], known


# ---------------------------------------------------------------------------------------------
# Range and sight of one casting counter (W35-UCAST-06/09/11, W35-MAGIC-07/08, W35-AMB-35/36)
# ---------------------------------------------------------------------------------------------


def _blocks(state: WarState) -> Callable[[Square], bool]:
    """Every counter and figure blocks sight, the caster's own front ranks included
    (W35-UCAST-06, W35-AMB-35), and so does blocking terrain."""
    return reach.view_blocker(state)


def reach_squares(state: WarState, unit: Unit, spell: Spell, known: KnownSpell) -> int | None:
    """How far the spell reaches in squares from a casting counter: touch 1 (contact,
    W35-MAGIC-07), else the range in feet ÷ scale, rounded down (W35-MAGIC-08, W35-AMB-36);
    None for a personal spell."""
    feet = spellbook.range_feet(spell, caster_level(unit, known))
    if feet is None:
        return 1
    if feet <= 0:
        return None
    return feet // state.scale


def _in_reach(counter: Square, sq: Square, squares: int | None) -> bool:
    return squares is not None and chebyshev(counter, sq) <= squares


def can_aim(state: WarState, counter: Square, sq: Square, squares: int | None) -> bool:
    """A casting counter may aim at ``sq``: within range and with line of sight
    (W35-UCAST-09)."""
    return _in_reach(counter, sq, squares) and reach.line_of_sight(counter, sq, _blocks(state))


def _sights(state: WarState, unit: Unit, targets: Iterable[Square], squares: int | None,
            first: bool = False) -> dict[Square, list[Square]]:
    """For each counter of ``unit``, the target squares it may aim at, nearest first (with
    ``first``, only the nearest)."""
    blocked = _blocks(state)
    wanted = tuple(targets)
    out: dict[Square, list[Square]] = {}
    for counter in sorted(unit.squares):
        seen: list[Square] = []
        for t in sorted(wanted, key=lambda t: _nearness(counter, t)):
            if not _in_reach(counter, t, squares):
                break  # nearest first: the rest are farther still
            if reach.line_of_sight(counter, t, blocked):
                seen.append(t)
                if first:
                    break
        if seen:
            out[counter] = seen
    return out


def _nearness(counter: Square, sq: Square) -> tuple[int, int, int, int]:
    """Nearest first by grid distance, then straightest ahead, then south-west first."""
    dx, dy = sq[0] - counter[0], sq[1] - counter[1]
    return chebyshev(counter, sq), dx * dx + dy * dy, sq[1], sq[0]


def _matching(sights: dict[Square, list[Square]]) -> dict[Square, Square]:
    """As many counters as possible, each on a different target square it may aim at
    (W35-UCAST-10): augmenting paths, nearest squares tried first."""
    owner: dict[Square, Square] = {}

    def place(counter: Square, tried: set[Square]) -> bool:
        for sq in sights[counter]:
            if sq in tried:
                continue
            tried.add(sq)
            if sq not in owner or place(owner[sq], tried):
                owner[sq] = counter
                return True
        return False

    for counter in sights:
        place(counter, set())
    return {counter: sq for sq, counter in owner.items()}


# ---------------------------------------------------------------------------------------------
# Targets and plans (W35-UCAST-04/07/09..12, W35-SPELL-03/04, W35-MAGIC-05)
# ---------------------------------------------------------------------------------------------


def _target_squares(state: WarState, unit: Unit, tid: str) -> set[Square] | Refusal:
    """The squares of an enemy unit, or the square of a lone enemy creature."""
    if tid in state.units:
        target = state.units[tid]
        if target.side == unit.side or not target.on_map:
            return Refusal(f"{tid} is not an enemy unit on the map", rule="W35-UCAST-04")
        if damage.sheltered(state, target):  # not targeted until it shows itself
            rule = "W35-AMB-46" if target.closed_tower else "W35-AMB-45"
            return Refusal(f"{target.label} is under cover and has not shown itself",
                           rule=rule)
        return set(target.squares)
    single = state.singles.get(tid)
    if single is None:
        return Refusal(f"no unit or creature {tid}", rule="W35-UCAST-04")
    if single.side == unit.side:
        return Refusal(f"{single.label} is not an enemy", rule="W35-UCAST-07")
    if not single.independent or single.square is None:
        return Refusal(f"{single.label} is inside a unit and cannot be targeted",
                       rule="W35-MAGIC-05")
    return {single.square}


def _own_plan(state: WarState, unit: Unit, spell: Spell, known: KnownSpell,
              plan: str) -> Plan | Refusal:
    """A heal or buff: every counter casts it on its own creatures (W35-SPELL-03/04)."""
    if plan != unit.id:
        rule = "W35-SPELL-04" if spell.effect == "heal" else "W35-SPELL-03"
        return Refusal(f"{spell.name} may be cast only on {unit.label} itself", rule=rule)
    if spell.effect == "heal" and unit.hp >= unit.start_hp:
        return Refusal(f"{unit.label} has lost no HP", rule="W35-AMB-27")
    return Plan(spell, known, tuple(Aim(c, unit.id, c) for c in sorted(unit.squares)))


Sights = dict[tuple[str, int, bool], dict[Square, list[Square]]]
"""Each counter's aimable squares of a target within a reach, kept while options are made."""


def default_plan(state: WarState, unit: Unit, spell: Spell, known: KnownSpell,
                 tid: str, seen: Sights | None = None) -> Plan | Refusal:
    """Every counter that may cast at ``tid`` does: at a unit, an area spell from every
    counter with range and sight to it (W35-UCAST-11), a single-target spell from as many
    counters as can each take a different enemy counter (W35-UCAST-10); at a lone creature,
    every counter with range and sight to its square (W35-UCAST-07/09)."""
    if spell.effect in OWN_EFFECTS:
        return _own_plan(state, unit, spell, known, tid)
    squares = _target_squares(state, unit, tid)
    if isinstance(squares, Refusal):
        return squares
    span = reach_squares(state, unit, spell, known)
    if span is None or unit_distance(unit.squares, squares) > span:
        return Refusal(f"{tid} is beyond the range of {spell.name}", rule="W35-UCAST-09")
    matched = tid in state.units and spell.area is None  # W35-UCAST-10
    key = (tid, span, not matched)
    sights = seen.get(key) if seen is not None else None
    if sights is None:
        sights = _sights(state, unit, squares, span, first=not matched)
        if seen is not None:
            seen[key] = sights
    if matched:
        chosen = _matching(sights)
    else:
        chosen = {c: aimable[0] for c, aimable in sights.items()}
    if not chosen:
        rule = "W35-UCAST-11" if spell.area is not None else "W35-UCAST-09"
        return Refusal(f"no counter of {unit.label} has range and sight to {tid}", rule=rule)
    return Plan(spell, known, tuple(Aim(c, tid, chosen[c]) for c in sorted(chosen)))



def _aim_target(state: WarState, unit: Unit, sq: Square) -> str | Refusal:
    """Who stands on ``sq``: an enemy unit's counter or a lone enemy creature (W35-UCAST-04)."""
    who = state.occupant(sq)
    if who is None:
        return Refusal(f"no enemy counter or creature on {sq[0]},{sq[1]}", rule="W35-UCAST-04")
    squares = _target_squares(state, unit, who)
    return squares if isinstance(squares, Refusal) else who


def _parse_aims(state: WarState, unit: Unit, text: str) -> list[Aim] | Refusal:
    aims: list[Aim] = []
    for part in text.split(JOIN):
        left, _, right = part.partition(AIM)
        counter, sq = square_of_text(left), square_of_text(right)
        if counter is None or sq is None:
            return Refusal(f"{part!r} is not an aim x,y{AIM}x,y", rule="W35-DEC-27")
        if counter not in unit.squares:
            return Refusal(f"{left} is not a counter of {unit.label}", rule="W35-UCAST-04")
        target = _aim_target(state, unit, sq)
        if isinstance(target, Refusal):
            return target
        aims.append(Aim(counter, target, sq))
    return aims


def aims_problem(state: WarState, unit: Unit, spell: Spell, known: KnownSpell,
                 aims: list[Aim]) -> Refusal | None:
    """Why explicit aims are not a legal casting (W35-UCAST-04/09..12)."""
    counters = [a.counter for a in aims]
    if len(set(counters)) != len(counters):
        return Refusal("the creatures of a counter cast at one target", rule="W35-UCAST-04")
    if spell.area is not None and len({a.target for a in aims}) > 1:
        return Refusal("a unit's area spell is placed on one target", rule="W35-UCAST-12")
    span = reach_squares(state, unit, spell, known)
    sight = "W35-UCAST-11" if spell.area is not None else "W35-UCAST-09"
    for aim in aims:
        if not _in_reach(aim.counter, aim.square, span):
            return Refusal(f"counter {aim.counter[0]},{aim.counter[1]} is out of range of "
                           f"{aim.square[0]},{aim.square[1]}", rule=sight)
        if not reach.line_of_sight(aim.counter, aim.square, _blocks(state)):
            return Refusal(f"counter {aim.counter[0]},{aim.counter[1]} has no line of sight to "
                           f"{aim.square[0]},{aim.square[1]}", rule=sight)
    if spell.area is None:
        on_units = [a.square for a in aims if a.target in state.units]
        if len(set(on_units)) != len(on_units):
            return Refusal("each casting counter must target a different enemy counter",
                           rule="W35-UCAST-10")
    return None


def under_way(state: WarState, unit: Unit) -> str | None:
    """The order of the unit's cast of several rounds still under way, if any (W35-MAGIC-02)."""
    if unit.casting is None or unit.casting[1] < state.round or not unit.can_fight:
        return None
    return unit.casting[0]


def read_plan(state: WarState, unit: Unit, order: Order) -> Plan | Refusal:
    """The casting an order asks for, or why it may not be cast."""
    if len(order.args) != 3 or str(order.args[0]) != unit.id:
        return Refusal(f"a cast is 'ucast {unit.id} SPELL PLAN'", rule="W35-DEC-27")
    going = under_way(state, unit)
    if going is not None and going != str(order):
        return Refusal(f"{unit.label} is still casting: {going}", rule="W35-MAGIC-02")
    found = _spell_problem(state, unit, str(order.args[1]), spent=going is not None)
    if isinstance(found, Refusal):
        return found
    spell, known = found
    text = str(order.args[2])
    if AIM not in text:
        sq = square_of_text(text)
        if sq is not None:
            target = _aim_target(state, unit, sq)
            if isinstance(target, Refusal):
                return target
            text = target
        return default_plan(state, unit, spell, known, text)
    if spell.effect in OWN_EFFECTS:
        return _own_plan(state, unit, spell, known, text)
    aims = _parse_aims(state, unit, text)
    if isinstance(aims, Refusal):
        return aims
    return aims_problem(state, unit, spell, known, aims) or Plan(spell, known, tuple(aims))


def plan_text(plan: Plan) -> str:
    """An explicit plan's text: every aim ``x,y@tx,ty`` joined by ``+``."""
    return JOIN.join(f"{a.counter[0]},{a.counter[1]}{AIM}{a.square[0]},{a.square[1]}"
                     for a in plan.aims)


# ---------------------------------------------------------------------------------------------
# The plug-in functions
# ---------------------------------------------------------------------------------------------


def _foes(state: WarState, unit: Unit) -> list[str]:
    ids = sorted(u.id for u in state.units_of(state.other(unit.side)))
    ids += sorted(s.id for s in state.singles.values() if s.side != unit.side and s.independent)
    return ids


def options(state: WarState, unit: Unit) -> list[Order]:
    """``ucast`` orders: each ready spell at every target some counter may cast at — the unit
    itself for heals (when hurt) and buffs, else every enemy unit or lone enemy creature in
    range and sight (W35-UCAST-09..11). Each names only the target: the counters able to
    cast do (W35-DEC-27)."""
    if not unit.casts or not unit.can_fight or unit.phalanx:
        return []
    going = under_way(state, unit)
    if going is not None:
        return [Order.parse(going)]
    out: list[Order] = []
    spells = ready_spells(state, unit)
    if not spells:
        return out
    foes = _foes(state, unit)
    seen: Sights = {}
    for spell, known in spells:
        targets = [unit.id] if spell.effect in OWN_EFFECTS else foes
        for tid in targets:
            if not isinstance(default_plan(state, unit, spell, known, tid, seen), Refusal):
                out.append(Order.of("ucast", unit.id, spell.name, tid))
    return out


def judge(state: WarState, unit: Unit, order: Order) -> Order | Refusal | None:
    """The order if it is a legal casting for ``unit`` (any explicit aims), else why not."""
    found = read_plan(state, unit, order)
    return found if isinstance(found, Refusal) else order


def forbids(state: WarState, unit: Unit, order: Order) -> Refusal | None:
    """A unit that can cast may take every other action (W35-UCAST-02), except while a cast
    of several rounds is under way: it takes the unit's action every round (W35-MAGIC-02)."""
    going = under_way(state, unit)
    if going is not None:
        return Refusal(f"{unit.label} is still casting: {going}", rule="W35-MAGIC-02")
    return None


# ---------------------------------------------------------------------------------------------
# Carrying out a casting (W35-UCAST-05/08/10/12/13, W35-SPELL-05, W35-AMB-59)
# ---------------------------------------------------------------------------------------------


def area_dc(base: int, casting: int) -> int:
    """A unit's area spell: +1 DC for every casting counter after the first (W35-UCAST-13)."""
    return base + max(0, casting - 1)


def average_healing(spell: Spell, caster_level: int) -> int:
    """One creature's average healing from ``spell`` (floor)."""
    expr = spellbook.heal_amount_expr(spell, caster_level)
    return DamageDice.parse(expr).average if expr else 0


def healing_from(spell: Spell, caster_level: int, casting: int) -> int:
    """A unit's healing on itself: average healing × casting counters (W35-SPELL-05)."""
    return average_healing(spell, caster_level) * casting


def touch_bonus(unit: Unit) -> int:
    """A unit's ranged touch attack bonus: its ranged attack's, else its melee attack's."""
    attack = unit.ranged or unit.melee
    return attack.bonus if attack is not None else 0


def unit_touch_ac(target: Unit) -> int:
    """A unit's touch AC, −2 after its charge (W35-UATK-04)."""
    return target.touch_ac - (2 if target.charge_ac_penalty else 0)


def single_touch_ac(target: Single) -> int:
    """A creature's touch AC with the same adjustments as its AC (charge, total defense)."""
    creature = target.creature
    touch = creature.touch_ac if creature.touch_ac is not None else creature.ac
    return damage.single_ac(target) - creature.ac + touch


def _spend(state: WarState, unit: Unit, plan: Plan) -> None:
    """The whole unit spends the use, whoever cast (W35-UCAST-05)."""
    name = plan.spell.name
    left = unit.spell_uses.get(name)
    if left is not None:
        unit.spell_uses[name] = left - 1
    if plan.known.recharge:
        unit.spell_ready[name] = state.round + plan.known.recharge + 1


def _touches(state: WarState, battle: Battle, unit: Unit, plan: Plan,
             target: Unit | Single) -> int:
    """How many of the aims at ``target`` land: all of them, or those whose ranged touch
    attack hits (W35-UCAST-08; one roll per casting counter)."""
    aims = plan.at(target.id)
    if not plan.spell.ranged_touch:
        return len(aims)
    ac = unit_touch_ac(target) if isinstance(target, Unit) else single_touch_ac(target)
    bonus = touch_bonus(unit)
    hits = 0
    for aim in aims:
        roll = damage.roll_attack(battle, bonus, ac, crit_ok=False,
                                  why=f"{unit.id} {plan.spell.name} touch")
        damage.emit_attack(battle, unit, target, roll, ac, spell=plan.spell.name,
                           counter=list(aim.counter))
        hits += roll.hit
    return hits


def take(state: WarState, battle: Battle, unit: Unit, order: Order) -> None:
    """Cast: spend the use, then resolve the spell on each target (the unit's attack action,
    W35-MAGIC-03 via W35-UCAST-02)."""
    if under_way(state, unit) is not None:
        _carry_on(state, battle, unit, order)
        return
    plan = read_plan(state, unit, order)
    if not isinstance(plan, Plan):  # the unit action judged it: only a caller's mistake
        raise ValueError(f"{order}: {plan.reason}")  # noqa: TRY004
    _spend(state, unit, plan)
    unit.exposed = True  # it attacked since its last turn (W35-AMB-45)
    if plan.spell.casting_rounds > 1:
        last = state.round + plan.spell.casting_rounds - 1
        unit.casting = (str(order), last)
        battle.emit("ucast_begins", unit=unit.id, spell=plan.spell.name, round=last)
        return
    _resolve(state, battle, unit, plan)


def _carry_on(state: WarState, battle: Battle, unit: Unit, order: Order) -> None:
    """A round of a cast under way; in its last round the spell takes effect, if its plan is
    still legal (else it is lost) (W35-MAGIC-02)."""
    assert unit.casting is not None
    name, last = str(order.args[1]), unit.casting[1]
    if state.round < last:
        battle.emit("ucast_continues", unit=unit.id, spell=name, round=last)
        return
    plan = read_plan(state, unit, order)
    unit.casting = None
    if isinstance(plan, Refusal):
        battle.emit("ucast_lost", unit=unit.id, spell=name, reason=plan.reason)
        return
    unit.exposed = True
    _resolve(state, battle, unit, plan)


def _resolve(state: WarState, battle: Battle, unit: Unit, plan: Plan) -> None:
    """The spell takes effect from its casting counters."""
    casting = len(plan.aims)
    battle.emit("ucast", unit=unit.id, spell=plan.spell.name, counters=casting,
                idle=unit.counters - casting, targets=list(plan.targets))
    if plan.spell.effect in OWN_EFFECTS:
        _on_itself(state, battle, unit, plan)
    elif plan.spell.area is not None:
        _area(state, battle, unit, plan)
    else:
        for tid in plan.targets:
            _single_target(state, battle, unit, plan, tid)


def _dc(unit: Unit, plan: Plan) -> int:
    return spellbook.save_dc(plan.spell, plan.known, unit.creature)


def _on_itself(state: WarState, battle: Battle, unit: Unit, plan: Plan) -> None:
    """A heal adds average healing × casting counters (W35-SPELL-05, capped: W35-AMB-27); a
    buff reaches every casting counter."""
    level = caster_level(unit, plan.known)
    casting = len(plan.aims)
    if plan.spell.effect == "heal":
        amount = healing_from(plan.spell, level, casting)
        battle.emit("ucast_healing", unit=unit.id, spell=plan.spell.name,
                    average=average_healing(plan.spell, level), counters=casting, hp=amount)
        magic.heal_unit(state, battle, unit, amount, unit.id)
        return
    magic.resolve_on_unit(state, battle, plan.spell, unit, Fraction(casting), _dc(unit, plan),
                          caster=unit, caster_level=level, source=unit.id)


def _area(state: WarState, battle: Battle, unit: Unit, plan: Plan) -> None:
    """An area spell from the counters with range and sight, covering the 5-ft column's
    squares capped at the target's counters, DC +1 per extra casting counter (W35-UCAST-11..13,
    W35-AMB-59); resolved once."""
    assert plan.spell.area is not None
    [tid] = plan.targets
    dc = area_dc(_dc(unit, plan), len(plan.aims))
    level = caster_level(unit, plan.known)
    if tid in state.singles:
        battle.emit("ucast_area", unit=unit.id, spell=plan.spell.name, target=tid, counters=1,
                    dc=dc)
        magic.resolve_on_single(state, battle, plan.spell, state.singles[tid], dc, caster=unit,
                                caster_level=level, source=unit.id)
        return
    target = state.units[tid]
    hit = areas.unit_cast_counters(plan.spell.area, target.counters)
    battle.emit("ucast_area", unit=unit.id, spell=plan.spell.name, target=tid, counters=hit,
                dc=dc)
    if hit <= 0:
        return
    whole = areas.covers_whole(Fraction(hit), target.counters)
    inside = state.singles_in(target) + singles.intruders(state, target) if whole else []
    rolled = None  # one damage roll for everything in the area, as for a creature's area
    if plan.spell.effect == "damage":
        rolled = magic.roll_amount(battle, spellbook.damage_expr(plan.spell, level),
                                   f"{plan.spell.name} damage")
    magic.resolve_on_unit(state, battle, plan.spell, target, Fraction(hit), dc, caster=unit,
                          caster_level=level, source=unit.id, rolled=rolled)
    for creature in inside:  # the area covers every counter (W35-AOE-04)
        if creature.alive:
            magic.resolve_on_single(state, battle, plan.spell, creature, dc, caster=unit,
                                    caster_level=level, source=unit.id, rolled=rolled)


def _single_target(state: WarState, battle: Battle, unit: Unit, plan: Plan, tid: str) -> None:
    """A single-target spell at one target: against a unit, its effect on as many counters as
    casting counters landed (W35-UCAST-10); against a lone creature, see :func:`_on_single`."""
    target: Unit | Single = state.units[tid] if tid in state.units else state.singles[tid]
    if isinstance(target, Unit) and not target.on_map:
        return
    if isinstance(target, Single) and not target.alive:
        return
    landed = _touches(state, battle, unit, plan, target)
    if plan.spell.ranged_touch:
        battle.emit("ucast_lands", unit=unit.id, spell=plan.spell.name, target=tid,
                    counters=landed, aimed=len(plan.at(tid)))
    if landed <= 0:
        return
    if isinstance(target, Single):
        _on_single(state, battle, unit, plan, target, landed)
        return
    magic.resolve_on_unit(state, battle, plan.spell, target, Fraction(min(landed, target.counters)),
                          _dc(unit, plan), caster=unit, caster_level=caster_level(unit, plan.known),
                          source=unit.id)


def casters_of(unit: Unit, counters: int) -> int:
    """The creatures of ``counters`` casting counters: counters × creatures per counter,
    rounded down, at least 1."""
    return max(1, int(counters * unit.per_counter))


def _on_single(state: WarState, battle: Battle, unit: Unit, plan: Plan, target: Single,
               landed: int) -> None:
    """A unit's single-target spell at a lone creature. Hit-point damage is worked out as for
    a unit's attack on a creature (W35-SPELL-01 with W35-DMG-09): one save and one damage
    roll, the damage times the casting creatures of the counters that landed. Any other
    spell has its standard effect once (W35-MAGIC-04)."""
    spell, level = plan.spell, caster_level(unit, plan.known)
    dc = _dc(unit, plan)
    if spell.effect != "damage":
        magic.resolve_on_single(state, battle, spell, target, dc, caster=unit,
                                caster_level=level, source=unit.id)
        return
    if not spellbook.affects(spell, target.creature):
        battle.emit("no_effect", who=target.id, spell=spell.name, reason="immune")
        return
    saved = magic.single_save(state, battle, spell, target, dc)
    rolled = magic.roll_amount(battle, spellbook.damage_expr(spell, level),
                               f"{spell.name} damage")
    per = (rolled // 2 if spell.on_save == "half" else 0) if saved else rolled
    total = per * casters_of(unit, landed)
    battle.emit("spell_damage", who=target.id, spell=spell.name, per=per, total=total)
    was_alive = target.alive
    damage.apply_to_single(state, battle, target, total, unit.id, attacker=unit)
    singles.fallen(state, battle, target, was_alive)


# ---------------------------------------------------------------------------------------------
# The AI's worth of a casting (expected enemy HP taken, or own HP restored)
# ---------------------------------------------------------------------------------------------


def fail_chance(dc: int, bonus: int) -> float:
    """The chance a d20 save fails (natural 1 fails, natural 20 succeeds)."""
    needed = dc - bonus
    return min(19, max(1, needed - 1)) / 20


def _save_share(spell: Spell, dc: int, bonus: int) -> float:
    if spell.save == "none":
        return 1.0
    fails = fail_chance(dc, bonus)
    return fails + (1 - fails) * (0.5 if spell.on_save == "half" else 0.0)


def _hit_chance(bonus: int, ac: int) -> float:
    return min(19, max(1, 21 - (ac - bonus))) / 20


def ai_value(state: WarState, unit: Unit, order: Order) -> float:
    """The expected HP a casting takes from the enemy (or restores to the unit): average
    damage per counter affected, weighed by the save and the touch rolls; counters taken out
    count their HP. 0 for an order that is not a legal casting."""
    plan = read_plan(state, unit, order)
    if isinstance(plan, Refusal):
        return 0.0
    spell, level = plan.spell, caster_level(unit, plan.known)
    if spell.effect == "heal":
        return float(min(healing_from(spell, level, len(plan.aims)), unit.start_hp - unit.hp))
    if spell.effect == "buff":
        if spell.stat is None or (spell.stat, spell.name) in unit.modifiers:
            return 0.0  # the same spell does not stack with itself
        from warhost.rulesets.dnd35_wars.ai_judge import contact_soon

        return 0.5 * abs(spell.amount) * len(plan.aims) * contact_soon(state, unit)
    worth = 0.0
    for tid in plan.targets:
        target: Unit | Single = state.units[tid] if tid in state.units else state.singles[tid]
        aims = len(plan.at(tid))
        dc = _dc(unit, plan)
        if spell.area is not None:
            dc = area_dc(dc, aims)
            counters = (1 if isinstance(target, Single)
                        else areas.unit_cast_counters(spell.area, target.counters))
        else:
            counters = aims
        if spell.ranged_touch:
            ac = unit_touch_ac(target) if isinstance(target, Unit) else single_touch_ac(target)
            counters_f = counters * _hit_chance(touch_bonus(unit), ac)
        else:
            counters_f = float(counters)
        share = _save_share(spell, dc, spellbook.save_bonus(target, spell.save)
                            if spell.save != "none" else 0)
        if isinstance(target, Single):  # one creature: the casters multiply only a bolt
            counters_f *= 1 if spell.area is not None else casters_of(unit, aims)
        worth += _worth_on(spell, level, target, counters_f, share)
    return worth


def _worth_on(spell: Spell, level: int, target: Unit | Single, times: float,
              share: float) -> float:
    """Expected HP taken from ``target`` by ``times`` counters' (or creatures') worth of the
    spell, of which ``share`` gets through the save."""
    if spell.effect == "damage":
        expr = spellbook.damage_expr(spell, level)
        per = DamageDice.parse(expr).average if expr else 0
        return min(float(target.hp), per * share * times)
    if isinstance(target, Single):
        return 0.5 * target.hp * share  # held, out or frightened: half its worth
    factor = 0.5 if spell.effect in ("penalty", "hinder") else 1.0
    return min(float(target.hp), factor * target.counter_hp * times * share)
