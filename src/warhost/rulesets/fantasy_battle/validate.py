"""Setup rules the schema cannot express: army building, battlefield data and deployment.

:func:`check_scenario` raises a :class:`ScenarioError` whose ``path`` names the offending field
(``('sides', 0, 'squads', 1, 'members', 2, 'at')``); the scenario loader turns it into the field
text and the line of the file. The first problem found is reported.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from warhost.core.errors import FieldPath, fail
from warhost.geometry.grid import Grid, Square, footprint, space_distance
from warhost.rulesets.fantasy_battle.construct import piece_squares
from warhost.rulesets.fantasy_battle.model import FantasyBattleScenario, SideSpec
from warhost.rulesets.fantasy_battle.setup import (
    NoRoomError,
    Room,
    build_grid,
    new_state,
    start_area,
    unit_size,
)
from warhost.rulesets.fantasy_battle.state import CAVALRY_CLASSES, INFANTRY_CLASSES
from warhost.rulesets.fantasy_battle.terrain import TERRAIN

ALLOWED_CLASSES = {"infantry": INFANTRY_CLASSES, "cavalry": CAVALRY_CLASSES}  # FB-RANK-03
SQUAD_SIZE = {"infantry": 4, "cavalry": 2}  # FB-SQUAD-02, FB-AMB-07
DIAGONAL_FACINGS = ("northeast", "northwest", "southeast", "southwest")


@dataclass(frozen=True)
class Entry:
    """One unit of the scenario, squad member or individual, with where it is written."""

    side: int
    path: FieldPath
    id: str
    name: str | None
    rank: str
    type: str
    cls: str
    at: Square | None
    facing: str | None
    unique: bool
    fate: int
    squad: int | None = None


def entries(model: FantasyBattleScenario) -> Iterator[Entry]:
    """Every unit in scenario order: each side's squad members, then its Elite/Champions."""
    for s, side in enumerate(model.sides):
        for q, squad in enumerate(side.squads):
            for m, member in enumerate(squad.members):
                yield Entry(
                    s, ("sides", s, "squads", q, "members", m), member.id, member.name,
                    "standard", squad.type, member.unit_class,
                    tuple(member.at) if member.at is not None else None,  # type: ignore[arg-type]
                    member.facing, member.unique, member.fate_points, q,
                )
        for u, unit in enumerate(side.units):
            yield Entry(
                s, ("sides", s, "units", u), unit.id, unit.name, unit.rank, unit.type,
                unit.unit_class,
                tuple(unit.at) if unit.at is not None else None,  # type: ignore[arg-type]
                unit.facing, unit.unique, unit.fate_points,
            )


def article(word: str) -> str:
    """``an infantry``, ``a cavalry``."""
    return ("an " if word[:1].lower() in "aeiou" else "a ") + word


def sq_text(sq: Square | tuple[int, ...]) -> str:
    """``(3, 4)``."""
    return f"({sq[0]}, {sq[1]})"


def check_scenario(model: FantasyBattleScenario) -> None:
    """Every setup rule of `fantasy-battle` the schema cannot check; raise on the first breach."""
    check_sides(model)
    check_ids(model)
    units = list(entries(model))
    check_squads(model)
    for entry in units:
        check_unit(model, entry)
    check_unique_names(units)
    check_individuals(model)
    check_counts(model, units)
    check_first_player(model)
    check_battlefield(model)
    check_start_areas(model)
    check_deployment(model, units)


# --------------------------------------------------------------------------- army building


def check_sides(model: FantasyBattleScenario) -> None:
    """Two sides with distinct, non-empty names (FB-GEN-01)."""
    seen: dict[str, int] = {}
    for s, side in enumerate(model.sides):
        if not side.name.strip():
            fail("a side needs a name", "sides", s, "name")
        if side.name in seen:
            fail(f"both sides are named {side.name!r}; side names must differ",
                 "sides", s, "name")
        seen[side.name] = s


