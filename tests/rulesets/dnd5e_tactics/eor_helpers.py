"""Builders for the End of Round tests: standard layouts, damage that leaves a chosen number
of members and a decision spy."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from warhost.core.decisions import Decision
from warhost.core.orders import Order
from warhost.rulesets.dnd5e_tactics.context import Ctx
from warhost.rulesets.dnd5e_tactics.state import Unit

from .helpers import GUARD, KNIGHT, THUG, make_ctx, scenario, unit, unit_spec

__all__ = [
    "GUARD", "KNIGHT", "THUG", "build", "facing_pair", "spy", "unit",
    "unit_spec", "wound",
]


def build(
    units: Mapping[str, Sequence[Mapping[str, Any]]],
    dice: Sequence[int] = (),
    orders: Mapping[str, Sequence[str]] | None = None,
    **kw: Any,
) -> Ctx:
    """A context for a scenario made of ``units`` (other scenario keywords pass through)."""
    return make_ctx(scenario(units, **kw), dice=dice, orders=orders)


def facing_pair(
    a_members: int = 20, b_members: int = 20, gap: float = 0.0, *,
    a_member: Mapping[str, Any] = THUG, b_member: Mapping[str, Any] = THUG,
    a_extra: Mapping[str, Any] | None = None, b_extra: Mapping[str, Any] | None = None,
) -> dict[str, list[dict[str, Any]]]:
    """Unit A1 (south, facing north) and B1 (north, facing south), their fronts ``gap`` inches
    apart around y = 18 on the 48 x 36 board (0 and 0.5 are engaged, more is not)."""
    depth_a = 0.5 * (-(-a_members // 10) - 1) + 0.5
    depth_b = 0.5 * (-(-b_members // 10) - 1) + 0.5
    a = unit_spec("A1", (24.0, 18.0 - depth_a / 2), a_members, a_member, facing=0,
                  **dict(a_extra or {}))
    b = unit_spec("B1", (24.0, 18.0 + gap + depth_b / 2), b_members, b_member, facing=180,
                  **dict(b_extra or {}))
    return {"A": [a], "B": [b]}


def wound(body: Unit, left: int, extra: int = 0) -> None:
    """Give ``body`` exactly the pooled damage that leaves ``left`` members, plus ``extra``."""
    body.tdr = (body.members - left) * body.member_hp + extra


def spy(ctx: Ctx) -> list[Decision]:
    """Every decision put to a commander from now on (single-option ones included)."""
    seen: list[Decision] = []
    decide: Callable[[Decision], Order] = ctx.battle.decide

    def wrapped(decision: Decision) -> Order:
        seen.append(decision)
        return decide(decision)

    ctx.battle.decide = wrapped  # type: ignore[method-assign]
    return seen


KNIGHT_CHA = KNIGHT["saves"]["cha"]
