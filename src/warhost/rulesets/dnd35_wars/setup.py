"""Setting up a `dnd35-wars` battle: the map, the units with their derived stat blocks on
their squares, the singular creatures in their units or squares, and initiative
(W35-TERM-01, W35-PLACE, W35-ROUND-03..05)."""

from __future__ import annotations

from warhost.core.battle import Battle
from warhost.core.errors import fail
from warhost.geometry.grid import Square, chebyshev, chebyshev_field, facing_step
from warhost.rulesets.dnd35_wars import magic, ram, siege, tables, tower, ucast
from warhost.rulesets.dnd35_wars.derive import ability_modifier, derive
from warhost.rulesets.dnd35_wars.model import Dnd35WarsScenario, SideSpec, UnitSpec
from warhost.rulesets.dnd35_wars.state import Single, Structure, Unit, WarState

_RIGHT = {"N": (1, 0), "S": (-1, 0), "E": (0, -1), "W": (0, 1)}
"""The direction of a block's front rank, left to right, by its (orthogonal) facing."""


def block_squares(at: Square, counters: int, columns: int | None, facing: str) -> list[Square]:
    """The squares of a block of ``counters`` whose front-left counter is ``at``: ranks of
    ``columns`` counters (default one rank), each behind the last, the last rank partial.
    A diagonal facing lays the block out as the north or south one."""
    orth = facing if facing in _RIGHT else facing[0]
    rx, ry = _RIGHT[orth]
    hx, hy = facing_step(orth)
    width = columns or counters
    out: list[Square] = []
    for i in range(counters):
        rank, file = divmod(i, width)
        out.append((at[0] + rx * file - hx * rank, at[1] + ry * file - hy * rank))
    return out


def unit_squares(spec: UnitSpec, counters: int) -> list[Square]:
    """Where ``spec``'s counters stand: the listed squares, or a block at ``at``."""
    if spec.counters is not None:
        return [tuple(sq) for sq in spec.counters]  # type: ignore[misc]
    assert spec.at is not None  # the validator insists on one of the two
    return block_squares(tuple(spec.at), counters, spec.columns, spec.facing)  # type: ignore[arg-type]


INWARD = {"north": "S", "south": "N", "east": "W", "west": "E"}
"""The facing of a unit entering from each map edge."""


def entry_shape(spec: UnitSpec, counters: int) -> tuple[list[Square], bool]:
    """The squares a reinforcement would like to hold, and whether the scenario placed them
    (`counters` or `at`); otherwise a block facing into the map from its edge."""
    if spec.counters is not None or spec.at is not None:
        return unit_squares(spec, counters), True
    assert spec.enters_edge is not None
    return block_squares((0, 0), counters, spec.columns, INWARD[spec.enters_edge]), False


def new_unit(spec: UnitSpec, side: str, scenario: Dnd35WarsScenario) -> Unit:
    """A unit with its derived stat block (not yet on the map)."""
    block = derive(spec, scenario.scale, scenario.options)
    creature = spec.creature
    ferocious = creature.ferocious if creature.ferocious is not None else (
        creature.type.lower() == "dragon")
    return Unit(
        id=spec.id, side=side, name=spec.name or creature.name, creature=creature,
        creatures=spec.count, size=block.size, per_counter=block.per_counter,
        counter_hp=block.counter_hp, start_hp=block.unit_hp, hp=block.unit_hp,
        morale=block.morale, rate=block.rate, initiative_mod=block.initiative, ac=block.ac,
        touch_ac=block.touch_ac, dr=block.dr, fort=block.fort, ref=block.ref, will=block.will,
        melee=block.melee, ranged=block.ranged, heading=facing_step(spec.facing),
        mob=spec.mob, mounted=spec.mount is not None,
        mount_size=spec.mount.size if spec.mount is not None else None,
        chariot=spec.chariot, flying=spec.flying,
        reach=any(a.reach for a in creature.melee), morale_immune=block.morale_immune,
        ferocious=ferocious, enslaved=spec.enslaved, flank_immune=creature.flank_immune or spec.mob,
        crit_immune=creature.crit_immune, water_native=creature.water_native,
        regenerates=creature.regeneration, feats=frozenset(f.lower() for f in creature.feats),
        leader=spec.leader, guarding_walls=spec.guarding_walls,
        enters_round=spec.enters_round, enters_edge=spec.enters_edge,
    )


