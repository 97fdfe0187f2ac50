"""Building the starting state from a scenario: map, terrain, armies and deployment."""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Any

from warhost.core.engine import Battle
from warhost.core.errors import ScenarioError
from warhost.core.orders import Order
from warhost.geometry.grid import Grid, Square, footprint, space_distance
from warhost.rulesets.fantasy_battle.model import (
    Ability,
    FantasyBattleScenario,
    HillSpec,
    Options,
    SideSpec,
    TerrainArea,
)
from warhost.rulesets.fantasy_battle.state import (
    FACINGS,
    AbilityState,
    FBState,
    Squad,
    Unit,
)


def area_squares(area: TerrainArea) -> list[Square]:
    """Every square listed by an area, explicit squares first, then rectangles row by row."""
    out = [tuple(sq) for sq in area.squares]
    for (x0, y0), (x1, y1) in area.rects:
        for y in range(min(y0, y1), max(y0, y1) + 1):
            for x in range(min(x0, x1), max(x0, x1) + 1):
                out.append((x, y))
    return out  # type: ignore[return-value]


def hill_squares(hill: HillSpec) -> dict[Square, str]:
    """Top squares (elevated) plus a one-square edging of slope, or cliff on the listed sides."""
    (x0, y0), (x1, y1) = hill.top
    xa, xb, ya, yb = min(x0, x1), max(x0, x1), min(y0, y1), max(y0, y1)
    out: dict[Square, str] = {}
    for y in range(ya - 1, yb + 2):
        for x in range(xa - 1, xb + 2):
            if xa <= x <= xb and ya <= y <= yb:
                out[(x, y)] = "elevated"
                continue
            side = ("west" if x < xa else "east" if x > xb else
                    "south" if y < ya else "north")
            out[(x, y)] = "cliff" if side in hill.cliff_sides else "slope"
    return out


def build_grid(model: FantasyBattleScenario) -> Grid:
    """The pregenerated map of a scenario."""
    bf = model.battlefield
    grid = Grid(bf.width, bf.height)
    for area in bf.terrain:
        level = area.level if area.level is not None else (1 if area.type == "elevated" else 0)
        for sq in area_squares(area):
            grid.set_terrain(sq, area.type, level)
    for hill in bf.hills:
        for sq, name in hill_squares(hill).items():
            if 0 <= sq[0] < bf.width and 0 <= sq[1] < bf.height:
                grid.set_terrain(sq, name, 1 if name == "elevated" else 0)
    return grid


def default_start_area(index: int, width: int, height: int) -> set[Square]:
    """The back two rows: rows 0-1 for the first side, the last two for the second (FB-AMB-21)."""
    rows = (0, 1) if index == 0 else (height - 2, height - 1)
    return {(x, y) for y in rows for x in range(width)}


def start_area(side: SideSpec, index: int, width: int, height: int) -> set[Square]:
    """A side's start area: its own rectangle if given, else the back two rows."""
    if side.start_area is None:
        return default_start_area(index, width, height)
    (x0, y0), (x1, y1) = side.start_area
    return {(x, y) for y in range(min(y0, y1), max(y0, y1) + 1)
            for x in range(min(x0, x1), max(x0, x1) + 1)}


def default_facing(index: int) -> Square:
    """Pikes face the enemy's edge unless told otherwise."""
    return (0, 1) if index == 0 else (0, -1)


def make_abilities(specs: Iterable[Ability]) -> list[AbilityState]:
    """Ability states from their scenario specs."""
    return [AbilityState(a.name, a.attack, a.defense, a.affects, a.range, list(a.types),
                         list(a.classes), list(a.ranks), list(a.factions)) for a in specs]


def unit_size(unit_type: str, options: Options) -> int:
    """2 for a 2×2 Cavalry base, else 1 (FB-CAV-03, FB-AMB-02)."""
    return 2 if unit_type == "cavalry" and options.cavalry_footprint == "2x2" else 1


