"""Building the starting state: terrain, units, initiative order and deployment decisions
(T5-SETUP-01..04, T5-INIT-01..03, T5-AMB-03, T5-AMB-04, T5-DEC-01..04)."""

from __future__ import annotations

from collections.abc import Sequence

from shapely.geometry import Polygon

from warhost.core.engine import Battle
from warhost.core.errors import ScenarioError
from warhost.core.orders import Order
from warhost.geometry.table import (
    Board,
    Point,
    Region,
    edge_bearing,
    formation_outline,
    gap,
    single_footprint,
)
from warhost.rulesets.dnd5e_tactics.context import Ctx
from warhost.rulesets.dnd5e_tactics.model import (
    Dnd5eTacticsScenario,
    SideSpec,
    SingleSpec,
    StatBlock,
    TerrainSpec,
    UnitSpec,
)
from warhost.rulesets.dnd5e_tactics.state import PITCH, Body, Character, Single, T5State, Unit
from warhost.rulesets.dnd5e_tactics.tables import TRACKS

DEPLOY_STEP = 4.0
"""Inches between the deployment spots offered when a scenario leaves a position open."""


def make_region(spec: TerrainSpec, index: int) -> Region:
    """A terrain piece as a geometry region (T5-TERRAIN-01, T5-TERRAIN-02)."""
    name = spec.name or f"{spec.kind} {index + 1}"
    flags = {"difficult": spec.kind != "impassable", "impassable": spec.kind == "impassable"}
    if spec.rect is not None:
        x, y, w, h = spec.rect
        return Region.rect(name, spec.kind, x, y, w, h, **flags)
    assert spec.polygon is not None
    return Region.from_points(name, spec.kind, spec.polygon, **flags)


def make_character(stats: StatBlock) -> Character:
    """A fresh character record with full hit points and its limited uses."""
    uses = {a.name: a.uses for a in stats.areas if a.uses is not None}
    uses.update({h.name: h.uses for h in stats.heals if h.uses is not None})
    return Character(stats=stats, hp=stats.hp, uses=uses)


def enemy_facing(side: SideSpec) -> float:
    """Facing toward the far edge: away from the side's own deployment edge."""
    return (edge_bearing(side.edge) + 180.0) % 360.0


def make_unit(spec: UnitSpec, side: SideSpec, files: int) -> Unit:
    """A unit at rank 0 with a living commander (T5-SETUP-01, T5-SETUP-03)."""
    return Unit(
        id=spec.id,
        side=side.name,
        name=spec.name or spec.member.name,
        member=spec.member,
        member_hp=spec.member_hp or spec.member.hp,
        start_members=spec.members,
        members=spec.members,
        stance=spec.stance or "close",
        track=spec.track or "defensive",
        centre=(float(spec.at[0]), float(spec.at[1])) if spec.at else (0.0, 0.0),
        facing=float(spec.facing) if spec.facing is not None else enemy_facing(side),
        commander=make_character(spec.commander),
        initiative=spec.member.dex + spec.commander.dex,  # T5-INIT-01
        edge=side.edge,
        files=files,
    )


def make_single(spec: SingleSpec, side: SideSpec) -> Single:
    """A Single Character with its own initiative (T5-AMB-31)."""
    return Single(
        id=spec.id,
        side=side.name,
        name=spec.name or spec.stats.name,
        character=make_character(spec.stats),
        centre=(float(spec.at[0]), float(spec.at[1])) if spec.at else (0.0, 0.0),
        facing=float(spec.facing) if spec.facing is not None else enemy_facing(side),
        initiative=spec.stats.dex,
        edge=side.edge,
    )


def initial_state(model: Dnd5eTacticsScenario) -> tuple[T5State, dict[str, bool]]:
    """The state before anything is asked: every body made, those the scenario places at
    their position, and which bodies those are."""
    bodies: dict[str, Body] = {}
    placed: dict[str, bool] = {}
    files = model.options.formation_files
    for side in model.sides:
        for unit_spec in side.units:
            bodies[unit_spec.id] = make_unit(unit_spec, side, files)
            placed[unit_spec.id] = unit_spec.at is not None
        for single_spec in side.singles:
            bodies[single_spec.id] = make_single(single_spec, side)
            placed[single_spec.id] = single_spec.at is not None
    state = T5State(
        scenario=model,
        board=Board(model.board.width, model.board.height),
        regions=[make_region(t, i) for i, t in enumerate(model.terrain)],
        bodies=bodies,
        order=list(bodies),
        sides=[s.name for s in model.sides],
        defender=model.defender,
    )
    return state, placed


