"""Setup rules of a `dnd35-wars` scenario that the schema cannot express (W35-ARMY, W35-PLACE,
W35-AMB-36/63/70/71/93/95, W35-DEC-03..09/38).

:func:`check_scenario` raises through :func:`warhost.core.errors.fail` with the path of the
offending field, so the loader names its line. The first problem found is reported.
:func:`warnings` lists what the rules advise against without forbidding (W35-AMB-72).

Every position is in the file, so the 6-square rule (W35-PLACE-07) is checked here whatever
the placement roll-off at setup decides: the distance between the two armies is the same
whichever of them placed second.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from warhost.core.decisions import did_you_mean
from warhost.core.errors import FieldPath, fail
from warhost.geometry.grid import Square, chebyshev, chebyshev_field, formation_ok
from warhost.rulesets.dnd35_wars import areas, spellbook, tables
from warhost.rulesets.dnd35_wars.derive import derive
from warhost.rulesets.dnd35_wars.model import (
    MAP_AREA_MAX,
    Area,
    CharacterSpec,
    Creature,
    Dnd35WarsScenario,
    UnitSpec,
)
from warhost.rulesets.dnd35_wars.setup import entry_shape, unit_squares

COUNTERS_MAX = 20_000
"""The most counters a battle may put on the map (a 1,000-unit army of 16 counters a side)."""

ARMY_UNITS_ADVISED = 10
"""W35-ARMY-02: more units than this in one army draws a warning (W35-AMB-72)."""

SECOND_SIDE_GAP = 6
"""W35-PLACE-07: the side placing second keeps this far from every opposing unit."""

ALLIED_MONSTER_GAP = 8
"""W35-PLACE-10/11: a monster keeps this far from the enemy's (or everyone's) units."""

UNALLIED_FALLBACK_GAP = 12
"""W35-PLACE-12: an unallied monster with no equidistant square keeps this far from the army
picked at random."""


@dataclass
class _Placed:
    """The squares every unit holds at the start, per side."""

    units: list[dict[str, list[Square]]] = field(default_factory=lambda: [{}, {}])
    counters: dict[str, int] = field(default_factory=dict)
    taken: dict[Square, str] = field(default_factory=dict)
    fields: dict[int, dict[Square, int]] = field(default_factory=dict)

    def squares(self, side: int) -> list[Square]:
        return [sq for squares in self.units[side].values() for sq in squares]


def check_scenario(model: Dnd35WarsScenario) -> None:
    """Check sides, ids, the map, every unit's squares and formation, the distances between
    the armies, the monsters' squares and where NPCs and PCs start."""
    names = [s.name for s in model.sides]
    if names[0] == names[1]:
        fail(f"both sides are called {names[0]!r}", "sides", 1, "name")
    if model.aggressor is not None and model.aggressor not in names:
        fail(f"aggressor names {model.aggressor!r}, not one of the sides: {', '.join(names)}",
             "aggressor")
    width, height = model.map.width, model.map.height
    if width * height > MAP_AREA_MAX:
        fail(f"a {width}x{height} map has {width * height:,} squares; at most "
             f"{MAP_AREA_MAX:,}", "map")
    for k, area in enumerate(model.map.terrain):
        _on_map(model, area.rect, ("map", "terrain", k, "rect"))
    for k, section in enumerate(model.map.structures):
        _on_map(model, section.rect, ("map", "structures", k, "rect"))
    for i, side in enumerate(model.sides):
        if not side.units:
            fail(f"side {side.name!r} has no unit; an army needs at least one (W35-ARMY-01)",
                 "sides", i, "units")
        for k, zone in enumerate(side.forbidden):
            _on_map(model, zone.rect, ("sides", i, "forbidden", k, "rect"))
    _spells(model)
    _siege_units(model)
    placed = _units(model)
    _walls(model, placed)
    _separation(model, placed)
    _forbidden(model, placed)
    _faster_first(model, placed)
    _monsters(model, placed)
    _characters(model, placed)


