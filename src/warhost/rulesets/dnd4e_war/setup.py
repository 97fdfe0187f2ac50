"""Building the battle state from a scenario (W4-UNIT-06 to 10, W4-CMD-02, W4-AMB-04/95)."""

from __future__ import annotations

from shapely.geometry import Polygon, box

from warhost.core.battle import Battle
from warhost.geometry.table import Board, Region, Tray
from warhost.rulesets.dnd4e_war.army_setup import Tiered, announce, battle_tier, equip
from warhost.rulesets.dnd4e_war.characters import (
    character_profile,
    join,
    lone_strength,
    new_character,
)
from warhost.rulesets.dnd4e_war.model import (
    CharacterSpec,
    Dnd4eWarScenario,
    Profile,
    TerrainSpec,
    UnitSpec,
)
from warhost.rulesets.dnd4e_war.state import Character, Ground, Unit, WarState, base_of

DEFAULT_FILES = 4
"""Companies in the front rank when a unit does not say (fewer if it has fewer)."""


def profile_of(scenario: Dnd4eWarScenario, spec: UnitSpec) -> Profile:
    """The unit's profile, inline or named in ``profiles``."""
    if isinstance(spec.profile, Profile):
        return spec.profile
    return scenario.profiles[spec.profile]


def layout(profile: Profile) -> tuple[int, int]:
    """W4-AMB-04: columns x rows of a company (default 4 x 2; cavalry 2 x 1)."""
    if profile.company is not None:
        return profile.company.columns, profile.company.rows
    return (2, 1) if profile.cavalry else (4, 2)


def build_unit(side: str, spec: UnitSpec, profile: Profile) -> Unit:
    """A unit at full strength, or with ``models`` alive (the depleted company last)."""
    base = base_of(profile)
    skirmish = profile.formation == "skirmish"
    columns, rows = (1, 1) if skirmish else layout(profile)
    size = 1 if skirmish else columns * rows
    total = spec.companies * size if spec.models is None else spec.models
    companies = [size] * (total // size) + ([total % size] if total % size else [])
    files = 1 if skirmish else min(spec.files or DEFAULT_FILES, len(companies))
    unit = Unit(
        id=spec.id, name=spec.name or profile.name, side=side, profile=profile,
        skirmish=skirmish, company_size=size, columns=columns, rows=rows, base=base,
        companies=companies, files=max(1, files), front=(float(spec.at[0]), float(spec.at[1])),
        facing=float(spec.facing) % 360.0, start_models=total,
    )
    cmd = spec.command
    unit.standard, unit.battle_standard, unit.musician = (
        cmd.standard or cmd.battle_standard, cmd.battle_standard, cmd.musician)
    if cmd.captain is not None:
        unit.captain = cmd.captain.name
        unit.captain_attacks = cmd.captain.attacks
        unit.captain_level = cmd.captain.level
        unit.action_points = cmd.captain.action_points
    if skirmish:
        unit.points = skirmish_points(unit, len(companies))
    elif cmd.captain or cmd.standard or cmd.musician or cmd.battle_standard:
        unit.command_slot = (unit.files - 1) // 2  # W4-CMD-02: centre of the front rank
        if unit.companies[unit.command_slot] < size:  # a short company never leads
            full = unit.companies.index(size) if size in unit.companies else unit.command_slot
            unit.companies[unit.command_slot], unit.companies[full] = (
                unit.companies[full], unit.companies[unit.command_slot])
    if profile.machine is not None:
        from warhost.rulesets.dnd4e_war.machines import new_machine

        unit.machine = new_machine(unit, profile.machine, spec.machine_at)
    return unit


def skirmish_points(unit: Unit, count: int) -> list[tuple[float, float]]:
    """Skirmishers start in a loose line centred on ``front``, bases 1 inch apart (within the
    2-inch coherency of W4-SKIRM-01), a second line behind every 8 models."""
    pitch = unit.base + 1.0
    per_line = min(count, 8)
    anchor = Tray(unit.front, unit.facing, 0.0, 0.0)
    points = []
    for i in range(count):
        line, pos = divmod(i, per_line)
        in_line = min(per_line, count - line * per_line)
        right = (pos - (in_line - 1) / 2.0) * pitch
        points.append(anchor.to_world(right, -unit.base / 2.0 - line * pitch))
    return points


def terrain_polygon(spec: TerrainSpec) -> Polygon:
    """A terrain piece's outline."""
    if spec.rect is not None:
        x, y, w, h = spec.rect
        return box(x, y, x + w, y + h)
    assert spec.polygon is not None
    return Polygon([(float(p[0]), float(p[1])) for p in spec.polygon])


def build_ground(spec: TerrainSpec) -> Ground:
    """A terrain piece as the rules see it."""
    region = Region(spec.name or "terrain", "terrain", terrain_polygon(spec),
                    difficult=spec.difficult, impassable=spec.impassable)
    return Ground(spec.name or "terrain", region, spec.height, spec.blocks_sight, spec.cover,
                  spec.concealment, spec.barrier)


def character_unit(side: str, spec: CharacterSpec, host: Unit | None) -> Unit:
    """A character's own one-model unit, at ``at`` or (inside a unit) at its front."""
    at = spec.at if spec.at is not None else (host.front if host is not None else (0.0, 0.0))
    entry = UnitSpec(id=spec.id, name=spec.name or spec.id, profile="-", at=at,
                     facing=spec.facing)
    profile = character_profile(spec)
    unit = build_unit(side, entry, profile)
    unit.own_strength = lone_strength(profile)
    return unit


def initial_state(scenario: Dnd4eWarScenario) -> WarState:
    """The state before the first turn: every unit where the scenario puts it, and every
    character alone or inside his unit (W4-CHAR-03)."""
    units: dict[str, Unit] = {}
    tiered = Tiered(battle_tier(scenario))  # W4-ARMY-11/12
    for side in scenario.sides:
        for spec in side.units:
            units[spec.id] = build_unit(side.name, spec, tiered(profile_of(scenario, spec)))
    joins: list[tuple[Character, Unit]] = []
    people: dict[str, Character] = {}
    for side in scenario.sides:
        for cspec in side.characters:
            host = units.get(cspec.joined) if cspec.joined else None
            units[cspec.id] = character_unit(side.name, cspec, host)
            person = new_character(side.name, cspec)
            units[cspec.id].character = person
            people[cspec.id] = person
            if host is not None:
                joins.append((person, host))
    state = WarState(
        board=Board(scenario.table.width, scenario.table.height), options=scenario.options,
        sides=[s.name for s in scenario.sides], units=units,
        ground=[build_ground(t) for t in scenario.terrain], characters=people,
    )
    for person, host in joins:
        join(state, person, host)
    equip(state, scenario)
    return state


def new_state(scenario: Dnd4eWarScenario, battle: Battle) -> WarState:
    """The starting state, announced with one ``deploy`` event per unit."""
    state = initial_state(scenario)
    for unit in state.units.values():
        if unit.inside is not None:
            battle.emit("character_joins", character=unit.id, unit=unit.inside,
                        side=unit.side, name=unit.name)
            continue
        battle.emit("deploy", unit=unit.id, side=unit.side, name=unit.name,
                    models=unit.models, companies=len(unit.companies), files=unit.files,
                    at=[round(unit.front[0], 3), round(unit.front[1], 3)],
                    facing=round(unit.facing, 3),
                    formation="skirmish" if unit.skirmish else "companies")
    announce(state, scenario, battle)
    return state