def armies(model: FantasyBattleScenario) -> list[Unit]:
    """Every unit of both sides, in scenario order, not yet placed."""
    units: list[Unit] = []
    for index, side in enumerate(model.sides):
        for squad in side.squads:
            for m in squad.members:
                units.append(Unit(
                    id=m.id, side=side.name, name=m.name or m.id, rank="standard",
                    type=squad.type, cls=m.unit_class, anchor=m.at,  # type: ignore[arg-type]
                    size=unit_size(squad.type, model.options),
                    facing=(FACINGS[m.facing] if m.facing else default_facing(index))
                    if m.unit_class == "pike" else None,
                    squad=squad.id, unique=m.unique, fate=m.fate_points,
                    original_cls=m.unit_class, original_type=squad.type,
                    faction=m.faction or side.faction,
                ))
        for u in side.units:
            units.append(Unit(
                id=u.id, side=side.name, name=u.name or u.id, rank=u.rank, type=u.type,
                cls=u.unit_class, anchor=u.at,  # type: ignore[arg-type]
                size=unit_size(u.type, model.options),
                facing=(FACINGS[u.facing] if u.facing else default_facing(index))
                if u.unit_class == "pike" else None,
                unique=u.unique, fate=u.fate_points, abilities=make_abilities(u.abilities),
                feats=list(u.feats), feats_used=[False] * len(u.feats),
                original_cls=u.unit_class, original_type=u.type,
                faction=u.faction or side.faction,
            ))
    return units


def new_state(model: FantasyBattleScenario, battle: Battle | None = None) -> FBState:
    """The state after setup: map built, attacker chosen, armies deployed (FB-SETUP-*)."""
    bf = model.battlefield
    sides = [s.name for s in model.sides]
    grid = build_grid(model)
    state = FBState(grid, model.options, sides, model.victory_points)
    state.start_areas = {s.name: start_area(s, i, bf.width, bf.height)
                         for i, s in enumerate(model.sides)}
    state.victory_areas = [
        {"name": v.name, "squares": [tuple(sq) for sq in v.squares], "points": v.points}
        for v in bf.victory_areas
    ]
    state.first_player = choose_first_player(model, battle)
    if battle is not None:
        battle.emit("first_player", side=state.first_player)
    if bf.kind == "constructed" and battle is not None:
        from warhost.rulesets.fantasy_battle.construct import place_terrain

        place_terrain(state, model, battle)
    for unit in armies(model):
        state.units[unit.id] = unit
        if unit.rank == "champion" and model.options.feat_selection == "roll_d6" and battle:
            roll_feats(unit, battle)
        if unit.squad is not None:
            squad = state.squads.get(unit.squad)
            if squad is None:
                spec = next(sq for s in model.sides for sq in s.squads if sq.id == unit.squad)
                squad = state.squads[unit.squad] = Squad(
                    unit.squad, unit.side, spec.type, [], spec.colour or spec.id)
            squad.members.append(unit.id)
    if battle is not None:
        battle.state = state
    for unit in state.units.values():  # positions fixed by the scenario are taken first
        if unit.anchor is not None:
            state.place(unit, unit.anchor)
    unplaced = any(unit.anchor is None for unit in state.units.values())
    room = Room(state) if battle is not None and unplaced else None
    order = [state.first_player, state.other_side(state.first_player)]  # FB-SETUP-11
    for side in order:
        for unit in [u for u in state.units.values() if u.side == side]:
            if unit.anchor is None and battle is not None and room is not None:
                ask_deployment(state, battle, unit, room)
                if unit.has_facing:
                    from warhost.rulesets.fantasy_battle.game import choose_facing

                    choose_facing(state, battle, unit)  # FB-SETUP-14
            if battle is not None:
                battle.emit("deployed", unit=unit.id, side=side, at=list(unit.anchor or ()),
                            facing=list(unit.facing) if unit.facing else None)
    state.start_strength = {uid: 1 for uid in state.units}
    return state


FEAT_TABLE = ("burst_of_speed", "frenzy", "mobility", "protect", "throw", "vault")  # FB-FEAT-04


