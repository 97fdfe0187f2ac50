"""`dnd35-wars`: the mass-combat rules of seed 001 for D&D 3.5 (catalog: rules/dnd35-wars.md).

Units of counters built from ordinary 3.5 stat blocks on a grid of 15 to 200 ft a square,
pooled hit points, the unit turn (morale, in-unit actions, formation, one action), the four
damage pathways between units and singular creatures, and morale.
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


class Dnd35Wars(Ruleset):
    """The `dnd35-wars` rule system."""

    name: ClassVar[str] = "dnd35-wars"
    version: ClassVar[str] = "1"
    title: ClassVar[str] = "D&D Wars (3.5)"
    summary: ClassVar[str] = (
        "Units of counters derived from 3.5 stat blocks on a 15-200 ft grid, pooled hit "
        "points, morale, and singular monsters, NPCs and PCs inside and outside units."
    )
    source: ClassVar[str] = "seeds/001_b7c7e0216554e0a8.txt"
    package_dir: ClassVar[Path | None] = Path(__file__).parent

    @property
    def scenario_model(self) -> type[BaseModel]:
        from warhost.rulesets.dnd35_wars.model import Dnd35WarsScenario

        return Dnd35WarsScenario

    def include_files(self, data: Any, source: str) -> Any:
        from warhost.rulesets.dnd35_wars.spellbook import include_libraries

        return include_libraries(data, source)

    def check_scenario(self, model: Any) -> None:
        from warhost.rulesets.dnd35_wars.validate import check_scenario

        check_scenario(model)

    def side_names(self, model: Any) -> list[str]:
        return [side.name for side in model.sides]

    def commander_kinds(self, model: Any) -> dict[str, str]:
        return {side.name: side.commander for side in model.sides}

    def new_state(self, scenario: Scenario, battle: Battle) -> Any:
        from warhost.rulesets.dnd35_wars.setup import new_state

        return new_state(scenario.model, battle)

    def play(self, state: Any, battle: Battle) -> None:
        from warhost.rulesets.dnd35_wars.game import play

        play(state, battle)

    def outcome(self, state: Any) -> Outcome:
        from warhost.rulesets.dnd35_wars.game import outcome

        return outcome(state)

    def make_ai(self) -> Commander:
        from warhost.rulesets.dnd35_wars.ai import WarsAI

        return WarsAI()

    def round_limit(self, model: Any) -> int:
        from warhost.rulesets.dnd35_wars.game import ROUND_CAP

        return int(model.options.round_limit or ROUND_CAP)

    def check_invariants(self, state: Any, events: list[dict[str, Any]]) -> list[str]:
        from warhost.rulesets.dnd35_wars.game import check_invariants

        return check_invariants(state, events)

    def explain_refusal(self, state: Any, decision: Decision, order: Order) -> Refusal | None:
        from warhost.rulesets.dnd35_wars.explain import explain_refusal

        return explain_refusal(state, decision, order)

    def army_scenario(self, units_per_side: int, rounds: int = 30) -> dict[str, Any]:
        from warhost.rulesets.dnd35_wars.armies import army_scenario

        return army_scenario(units_per_side, rounds)

    def map_view(self, state: Any) -> dict[str, Any]:
        from warhost.rulesets.dnd35_wars.view import map_view

        return map_view(state)

    def describe_event(self, event: dict[str, Any]) -> str | None:
        from warhost.rulesets.dnd35_wars.view import describe_event

        return describe_event(event)

    def exact_odds(
        self, scenario: Scenario, attacker: str, defender: str, situation: Mapping[str, Any]
    ) -> OddsReport:
        from warhost.rulesets.dnd35_wars.odds import exact_odds

        return exact_odds(scenario, attacker, defender, situation)


register(Dnd35Wars())
