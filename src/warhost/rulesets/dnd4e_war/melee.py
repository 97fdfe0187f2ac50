"""The Close Combat phase (W4-MELEE, W4-RESOLVE, W4-BREAK): who fights, striking in
initiative order, combat resolution, break tests, fleeing and pursuit. The strike machinery
is shared with the charge attacks of the Charge phase (W4-CHARGE-17)."""

from __future__ import annotations

from dataclasses import dataclass

from warhost.core.battle import Battle
from warhost.core.metering import GEOMETRY, OPTIONS, count
from warhost.core.orders import Order
from warhost.geometry.table import (
    Point,
    Tray,
    bearing,
    closing_shift,
    edge_slots,
    majority_arc,
    offset,
    path_cost,
    tray_gap,
    trays_overlap,
)
from warhost.rulesets.dnd4e_war import (
    casualties,
    challenges,
    char_melee,
    classes,
    movement,
    psychology,
)
from warhost.rulesets.dnd4e_war.army_setup import (
    carries_battle_standard,
    item_defense,
    item_dice,
)
from warhost.rulesets.dnd4e_war.attacks import first_use_hits, roll_attacks
from warhost.rulesets.dnd4e_war.model import Power
from warhost.rulesets.dnd4e_war.state import CONTACT, Character, Unit, WarState
from warhost.rulesets.dnd4e_war.tables import fall_back_distance, points_per_hit

SUPPORT_BONUS = 2
"""W4-RESOLVE-10: each supporting company."""
SUPPORT_MAX = 14
OUTNUMBER_BONUS = 2
"""W4-RESOLVE-12."""
STANDARD_BONUS = 2
BATTLE_STANDARD_BONUS = 4
"""W4-RESOLVE-13."""
HIGH_GROUND_BONUS = 2
"""W4-RESOLVE-14."""
FLANK_BONUS = 2
REAR_BONUS = 4
"""W4-RESOLVE-15/16."""
MUSICIAN_MARGIN = 1
"""W4-RESOLVE-18."""
CHARGE_GAP = 2.0
"""W4-CHARGE-19/20: charges longer than this many inches earn the bonuses."""
PURSUIT_STEP = 0.25
"""Inches between the positions a pursuit checks for contact."""


# --------------------------------------------------------------------------- turn bookkeeping

def _turn_book(state: WarState, name: str) -> dict[str, int]:
    """A per-turn tally kept in ``state.extra`` (reset when the turn changes)."""
    if state.extra.get("combat_turn") != state.turn:
        state.extra["combat_turn"] = state.turn
        state.extra["combat_points"] = {}
        state.extra["combat_losses"] = {}
    book: dict[str, int] = state.extra[name]
    return book


def points_scored(state: WarState, uid: str) -> int:
    """Combat resolution points unit ``uid`` has scored this turn (W4-RESOLVE-03)."""
    return _turn_book(state, "combat_points").get(uid, 0)


def losses_suffered(state: WarState, uid: str) -> int:
    """Models unit ``uid`` lost to charge and close combat attacks this turn (W4-AMB-78)."""
    return _turn_book(state, "combat_losses").get(uid, 0)


def _add(state: WarState, name: str, uid: str, amount: int) -> None:
    book = _turn_book(state, name)
    book[uid] = book.get(uid, 0) + amount


def add_points(state: WarState, uid: str, amount: int) -> None:
    """Credit ``uid`` with combat resolution points scored this turn (challenges)."""
    _add(state, "combat_points", uid, amount)


# --------------------------------------------------------------------------- who fights

def usable_powers(unit: Unit) -> list[Power]:
    """The melee powers the unit may fight with: its at-will ones (any, if it has none;
    encounter and daily use belongs to part 2)."""
    powers = unit.powers("melee")
    return [p for p in powers if p.usage == "at-will"] or powers


def melee_power(unit: Unit) -> Power | None:
    """The melee power the unit fights with by default: the best attack bonus (first listed
    on a tie)."""
    powers = usable_powers(unit)
    return max(powers, key=lambda p: p.bonus) if powers else None


def choose_power(battle: Battle, unit: Unit) -> Power | None:
    """W4-DEC-26, W4-SHOOT-03: the player picks the one power all the unit's models use."""
    powers = usable_powers(unit)
    best = melee_power(unit)
    if len(powers) < 2 or best is None:
        return best
    options = tuple(Order.of("power", unit.id, i) for i in range(len(powers)))
    count(OPTIONS, len(options))
    names = ", ".join(f"{i}: {p.name}" for i, p in enumerate(powers))
    order = battle.ask(unit.side, "power", options,
                       f"Which power does {unit.label()} fight with ({names})?",
                       subject=unit.id, default=options[powers.index(best)])
    return powers[int(order.args[1])]


def lone_model(unit: Unit) -> bool:
    """W4-MONSTER-04/05/06: a single model on its own, the last of a monster unit included
    (no flanks, sees and charges all round)."""
    return unit.models == 1 and (unit.skirmish or unit.is_monster)