def roll_feats(unit: Unit, battle: Battle) -> None:
    """Under ``feat_selection: roll_d6`` each Feat entry is rolled on the d6 table (FB-AMB-36).

    The number of entries is the number listed in the scenario (1 if none are listed).
    """
    faces = battle.dice.pool(max(1, len(unit.feats)), 6, f"Feats of {unit.id}")
    unit.feats = [FEAT_TABLE[face - 1] for face in faces]
    unit.feats_used = [False] * len(unit.feats)
    battle.emit("feats_rolled", unit=unit.id, feats=list(unit.feats))


def choose_first_player(model: FantasyBattleScenario, battle: Battle | None) -> str:
    """The attacker: named in the options, or drawn with the battle's dice (FB-AMB-13)."""
    wanted = model.options.first_player
    sides = [s.name for s in model.sides]
    if wanted in sides:
        return wanted
    if wanted in ("A", "B"):
        return sides[0 if wanted == "A" else 1]
    if battle is None:
        return sides[0]
    face = battle.dice.pool(1, 6, "first player (1-3: first listed side)")[0]
    return sides[0] if face <= 3 else sides[1]


def _deploy_ground(state: FBState, side: str) -> tuple[list[Square], set[Square]]:
    """The side's start area in row-major order, and those of its squares on the map whose
    terrain a unit may enter and end on (FB-SETUP-12): fixed while the area and the map are,
    so kept on the state."""
    area = state.start_areas[side]
    grid = state.grid
    kept = state.deploy_ground.get(side)
    if (kept is not None and kept[0] is area and kept[1] == len(area) and kept[2] is grid
            and kept[3] == grid._version):
        return kept[4], kept[5]
    ordered = sorted(area, key=lambda s: (s[1], s[0]))
    ground = {sq for sq in ordered if state.grid.contains(sq)
              and state.terrain(sq).move_cost is not None and state.terrain(sq).can_end}
    state.deploy_ground[side] = (area, len(area), grid, grid._version, ordered, ground)
    return ordered, ground


def legal_deploy_squares(
    state: FBState, unit: Unit, taken: Collection[Square] = (), *, first: bool = False
) -> list[Square]:
    """Anchors where ``unit`` may be deployed in its start area (FB-SETUP-12, FB-AMB-22), with
    the squares ``taken`` held too; with ``first``, only the first of them (or none)."""
    ordered, ground = _deploy_ground(state, unit.side)
    occupied = state.occupied
    size = unit.size
    out = []
    for anchor in ordered:
        if size == 1:
            ok = anchor in ground and anchor not in occupied and anchor not in taken
        else:
            ok = all(sq in ground and sq not in occupied and sq not in taken
                     for sq in footprint(anchor, size))
        if ok:
            out.append(anchor)
            if first:
                break
    return out


Plan = dict[str, Square]
"""Anchors planned for the units still to be deployed, by id."""


class NoRoomError(ScenarioError):
    """A unit the scenario leaves unplaced has no room in its start area; ``unit`` is its id."""

    def __init__(self, message: str, unit: str) -> None:
        super().__init__(message, field="sides")
        self.unit = unit


