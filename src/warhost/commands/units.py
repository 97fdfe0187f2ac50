"""``warhost units``: the derived stat block of every unit of a `dnd35-wars` scenario
(W35-UNIT-01, W35-STAT-06..10/16), with the advisory scale suggestion (W35-AMB-08).

The numbers are those the battle starts with: the stat block derived from the creature, then
what the machine modules make of it (a siege weapon unit's 15-ft move, W35-SWU-07/AMB-13; a
siege tower's 7 stacked counters, initiative -4 and 7.5 ft a round, W35-TOWER-07/09/13; a ram
unit's AC without Dexterity and its blow, W35-RAM-04/08), the machine itself, and every
caster's spells (level, uses, save DC)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from warhost.commands._shared import out_console, print_json
from warhost.core.errors import ScenarioError

if TYPE_CHECKING:
    from warhost.rulesets.dnd35_wars.derive import UnitBlock
    from warhost.rulesets.dnd35_wars.model import Creature, Dnd35WarsScenario, Spell, UnitSpec
    from warhost.rulesets.dnd35_wars.state import Unit, UnitAttack, WarState

RULESET = "dnd35-wars"
COUNTERS_ADVISED = (4, 16)
"""W35-SCALE-09: counters a unit should have at the start."""


def _signed(value: int) -> str:
    return f"{value:+d}"


def _fraction(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def _attack(attack: UnitAttack | None) -> str:
    """An attack as a stat block prints it: bonus, damage, critical, range increment."""
    if attack is None:
        return "-"
    threat = f"{attack.crit_range}-20/" if attack.crit_range < 20 else ""
    text = f"{_signed(attack.bonus)} ({attack.damage}, {threat}x{attack.crit_multiplier}"
    if attack.range_increment is not None:
        text += f", {attack.range_increment} ft"
    return text + ")"


def _class_level(spec: UnitSpec) -> str:
    creature = spec.creature
    cls = creature.class_name or creature.type
    return f"{cls} {creature.level}"


def _rows(spec: UnitSpec, block: UnitBlock, state: WarState | None = None
          ) -> list[tuple[str, str]]:
    """The W35-UNIT-01 fields of one unit, as (field, value) pairs; with ``state`` (the
    battle as it starts), its machine's changes and rows and its spells too."""
    creature = spec.creature
    dr = f", DR {block.dr}" if block.dr else ""
    morale = _signed(block.morale) + (" (immune)" if block.morale_immune else "")
    counters = (f"{block.counters} x {_fraction(block.per_counter)} = "
                f"{block.creatures} {creature.name}")
    rows = [
        ("Counters", counters),
        ("Unit HP", str(block.unit_hp)),
        ("Counter HP", str(block.counter_hp)),
        ("Morale", morale),
        ("Race", creature.race or creature.type),
        ("Class/Level", _class_level(spec)),
        ("Init", _signed(block.initiative)),
        ("AC", f"{block.ac}, touch {block.touch_ac}{dr}"),
        ("Fort/Ref/Will", f"{_signed(block.fort)}/{_signed(block.ref)}/{_signed(block.will)}"),
        ("Move Rate", f"{_fraction(block.rate)} squares"),
        ("Melee", _attack(block.melee)),
        ("Ranged", _attack(block.ranged)),
    ]
    if state is None or spec.id not in state.units:
        return rows
    unit = state.units[spec.id]
    changed = dict(_machine_changes(spec, unit, block))
    rows = [(name, changed.pop(name, value)) for name, value in rows]
    return (rows + list(changed.items()) + _machine_row(state, unit)
            + _spell_rows(creature, state.spells))


