"""``warhost odds``: the exact probability of every outcome of one attack.

The numbers come from the ruleset's :meth:`~warhost.core.ruleset.Ruleset.exact_odds` hook,
which enumerates the dice (no sampling), as Battle for Wesnoth does for its attack
predictions. The command only gathers the situation from the options and prints the report.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from warhost.core.errors import WarhostError

from warhost.commands._shared import out_console

if TYPE_CHECKING:
    from rich.console import Console
    from warhost.core.odds import OddsReport

OPTION_OF_FIELD: dict[str, str] = {
    "attacker": "--attacker",
    "defender": "--defender",
    "kind": "--kind",
    "charge": "--charge",
    "at_attacker": "--at-attacker",
    "at_defender": "--at-defender",
    "facing_attacker": "--face-attacker",
    "facing_defender": "--face-defender",
    "wounded": "--wounded",
    "ignore_position": "--ignore-position",
    "options": "--option",
}
"""Fields not listed here are ruleset-specific situation keys, given with ``--set KEY=VALUE``."""
"""The command-line option behind each field the ruleset hook may name in an error."""

_POSITION_HINT = ("place them with --at-attacker X,Y / --at-defender X,Y, "
                  "or pass --ignore-position to see the odds anyway")


_HELP = (
    "Exact odds of every outcome of one attack: success, failure, defeat, wound, dismount.\n\n"
    "Computed by enumerating the dice, not by sampling. The units stand on their scenario "
    "squares unless --at-attacker/--at-defender place them; the modifiers (flanking, range, "
    "line of fire, Pike arcs ...) follow from the position."
)


def register(app: typer.Typer) -> None:
    """Add ``warhost odds`` to the command line."""
    app.command("odds", help=_HELP)(odds)


def _situation(
    kind: str | None,
    charge: bool,
    at_attacker: str | None,
    at_defender: str | None,
    face_attacker: str | None,
    face_defender: str | None,
    wounded: bool,
    ignore_position: bool,
    option: list[str],
    extra: Sequence[str] = (),
) -> dict[str, Any]:
    """The situation for the hook: only what the user set."""
    from warhost.core.odds import option_value

    situation: dict[str, Any] = {}
    for key, value in (("kind", kind), ("at_attacker", at_attacker),
                       ("at_defender", at_defender), ("facing_attacker", face_attacker),
                       ("facing_defender", face_defender)):
        if value is not None:
            situation[key] = value
    for key, flag in (("charge", charge), ("wounded", wounded),
                      ("ignore_position", ignore_position)):
        if flag:
            situation[key] = True
    overrides: dict[str, str] = {}
    for text in option:
        name, sep, value = text.partition("=")
        if not sep or not name.strip():
            raise WarhostError(f"expected NAME=VALUE, got {text!r}", field="--option")
        overrides[name.strip()] = value.strip()
    if overrides:
        situation["options"] = overrides
    for text in extra:
        name, sep, value = text.partition("=")
        if not sep or not name.strip():
            raise WarhostError(f"expected KEY=VALUE, got {text!r}", field="--set")
        situation[name.strip().replace("-", "_")] = option_value(value)
    return situation


def _percent(value: Fraction) -> str:
    return f"{float(value) * 100:.2f}%"


def _fraction(value: Fraction) -> str:
    from warhost.core.odds import fraction_json

    return str(fraction_json(value)["fraction"])


def print_report(console: Console, report: OddsReport, scenario_name: str) -> None:
    """The report as a table of outcomes, with the dice, the modifiers and the notes."""
    from rich.table import Table
    from rich.text import Text

    console.print(Text(f"{scenario_name}: {report.attacker} attacks {report.defender} "
                       f"({report.kind})", style="bold"))
    if report.dice:
        console.print(Text(f"Dice: {report.dice}"))
    if report.modifiers:
        console.print(Text("Modifiers:"))
        for line in report.modifiers:
            console.print(Text(f"  {line}"))
    else:
        console.print(Text("Modifiers: none"))
    table = Table(title="Exact odds (all dice enumerated)")
    table.add_column("Outcome")
    table.add_column("Fraction", justify="right")
    table.add_column("Probability", justify="right")
    rows = [("success", report.outcomes["success"], "bold green")]
    rows += [(f"  {name}", value, "" if value else "dim")
             for name, value in report.results.items()]
    rows.append(("failure", report.outcomes["failure"], "bold red"))
    for name, value, style in rows:
        table.add_row(Text(name, style=style), _fraction(value), _percent(value))
    console.print(table)
    if report.alternatives:
        console.print(Text("With a Fate Point:"))
        for label, value in report.alternatives.items():
            console.print(Text(f"  {label}: {_fraction(value)} ({_percent(value)})"))
    for name, value in report.details.items():
        if _is_distribution(value):
            print_distribution(console, name, value)
    for note in report.notes:
        console.print(Text(f"Note: {note}", style="italic"))


def _is_distribution(value: Any) -> bool:
    """A details entry of the form {outcome: {"fraction": ..., "probability": ...}}."""
    return isinstance(value, dict) and bool(value) and all(
        isinstance(v, dict) and "fraction" in v and "probability" in v for v in value.values())


def print_distribution(console: Console, name: str, values: dict[str, Any]) -> None:
    """One exact distribution from a report's details (damage, casualties ...) as a table."""
    from rich.table import Table

    table = Table(title=f"{name.replace('_', ' ').capitalize()} (exact)")
    table.add_column(name.replace("_", " "), justify="right")
    table.add_column("Fraction", justify="right")
    table.add_column("Probability", justify="right")
    for outcome, cell in values.items():
        table.add_row(str(outcome), str(cell["fraction"]),
                      f"{float(cell['probability']) * 100:.2f}%")
    console.print(table)