def warnings(model: Dnd35WarsScenario) -> list[str]:
    """What the rules advise against without forbidding it: an army of more than 10 units
    (W35-ARMY-02, W35-AMB-72)."""
    return [f"{side.name} fields {len(side.units)} units; an army should have at most "
            f"{ARMY_UNITS_ADVISED} (4 to 6 recommended, W35-ARMY-02)"
            for side in model.sides if len(side.units) > ARMY_UNITS_ADVISED]


def _on_map(model: Dnd35WarsScenario, rect: tuple[tuple[int, int], tuple[int, int]],
            path: FieldPath) -> None:
    for sq in rect:
        if not (sq[0] < model.map.width and sq[1] < model.map.height):
            fail(f"square {list(sq)} is off the {model.map.width}x{model.map.height} map", *path)


def _in_area(sq: Square, area: Area) -> bool:
    (x0, y0), (x1, y1) = area.rect
    return min(x0, x1) <= sq[0] <= max(x0, x1) and min(y0, y1) <= sq[1] <= max(y0, y1)


def _reinforcement(spec: UnitSpec) -> bool:
    return spec.enters_round is not None and spec.enters_round > 1


def _fits_a_square(spec: UnitSpec, scale: int, path: FieldPath) -> None:
    """A unit's counter stands for the creatures in one square and has one creature's hit
    points, so a member that covers several squares at this scale (an ``NxN*`` cell of the
    size table, W35-SIZE-02) cannot be a unit member: the error says what to do instead."""
    size = tables.member_size(spec.creature.size, spec.mount is not None, spec.chariot)
    side = tables.span(size, scale)
    if side > 1:
        fail(f"a {size} creature covers {side}x{side} squares at the {scale}-ft scale "
             f"(W35-SIZE-02), too big for a unit's counter: choose a larger scale, or field "
             f"it as a monster (one square at any scale, W35-MON-04)", *path, "creature", "size")


def _machine_crew(spec: UnitSpec, path: FieldPath) -> None:
    """A siege tower unit is exactly 70 Medium or Small creatures on one square, in play from
    the start (W35-TOWER-05/08/09, W35-AMB-77); a battering ram unit has exactly the crew its
    members' size needs (W35-RAM-02/06, W35-AMB-75)."""
    size = tables.member_size(spec.creature.size, spec.mount is not None, spec.chariot)
    if spec.siege_tower and spec.ram:
        fail(f"unit {spec.id!r} cannot be both a siege tower and a ram unit", *path, "ram")
    if spec.siege_tower:
        if spec.count != tables.TOWER_CREATURES:
            fail(f"a siege tower unit holds exactly {tables.TOWER_CREATURES} creatures "
                 f"(W35-TOWER-08), not {spec.count}", *path, "count")
        if size not in tables.TOWER_SIZES:
            fail(f"a siege tower holds only Medium or Small creatures (W35-TOWER-05), not "
                 f"{size}", *path, "creature", "size")
        if spec.counters is not None and len(spec.counters) != 1:
            fail(f"a siege tower unit stands on one square (W35-TOWER-09): list one, not "
                 f"{len(spec.counters)}", *path, "counters")
        if spec.enters_round is not None:
            fail("a siege tower unit starts on the map", *path, "enters_round")
    if spec.ram:
        need = tables.ram_crew(size)
        if need is None:
            fail(f"{size} creatures cannot swing a battering ram (W35-RAM-02)", *path,
                 "creature", "size")
        elif spec.count != need:
            fail(f"a battering ram unit of {size} creatures has exactly the {need} its ram "
                 f"needs (W35-RAM-02, W35-AMB-75), not {spec.count}", *path, "count")


