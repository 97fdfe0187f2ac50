"""`dnd5e-tactics`: D&D 5e mass combat with Tactics Tracks (seed 002; catalog:
rules/dnd5e-tactics.md).

Units are blocks of identical 5e creatures with a commander, on a table measured in inches.
Hits come from a d6 divisor table, damage pools until the end of the round, then casualties,
morale, flight and rout.
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

ROUND_CAP = 100
"""Rounds after which a battle with no ``max_rounds`` is stopped as a draw (safety net)."""


class Dnd5eTactics(Ruleset):
    """The `dnd5e-tactics` rule system."""

    name: ClassVar[str] = "dnd5e-tactics"
    version: ClassVar[str] = "1"
    title: ClassVar[str] = "D&D 5e Mass Combat with Tactics Tracks"
    summary: ClassVar[str] = (
        "Continuous table in inches; units of 5e creatures with commanders, Close and Open "
        "stances, Tactics Tracks, d6 divisor table, pooled damage, morale, flight and rout."
    )
    source: ClassVar[str] = "seeds/002_d21dbec98cb2af73.txt"
    package_dir: ClassVar[Path | None] = Path(__file__).parent

    @property
    def scenario_model(self) -> type[BaseModel]:
        from warhost.rulesets.dnd5e_tactics.model import Dnd5eTacticsScenario

        return Dnd5eTacticsScenario

    def check_scenario(self, model: Any) -> None:
        from warhost.rulesets.dnd5e_tactics.validate import check_scenario

        check_scenario(model)

    def side_names(self, model: Any) -> list[str]:
        return [side.name for side in model.sides]

    def commander_kinds(self, model: Any) -> dict[str, str]:
        return {side.name: side.commander for side in model.sides}

    def new_state(self, scenario: Scenario, battle: Battle) -> Any:
        from warhost.rulesets.dnd5e_tactics.setup import new_state

        return new_state(scenario.model, battle)

    def play(self, state: Any, battle: Battle) -> None:
        from warhost.rulesets.dnd5e_tactics.rounds import play

        play(state, battle)

    def outcome(self, state: Any) -> Outcome:
        from warhost.rulesets.dnd5e_tactics.rounds import outcome

        return outcome(state)

    def make_ai(self) -> Commander:
        from warhost.rulesets.dnd5e_tactics.ai import TacticsAI

        return TacticsAI()

    def round_limit(self, model: Any) -> int:
        return int(model.options.max_rounds or ROUND_CAP)

    def check_invariants(self, state: Any, events: list[dict[str, Any]]) -> list[str]:
        from warhost.rulesets.dnd5e_tactics.rounds import check_invariants

        return check_invariants(state, events)

    def army_scenario(self, units_per_side: int, rounds: int = 30) -> dict[str, Any]:
        from warhost.rulesets.dnd5e_tactics.armies import army_scenario

        return army_scenario(units_per_side, rounds)

    def map_view(self, state: Any) -> dict[str, Any]:
        from warhost.rulesets.dnd5e_tactics.view import map_view

        return map_view(state)

    def explain_refusal(self, state: Any, decision: Decision, order: Order) -> Refusal | None:
        from warhost.rulesets.dnd5e_tactics.explain import explain_refusal

        return explain_refusal(state, decision, order)

    def describe_event(self, event: dict[str, Any]) -> str | None:
        from warhost.rulesets.dnd5e_tactics.view import describe_event

        return describe_event(event)

    def exact_odds(
        self, scenario: Scenario, attacker: str, defender: str, situation: Mapping[str, Any]
    ) -> OddsReport:
        from warhost.rulesets.dnd5e_tactics.odds import exact_odds

        return exact_odds(scenario, attacker, defender, situation)


register(Dnd5eTactics())
