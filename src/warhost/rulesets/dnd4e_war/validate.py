"""Setup rules of a `dnd4e-war` scenario that the schema cannot express.

:func:`check_scenario` raises through :func:`warhost.core.errors.fail` with the path of the
offending field, so the loader names its line. The first problem found is reported.
"""

from __future__ import annotations

import difflib

from warhost.core.errors import fail
from warhost.geometry.table import tray_gap, trays_overlap
from warhost.rulesets.dnd4e_war import classes
from warhost.rulesets.dnd4e_war.model import ArmySpec, Dnd4eWarScenario, Profile, UnitSpec
from warhost.rulesets.dnd4e_war.setup import build_unit, layout, profile_of, terrain_polygon
from warhost.rulesets.dnd4e_war.state import Unit
from warhost.rulesets.dnd4e_war.tables import SIZE_BASE

Where = tuple[str | int, ...]

COMPANY_MODELS_MAX = 64
"""The most models one company's tray may hold."""

TOUCH = 1e-6
"""Trays closer than this (inches) touch."""


def deployment_edge(model: Dnd4eWarScenario, index: int) -> str:
    """W4-AMB-74: the edge side ``index`` deploys from: its own ``edge``, else a long edge of
    the table (the first side south, the second north; on a table deeper than wide, west and
    east)."""
    edge = model.sides[index].edge
    if edge is not None:
        return edge
    deep = model.table.height > model.table.width
    return (("west", "east") if deep else ("south", "north"))[index % 2]


def check_scenario(model: Dnd4eWarScenario) -> None:
    """Sides, ids, profiles, unit sizes, companies, and trays on the table apart."""
    names = [s.name for s in model.sides]
    if names[0] == names[1]:
        fail(f"two sides are called {names[0]!r}", "sides", 1, "name")
    for k, t in enumerate(model.terrain):
        if (t.rect is None) == (t.polygon is None):
            fail("give a terrain piece either rect or polygon", "terrain", k)
        if t.polygon is not None and not terrain_polygon(t).is_valid:
            fail("the polygon crosses itself or has no area", "terrain", k, "polygon")
        if t.rect is not None and (t.rect[2] <= 0 or t.rect[3] <= 0):
            fail("a rect needs a width and a height above 0", "terrain", k, "rect")
    _check_victory(model)
    for name, profile in model.profiles.items():
        _check_profile(profile, ("profiles", name))
    seen: dict[str, tuple[int, int]] = {}
    placed: list[tuple[Unit, Where]] = []
    for s, side in enumerate(model.sides):
        for u, spec in enumerate(side.units):
            where = ("sides", s, "units", u)
            if spec.id in seen:
                fail(f"two units have the id {spec.id!r}", *where, "id")
            seen[spec.id] = (s, u)
            profile = _profile(model, spec, where)
            unit = _check_unit(model, spec, profile, side.name, where)
            _check_place(model, unit, deployment_edge(model, s), where)
            for other, _there in placed:
                _check_apart(unit, other, where)
            placed.append((unit, where))
    _check_characters(model, seen)
    classes.check_options(model)
    _check_armies(model)


def _check_armies(model: Dnd4eWarScenario) -> None:
    """W4-ARMY, W4-ITEM: every army list keeps the rules it must for the battle (its
    warnings, the "should"s, are for ``warhost army validate``)."""
    from warhost.rulesets.dnd4e_war.army import check_army
    from warhost.rulesets.dnd4e_war.army_setup import battle_of

    battle = battle_of(model)
    for s, side in enumerate(model.sides):
        placed = {u.id for u in side.units} | {c.id for c in side.characters
                                                 if c.joined is None}
        for key in side.deploy:
            if side.army is None or key not in placed:
                fail(f"deploy names {key!r}, which is no unit or lone character of "
                     f"{side.name}'s army", "sides", s, "deploy", key)
        if not isinstance(side.army, ArmySpec):
            continue
        report = check_army(side.army, battle, model.options)
        if report.errors:
            problem = report.errors[0]
            fail(f"{side.army.name}: {problem.message}", "sides", s, "army", *problem.where)