def _units(model: Dnd35WarsScenario) -> _Placed:
    placed = _Placed()
    ids: set[str] = set()
    total = 0
    for i, side in enumerate(model.sides):
        for j, spec in enumerate(side.units):
            path: FieldPath = ("sides", i, "units", j)
            if spec.id in ids:
                fail(f"id {spec.id!r} is used twice", *path, "id")
            ids.add(spec.id)
            _fits_a_square(spec, model.scale, path)
            _machine_crew(spec, path)
            counters = 1 if spec.siege_tower else derive(spec, model.scale,
                                                         model.options).counters
            placed.counters[spec.id] = counters
            total += counters
            if total > COUNTERS_MAX:
                fail(f"the armies need more than {COUNTERS_MAX:,} counters at the "
                     f"{model.scale}-ft scale; choose a larger scale", *path, "count")
            if _check_entry(spec, path):
                _entry_fits(model, spec, counters, path)
                continue
            squares = _unit_start(model, spec, counters, path)
            for sq in squares:
                if sq in placed.taken:
                    fail(f"units {placed.taken[sq]!r} and {spec.id!r} overlap on {list(sq)} "
                         "(W35-PLACE-06)", *path)
                placed.taken[sq] = spec.id
            placed.units[i][spec.id] = squares
    return placed


def _check_entry(spec: UnitSpec, path: FieldPath) -> bool:
    """Check a reinforcement's entry data; True if the unit starts off the map."""
    if (spec.enters_edge is None) != (not _reinforcement(spec)):
        fail(f"unit {spec.id!r}: a reinforcement needs both `enters_round` (2 or later) and "
             "`enters_edge` (W35-AMB-95)", *path, "enters_edge")
    if spec.counters is not None and spec.at is not None:
        fail(f"unit {spec.id!r} gives both `counters` and `at`; give one", *path)
    if _reinforcement(spec):
        return True
    if spec.counters is None and spec.at is None:
        fail(f"unit {spec.id!r} needs either `counters` (a list of squares) or `at`", *path)
    return False


def _entry_fits(model: Dnd35WarsScenario, spec: UnitSpec, counters: int,
                path: FieldPath) -> None:
    """A reinforcement's shape is a legal formation that fits on the map (W35-AMB-95)."""
    if spec.counters is not None:
        _shape(model, spec, counters, path)
    squares, _placed = entry_shape(spec, counters)
    xs = [x for x, _ in squares]
    ys = [y for _, y in squares]
    wide, deep = max(xs) - min(xs) + 1, max(ys) - min(ys) + 1
    if wide > model.map.width or deep > model.map.height:
        fail(f"reinforcement {spec.id!r} needs {wide}x{deep} squares, more than the "
             f"{model.map.width}x{model.map.height} map; give it more `columns`", *path)


def _unit_start(model: Dnd35WarsScenario, spec: UnitSpec, counters: int,
                path: FieldPath) -> list[Square]:
    squares = unit_squares(spec, counters)
    for sq in squares:
        if not (0 <= sq[0] < model.map.width and 0 <= sq[1] < model.map.height):
            fail(f"unit {spec.id!r} has a counter on {list(sq)}, off the map", *path)
    return _shape(model, spec, counters, path)


def _shape(model: Dnd35WarsScenario, spec: UnitSpec, counters: int,
           path: FieldPath) -> list[Square]:
    """The unit's squares: one per counter, one legal formation (W35-UNIT-02/03, W35-TERM-06)."""
    squares = unit_squares(spec, counters)
    if spec.counters is not None and len(squares) != counters:
        fail(f"unit {spec.id!r} has {counters} counters ({spec.count} creatures at "
             f"{model.scale} ft, W35-UNIT-03) but lists {len(squares)} squares",
             *path, "counters")
    if len(set(squares)) != len(squares):
        fail(f"unit {spec.id!r} lists a square twice; each square holds one counter "
             "(W35-UNIT-02)", *path, "counters")
    if not formation_ok(squares):
        fail(f"unit {spec.id!r}'s counters must form one group joined by their sides, with "
             "no holes (W35-TERM-06, W35-PLACE-05)",
             *path, *(("counters",) if spec.counters is not None else ()))
    return squares


def _field(model: Dnd35WarsScenario, placed: _Placed, side: int) -> dict[Square, int]:
    """Distance from side ``side``'s starting units to every square (computed once)."""
    if side not in placed.fields:
        placed.fields[side] = chebyshev_field(placed.squares(side), model.map.width,
                                              model.map.height)
    return placed.fields[side]


