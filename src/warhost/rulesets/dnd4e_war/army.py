"""Army building (W4-ARMY, W4-ITEM, W4-AMB-67 to 73, W4-AMB-95, W4-DEC-01): the points
budget, unit and magic item prices, formation and item limits, tiers in play, and the checks
of an army list. Pure rules: no files, no printing."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from warhost.rulesets.dnd4e_war.model import (
    ArmySpec,
    ArmyUnit,
    BattleSpec,
    Options,
    Power,
    Profile,
)
from warhost.rulesets.dnd4e_war.tables import tier

Where = tuple[str | int, ...]
PointsTable = Literal["corrected", "literal"]

# ---------------------------------------------------------------- the points budget

_SMALL = (3000, 3750, 4500, 5250, 6000, 7500, 9000, 10500, 12000, 15000,
          18000, 21000, 24000, 30000, 36000, 42000, 48000, 60000, 72000, 840000,
          96000, 124500, 153000, 181500, 210000, 270000, 330000, 390000, 450000, 870000)
_MEDIUM = (6000, 7500, 9000, 10500, 12000, 15000, 18000, 21000, 24000, 30000,
           36000, 42000, 48000, 60000, 72000, 84000, 96000, 120000, 144000, 168000,
           192000, 249000, 306000, 363000, 420000, 540000, 660000, 780000, 900000, 1740000)
_LARGE = (9000, 11250, 13500, 15750, 18000, 22500, 27000, 31500, 36000, 45000,
          54000, 63000, 72000, 90000, 108000, 126000, 144000, 180000, 216000, 252000,
          288000, 373500, 459000, 5445000, 630000, 810000, 990000, 1170000, 1350000, 2610000)

LITERAL_POINTS: dict[int, tuple[int, int, int, int]] = {
    level: (_SMALL[level - 1], _MEDIUM[level - 1], _LARGE[level - 1], _SMALL[level - 1])
    for level in range(1, 31)
}
"""W4-ARMY-06 as printed: Small, Medium, Large and the Huge increment (the printed Huge
column equals the Small one in every row)."""

CORRECTIONS: dict[tuple[int, str], int] = {
    (20, "small"): 84000, (20, "huge"): 84000,
    (24, "large"): 544500,
    (30, "small"): 570000, (30, "medium"): 1140000, (30, "large"): 1710000,
    (30, "huge"): 570000,
}
"""W4-AMB-67: the misprinted cells and the values the 30/60/90 x XP pattern gives."""

SIZES = ("small", "medium", "large", "huge")
_COLUMN = {"small": 0, "medium": 1, "large": 2, "huge": 3}


ROUGHLY = 0.9
"""W4-ARMY-07: an army under this share of its budget is warned that it should total
roughly the budget."""


def points_row(level: int, table: PointsTable = "corrected") -> tuple[int, int, int, int]:
    """W4-ARMY-06, W4-AMB-67: the row of ``level`` (Small, Medium, Large, Huge increment)."""
    row = list(LITERAL_POINTS[level])
    if table == "corrected":
        for size, column in _COLUMN.items():
            row[column] = CORRECTIONS.get((level, size), row[column])
    return row[0], row[1], row[2], row[3]


def budget(level: int, size: str, table: PointsTable = "corrected", huge_steps: int = 1) -> int:
    """W4-ARMY-06, W4-AMB-68: each army's points for a battle of ``level`` and ``size``; Huge
    is Large plus the increment once per step."""
    small, medium, large, step = points_row(level, table)
    return {"small": small, "medium": medium, "large": large,
            "huge": large + step * huge_steps}[size]


def size_steps(size: str, huge_steps: int = 1) -> int:
    """Size increases over Small: medium 1, large 2, huge 2 + ``huge_steps`` (W4-AMB-68)."""
    return {"small": 0, "medium": 1, "large": 2, "huge": 2 + huge_steps}[size]


@dataclass(frozen=True)
class Limits:
    """W4-ARMY-09: at least ``common`` common formations, at most ``special`` special and
    ``rare`` rare ones."""

    common: int
    special: int
    rare: int


def formation_limits(size: str, huge_steps: int = 1) -> Limits:
    """W4-ARMY-09, W4-AMB-68: 2+/0-3/0-1 at Small, one more of each per size step."""
    steps = size_steps(size, huge_steps)
    return Limits(2 + steps, 3 + steps, 1 + steps)


# ---------------------------------------------------------------- magic items

ITEM_COST: dict[int, tuple[int, int, int]] = {
    1: (100, 600, 3200), 2: (125, 700, 4150), 3: (150, 800, 5100), 4: (175, 1000, 6050),
    5: (200, 1200, 7000), 6: (250, 1400, 9000), 7: (300, 1600, 11000),
    8: (350, 2000, 13000), 9: (400, 2400, 15000), 10: (500, 2800, 19000),
}
"""W4-ITEM-05: cost by row (item level less 0, 10 or 20) for heroic, paragon and epic."""

ITEM_BONUS = 2
"""W4-ITEM-03: any bonus of an army magic item counts as +2, to its carrier only."""


def item_limit(size: str, huge_steps: int = 1) -> int:
    """W4-ITEM-01: 2 magic items in a small battle and 1 more per size step."""
    return 2 + size_steps(size, huge_steps)


def item_level(battle_level: int) -> int:
    """W4-ITEM-04, W4-AMB-73: the item level an army must buy: the battle level (1 to 30)."""
    return min(30, max(1, battle_level))


def item_cost(level: int) -> int:
    """W4-ITEM-05, W4-AMB-73: the points of a magic item of ``level``."""
    return ITEM_COST[(level - 1) % 10 + 1][tier(level) - 1]


def banner_cost(level: int, owned: bool = False) -> int:
    """W4-ITEM-06/09: a battle banner costs two magic items of its level; a character's own
    magic banner used as the battle banner costs one."""
    return item_cost(level) * (1 if owned else 2)


# ---------------------------------------------------------------- unit prices and tiers

def tier_values(text: str) -> list[str]:
    """W4-ARMY-10/12: the heroic, paragon and epic parts of ``a/b/c`` (one part: all three)."""
    parts = [p.strip() for p in text.split("/")]
    return parts if len(parts) == 3 else [parts[0]] * 3


def price(profile: Profile, level: int) -> int | None:
    """W4-ARMY-10: the profile's points per company (skirmishers: per model) at the battle's
    tier; a single number is the price at every tier; None when it has none."""
    if profile.points is None:
        return None
    if isinstance(profile.points, int):
        return profile.points
    return int(tier_values(profile.points)[tier(level) - 1])


def points_in_play(profile: Profile) -> int | None:
    """The points of a profile in play (converted to its battle's tier at setup, so three
    values left mean a heroic battle: the first)."""
    if isinstance(profile.points, str):
        return int(tier_values(profile.points)[0])
    return profile.points


def category(entry: ArmyUnit, profile: Profile) -> str | None:
    """W4-ARMY-08, W4-AMB-71: a Monster Manual monster is rare; otherwise the profile's."""
    return "rare" if entry.xp is not None else profile.category