def odds(
    scenario_file: Annotated[Path, typer.Argument(metavar="SCENARIO", help="Scenario YAML.")],
    attacker: Annotated[
        str, typer.Option("--attacker", metavar="UNIT", help="Id of the attacking unit.")
    ],
    defender: Annotated[
        str, typer.Option("--defender", metavar="UNIT", help="Id of the unit attacked.")
    ],
    kind: Annotated[
        str | None,
        typer.Option("--kind", metavar="KIND",
                     help="melee, ranged or throw (default: the attack the pair can make)."),
    ] = None,
    charge: Annotated[
        bool, typer.Option("--charge", help="The attacker charged (Pike or Lancer): +1.")
    ] = False,
    at_attacker: Annotated[
        str | None,
        typer.Option("--at-attacker", metavar="X,Y",
                     help="Put the attacker on this square (default: its scenario square)."),
    ] = None,
    at_defender: Annotated[
        str | None,
        typer.Option("--at-defender", metavar="X,Y", help="Put the defender on this square."),
    ] = None,
    face_attacker: Annotated[
        str | None,
        typer.Option("--face-attacker", metavar="FACING", help="Facing of an attacking Pike."),
    ] = None,
    face_defender: Annotated[
        str | None,
        typer.Option("--face-defender", metavar="FACING", help="Facing of a defending Pike."),
    ] = None,
    wounded: Annotated[
        bool, typer.Option("--wounded", help="The defending Champion is already Wounded.")
    ] = False,
    option: Annotated[
        list[str] | None,
        typer.Option("--option", metavar="NAME=VALUE",
                     help="Override a scenario option. Repeatable."),
    ] = None,
    ignore_position: Annotated[
        bool,
        typer.Option("--ignore-position",
                     help="Report even when the attack is not legal where they stand."),
    ] = False,
    extra: Annotated[
        list[str] | None,
        typer.Option("--set", metavar="KEY=VALUE",
                     help="A ruleset-specific situation key (dnd5e-tactics: attackers, needed, "
                          "cover, stance, track, rank, advantage ...; dnd4e-war: power, dice, "
                          "cover, higher_ground, distance, margin, fear, reroll, courage ...). "
                          "Repeatable."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON document.")] = False,
) -> None:
    """Exact odds of every outcome of one attack: success, failure, defeat, wound, dismount.

    Computed by enumerating the dice, not by sampling. The units stand on their scenario
    squares unless --at-attacker/--at-defender place them; modifiers (flanking, range, line of
    fire, Pike arcs ...) follow from the position.
    """
    from warhost.commands._shared import print_json
    from warhost.core.odds import IllegalAttackError
    from warhost.core.scenario import load_scenario

    scenario = load_scenario(scenario_file)
    situation = _situation(kind, charge, at_attacker, at_defender, face_attacker,
                           face_defender, wounded, ignore_position, option or [], extra or [])
    try:
        report = scenario.ruleset.exact_odds(scenario, attacker, defender, situation)
    except WarhostError as exc:
        if exc.field in OPTION_OF_FIELD:
            exc.field = OPTION_OF_FIELD[exc.field]
        elif exc.field and exc.field in situation:
            exc.field = f"--set {exc.field}"
        if isinstance(exc, IllegalAttackError):
            exc.message = f"{exc.message}; {_POSITION_HINT}"
            exc.args = (exc.message,)
        raise
    if as_json:
        print_json({"scenario": scenario.name, "ruleset": scenario.ruleset.name,
                     **report.to_json()})
        return
    print_report(out_console(), report, scenario.name)
