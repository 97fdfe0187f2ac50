"""Helpers shared by the command modules: commanders from the command line, seeds, output
checks, JSON and the battle summary table. Exit codes live here too."""

from __future__ import annotations

import json
import os
import secrets
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from warhost.core.errors import WarhostError

if TYPE_CHECKING:  # command modules import the engine only when a command runs
    from rich.console import Console

    from warhost.core.commanders import Commander, ScriptedCommander
    from warhost.core.outcome import BattleResult
    from warhost.core.scenario import Scenario
    from warhost.render.narrative import Narrator

EXIT_DIFFERS = 1
EXIT_USAGE = 2
EXIT_INTERNAL = 3
EXIT_INTERRUPTED = 130
COMMANDER_KINDS = ("ai", "random", "first", "scripted")
MAX_SEED = 2**63 - 1
"""Seeds are whole numbers from 0 to this (NumPy's seed sequences take no negative ones)."""
PIPED_WIDTH = 200
"""Console width when the output is not a terminal: tables keep their natural width."""

Force = Annotated[
    bool, typer.Option("--force", help="Overwrite output files that exist (never done otherwise).")
]
Seed = Annotated[
    int | None,
    typer.Option(min=0, max=MAX_SEED, help="Seed (default: a random one, shown)."),
]


def one_line(text: str) -> str:
    """``text`` with its lines joined: error messages are one line."""
    return " ".join(part.strip() for part in str(text).splitlines() if part.strip())


def out_console(stderr: bool = False) -> Console:
    """A console for results (or for messages, on stderr). When the output is piped or
    redirected, tables are not squeezed to a terminal's width: they get up to
    :data:`PIPED_WIDTH` columns."""
    from rich.console import Console

    stream = sys.stderr if stderr else sys.stdout
    width = None if stream.isatty() else PIPED_WIDTH
    return Console(highlight=False, soft_wrap=True, stderr=stderr, width=width)


def print_json(data: Any) -> None:
    """``data`` as indented JSON on stdout."""
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def check_output(path: Path | None, option: str, force: bool = False) -> None:
    """Fail before any work when an output file could not be written later: no such
    directory, a directory in its place, no permission to write there, or (unless ``force``)
    a file that exists already. Commands call it for every output path before they start."""
    if path is None:
        return
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise WarhostError("no such directory", file=str(parent), field=option)
    if path.is_dir():
        raise WarhostError("is a directory, not a file name", file=str(path), field=option)
    if path.exists() and not force:
        raise WarhostError("exists already; pass --force to overwrite it, or choose another "
                           "name", file=str(path), field=option)
    if not os.access(parent, os.W_OK | os.X_OK):
        raise WarhostError("cannot write in this directory (permission denied)",
                           file=str(parent), field=option)


def side_specs(scenario: Scenario) -> dict[str, tuple[int, dict[str, Any]]]:
    """Each side's entry in the scenario data (index, mapping), by name."""
    out: dict[str, tuple[int, dict[str, Any]]] = {}
    sides = scenario.data.get("sides")
    if isinstance(sides, list):
        for index, spec in enumerate(sides):
            if isinstance(spec, dict) and "name" in spec:
                out[str(spec["name"])] = (index, spec)
    return out


def require_side(sides: Sequence[str], side: str, option: str) -> None:
    """Fail unless ``side`` is one of ``sides``."""
    if side not in sides:
        raise WarhostError(f"no side named {side!r} (sides: {', '.join(sides)})", field=option)


def parse_overrides(scenario: Scenario, overrides: Sequence[str]) -> dict[str, str]:
    """``SIDE=KIND`` options, checked against the scenario's sides and the known kinds."""
    sides = scenario.ruleset.side_names(scenario.model)
    out: dict[str, str] = {}
    for text in overrides:
        side, sep, kind = text.partition("=")
        side, kind = side.strip(), kind.strip()
        if not sep or not side or not kind:
            raise WarhostError(f"expected SIDE=KIND, got {text!r}", field="commander")
        require_side(sides, side, "commander")
        if kind not in COMMANDER_KINDS:
            raise WarhostError(
                f"unknown commander kind {kind!r} for {side} (use {', '.join(COMMANDER_KINDS)};"
                " a person plays with warhost play --side)", field="commander")
        out[side] = kind
    return out