def models_bought(entry: ArmyUnit, profile: Profile) -> int:
    """Models in a unit bought at full strength (W4-AMB-95)."""
    if profile.formation == "skirmish":
        return entry.companies
    from warhost.rulesets.dnd4e_war.setup import layout

    columns, rows = layout(profile)
    return entry.companies * columns * rows


def unit_cost(entry: ArmyUnit, profile: Profile, level: int) -> int:
    """W4-AMB-95, W4-ARMY-08: price per company x whole companies; a Monster Manual monster
    costs its XP per model."""
    if entry.xp is not None:
        return entry.xp * models_bought(entry, profile)
    return (price(profile, level) or 0) * entry.companies


def in_tier(profile: Profile, level_tier: int) -> Profile:
    """W4-ARMY-11/12: the profile as it fights at a tier (1 heroic, 2 paragon, 3 epic): the
    tier's damage and points values, and at paragon and epic +10/+20 to initiative, defenses
    and attack rolls, or the profile's own stat line for the tier instead."""
    line = {2: profile.paragon, 3: profile.epic}.get(level_tier)
    add = 10 * (level_tier - 1) if line is None else 0
    powers = [_power_in_tier(p, level_tier, add, line.powers if line else {})
              for p in profile.powers]
    update: dict[str, object] = {"powers": powers}
    if isinstance(profile.points, str):
        update["points"] = int(tier_values(profile.points)[level_tier - 1])
    if line is not None:
        update.update(initiative=line.initiative, defenses=line.defenses)
        if line.hp is not None:
            update["hp"] = line.hp
    elif add:
        d = profile.defenses
        update.update(initiative=profile.initiative + add, defenses=d.model_copy(update={
            "ac": d.ac + add, "fortitude": d.fortitude + add, "reflex": d.reflex + add,
            "will": d.will + add}))
    return profile.model_copy(update=update)


