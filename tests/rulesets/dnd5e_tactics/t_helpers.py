"""Builders for the round, turn and duel tests of dnd5e-tactics.

Side A deploys on the south edge and faces north, side B on the north edge facing south. A
unit of 20 in Close Stance stands 10 files by 2 ranks: 5 in wide and 1 in deep. So A at
(24, 10) and B at (24, 11) touch (engaged and adjacent); B at (24, 16) is 5 in away.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from tests.orders_by_kind import OrdersByKind
from warhost.core.commanders import Commander
from warhost.core.decisions import Decision
from warhost.core.dice import ScriptedDice
from warhost.core.engine import Battle
from warhost.core.orders import Order
from warhost.core.registry import get_ruleset
from warhost.rulesets.dnd5e_tactics.context import Ctx
from warhost.rulesets.dnd5e_tactics.model import Dnd5eTacticsScenario
from warhost.rulesets.dnd5e_tactics.setup import new_state

from .helpers import GUARD, KNIGHT, SIDES, THUG, make_ctx, scenario, unit_spec

A_AT = (24.0, 10.0)
TOUCH = (24.0, 11.0)
"""B's centre touching A at (24, 10)."""
APART = (24.0, 16.0)
"""B's centre 5 in (50 ft) from A's front: out of a walk, within a Dash."""
FAR = (24.0, 30.0)
"""B's centre far out of reach."""

MACE = {"name": "Mace", "bonus": 4, "damage": "1d6+2"}


def block(base: Mapping[str, Any], **changes: Any) -> dict[str, Any]:
    """A copy of a stat block with some fields changed."""
    out = copy.deepcopy(dict(base))
    out.update(changes)
    return out


def melee_thug(**changes: Any) -> dict[str, Any]:
    """A Thug without its crossbow (melee only, Multiattack of two maces)."""
    fields: dict[str, Any] = {"attacks": [dict(MACE)]}
    fields.update(changes)
    return block(THUG, **fields)


def pair(
    a: Mapping[str, Any] | None = None,
    b: Mapping[str, Any] | None = None,
    *,
    a_at: tuple[float, float] = A_AT,
    b_at: tuple[float, float] = TOUCH,
    extra: Mapping[str, Sequence[Mapping[str, Any]]] | None = None,
    singles: Mapping[str, Sequence[Mapping[str, Any]]] | None = None,
    terrain: Sequence[Mapping[str, Any]] = (),
    **options: Any,
) -> Dnd5eTacticsScenario:
    """Unit ``a`` of side A and unit ``b`` of side B (melee Thugs under Knights unless
    ``a``/``b`` change unit_spec fields), plus ``extra`` unit specs per side."""
    a_fields: dict[str, Any] = {"member": melee_thug()}
    a_fields.update(a or {})
    b_fields: dict[str, Any] = {"member": melee_thug()}
    b_fields.update(b or {})
    units = {"A": [unit_spec("a", a_at, **a_fields)], "B": [unit_spec("b", b_at, **b_fields)]}
    for side, specs in (extra or {}).items():
        units[side] = units[side] + [dict(s) for s in specs]
    return scenario(units, singles=singles, terrain=terrain, **options)


def ctx_for(model: Dnd5eTacticsScenario, dice: Sequence[int] = (),
            orders: Mapping[str, Sequence[str]] | None = None, round_: int = 1) -> Ctx:
    """The context of ``model`` set in round ``round_``."""
    ctx = make_ctx(model, dice, orders)
    ctx.state.round = round_
    return ctx


class Passive(Commander):
    """Holds, does nothing and keeps what it has: ``hold`` or ``none`` when offered, else the
    default. Scripts fall back on it so that only the scripted choices happen."""

    kind = "passive"

    def choose(self, decision: Decision, state: Any) -> Order:
        for wanted in ("hold", "none"):
            for option in decision.options:
                if option.kind == wanted:
                    return option
        return decision.default if decision.default is not None else decision.options[0]


def quiet_ctx(model: Dnd5eTacticsScenario, dice: Sequence[int] = (),
              orders: Mapping[str, Sequence[str]] | None = None, round_: int = 0) -> Ctx:
    """Like :func:`ctx_for`, but decisions the script does not address are answered by
    :class:`Passive`."""
    commanders = {
        side: OrdersByKind((orders or {}).get(side, []),
                                Passive())
        for side in SIDES
    }
    battle = Battle(get_ruleset("dnd5e-tactics"), None, 0, commanders,  # type: ignore[arg-type]
                    dice=ScriptedDice(dice))
    ctx = Ctx(new_state(model, battle), battle)
    ctx.state.round = round_
    return ctx


def asked(ctx: Ctx, kind: str) -> list[dict[str, Any]]:
    """The decisions of one kind that were put to a commander (single-option ones are not)."""
    return [d for d in ctx.battle.decisions if d["kind"] == kind]


class Recorder:
    """Wraps a commander-facing ``Ctx.ask`` to keep every decision, options included."""

    def __init__(self, ctx: Ctx) -> None:
        self.seen: list[tuple[str, str, str, tuple[Order, ...]]] = []
        inner = ctx.ask

        def ask(side: str, kind: str, options: Sequence[Order], **kwargs: Any) -> Order:
            self.seen.append((side, kind, str(kwargs.get("subject", "")), tuple(options)))
            return inner(side, kind, options, **kwargs)

        ctx.ask = ask  # type: ignore[method-assign]

    def kinds(self) -> list[str]:
        """Decision kinds in the order asked."""
        return [k for _, k, _, _ in self.seen]

    def options(self, kind: str, subject: str | None = None) -> list[list[str]]:
        """The option texts of each decision of ``kind`` (about ``subject``, if given)."""
        return [[str(o) for o in opts] for _, k, who, opts in self.seen
                if k == kind and (subject is None or who == subject)]


__all__ = ["APART", "A_AT", "FAR", "GUARD", "KNIGHT", "THUG", "TOUCH", "Passive", "Recorder",
           "asked", "block", "ctx_for", "melee_thug", "pair", "quiet_ctx"]