def scripted_commander(scenario: Scenario, side: str) -> ScriptedCommander:
    """The scripted commander of ``side``: orders from the file the scenario names."""
    from warhost.core.commanders import ScriptedCommander
    from warhost.core.scenario import field_name

    index, spec = side_specs(scenario).get(side, (0, {}))
    orders = spec.get("orders")
    where = ("sides", index, "orders") if orders else ("sides", index, "commander")
    if not orders:
        raise WarhostError(f"side {side!r} is scripted but names no orders file",
                           file=scenario.source, line=scenario.line_of(where),
                           field=field_name(("sides", index, "orders")))
    path = Path(str(orders))
    if not path.is_absolute():
        path = Path(scenario.source).parent / path
    if not path.is_file():
        raise WarhostError(f"no such orders file {str(path)!r}", file=scenario.source,
                           line=scenario.line_of(where), field=field_name(where))
    return ScriptedCommander.from_file(path, fallback=scenario.ruleset.make_ai())


def make_commanders(
    scenario: Scenario,
    overrides: Mapping[str, str] | None = None,
    people: Mapping[str, Commander] | None = None,
) -> dict[str, Commander]:
    """One commander per side: a person where ``people`` names one, else the override kind,
    else the scenario's kind. Scripted sides read their orders file; ``human`` sides not
    played by a person here are played by the AI."""
    from warhost.core.engine import build_commanders, make_commander

    ruleset = scenario.ruleset
    kinds = ruleset.commander_kinds(scenario.model)
    chosen: dict[str, Commander | str] = {}
    for side in ruleset.side_names(scenario.model):
        if people and side in people:
            chosen[side] = people[side]
            continue
        kind = (overrides or {}).get(side, kinds.get(side, "ai"))
        if kind == "scripted":
            chosen[side] = scripted_commander(scenario, side)
        elif kind == "human":
            chosen[side] = make_commander("ai", ruleset)
        else:
            chosen[side] = make_commander(kind, ruleset)
    return build_commanders(scenario, chosen)


def commander_kinds(commanders: Mapping[str, Commander]) -> dict[str, str]:
    """The kind of each side's commander, by side."""
    return {side: c.kind for side, c in commanders.items()}


def pick_seed(seed: int | None) -> int:
    """The seed given, or a fresh random one."""
    return seed if seed is not None else secrets.randbelow(2**31)


def print_narrative(console: Console, result: BattleResult, narrator: Narrator) -> None:
    """The battle's events, one narrated line each."""
    from rich.text import Text

    for text, style in narrator.lines(result.log.events):
        console.print(Text(text, style=style))


def print_summary(console: Console, result: BattleResult) -> None:
    """Every unit's fate as a table, then the winner, the scores and the rounds."""
    from rich.table import Table
    from rich.text import Text

    outcome = result.outcome
    table = Table(title=f"{result.scenario} ({result.ruleset}, seed {result.seed})")
    for name, justify in (("Side", "left"), ("Unit", "left"), ("Name", "left"),
                          ("Start", "right"), ("Survivors", "right"), ("Fate", "left")):
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    for unit in outcome.units:
        table.add_row(unit.side, unit.id, unit.name, str(unit.start), str(unit.survivors),
                      unit.fate)
    console.print(table)
    scores = ", ".join(f"{side} {points}" for side, points in outcome.scores.items())
    winner = f"{outcome.winner} wins" if outcome.winner else "Draw"
    reason = f" ({outcome.reason})" if outcome.reason else ""
    console.print(Text(f"{winner}{reason}", style="bold"))
    console.print(Text(f"Scores: {scores}    Rounds: {outcome.rounds}    "
                       f"Events: {len(result.log)}"))