def _machine_changes(spec: UnitSpec, unit: Unit, block: UnitBlock) -> list[tuple[str, str]]:
    """The rows a siege weapon, siege tower or ram changes or adds."""
    from warhost.rulesets.dnd35_wars import ram, tables
    from warhost.rulesets.dnd35_wars.derive import ability_modifier

    if unit.machine == "tower":
        return [("Counters", (f"{unit.counters} x {_fraction(unit.per_counter)} = "
                             f"{unit.derived_creatures} {spec.creature.name}, stacked on one "
                             "square (W35-TOWER-09)")),
                ("Unit HP", str(unit.hp)), ("Counter HP", str(unit.counter_hp)),
                ("Init", f"{_signed(unit.initiative_mod)} (tower -4, W35-TOWER-07)"),
                ("Move Rate", (f"{_fraction(unit.rate)} squares (7.5 ft a round, "
                              "W35-TOWER-13, W35-AMB-13)"))]
    if unit.machine == "siege" and spec.siege_weapon is not None:
        weapon = tables.siege_weapon(spec.siege_weapon)
        return [("Move Rate", (f"{_fraction(unit.rate)} squares (15 ft a round, W35-SWU-07, "
                              "W35-AMB-13)")),
                ("Crew", f"{weapon.crew} of {spec.count} (W35-SWU-05)"),
                ("Rate of Fire", (f"{weapon.rate_of_fire} rounds to fire and reload "
                                 "(W35-SIEGE-13)"))]
    if unit.machine == "ram":
        crew = ram.swingers(unit)
        strength = ability_modifier(unit.creature.str_score)
        dr = f", DR {block.dr}" if block.dr else ""
        return [("AC", f"{unit.ac}, touch {unit.touch_ac}{dr} (no Dex, W35-RAM-08)"),
                ("Ram", (f"14 + {crew} x {_signed(strength)} Str = {ram.ram_damage(unit)} a "
                        "blow, less hardness (W35-RAM-04)"))]
    return []


def _machine_row(state: WarState, unit: Unit) -> list[tuple[str, str]]:
    """The machine a unit carries: its weapon's numbers, HP, AC and hardness."""
    from warhost.rulesets.dnd35_wars import tables

    machine = state.machines.get(unit.id)
    if machine is None:
        return []
    body = f"{machine.hp} HP, AC {machine.ac}, hardness {machine.hardness}"
    if machine.kind == "tower":
        return [("Siege Tower", f"{body} (W35-TOWER-05, W35-AMB-46)")]
    weapon = tables.siege_weapon(machine.name)
    crit = (f", {weapon.crit[0]}-20/x{weapon.crit[1]}" if weapon.crit else "")
    least = f", min {weapon.minimum_range} ft" if weapon.minimum_range else ""
    return [("Siege Weapon", (f"{machine.name.replace('_', ' ')} {weapon.damage}{crit}, "
                             f"{weapon.range_increment} ft{least}; {body} (W35-SIEGE-04/16)"))]


def _spell_text(creature: Creature, spells: dict[str, Spell]) -> list[str]:
    """Each known spell: name, level, uses, save DC (special abilities marked)."""
    from warhost.rulesets.dnd35_wars import spellbook

    out = []
    for known in creature.spells:
        spell = spells.get(known.spell)
        if spell is None:
            continue
        uses = "at will" if known.uses is None else f"{known.uses}/battle"
        dc = f", DC {spellbook.save_dc(spell, known, creature)}" if spell.save != "none" else ""
        special = ", special" if known.special else ""
        out.append(f"{known.spell} (level {spell.level}, {uses}{dc}{special})")
    return out


def _spell_rows(creature: Creature, spells: dict[str, Spell]) -> list[tuple[str, str]]:
    known = _spell_text(creature, spells)
    if not known:
        return []
    level = f"CL {creature.caster_level}: " if creature.caster_level else ""
    return [("Spells", level + "; ".join(known))]


def _attack_json(attack: UnitAttack | None) -> dict[str, Any] | None:
    if attack is None:
        return None
    return {"bonus": attack.bonus, "damage": attack.damage, "crit_range": attack.crit_range,
            "crit_multiplier": attack.crit_multiplier, "range_increment": attack.range_increment}