def new_state(model: Dnd5eTacticsScenario, battle: Battle) -> T5State:
    """The state after deployment, with the turn order fixed."""
    state, placed = initial_state(model)
    battle.state = state
    ctx = Ctx(state, battle)
    deploy(ctx, model, placed)
    state.order = turn_order(ctx, list(state.bodies.values()))
    ctx.emit(
        "initiative",
        order=[{"id": b.id, "side": b.side, "initiative": b.initiative} for b in
               (state.bodies[i] for i in state.order)],
    )
    return state


def deploy(ctx: Ctx, model: Dnd5eTacticsScenario, placed: dict[str, bool]) -> None:
    """Ask for what the scenario leaves open: positions (T5-DEC-01), starting tracks
    (T5-DEC-02) and stances (T5-DEC-03). Emits one ``deploy`` event per body."""
    unit_specs = {u.id: u for s in model.sides for u in s.units}
    room = Deployment(ctx.state, model, placed) if not all(placed.values()) else None
    for side in model.sides:
        for body_id in [u.id for u in side.units] + [c.id for c in side.singles]:
            body = ctx.state.bodies[body_id]
            if isinstance(body, Unit):
                spec = unit_specs[body_id]
                if spec.track is None:
                    order = ctx.ask(
                        side.name, "track", [Order.of("track", t) for t in TRACKS],
                        prompt=f"starting Tactics Track of {body.name}", subject=body.id,
                        default=Order.of("track", "defensive"),
                    )
                    body.track = str(order.args[0])
                if spec.stance is None:
                    order = ctx.ask(
                        side.name, "stance", [Order.of("stance", s) for s in ("close", "open")],
                        prompt=f"starting stance of {body.name}", subject=body.id,
                        default=Order.of("stance", "close"),
                    )
                    body.stance = str(order.args[0])
                    if room is not None:
                        room.decided(body)
            if not placed[body_id] and room is not None:  # after the stance: it sets the size
                choose_position(ctx, body, room)
            ctx.emit("deploy", **deploy_fields(body))


def deploy_fields(body: Body) -> dict[str, object]:
    """What a ``deploy`` event records of a body."""
    fields: dict[str, object] = {
        "id": body.id, "side": body.side, "kind": body.kind,
        "at": [round(body.centre[0], 3), round(body.centre[1], 3)], "facing": body.facing,
    }
    if isinstance(body, Unit):
        fields.update(members=body.members, stance=body.stance, track=body.track, rank=body.rank)
    return fields


def point_text(point: tuple[float, float]) -> str:
    """A position as one order word, ``x,y`` with one decimal."""
    return f"{point[0]:.1f},{point[1]:.1f}"


def parse_point(text: object) -> tuple[float, float]:
    """The inverse of :func:`point_text`."""
    x, y = str(text).split(",")
    return float(x), float(y)


