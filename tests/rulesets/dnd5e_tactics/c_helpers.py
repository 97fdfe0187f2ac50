"""Builders for the combat, area, Single Character and odds tests of dnd5e-tactics.

Positions: side A's units face north, side B's face south. A unit of 20 in Close Stance is
10 files by 2 ranks, 5 in wide and 1 in deep, so A at (24, 10) and B at (24, 11) touch
(engaged, adjacent); B at (24, 20) is 8.5 in (85 ft) away.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from warhost.rulesets.dnd5e_tactics.context import Ctx
from warhost.rulesets.dnd5e_tactics.model import Dnd5eTacticsScenario
from warhost.rulesets.dnd5e_tactics.state import Single

from .helpers import KNIGHT, MAGE, THUG, make_ctx, scenario, unit_spec

NEAR = (24.0, 11.0)
"""B's centre touching A at (24, 10)."""
FAR = (24.0, 20.0)
"""B's centre 85 ft from A at (24, 10)."""

OGRE: dict[str, Any] = {
    "name": "Ogre", "ac": 11, "hp": 59, "speed": 40, "dex": -1,
    "attacks": [{"name": "Greatclub", "bonus": 6, "damage": "2d8+4"}],
}


def stats(base: Mapping[str, Any], **changes: Any) -> dict[str, Any]:
    """A copy of a stat block with some fields changed."""
    out = copy.deepcopy(dict(base))
    out.update(changes)
    return out


def mace_only(damage: str = "1d6+2", **changes: Any) -> dict[str, Any]:
    """A Thug with one melee attack (no Multiattack)."""
    return stats(THUG, attacks=[{"name": "Mace", "bonus": 4, "damage": damage}],
                 multiattack=[], **changes)


def duo(
    a: Mapping[str, Any] | None = None,
    b: Mapping[str, Any] | None = None,
    *,
    b_at: tuple[float, float] = NEAR,
    singles: Mapping[str, Sequence[Mapping[str, Any]]] | None = None,
    terrain: Sequence[Mapping[str, Any]] = (),
    **options: Any,
) -> Dnd5eTacticsScenario:
    """Unit ``a`` of side A at (24, 10) and unit ``b`` of side B at ``b_at``; ``a``/``b`` are
    extra unit_spec fields (``member``, ``members``, ``stance``, ``track`` ...)."""
    a_fields = dict(a or {})
    b_fields = dict(b or {})
    return scenario(
        {"A": [unit_spec("a", (24.0, 10.0), **a_fields)],
         "B": [unit_spec("b", b_at, **b_fields)]},
        singles=singles, terrain=terrain, **options)


def single_spec(id_: str, at: tuple[float, float], block: Mapping[str, Any] = OGRE
                ) -> dict[str, Any]:
    """A Single Character entry."""
    return {"id": id_, "stats": copy.deepcopy(dict(block)), "at": list(at)}


def single(ctx: Ctx, id_: str) -> Single:
    """A Single Character of the state by id."""
    body = ctx.state.bodies[id_]
    assert isinstance(body, Single)
    return body


def ctx_of(model: Dnd5eTacticsScenario, dice: Sequence[int] = (),
           orders: Mapping[str, Sequence[str]] | None = None, round_: int = 1) -> Ctx:
    """The context of ``model`` in round ``round_``."""
    ctx = make_ctx(model, dice, orders)
    ctx.state.round = round_
    return ctx


__all__ = ["FAR", "KNIGHT", "MAGE", "NEAR", "OGRE", "THUG", "ctx_of", "duo", "mace_only",
           "single", "single_spec", "stats"]