def _unit_json(side: str, spec: UnitSpec, block: UnitBlock,
               state: WarState | None = None) -> dict[str, Any]:
    out = _block_json(side, spec, block)
    unit = state.units.get(spec.id) if state is not None else None
    if state is None or unit is None:
        return out
    out.update(counters=unit.counters if unit.squares else block.counters,
               initiative=unit.initiative_mod, ac=unit.ac, touch_ac=unit.touch_ac,
               move_rate=_fraction(unit.rate), unit_type=unit.machine or "standard",
               spells=_spells_json(spec.creature, state.spells))
    machine = state.machines.get(unit.id)
    if machine is not None:
        out["machine"] = {"kind": machine.kind, "name": machine.name, "hp": machine.hp,
                          "ac": machine.ac, "hardness": machine.hardness}
    if unit.machine == "siege" and spec.siege_weapon is not None:
        weapon = _weapon(spec.siege_weapon)
        out.update(crew=weapon.crew, rate_of_fire=weapon.rate_of_fire)
    if unit.machine == "ram":
        from warhost.rulesets.dnd35_wars import ram

        out["ram_damage"] = ram.ram_damage(unit)
    return out


def _weapon(name: str) -> Any:
    """The siege weapon table row ``name`` (W35-SIEGE-16)."""
    from warhost.rulesets.dnd35_wars import tables

    return tables.siege_weapon(name)


def _spells_json(creature: Creature, spells: dict[str, Spell]) -> list[dict[str, Any]]:
    from warhost.rulesets.dnd35_wars import spellbook

    return [{"spell": known.spell, "level": spells[known.spell].level, "uses": known.uses,
             "dc": spellbook.save_dc(spells[known.spell], known, creature)
             if spells[known.spell].save != "none" else None, "special": known.special}
            for known in creature.spells if known.spell in spells]


CASTER_COLUMNS = ("Caster", "Side", "With", "CL", "Spell", "Level", "Uses", "DC")
"""The columns of the spellcasters' table: one row a spell (or turning)."""


def _casters(state: WarState) -> list[dict[str, Any]]:
    """One entry for each spell (and turning) of every singular creature that casts."""
    out: list[dict[str, Any]] = []
    for single in state.singles.values():
        creature = single.creature
        where = single.host or (f"{single.square[0]},{single.square[1]}"
                                if single.square is not None else None)
        head = {"caster": single.id, "side": single.side, "with": where,
                "caster_level": creature.caster_level}
        out += [{**head, **entry} for entry in _spells_json(creature, state.spells)]
        if creature.turning_level > 0:
            out.append({**head, "spell": "turn undead", "level": creature.turning_level,
                        "uses": creature.turning_uses, "dc": None, "special": False,
                        "turning": True})
    return out


def _caster_rows(state: WarState) -> list[tuple[str, ...]]:
    """The spellcasters' table, one row a spell."""
    rows: list[tuple[str, ...]] = []
    for entry in _casters(state):
        name = entry["spell"] + (" (special)" if entry["special"] else "")
        level = (f"cleric {entry['level']}" if entry.get("turning") else str(entry["level"]))
        rows.append((entry["caster"], entry["side"], entry["with"] or "-",
                     str(entry["caster_level"] or "-"), name, level,
                     "at will" if entry["uses"] is None else str(entry["uses"]),
                     "-" if entry["dc"] is None else str(entry["dc"])))
    return rows


def _block_json(side: str, spec: UnitSpec, block: UnitBlock) -> dict[str, Any]:
    return {
        "side": side, "id": spec.id, "name": spec.name or spec.creature.name,
        "counters": block.counters, "per_counter": _fraction(block.per_counter),
        "creatures": block.creatures, "unit_hp": block.unit_hp, "counter_hp": block.counter_hp,
        "morale": block.morale, "morale_immune": block.morale_immune,
        "race": spec.creature.race or spec.creature.type, "class_level": _class_level(spec),
        "initiative": block.initiative, "ac": block.ac, "touch_ac": block.touch_ac,
        "dr": block.dr, "fort": block.fort, "ref": block.ref, "will": block.will,
        "move_rate": _fraction(block.rate), "size": block.size,
        "melee": _attack_json(block.melee), "ranged": _attack_json(block.ranged),
        "enters_round": spec.enters_round,
    }


