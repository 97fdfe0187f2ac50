"""Armies on the table: a side given as an army list becomes units and characters (placed by
``deploy`` or in a line along the side's edge), every unit fights at the battle's tier
(W4-ARMY-11/12), and the army's magic items and battle banner go to their bearers
(W4-ITEM-03, W4-ITEM-07)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from warhost.rulesets.dnd4e_war.army import ITEM_BONUS, in_tier, needs_tier, profile_for
from warhost.rulesets.dnd4e_war.model import (
    ArmySpec,
    ArmyUnit,
    BattleSpec,
    CharacterSpec,
    DeploySpec,
    Dnd4eWarScenario,
    Profile,
    UnitSpec,
)
from warhost.rulesets.dnd4e_war.tables import SIZE_BASE, tier

if TYPE_CHECKING:
    from warhost.core.battle import Battle
    from warhost.rulesets.dnd4e_war.state import Unit, WarState

LINE_GAP = 2.0
"""Inches between neighbours in an automatic battle line."""

LINE_DEPTH = 12.0
"""How far from its edge an automatic line's front stands when deployment is anywhere."""

FACING = {"south": 0.0, "west": 90.0, "north": 180.0, "east": 270.0}
"""Facing of a side deploying on each edge: towards the far edge."""


def battle_of(model: Dnd4eWarScenario) -> BattleSpec | None:
    """The battle's level and size: the scenario's, else the first army's (W4-DEC-01)."""
    if model.battle is not None:
        return model.battle
    for side in model.sides:
        if isinstance(side.army, ArmySpec):
            return BattleSpec(level=side.army.level, size=side.army.size)
    return None


def battle_tier(model: Dnd4eWarScenario) -> int:
    """W4-ARMY-11, W4-AMB-72: 1 heroic, 2 paragon, 3 epic (heroic without a battle level)."""
    battle = battle_of(model)
    return tier(battle.level) if battle is not None else 1


class Tiered:
    """Profiles at one tier, each converted once (units sharing a profile share the copy)."""

    def __init__(self, level_tier: int) -> None:
        self.tier = level_tier
        self._done: dict[int, Profile] = {}

    def __call__(self, profile: Profile) -> Profile:
        """``profile`` as it fights at this tier."""
        if not needs_tier(profile, self.tier):
            return profile
        found = self._done.get(id(profile))
        if found is None:
            found = self._done[id(profile)] = in_tier(profile, self.tier)
        return found


# ---------------------------------------------------------------- army lists become units

def field_armies(model: Dnd4eWarScenario) -> None:
    """Fill in the units and characters of every side given as an army list (called when
    the scenario is validated)."""
    for index, side in enumerate(model.sides):
        if side.army is None:
            continue
        if isinstance(side.army, str):
            raise ValueError(  # noqa: TRY004 - pydantic reports ValueErrors as field problems
                f"{side.name}: the army file {side.army!r} is read only when the scenario is "
                "loaded from its file")
        _field(model, index, side.army, side.deploy)


def _field(model: Dnd4eWarScenario, index: int, army: ArmySpec,
           deploy: dict[str, DeploySpec]) -> None:
    from warhost.rulesets.dnd4e_war.validate import deployment_edge

    side = model.sides[index]
    edge = deployment_edge(model, index)
    facing = FACING[edge]
    units = []
    for entry in army.units:
        profile = profile_for(army, entry)
        place = deploy.get(entry.id)
        spec = UnitSpec(id=entry.id, name=entry.name,
                        profile=profile if profile is not None else str(entry.profile),
                        companies=entry.companies, files=_files(entry, place),
                        at=place.at if place else (0.0, 0.0),
                        facing=place.facing if place and place.facing is not None else facing,
                        command=entry.command)
        units.append(spec)
    people = []
    for person in army.characters:
        place = deploy.get(person.id)
        update: dict[str, object] = {}
        if place is not None and person.joined is None:
            update["at"] = place.at
            update["facing"] = place.facing if place.facing is not None else facing
        elif person.joined is None:
            update["facing"] = facing
        people.append(person.model_copy(update=update))
    _line_up(model, edge, [u for u in units if u.id not in deploy],
             [p for p in people if p.joined is None and p.id not in deploy])
    side.units, side.characters = units, people


def _files(entry: ArmyUnit, place: DeploySpec | None) -> int | None:
    return place.files if place is not None and place.files is not None else entry.files


def _extent(spec: UnitSpec) -> tuple[float, float]:
    """Width and depth of a unit as :func:`warhost.rulesets.dnd4e_war.setup.build_unit`
    lays it out."""
    from warhost.rulesets.dnd4e_war.setup import DEFAULT_FILES, layout
    from warhost.rulesets.dnd4e_war.state import base_of

    if not isinstance(spec.profile, Profile):
        return 1.0, 1.0  # an unknown profile: validation names it
    base = base_of(spec.profile)
    if spec.profile.formation == "skirmish":
        per_line = min(spec.companies, 8)
        lines = math.ceil(spec.companies / per_line)
        return (per_line - 1) * (base + 1.0) + base, (lines - 1) * (base + 1.0) + base
    columns, rows = layout(spec.profile)
    files = min(spec.files or DEFAULT_FILES, spec.companies)
    return files * columns * base, math.ceil(spec.companies / files) * rows * base