def _check_characters(model: Dnd4eWarScenario, ids: dict[str, tuple[int, int]]) -> None:
    """W4-CHAR-03: each character starts alone at a point or inside an allied unit."""
    for s, side in enumerate(model.sides):
        own = {u.id for u in side.units}
        for c, spec in enumerate(side.characters):
            where = ("sides", s, "characters", c)
            if spec.id in ids:
                fail(f"two units or characters have the id {spec.id!r}", *where, "id")
            ids[spec.id] = (s, c)
            if (spec.at is None) == (spec.joined is None):
                fail("give a character either at (alone) or joined (the unit he starts in)",
                     *where)
            if spec.joined is not None and spec.joined not in own:
                fail(f"{spec.id} joins {spec.joined!r}, which is not a unit of "
                     f"{side.name} (W4-CHAR-03)", *where, "joined")
            if (spec.mount_hp is None) != (spec.mount_defenses is None) or (
                    spec.mount_hp is not None and not spec.mount_monster):
                fail(f"{spec.id}: give mount_hp and mount_defenses together, for a monstrous "
                     "mount (mount_monster: true) (W4-MONSTER-07)", *where, "mount_hp")
        for c, spec in enumerate(side.characters):
            for k, power in enumerate(spec.powers):
                if "/" in power.damage:
                    fail(f"{power.name}: a character's power has one damage value (the three "
                         "tier values of W4-ARMY-12 are for unit powers)",
                         "sides", s, "characters", c, "powers", k, "damage")
        generals = [c.id for c in side.characters if c.general]
        if len(generals) > 1:
            fail(f"{side.name} names {len(generals)} generals ({', '.join(generals)}); an "
                 "army has one (W4-GEN-01)", "sides", s, "characters")


def _check_apart(unit: Unit, other: Unit, where: Where) -> None:
    """W4-UNIT-11/12: units start apart: never touching, and 1 inch or more from enemies."""
    if any(trays_overlap(a, b) for a in unit.trays() for b in other.trays()):
        fail(f"{unit.id} overlaps {other.id} (W4-UNIT-11)", *where, "at")
    gap = min(tray_gap(a, b) for a in unit.trays() for b in other.trays())
    if other.side != unit.side and gap < 1.0:
        fail(f"{unit.id} starts {gap:.3g}\" from the enemy unit {other.id}; units not in "
             "combat stay 1\" or more apart (W4-UNIT-11)", *where, "at")
    if gap < TOUCH:
        fail(f"{unit.id} touches {other.id}; units not in combat never touch (W4-UNIT-11)",
             *where, "at")


def _check_victory(model: Dnd4eWarScenario) -> None:
    victory = model.options.victory
    if victory.kind == "hold_ground" and victory.objective is None:
        fail("a hold_ground victory needs an objective point", "options", "victory")
    if victory.objective is not None:
        x, y = victory.objective
        if not (0 <= x <= model.table.width and 0 <= y <= model.table.height):
            fail(f"the objective ({x:g}, {y:g}) is off the {model.table.width:g}\" x "
                 f"{model.table.height:g}\" table", "options", "victory", "objective")


def _profile(model: Dnd4eWarScenario, spec: UnitSpec, where: Where) -> Profile:
    if isinstance(spec.profile, Profile):
        _check_profile(spec.profile, (*where, "profile"))
        return spec.profile
    if spec.profile not in model.profiles:
        close = difflib.get_close_matches(spec.profile, list(model.profiles), n=1)
        hint = f"; did you mean {close[0]!r}?" if close else (
            f"; known: {', '.join(sorted(model.profiles)) or 'none'}")
        fail(f"unknown profile {spec.profile!r}{hint}", *where, "profile")
    return profile_of(model, spec)


def _check_profile(profile: Profile, where: Where) -> None:
    low, high = profile.unit_size
    if low > high:
        fail(f"unit size {low}-{high}: the least is more than the most", *where, "unit_size")
    columns, rows = layout(profile)
    if columns * rows > COMPANY_MODELS_MAX:
        fail(f"a company of {columns} x {rows} = {columns * rows} models is larger than "
             f"allowed ({COMPANY_MODELS_MAX}, W4-AMB-04)", *where, "company")
    if profile.formation == "companies" and profile.size in ("huge", "gargantuan"):
        fail(f"a company holds models no larger than Large (W4-UNIT-01), not {profile.size}",
             *where, "size")
    if profile.hp not in ("1/-", "minion") and profile.resilience > 1:
        fail("a model with hit points has resilience 1 at most (W4-STAT-07)", *where,
             "resilience")
    if "frenzy" in profile.rules:  # pragma: no cover - the schema refuses it already
        fail("frenzy has no defined effect (W4-AMB-76)", *where, "rules")
    if profile.machine is not None:
        _check_machine(profile, where)
    names = [p.name for p in profile.powers]
    for k, power in enumerate(profile.powers):
        if power.name in names[:k]:
            fail(f"two powers are called {power.name!r}", *where, "powers", k, "name")
        if power.kind in ("ranged", "area_burst") and power.range <= 0:
            fail(f"{power.name}: a {power.kind} power needs a range", *where, "powers", k,
                 "range")
        if power.kind in ("area_burst", "close_burst", "close_blast") and power.area <= 0:
            fail(f"{power.name}: an area power needs its size (area)", *where, "powers", k,
                 "area")
        if "[w]" in power.damage.lower() and power.weapon_dice is None:
            fail(f"{power.name}: damage in [W] needs weapon_dice", *where, "powers", k,
                 "weapon_dice")


