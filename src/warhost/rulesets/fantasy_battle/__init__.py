"""`fantasy-battle`: the grid mass-battle rules of seed 004 (catalog: rules/fantasy-battle.md).

Squares, six-sided dice, Standard squads and Elite/Champion units, Fate Points and Heroic Feats.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from warhost.core.registry import register
from warhost.core.ruleset import Ruleset, Scenario

if TYPE_CHECKING:  # the rules themselves are imported by each hook when first needed
    from pydantic import BaseModel

    from warhost.core.battle import Battle
    from warhost.core.commanders import Commander
    from warhost.core.decisions import Decision, Refusal
    from warhost.core.odds import OddsReport
    from warhost.core.orders import Order
    from warhost.core.outcome import Outcome


class FantasyBattle(Ruleset):
    """The `fantasy-battle` rule system."""

    name: ClassVar[str] = "fantasy-battle"
    version: ClassVar[str] = "1"
    title: ClassVar[str] = "Fantasy Wargame Mass Battle Rules"
    summary: ClassVar[str] = (
        "Square grid, d6 keep-highest by rank, squads of 4 Infantry or 2 Cavalry, "
        "Fate Points and Heroic Feats; first to the victory total wins."
    )
    source: ClassVar[str] = "seeds/004_b550d7f4614d3716.txt"
    package_dir: ClassVar[Path | None] = Path(__file__).parent

    @property
    def scenario_model(self) -> type[BaseModel]:
        from warhost.rulesets.fantasy_battle.model import FantasyBattleScenario

        return FantasyBattleScenario

    def check_scenario(self, model: Any) -> None:
        from warhost.rulesets.fantasy_battle.validate import check_scenario

        check_scenario(model)

    def side_names(self, model: Any) -> list[str]:
        return [side.name for side in model.sides]

    def commander_kinds(self, model: Any) -> dict[str, str]:
        return {side.name: side.commander for side in model.sides}

    def new_state(self, scenario: Scenario, battle: Battle) -> Any:
        from warhost.rulesets.fantasy_battle.setup import new_state

        return new_state(scenario.model, battle)

    def play(self, state: Any, battle: Battle) -> None:
        from warhost.rulesets.fantasy_battle.game import play

        play(state, battle)

    def outcome(self, state: Any) -> Outcome:
        from warhost.rulesets.fantasy_battle.game import outcome

        return outcome(state)

    def make_ai(self) -> Commander:
        from warhost.rulesets.fantasy_battle.ai import FantasyBattleAI

        return FantasyBattleAI()

    def round_limit(self, model: Any) -> int:
        from warhost.rulesets.fantasy_battle.game import ROUND_CAP

        return int(model.options.max_rounds or ROUND_CAP)

    def check_invariants(self, state: Any, events: list[dict[str, Any]]) -> list[str]:
        from warhost.rulesets.fantasy_battle.game import check_invariants

        return check_invariants(state, events)

    def army_scenario(self, units_per_side: int, rounds: int = 30) -> dict[str, Any]:
        from warhost.rulesets.fantasy_battle.armies import army_scenario

        return army_scenario(units_per_side, rounds)

    def explain_refusal(self, state: Any, decision: Decision, order: Order) -> Refusal | None:
        from warhost.rulesets.fantasy_battle.explain import explain_refusal

        return explain_refusal(state, decision, order)

    def map_view(self, state: Any) -> dict[str, Any]:
        from warhost.rulesets.fantasy_battle.view import map_view

        return map_view(state)

    def describe_event(self, event: dict[str, Any]) -> str | None:
        from warhost.rulesets.fantasy_battle.view import describe_event

        return describe_event(event)

    def exact_odds(
        self, scenario: Scenario, attacker: str, defender: str, situation: Mapping[str, Any]
    ) -> OddsReport:
        from warhost.rulesets.fantasy_battle.odds import exact_odds

        return exact_odds(scenario, attacker, defender, situation)


register(FantasyBattle())