def _line_up(model: Dnd4eWarScenario, edge: str, units: list[UnitSpec],
             people: list[CharacterSpec]) -> None:
    """One line along ``edge``, in list order, centred, :data:`LINE_GAP` apart, fronts at
    the deployment depth (:data:`LINE_DEPTH` when deployment is anywhere)."""
    sizes = [_extent(u) for u in units]
    sizes += [(p.base or SIZE_BASE[p.size],) * 2 for p in people]
    if not sizes:
        return
    depth = model.options.deployment_depth or LINE_DEPTH
    along = model.table.width if edge in ("south", "north") else model.table.height
    total = sum(w for w, _ in sizes) + LINE_GAP * (len(sizes) - 1)
    cursor = (along - total) / 2.0
    points = []
    for width, _deep in sizes:
        points.append(_point(model, edge, cursor + width / 2.0, depth))
        cursor += width + LINE_GAP
    for spec, at in zip(units, points, strict=False):
        spec.at = at
    for k, person in enumerate(people):
        person.at = points[len(units) + k]  # like a unit's, the middle of his front edge


def _point(model: Dnd4eWarScenario, edge: str, lateral: float,
           inward: float) -> tuple[float, float]:
    """The table point ``lateral`` inches along ``edge`` and ``inward`` inches in."""
    width, height = model.table.width, model.table.height
    return {"south": (lateral, inward), "north": (lateral, height - inward),
            "west": (inward, lateral), "east": (width - inward, lateral)}[edge]


# ---------------------------------------------------------------- items in play

def equip(state: WarState, model: Dnd4eWarScenario) -> None:
    """W4-ITEM-03: each army magic item gives its carrying unit's item bearer +2 to attack
    rolls or defenses; W4-ITEM-07: the battle banner makes its bearer a battle standard."""
    for side in model.sides:
        army = side.army
        if not isinstance(army, ArmySpec):
            continue
        for item in army.items:
            unit = state.units.get(item.unit)
            if unit is None:
                continue
            unit.items.append(item.name)
            if item.bonus == "attack":
                unit.item_attack = ITEM_BONUS
            elif item.bonus == "defenses":
                unit.item_defense = ITEM_BONUS
        banner = army.battle_banner
        bearer = state.units.get(banner.bearer) if banner is not None else None
        if banner is not None and bearer is not None:
            bearer.items.append(banner.name)
            bearer.standard = bearer.battle_standard = True


def announce(state: WarState, model: Dnd4eWarScenario, battle: Battle) -> None:
    """One ``magic_item`` event per army item and a ``battle_banner`` event per banner
    (W4-ITEM-08: a bought banner is not kept after the battle)."""
    for side in model.sides:
        army = side.army
        if not isinstance(army, ArmySpec):
            continue
        for item in army.items:
            if item.unit in state.units:
                battle.emit("magic_item", unit=item.unit, side=side.name, item=item.name,
                            bonus=item.bonus)
        banner = army.battle_banner
        if banner is not None and banner.bearer in state.units:
            battle.emit("battle_banner", character=banner.bearer, side=side.name,
                        name=banner.name, kept=banner.owned)


def standard_bearer(state: WarState, flag: Unit) -> Unit | None:
    """W4-ITEM-07, W4-CMD-10: the unit on the table that carries the battle standard of
    ``flag`` (a unit, or a character's own unit): the unit he is inside, else his own;
    None once the bearer is slain or his unit gone."""
    if flag.destroyed:
        return None
    if flag.inside is not None:
        host = state.units.get(flag.inside)
        return host if host is not None and host.alive else None
    return flag if flag.alive else None


def carries_battle_standard(state: WarState, unit: Unit) -> bool:
    """W4-CMD-08, W4-ITEM-07: the unit bears a battle standard, itself or through a
    character inside it."""
    return unit.battle_standard or any(
        state.units[c].battle_standard for c in unit.joined if c in state.units)


def item_dice(unit: Unit, dice: int, per_model: int = 1) -> int:
    """W4-ITEM-03: how many of a unit's ``dice`` rank-and-file attack dice are its item
    bearer's (rolled at +2): his own attacks, when the unit has an attack item and dice."""
    if not unit.item_attack or dice <= 0:
        return 0
    return min(dice, per_model)


def item_defense(unit: Unit) -> int:
    """W4-ITEM-03: the +2 a defensive item gives, which protects only its bearer: it counts
    when he is the unit's last model."""
    return unit.item_defense if unit.item_defense and unit.models == 1 else 0