def check_ids(model: FantasyBattleScenario) -> None:
    """Squad and unit ids: single words, unique across the whole scenario (orders name them)."""
    seen: dict[str, str] = {}

    def note(ident: str, what: str, *path: str | int) -> None:
        if not ident or any(ch.isspace() for ch in ident):
            fail(f"{what} id {ident!r} must be one word without spaces (orders name it)",
                 *path, "id")
        if ident in seen:
            fail(f"id {ident!r} is used twice ({seen[ident]} and {what}); ids must be unique",
                 *path, "id")
        seen[ident] = what

    for s, side in enumerate(model.sides):
        for q, squad in enumerate(side.squads):
            note(squad.id, "squad", "sides", s, "squads", q)
            for m, member in enumerate(squad.members):
                note(member.id, "unit", "sides", s, "squads", q, "members", m)
        for u, unit in enumerate(side.units):
            note(unit.id, "unit", "sides", s, "units", u)


def check_squads(model: FantasyBattleScenario) -> None:
    """A squad is exactly 4 Infantry or 2 Cavalry at army building (FB-SQUAD-02, FB-AMB-07)."""
    for s, side in enumerate(model.sides):
        for q, squad in enumerate(side.squads):
            want = SQUAD_SIZE[squad.type]
            if len(squad.members) != want:
                fail(f"squad {squad.id!r} has {plural(len(squad.members), 'member')}; "
                     f"{'an infantry' if squad.type == 'infantry' else 'a cavalry'} squad has "
                     f"exactly {want} (FB-SQUAD-02)", "sides", s, "squads", q, "members")


def check_unit(model: FantasyBattleScenario, entry: Entry) -> None:
    """Class for type, facing, Unique and Fate Points of one unit."""
    allowed = ALLOWED_CLASSES[entry.type]
    if entry.cls not in allowed:  # FB-RANK-03
        fail(f"unit {entry.id!r}: class {entry.cls!r} is not {article(entry.type)} class "
             f"({', '.join(allowed)})", *entry.path, "class")
    if entry.facing is not None:  # FB-PIKE-01, FB-AMB-23
        if entry.cls != "pike":
            fail(f"unit {entry.id!r}: only Pikes have a facing, not {article(entry.cls)}",
                 *entry.path, "facing")
        if entry.facing in DIAGONAL_FACINGS and model.options.pike_facings != 8:
            fail(f"unit {entry.id!r}: diagonal facing {entry.facing!r} needs option "
                 f"pike_facings: 8 (default: north, south, east or west)",
                 *entry.path, "facing")
    if entry.unique and entry.fate < 1:  # FB-FATE-01, FB-AMB-04
        fail(f"unit {entry.id!r} is Unique and needs at least 1 Fate Point",
             *entry.path, "fate_points")
    if not entry.unique and entry.fate > 0:
        fail(f"unit {entry.id!r} has {entry.fate} Fate Point(s) but only Unique units have "
             f"Fate Points (set unique: true)", *entry.path, "fate_points")


def check_unique_names(units: list[Entry]) -> None:
    """An army may not hold two copies of the same Unique profile (FB-AMB-04)."""
    seen: dict[tuple[int, str], str] = {}
    for entry in units:
        if not entry.unique:
            continue
        key = (entry.side, entry.name or entry.id)
        if key in seen:
            fail(f"Unique units {seen[key]!r} and {entry.id!r} share the name {key[1]!r}; "
                 f"a side may field only one of each Unique unit",
                 *entry.path, "name" if entry.name else "id")
        seen[key] = entry.id


def check_individuals(model: FantasyBattleScenario) -> None:
    """Feats only on Champions, 1-3 of them; abilities (FB-FEAT-01, FB-AMB-05, FB-AMB-36)."""
    options = model.options
    for s, side in enumerate(model.sides):
        for u, unit in enumerate(side.units):
            path = ("sides", s, "units", u)
            if unit.rank != "champion" and unit.feats:
                fail(f"unit {unit.id!r}: only Champions have Heroic Feats, not "
                     f"{article(unit.rank.capitalize())}",
                     *path, "feats")
            if (unit.rank == "champion" and not unit.feats
                    and options.feat_selection != "roll_d6"):
                fail(f"Champion {unit.id!r} needs 1 to 3 Heroic Feats (or option "
                     f"feat_selection: roll_d6)", *path, "feats")
            if options.require_special_abilities and not unit.abilities:
                fail(f"{unit.rank.capitalize()} {unit.id!r} needs at least one special ability "
                     f"(option require_special_abilities)", *path, "abilities")