def _is_minion(unit: Unit) -> bool:
    return unit.profile.hp in ("1/-", "minion")


def attacks_per_model(state: WarState, attacks: int, power: Power, target: Unit) -> int:
    """W4-MULTI-01 to 05, W4-AMB-52: a model with A > 1 multiattacks with an at-will power
    that is no area and no zone, and only against minions unless the option allows."""
    if attacks <= 1 or power.usage != "at-will" or power.zone or power.area:
        return 1
    if not _is_minion(target) and not state.options.multiattack_vs_nonminions:
        return 1
    return attacks


def _cells(unit: Unit, slot: int, tray: Tray) -> list[tuple[int, Tray]]:
    """The occupied model cells of company ``slot`` as ``(row, cell)``, front row first,
    each row filled from the left."""
    cells = []
    for row in range(unit.rows):
        for col in range(unit.row_models(slot, row)):
            right = (col + 0.5) * unit.base - unit.tray_width / 2.0
            forward = unit.tray_depth / 2.0 - (row + 0.5) * unit.base
            cells.append((row, Tray(tray.to_world(right, forward), unit.facing, unit.base,
                                    unit.base)))
    return cells


@dataclass
class Fighters:
    """One company's (or the skirmishers') share of a unit's attacks on one enemy unit."""

    slot: int
    target: Unit
    models: int
    front: int
    captain: bool = False


def fighters(state: WarState, unit: Unit, foes: list[Unit], reach: int,
             skip: frozenset[int] = frozenset()) -> list[Fighters]:
    """W4-MELEE-02/03/08, W4-AMB-77: per company in base contact with an enemy, the models
    whose cell is closer than ``reach`` inches to an enemy tray in contact (reach 2 brings
    the second row in); skirmishers: the models in base contact. ``skip``: supporting
    companies."""
    result: list[Fighters] = []
    foe_trays = [(f, t) for f in foes for t in f.trays()]
    for slot, tray in enumerate(unit.trays()):
        if slot in skip:
            continue
        count(GEOMETRY, len(foe_trays))
        touching = [(f, t) for f, t in foe_trays if tray_gap(tray, t) <= CONTACT]
        if not touching:
            continue
        target = touching[0][0]
        if unit.skirmish:
            result.append(Fighters(slot, target, 1, 1))
            continue
        cells = _cells(unit, slot, tray)
        count(GEOMETRY, len(cells) * len(touching))
        near = [row for row, cell in cells
                if any(tray_gap(cell, t) < reach - 1e-9 for _, t in touching)]
        if near:
            captain = slot == unit.command_slot and unit.captain is not None
            result.append(Fighters(slot, target, len(near), sum(1 for r in near if r == 0),
                                   captain))
    return result


def barrier_cover(state: WarState, attacker: Unit, target: Unit) -> int:
    """W4-MELEE-10: a barrier between the two units gives the target cover."""
    barriers = [g.region.polygon for g in state.ground if g.barrier]
    if not barriers:
        return 0
    from shapely.geometry import LineString

    line = LineString([attacker.frame().centre, target.frame().centre])
    return state.options.cover_values.cover if any(line.intersects(b) for b in barriers) else 0


# --------------------------------------------------------------------------- striking

@dataclass
class Blow:
    """A batch of attack dice one unit rolls at one enemy unit."""

    unit: Unit
    target: Unit
    power: Power
    dice: int
    bonus: int
    character: bool = False
    extra: int = 0
    per: int = 1
    """Dice each model rolls: its uses of the power (A in a multiattack) plus the power's
    own extra attacks (W4-MULTI-05/07)."""
    uses: int = 0
    """The first ``uses`` dice are the models' own (extra charge and class attacks follow);
    W4-MULTI-06 looks for the power's effect among them."""
    who: str | None = None
    """The character making these attacks (None: the unit's models)."""
    at_character: str | None = None
    """W4-CHAR-16/AMB-99: the enemy character these dice are sent at (None: the unit)."""


def plan_blows(state: WarState, battle: Battle, unit: Unit, foes: list[Unit], *,
               hit_bonus: int = 0, extra_slots: frozenset[int] = frozenset(),
               skip: frozenset[int] = frozenset()) -> list[Blow]:
    """The attacks of ``unit`` on its ``foes``: fighters per company less this turn's
    casualties (W4-AMB-78), the captain's own attacks as a character (W4-CMD-06), and the
    extra charge dice of the companies in ``extra_slots`` (W4-CHARGE-20, W4-AMB-94/97)."""
    if not foes:
        return []
    power = choose_power(battle, unit)
    if power is None:
        return []
    groups = fighters(state, unit, foes, power.reach, skip)
    lost = losses_suffered(state, unit.id)
    planned: dict[str, Blow] = {}
    captains: list[Blow] = []
    for group in groups:
        cut = min(lost, group.front)  # replacements step into the front line
        lost -= cut
        models = group.models - cut
        if unit.joined:  # W4-CHAR-16: their own attacks are rolled apart
            models = char_melee.in_front_fighters(unit, group.slot, models)
        modifier = hit_bonus + classes.attack_modifier(state, unit, power, group.target,
                                                       melee=True)
        if group.captain and models > 0 and group.front - cut > 0:
            models -= 1
            per = attacks_per_model(state, unit.captain_attacks, power, group.target)
            per += power.extra_attacks
            captains.append(Blow(unit, group.target, power, per, power.bonus + modifier,
                                 character=True, per=per, uses=per))
        per = attacks_per_model(state, unit.profile.attacks, power, group.target)
        per += power.extra_attacks
        blow = planned.setdefault(group.target.id,
                                  Blow(unit, group.target, power, 0, power.bonus + modifier,
                                       character=unit.character is not None, per=per))
        blow.dice += max(0, models) * per
    for blow in planned.values():
        blow.uses = blow.dice
        blow.extra = _extra_dice(battle, unit, groups, blow.target, extra_slots)
        blow.dice += blow.extra
    blows = [b for b in [*planned.values(), *captains] if b.dice > 0]
    if unit.character is not None and state.characters:
        blows += class_blows(state, battle, unit.character, unit, blows)
    return blows


