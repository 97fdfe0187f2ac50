"""The Shooting phase (W4-SHOOT, W4-MULTI, W4-AMB-45 to 50, W4-DEC-16/17): each side in turn
picks a unit, its power, its target (or an area burst's centre) and who multiattacks, rolls
the dice, removes the casualties, and the other side then takes its panic tests."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from typing import Any

from shapely.geometry import MultiPoint, box
from shapely.geometry import Point as ShapelyPoint
from shapely.ops import unary_union
from shapely.strtree import STRtree

from warhost.core.battle import Battle
from warhost.core.decisions import Refusal
from warhost.core.metering import GEOMETRY, OPTIONS, count
from warhost.core.orders import Order
from warhost.geometry.table import (
    Point,
    Tray,
    area_burst,
    cells_covered,
    clear_sight,
    cover_by_majority,
    point_word,
    read_point,
    sees,
    tray_gap,
)
from warhost.rulesets.dnd4e_war import char_shooting, classes, psychology, riders
from warhost.rulesets.dnd4e_war.army_setup import item_defense, item_dice
from warhost.rulesets.dnd4e_war.attacks import first_use_hits, roll_attacks
from warhost.rulesets.dnd4e_war.casualties import (
    add_condition,
    apply_hits,
    damage_expression,
    minion,
)
from warhost.rulesets.dnd4e_war.model import Power
from warhost.rulesets.dnd4e_war.state import Character, Unit, WarState

RAN_PENALTY = 5
"""W4-AMB-07/08: a unit marked as having run takes -5 to its attack rolls."""

SHOOTING_KINDS = ("ranged", "area_burst")
"""W4-SHOOT-01, W4-AMB-49: the powers used in the Shooting phase."""

MULTIATTACK_CHOICES = ("all", "captain", "ranks", "none")
"""W4-DEC-16: which models with A > 1 multiattack, most dice first."""


# ---------------------------------------------------------------- the phase

def shooting_phase(state: WarState, battle: Battle) -> None:
    """W4-SHOOT-02: each side, initiative first, shoots unit by unit, then the other side's
    units take their panic tests."""
    for side in state.order_of_sides():
        state.extra.pop(char_shooting.TARGETS, None)
        side_shoots(state, battle, side)
        psychology.after_shooting(state, battle, side)
        state.shooting_losses.clear()


def side_shoots(state: WarState, battle: Battle, side: str) -> None:
    """W4-DEC-16: the side picks its units one at a time until it is done or none can shoot.
    Whether a unit can shoot is worked out once, and again only when a shot took models
    from a unit within its reach (its targets or sight lines may have changed)."""
    state.extra[SIGHT] = sight_index(state)
    try:
        _pick_shooters(state, battle, side)
    finally:
        state.extra.pop(SIGHT, None)


def _pick_shooters(state: WarState, battle: Battle, side: str) -> None:
    ready: dict[str, bool] = {}
    while True:
        units = list(state.units_of(side))
        for u in units:
            if u.id not in ready:
                ready[u.id] = can_shoot(state, u) and (
                    bool(usable_powers(state, u)) or _machine_ready(state, u))
        shooters = [u for u in units if ready[u.id] and can_shoot(state, u)]
        people = char_shooting.shooters(state, side) if state.characters else []
        if not shooters and not people:
            return
        listed = shooters[:SHOOTER_WINDOW]
        options = tuple(Order.of("shoot", u.id) for u in listed) + tuple(
            Order.of("shoot", c.id) for c in people) + (Order.of("done"),)
        count(OPTIONS, len(options))
        ready_ids = {u.id for u in shooters} | {c.id for c in people}
        order = battle.ask(side, "shooter", options, "Which unit shoots next?", side,
                           accept=functools.partial(_judge_shooter, ready=ready_ids)
                           if len(shooters) > SHOOTER_WINDOW else None)
        if order.kind == "done":
            return
        before = _loss_totals(state)
        places = {u.id: u.placement() for u in state.units.values() if u.alive}
        unit = state.units[str(order.args[0])]
        if unit.inside is not None:
            char_shooting.offer_shot(state, battle, state.characters[unit.id])
            unit = state.units[unit.inside]
            ready.pop(unit.id, None)  # its targets may now be fixed (W4-CHAR-14)
        else:
            unit_shoots(state, battle, unit)
        if unit.shot or unit.machine is not None:  # a crew that said done has had its go
            ready[unit.id] = False
        changed = [state.units[uid] for uid, n in _loss_totals(state).items()
                   if n != before.get(uid, 0)]
        # a unit that fled mid-shooting (a panic when a unit was destroyed) may have left
        # range or opened or blocked sight lines anywhere: everyone is judged afresh
        fled = any(state.units[uid].alive and state.units[uid].placement() != p
                   for uid, p in places.items())
        for u in units:
            if ready.get(u.id) is not None and u.id != unit.id and (
                    fled or _within_reach(u, changed)):
                del ready[u.id]


def _machine_ready(state: WarState, unit: Unit) -> bool:
    """W4-DEC-19: a crew with something to do with its war machine."""
    if unit.machine is None:
        return False
    from warhost.rulesets.dnd4e_war import machines

    return machines.has_action(state, unit)


SHOOTER_WINDOW = 8
"""Ready units listed at once when a side picks its next shooter; any other ready unit may
be named (so the question does not grow with the army)."""


def _judge_shooter(wanted: Order, ready: set[str]) -> Order | Refusal:
    if wanted.kind == "done" and not wanted.args:
        return Order.of("done")
    if wanted.kind == "shoot" and len(wanted.args) == 1 and str(wanted.args[0]) in ready:
        return Order.of("shoot", str(wanted.args[0]))
    return Refusal(f"name a unit ready to shoot ({', '.join(sorted(ready))}) or done",
                   rule="W4-SHOOT-02")


def _loss_totals(state: WarState) -> dict[str, int]:
    return {uid: sum(by.values()) for uid, by in state.shooting_losses.items()}


def _within_reach(unit: Unit, changed: list[Unit]) -> bool:
    """Whether a unit that lost models may have been a target or a blocker of ``unit``:
    within its longest shooting range (a destroyed unit judged by where it stood)."""
    reach = max((p.range for p in unit.powers(*SHOOTING_KINDS)), default=0.0)
    mine = unit.frame()
    for other in changed:
        frame = other.frame()
        slack = other.files * other.tray_width + other.ranks * other.tray_depth
        if tray_gap(mine, frame) <= reach + slack + 1e-9:
            return True
    return False


def can_shoot(state: WarState, unit: Unit) -> bool:
    """W4-AMB-18/80/91, W4-MOVE-17: fleeing, engaged and reformed units cannot shoot; nor a
    unit that has shot or spent its standard action (a double move or a run took it)."""
    return (unit.alive and not unit.fleeing and not unit.reformed and not unit.shot
            and not unit.standard_used and not unit.double_moved
            and not state.is_engaged(unit.id))


def slug(name: str) -> str:
    """A power's name as one order word (``Hand crossbow`` -> ``hand-crossbow``)."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "power"