def plural(count: int, word: str) -> str:
    """``1 squad``, ``2 squads``."""
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def explain_activations(side: SideSpec) -> str:
    """``2 squads + 3 Elite/Champion units``."""
    return f"{plural(len(side.squads), 'squad')} + {plural(len(side.units), 'Elite/Champion unit')}"


def activation_count(side: SideSpec) -> int:
    """Squads plus Elite and Champion units (FB-SETUP-02)."""
    return len(side.squads) + len(side.units)


def check_counts(model: FantasyBattleScenario, units: list[Entry]) -> None:
    """Equal activations (FB-SETUP-02) and equal units of each rank (FB-AMB-12)."""
    a, b = model.sides
    if not model.options.allow_unequal_activations:
        na, nb = activation_count(a), activation_count(b)
        if na != nb:
            fail(f"unequal activations: {a.name!r} has {na} ({explain_activations(a)}) but "
                 f"{b.name!r} has {nb} ({explain_activations(b)}); both sides need the same "
                 f"number (FB-SETUP-02) unless option allow_unequal_activations is set",
                 "sides", 1)
    if not model.options.per_side_rank_counts:
        for rank in ("standard", "elite", "champion"):
            ca = sum(1 for e in units if e.side == 0 and e.rank == rank)
            cb = sum(1 for e in units if e.side == 1 and e.rank == rank)
            if ca != cb:
                fail(f"unequal numbers of {rank.capitalize()} units: {a.name!r} has {ca}, "
                     f"{b.name!r} has {cb}; both sides field the same number of each rank "
                     f"(FB-AMB-12) unless option per_side_rank_counts is set", "sides", 1)


def check_first_player(model: FantasyBattleScenario) -> None:
    """``first_player`` is random, A, B or a side's name (FB-AMB-13)."""
    wanted = model.options.first_player
    names = [side.name for side in model.sides]
    if wanted not in ("random", "A", "B", *names):
        fail(f"first_player {wanted!r} is not 'random', 'A', 'B' or a side name "
             f"({', '.join(repr(n) for n in names)})", "options", "first_player")


# --------------------------------------------------------------------------- the battlefield


def check_battlefield(model: FantasyBattleScenario) -> None:
    """Terrain, hills and victory areas on the map; constructed-battlefield pieces."""
    bf = model.battlefield
    size = f"map is {bf.width}×{bf.height}"

    def on_map(sq: tuple[int, ...]) -> bool:
        return 0 <= sq[0] < bf.width and 0 <= sq[1] < bf.height

    for t, area in enumerate(bf.terrain):
        for k, sq in enumerate(area.squares):
            if not on_map(sq):
                fail(f"terrain square {sq_text(sq)} is off the map ({size})",
                     "battlefield", "terrain", t, "squares", k)
        for k, rect in enumerate(area.rects):
            for corner in rect:
                if not on_map(corner):
                    fail(f"terrain rectangle corner {sq_text(corner)} is off the map ({size})",
                         "battlefield", "terrain", t, "rects", k)
    for h, hill in enumerate(bf.hills):
        for corner in hill.top:
            if not on_map(corner):
                fail(f"hill top corner {sq_text(corner)} is off the map ({size})",
                     "battlefield", "hills", h, "top")
    for v, victory in enumerate(bf.victory_areas):
        for k, sq in enumerate(victory.squares):
            if not on_map(sq):
                fail(f"victory area square {sq_text(sq)} is off the map ({size})",
                     "battlefield", "victory_areas", v, "squares", k)
    if bf.kind == "constructed":
        check_constructed(model)
    else:
        for s, side in enumerate(model.sides):
            if side.terrain_pieces:
                fail("terrain pieces are placed only on a constructed battlefield "
                     "(battlefield.kind: constructed)", "sides", s, "terrain_pieces")


