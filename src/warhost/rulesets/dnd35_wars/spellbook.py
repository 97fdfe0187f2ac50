"""Spells as the battle reads them: looking one up, what a caster of a given level gets from it
(range, damage, healing, duration, save DC), saving throws of units and creatures
(W35-MAGIC-07..10) and which creatures a spell can affect.

The shipped library of common spells is ``spells/core.yaml`` next to this module; a scenario
names it (``spell_library: [core]``) or its own files, read by :func:`include_libraries`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from warhost.core.battle import Battle
from warhost.core.damage_dice import DamageDice
from warhost.core.decisions import did_you_mean
from warhost.core.errors import FieldPath, ScenarioError, SetupError, read_user_file
from warhost.core.scenario import field_name, read_yaml, validation_problem
from warhost.rulesets.dnd35_wars.damage import roll_save
from warhost.rulesets.dnd35_wars.model import Creature, KnownSpell, Spell
from warhost.rulesets.dnd35_wars.state import Single, Unit, WarState

MAX_SPELL_LEVEL = 9
"""The highest spell level (standard 3.5)."""

SPELLS_DIR = Path(__file__).parent / "spells"
"""Where the shipped spell libraries live (``core`` is ``spells/core.yaml``)."""

MAX_LIBRARY_BYTES = 1_000_000
"""The largest spell library file, in bytes (as for scenarios)."""


# ------------------------------------------------------------------------ looking spells up


def spell_of(state: WarState, name: str) -> Spell:
    """The battle's spell called ``name``; a ValueError naming it (and a near name) if none."""
    spell = state.spells.get(name)
    if spell is None:
        raise ValueError(f"unknown spell {name!r}{did_you_mean(name, state.spells)}")
    return spell


# -------------------------------------------------------------------- a caster's numbers