def usable_powers(state: WarState, unit: Unit) -> list[Power]:
    """W4-SHOOT-03, W4-AMB-49: the unit's ranged and area burst powers that have something
    to aim at."""
    return [p for p in unit.powers(*SHOOTING_KINDS)
            if (legal_targets(state, unit, p) if p.kind == "ranged"
                else burst_centres(state, unit, p))]


def unit_shoots(state: WarState, battle: Battle, unit: Unit) -> None:
    """One unit's shot: power, target or centre, multiattack, dice and casualties; the
    whole unit spends its standard action (W4-SHOOT-04)."""
    if unit.machine is not None:
        from warhost.rulesets.dnd4e_war import machines

        machines.machine_shoots(state, battle, unit)  # W4-WM-07 to 10, W4-AMB-61/66
        return
    powers = usable_powers(state, unit)
    options = tuple(Order.of("use", unit.id, slug(p.name)) for p in powers)
    order = battle.ask(unit.side, "shooting_power", options, "Which power?", unit.id)
    power = powers[options.index(order)]
    unit.standard_used = unit.shot = True
    if power.kind == "area_burst":
        _area_shot(state, battle, unit, power)
    else:
        _ranged_shot(state, battle, unit, power)


# ---------------------------------------------------------------- sight and range

SIGHT = "shooting_sight"
"""Key in ``WarState.extra`` of the :class:`SightIndex` kept while a side shoots."""
SHAPES = "shooting_shapes"
"""``state.extra`` key: each unit's sight-blocking shape, with where the unit stood then."""


