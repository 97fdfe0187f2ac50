"""Spells, Surge and Dispel (WB-MAGIC, WB-SPELL, WB-ATKSPELL, WB-DISPEL)."""

from __future__ import annotations

from warhost.core.battle import Battle
from warhost.core.orders import Order
from warhost.rulesets.warband.state import Character, WarbandState


def spell_options(state: WarbandState, char: Character, phase: str) -> list[Order]:
    """``cast`` orders open to ``char`` in ``phase``."""
    return []


def cast_order(state: WarbandState, battle: Battle, char: Character, order: Order) -> None:
    """Carry out a ``cast`` order."""
    raise NotImplementedError


def aftermath_vortices(state: WarbandState, battle: Battle) -> None:
    """Vortices in play move in the Aftermath (WB-AMB-59)."""