def class_blows(state: WarState, battle: Battle, who: Character, unit: Unit,
                blows: list[Blow]) -> list[Blow]:
    """The character's class attacks besides ``blows`` (his own): extra attacks added to
    them (W4-CLASS-15/23/24), and a shaman's spirit power as a blow of its own
    (W4-CLASS-18). Returns the new blows."""
    added = []
    for blow in blows:
        blow.who = who.id
        multi = blow.per - blow.power.extra_attacks > 1
        blow.dice += classes.extra_attacks(state, battle, who, unit, blow.power, blow.target,
                                           shooting=False, multiattack=multi)
        spirit = classes.spirit_strike(state, who, unit, blow.power, multi, "melee")
        if spirit is not None:
            battle.emit("class_extra_attack", character=who.id, unit=unit.id,
                        target=blow.target.id, feature="Spirit Strike", attacks=1,
                        rule="W4-CLASS-18")
            bonus = blow.bonus - blow.power.bonus + spirit.bonus
            added.append(Blow(unit, blow.target, spirit, 1, bonus, character=True, uses=1,
                              who=who.id))  # his own die: no floor of 8 (W4-HIT-04)
    return added


def _extra_dice(battle: Battle, unit: Unit, groups: list[Fighters], target: Unit,
                extra_slots: frozenset[int]) -> int:
    sides = 6 if unit.profile.cavalry else 3
    slots = [g.slot for g in groups if g.target is target and g.slot in extra_slots]
    if unit.skirmish:
        rolls = -(-len(slots) // 4)  # W4-AMB-97: per started four in contact
    else:
        rolls = len(slots)
    return sum(battle.dice.draw(sides, f"extra charge attacks {unit.id}")
               for _ in range(rolls))


def strike(state: WarState, battle: Battle, blows: list[Blow], charge: bool = False) -> None:
    """Roll every blow, then remove the casualties (all the blows strike at once, as models
    of one initiative step do, W4-AMB-79); hits and Hope is Lost! removals score combat
    resolution points for the striking unit (W4-RESOLVE-03 to 05, W4-AMB-27/29)."""
    results = []
    blows = char_melee.split_blows(state, battle, blows)  # W4-AMB-99: before any roll
    bearers: set[str] = set()  # W4-ITEM-03: an item bearer strikes in one blow only
    for blow in blows:
        defender = char_melee.defender(state, blow)
        ac = (getattr(defender.profile.defenses, blow.power.vs)
              + barrier_cover(state, blow.unit, blow.target)
              + classes.defense_bonus(state, defender, blow.power.vs)
              + item_defense(defender))
        boosted = 0 if blow.character or blow.unit.id in bearers else item_dice(
            blow.unit, blow.dice)
        if boosted:
            bearers.add(blow.unit.id)
        roll = roll_attacks(battle, blow.dice, ac, blow.bonus,
                            f"{'charge' if charge else 'close combat'} {blow.unit.id}",
                            character=blow.character, boosted=boosted,
                            boost=blow.unit.item_attack, state=state, unit=blow.unit)
        hits = roll.hits
        points = roll.hits * points_per_hit(blow.power.damage)
        aimed = {k: v for k, v in (("character", blow.at_character),
                                   ("by", blow.who if blow.unit.character is None else None))
                 if v}
        battle.emit("strike", unit=blow.unit.id, target=blow.target.id, dice=blow.dice,
                    extra=blow.extra, needed=roll.needed, hits=roll.hits, points=points,
                    charge=charge, captain=blow.character and blow.who is None
                    and blow.unit.character is None, **aimed)
        effect = blow.power.effect is not None and first_use_hits(
            roll.faces[:blow.uses], roll.needed, blow.per, 1 + blow.power.extra_attacks) > 0
        if blow.who is not None:
            more, power = _rampage(state, battle, blow, roll.faces, ac)
            hits += more
            points += more * points_per_hit(power.damage) if power is not None else 0
        results.append((blow, hits, points, effect))
    for blow in blows:
        classes.mark_acted(state, blow.unit.id)
    for blow, hits, points, effect in results:
        if blow.at_character is not None:  # W4-CHAR-18: only the hits that counted score
            used = char_melee.wound_in_fight(state, battle, blow, hits)
            _add(state, "combat_points", blow.unit.id, char_melee.points_for(blow, used))
            continue
        _add(state, "combat_points", blow.unit.id, points)
        if hits and blow.target.alive:
            # W4-CHAR-10, W4-AMB-53: a lone character takes the power's damage per hit
            dealt = {"damage": casualties.damage_expression(blow.power)} \
                if blow.target.character is not None else {}
            losses = casualties.apply_hits(state, battle, blow.target, hits, blow.unit.id,
                                           "charge" if charge else "close combat", **dealt)
            _add(state, "combat_losses", blow.target.id, losses.removed)
            _add(state, "combat_points", blow.unit.id, losses.hope_lost)
        if effect and blow.target.alive and blow.power.effect is not None:
            casualties.add_condition(battle, blow.target, blow.power.effect)


def _rampage(state: WarState, battle: Battle, blow: Blow, faces: tuple[int, ...],
             ac: int) -> tuple[int, Power | None]:
    """W4-CLASS-04/06: a barbarian's Rampage after a natural 20 among his attack dice."""
    assert blow.who is not None
    who = state.characters[blow.who]
    if who.character_class != "barbarian":
        return 0, None
    own = state.units[who.id].profile
    basic = classes.basic_attack(own.powers)
    if basic is None:
        return 0, None
    dice = attacks_per_model(state, own.attacks, basic, blow.target)
    return classes.rampage(state, battle, who, blow.unit, blow.target, faces, ac,
                           blow.bonus - blow.power.bonus, dice)


# --------------------------------------------------------------------------- the phase

FIGHT = "fight"


def close_combat_phase(state: WarState, battle: Battle) -> None:
    """W4-MELEE-01, W4-DEC-23: the side with the initiative picks each fight in turn."""
    done: set[str] = set()
    chooser = state.initiative or state.sides[0]
    while True:
        fights = [f for f in state.fights() if not done.intersection(f)]
        if not fights:
            return
        options = tuple(Order.of(FIGHT, f[0]) for f in fights)
        count(OPTIONS, len(options))
        order = battle.ask(chooser, FIGHT, options, "Which close combat is fought next?",
                           default=options[0])
        fight = next(f for f in fights if f[0] == str(order.args[0]))
        done.update(fight)
        resolve_fight(state, battle, fight)


def resolve_fight(state: WarState, battle: Battle, fight: list[str]) -> None:
    """One round of one fight: supports, strikes, resolution, break tests, pursuit."""
    units = [state.units[u] for u in fight]
    duel = challenges.declare(state, battle, fight)  # W4-CHAL-01 to 09
    apart = _dueling_units(duel)
    support = choose_support(state, battle, units)
    plans: dict[str, list[Blow]] = {}
    for unit in units:
        if can_attack(unit):
            unit.standard_used = True  # W4-MELEE-05
            plans[unit.id] = []
    steps = sorted({u.profile.initiative for u in units if u.id in plans}
                   | char_melee.initiatives(state, [u for u in units if u.id in plans]),
                   reverse=True)
    for step in steps:
        blows = []
        for unit in units:
            if (unit.id in plans and unit.id not in apart and unit.profile.initiative == step
                    and unit.alive):
                foes = [f for f in state.foes_of(unit.id) if f.id not in apart]
                blows += plan_blows(state, battle, unit, foes,
                                    skip=support.get(unit.id, frozenset()))
            if unit.id in plans and unit.id not in apart and unit.joined and unit.alive:
                foes = [f for f in state.foes_of(unit.id) if f.id not in apart]
                blows += char_melee.character_blows(state, battle, unit, foes, step)
        strike(state, battle, blows)
    if state.characters:
        _extra_attacks(state, battle, [u for u in units if u.id in plans], apart)
    overkill = challenges.resolve(state, battle, duel, units)  # W4-AMB-35
    result = resolution(state, battle, units, support, overkill)
    if result is not None:
        winner, margin = result
        fled = break_tests(state, battle, units, winner, margin, fight)
        pursue(state, battle, units, winner, fled)
    re_engage(state, battle, [u for u in units if u.alive and not u.fleeing])


def _extra_attacks(state: WarState, battle: Battle, fought: list[Unit],
                   apart: set[str]) -> None:
    """W4-AP-05, W4-AMB-38: a lone character who fought may spend an action point to
    attack again (a unit never fights twice, W4-AP-07)."""
    from warhost.rulesets.dnd4e_war.action_points import offer_extra_attack

    for unit in fought:
        who = unit.character
        if who is None or unit.id in apart or not unit.alive or unit.fleeing:
            continue
        foes = [f for f in state.foes_of(unit.id) if f.id not in apart]
        if foes and offer_extra_attack(state, battle, who,
                                       f"Spend an action point so that {who.name} attacks "
                                       "again?"):
            strike(state, battle, plan_blows(state, battle, unit, foes))


def _dueling_units(duel: challenges.Duel | None) -> set[str]:
    """W4-CHAL-11: a lone character in a challenge is out of the rest of the fight."""
    if duel is None:
        return set()
    return {c.id for c in (duel.challenger, duel.defender) if c.host is None}


def can_attack(unit: Unit) -> bool:
    """W4-MELEE-05 to 07, W4-AMB-18: a unit that still has its standard action, did not
    charge or shoot this turn and is not fleeing."""
    return (unit.alive and not unit.fleeing and not unit.charged and not unit.shot
            and not unit.standard_used)


# --------------------------------------------------------------------------- supporting

def support_allowed(state: WarState, unit: Unit) -> bool:
    """W4-MONSTER-09, W4-SKIRM-10: monsters and skirmishers never gain the bonus; units
    fighting only monsters or skirmishers do not either."""
    if unit.is_monster or unit.skirmish:
        return False
    return any(not f.is_monster and not f.skirmish for f in state.foes_of(unit.id))


def choose_support(state: WarState, battle: Battle, units: list[Unit]) -> dict[str,
                                                                               frozenset[int]]:
    """W4-RESOLVE-09, W4-DEC-25: at the start of the round each company with fewer than
    half of its front-row models engaged, and no more than half its models slain, may
    support instead of fight."""
    chosen: dict[str, frozenset[int]] = {}
    for unit in units:
        if not unit.alive or unit.fleeing or not support_allowed(state, unit):
            continue
        power = melee_power(unit)
        reach = power.reach if power else 1
        engaged = {g.slot: g.front for g in fighters(state, unit, state.foes_of(unit.id),
                                                     reach)}
        picks = set()
        for slot in range(len(unit.companies)):
            front = unit.front_row(slot)
            if 2 * engaged.get(slot, 0) >= front or 2 * unit.companies[slot] < unit.company_size:
                continue
            options = (Order.of("support", unit.id, slot), Order.of(FIGHT, unit.id, slot))
            default = options[0] if slot not in engaged else options[1]
            order = battle.ask(unit.side, "support", options,
                               f"Does company {slot} of {unit.label()} support or fight?",
                               subject=unit.id, default=default)
            if order.kind == "support":
                picks.add(slot)
        if picks:
            battle.emit("support", unit=unit.id, companies=sorted(picks))
            chosen[unit.id] = frozenset(picks)
    return chosen


# --------------------------------------------------------------------------- resolution

def _side_bonuses(state: WarState, side: str, mine: list[Unit], theirs: list[Unit],
                  support: dict[str, frozenset[int]]) -> dict[str, int]:
    bonus: dict[str, int] = {}
    backing = max((min(SUPPORT_MAX, SUPPORT_BONUS * len(support.get(u.id, ())))
                   for u in mine), default=0)
    if backing:
        bonus["support"] = backing
    if sum(u.strength() for u in mine) > sum(u.strength() for u in theirs):
        bonus["outnumber"] = OUTNUMBER_BONUS
    if any(carries_battle_standard(state, u) for u in mine):
        bonus["standard"] = BATTLE_STANDARD_BONUS
    elif any(u.standard for u in mine):
        bonus["standard"] = STANDARD_BONUS
    high = max((state.elevation(u) for u in mine), default=0)
    if high > max((state.elevation(u) for u in theirs), default=0):
        bonus["high_ground"] = HIGH_GROUND_BONUS
    arcs = attacked_arcs(state, mine, theirs)
    if arcs & {"left", "right"}:
        bonus["flank"] = FLANK_BONUS
    if "rear" in arcs:
        bonus["rear"] = REAR_BONUS
    unstoppable = state.extra.get("unstoppable", {})
    if state.options.unstoppable_charge == "+1_resolution" and any(
            unstoppable.get(u.id) == state.turn for u in mine):
        bonus["unstoppable"] = 1
    return bonus


def attacked_arcs(state: WarState, mine: list[Unit], theirs: list[Unit]) -> set[str]:
    """W4-RESOLVE-15/16: the arcs of enemy units (that have flanks, W4-SKIRM-08,
    W4-MONSTER-04) which ``mine`` touch, each tray judged by where most of it lies."""
    arcs: set[str] = set()
    for foe in theirs:
        if not foe.has_flanks or lone_model(foe):
            continue
        frame = foe.frame()
        for unit in mine:
            if foe.id not in state.engaged.get(unit.id, ()):
                continue
            for tray in unit.trays():
                count(GEOMETRY)
                if tray_gap(tray, frame) <= CONTACT:
                    arcs.add(majority_arc(frame, tray.polygon))
    return arcs


def resolution(state: WarState, battle: Battle, units: list[Unit],
               support: dict[str, frozenset[int]],
               overkill: dict[str, int] | None = None) -> tuple[str, int] | None:
    """W4-RESOLVE-01 to 18: the winning side and its margin, or None on a draw (or when
    one side is gone and there is nobody left to test)."""
    sides = sorted({u.side for u in units})
    present = {s: [u for u in units if u.side == s and u.alive and not u.fleeing]
               for s in sides}
    ids = [u.id for u in units]
    standing = [s for s in sides if present[s]]
    if len(standing) < 2:  # W4-RESOLVE-02: the other side is annihilated
        battle.emit("combat_result", fight=ids, totals={}, bonuses={},
                    winner=standing[0] if standing else None, margin=0)
        return None
    a, b = sides
    bonuses = {s: _side_bonuses(state, s, present[s], present[state.other(s)], support)
               for s in sides}
    for s, bonus in (overkill or {}).items():
        if bonus and s in bonuses:
            bonuses[s]["overkill"] = bonus  # W4-RESOLVE-17
    totals = {s: sum(points_scored(state, u.id) for u in units if u.side == s)
              + sum(bonuses[s].values()) for s in sides}
    winner: str | None = None
    margin = abs(totals[a] - totals[b])
    if margin:
        winner = a if totals[a] > totals[b] else b
    else:
        music = [s for s in sides if any(u.musician for u in present[s])]
        if len(music) == 1:
            winner, margin = music[0], MUSICIAN_MARGIN
    battle.emit("combat_result", fight=ids, totals=totals, bonuses=bonuses, winner=winner,
                margin=margin)
    return (winner, margin) if winner else None


# --------------------------------------------------------------------------- break tests

def break_tests(state: WarState, battle: Battle, units: list[Unit], winner: str,
                margin: int, fight: list[str]) -> list[Unit]:
    """W4-BREAK-01 to 03, W4-FEAR-08/09: every losing unit tests at DC 10 + margin (+2 fear,
    +4 terror among the winners); failures fall back directly away from their foes.
    Returns the units that fled."""
    winners = [u for u in units if u.side == winner and u.alive]
    fled = []
    for unit in units:
        if unit.side == winner or not unit.alive or unit.fleeing:
            continue
        causer = psychology.break_causer(state, winners, unit)
        dc, natural = psychology.break_dc(margin, causer, unit.strength(), state)
        if psychology.courage_test(state, battle, unit, dc, f"break test (lost by {margin})",
                                   "W4-BREAK-01", kind="break", natural_20_only=natural):
            continue
        foes = state.foes_of(unit.id)
        movement.fall_back(state, battle, unit, movement.away_from(state, unit, foes),
                           "break")
        fled.append(unit)
        psychology.fled_from_combat(state, battle, unit, fight)
    return fled


# --------------------------------------------------------------------------- pursuit

def pursue(state: WarState, battle: Battle, units: list[Unit], winner: str | None,
           fled: list[Unit]) -> None:
    """W4-BREAK-04, W4-DEC-27: winners left out of contact may pursue one fled unit."""
    if not fled:
        return
    for unit in units:
        if (unit.side != winner or not unit.alive or unit.fleeing
                or state.is_engaged(unit.id)):
            continue
        options = (Order.of("hold", unit.id),
                   *(Order.of("pursue", unit.id, f.id) for f in fled if f.alive))
        count(OPTIONS, len(options))
        order = battle.ask(unit.side, "pursue", options,
                           f"Does {unit.label()} pursue a fleeing foe?", subject=unit.id,
                           default=options[0])
        if order.kind == "pursue":
            pursuit_move(state, battle, unit, state.units[str(order.args[1])])


def shift_unit(unit: Unit, dx: float, dy: float) -> None:
    """Slide the whole unit ``(dx, dy)`` inches, keeping its facing."""
    unit.front = (unit.front[0] + dx, unit.front[1] + dy)
    if unit.points:
        unit.points = [(x + dx, y + dy) for x, y in unit.points]


def _turn_to(unit: Unit, facing: float) -> None:
    """Pivot the unit on its centre to ``facing`` (W4-BREAK-05: at no cost)."""
    frame = unit.frame()
    unit.facing = facing % 360.0
    if not unit.skirmish:
        unit.front = offset(frame.centre, unit.facing, frame.depth / 2.0)


def blocked(state: WarState, unit: Unit, ignore: set[str]) -> bool:
    """True when the unit overlaps another unit (except ``ignore``) or leaves the table."""
    trays, frame = unit.trays(), unit.frame()
    for other in state.units_near(unit, 0.0):
        if other.id in ignore:
            continue
        count(GEOMETRY)
        # far apart blocks cannot overlap (the slack covers skirmish bases turned askew)
        if tray_gap(frame, other.frame()) > max(unit.base, other.base):
            continue
        if any(trays_overlap(t, o) for t in trays for o in other.trays()):
            return True
    return not all(state.board.contains(t.polygon) for t in trays)


def _touching(state: WarState, unit: Unit, quarry: Unit) -> Unit | None:
    """The enemy the unit touches, ``quarry`` first; None if none."""
    if state.gap(unit, quarry) <= CONTACT:
        return quarry
    for foe in state.units_near(unit, CONTACT):
        count(GEOMETRY)
        if foe.side != unit.side and not foe.fleeing and state.gap(unit, foe) <= CONTACT:
            return foe
    return None


def pursuit_move(state: WarState, battle: Battle, unit: Unit, quarry: Unit) -> None:
    """W4-BREAK-05/06, W4-AMB-19: pivot to face the quarry, move 2d6 + 2 x Speed - 12
    inches towards it (difficult ground costs double) and charge whatever enemy it meets."""
    before = (unit.front, unit.facing)
    _turn_to(unit, bearing(unit.frame().centre, quarry.frame().centre))
    if blocked(state, unit, set()):  # no room to turn: the pursuit cannot start
        unit.front, unit.facing = before
        battle.emit("pursuit_blocked", unit=unit.id, target=quarry.id)
        return
    two = battle.dice.roll("2d6", f"pursuit {unit.id}")
    reach = fall_back_distance(two, unit.speed())
    regions = [g.region for g in state.ground]
    start, points, centre = unit.front, list(unit.points), unit.frame().centre

    def place(t: float) -> None:
        dx, dy = offset((0.0, 0.0), unit.facing, t)
        unit.front = (start[0] + dx, start[1] + dy)
        unit.points = [(x + dx, y + dy) for x, y in points]

    def stopped() -> bool:
        return _touching(state, unit, quarry) is not None or blocked(state, unit, set())

    moved, step = 0.0, 0.0
    while step < reach:
        nxt = min(reach, step + PURSUIT_STEP)
        if path_cost([centre, offset(centre, unit.facing, nxt)], regions) > reach + 1e-9:
            break
        place(nxt)
        if stopped():
            lo, hi = step, nxt  # back off to the first moment of contact
            for _ in range(24):  # to well under the contact tolerance
                mid = (lo + hi) / 2.0
                place(mid)
                if stopped():
                    hi = mid
                else:
                    lo = mid
            moved = hi
            place(hi)
            if blocked(state, unit, set()):  # stopped by something it may not touch
                moved = lo
                place(lo)
            break
        step = moved = nxt
    place(moved)
    battle.emit("pursuit", unit=unit.id, target=quarry.id, roll=two, distance=round(moved, 3),
                facing=round(unit.facing, 3))
    met = _near(state, unit, quarry)
    if met is not None:
        caught(state, battle, unit, met, quarry, moved)


def _near(state: WarState, unit: Unit, quarry: Unit) -> Unit | None:
    if state.gap(unit, quarry) <= 1e-6 + 1e-7:
        return quarry
    for foe in state.enemies_of(unit):
        if not foe.fleeing and state.gap(unit, foe) <= 1e-6 + 1e-7:
            return foe
    return None


def caught(state: WarState, battle: Battle, unit: Unit, met: Unit, quarry: Unit,
           moved: float) -> None:
    """W4-BREAK-06, W4-AMB-19: the quarry is destroyed (option ``pursuit_catch``) or held
    in combat; another enemy is charged, its attacks waiting for the next Charge phase."""
    battle.emit("caught", unit=unit.id, target=met.id)
    if met is quarry and state.options.pursuit_catch == "destroy":
        casualties.destroy(state, battle, quarry, "caught by pursuers")
        return
    state.engage(unit.id, met.id)
    state.pursuit_pending[unit.id] = met.id
    state.extra.setdefault("pursuit_moved", {})[unit.id] = round(moved, 3)


# --------------------------------------------------------------------------- staying in contact

def re_engage(state: WarState, battle: Battle, units: list[Unit],
              round_end: bool = True) -> None:
    """W4-MELEE-13, W4-SKIRM-11: units left out of contact with foes of their fight move
    the shortest way back into contact; at the end of a round skirmishers bring as many
    models as they can into contact, up to their Speed."""
    for unit in units:
        foes = state.foes_of(unit.id)
        if not foes or not unit.alive:
            continue
        if unit.skirmish:
            if round_end:
                gather(state, battle, unit, foes[0], unit.speed(), skirmish_arc(state, unit),
                       choose=True)
            continue
        if any(state.gap(unit, f) <= CONTACT for f in foes):
            continue
        foe = min(foes, key=lambda f: state.gap(unit, f))
        dx, dy = _closing(unit, foe)
        shift_unit(unit, dx, dy)
        if blocked(state, unit, {foe.id}):
            shift_unit(unit, -dx, -dy)
            state.disengage(unit.id)
            continue
        battle.emit("re_engage", unit=unit.id, target=foe.id,
                    distance=round((dx * dx + dy * dy) ** 0.5, 3))


def skirmish_arc(state: WarState, unit: Unit) -> str | None:
    """W4-SKIRM-11: the arc of the foe the skirmishers charged (None: judge afresh), or the
    front of a foe that charged them."""
    charged = state.extra.get("charged_arc", {}).get(unit.id)
    foes = state.foes_of(unit.id)
    if charged and foes and foes[0].id == charged[0]:
        return str(charged[1])
    return "front" if foes and not foes[0].skirmish else None


def _closing(unit: Unit, foe: Unit) -> tuple[float, float]:
    from shapely.ops import unary_union

    mine = unary_union([t.polygon for t in unit.trays()])
    theirs = unary_union([t.polygon for t in foe.trays()])
    return closing_shift(mine, theirs)


PLACEMENTS = ("from_one_end", "from_the_other_end", "from_the_middle")
"""W4-DEC-22: the ways skirmishers may fill the free spots along an edge, when more than one
gives the same greatest contact."""


def gather(state: WarState, battle: Battle, unit: Unit, foe: Unit, budget: float,
           arc: str | None = None, choose: bool = False) -> int:
    """W4-SKIRM-06/07/11: move skirmishers (each up to ``budget`` inches) onto free spots
    against the ``arc`` edge of the foe (default: the arc holding most of them, or the front
    of a foe without flanks), nearest model to each spot. When several ways of filling the
    spots give the same greatest contact and ``choose`` is set, the owner picks one
    (W4-DEC-22). Returns the models in contact."""
    frame = foe.frame()
    if arc is None:
        from shapely.geometry import MultiPoint

        arc = majority_arc(frame, MultiPoint(unit.points).convex_hull.buffer(unit.base / 2))
    slots = edge_slots(frame, arc, unit.base)
    count(GEOMETRY, len(slots) * max(1, len(unit.points)))
    others = [t for o in state.units_near(unit, budget + 2 * unit.base) if o is not unit
              for t in o.trays()]
    touching = {i for i, p in enumerate(unit.points)
                if any(tray_gap(Tray(p, unit.facing, unit.base, unit.base), t) <= CONTACT
                       for t in foe.trays())}
    free = [s for s in slots if not any(
        trays_overlap(Tray(s, unit.facing, unit.base, unit.base), t) for t in others)
        and not any(trays_overlap(Tray(s, unit.facing, unit.base, unit.base),
                                  Tray(p, unit.facing, unit.base, unit.base))
                    for p in unit.points)]
    placed = _choose_arrangement(battle, unit, free, budget, touching, choose)
    unit.points = [placed.get(i, p) for i, p in enumerate(unit.points)]
    cohere(unit, budget, set(placed) | touching)
    if placed:
        battle.emit("skirmish_contact", unit=unit.id, target=foe.id, models=len(placed))
    return len(placed) + len(touching)


def arrangements(unit: Unit, free: list[Point], budget: float,
                 touching: set[int]) -> dict[str, dict[int, Point]]:
    """W4-DEC-22: each distinct way of filling ``free`` (spots in order along the edge) that
    brings the greatest number of models into contact, by name (see :data:`PLACEMENTS`)."""
    middle = (len(free) - 1) / 2.0
    orders = {"from_one_end": free, "from_the_other_end": free[::-1],
              "from_the_middle": [free[k] for k in sorted(range(len(free)),
                                                          key=lambda k: abs(k - middle))]}
    found = {name: _fill(unit, spots, budget, touching) for name, spots in orders.items()}
    best = max(len(p) for p in found.values())
    distinct: dict[str, dict[int, Point]] = {}
    for name in PLACEMENTS:
        if len(found[name]) == best and found[name] not in distinct.values():
            distinct[name] = found[name]
    return distinct


def _fill(unit: Unit, spots: list[Point], budget: float,
          touching: set[int]) -> dict[int, Point]:
    placed: dict[int, Point] = {}
    for spot in spots:
        choices = [(abs(complex(*p) - complex(*spot)), i) for i, p in enumerate(unit.points)
                   if i not in placed and i not in touching
                   and abs(complex(*p) - complex(*spot)) <= budget + 1e-9]
        if choices:
            placed[min(choices)[1]] = spot
    return placed


def _choose_arrangement(battle: Battle, unit: Unit, free: list[Point], budget: float,
                        touching: set[int], choose: bool) -> dict[int, Point]:
    ways = arrangements(unit, free, budget, touching)
    names = list(ways)
    if not choose or len(names) < 2:
        return ways[names[0]]
    options = tuple(Order.of("place", unit.id, name) for name in names)
    order = battle.ask(unit.side, "skirmish_place", options,
                       f"Several placements bring the same number of {unit.label()} into "
                       "contact: which one?", subject=unit.id, default=options[0])
    return ways[str(order.args[1])]


COHERENCY = 2.0
"""W4-SKIRM-01: each skirmisher stays within this many inches of another of its unit."""


def cohere(unit: Unit, budget: float, fixed: set[int]) -> None:
    """W4-SKIRM-01/06: a model (not in ``fixed``) more than 2" from every other model of
    its unit moves straight towards the nearest one, up to ``budget`` inches."""
    for i, p in enumerate(unit.points):
        if i in fixed or len(unit.points) < 2:
            continue
        others = [q for j, q in enumerate(unit.points) if j != i]
        near = min(others, key=lambda q: abs(complex(*q) - complex(*p)))
        apart = abs(complex(*near) - complex(*p))
        excess = apart - unit.base - COHERENCY
        if excess > 1e-9:
            step = min(budget, excess)
            moved = offset(p, bearing(p, near), step)
            unit.points = [moved if j == i else q for j, q in enumerate(unit.points)]