@dataclass(frozen=True)
class SightIndex:
    """Everything that may block sight (W4-AMB-45), in a spatial index: terrain that blocks
    sight (owner None) and each living unit as one shape. Units only lose models while a side
    shoots, so a unit's shape at the start bounds its shape later: the tree finds the
    candidates, :meth:`shape` gives each one as it stands now."""

    tree: STRtree
    shapes: list[Any]
    owners: list[str | None]
    current: dict[tuple[str, tuple[int, ...]], Any] = field(default_factory=dict)

    def shape(self, state: WarState, i: int) -> Any | None:
        """Blocker ``i`` as it is now (None: a unit no longer on the table)."""
        owner = self.owners[i]
        if owner is None:
            return self.shapes[i]
        unit = state.units[owner]
        if not unit.alive:
            return None
        key = (owner, tuple(unit.companies))
        if key not in self.current:
            self.current[key] = unit_shape(unit)
        return self.current[key]


def sight_index(state: WarState) -> SightIndex:
    """The sight blockers of the table as it stands now."""
    shapes: list[Any] = [g.region.polygon for g in state.ground if g.blocks_sight]
    owners: list[str | None] = [None] * len(shapes)
    for other in state.units.values():
        if other.alive:
            shapes.append(unit_shape(other, state))
            owners.append(other.id)
    count(GEOMETRY, len(shapes))
    return SightIndex(STRtree(shapes), shapes, owners)


def blockers(state: WarState, unit: Unit, target: Unit) -> list[Any]:
    """W4-AMB-45: what may block the unit's sight of ``target``: terrain that blocks sight and
    every other unit's trays (the shooter's own and the target's do not), kept to those near
    the line between the two."""
    hull = MultiPoint([c for t in unit.trays() + target.trays()
                       for c in t.corners()]).convex_hull
    index = state.extra.get(SIGHT)
    if isinstance(index, SightIndex):
        near = sorted(int(i) for i in index.tree.query(hull))
        count(GEOMETRY, len(near))
        now = (index.shape(state, i) for i in near
               if index.owners[i] not in (unit.id, target.id))
        return [shape for shape in now if shape is not None and shape.intersects(hull)]
    shapes = [g.region.polygon for g in state.ground if g.blocks_sight]
    for other in state.units.values():
        if other.alive and other.id not in (unit.id, target.id):
            shapes.append(unit_shape(other, state))
    count(GEOMETRY, len(shapes))
    return [s for s in shapes if s.intersects(hull)]


def unit_shape(unit: Unit, state: WarState | None = None) -> Any:
    """The unit's trays (or bases) as one shape, so that a line along the seam between two
    companies is blocked too (kept in ``state``'s cache until the unit moves, if given)."""
    if state is None:
        return unary_union([t.polygon for t in unit.trays()])
    cache: dict[str, tuple[Any, Any]] = state.extra.setdefault(SHAPES, {})
    key = unit.placement()
    known = cache.get(unit.id)
    if known is None or known[0] != key:
        known = (key, unary_union([t.polygon for t in unit.trays()]))
        cache[unit.id] = known
    return known[1]


