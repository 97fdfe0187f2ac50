"""Setup rules of a `dnd35-wars` scenario that the schema cannot express (W35-PLACE,
W35-AMB-93, W35-AMB-95).

:func:`check_scenario` raises through :func:`warhost.core.errors.fail` with the path of the
offending field, so the loader names its line. The first problem found is reported.
"""

from __future__ import annotations

from warhost.core.errors import FieldPath, fail
from warhost.rulesets.dnd35_wars.derive import derive
from warhost.rulesets.dnd35_wars.model import MAP_AREA_MAX, Dnd35WarsScenario
from warhost.rulesets.dnd35_wars.setup import unit_squares

COUNTERS_MAX = 20_000
"""The most counters a battle may put on the map (a 1,000-unit army of 16 counters a side)."""


def check_scenario(model: Dnd35WarsScenario) -> None:
    """Check sides, ids, the map, every unit's squares and where NPCs and PCs start."""
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
    _units(model)


def _on_map(model: Dnd35WarsScenario, rect: tuple[tuple[int, int], tuple[int, int]],
            path: FieldPath) -> None:
    for sq in rect:
        if not (sq[0] < model.map.width and sq[1] < model.map.height):
            fail(f"square {list(sq)} is off the {model.map.width}x{model.map.height} map", *path)


def _units(model: Dnd35WarsScenario) -> None:
    ids: set[str] = set()
    taken: dict[tuple[int, int], str] = {}
    total = 0
    for i, side in enumerate(model.sides):
        unit_ids = {u.id for u in side.units}
        for j, spec in enumerate(side.units):
            path: FieldPath = ("sides", i, "units", j)
            if spec.id in ids:
                fail(f"id {spec.id!r} is used twice", *path, "id")
            ids.add(spec.id)
            if (spec.counters is None) == (spec.at is None):
                fail(f"unit {spec.id!r} needs either `counters` (a list of squares) or `at`",
                     *path)
            counters = derive(spec, model.scale, model.options).counters
            total += counters
            if total > COUNTERS_MAX:
                fail(f"the armies need more than {COUNTERS_MAX:,} counters at the "
                     f"{model.scale}-ft scale; choose a larger scale", *path, "count")
            squares = unit_squares(spec, counters)
            if spec.counters is not None and len(squares) != counters:
                fail(f"unit {spec.id!r} has {counters} counters ({spec.count} creatures at "
                     f"{model.scale} ft, W35-UNIT-03) but lists {len(squares)} squares",
                     *path, "counters")
            if spec.enters_round is not None and spec.enters_round > 1:
                continue
            for sq in squares:
                if not (0 <= sq[0] < model.map.width and 0 <= sq[1] < model.map.height):
                    fail(f"unit {spec.id!r} has a counter on {list(sq)}, off the map", *path)
                if sq in taken:
                    fail(f"units {taken[sq]!r} and {spec.id!r} overlap on {list(sq)} "
                         "(W35-PLACE-06)", *path)
                taken[sq] = spec.id
        for kind in ("npcs", "pcs"):
            for j, char in enumerate(getattr(side, kind)):
                path = ("sides", i, kind, j)
                if char.id in ids:
                    fail(f"id {char.id!r} is used twice", *path, "id")
                ids.add(char.id)
                if char.unit not in unit_ids:
                    fail(f"{char.id!r} starts in unit {char.unit!r}, which is not a unit of "
                         f"{side.name} (W35-NPC-06, W35-PLACE-15)", *path, "unit")
        for j, mon in enumerate(side.monsters):
            path = ("sides", i, "monsters", j)
            if mon.id in ids:
                fail(f"id {mon.id!r} is used twice", *path, "id")
            ids.add(mon.id)
            sq = (mon.at[0], mon.at[1])
            if not (sq[0] < model.map.width and sq[1] < model.map.height):
                fail(f"monster {mon.id!r} is off the map at {list(sq)}", *path, "at")
            if sq in taken:
                fail(f"monster {mon.id!r} stands on {list(sq)}, held by {taken[sq]!r} "
                     "(W35-PLACE-09)", *path, "at")
            taken[sq] = mon.id