def _power_in_tier(power: Power, level_tier: int, add: int, bonuses: dict[str, int]) -> Power:
    damage = tier_values(power.damage)[level_tier - 1]
    bonus = bonuses.get(power.name, power.bonus + add)
    return power.model_copy(update={"damage": damage, "bonus": bonus})


def needs_tier(profile: Profile, level_tier: int) -> bool:
    """Whether :func:`in_tier` changes anything (most heroic profiles: no copy needed)."""
    return (level_tier > 1 or isinstance(profile.points, str)
            or any("/" in p.damage for p in profile.powers))


# ---------------------------------------------------------------- checking an army

@dataclass(frozen=True)
class Problem:
    """One finding: an error breaks a rule the army must keep; a warning a "should"."""

    message: str
    rule: str
    where: Where
    error: bool = True


@dataclass(frozen=True)
class Line:
    """The cost of one unit of the list."""

    id: str
    name: str
    category: str
    companies: int
    each: int
    cost: int


@dataclass
class Report:
    """An army checked against its battle: costs, totals, limits and problems."""

    name: str
    level: int
    size: str
    budget: int
    overage: int
    huge_steps: int = 1
    units: list[Line] = field(default_factory=list)
    items: list[tuple[str, str, int]] = field(default_factory=list)
    """(item, carrier, cost) of each army magic item and of the battle banner."""
    problems: list[Problem] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        """The army's points: units, magic items and battle banner (characters cost 0)."""
        return sum(u.cost for u in self.units) + sum(i[2] for i in self.items)

    @property
    def errors(self) -> list[Problem]:
        """The problems that make the list illegal."""
        return [p for p in self.problems if p.error]

    @property
    def warnings(self) -> list[Problem]:
        """The problems that are advice ("should")."""
        return [p for p in self.problems if not p.error]


def army_options(army: ArmySpec, options: Options | None = None) -> tuple[PointsTable, int, int]:
    """Points table, huge steps and overage: the army's own, else the scenario's (or the
    defaults)."""
    base = options or Options()
    return (army.points_table or base.points_table,
            army.huge_steps if army.huge_steps is not None else base.huge_steps,
            army.points_overage if army.points_overage is not None else base.points_overage)


def profile_for(army: ArmySpec, entry: ArmyUnit) -> Profile | None:
    """The profile of an army unit: inline or named in the army's profiles."""
    if isinstance(entry.profile, Profile):
        return entry.profile
    return army.profiles.get(entry.profile)