def _nearest(placed: _Placed, side: int, sq: Square) -> str:
    """The unit of ``side`` nearest ``sq`` (for messages only)."""
    best = min(((chebyshev(sq, other), uid) for uid, squares in placed.units[side].items()
                for other in squares), default=(0, "?"))
    return best[1]


def _separation(model: Dnd35WarsScenario, placed: _Placed) -> None:
    """W35-PLACE-07 with W35-AMB-36/95: every starting unit of the side placing second at
    least 6 squares from every starting unit of the other side."""
    names = [s.name for s in model.sides]
    second = names.index(model.aggressor) if model.aggressor is not None else 1
    first = 1 - second
    near = chebyshev_field(placed.squares(first), model.map.width, model.map.height,
                           SECOND_SIDE_GAP - 1)
    for j, spec in enumerate(model.sides[second].units):
        for sq in placed.units[second].get(spec.id, ()):
            if sq in near:
                other = _nearest(placed, first, sq)
                who = ("the aggressor places second" if model.aggressor is not None else
                       "whichever side places second")
                fail(f"unit {spec.id!r} is {near[sq]} squares from {other!r} of "
                     f"{names[first]}; {who} and must keep every unit at least "
                     f"{SECOND_SIDE_GAP} squares from every enemy unit (W35-PLACE-07)",
                     "sides", second, "units", j)


def _walls(model: Dnd35WarsScenario, placed: _Placed) -> None:
    """W35-AMB-45: a wall or gate names a side as its holder, and no unit or monster starts on
    one its side does not hold (only the holders stand on their walls)."""
    names = [s.name for s in model.sides]
    holder: dict[Square, tuple[str | None, str]] = {}
    for k, section in enumerate(model.map.structures):
        if not section.barrier:
            continue
        if section.held_by is not None and section.held_by not in names:
            fail(f"wall {section.id!r} is held by {section.held_by!r}, not one of the sides: "
                 f"{', '.join(names)}", "map", "structures", k, "held_by")
        (x0, y0), (x1, y1) = section.rect
        for x in range(min(x0, x1), max(x0, x1) + 1):
            for y in range(min(y0, y1), max(y0, y1) + 1):
                holder[(x, y)] = (section.held_by, section.id)
    if not holder:
        return
    for i, side in enumerate(model.sides):
        for j, spec in enumerate(side.units):
            for sq in placed.units[i].get(spec.id, ()):
                _on_enemy_wall(holder, side.name, sq, f"unit {spec.id!r}",
                               ("sides", i, "units", j,
                                "counters" if spec.counters is not None else "at"))
        for j, mon in enumerate(side.monsters):
            _on_enemy_wall(holder, side.name, (mon.at[0], mon.at[1]), f"monster {mon.id!r}",
                           ("sides", i, "monsters", j, "at"))


def _on_enemy_wall(holder: dict[Square, tuple[str | None, str]], side: str, sq: Square,
                   who: str, path: FieldPath) -> None:
    held = holder.get(sq)
    if held is not None and held[0] != side:
        owner = f"held by {held[0]}" if held[0] is not None else "held by no side"
        fail(f"{who} starts on {list(sq)}, on wall {held[1]!r} {owner}; only a wall's "
             "holders may stand on it (W35-AMB-45)", *path)


def _forbidden(model: Dnd35WarsScenario, placed: _Placed) -> None:
    """W35-PLACE-08, W35-DEC-38: no starting counter or monster in its side's forbidden areas."""
    for i, side in enumerate(model.sides):
        if not side.forbidden:
            continue
        for j, spec in enumerate(side.units):
            for sq in placed.units[i].get(spec.id, ()):
                if any(_in_area(sq, area) for area in side.forbidden):
                    fail(f"unit {spec.id!r} stands on {list(sq)}, in an area forbidden to "
                         f"{side.name} (W35-PLACE-08)", "sides", i, "units", j)
        for j, mon in enumerate(side.monsters):
            sq = (mon.at[0], mon.at[1])
            if any(_in_area(sq, area) for area in side.forbidden):
                fail(f"monster {mon.id!r} stands on {list(sq)}, in an area forbidden to "
                     f"{side.name} (W35-PLACE-08)", "sides", i, "monsters", j, "at")