def check_constructed(model: FantasyBattleScenario) -> None:
    """A constructed battlefield starts blank and each player brings his pieces
    (FB-SETUP-04, FB-SETUP-05, FB-AMB-19, FB-AMB-21)."""
    bf = model.battlefield
    options = model.options
    if bf.terrain:
        fail("a constructed battlefield starts blank (FB-SETUP-05); the players' "
             "terrain_pieces make its terrain", "battlefield", "terrain")
    if bf.hills:
        fail("a constructed battlefield starts blank (FB-SETUP-05); bring a hill as a "
             "terrain piece (type: hill)", "battlefield", "hills")
    want = options.terrain_pieces_per_player
    for s, side in enumerate(model.sides):
        if side.start_area is not None:
            fail("on a constructed battlefield the start areas are the back two rows "
                 "(FB-AMB-21); remove start_area", "sides", s, "start_area")
        if len(side.terrain_pieces) != want:
            fail(f"side {side.name!r} brings {len(side.terrain_pieces)} terrain piece(s); each "
                 f"player brings exactly {want} (option terrain_pieces_per_player)",
                 "sides", s, "terrain_pieces")
        for p, piece in enumerate(side.terrain_pieces):
            path = ("sides", s, "terrain_pieces", p)
            if piece.type == "hill":
                if piece.hill_size is None:
                    fail("a hill piece needs hill_size: [width, height] of its top",
                         *path, "hill_size")
                if piece.shape:
                    fail("a hill piece takes hill_size, not shape", *path, "shape")
            else:
                if piece.hill_size is not None:
                    fail("only a hill piece takes hill_size", *path, "hill_size")
                if piece.type == "clear":
                    fail("a terrain piece cannot be clear terrain", *path, "type")
                if not piece.shape:
                    fail("a terrain piece needs a shape: a list of [x, y] squares", *path,
                         "shape")
                if len(set(map(tuple, piece.shape))) != len(piece.shape):
                    fail("a terrain piece's shape lists a square twice", *path, "shape")
                if not connected({(sq[0], sq[1]) for sq in piece.shape}):
                    fail("a terrain piece's squares must form one connected group "
                         "(FB-AMB-19)", *path, "shape")
            count = len(piece_squares(piece))
            limit = options.max_terrain_piece_squares
            if limit is not None and count > limit:
                fail(f"terrain piece has {count} squares; the most allowed is {limit} "
                     f"(option max_terrain_piece_squares)", *path)


def connected(squares: set[Square]) -> bool:
    """True when the squares form one 8-neighbour group."""
    if not squares:
        return True
    start = min(squares)
    seen = {start}
    todo = [start]
    while todo:
        x, y = todo.pop()
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                nxt = (x + dx, y + dy)
                if nxt in squares and nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
    return len(seen) == len(squares)


def check_start_areas(model: FantasyBattleScenario) -> None:
    """Explicit start areas lie on the map and do not overlap."""
    bf = model.battlefield
    areas = []
    for s, side in enumerate(model.sides):
        if side.start_area is not None:
            for corner in side.start_area:
                if not (corner[0] < bf.width and corner[1] < bf.height):
                    fail(f"start area corner {sq_text(corner)} is off the map "
                         f"(map is {bf.width}×{bf.height})", "sides", s, "start_area")
        areas.append(start_area(side, s, bf.width, bf.height))
    common = areas[0] & areas[1]
    if common:
        fail(f"the two start areas overlap at {sq_text(min(common))}", "sides", 1, "start_area")


# --------------------------------------------------------------------------- deployment


def describe_area(side: SideSpec, index: int, height: int) -> str:
    """The start area in words."""
    if side.start_area is None:
        rows = (0, 1) if index == 0 else (height - 2, height - 1)
        return f"rows {rows[0]}-{rows[1]}"
    (x0, y0), (x1, y1) = side.start_area
    return (f"x {min(x0, x1)}-{max(x0, x1)}, y {min(y0, y1)}-{max(y0, y1)}")


def deploy_level(grid: Grid, sq: Square) -> int:
    """Level of a deployment square (slope counts as ground, FB-AMB-46)."""
    return 0 if grid.terrain(sq) == "slope" else grid.level(sq)


