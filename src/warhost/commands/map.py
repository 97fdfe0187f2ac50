"""``warhost map``: draw the battlefield at the end of a round."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from warhost.commands._shared import (
    Force,
    Seed,
    check_output,
    make_commanders,
    parse_overrides,
    pick_seed,
)
from warhost.core.errors import WarhostError

if TYPE_CHECKING:
    from warhost.core.commanders import Commander
    from warhost.core.dice import DiceSource
    from warhost.core.replay import Replay
    from warhost.core.scenario import Scenario


def map_command(
    source: Annotated[
        Path, typer.Argument(metavar="SCENARIO_OR_REPLAY", help="Scenario YAML or replay file.")
    ],
    out: Annotated[Path, typer.Option("--out", metavar="FILE", help="Image: .png or .svg.")],
    round_: Annotated[
        int | None,
        typer.Option("--round", min=0,
                     help="Draw the end of this round (0: after deployment; default: the end "
                          "of the battle)."),
    ] = None,
    seed: Seed = None,
    commander: Annotated[
        list[str] | None,
        typer.Option("--commander", metavar="SIDE=KIND", help="As for battle. Repeatable."),
    ] = None,
    force: Force = False,
) -> None:
    """Draw the battlefield at the end of a round, from a scenario or a replay."""
    from warhost.core.replay import replay_commanders, replay_dice, replay_scenario
    from warhost.core.scenario import load_scenario
    from warhost.render.maps import draw_map, map_title, output_format

    output_format(out)
    check_output(out, "out", force)
    loaded = _replay_or_none(source)
    if loaded is not None:
        if seed is not None or commander:
            raise WarhostError("--seed and --commander do not apply to a replay", field="seed")
        scenario = replay_scenario(loaded)
        used_seed = loaded.seed

        def commanders_() -> dict[str, Commander]:
            return replay_commanders(loaded, scenario)

        def dice_() -> DiceSource | None:
            return replay_dice(loaded)
    else:
        scenario = load_scenario(source)
        overrides = parse_overrides(scenario, commander or [])
        used_seed = pick_seed(seed)
        make_commanders(scenario, overrides)  # fail early on a bad orders file

        def commanders_() -> dict[str, Commander]:
            return make_commanders(scenario, overrides)

        def dice_() -> DiceSource | None:
            return None

    view, when = _view_at(scenario, used_seed, commanders_, dice_, round_)
    draw_map(view, out, title=map_title(view, scenario.name, when))
    typer.echo(f"map written to {out}: {when} (seed {used_seed})")


def _replay_or_none(path: Path) -> Replay | None:
    """The replay in ``path``, or None when ``path`` is not a replay file."""
    from warhost.core.replay import load_replay

    try:
        head = path.read_text(encoding="utf-8")[:4096]
    except (OSError, UnicodeDecodeError):
        return None  # load_scenario reports it
    if '"warhost-replay"' not in head:
        return None
    return load_replay(path)


def _view_at(
    scenario: Scenario,
    seed: int,
    commanders: Callable[[], dict[str, Commander]],
    dice: Callable[[], DiceSource | None],
    round_: int | None,
) -> tuple[dict[str, Any], str]:
    """The map view at the end of ``round_`` (0: after deployment; None: end of battle).

    This plays the battle on a :class:`Battle` of its own rather than through ``run_battle``,
    because the end of the battle needs the state object itself (``run_battle`` returns only
    the result, and the last round may end the battle before its round observers run).
    The dice and decisions are the same, so the battle is the same.
    """
    from warhost.core.battle import Battle
    from warhost.core.engine import build_commanders

    ruleset = scenario.ruleset
    battle = Battle(ruleset, scenario, seed, build_commanders(scenario, commanders()), dice())
    state = ruleset.new_state(scenario, battle)
    battle.state = state
    if round_ == 0:
        return ruleset.map_view(state), "after deployment"
    views: dict[int, dict[str, Any]] = {}

    def observe(number: int, at_end: Any) -> None:
        if number == round_:
            views[number] = ruleset.map_view(at_end)

    battle.round_observers.append(observe)
    ruleset.play(state, battle)
    battle.finish()
    rounds = ruleset.outcome(state).rounds
    if round_ is None or (round_ == rounds and round_ not in views):
        return ruleset.map_view(state), f"end of the battle (round {rounds})"
    if round_ not in views:
        raise WarhostError(f"the battle lasted {rounds} round(s); there is no round {round_}",
                           field="round")
    return views[round_], f"end of round {round_}"


def register(app: typer.Typer) -> None:
    """Add the command to ``app``."""
    app.command("map")(map_command)