def _faster_first(model: Dnd35WarsScenario, placed: _Placed) -> None:
    """W35-PLACE-08, W35-DEC-38: with `faster_first`, a faster unit never stands farther from
    the nearest enemy unit than a slower unit of its side."""
    for i, side in enumerate(model.sides):
        if not side.faster_first or not placed.units[1 - i]:
            continue
        enemy = _field(model, placed, 1 - i)
        ranked = []
        for j, spec in enumerate(side.units):
            squares = placed.units[i].get(spec.id)
            if squares:
                rate = derive(spec, model.scale, model.options).rate
                ranked.append((rate, min(enemy[sq] for sq in squares), j, spec.id))
        ranked.sort(key=lambda r: r[0], reverse=True)
        farthest: tuple[int, str] | None = None  # among the strictly faster units so far
        k = 0
        while k < len(ranked):
            group = [r for r in ranked[k:] if r[0] == ranked[k][0]]
            for rate, gap, j, uid in group:
                if farthest is not None and farthest[0] > gap:
                    fail(f"unit {farthest[1]!r} is faster than {uid!r} (move rate {rate}) but "
                         f"stands farther from the enemy; {side.name} places faster units "
                         "ahead (W35-PLACE-08)", "sides", i, "units", j)
            best = max(group, key=lambda r: r[1])
            if farthest is None or best[1] > farthest[0]:
                farthest = (best[1], best[3])
            k += len(group)


def _monsters(model: Dnd35WarsScenario, placed: _Placed) -> None:
    """W35-PLACE-09..12 with W35-AMB-70/71: each monster on one free square of the map; an
    allied one at least 8 from every enemy unit and nearer its own army than the enemy; an
    unallied one equally far from both armies (at least 8), or, if the map has no such
    square, at least 12 from one army (the one picked at random at setup must be that far)."""
    ids = {spec.id for side in model.sides for spec in side.units}
    for i, side in enumerate(model.sides):
        for j, mon in enumerate(side.monsters):
            path: FieldPath = ("sides", i, "monsters", j)
            if mon.id in ids:
                fail(f"id {mon.id!r} is used twice", *path, "id")
            ids.add(mon.id)
            sq = (mon.at[0], mon.at[1])
            if not (sq[0] < model.map.width and sq[1] < model.map.height):
                fail(f"monster {mon.id!r} is off the map at {list(sq)}", *path, "at")
            if sq in placed.taken:
                fail(f"monster {mon.id!r} stands on {list(sq)}, held by "
                     f"{placed.taken[sq]!r} (W35-PLACE-09)", *path, "at")
            placed.taken[sq] = mon.id
            if mon.allied:
                _allied_monster(model, placed, i, mon.id, sq, path)
            else:
                _unallied_monster(model, placed, mon.id, sq, path)


def _gap(model: Dnd35WarsScenario, placed: _Placed, side: int, sq: Square) -> int:
    """Distance from ``sq`` to the nearest starting unit of ``side`` (huge with none)."""
    if not placed.units[side]:
        return 10 * (model.map.width + model.map.height)
    return _field(model, placed, side)[sq]


def _allied_monster(model: Dnd35WarsScenario, placed: _Placed, side: int, mid: str,
                    sq: Square, path: FieldPath) -> None:
    enemy = _gap(model, placed, 1 - side, sq)
    own = _gap(model, placed, side, sq)
    if enemy < ALLIED_MONSTER_GAP:
        fail(f"monster {mid!r} is {enemy} squares from an enemy unit; an allied monster keeps "
             f"at least {ALLIED_MONSTER_GAP} (W35-PLACE-10)", *path, "at")
    if own >= enemy:
        fail(f"monster {mid!r} is {own} squares from its own army and {enemy} from the enemy; "
             "an allied monster starts nearer its own army (W35-PLACE-10)", *path, "at")