class Room:
    """Keeps room in the start areas for every unit the scenario leaves unplaced.

    It holds a *plan*: an anchor for each unit still to be deployed, found by deploying them in
    order at the first square offered. A player is offered only the squares after which his
    units still to come can all be deployed (by the plan, or by a new one made from there), so
    a deployment that starts with a plan never runs out of room. Nothing is planned while a
    side has only 1×1 units to come (any free square will do: the validator has counted them)
    or has room to spare (:meth:`ample`). The validator makes the first plan, so a scenario it
    passes deploys whatever the players choose.
    """

    def __init__(self, state: FBState) -> None:
        self.state = state
        self.queue = [u.id for u in state.units.values() if u.anchor is None]
        """Units still to be deployed, in scenario order (the sides' areas are apart, so each
        side's own order is all that matters)."""
        self.rows = {side: sorted(area, key=lambda sq: (sq[1], sq[0]))
                     for side, area in state.start_areas.items()}
        """Each start area's squares in the order squares are offered: row by row."""
        self.plan: Plan = {}
        for side in state.sides:
            queue = [uid for uid in self.queue if state.units[uid].side == side]
            if not queue or self.free_to_choose(queue):
                continue
            plan = self.make_plan(queue, {})
            if isinstance(plan, str):
                raise NoRoomError(f"no room left in the start area of {side!r} for {plan} "
                                  f"once the units before it are deployed (FB-SETUP-12)", plan)
            self.plan.update(plan)

    # ----------------------------------------------------------------------- legal squares

    def legal(self, unit: Unit, anchor: Square, taken: Collection[Square]) -> bool:
        """Whether ``unit`` may be deployed at ``anchor`` with ``taken`` held too (the test of
        :func:`legal_deploy_squares`)."""
        state = self.state
        area = state.start_areas[unit.side]
        return all(sq in area and state.grid.contains(sq) and sq not in state.occupied
                   and sq not in taken and state.terrain(sq).move_cost is not None
                   and state.terrain(sq).can_end for sq in footprint(anchor, unit.size))

    def taken(self, planned: Plan) -> set[Square]:
        """The squares of the ``planned`` units."""
        units = self.state.units
        return {sq for uid, anchor in planned.items() for sq in footprint(anchor, units[uid].size)}

    def near(self, unit: Unit, planned: Plan, taken: Collection[Square]) -> list[Square]:
        """Legal anchors next to a squad-mate deployed or ``planned`` (FB-SETUP-13), row by
        row; empty when there are none or no squad-mate is down yet."""
        state = self.state
        if unit.squad is None:
            return []
        mates = [state.squares_of(state.units[m]) for m in state.squads[unit.squad].members
                 if m != unit.id and state.units[m].on_map]
        mates += [footprint(planned[m], state.units[m].size)
                  for m in state.squads[unit.squad].members if m in planned]
        found: set[Square] = set()
        for mate in mates:
            xs, ys = [sq[0] for sq in mate], [sq[1] for sq in mate]
            for y in range(min(ys) - unit.size - 1, max(ys) + 3):
                for x in range(min(xs) - unit.size - 1, max(xs) + 3):
                    if (x, y) not in found and space_distance(footprint((x, y), unit.size),
                                                              mate) == 1:
                        found.add((x, y))
        return sorted((a for a in found if self.legal(unit, a, taken)),
                      key=lambda sq: (sq[1], sq[0]))

    def choices(self, unit: Unit, planned: Plan) -> list[Square]:
        """Legal anchors for ``unit`` with the ``planned`` units deployed too: next to a
        squad-mate already deployed where possible (FB-SETUP-13)."""
        taken = self.taken(planned)
        return self.near(unit, planned, taken) or [
            a for a in self.rows[unit.side] if self.legal(unit, a, taken)]

    def first_choice(self, unit: Unit, planned: Plan, taken: set[Square]) -> Square | None:
        """``choices(unit, planned)[0]`` (``taken`` holds the planned squares), found without
        listing every choice."""
        near = self.near(unit, planned, taken)
        if near:
            return near[0]
        return next((a for a in self.rows[unit.side] if self.legal(unit, a, taken)), None)

    # ----------------------------------------------------------------------- room to spare

    def free_to_choose(self, queue: list[str]) -> bool:
        """Whether every square now and later leaves room for the side's ``queue``: when only
        1×1 units are to follow the first, or when there is room to spare (:meth:`ample`)."""
        units = self.state.units
        if all(units[uid].size == 1 for uid in queue[1:]):
            return True
        return self.ample(queue)

    def ample(self, queue: list[str]) -> bool:
        """Room to spare for ``queue``: a 2×2 base fits while one 2×2 block of a fixed tiling
        of the start area is free; a 2×2 base spoils at most four blocks (two where the blocks
        form one band) and a 1×1 unit one, so enough free blocks for the worst case leave room
        whatever is chosen."""
        units = self.state.units
        return any(blocks >= sum(spoil if units[uid].size == 2 else 1 for uid in queue)
                   for blocks, spoil in free_blocks(self.state, units[queue[0]].side))

    # ----------------------------------------------------------------------- plans

    def make_plan(self, queue: list[str], planned: Plan) -> Plan | str:
        """Deploy ``queue`` in order at its first choice, after ``planned``; the plan, or the
        id of the first unit left without room."""
        units = self.state.units
        planned = dict(planned)
        taken = self.taken(planned)
        plan: Plan = {}
        for uid in queue:
            anchor = self.first_choice(units[uid], planned, taken)
            if anchor is None:
                return uid
            planned[uid] = plan[uid] = anchor
            taken.update(footprint(anchor, units[uid].size))
        return plan

    def move_mates(self, unit: Unit, anchor: Square, kept: Plan, mates: list[str]) -> Plan | None:
        """``kept`` with ``unit``'s squad-mates to come moved next to it at ``anchor``, one
        after another; None when one finds no square next to a squad-mate."""
        planned = {uid: a for uid, a in kept.items() if uid not in mates}
        planned[unit.id] = anchor
        for mate in mates:
            near = self.near(self.state.units[mate], planned, self.taken(planned))
            if not near:
                return None
            planned[mate] = near[0]
        del planned[unit.id]
        return planned

    def options(self, unit: Unit) -> list[tuple[Square, Plan]]:
        """The anchors the unit may take, each with the plan for the units after it."""
        units = self.state.units
        rest = [uid for uid in self.queue[self.queue.index(unit.id) + 1:]
                if units[uid].side == unit.side]
        squares = self.choices(unit, {})
        if self.free_to_choose([unit.id, *rest]):
            return [(a, {}) for a in squares]
        kept = {uid: self.plan[uid] for uid in rest}
        held = self.taken(kept)
        mates = [uid for uid in rest if unit.squad is not None and units[uid].squad == unit.squad]
        out: list[tuple[Square, Plan]] = []
        for anchor in squares:
            plan: Plan | str | None = None
            if held.isdisjoint(footprint(anchor, unit.size)):
                plan = self.move_mates(unit, anchor, kept, mates) if mates else kept
            if plan is None:
                plan = self.make_plan(rest, {unit.id: anchor})
            if not isinstance(plan, str):
                out.append((anchor, plan))
        return out

    def place(self, unit: Unit, anchor: Square, plan: Plan) -> None:
        """Deploy the unit at ``anchor``; ``plan`` deploys the units of its side after it."""
        self.state.place(unit, anchor)
        self.queue.remove(unit.id)
        self.plan.update(plan)