def notes(model: Dnd35WarsScenario, blocks: list[tuple[str, UnitSpec, UnitBlock]]) -> list[str]:
    """Advice, never errors: too many units (W35-AMB-72), the suggested scale for the largest
    unit (W35-SCALE-04/07/08, W35-AMB-08), units outside 4 to 16 counters (W35-SCALE-09)."""
    from warhost.rulesets.dnd35_wars import tables
    from warhost.rulesets.dnd35_wars.validate import warnings

    out = [f"warning: {text}" for text in warnings(model)]
    if blocks:
        _side, spec, block = max(blocks, key=lambda b: b[1].count)
        suggested = tables.suggest_scale(spec.count, block.size)
        verdict = "the scale in use" if suggested == model.scale else (
            f"the scenario uses {model.scale} ft; advisory only")
        out.append(f"suggested scale: {suggested} ft for the largest unit, {spec.id!r} "
                   f"({spec.count} {block.size} creatures) ({verdict}; W35-SCALE-04, W35-AMB-08)")
    low, high = COUNTERS_ADVISED
    for _side, spec, block in blocks:
        if not low <= block.counters <= high:
            out.append(f"note: {spec.id!r} has {block.counters} counters; {low} to {high} play "
                       "best (W35-SCALE-09)")
    return out


def units(
    scenario_file: Annotated[Path, typer.Argument(metavar="SCENARIO", help="Scenario YAML.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON document.")] = False,
) -> None:
    """Print the derived stat block of every unit of a dnd35-wars scenario (W35-UNIT-01)."""
    from warhost.core.scenario import load_scenario
    from warhost.rulesets.dnd35_wars.derive import derive
    from warhost.rulesets.dnd35_wars.setup import initial_state

    scenario = load_scenario(scenario_file)  # a bad file: the CLI's one-line error, exit 2
    if scenario.ruleset.name != RULESET:
        raise ScenarioError(f"`warhost units` shows {RULESET} units; this scenario uses "
                            f"{scenario.ruleset.name}", file=str(scenario_file), field="ruleset")
    model: Dnd35WarsScenario = scenario.model  # type: ignore[assignment]
    blocks = [(side.name, spec, derive(spec, model.scale, model.options))
              for side in model.sides for spec in side.units]
    state = initial_state(model)  # no dice: placement and the machine modules' set-up
    advice = notes(model, blocks)
    if as_json:
        print_json({"file": str(scenario_file), "name": scenario.name, "scale": model.scale,
                    "units": [_unit_json(side, spec, block, state)
                              for side, spec, block in blocks],
                    "casters": _casters(state), "notes": advice})
        return
    _print_tables(model, blocks, advice, state)


def _print_tables(model: Dnd35WarsScenario, blocks: list[tuple[str, UnitSpec, UnitBlock]],
                  advice: list[str], state: WarState | None = None) -> None:
    from rich.table import Table

    console = out_console()
    for side, spec, block in blocks:
        late = f", enters round {spec.enters_round}" if spec.enters_round else ""
        table = Table(title=f"{spec.name or spec.creature.name} ({spec.id}, {side}{late})",
                      show_header=False, title_justify="left")
        table.add_column("Field", style="bold")
        table.add_column("Value")
        for name, value in _rows(spec, block, state):
            table.add_row(name, value)
        console.print(table)
    casters = _caster_rows(state) if state is not None else []
    if casters:
        table = Table(title="Spellcasters", title_justify="left")
        for column in CASTER_COLUMNS:
            table.add_column(column)
        for row in casters:
            table.add_row(*row)
        console.print(table)
    console.print(f"Scale: {model.scale} ft a square")
    for line in advice:
        console.print(line)


def register(app: typer.Typer) -> None:
    """Add the command to ``app``."""
    app.command("units")(units)