def check_deployment(model: FantasyBattleScenario, units: list[Entry]) -> None:
    """Every given ``at``: on the map, on legal terrain, inside the start area, not on another
    unit (FB-SETUP-12, FB-AMB-22); squads deployed together (FB-SETUP-13, FB-AMB-08)."""
    bf = model.battlefield
    grid = build_grid(model)
    areas = [start_area(side, s, bf.width, bf.height) for s, side in enumerate(model.sides)]
    occupied: dict[Square, str] = {}
    spaces: dict[str, tuple[Square, ...]] = {}
    for entry in units:
        if entry.at is None:
            continue
        path = (*entry.path, "at")
        size = unit_size(entry.type, model.options)
        space = footprint(entry.at, size)
        base = " (its 2×2 base covers " + ", ".join(sq_text(sq) for sq in space) + ")" \
            if size == 2 else ""
        for sq in space:
            if not grid.contains(sq):
                fail(f"unit {entry.id!r} at {sq_text(entry.at)} is off the map (map is "
                     f"{bf.width}×{bf.height}){base}", *path)
        for sq in space:
            kind = TERRAIN[grid.terrain(sq)]
            if kind.move_cost is None or not kind.can_end:
                fail(f"unit {entry.id!r} at {sq_text(entry.at)} would stand on "
                     f"{kind.name} terrain at {sq_text(sq)}; no unit may be deployed on "
                     f"blocking, cliff, slope or deep water squares", *path)
        if len({deploy_level(grid, sq) for sq in space}) > 1:
            fail(f"unit {entry.id!r} at {sq_text(entry.at)}: its 2×2 base straddles two "
                 f"levels", *path)
        side = model.sides[entry.side]
        outside = [sq for sq in space if sq not in areas[entry.side]]
        if outside:
            fail(f"unit {entry.id!r} at {sq_text(entry.at)} is outside the start area of "
                 f"{side.name!r} ({describe_area(side, entry.side, bf.height)}){base}", *path)
        for sq in space:
            if sq in occupied:
                fail(f"units {occupied[sq]!r} and {entry.id!r} both occupy {sq_text(sq)}",
                     *path)
        for sq in space:
            occupied[sq] = entry.id
        spaces[entry.id] = space
    for s, side in enumerate(model.sides):
        need = sum(unit_size(e.type, model.options) ** 2
                   for e in units if e.side == s and e.at is None)
        free = sum(1 for sq in areas[s] if grid.contains(sq) and sq not in occupied
                   and TERRAIN[grid.terrain(sq)].can_end)
        if need > free:
            fail(f"the units of {side.name!r} without a position need {need} squares but only "
                 f"{free} free squares are left in its start area", "sides", s)
    check_squad_deployment(model, units, grid, spaces)
    check_room(model, units)


def check_room(model: FantasyBattleScenario, units: list[Entry]) -> None:
    """The units without a position can all be deployed, one after another, as in a battle
    (:class:`~warhost.rulesets.fantasy_battle.setup.Room`): enough free squares is not enough
    when 2×2 bases must fit between the units already there."""
    try:
        Room(new_state(model))
    except NoRoomError as exc:
        path = next(e.path for e in units if e.id == exc.unit)
        fail(exc.message, *path, "at")


def check_squad_deployment(
    model: FantasyBattleScenario,
    units: list[Entry],
    grid: Grid,
    spaces: dict[str, tuple[Square, ...]],
) -> None:
    """Each member of a fully placed squad touches a squad-mate (FB-SETUP-13, FB-AMB-08);
    with ``squad_deploy_connected`` the squad forms one group."""
    for s, side in enumerate(model.sides):
        for q, squad in enumerate(side.squads):
            members = [e for e in units if e.side == s and e.squad == q]
            if len(members) < 2 or any(e.id not in spaces for e in members):
                continue

            def touching(a: Entry, b: Entry) -> bool:
                sa, sb = spaces[a.id], spaces[b.id]
                return (space_distance(sa, sb) == 1
                        and deploy_level(grid, sa[0]) == deploy_level(grid, sb[0]))

            for m, entry in enumerate(members):
                if not any(touching(entry, other) for other in members if other is not entry):
                    fail(f"squad {squad.id!r}: {entry.id!r} at {sq_text(entry.at or (0, 0))} "
                         f"is not adjacent to another unit of its squad (FB-SETUP-13)",
                         "sides", s, "squads", q, "members", m, "at")
            if model.options.squad_deploy_connected:
                seen = {members[0].id}
                todo = [members[0]]
                while todo:
                    current = todo.pop()
                    for other in members:
                        if other.id not in seen and touching(current, other):
                            seen.add(other.id)
                            todo.append(other)
                if len(seen) != len(members):
                    fail(f"squad {squad.id!r} is deployed in separate groups; option "
                         f"squad_deploy_connected asks for one connected group",
                         "sides", s, "squads", q, "members")