def _map(state: WarState, scenario: Dnd35WarsScenario) -> None:
    for area in scenario.map.terrain:
        (x0, y0), (x1, y1) = area.rect
        for x in range(min(x0, x1), max(x0, x1) + 1):
            for y in range(min(y0, y1), max(y0, y1) + 1):
                sq = (x, y)
                if area.kind != "clear":
                    state.terrain[sq] = area.kind
                if area.water:
                    state.water.add(sq)
                if area.elevation:
                    state.elevation[sq] = area.elevation
                if area.slope_cost is not None:
                    state.slope_cost[sq] = area.slope_cost
                if area.blocks_sight:
                    state.blocks_sight.add(sq)
    for spec in scenario.map.structures:
        (x0, y0), (x1, y1) = spec.rect
        squares = frozenset((x, y) for x in range(min(x0, x1), max(x0, x1) + 1)
                            for y in range(min(y0, y1), max(y0, y1) + 1))
        section = Structure(spec.id, spec.type, squares, tables.STRUCTURE_DR[spec.type],
                            spec.hardness, spec.hp)
        state.structures[spec.id] = section
        if spec.hp is not None:
            state.structure_hp[spec.id] = spec.hp
        for sq in squares:
            state.structure_at[sq] = spec.id


def _units(state: WarState, side: SideSpec, scenario: Dnd35WarsScenario) -> None:
    for spec in side.units:
        unit = new_unit(spec, side.name, scenario)
        state.units[unit.id] = unit
        counters = unit.start_hp // unit.counter_hp  # W35-UNIT-08
        if spec.siege_tower:
            counters = 1  # the whole stack stands on its tower's square (W35-TOWER-09)
        if spec.enters_round is not None and spec.enters_round > 1:
            state.arrivals[unit.id] = entry_shape(spec, counters)
            continue  # a reinforcement waits off the map (W35-AMB-95)
        state.place(unit, set(unit_squares(spec, counters)))


def _monsters(state: WarState, side: SideSpec) -> None:
    for mon in side.monsters:
        single = Single(mon.id, side.name, "monster", mon.creature, mon.creature.hp)
        state.singles[single.id] = single
        state.put_single(single, tuple(mon.at))  # type: ignore[arg-type]


def _characters(state: WarState, side: SideSpec, kind: str) -> None:
    for char in side.npcs if kind == "npc" else side.pcs:
        single = Single(char.id, side.name, kind, char.creature, char.creature.hp,
                        host=char.unit, role=char.role, leadership=char.leadership,
                        officer=char.officer,
                        squad=f"{side.name}-squad" if char.role == "squad" else None)
        state.singles[single.id] = single
        host = state.units[char.unit]
        host.singles.append(single.id)
        if char.role == "leader":
            host.leader = single.id


def initial_state(scenario: Dnd35WarsScenario) -> WarState:
    """The battle after placement, before initiative."""
    state = WarState(scenario.scale, scenario.map.width, scenario.map.height, scenario.options,
                     [s.name for s in scenario.sides])
    _map(state, scenario)
    for side in scenario.sides:
        if side.home_edge is not None:
            state.home_edge[side.name] = side.home_edge
    # every unit, then monsters, then NPCs, then PCs (W35-PLACE-02, W35-TERM-01)
    for side in scenario.sides:
        _units(state, side, scenario)
    for side in scenario.sides:
        _monsters(state, side)
    for kind in ("npc", "pc"):
        for side in scenario.sides:
            _characters(state, side, kind)
    state.spells = {spell.name: spell for spell in scenario.spells}
    for part in (magic, siege, tower, ram, ucast):
        part.prepare(state, scenario)
    return state


def new_state(scenario: Dnd35WarsScenario, battle: Battle) -> WarState:
    """The battle after placement: warnings about the armies (W35-AMB-72), the order of
    placement (W35-PLACE-03/04), unallied monsters whose army is drawn (W35-PLACE-12), then
    initiative for every unit on the map and every monster (W35-ROUND-03)."""
    from warhost.rulesets.dnd35_wars.validate import warnings

    state = initial_state(scenario)
    for text in warnings(scenario):
        battle.emit("warning", rule="W35-ARMY-02", message=text)
    for text in siege.placement_warnings(state):
        battle.emit("warning", rule="W35-SIEGE-01", message=text)
    placement_order(state, battle, scenario)
    place_unallied(state, battle, scenario)
    roll_initiative(state, battle, [u.id for u in state.units.values() if u.squares]
                    + [s.id for s in state.singles.values() if s.kind == "monster"])
    return state


def initiative_bonus(state: WarState, unit: Unit) -> int:
    """The unit's initiative modifier plus its embedded leader's Charisma modifier
    (W35-ROUND-04)."""
    bonus = unit.initiative_mod
    if unit.leader is not None and unit.leader in unit.singles:
        bonus += ability_modifier(state.singles[unit.leader].creature.cha)
    return bonus


def roll_off(battle: Battle, tied: list[str], tiebreak: dict[str, tuple[int, ...]]) -> None:
    """Break a tie by rolling off: each of ``tied`` rolls 1d20 (the higher goes first), and
    only those who tie again roll again (W35-AMB-64). Each roll is appended to ``tiebreak``."""
    while len(tied) > 1:
        again: dict[int, list[str]] = {}
        for aid in tied:
            roll = battle.dice.draw(20, f"initiative tie {aid}")
            tiebreak[aid] += (roll,)
            again.setdefault(roll, []).append(aid)
        tied = []
        for group in again.values():
            if len(group) > 1:
                roll_off(battle, group, tiebreak)