def sees_all_round(unit: Unit) -> bool:
    """W4-SKIRM-02, W4-MONSTER-05: skirmishers and lone monsters see in every direction."""
    return unit.skirmish or (unit.is_monster and unit.models == 1)


def in_arc(unit: Unit, target: Unit) -> bool:
    """W4-SHOOT-06/08, W4-UNIT-05: the target lies at least partly in the arc of sight of at
    least one of the unit's companies."""
    if sees_all_round(unit):
        return True
    shapes = [t.polygon for t in target.trays()]
    return any(sees(tray, shape) for tray in unit.trays() for shape in shapes)


def sighted_slots(state: WarState, unit: Unit, target: Unit) -> list[int]:
    """W4-SHOOT-09/10, W4-SKIRM-05: the companies (skirmishers: models) with a clear line to
    some company or model of the target."""
    targets = target.trays()
    blocks = blockers(state, unit, target)
    return [s for s, tray in enumerate(unit.trays()) if clear_sight(tray, targets, blocks)]


def in_range(state: WarState, unit: Unit, target: Unit, power: Power) -> bool:
    """W4-SHOOT-06, W4-AMB-48, W4-MEAS-03/04: closest points, unit to unit."""
    return state.gap(unit, target) <= power.range + 1e-9


def legal_targets(state: WarState, unit: Unit, power: Power) -> list[Unit]:
    """W4-SHOOT-06, W4-AMB-80: enemy units in range, partly in the arc of sight and visible,
    not in close combat (unless ``shoot_into_combat``); the target of a joined character
    who shot this phase only (W4-CHAR-14)."""
    out = []
    fixed = char_shooting.unit_target(state, unit) if unit.joined else None
    for enemy in enemies_within(state, unit, power.range):
        if fixed is not None and enemy.id != fixed:
            continue
        if state.is_engaged(enemy.id) and not state.options.shoot_into_combat:
            continue
        if not in_range(state, unit, enemy, power) or not in_arc(unit, enemy):
            continue
        if _shooting_slots(state, unit, enemy, power):
            out.append(enemy)
    return out


def enemies_within(state: WarState, unit: Unit, reach: float) -> list[Unit]:
    """Enemy units whose trays may lie within ``reach`` of the unit, in scenario order: while
    a side shoots, only those the sight index finds near the unit (so the work of a shot
    does not grow with the whole army); otherwise every enemy."""
    index = state.extra.get(SIGHT)
    if not isinstance(index, SightIndex):
        return list(state.enemies_of(unit))
    x0, y0, x1, y1 = unit.frame().polygon.bounds
    if unit.skirmish:  # a skirmisher's frame is upright: a turned base reaches beyond it
        reach += unit.base
    found = sorted(int(i) for i in index.tree.query(
        box(x0 - reach, y0 - reach, x1 + reach, y1 + reach)))
    count(GEOMETRY, len(found))
    near = (state.units[uid] for uid in (index.owners[i] for i in found) if uid is not None)
    return [u for u in near if u.side != unit.side and u.alive]


def _shooting_slots(state: WarState, unit: Unit, target: Unit, power: Power) -> list[int]:
    """The companies that contribute dice: line of sight, and with ``per_company_range``
    their own range (W4-AMB-48)."""
    slots = sighted_slots(state, unit, target)
    if not state.options.per_company_range:
        return slots
    mine, theirs = unit.trays(), target.trays()
    return [s for s in slots
            if min(tray_gap(mine[s], t) for t in theirs) <= power.range + 1e-9]


# ---------------------------------------------------------------- dice

@dataclass(frozen=True)
class Dice:
    """The dice a shot rolls: rank-and-file dice and the captain's (a character's) dice."""

    ranks: int
    captain: int


def rows_shooting(state: WarState, unit: Unit, target: Unit) -> int:
    """W4-SHOOT-11/12, W4-AMB-32: one row, two when the shooters stand strictly higher."""
    return 2 if state.elevation(unit) > state.elevation(target) else 1


