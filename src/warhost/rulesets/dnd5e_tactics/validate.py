"""Setup rules of a `dnd5e-tactics` scenario that the schema cannot express."""

from __future__ import annotations

from warhost.core.errors import ScenarioError
from warhost.rulesets.dnd5e_tactics.model import Dnd5eTacticsScenario


def check_scenario(model: Dnd5eTacticsScenario) -> None:
    """Raise :class:`ScenarioError` (with ``path``) for the first problem found."""
    names = [s.name for s in model.sides]
    if len(set(names)) != len(names):
        raise _error("two sides share a name", ("sides", 1, "name"))
    if model.defender not in names:
        raise _error(f"defender must be one of {', '.join(names)}", ("defender",))


def _error(message: str, path: tuple[str | int, ...]) -> ScenarioError:
    error = ScenarioError(message)
    error.path = path  # type: ignore[attr-defined]
    return error