def zone_spots(state: T5State, side: SideSpec) -> list[Point]:
    """Candidate footprint centres in the side's deployment zone: along its edge, DEPLOY_STEP
    apart, half the zone's depth in, to one decimal (so that an order names a spot exactly)."""
    board = state.board
    depth = min(side.deployment_depth, board.height if side.edge in ("north", "south")
                else board.width)
    along = board.width if side.edge in ("north", "south") else board.height
    inset = depth / 2
    steps = int(along // DEPLOY_STEP)
    spots = []
    for i in range(steps):
        t = round((i + 0.5) * along / steps, 1)
        spots.append({
            "south": (t, round(inset, 1)), "north": (t, round(board.height - inset, 1)),
            "west": (round(inset, 1), t), "east": (round(board.width - inset, 1), t),
        }[side.edge])
    return spots


Shape = tuple[Polygon, tuple[float, float, float, float]]
"""A footprint with its bounds (shapely's ``bounds`` is slow to ask again and again)."""


def boxed(polygon: Polygon) -> Shape:
    """A footprint with its bounds."""
    return polygon, polygon.bounds


def touching(a: Shape, b: Shape) -> bool:
    """Whether two footprints touch or overlap (their bounds are compared first: cheaper)."""
    ax0, ay0, ax1, ay1 = a[1]
    bx0, by0, bx1, by1 = b[1]
    if ax1 < bx0 or bx1 < ax0 or ay1 < by0 or by1 < ay0:
        return False
    return gap(a[0], b[0]) <= 0.0


def spot_shapes(
    state: T5State, body: Body, side: SideSpec, stance: str | None = None
) -> list[tuple[Point, Shape]]:
    """The spots of the side's zone where the body (in ``stance``, default its own) stands
    wholly on the table and off impassable terrain, each with the footprint it has there."""
    out = []
    for spot in zone_spots(state, side):
        shape = footprint_at(body, spot, stance)
        if not state.board.contains(shape):
            continue
        if any(r.impassable and r.polygon.intersects(shape) for r in state.regions):
            continue
        out.append((spot, boxed(shape)))
    return out


def deployment_spots(
    state: T5State,
    body: Body,
    side: SideSpec,
    others: Sequence[Polygon] | None = None,
    stance: str | None = None,
) -> list[Point]:
    """Spots of the side's zone where the body (in ``stance``, default its own) stands wholly
    on the table, off impassable terrain and clear of ``others`` (default: the footprints of
    the bodies already on the table)."""
    if others is None:
        others = [b.footprint for b in state.bodies.values()
                  if b is not body and b.centre != (0.0, 0.0)]
    boxes = [boxed(o) for o in others]
    return [spot for spot, shape in spot_shapes(state, body, side, stance)
            if not any(touching(shape, o) for o in boxes)]


def footprint_at(body: Body, centre: Point, stance: str | None = None) -> Polygon:
    """The body's footprint if its centre were ``centre`` (in ``stance``, default its own)."""
    if isinstance(body, Unit) and body.members > 0:
        return formation_outline(body.members, body.files, PITCH[stance or body.stance], centre,
                                 body.facing)
    return single_footprint(centre, 0.5, body.facing)


Plan = dict[str, Shape]
"""Footprints planned for the bodies still to be placed, by id."""


class Deployment:
    """Keeps room for every body the scenario leaves unplaced (T5-DEC-01).

    It holds a *plan*: a spot for each body still to be placed, found by placing them in
    deployment order, each at the first free spot (packing them toward one end of the edge
    leaves the most room for the next). A commander is offered only the spots after which the
    bodies still to come can all be placed (by the plan, or by a new one made from there), so
    a deployment that starts with a plan never runs out of room. A unit whose stance is still
    to be asked counts at its larger Open Stance footprint, which holds its Close one. The
    validator makes the first plan, so a scenario it passes deploys whatever the commanders
    choose.
    """

    def __init__(self, state: T5State, model: Dnd5eTacticsScenario,
                 placed: dict[str, bool]) -> None:
        self.state = state
        self.sides = {s.name: s for s in model.sides}
        self.pending = {u.id for s in model.sides for u in s.units if u.stance is None}
        """Units whose stance is still to be asked."""
        self.placed = [i for i, on in placed.items() if on]
        self.queue = [i for i, on in placed.items() if not on]
        """Bodies still to be placed, in deployment order (the scenario's)."""
        self.spots: dict[tuple[str, str | None], list[tuple[Point, Shape]]] = {}
        """:func:`spot_shapes` by body and stance, worked out once."""
        plan = self.make_plan(self.queue, self.shapes())
        if isinstance(plan, str):
            raise NoRoomError(self.no_room(plan), plan)
        self.plan = plan

    def stance(self, body: Body) -> str | None:
        """The stance a body is counted in: Open while its stance is still to be asked."""
        return "open" if body.id in self.pending else None

    def shapes(self) -> list[Shape]:
        """The footprints of the bodies already on the table (Open if not yet decided)."""
        bodies = self.state.bodies
        return [boxed(footprint_at(bodies[i], bodies[i].centre, self.stance(bodies[i])))
                for i in self.placed]

    def free(self, body: Body, others: list[Shape]) -> list[tuple[Point, Shape]]:
        """The body's spots (in the stance it counts in) clear of ``others``."""
        stance = self.stance(body) or (body.stance if isinstance(body, Unit) else None)
        key = (body.id, stance)
        if key not in self.spots:
            self.spots[key] = spot_shapes(self.state, body, self.sides[body.side], stance)
        return [(spot, shape) for spot, shape in self.spots[key]
                if not any(touching(shape, o) for o in others)]

    def make_plan(self, queue: Sequence[str], shapes: list[Shape]) -> Plan | str:
        """Place ``queue`` in order, each at its first free spot; the plan, or the id of the
        first body left without room."""
        shapes = list(shapes)
        plan: Plan = {}
        for body_id in queue:
            free = self.free(self.state.bodies[body_id], shapes)
            if not free:
                return body_id
            plan[body_id] = free[0][1]
            shapes.append(free[0][1])
        return plan

    def no_room(self, body_id: str) -> str:
        """Why ``body_id`` cannot be placed."""
        body = self.state.bodies[body_id]
        side = self.sides[body.side]
        open_note = " (counted in Open Stance, as its stance is asked; give it stance: close " \
            "if it only fits closed)" if body.id in self.pending else ""
        return (f"no room to deploy {body_id} in the {side.deployment_depth:g} in zone along "
                f"the {side.edge} edge of {side.name}{open_note} (T5-DEC-01)")

    def decided(self, body: Body) -> None:
        """The body's stance has been chosen: it now counts at its own footprint."""
        self.pending.discard(body.id)

    def options(self, body: Body) -> list[tuple[Point, Plan]]:
        """The spots the body may take, each with the plan for the bodies after it."""
        rest = self.queue[self.queue.index(body.id) + 1:]
        kept = {i: self.plan[i] for i in rest}
        shapes = self.shapes()
        out: list[tuple[Point, Plan]] = []
        for spot, shape in self.free(body, shapes):
            if not any(touching(shape, planned) for planned in kept.values()):
                out.append((spot, kept))
                continue
            plan = self.make_plan(rest, [*shapes, shape])
            if not isinstance(plan, str):
                out.append((spot, plan))
        return out

    def place(self, body: Body, spot: Point, plan: Plan) -> None:
        """Put the body at ``spot``; ``plan`` places the bodies after it."""
        body.centre = spot
        self.queue.remove(body.id)
        self.placed.append(body.id)
        self.plan = plan


class NoRoomError(ScenarioError):
    """A body the scenario leaves unplaced has no room in its zone; ``body`` is its id."""

    def __init__(self, message: str, body: str) -> None:
        super().__init__(message)
        self.body = body


def choose_position(ctx: Ctx, body: Body, room: Deployment) -> None:
    """T5-DEC-01: the owner picks a spot of its deployment zone that leaves room for the
    bodies still to be placed."""
    choices = room.options(body)
    if not choices:  # only if the plan was not checked first (validation makes it)
        raise NoRoomError(room.no_room(body.id), body.id)
    options = [Order.of("deploy", point_text(p)) for p, _ in choices]
    order = ctx.ask(
        body.side, "deploy", options, prompt=f"where {body.name} deploys", subject=body.id,
        default=options[len(options) // 2],
    )
    spot, plan = choices[options.index(order)]
    room.place(body, spot, plan)


def turn_order(ctx: Ctx, bodies: Sequence[Body]) -> list[str]:
    """Highest initiative first; ties alternate sides starting with the defender, and each
    side orders its own tied bodies (T5-INIT-02, T5-INIT-03, T5-AMB-03, T5-DEC-04)."""
    state = ctx.state
    values = sorted({b.initiative for b in bodies}, reverse=True)
    order: list[str] = []
    for value in values:
        group = [b for b in bodies if b.initiative == value]
        queues = {side: own_order(ctx, [b for b in group if b.side == side])
                  for side in state.sides}
        turn = state.defender
        while any(queues.values()):
            if not queues[turn]:
                turn = state.enemy_of(turn)
            order.append(queues[turn].pop(0))
            turn = state.enemy_of(turn)
    return order


def own_order(ctx: Ctx, tied: list[Body]) -> list[str]:
    """The owner's order of its own tied bodies (default: setup order; T5-DEC-04)."""
    remaining = [b.id for b in tied]
    chosen: list[str] = []
    while len(remaining) > 1:
        side = tied[0].side
        options = [Order.of("next", i) for i in remaining]
        order = ctx.ask(
            side, "tie_order", options, prompt="which of your tied units acts next",
            default=options[0],
        )
        picked = str(order.args[0])
        chosen.append(picked)
        remaining.remove(picked)
    return chosen + remaining
