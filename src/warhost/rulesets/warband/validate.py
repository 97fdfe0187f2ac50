"""Setup rules of a `warband` scenario that the schema cannot express.

:func:`check_scenario` raises through :func:`warhost.core.errors.fail` with the path of the
offending field, so the loader names its line. The first problem found is reported.
"""

from __future__ import annotations

import difflib

from warhost.core.errors import FieldPath, fail
from warhost.rulesets.warband.model import MAP_AREA_MAX, CharacterSpec, WarbandScenario


def check_scenario(model: WarbandScenario) -> None:
    """Check sides, ids, Captains, weapons, spells, terrain and squares."""
    names = [s.name for s in model.sides]
    for i, name in enumerate(names):
        if name in names[:i]:
            fail(f"two sides are called {name!r}", "sides", i, "name")
    if model.advantage is not None and model.advantage not in names:
        fail(f"advantage names {model.advantage!r}, not one of the sides: {', '.join(names)}",
             "advantage")
    width, height = model.map.width, model.map.height
    if width * height > MAP_AREA_MAX:
        fail(f"a {width}x{height} map has {width * height:,} squares; at most "
             f"{MAP_AREA_MAX:,}", "map")
    for k, f in enumerate(model.map.features):
        for key, sq in (("from", f.origin), ("to", f.to)):
            if sq is not None and not (sq[0] < width and sq[1] < height):
                fail(f"square {list(sq)} is off the {width}x{height} map", "map", "features", k,
                     key)
    spells = {s.name for s in model.spells}
    for k, spell in enumerate(model.spells):
        if spell.name in [s.name for s in model.spells[:k]]:
            fail(f"two spells are called {spell.name!r}", "spells", k, "name")
        if spell.attack is not None and spell.phase in ("utility", "non_combat"):
            fail(f"an attack Spell must be cast in combat, not in the {spell.phase} phase",
                 "spells", k, "phase")
    ids: dict[str, tuple[int, int]] = {}
    squares: dict[tuple[int, int], str] = {}
    for i, side in enumerate(model.sides):
        if side.zone is not None:
            for key, sq in (("from", side.zone.origin), ("to", side.zone.to)):
                if not (sq[0] < width and sq[1] < height):
                    fail(f"square {list(sq)} is off the {width}x{height} map", "sides", i,
                         "zone", key)
        captains = [j for j, c in enumerate(side.characters) if c.captain]
        if len(captains) > 1:
            fail(f"{side.name} has {len(captains)} Captains; a side names exactly one "
                 "(WB-AMB-55)", "sides", i, "characters", captains[1], "captain")
        has_hero = any(c.kind == "hero" for c in side.characters)
        if has_hero and not captains:
            fail(f"{side.name} has Heroes but no Captain: mark one Hero `captain: true` "
                 "(WB-AMB-55)", "sides", i, "characters")
        for j, char in enumerate(side.characters):
            path: FieldPath = ("sides", i, "characters", j)
            if char.id in ids:
                fail(f"id {char.id!r} is used twice", *path, "id")
            ids[char.id] = (i, j)
            if char.captain and char.kind != "hero":
                fail("the Captain must be a Hero (WB-AMB-55)", *path, "captain")
            _check_character(model, char, path, spells)
            if char.at is not None:
                sq = (char.at[0], char.at[1])
                if not (sq[0] < width and sq[1] < height):
                    fail(f"square {list(sq)} is off the {width}x{height} map", *path, "at")
                if sq in squares:
                    fail(f"{char.id} and {squares[sq]} both stand on {list(sq)} (WB-DEPLOY-01)",
                         *path, "at")
                squares[sq] = char.id
    _check_terrain_under(model, squares)


def _check_character(model: WarbandScenario, char: CharacterSpec, path: FieldPath,
                     spells: set[str]) -> None:
    names = [w.name for w in char.weapons]
    for k, weapon in enumerate(char.weapons):
        if weapon.name in names[:k]:
            fail(f"two weapons are called {weapon.name!r}", *path, "weapons", k, "name")
        if weapon.kind == "ranged":
            if weapon.strength is None:
                fail("a ranged weapon needs a strength (WB-ATTACK-14)", *path, "weapons", k)
            if weapon.range is None:
                fail("a ranged weapon needs a range (WB-ATTACK-14)", *path, "weapons", k)
    worn = sum(a.value for a in char.armour)
    if worn > char.stats.armour:
        fail(f"its armour pieces give {worn} but its Armour is {char.stats.armour} "
             "(WB-AMB-28)", *path, "armour")
    for k, name in enumerate(char.spells):
        if name not in spells:
            close = difflib.get_close_matches(name, sorted(spells), n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            fail(f"unknown spell {name!r}{hint}", *path, "spells", k)
    if char.spells and char.stats.magic == 0:
        fail("a character that knows Spells needs Magic above 0 (WB-MAGIC-04)", *path,
             "stats", "magic")


def _check_terrain_under(model: WarbandScenario, squares: dict[tuple[int, int], str]) -> None:
    closed: set[tuple[int, int]] = set()
    for f in model.map.features:
        (x0, y0), (x1, y1) = f.origin, f.to or f.origin
        for y in range(min(y0, y1), max(y0, y1) + 1):
            for x in range(min(x0, x1), max(x0, x1) + 1):
                if f.terrain == "clear":
                    closed.discard((x, y))
                else:
                    closed.add((x, y))
    for i, side in enumerate(model.sides):
        for j, char in enumerate(side.characters):
            if char.at is not None and (char.at[0], char.at[1]) in closed:
                fail(f"{char.id} stands on {list(char.at)}, which is not passable",
                     "sides", i, "characters", j, "at")