MACHINE_NEEDS = {
    "bolt_thrower": ("range", "bonus", "damage"),
    "stone_thrower": ("range", "bonus", "vs", "damage", "burst"),
}
"""W4-AMB-60: the numbers each kind of war machine must be given."""


def _check_machine(profile: Profile, where: Where) -> None:
    """W4-AMB-60, W4-WM-03: a machine needs its numbers, and its crew are skirmishers."""
    machine = profile.machine
    assert machine is not None
    for name in MACHINE_NEEDS[machine.kind]:
        if getattr(machine, name) is None:
            fail(f"a {machine.kind.replace('_', ' ')} needs its {name}: the rules give no "
                 "default (W4-AMB-60)", *where, "machine", name)
    if machine.kind == "stone_thrower" and machine.burst == 0:
        fail("a stone thrower's burst needs a size above 0 (W4-STONE-08, W4-AMB-60)",
             *where, "machine", "burst")
    if profile.formation != "skirmish":
        fail("a war machine's crew are skirmishers: give formation: skirmish (W4-WM-03)",
             *where, "formation")


def _check_unit(model: Dnd4eWarScenario, spec: UnitSpec, profile: Profile, side: str,
                where: Where) -> Unit:
    low, high = profile.unit_size
    unit = build_unit(side, spec, profile)
    size = unit.company_size
    if spec.models is not None and spec.models > spec.companies * size:
        fail(f"{spec.models} models do not fit in {spec.companies} companies of {size}",
             *where, "models")
    short = spec.models is not None and spec.models <= (spec.companies - 1) * size
    if short and not unit.skirmish:
        fail(f"{spec.models} models leave a company of the {spec.companies} empty; give "
             "fewer companies", *where, "models")
    count = len(unit.companies)
    what = "models" if unit.skirmish else "companies"
    if not low <= count <= high:
        fail(f"{count} {what}: the profile's unit size is {low} to {high} (W4-STAT-10)",
             *where, "companies")
    if spec.files is not None and spec.files > spec.companies:
        fail(f"{spec.files} companies in the front rank, but the unit has only "
             f"{spec.companies} (W4-UNIT-09)", *where, "files")
    if unit.machine is not None:
        from warhost.rulesets.dnd4e_war.machines import CREW_REACH, crew_gap, footprint

        board = model.table
        if any(not (-1e-9 <= x <= board.width + 1e-9 and -1e-9 <= y <= board.height + 1e-9)
               for x, y in footprint(unit.machine).corners()):
            fail(f"{spec.id}'s war machine does not fit on the table (W4-SETUP-02)", *where,
                 "machine_at")
        gap = crew_gap(unit, unit.machine)
        if gap > CREW_REACH + 1e-9:
            fail(f"a crewman of {spec.id} stands {gap:.2f}\" from the machine; crew stay "
                 "within 2\" of it (W4-WM-03)", *where, "machine_at")
    elif spec.machine_at is not None:
        fail(f"{spec.id} is not a war machine crew (its profile has no machine)", *where,
             "machine_at")
    if profile.size not in SIZE_BASE:  # pragma: no cover - the schema refuses it already
        fail(f"unknown size {profile.size}", *where, "profile", "size")
    return unit


def _check_place(model: Dnd4eWarScenario, unit: Unit, edge: str,
                 where: Where) -> None:
    board = model.table
    for tray in unit.trays():
        for x, y in tray.corners():
            if not (-1e-9 <= x <= board.width + 1e-9 and -1e-9 <= y <= board.height + 1e-9):
                fail(f"{unit.id} does not fit on the {board.width:g}\" x {board.height:g}\" "
                     "table (W4-SETUP-02, W4-AMB-75)", *where, "at")
            depth = model.options.deployment_depth
            if depth > 0:
                reach = {"north": board.height - y, "south": y, "west": x,
                         "east": board.width - x}[edge]
                if reach > depth + 1e-9:
                    fail(f"{unit.id} stands outside its side's deployment zone ({depth:g}\" "
                         f"from the {edge} edge, W4-SETUP-03, W4-AMB-74)", *where, "at")