def _unallied_monster(model: Dnd35WarsScenario, placed: _Placed, mid: str, sq: Square,
                      path: FieldPath) -> None:
    gaps = (_gap(model, placed, 0, sq), _gap(model, placed, 1, sq))
    if gaps[0] == gaps[1] >= ALLIED_MONSTER_GAP:
        return
    spot = equidistant_square(model, placed)
    if spot is not None:
        fail(f"unallied monster {mid!r} is {gaps[0]} and {gaps[1]} squares from the two armies; "
             f"it must stand equally far from both, at least {ALLIED_MONSTER_GAP} "
             f"(W35-PLACE-11, W35-AMB-71), e.g. on {list(spot)}", *path, "at")
    if max(gaps) < UNALLIED_FALLBACK_GAP:
        fail(f"unallied monster {mid!r} is {gaps[0]} and {gaps[1]} squares from the two armies; "
             f"with no square equally far from both, it must be at least "
             f"{UNALLIED_FALLBACK_GAP} from the army picked at random (W35-PLACE-12, "
             "W35-AMB-71), so from at least one of them", *path, "at")


def equidistant_square(model: Dnd35WarsScenario, placed: _Placed) -> Square | None:
    """A free square equally far from both armies' nearest units, at least 8 from each
    (W35-AMB-71), or None."""
    for y in range(model.map.height):
        for x in range(model.map.width):
            sq = (x, y)
            if sq not in placed.taken:
                a, b = _gap(model, placed, 0, sq), _gap(model, placed, 1, sq)
                if a == b >= ALLIED_MONSTER_GAP:
                    return sq
    return None


def _characters(model: Dnd35WarsScenario, placed: _Placed) -> None:
    """W35-PLACE-13..16, W35-AMB-63/79: NPCs and PCs start in a unit of their side, a unit
    has more counters than NPCs, at most one leader a unit, a PC squad shares one unit."""
    ids = set(placed.counters) | {m.id for side in model.sides for m in side.monsters}
    for i, side in enumerate(model.sides):
        specs = {spec.id: spec for spec in side.units}
        npcs: dict[str, int] = {}
        leaders: dict[str, str] = {}
        squad: str | None = None
        for kind in ("npcs", "pcs"):
            chars: list[CharacterSpec] = getattr(side, kind)
            for j, char in enumerate(chars):
                path: FieldPath = ("sides", i, kind, j)
                if char.id in ids:
                    fail(f"id {char.id!r} is used twice", *path, "id")
                ids.add(char.id)
                if char.unit not in specs:
                    fail(f"{char.id!r} starts in unit {char.unit!r}, which is not a unit of "
                         f"{side.name} (W35-NPC-06, W35-PLACE-13, W35-PLACE-15)", *path, "unit")
                if kind == "npcs":
                    npcs[char.unit] = npcs.get(char.unit, 0) + 1
                    if placed.counters[char.unit] < npcs[char.unit] + 1:
                        fail(f"unit {char.unit!r} has {placed.counters[char.unit]} counters, "
                             f"too few for {npcs[char.unit]} NPCs: it needs at least one "
                             "counter more than its NPCs (W35-PLACE-14, W35-AMB-63)",
                             *path, "unit")
                if char.role == "leader":
                    if char.unit in leaders:
                        fail(f"unit {char.unit!r} already has a leader, {leaders[char.unit]!r} "
                             "(one designated leader a unit, W35-AMB-79)", *path, "role")
                    leaders[char.unit] = char.id
                if char.role == "squad":
                    if kind == "npcs":
                        fail(f"NPC {char.id!r} cannot be in the PC squad (W35-PC-01)",
                             *path, "role")
                    if squad is not None and squad != char.unit:
                        fail(f"the PC squad starts together in one unit ({squad!r}), not in "
                             f"{char.unit!r} (W35-PLACE-16)", *path, "unit")
                    squad = char.unit
        homes = {c.id: c.unit for c in [*side.npcs, *side.pcs]}
        for j, spec in enumerate(side.units):
            if spec.leader is None:
                continue
            named = leaders.get(spec.id)
            home = homes.get(spec.leader)
            if home != spec.id:
                fail(f"unit {spec.id!r} is led by {spec.leader!r}, which is not an NPC or PC "
                     f"of {side.name} starting in it (W35-AMB-79, W35-DEC-08)",
                     "sides", i, "units", j, "leader")
            if named is not None and named != spec.leader:
                fail(f"unit {spec.id!r} names {spec.leader!r} as leader, but {named!r} has the "
                     "leader role (one leader a unit, W35-AMB-79)", "sides", i, "units", j,
                     "leader")