def free_blocks(state: FBState, side: str) -> list[tuple[int, int]]:
    """For each of the four tilings of the map by 2×2 blocks: how many blocks of the side's
    start area are free, and how many of them one 2×2 base can overlap (2 when they lie in one
    band of rows or of columns, else 4)."""
    area = state.start_areas[side]
    free = {sq for sq in area if state.grid.contains(sq) and sq not in state.occupied
            and state.terrain(sq).move_cost is not None and state.terrain(sq).can_end}
    out = []
    for ax in (0, 1):
        for ay in (0, 1):
            blocks = [(x, y) for (x, y) in free if x % 2 == ax and y % 2 == ay
                      and (x + 1, y) in free and (x, y + 1) in free and (x + 1, y + 1) in free]
            band = len({y for _, y in blocks}) <= 1 or len({x for x, _ in blocks}) <= 1
            out.append((len(blocks), 2 if band else 4))
    return out


def ask_deployment(state: FBState, battle: Battle, unit: Unit, room: Room) -> None:
    """Ask the owner where to deploy a unit the scenario left unplaced (decision 7): a legal
    square, next to a squad-mate already deployed where possible (FB-SETUP-13), that leaves
    room for the side's units still to come."""
    choices = dict(room.options(unit))
    if not choices:  # only if the plan was not checked first (validation makes it)
        raise NoRoomError(f"no room left in the start area for {unit.id}", unit.id)
    order = battle.decide(_deploy_decision(unit, list(choices)))
    anchor = (int(order.args[0]), int(order.args[1]))
    room.place(unit, anchor, choices[anchor])


def _deploy_decision(unit: Unit, legal: list[Square]) -> Any:
    from warhost.core.decisions import Decision

    return Decision(side=unit.side, kind="deploy", subject=unit.id,
                    options=tuple(Order("deploy", sq) for sq in legal),
                    prompt=f"where does {unit.id} deploy?")
