"""``warhost units``: the derived stat block of every unit of a `dnd35-wars` scenario
(W35-UNIT-01, W35-STAT-06..10/16), with the advisory scale suggestion (W35-AMB-08)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from warhost.commands._shared import out_console, print_json
from warhost.core.errors import ScenarioError

if TYPE_CHECKING:
    from warhost.rulesets.dnd35_wars.derive import UnitBlock
    from warhost.rulesets.dnd35_wars.model import Dnd35WarsScenario, UnitSpec
    from warhost.rulesets.dnd35_wars.state import UnitAttack

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


def _rows(spec: UnitSpec, block: UnitBlock) -> list[tuple[str, str]]:
    """The W35-UNIT-01 fields of one unit, as (field, value) pairs."""
    creature = spec.creature
    dr = f", DR {block.dr}" if block.dr else ""
    morale = _signed(block.morale) + (" (immune)" if block.morale_immune else "")
    counters = (f"{block.counters} x {_fraction(block.per_counter)} = "
                f"{block.creatures} {creature.name}")
    return [
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


def _attack_json(attack: UnitAttack | None) -> dict[str, Any] | None:
    if attack is None:
        return None
    return {"bonus": attack.bonus, "damage": attack.damage, "crit_range": attack.crit_range,
            "crit_multiplier": attack.crit_multiplier, "range_increment": attack.range_increment}


def _unit_json(side: str, spec: UnitSpec, block: UnitBlock) -> dict[str, Any]:
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

    scenario = load_scenario(scenario_file)  # a bad file: the CLI's one-line error, exit 2
    if scenario.ruleset.name != RULESET:
        raise ScenarioError(f"`warhost units` shows {RULESET} units; this scenario uses "
                            f"{scenario.ruleset.name}", file=str(scenario_file), field="ruleset")
    model: Dnd35WarsScenario = scenario.model  # type: ignore[assignment]
    blocks = [(side.name, spec, derive(spec, model.scale, model.options))
              for side in model.sides for spec in side.units]
    advice = notes(model, blocks)
    if as_json:
        print_json({"file": str(scenario_file), "name": scenario.name, "scale": model.scale,
                    "units": [_unit_json(side, spec, block) for side, spec, block in blocks],
                    "notes": advice})
        return
    _print_tables(model, blocks, advice)


def _print_tables(model: Dnd35WarsScenario, blocks: list[tuple[str, UnitSpec, UnitBlock]],
                  advice: list[str]) -> None:
    from rich.table import Table

    console = out_console()
    for side, spec, block in blocks:
        late = f", enters round {spec.enters_round}" if spec.enters_round else ""
        table = Table(title=f"{spec.name or spec.creature.name} ({spec.id}, {side}{late})",
                      show_header=False, title_justify="left")
        table.add_column("Field", style="bold")
        table.add_column("Value")
        for name, value in _rows(spec, block):
            table.add_row(name, value)
        console.print(table)
    console.print(f"Scale: {model.scale} ft a square")
    for line in advice:
        console.print(line)


def register(app: typer.Typer) -> None:
    """Add the command to ``app``."""
    app.command("units")(units)
