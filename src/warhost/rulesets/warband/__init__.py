"""`warband`: the skirmish rules of seed 003 (catalog: rules/warband.md).

Characters on a square grid with facing and elevation, d10 roll-under tests with degrees of
success, five phases a turn, injuries, morale, magic, and two or more warbands in one fight.
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


class Warband(Ruleset):
    """The `warband` rule system."""

    name: ClassVar[str] = "warband"
    version: ClassVar[str] = "1"
    title: ClassVar[str] = "Warband Combat Rules"
    summary: ClassVar[str] = (
        "Characters on a square grid with facing and elevation, d10 roll-under tests with "
        "degrees of success, five phases a turn, injuries, morale and magic; two or more sides."
    )
    source: ClassVar[str] = "seeds/003_f1ec87ed66b04b8d.txt"
    package_dir: ClassVar[Path | None] = Path(__file__).parent

    @property
    def scenario_model(self) -> type[BaseModel]:
        from warhost.rulesets.warband.model import WarbandScenario

        return WarbandScenario

    def check_scenario(self, model: Any) -> None:
        from warhost.rulesets.warband.validate import check_scenario

        check_scenario(model)

    def side_names(self, model: Any) -> list[str]:
        return [side.name for side in model.sides]

    def commander_kinds(self, model: Any) -> dict[str, str]:
        return {side.name: side.commander for side in model.sides}

    def new_state(self, scenario: Scenario, battle: Battle) -> Any:
        from warhost.rulesets.warband.setup import new_state

        return new_state(scenario.model, battle)

    def play(self, state: Any, battle: Battle) -> None:
        from warhost.rulesets.warband.game import play

        play(state, battle)

    def outcome(self, state: Any) -> Outcome:
        from warhost.rulesets.warband.game import outcome

        return outcome(state)

    def make_ai(self) -> Commander:
        from warhost.rulesets.warband.ai import WarbandAI

        return WarbandAI()

    def round_limit(self, model: Any) -> int:
        from warhost.rulesets.warband.game import TURN_CAP

        return int(model.options.turn_limit or TURN_CAP)

    def check_invariants(self, state: Any, events: list[dict[str, Any]]) -> list[str]:
        from warhost.rulesets.warband.game import check_invariants

        return check_invariants(state, events)

    def army_scenario(self, units_per_side: int, rounds: int = 30) -> dict[str, Any]:
        from warhost.rulesets.warband.armies import army_scenario

        return army_scenario(units_per_side, rounds)

    def explain_refusal(self, state: Any, decision: Decision, order: Order) -> Refusal | None:
        from warhost.rulesets.warband.explain import explain_refusal

        return explain_refusal(state, decision, order)

    def map_view(self, state: Any) -> dict[str, Any]:
        from warhost.rulesets.warband.view import map_view

        return map_view(state)

    def describe_event(self, event: dict[str, Any]) -> str | None:
        from warhost.rulesets.warband.view import describe_event

        return describe_event(event)

    def exact_odds(
        self, scenario: Scenario, attacker: str, defender: str, situation: Mapping[str, Any]
    ) -> OddsReport:
        from warhost.rulesets.warband.odds import exact_odds

        return exact_odds(scenario, attacker, defender, situation)


register(Warband())
