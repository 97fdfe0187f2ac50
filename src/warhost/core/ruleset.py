"""The ruleset interface. A rule system subclasses :class:`Ruleset`, overrides the hooks it
needs, and registers one instance with :func:`warhost.core.registry.register`.

The engine calls, in order: :meth:`Ruleset.side_names`, :meth:`Ruleset.new_state`,
:meth:`Ruleset.play` (which drives the whole battle, asking commanders through
:meth:`warhost.core.engine.Battle.decide`), then :meth:`Ruleset.outcome`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from warhost.core.errors import FieldPath, WarhostError

if TYPE_CHECKING:  # types only: importing the ruleset interface stays cheap
    from pydantic import BaseModel

    from warhost.core.battle import Battle
    from warhost.core.commanders import Commander
    from warhost.core.decisions import Decision, Refusal
    from warhost.core.odds import OddsReport
    from warhost.core.orders import Order
    from warhost.core.outcome import Outcome


class Ruleset(ABC):
    """One rule system. Metadata lives in class attributes; behaviour in the hooks."""

    name: ClassVar[str]
    version: ClassVar[str] = "1"
    title: ClassVar[str] = ""
    summary: ClassVar[str] = ""
    source: ClassVar[str] = ""
    package_dir: ClassVar[Path | None] = None

    @property
    def versioned_name(self) -> str:
        """``name@version``, as stored in replays."""
        return f"{self.name}@{self.version}"

    @property
    @abstractmethod
    def scenario_model(self) -> type[BaseModel]:
        """The pydantic model of this ruleset's scenario files (import it inside the property,
        so that listing rulesets does not load every ruleset's code)."""

    def include_files(self, data: Any, source: str) -> Any:
        """The scenario data with the other files it names (army lists ...) read into it, so
        that the data stands alone (replays and simulation workers keep only the data).
        Raise :class:`warhost.core.errors.ScenarioError` naming the included file for its
        problems. Default: the data unchanged."""
        return data

    def check_scenario(self, model: Any) -> None:
        """Setup rules that the schema alone cannot express (placement, squad sizes ...).

        Raise :class:`warhost.core.errors.ScenarioError` with ``path`` set to the offending
        field's location, so the loader can name its line. Default: nothing to check.
        """

    @abstractmethod
    def side_names(self, model: Any) -> list[str]:
        """The names of the sides, in the scenario's order."""

    def commander_kinds(self, model: Any) -> dict[str, str]:
        """The commander kind each side asks for in the scenario (default: ``ai``)."""
        return {name: "ai" for name in self.side_names(model)}

    @abstractmethod
    def new_state(self, scenario: Scenario, battle: Battle) -> Any:
        """Build the starting battle state (after deployment)."""

    @abstractmethod
    def play(self, state: Any, battle: Battle) -> None:
        """Run the battle to its end, asking commanders and emitting events."""

    @abstractmethod
    def outcome(self, state: Any) -> Outcome:
        """Who won, the scores, the rounds played and what became of every unit."""

    @abstractmethod
    def make_ai(self) -> Commander:
        """A fresh AI commander for this ruleset."""

    def round_limit(self, model: Any) -> int:
        """The most rounds a battle of this scenario can last (conformance checks it)."""
        return 1000

    def check_invariants(self, state: Any, events: list[dict[str, Any]]) -> list[str]:
        """Ruleset-specific invariants, checked by the conformance suite after a battle.

        Return one sentence per violation (empty: all hold). Events follow the shared
        conventions: ``round_start`` (``round``) and ``score`` (``side``, ``total``).
        """
        return []

    def state_to_json(self, state: Any) -> dict[str, Any]:
        """The battle state as plain JSON data. Default: ``state.to_json()``."""
        result: dict[str, Any] = state.to_json()
        return result

    def map_view(self, state: Any) -> dict[str, Any]:
        """Plain data for drawing the battlefield (see :mod:`warhost.render.maps`)."""
        raise NotImplementedError(f"{self.name} has no map view")

    def explain_refusal(self, state: Any, decision: Decision, order: Order) -> Refusal | None:
        """Why ``order`` is not a legal answer to ``decision`` in ``state``: the reason in a few
        words and the rule ID it breaks (``7 squares, an Infantry unit moves at most 6``,
        ``FB-MOVE-01``). Only called for orders that are not legal. Default: None, and the
        engine gives a generic reason."""
        return None

    def describe_event(self, event: dict[str, Any]) -> str | None:
        """One line of narrative for an event, or None to use the generic text."""
        return None

    def exact_odds(
        self, scenario: Scenario, attacker: str, defender: str, situation: Mapping[str, Any]
    ) -> OddsReport:
        """Exact probabilities of every outcome of one attack, by enumerating the dice.

        ``attacker`` and ``defender`` are unit ids of ``scenario``; ``situation`` describes the
        position and circumstances (keys are the ruleset's own, e.g. ``kind``, ``charge``,
        ``at_attacker``). Raise :class:`warhost.core.errors.WarhostError` with ``field`` set to
        the offending argument (``attacker``, ``defender`` or a situation key) for bad input.
        Default: this ruleset has no exact odds.
        """
        raise WarhostError(f"{self.name} has no exact odds")

    def army_scenario(self, units_per_side: int, rounds: int = 30) -> dict[str, Any]:
        """Plain scenario data of a field battle with ``units_per_side`` units a side that stops
        after ``rounds`` rounds, for the scale benchmark and the tests of how cost grows with
        the army. Default: none."""
        raise NotImplementedError(f"{self.name} has no army scenario")

    def examples(self) -> list[Path]:
        """Example scenario files shipped for this ruleset."""
        root = Path(__file__).resolve().parents[3] / "examples" / self.name
        return sorted(root.glob("*.yaml")) if root.is_dir() else []


@dataclass
class Scenario:
    """A validated scenario: the ruleset, its model, the plain data and where it came from.

    It lives beside :class:`Ruleset` because each refers to the other (a scenario is read by
    its ruleset's model; the ruleset's hooks take scenarios); :mod:`warhost.core.scenario`
    reads the files.
    """

    ruleset: Ruleset
    model: Any
    data: dict[str, Any]
    source: str = "<scenario>"
    lines: dict[FieldPath, int] = field(default_factory=dict, repr=False)

    @property
    def name(self) -> str:
        """The scenario's name (or its file name)."""
        return str(self.data.get("name") or Path(self.source).stem)

    def line_of(self, path: FieldPath) -> int | None:
        """The line of the deepest known part of ``path``."""
        for cut in range(len(path), -1, -1):
            line = self.lines.get(tuple(path[:cut]))
            if line is not None:
                return line
        return None
