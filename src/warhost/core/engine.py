"""The battle loop shared by every ruleset, and :func:`run_battle`, its public entry point."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from warhost.core.battle import Battle
from warhost.core.commanders import Commander, FirstOptionCommander, RandomCommander
from warhost.core.dice import DiceSource
from warhost.core.errors import WarhostError
from warhost.core.outcome import BattleResult, Outcome, UnitFate, decision_records
from warhost.core.ruleset import Ruleset, Scenario

__all__ = ["Battle", "BattleResult", "Outcome", "UnitFate", "build_commanders",
           "decision_records", "fight", "make_commander", "prepare_battle", "run_battle"]


def make_commander(kind: str, ruleset: Ruleset) -> Commander:
    """A commander of a built-in kind (``ai``, ``random``, ``first``)."""
    if kind == "ai":
        return ruleset.make_ai()
    if kind == "random":
        return RandomCommander()
    if kind == "first":
        return FirstOptionCommander()
    raise WarhostError(
        f"unknown commander kind {kind!r} (use ai, random, scripted or human)", field="commander"
    )


def build_commanders(
    scenario: Scenario, overrides: Mapping[str, Commander | str] | None = None
) -> dict[str, Commander]:
    """One commander per side: the scenario's choice unless ``overrides`` names another."""
    ruleset = scenario.ruleset
    kinds = ruleset.commander_kinds(scenario.model)
    chosen: dict[str, Commander] = {}
    for side in ruleset.side_names(scenario.model):
        want: Commander | str = (overrides or {}).get(side, kinds.get(side, "ai"))
        if want in ("human", "scripted"):
            want = "ai"  # needs I/O or a file: the CLI supplies those commanders itself
        chosen[side] = want if isinstance(want, Commander) else make_commander(want, ruleset)
    return chosen


def prepare_battle(
    scenario: Scenario,
    seed: int,
    commanders: Mapping[str, Commander | str] | None = None,
    *,
    dice: DiceSource | None = None,
    record: bool = True,
    observers: list[Callable[[int, Any], None]] | None = None,
) -> Battle:
    """The battle :func:`run_battle` plays, built but not started (see :func:`fight`)."""
    ruleset = scenario.ruleset
    battle = Battle(ruleset, scenario, seed, build_commanders(scenario, commanders), dice, record)
    battle.round_observers.extend(observers or [])
    return battle


def fight(battle: Battle) -> BattleResult:
    """Play a prepared battle to its end and return the result."""
    scenario = battle.scenario
    ruleset = scenario.ruleset
    battle.emit(
        "battle_start",
        ruleset=ruleset.versioned_name,
        scenario=scenario.name,
        seed=battle.seed,
        sides={side: c.kind for side, c in battle.commanders.items()},
    )
    state = ruleset.new_state(scenario, battle)
    battle.state = state
    for observer in battle.start_observers:
        observer(state)
    ruleset.play(state, battle)
    battle.finish()
    outcome = ruleset.outcome(state)
    battle.emit(
        "battle_end",
        winner=outcome.winner,
        scores=outcome.scores,
        rounds=outcome.rounds,
        reason=outcome.reason,
    )
    return BattleResult(
        ruleset=ruleset.name,
        scenario=scenario.name,
        seed=battle.seed,
        outcome=outcome,
        log=battle.log,
        decided=battle.decided,
    )


def run_battle(
    scenario: Scenario,
    seed: int,
    commanders: Mapping[str, Commander | str] | None = None,
    *,
    dice: DiceSource | None = None,
    record: bool = True,
    observers: list[Callable[[int, Any], None]] | None = None,
) -> BattleResult:
    """Play one battle to its end and return the result.

    ``commanders`` maps side names to a commander or a kind (``ai``, ``random``); sides not
    named use the scenario's choice. With ``record=False`` the event log keeps only a count,
    which is what Monte Carlo runs want. :class:`warhost.core.stepping.SteppedBattle` plays
    the same battle one decision at a time.

    Example:
        >>> from warhost import load_scenario, run_battle
        >>> s = load_scenario("examples/fantasy-battle/skirmish.yaml")  # doctest: +SKIP
        >>> run_battle(s, 1, {"Good": "random"}).winner in {"Good", "Evil", None}  # doctest: +SKIP
        True
    """
    return fight(prepare_battle(scenario, seed, commanders, dice=dice, record=record,
                                observers=observers))