def roll_initiative(state: WarState, battle: Battle, actors: list[str]) -> None:
    """Each of ``actors`` rolls 1d20 + its modifier; the order runs from the highest, ties to
    the higher modifier, then a roll-off (W35-ROUND-03/05, W35-AMB-64). New actors join the
    existing order at their places."""
    keys: dict[str, tuple[int, int, int]] = {}
    for aid in actors:
        actor = state.actor(aid)
        mod = initiative_bonus(state, actor) if isinstance(actor, Unit) else actor.creature.initiative
        total = battle.dice.draw(20, f"initiative {aid}") + mod
        state.initiative[aid] = total
        keys[aid] = (total, mod, 0)
        battle.emit("initiative", who=aid, total=total)
    groups: dict[tuple[int, int], list[str]] = {}
    for aid, (total, mod, _) in keys.items():
        groups.setdefault((total, mod), []).append(aid)
    tiebreak: dict[str, tuple[int, ...]] = {aid: () for aid in keys}
    for tied in groups.values():
        roll_off(battle, tied, tiebreak)
    ranked = sorted(keys, key=lambda a: (keys[a], tiebreak[a]), reverse=True)
    for aid in ranked:  # later arrivals slot in after everyone at or above their count
        place = next((i for i, other in enumerate(state.order)
                      if state.initiative[other] < state.initiative[aid]), len(state.order))
        state.order.insert(place, aid)


def placement_order(state: WarState, battle: Battle, scenario: Dnd35WarsScenario) -> str:
    """The side that places its units first: the defender when there is an aggressor
    (W35-PLACE-03); otherwise each side rolls 1d20, ties rolled again (W35-AMB-64), and the
    winner places first or last as the scenario says (W35-PLACE-04, W35-DEC-05)."""
    names = state.sides
    if scenario.aggressor is not None:
        first = state.other(scenario.aggressor)
        battle.emit("placement", first=first, aggressor=scenario.aggressor)
    else:
        rolls = [0, 0]
        while rolls[0] == rolls[1]:
            rolls = [battle.dice.draw(20, f"placement roll {name}") for name in names]
        winner = names[0] if rolls[0] > rolls[1] else names[1]
        first = winner if scenario.placement_winner_places == "first" else state.other(winner)
        battle.emit("placement", first=first, winner=winner, rolls=dict(zip(names, rolls)))
    state.placed_first = first
    return first


def _army_gaps(state: WarState) -> dict[str, dict[Square, int]]:
    """Distance from each side's units on the map to every square."""
    return {name: chebyshev_field([sq for u in state.units_of(name) for sq in u.squares],
                                  state.width, state.height)
            for name in state.sides}


def place_unallied(state: WarState, battle: Battle, scenario: Dnd35WarsScenario) -> None:
    """An unallied monster not equally far from both armies draws one army at random and
    must stand at least 12 squares from all its units (W35-PLACE-12, W35-AMB-71); if its
    square is nearer, it moves to the nearest free square that far (none: the scenario is
    rejected)."""
    gaps: dict[str, dict[Square, int]] | None = None
    far = 10 * (state.width + state.height)  # no unit of that army on the map
    for i, side in enumerate(scenario.sides):
        for j, mon in enumerate(side.monsters):
            if mon.allied:
                continue
            gaps = gaps or _army_gaps(state)
            sq: Square = (mon.at[0], mon.at[1])
            a, b = (gaps[name].get(sq, far) for name in state.sides)
            if a == b >= 8:
                continue
            army = state.sides[battle.dice.draw(2, f"army for {mon.id}") - 1]
            spot = sq
            if gaps[army].get(sq, far) < 12:
                found = _far_square(state, gaps[army], sq, far)
                if found is None:
                    fail(f"no free square is at least 12 squares from every unit of {army}, "
                         f"drawn for unallied monster {mon.id!r} (W35-PLACE-12, W35-AMB-71)",
                         "sides", i, "monsters", j, "at")
                spot = found
                state.put_single(state.singles[mon.id], spot)
            battle.emit("monster_placed", who=mon.id, army=army, at=list(spot),
                        moved=spot != sq)


def _far_square(state: WarState, gap: dict[Square, int], near: Square,
                far: int) -> Square | None:
    """The free square nearest ``near`` at least 12 from the army measured by ``gap``: the
    fewest squares (W35-AMB-36), then the fewest steps along the axes, then south-west first."""
    best: tuple[int, int, int, int] | None = None
    for y in range(state.height):
        for x in range(state.width):
            if gap.get((x, y), far) >= 12 and (x, y) not in state.at:
                key = (chebyshev(near, (x, y)), abs(x - near[0]) + abs(y - near[1]), y, x)
                best = key if best is None or key < best else best
    return None if best is None else (best[3], best[2])
