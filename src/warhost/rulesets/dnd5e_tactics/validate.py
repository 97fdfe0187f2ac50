"""Setup rules of a `dnd5e-tactics` scenario that the schema cannot express.

:func:`check_scenario` raises :class:`warhost.core.errors.SetupError` whose ``path`` names the
offending field; the loader turns it into the field text and the line. The first problem found
is reported.
"""

from __future__ import annotations

from collections.abc import Iterator

from warhost.core.errors import FieldPath, fail
from warhost.rulesets.dnd5e_tactics.model import Dnd5eTacticsScenario, StatBlock
from warhost.rulesets.dnd5e_tactics.setup import (
    Deployment,
    NoRoomError,
    Shape,
    boxed,
    footprint_at,
    initial_state,
    make_region,
    touching,
)


def check_scenario(model: Dnd5eTacticsScenario) -> None:
    """Check sides, ids, stat blocks, terrain and positions."""
    names = [s.name for s in model.sides]
    if names[0] == names[1]:
        fail("the two sides share a name", "sides", 1, "name")
    if model.defender not in names:
        fail(f"the defender must be one of the sides: {', '.join(names)} (T5-AMB-03)", "defender")
    if model.sides[0].edge == model.sides[1].edge:
        fail("the two sides deploy on the same edge", "sides", 1, "edge")
    seen: dict[str, FieldPath] = {}
    for i, side in enumerate(model.sides):
        if not side.units and not side.singles:
            fail("a side needs at least one unit or Single Character", "sides", i, "units")
        ids = [("units", j, u.id) for j, u in enumerate(side.units)]
        ids += [("singles", j, c.id) for j, c in enumerate(side.singles)]
        for kind, j, body_id in ids:
            path: FieldPath = ("sides", i, kind, j)
            if body_id in seen:
                fail(f"id {body_id!r} is used twice", *path, "id")
            seen[body_id] = path
    for path, stats in _stat_blocks(model):
        _check_stats(stats, path)
    for k, spec in enumerate(model.terrain):
        if (spec.rect is None) == (spec.polygon is None):
            fail("give exactly one of rect or polygon", "terrain", k)
        if spec.rect is not None and (spec.rect[2] <= 0 or spec.rect[3] <= 0):
            fail("a rectangle needs a positive width and height", "terrain", k, "rect")
        region = make_region(spec, k)
        if not region.polygon.is_valid or region.polygon.area <= 0:
            fail("the polygon is not a simple shape with an area", "terrain", k, "polygon")
    _check_positions(model)


def _stat_blocks(model: Dnd5eTacticsScenario) -> Iterator[tuple[FieldPath, StatBlock]]:
    for i, side in enumerate(model.sides):
        for j, unit in enumerate(side.units):
            yield ("sides", i, "units", j, "member"), unit.member
            yield ("sides", i, "units", j, "commander"), unit.commander
        for j, single in enumerate(side.singles):
            yield ("sides", i, "singles", j, "stats"), single.stats


def _check_stats(stats: StatBlock, path: FieldPath) -> None:
    kinds = {a.name: a.kind for a in stats.attacks}
    for k, name in enumerate(stats.multiattack):
        if name not in kinds:
            fail(f"multiattack names {name!r}, which is not one of its attacks "
                 f"({', '.join(sorted(kinds)) or 'none'})", *path, "multiattack", k)
        if kinds[name] != kinds[stats.multiattack[0]]:
            fail(f"multiattack mixes melee and ranged attacks ({stats.multiattack[0]!r} and "
                 f"{name!r}); list only melee or only ranged attacks", *path, "multiattack", k)
    for k, attack in enumerate(stats.attacks):
        if attack.kind == "ranged" and attack.range <= 0:
            fail("a ranged attack needs a range in feet", *path, "attacks", k, "range")
        if attack.long_range is not None and attack.long_range < attack.range:
            fail("long_range must be at least range", *path, "attacks", k, "long_range")
    if stats.mount is not None:
        mount_melee = {a.name for a in stats.mount.attacks if a.kind == "melee"}
        for k, name in enumerate(stats.mount.multiattack):
            if name not in mount_melee:
                fail(f"mount multiattack names {name!r}, which is not one of its melee attacks",
                     *path, "mount", "multiattack", k)
    names = [a.name for a in stats.areas] + [h.name for h in stats.heals]
    for k, name in enumerate(names):
        if " " in name:
            fail("area and heal names may not contain spaces (orders name them)",
                 *path, "areas" if k < len(stats.areas) else "heals",
                 k if k < len(stats.areas) else k - len(stats.areas), "name")


def _check_positions(model: Dnd5eTacticsScenario) -> None:
    """Every given position keeps the footprint on the table, off impassable terrain and clear
    of the bodies before it; then the bodies left unplaced must all find room, as at the start
    of a battle (:class:`~warhost.rulesets.dnd5e_tactics.setup.Deployment`). A unit whose
    stance is asked counts at its Open Stance footprint, the larger one."""
    state, placed = initial_state(model)
    pending = {u.id for s in model.sides for u in s.units if u.stance is None}
    paths = {body_id: path for path, body_id in _body_paths(model)}
    given = {u.id: u.at for s in model.sides for u in s.units}
    given.update({c.id: c.at for s in model.sides for c in s.singles})
    shapes: list[tuple[str, Shape]] = []
    for body_id, body in state.bodies.items():
        if not placed[body_id]:
            continue
        shape = footprint_at(body, body.centre, "open" if body_id in pending else None)
        at = (*paths[body_id], "at")
        if not state.board.contains(shape):
            fail(f"{body_id} at {list(given[body_id] or ())} does not fit on the {model.board.width:g} x "
                 f"{model.board.height:g} in board", *at)
        for region in state.regions:
            if region.impassable and region.polygon.intersects(shape):
                fail(f"{body_id} stands on impassable terrain ({region.name})", *at)
        for other, other_shape in shapes:
            if touching(boxed(shape), other_shape):
                fail(f"{body_id} overlaps {other}", *at)
        shapes.append((body_id, boxed(shape)))
    try:
        Deployment(state, model, placed)
    except NoRoomError as exc:
        fail(exc.message, *paths[exc.body])


def _body_paths(model: Dnd5eTacticsScenario) -> Iterator[tuple[FieldPath, str]]:
    for i, side in enumerate(model.sides):
        for j, unit in enumerate(side.units):
            yield ("sides", i, "units", j), unit.id
        for j, single in enumerate(side.singles):
            yield ("sides", i, "singles", j), single.id