def multiattack_allowed(state: WarState, power: Power, target: Unit | None) -> bool:
    """W4-MULTI-03/04, W4-AMB-52: an at-will ranged or melee power without an area or zone;
    against non-minions only with ``multiattack_vs_nonminions``."""
    if power.kind not in ("ranged", "melee") or power.area or power.zone:
        return False
    if power.usage != "at-will":
        return False
    return target is None or minion(target) or state.options.multiattack_vs_nonminions


def multiattack_options(unit: Unit) -> list[str]:
    """W4-DEC-16, W4-STAT-09: the multiattack choices the unit's models allow."""
    captain = captain_slot(unit) is not None and unit.captain_attacks > 1
    ranks = unit.profile.attacks > 1
    allowed = {"all": captain and ranks, "captain": captain, "ranks": ranks, "none": True}
    return [c for c in MULTIATTACK_CHOICES if allowed[c]]


def captain_slot(unit: Unit) -> int | None:
    """The company the captain stands in: the front row of the command company, or of a
    neighbour when joined characters fill it (W4-CMD-03/04, W4-CHAR-04); in a skirmishing
    unit, the first model, the last one casualties take (W4-CMD-01)."""
    if unit.captain is None:
        return None
    if unit.skirmish:
        return 0 if unit.companies else None
    place = unit.command_places().get("captain")
    return place[0] if place is not None else unit.command_slot


def uses_per_model(unit: Unit, multiattack: str) -> tuple[int, int]:
    """W4-MULTI-05: how often a rank-and-file model and the captain use the power: A times
    when multiattacking, else once."""
    per_rank = unit.profile.attacks if multiattack in ("all", "ranks") else 1
    per_captain = unit.captain_attacks if multiattack in ("all", "captain") else 1
    return per_rank, per_captain


def count_dice(state: WarState, unit: Unit, target: Unit, slots: list[int],
               multiattack: str = "none", extra: int = 0) -> Dice:
    """W4-SHOOT-10 to 14, W4-MULTI-05: the front row (two rows from higher ground) of each
    company with sight; a multiattacking model gives A dice instead of one; each shooting
    model adds the power's own ``extra`` attacks once (W4-MULTI-07)."""
    rows = rows_shooting(state, unit, target)
    per_rank, per_captain = uses_per_model(unit, multiattack)
    per_rank, per_captain = per_rank + extra, per_captain + extra
    ranks = captain = 0
    for slot in slots:
        models = sum(unit.row_models(slot, r) for r in range(rows))
        if slot == captain_slot(unit) and models:
            captain = per_captain
            models -= 1
        if unit.joined and slot == char_shooting.home_slot(unit):
            models = max(0, models - len(unit.joined))  # they shoot apart (W4-CHAR-14)
        ranks += models * per_rank
    return Dice(ranks, captain)


def cover_bonus(state: WarState, unit: Unit, target: Unit, slots: list[int]) -> int:
    """W4-SHOOT-15/16, W4-AMB-46: the single highest cover or concealment value when a strict
    majority of centre-to-centre lines pass through such ground."""
    pieces = cover_pieces(state)
    if not pieces:
        return 0
    trays = unit.trays()
    return cover_by_majority([trays[s] for s in slots], target.trays(), pieces)


def cover_pieces(state: WarState) -> list[tuple[Any, int]]:
    """W4-AMB-46: each terrain piece that gives cover or concealment, with the best value it
    adds to AC."""
    values = state.options.cover_values
    pieces = []
    for g in state.ground:
        best = max(getattr(values, g.cover, 0) if g.cover != "none" else 0,
                   getattr(values, g.concealment, 0) if g.concealment != "none" else 0)
        if best:
            pieces.append((g.region.polygon, best))
    return pieces


def defense(target: Unit, power: Power) -> int:
    """The target's defense the power attacks (W4-SHOOT-17, W4-STAT-11)."""
    return int(getattr(target.profile.defenses, power.vs))


# ---------------------------------------------------------------- a ranged shot

