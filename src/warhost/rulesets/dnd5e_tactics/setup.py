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
    Region,
    edge_bearing,
    formation,
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


def new_state(model: Dnd5eTacticsScenario, battle: Battle) -> T5State:
    """The state after deployment, with the turn order fixed."""
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
    battle.state = state
    ctx = Ctx(state, battle)
    deploy(ctx, model, placed)
    state.order = turn_order(ctx, list(bodies.values()))
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
            if not placed[body_id]:  # after the stance: it decides the footprint's size
                choose_position(ctx, body, side)
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


def deployment_spots(state: T5State, body: Body, side: SideSpec) -> list[tuple[float, float]]:
    """Free footprint centres in the side's deployment zone, DEPLOY_STEP apart."""
    board = state.board
    depth = min(side.deployment_depth, board.height if side.edge in ("north", "south")
                else board.width)
    along = board.width if side.edge in ("north", "south") else board.height
    spots: list[tuple[float, float]] = []
    inset = depth / 2
    steps = int(along // DEPLOY_STEP)
    for i in range(steps):
        t = (i + 0.5) * along / steps
        point = {
            "south": (t, inset), "north": (t, board.height - inset),
            "west": (inset, t), "east": (board.width - inset, t),
        }[side.edge]
        spots.append(point)
    others = [b for b in state.bodies.values() if b is not body and b.centre != (0.0, 0.0)]
    free = []
    for spot in spots:
        shape = footprint_at(body, spot)
        if not board.contains(shape):
            continue
        if any(r.impassable and r.polygon.intersects(shape) for r in state.regions):
            continue
        if any(gap(shape, o.footprint) <= 0.0 for o in others):
            continue
        free.append(spot)
    return free


def footprint_at(body: Body, centre: tuple[float, float]) -> Polygon:
    """The body's footprint if its centre were ``centre``."""
    if isinstance(body, Unit):
        return formation(body.members, body.files, PITCH[body.stance], centre, body.facing).polygon
    return single_footprint(centre, 0.5, body.facing)


def choose_position(ctx: Ctx, body: Body, side: SideSpec) -> None:
    """T5-DEC-01: the owner picks a free spot in its deployment zone."""
    spots = deployment_spots(ctx.state, body, side)
    if not spots:
        raise ScenarioError(f"no room to deploy {body.id} in {side.name}'s zone", field="at")
    options = [Order.of("deploy", point_text(p)) for p in spots]
    order = ctx.ask(
        side.name, "deploy", options, prompt=f"where {body.name} deploys", subject=body.id,
        default=options[len(options) // 2],
    )
    body.centre = parse_point(order.args[0])


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