def check_army(army: ArmySpec, battle: BattleSpec | None = None,
               options: Options | None = None) -> Report:
    """Every rule of W4-ARMY and W4-ITEM an army list must (errors) or should (warnings)
    keep, for a battle of the army's level and size unless ``battle`` says otherwise."""
    table, steps, overage = army_options(army, options)
    level, size = (battle.level, battle.size) if battle else (army.level, army.size)
    report = Report(army.name, level, size, budget(level, size, table, steps), overage, steps)
    if (army.level, army.size) != (level, size):
        report.problems.append(Problem(
            f"the army is built for a level {army.level} {army.size} battle, not level "
            f"{level} {size} (W4-DEC-01: both armies use the agreed level and size)",
            "W4-DEC-01", ("level",)))
    _check_units(army, report)
    _check_items(army, report)
    _check_banner(army, report)
    _check_characters(army, report)
    limit = report.budget + overage
    if report.total < ROUGHLY * report.budget:
        report.problems.append(Problem(
            f"{report.total} points is well under the budget of {report.budget}; an army "
            "should total roughly its budget (W4-ARMY-07)", "W4-ARMY-07", ("units",),
            error=False))
    if report.total > limit:
        over = f" + {overage} overage" if overage else ""
        report.problems.append(Problem(
            f"{report.total} points is over the budget of {report.budget}{over} for a level "
            f"{level} {size} battle (W4-ARMY-07, W4-AMB-69)", "W4-AMB-69", ("units",)))
    return report


def _check_units(army: ArmySpec, report: Report) -> None:
    counts = {"common": 0, "special": 0, "rare": 0}
    seen: set[str] = set()
    for k, entry in enumerate(army.units):
        where: Where = ("units", k)
        if entry.id in seen:
            report.problems.append(Problem(f"two units have the id {entry.id!r}", "W4-DEC-01",
                                           (*where, "id")))
        seen.add(entry.id)
        profile = profile_for(army, entry)
        if profile is None:
            known = ", ".join(sorted(army.profiles)) or "none"
            report.problems.append(Problem(f"unknown profile {entry.profile!r} (known: "
                                           f"{known})", "W4-AMB-71", (*where, "profile")))
            continue
        kind = category(entry, profile)
        if kind is None:
            report.problems.append(Problem(
                f"{entry.id}: its profile {profile.name!r} states no category (common, special "
                "or rare; W4-AMB-71)", "W4-AMB-71", (*where, "profile")))
        else:
            counts[kind] += 1
        if entry.xp is None and price(profile, report.level) is None:
            report.problems.append(Problem(
                f"{entry.id}: its profile {profile.name!r} has no points (W4-ARMY-10)",
                "W4-ARMY-10", (*where, "profile")))
        low, high = profile.unit_size
        if entry.xp is None and not low <= entry.companies <= high:
            what = "models" if profile.formation == "skirmish" else "companies"
            report.problems.append(Problem(
                f"{entry.id}: {entry.companies} {what}; units are bought in whole companies "
                f"from {low} to {high} (W4-AMB-95)", "W4-AMB-95", (*where, "companies")))
        cost = unit_cost(entry, profile, report.level)
        each = entry.xp if entry.xp is not None else price(profile, report.level) or 0
        report.units.append(Line(entry.id, entry.name or profile.name, kind or "-",
                                 entry.companies, each, cost))
    _check_formations(counts, army, report)


def _check_formations(counts: dict[str, int], army: ArmySpec, report: Report) -> None:
    limits = formation_limits(report.size, report.huge_steps)
    size = report.size
    if counts["common"] < limits.common:
        report.problems.append(Problem(
            f"{counts['common']} common formations; a {size} battle needs at least "
            f"{limits.common} (W4-ARMY-09)", "W4-ARMY-09", ("units",)))
    for kind, most in (("special", limits.special), ("rare", limits.rare)):
        if counts[kind] > most:
            report.problems.append(Problem(
                f"{counts[kind]} {kind} formations; a {size} battle allows 0 to {most} "
                "(W4-ARMY-09)", "W4-ARMY-09", ("units",)))