def _ranged_shot(state: WarState, battle: Battle, unit: Unit, power: Power) -> None:
    targets = legal_targets(state, unit, power)
    options = tuple(Order.of("target", t.id) for t in targets)
    count(OPTIONS, len(options))
    order = battle.ask(unit.side, "shooting_target", options, f"{unit.id} shoots at?", unit.id)
    target = targets[options.index(order)]
    choice = "none"
    if multiattack_allowed(state, power, target):
        choices = multiattack_options(unit)
        if len(choices) > 1:
            asked = tuple(Order.of("multiattack", c) for c in choices)
            picked = battle.ask(unit.side, "multiattack", asked, "Who multiattacks?", unit.id,
                                default=asked[0])
            choice = str(picked.args[0])
    shoot(state, battle, unit, target, power, choice)
    if unit.joined:
        state.extra.setdefault(char_shooting.TARGETS, {})[unit.id] = target.id
        for person in state.characters_in(unit):
            if char_shooting.can_shoot(state, person):
                char_shooting.offer_shot(state, battle, person)


def shoot(state: WarState, battle: Battle, unit: Unit, target: Unit, power: Power,
          multiattack: str = "none") -> int:
    """W4-SHOOT-09 to 21: roll the unit's dice at ``target`` and remove the casualties;
    returns the hits."""
    slots = _shooting_slots(state, unit, target, power)
    dice = count_dice(state, unit, target, slots, multiattack, power.extra_attacks)
    model_dice = dice.ranks
    multi = multiattack in ("all", "ranks")
    who = unit.character if state.characters else None
    if who is not None and dice.ranks:
        dice = Dice(dice.ranks + classes.extra_attacks(
            state, battle, who, unit, power, target, shooting=True, multiattack=multi),
            dice.captain)
    cover = cover_bonus(state, unit, target, slots)
    ac = (defense(target, power) + cover + classes.defense_bonus(state, target, power.vs)
          + item_defense(target))
    hittable = True
    if target.joined:  # W4-SHOOT-19, W4-AMB-47: their defense differs from the unit's
        majority, hittable = char_shooting.mixed_defense(state, target, power)
        ac = (majority + cover + classes.defense_bonus(state, target, power.vs)
              + item_defense(target))
    ran = RAN_PENALTY if unit.ran else 0
    bonus = power.bonus - ran + classes.attack_modifier(state, unit, power, target)
    if target.character is not None and riders.ridden(target) is not None:
        return _shoot_rider(state, battle, unit, target, power, dice, cover, bonus, multiattack)
    per = unit.profile.attacks if multi else 1
    ranks = roll_attacks(battle, dice.ranks, ac, bonus, f"{unit.id} shoots",
                         boosted=item_dice(unit, dice.ranks, per), boost=unit.item_attack,
                         state=state, unit=unit,
                         character=unit.character is not None)  # W4-HIT-04
    captain = roll_attacks(battle, dice.captain, ac, bonus, f"{unit.id} captain shoots",
                           character=True, state=state, unit=unit)
    hits = ranks.hits + captain.hits
    battle.emit("shoot", unit=unit.id, target=target.id, power=power.name,
                dice=dice.ranks + dice.captain, needed=ranks.needed, cover=cover,
                faces=list(ranks.faces + captain.faces), hits=hits, multiattack=multiattack)
    if not hittable:
        battle.emit("hits_discarded", unit=unit.id, target=target.id, hits=hits)
        return hits
    take_casualties(state, battle, unit, target, hits, power)
    if power.effect is not None:
        per_rank, per_captain = uses_per_model(unit, multiattack)
        first = 1 + power.extra_attacks
        landed = (first_use_hits(ranks.faces[:model_dice], ranks.needed,
                                 per_rank + power.extra_attacks, first)
                  + first_use_hits(captain.faces, captain.needed,
                                   per_captain + power.extra_attacks, first))
        if landed and target.alive:
            add_condition(battle, target, power.effect)
    if who is not None and dice.ranks:
        hits += _spirit_strike(state, battle, who, unit, power, target, multi, cover, ran)
    return hits


