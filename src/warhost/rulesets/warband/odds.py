"""Exact odds of one `warband` attack (the ruleset's exact-odds hook)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from warhost.core.errors import WarhostError
from warhost.core.odds import OddsReport
from warhost.core.ruleset import Scenario


def exact_odds(scenario: Scenario, attacker: str, defender: str,
               situation: Mapping[str, Any]) -> OddsReport:
    """Every outcome of one attack with its exact probability."""
    raise WarhostError("warband has no exact odds yet")
