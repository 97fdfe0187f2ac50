"""`dnd4e-war`: the mass battle rules of seed 000, D&D War Rules for 4e (catalog:
rules/dnd4e-war.md).

Companies of minions on movement trays with a fixed facing, measured in inches on an open
table; a six-phase turn with initiative, movement, shooting, charges and close combat;
courage tests, panic, fear and terror.
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


class Dnd4eWar(Ruleset):
    """The `dnd4e-war` rule system."""

    name: ClassVar[str] = "dnd4e-war"
    version: ClassVar[str] = "1"
    title: ClassVar[str] = "D&D War Rules (4e variant)"
    summary: ClassVar[str] = (
        "Companies on movement trays with facing, in inches on an open table; initiative, "
        "movement, shooting, charges, close combat, courage, panic, fear and terror."
    )
    source: ClassVar[str] = "seeds/000_ff4cfb12f714c50b.txt"
    package_dir: ClassVar[Path | None] = Path(__file__).parent

    @property
    def scenario_model(self) -> type[BaseModel]:
        from warhost.rulesets.dnd4e_war.model import Dnd4eWarScenario

        return Dnd4eWarScenario

    def check_scenario(self, model: Any) -> None:
        from warhost.rulesets.dnd4e_war.validate import check_scenario

        check_scenario(model)

    def include_files(self, data: Any, source: str) -> Any:
        from warhost.rulesets.dnd4e_war.army_file import include_armies

        return include_armies(data, source)

    def side_names(self, model: Any) -> list[str]:
        return [side.name for side in model.sides]

    def commander_kinds(self, model: Any) -> dict[str, str]:
        return {side.name: side.commander for side in model.sides}

    def new_state(self, scenario: Scenario, battle: Battle) -> Any:
        from warhost.rulesets.dnd4e_war.setup import new_state

        return new_state(scenario.model, battle)

    def play(self, state: Any, battle: Battle) -> None:
        from warhost.rulesets.dnd4e_war.game import play

        play(state, battle)

    def outcome(self, state: Any) -> Outcome:
        from warhost.rulesets.dnd4e_war.game import outcome

        return outcome(state)

    def make_ai(self) -> Commander:
        from warhost.rulesets.dnd4e_war.ai import WarAI

        return WarAI()

    def round_limit(self, model: Any) -> int:
        return int(model.options.turn_limit)

    def check_invariants(self, state: Any, events: list[dict[str, Any]]) -> list[str]:
        from warhost.rulesets.dnd4e_war.game import check_invariants

        return check_invariants(state, events)

    def army_scenario(self, units_per_side: int, rounds: int = 30) -> dict[str, Any]:
        from warhost.rulesets.dnd4e_war.armies import army_scenario

        return army_scenario(units_per_side, rounds)

    def explain_refusal(self, state: Any, decision: Decision, order: Order) -> Refusal | None:
        from warhost.rulesets.dnd4e_war.explain import explain_refusal

        return explain_refusal(state, decision, order)

    def map_view(self, state: Any) -> dict[str, Any]:
        from warhost.rulesets.dnd4e_war.view import map_view

        return map_view(state)

    def describe_event(self, event: dict[str, Any]) -> str | None:
        from warhost.rulesets.dnd4e_war.view import describe_event

        return describe_event(event)

    def exact_odds(
        self, scenario: Scenario, attacker: str, defender: str, situation: Mapping[str, Any]
    ) -> OddsReport:
        from warhost.rulesets.dnd4e_war.odds import exact_odds

        return exact_odds(scenario, attacker, defender, situation)


register(Dnd4eWar())
