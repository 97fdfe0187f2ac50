"""``warhost play``: a person commands one side at the terminal."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from warhost.commands._shared import (
    Seed,
    check_output,
    commander_kinds,
    make_commanders,
    out_console,
    pick_seed,
    print_summary,
    require_side,
)

if TYPE_CHECKING:
    from warhost.core.decisions import Decision
    from warhost.core.dice import DiceSource
    from warhost.core.replay import RecordingDice


def play(
    scenario_file: Annotated[Path, typer.Argument(metavar="SCENARIO", help="Scenario YAML.")],
    side: Annotated[str, typer.Option("--side", help="The side you command.")],
    seed: Seed = None,
    manual_dice: Annotated[
        bool, typer.Option("--manual-dice", help="Type in the faces of real dice.")
    ] = False,
    replay: Annotated[
        Path | None, typer.Option("--replay", metavar="FILE", help="Save a replay file.")
    ] = None,
) -> None:
    """Command one side yourself; the other keeps the scenario's commander."""
    from rich.text import Text

    from warhost.core.commanders import HumanCommander
    from warhost.core.dice import ManualDice, SeededDice
    from warhost.core.engine import run_battle
    from warhost.core.replay import RecordingDice, save_replay
    from warhost.core.scenario import load_scenario
    from warhost.render.narrative import Narrator

    check_output(replay, "replay")
    scenario = load_scenario(scenario_file)
    ruleset = scenario.ruleset
    require_side(ruleset.side_names(scenario.model), side, "side")
    console = out_console()
    narrator = Narrator(ruleset)
    seed = pick_seed(seed)

    def ask(prompt: str) -> str:
        return console.input(Text(prompt, style="bold"))

    # The dice object is the battle's; after the battle is built its ``log`` is the event
    # log, which lets the narrative run live between the person's decisions.
    manual: RecordingDice | None = None
    dice: DiceSource
    if manual_dice:
        def ask_dice(prompt: str) -> str:
            flush()
            return ask(prompt)

        dice = manual = RecordingDice(ManualDice(ask_dice))
    else:
        dice = SeededDice(_battle_dice_seed(seed))

    def flush() -> None:
        if dice.log is not None:
            for text, style in narrator.new_lines(dice.log.events):
                console.print(Text(text, style=style))

    shown_round = [-1]

    def describe(decision: Decision, state: Any) -> str:
        flush()
        view = _map_view_or_none(ruleset, state)
        if view is not None and view.get("round") != shown_round[0]:
            from warhost.render.maps import map_title, text_map

            shown_round[0] = int(view.get("round", 0))
            picture = text_map(view)
            if picture:
                console.print(Text(map_title(view, scenario.name), style="bold"))
                console.print(Text(picture))
        subject = f" ({decision.subject})" if decision.subject else ""
        return f"{side}: {decision.prompt or decision.kind}{subject}"

    human = HumanCommander(ask=ask, show=lambda text: console.print(Text(text)),
                           describe=describe)
    commanders = make_commanders(scenario, people={side: human})
    console.print(Text(f"You command {side}. Seed {seed}. Type the number of an order, "
                       "its text, or ? for the list.", style="bold"))
    result = run_battle(scenario, seed, commanders, dice=dice,
                        observers=[lambda _round, _state: flush()])
    flush()
    if replay is not None:
        save_replay(result, scenario, replay, commander_kinds(commanders),
                    dice=manual.faces if manual is not None else None)
    console.print()
    print_summary(console, result)
    if replay is not None:
        console.print(Text(f"Replay saved to {replay}"))


def _battle_dice_seed(seed: int) -> Any:
    """The seed sequence :class:`Battle` gives its own dice (the first spawned child), so a
    battle played with explicit seeded dice equals one played with the default dice."""
    import numpy as np

    return np.random.SeedSequence(seed).spawn(1)[0]


def _map_view_or_none(ruleset: Any, state: Any) -> dict[str, Any] | None:
    try:
        view: dict[str, Any] = ruleset.map_view(state)
    except NotImplementedError:
        return None
    return view


def register(app: typer.Typer) -> None:
    """Add the command to ``app``."""
    app.command('play')(play)