# ---- spells (spellbook)


def _spells(model: Dnd35WarsScenario) -> None:
    """Spell definitions: no name twice, and the 5-ft squares of every area the table lacks;
    then every creature's known spells: defined, and of a level its caster level reaches
    (special abilities excepted)."""
    seen: dict[str, int] = {}
    for k, spell in enumerate(model.spells):
        if spell.name in seen:
            fail(f"spell {spell.name!r} is defined twice (also spells[{seen[spell.name]}])",
                 "spells", k, "name")
        seen[spell.name] = k
        area = spell.area
        if area is not None and area.squares is None and not areas.in_table(area.shape,
                                                                             area.feet):
            fail(f"a {area.feet}-ft {area.shape} is not in the area table (W35-AOE-03); give "
                 f"the 5-ft squares it covers as `squares` (W35-AMB-53)", "spells", k, "area")
    for path, being in _casters(model):
        _known_spells(model, being, seen, path)


def _casters(model: Dnd35WarsScenario) -> list[tuple[FieldPath, Creature]]:
    """Every creature of the scenario with its field path."""
    found: list[tuple[FieldPath, Creature]] = []
    for i, side in enumerate(model.sides):
        found += [(("sides", i, "units", j, "creature"), u.creature)
                  for j, u in enumerate(side.units)]
        for key in ("monsters", "npcs", "pcs"):
            specs = getattr(side, key)
            found += [(("sides", i, key, j, "creature"), spec.creature)
                      for j, spec in enumerate(specs)]
    return found


def _known_spells(model: Dnd35WarsScenario, being: Creature, defined: dict[str, int],
                  path: FieldPath) -> None:
    for k, known in enumerate(being.spells):
        where = (*path, "spells", k)
        index = defined.get(known.spell)
        if index is None:
            fail(f"unknown spell {known.spell!r}{did_you_mean(known.spell, defined)} (define it "
                 f"under `spells` or include a `spell_library`)", *where, "spell")
        level = model.spells[index].level
        highest = spellbook.max_spell_level(being.caster_level)
        if not known.special and level > highest:
            reach = (f"spells up to level {highest}" if highest >= 0 else "no spells")
            fail(f"{known.spell} is a level-{level} spell; a caster of caster level "
                 f"{being.caster_level} casts {reach} (mark a special ability `special: "
                 f"true`)", *where, "spell")


def _siege_units(model: Dnd35WarsScenario) -> None:
    """A unit carries at most one machine: a siege weapon (one, W35-SWU-02), a siege tower
    or a ram; a siege weapon unit holds at least the weapon's crew (W35-SWU-05)."""
    for i, side in enumerate(model.sides):
        for j, spec in enumerate(side.units):
            kinds = [name for name, on in (("siege_weapon", spec.siege_weapon is not None),
                                           ("siege_tower", spec.siege_tower),
                                           ("ram", spec.ram)) if on]
            if len(kinds) > 1:
                fail(f"unit {spec.id!r} is both {' and '.join(kinds)}: a unit carries one "
                     f"machine (W35-SWU-02)", "sides", i, "units", j, kinds[1])
            if spec.siege_weapon is None:
                continue
            crew = tables.siege_weapon(spec.siege_weapon).crew
            if spec.count < crew:
                fail(f"unit {spec.id!r}: siege weapon without crew: a {spec.siege_weapon} "
                     f"needs {crew} creatures, the unit has {spec.count} (W35-SWU-05)",
                     "sides", i, "units", j, "count")