def max_spell_level(caster_level: int) -> int:
    """The highest spell level a full caster of this caster level casts: (CL + 1) // 2, at
    most 9; −1 (none) below caster level 1."""
    if caster_level < 1:
        return -1
    return min(MAX_SPELL_LEVEL, (caster_level + 1) // 2)


def save_dc(spell: Spell, known: KnownSpell, creature: Creature) -> int:
    """The save DC of a known spell: its own ``dc``, else 10 + spell level + the caster's
    casting ability modifier (standard 3.5)."""
    if known.dc is not None:
        return known.dc
    return 10 + spell.level + creature.casting_modifier


def range_feet(spell: Spell, caster_level: int) -> int | None:
    """A spell's range in feet at a caster level (standard 3.5 ranges): personal 0, close
    25 + 5 per 2 levels, medium 100 + 10 per level, long 400 + 40 per level, or the feet the
    spell gives; None for touch (the squares must touch instead, W35-MAGIC-07)."""
    level = max(0, caster_level)
    match spell.range:
        case "personal":
            return 0
        case "touch":
            return None
        case "close":
            return 25 + 5 * (level // 2)
        case "medium":
            return 100 + 10 * level
        case "long":
            return 400 + 40 * level
        case int(feet):
            return feet
    raise ValueError(f"unknown range {spell.range!r}")


def levels_counted(spell: Spell, caster_level: int) -> int:
    """Caster levels that count for the spell's damage or healing: at most its cap, at
    least 1."""
    cap = spell.level_cap if spell.level_cap is not None else caster_level
    return max(1, min(caster_level, cap))


def level_steps(spell: Spell, caster_level: int) -> int:
    """How many times ``damage_per_level`` is added at a caster level: once per
    ``per_level_step`` levels from ``per_level_from`` on (once a level for most spells; magic
    missile: a missile at 1st and every 2 levels after); at least once."""
    levels = max(levels_counted(spell, caster_level), spell.per_level_from)
    return (levels - spell.per_level_from) // spell.per_level_step + 1


def _combine(parts: list[tuple[DamageDice, int]]) -> str | None:
    """The expression for the sum of ``count`` times each parsed expression, like dice
    merged (``3 × 1d4+1`` is ``3d4+3``); None when nothing is added."""
    groups: dict[tuple[int, int], int] = {}
    flat = 0
    for dice, times in parts:
        if times <= 0:
            continue
        for count, sides, sign in dice.dice:
            groups[(sides, sign)] = groups.get((sides, sign), 0) + count * times
        flat += dice.flat * times
    if not groups and not flat and not any(times > 0 for _, times in parts):
        return None
    text = ""
    for (sides, sign), count in sorted(groups.items(), key=lambda g: (-g[0][1], -g[0][0])):
        text += f"{'-' if sign < 0 else '+'}{count}d{sides}"
    if flat:
        text += f"{flat:+d}"
    return text.lstrip("+") or "0"


def damage_expr(spell: Spell, caster_level: int) -> str | None:
    """The damage one creature takes at a caster level: the fixed damage plus the per-level
    dice (fireball at caster level 7: ``7d6``); None for a spell that deals no damage."""
    parts: list[tuple[DamageDice, int]] = []
    if spell.damage is not None:
        parts.append((DamageDice.parse(spell.damage), 1))
    if spell.damage_per_level is not None:
        parts.append((DamageDice.parse(spell.damage_per_level), level_steps(spell, caster_level)))
    return _combine(parts) if parts else None


def heal_amount_expr(spell: Spell, caster_level: int) -> str | None:
    """The healing one creature gets at a caster level (cure light wounds at caster level 3:
    ``1d8+3``); None for a spell that does not heal."""
    if spell.heal is None and not spell.heal_per_level:
        return None
    parts: list[tuple[DamageDice, int]] = []
    if spell.heal is not None:
        parts.append((DamageDice.parse(spell.heal), 1))
    if spell.heal_per_level:
        parts.append((DamageDice(dice=(), flat=spell.heal_per_level),
                      levels_counted(spell, caster_level)))
    return _combine(parts)


def duration_rounds(spell: Spell, caster_level: int) -> int:
    """Rounds a spell's effect lasts at a caster level (0: instantaneous)."""
    return spell.duration + spell.duration_per_level * max(0, caster_level)


# ------------------------------------------------------------------------- saving throws


def _unit_modifier() -> Callable[[Unit, str], int] | None:
    """The lasting modifiers of units (``conditions.modifier``), once that module exists."""
    try:
        module = importlib.import_module("warhost.rulesets.dnd35_wars.conditions")
    except ModuleNotFoundError:
        return None
    hook: Callable[[Unit, str], int] | None = getattr(module, "modifier", None)
    return hook


def save_bonus(who: Unit | Single, save: str) -> int:
    """The Fortitude, Reflex or Will bonus of a unit (its typical creature's, with the unit's
    lasting ``saves`` modifiers) or of a singular creature (W35-MAGIC-09)."""
    if save not in ("fort", "ref", "will"):
        raise ValueError(f"no saving throw called {save!r}")
    if isinstance(who, Single):
        return int(getattr(who.creature, save))
    bonus = int(getattr(who, save))
    modifier = _unit_modifier()
    return bonus + (modifier(who, "saves") if modifier is not None else 0)


def unit_saves(battle: Battle, bonus: int, dc: int, why: str) -> bool:
    """One saving throw for a whole unit or creature: d20 + bonus against the DC, a natural 1
    failing and a natural 20 succeeding; every affected counter shares it (W35-MAGIC-09/10)."""
    return roll_save(battle, bonus, dc, why)


def creature_hd(creature: Creature) -> int:
    """A creature's Hit Dice (its level when none are given)."""
    return creature.hd if creature.hd is not None else creature.level


def affects(spell: Spell, creature: Creature) -> bool:
    """Whether a spell can affect this kind of creature: its creature types (``undead``
    matches an undead creature of any type) and its Hit Dice limit."""
    if spell.creature_types:
        kinds = {creature.type.lower()} | ({"undead"} if creature.undead else set())
        if not kinds & {kind.lower() for kind in spell.creature_types}:
            return False
    return spell.max_hd is None or creature_hd(creature) <= spell.max_hd


# ---------------------------------------------------------------------- spell libraries


def shipped_libraries() -> list[str]:
    """The names of the spell libraries shipped with the ruleset."""
    return sorted(path.stem for path in SPELLS_DIR.glob("*.yaml"))


def library_path(entry: str, source: str, index: int = 0) -> Path:
    """The file a ``spell_library`` entry names: a shipped library by name (``core``), or a
    path relative to the scenario file."""
    if "/" not in entry and "\\" not in entry and not entry.endswith((".yaml", ".yml")):
        if entry not in shipped_libraries():
            problem = SetupError(f"no shipped spell library {entry!r}"
                                 f"{did_you_mean(entry, shipped_libraries())} (shipped: "
                                 f"{', '.join(shipped_libraries())}; a file of your own is "
                                 f"named by its path, e.g. spells/mine.yaml)",
                                 ("spell_library", index))
            problem.file = source  # the loader adds the entry's line
            raise problem
        return SPELLS_DIR / f"{entry}.yaml"
    return Path(source).parent / entry


class SpellLibrary(BaseModel):
    """A spell library file: a list of spell definitions, with an optional description."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    description: Annotated[str, Field(max_length=4000)] = ""
    spells: list[Spell] = Field(max_length=1000)


def load_library(path: Path) -> list[dict[str, Any]]:
    """The spell definitions of a library file, each checked as a :class:`Spell`; the file's
    first problem is raised naming the file, line and field."""
    source = str(path)
    text = read_user_file(path, ScenarioError, "spell library", max_bytes=MAX_LIBRARY_BYTES)
    data, lines = read_yaml(text, source)
    if not isinstance(data, dict):
        raise ScenarioError("a spell library must be a mapping with a `spells` list",
                            file=source, line=1)
    try:
        library = SpellLibrary.model_validate(data)
    except ValidationError as exc:
        errors = sorted(exc.errors(), key=lambda e: e["type"] != "extra_forbidden")
        raise validation_problem(errors[0], SpellLibrary, source, lines, data) from None
    seen: dict[str, int] = {}
    for index, spell in enumerate(library.spells):
        if spell.name in seen:
            where: FieldPath = ("spells", index, "name")
            raise ScenarioError(f"spell {spell.name!r} is defined twice (first at "
                                f"spells[{seen[spell.name]}])", file=source,
                                line=lines.get(where), field=field_name(where))
        seen[spell.name] = index
    return list(data["spells"])


def include_libraries(data: Any, source: str) -> Any:
    """Scenario data with the spells of its ``spell_library`` files added after its own
    ``spells`` (a scenario spell replaces a library spell of the same name; a later library
    one of an earlier library) and the list of libraries emptied, so the data stands alone."""
    if not isinstance(data, dict) or not data.get("spell_library"):
        return data
    entries = data["spell_library"]
    if not isinstance(entries, list) or not all(isinstance(e, str) for e in entries):
        return data  # the model reports the field's type
    own = data.get("spells") or []
    if not isinstance(own, list):
        return data
    own_names = {s.get("name") for s in own if isinstance(s, dict)}
    merged: dict[str, dict[str, Any]] = {}
    for index, entry in enumerate(entries):
        for spell in load_library(library_path(entry, source, index)):
            if spell["name"] not in own_names:
                merged[spell["name"]] = spell
    # the scenario's own spells keep their places, so their problems are named at their lines
    return {**data, "spell_library": [], "spells": [*own, *merged.values()]}
