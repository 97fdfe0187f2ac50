"""Builders for the tests of judged orders: what ``Battle.judge`` says of given order texts at
the moment a decision is put to a commander (open decisions included)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from warhost.core.decisions import Decision, Refusal
from warhost.core.orders import Order
from warhost.rulesets.dnd5e_tactics.context import Ctx


def judging(ctx: Ctx, kind: str, texts: Sequence[str], subject: str | None = None,
            where: Callable[[Decision], bool] | None = None) -> dict[str, Order | Refusal]:
    """Judge each of ``texts`` with :meth:`Battle.judge` when the first decision of ``kind``
    (about ``subject`` and passing ``where``, if given) comes, in the state of that moment.
    The verdicts, by text, fill the returned dict then; the decision goes on as usual."""
    verdicts: dict[str, Order | Refusal] = {}
    decide: Callable[[Decision], Order] = ctx.battle.decide

    def wrapped(decision: Decision) -> Order:
        if decision.kind == kind and not verdicts and subject in (None, decision.subject) \
                and (where is None or where(decision)):
            for text in texts:
                verdicts[text] = ctx.battle.judge(decision, text)
        return decide(decision)

    ctx.battle.decide = wrapped  # type: ignore[method-assign]
    return verdicts


def reason(verdict: Order | Refusal) -> str:
    """The refusal's text, ``reason (RULE-ID)``; fails on a legal order."""
    assert isinstance(verdict, Refusal), f"{verdict} was accepted"
    return str(verdict)