def _shoot_rider(state: WarState, battle: Battle, unit: Unit, target: Unit, power: Power,
                 dice: Dice, cover: int, bonus: int, multiattack: str) -> int:
    """W4-MONSTER-07: a shot at a character riding a monster, each die at mount or rider."""
    groups = [(dice.ranks, unit.character is not None), (dice.captain, True)]
    on_mount, on_rider, rolls = riders.ranged_at_rider(state, battle, unit, target, power,
                                                       groups, cover, bonus)
    battle.emit("shoot", unit=unit.id, target=target.id, power=power.name,
                dice=dice.ranks + dice.captain, needed=rolls[-1].needed, cover=cover,
                faces=[f for r in rolls for f in r.faces], hits=on_mount + on_rider,
                multiattack=multiattack)
    riders.hit_mount(state, battle, unit, target, power, on_mount)
    take_casualties(state, battle, unit, target, on_rider, power)
    return on_mount + on_rider


def _spirit_strike(state: WarState, battle: Battle, who: Character, unit: Unit, power: Power,
                   target: Unit, multiattack: bool, cover: int, ran: int) -> int:
    """W4-CLASS-18: a shaman's ranged spirit power once besides his multiattack, if the
    target is in its range."""
    spirit = classes.spirit_strike(state, who, unit, power, multiattack, "ranged")
    if spirit is None or not target.alive or not in_range(state, unit, target, spirit):
        return 0
    ac = defense(target, spirit) + cover + classes.defense_bonus(state, target, spirit.vs)
    bonus = classes.attack_modifier(state, unit, spirit, target) - ran
    scored = classes.strike_with_spirit(state, battle, who, unit, spirit, target, ac, bonus)
    take_casualties(state, battle, unit, target, scored, spirit)
    return scored


def take_casualties(state: WarState, battle: Battle, unit: Unit, target: Unit, hits: int,
                    power: Power) -> None:
    """Remove what ``hits`` of ``unit``'s shot slay in ``target`` and note them for the
    panic tests after shooting (W4-SHOOT-22)."""
    losses = apply_hits(state, battle, target, hits, unit.id, "shooting",
                        damage=damage_expression(power))
    if losses.removed:
        by_shooter = state.shooting_losses.setdefault(target.id, {})
        by_shooter[unit.id] = by_shooter.get(unit.id, 0) + losses.removed


def company_worths(unit: Unit, casualties: int) -> int:
    """W4-PANIC-08: whole companies' worth of ``casualties`` (skirmishers count 4 a
    company)."""
    return casualties // unit.full_company()


def panic_due(unit: Unit, casualties: int) -> bool:
    """W4-SHOOT-22, W4-AMB-20: a phase's shooting casualties of at least one full company."""
    return company_worths(unit, casualties) >= 1


# ---------------------------------------------------------------- area bursts

def burst_reach(state: WarState, unit: Unit, power: Power, point: Point) -> Refusal | None:
    """W4-DEC-17, W4-SHOOT-06: why an area burst may not be centred on ``point`` (None when
    it may): it must lie on the table, within range, in the arc of sight of some company and
    in clear sight of it."""
    if not (0 <= point[0] <= state.board.width and 0 <= point[1] <= state.board.height):
        return Refusal(f"{point_word(point)} is off the table", rule="W4-DEC-17")
    spot = ShapelyPoint(point)
    trays = unit.trays()
    gaps = [t.polygon.distance(spot) for t in trays]
    if min(gaps) > power.range + 1e-9:
        return Refusal(f"{point_word(point)} is {min(gaps):.2f} inches away, beyond the "
                       f"range of {power.range:g}", rule="W4-SHOOT-06")
    marker = [Tray(point, 0.0, 1e-3, 1e-3)]
    shapes = [g.region.polygon for g in state.ground if g.blocks_sight]
    for other in state.units.values():
        if other.alive and other.id != unit.id:
            shape = unit_shape(other, state)
            if not shape.buffer(1e-6).contains(spot):  # a unit the centre is on hides nothing
                shapes.append(shape)
    count(GEOMETRY, len(shapes))
    for tray in trays:
        if (sees_all_round(unit) or sees(tray, spot)) and clear_sight(tray, marker, shapes):
            return None
    return Refusal(f"no company of {unit.id} sees {point_word(point)}", rule="W4-SHOOT-06")