def _check_items(army: ArmySpec, report: Report) -> None:
    units = {u.id for u in army.units}
    people = {c.id for c in army.characters}
    most = item_limit(report.size, report.huge_steps)
    if len(army.items) > most:
        report.problems.append(Problem(
            f"{len(army.items)} magic items; a {report.size} battle allows {most} (W4-ITEM-01)",
            "W4-ITEM-01", ("items",)))
    wanted = item_level(report.level)
    for k, item in enumerate(army.items):
        where: Where = ("items", k)
        if item.unit in people:
            report.problems.append(Problem(
                f"{item.name}: army magic items are carried by units, not by the character "
                f"{item.unit} (W4-ITEM-02)", "W4-ITEM-02", (*where, "unit")))
        elif item.unit not in units:
            report.problems.append(Problem(f"{item.name}: no unit {item.unit!r} in the army "
                                           "carries it (W4-ITEM-02)", "W4-ITEM-02",
                                           (*where, "unit")))
        if item.level != wanted:
            report.problems.append(Problem(
                f"{item.name}: level {item.level}; a level {report.level} battle takes items "
                f"of level {wanted} (W4-ITEM-04, W4-AMB-73)", "W4-ITEM-04", (*where, "level")))
        report.items.append((item.name, item.unit, item_cost(item.level)))


def _check_banner(army: ArmySpec, report: Report) -> None:
    banner = army.battle_banner
    if banner is None:
        return
    people = {c.id for c in army.characters}
    if banner.bearer not in people:
        report.problems.append(Problem(
            f"{banner.name}: the battle banner is borne by a character of the army, not "
            f"{banner.bearer!r} (W4-ITEM-06)", "W4-ITEM-06", ("battle_banner", "bearer")))
    if not banner.owned and banner.level != item_level(report.level):
        report.problems.append(Problem(
            f"{banner.name}: level {banner.level}; a bought battle banner is of the battle's "
            f"level, {item_level(report.level)} (W4-ITEM-04, W4-AMB-73)", "W4-ITEM-04",
            ("battle_banner", "level")))
    report.items.append((banner.name, banner.bearer, banner_cost(banner.level, banner.owned)))
    if not banner.owned:
        report.notes.append(f"{banner.name} is bought for this battle and not kept after it "
                            "(W4-ITEM-08).")


def _check_characters(army: ArmySpec, report: Report) -> None:
    people = army.characters
    owned = sum(len(c.items) for c in people)
    if owned:
        report.notes.append(f"{owned} magic items of the characters' own are outside the "
                            "item limit and the points (W4-ITEM-10).")
    campaign = army.campaign
    if campaign is None:
        at_level = sum(1 for c in people if c.level == report.level)
        if not 3 <= len(people) <= 5 or at_level != len(people):
            report.problems.append(Problem(
                f"{len(people)} characters, {at_level} of the battle's level {report.level}; a "
                "battle outside a campaign should have 3 to 5 of that level (W4-ARMY-03)",
                "W4-ARMY-03", ("characters",), error=False))
        return
    if len(people) != campaign.party_size or any(c.level != campaign.party_level
                                                 for c in people):
        report.problems.append(Problem(
            f"{len(people)} characters; a campaign battle should field as many as the party "
            f"({campaign.party_size}) at its level {campaign.party_level} (W4-ARMY-02)",
            "W4-ARMY-02", ("characters",), error=False))
    if abs(report.level - campaign.party_level) > 4:
        report.problems.append(Problem(
            f"battle level {report.level} is more than four levels from the party's "
            f"{campaign.party_level} (W4-ARMY-04)", "W4-ARMY-04", ("level",), error=False))


def compare_armies(first: ArmySpec, second: ArmySpec) -> list[Problem]:
    """W4-ARMY-01 and W4-DEC-01 between two armies: the same battle level and size (an
    error), and the same number of characters at the same levels (a warning)."""
    found = []
    if (first.level, first.size) != (second.level, second.size):
        found.append(Problem(
            f"{first.name} is built for level {first.level} {first.size}, {second.name} for "
            f"level {second.level} {second.size}; both armies use the agreed battle (W4-DEC-01)",
            "W4-DEC-01", ("level",)))
    levels = sorted(c.level for c in first.characters), sorted(c.level for c in second.characters)
    if levels[0] != levels[1]:
        found.append(Problem(
            f"{first.name} has characters of levels {levels[0] or 'none'}, {second.name} of "
            f"levels {levels[1] or 'none'}; both should have as many at the same level "
            "(W4-ARMY-01)", "W4-ARMY-01", ("characters",), error=False))
    return found
