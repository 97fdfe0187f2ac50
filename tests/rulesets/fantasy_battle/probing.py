"""Test driver for refusals and given paths: a commander that reads orders like a person (so
open decisions are asked), tries orders on the live decisions through ``Battle.judge`` and
answers from a script by decision kind."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from warhost.core.commanders import Commander
from warhost.core.decisions import Decision, Refusal
from warhost.core.dice import ScriptedDice
from warhost.core.engine import Battle
from warhost.core.orders import Order
from warhost.core.registry import get_ruleset
from warhost.rulesets.fantasy_battle import game
from warhost.rulesets.fantasy_battle.state import FBState


class Stop(Exception):
    """Raised by a probe after the decision it was told to stop at (see ``stop_after``)."""


class Probe(Commander):
    """Judges each text in ``tries[kind]`` on the first decision of that kind, or in
    ``tries["kind#n"]`` on the n-th (results in :attr:`verdicts`, by text), then answers with
    the next text of ``script[kind]`` (which must be legal) or the default. With
    ``stop_after`` (a kind, or ``kind#n``) it raises :class:`Stop` once it has judged the tries
    on that decision (to end a battle there)."""

    kind = "probe"
    reads_orders = True

    def __init__(self, script: Mapping[str, Sequence[str]] | None = None,
                 tries: Mapping[str, Sequence[str]] | None = None,
                 stop_after: str | None = None) -> None:
        self.script = {k: list(v) for k, v in (script or {}).items()}
        self.tries = {k: list(v) for k, v in (tries or {}).items()}
        self.verdicts: dict[str, Order | Refusal] = {}
        self.asked: list[Decision] = []
        self.stop_after = stop_after
        self.seen: dict[str, int] = {}

    def choose(self, decision: Decision, state: Any) -> Order:
        self.asked.append(decision)
        kind = decision.kind
        count = self.seen[kind] = self.seen.get(kind, 0) + 1
        keys = [f"{kind}#{count}", kind] if count == 1 else [f"{kind}#{count}"]
        for key in keys:
            for text in self.tries.pop(key, []):
                self.verdicts[text] = self.judge(decision, text)
        if self.stop_after in keys:
            raise Stop(kind)
        queue = self.script.get(decision.kind)
        if queue:
            verdict = self.judge(decision, queue.pop(0))
            assert isinstance(verdict, Order), str(verdict)
            return verdict
        return decision.default if decision.default is not None else decision.options[0]

    def said(self, text: str) -> str:
        """The verdict on ``text`` as people read it (the refusal's text, or the order)."""
        return str(self.verdicts[text])


def probe_battle(state: FBState, dice: Sequence[int] = (), **probes: Probe) -> Battle:
    """A battle over ``state`` whose sides are the given probes (default: an empty probe)."""
    commanders = {side: probes.get(side, Probe()) for side in state.sides}
    battle = Battle(get_ruleset("fantasy-battle"), None, 0, commanders,  # type: ignore[arg-type]
                    dice=ScriptedDice(dice))
    battle.state = state
    return battle


def unit_turn(state: FBState, uid: str, dice: Sequence[int] = (), **probes: Probe) -> Battle:
    """Play one turn of unit ``uid`` with the probes as commanders."""
    battle = probe_battle(state, dice, **probes)
    game.unit_turn(state, battle, state.units[uid])
    return battle