def burst_centres(state: WarState, unit: Unit, power: Power) -> list[Point]:
    """W4-DEC-17: the offered centres: the middle of each enemy unit the burst may reach."""
    out = []
    for enemy in enemies_within(state, unit, power.range):
        if state.is_engaged(enemy.id) and not state.options.shoot_into_combat:
            continue  # W4-AMB-80: not a target to aim at
        c = enemy.frame().centre
        centre = (round(c[0], 3), round(c[1], 3))
        if burst_reach(state, unit, power, centre) is None:
            out.append(centre)
    count(OPTIONS, len(out))
    return out


def _area_shot(state: WarState, battle: Battle, unit: Unit, power: Power) -> None:
    centres = burst_centres(state, unit, power)
    options = tuple(Order.of("centre", point_word(c)) for c in centres)

    def accept(order: Order) -> Order | Refusal:
        point = read_point(order.args[0]) if order.kind == "centre" and order.args else None
        if point is None:
            return Refusal("centre needs a point x,y", rule="W4-DEC-17")
        return burst_reach(state, unit, power, point) or Order.of("centre", point_word(point))

    order = battle.ask(unit.side, "burst_centre", options, "Where is the burst centred?",
                       unit.id, accept=accept)
    point = read_point(order.args[0])
    assert point is not None
    burst(state, battle, unit, power, point)


def covered_models(state: WarState, shape: Any) -> dict[str, int]:
    """W4-AMB-50: models of every unit, friend or foe, whose cell the area covers."""
    out: dict[str, int] = {}
    for u in state.units.values():
        if not u.alive:
            continue
        trays = u.trays()
        count(GEOMETRY, len(trays))
        cols, rows = (1, 1) if u.skirmish else (u.columns, u.rows)
        n = sum(cells_covered(shape, t, cols, rows, u.companies[s])
                for s, t in enumerate(trays))
        if n:
            out[u.id] = n
    return out


def burst(state: WarState, battle: Battle, unit: Unit, power: Power, point: Point) -> int:
    """W4-AREA-03, W4-AMB-50: the burst attacks every covered model, one roll each, friend
    or foe; returns the total hits."""
    shape = area_burst(point, power.area)
    covered = covered_models(state, shape)
    bonus = power.bonus - (RAN_PENALTY if unit.ran else 0)
    battle.emit("area_burst", unit=unit.id, power=power.name,
                centre=[round(point[0], 3), round(point[1], 3)], size=power.area,
                covered=dict(covered))
    total = 0
    for uid, models in covered.items():
        target = state.units[uid]
        if target.character is not None and riders.ridden(target) is not None:
            on_mount, on_rider = riders.burst_at_rider(state, battle, unit, target, power,
                                                       bonus)
            riders.hit_mount(state, battle, unit, target, power, on_mount)
            take_casualties(state, battle, unit, target, on_rider, power)
            total += on_mount + on_rider
            continue
        roll = roll_attacks(battle, models,
                            defense(target, power) + classes.defense_bonus(state, target,
                                                                           power.vs),
                            bonus + classes.attack_modifier(state, unit, power, target),
                            f"{unit.id} burst on {uid}", state=state, unit=unit,
                            character=unit.character is not None)
        battle.emit("shoot", unit=unit.id, target=uid, power=power.name, dice=models,
                    needed=roll.needed, cover=0, faces=list(roll.faces), hits=roll.hits,
                    multiattack="none")
        total += roll.hits
        take_casualties(state, battle, unit, target, roll.hits, power)
    return total
