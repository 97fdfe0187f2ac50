"""Heroic Feat bookkeeping: one Feat per turn (FB-FEAT-03, FB-AMB-37) and marking entries used."""

from __future__ import annotations

from warhost.core.engine import Battle
from warhost.rulesets.fantasy_battle.state import FBState, Unit


def _scope_key(state: FBState, unit: Unit) -> str:
    scope = state.options.feat_limit_scope
    if scope == "champion":
        return unit.id
    if scope == "side":
        return unit.side
    return "*"


def can_use_feat(state: FBState, unit: Unit, name: str) -> bool:
    """True when ``unit`` has an unused ``name`` entry and the one-Feat-a-turn limit allows it."""
    # ``name not in unit.feats`` (a scan in C; empty for all but Champions) turns most asks
    # away before the per-entry loop.
    if name not in unit.feats or unit.rank != "champion" or not unit.has_unused_feat(name):
        return False
    return _scope_key(state, unit) not in state.turn_feats


def use_feat(state: FBState, battle: Battle, unit: Unit, name: str) -> None:
    """Spend one unused ``name`` entry of ``unit`` and log it."""
    index = unit.unused_feats(name)[0]
    unit.feats_used[index] = True
    unit.feats_used_since_entry += 1
    state.turn_feats.add(_scope_key(state, unit))
    battle.emit("feat", unit=unit.id, feat=name)


def new_turn(state: FBState) -> None:
    """Reset the per-turn Feat limit; called at the start of every turn."""
    state.turn_feats.clear()
    state.turn_index += 1
