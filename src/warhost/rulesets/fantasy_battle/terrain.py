"""Terrain types and what each does (FB-TERRAIN-01 and the FB-AMB-46 rulings)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class TerrainKind:
    """Effects of one terrain type.

    ``move_cost`` is None where no unit may enter (Vault may still cross ``vaultable`` squares).
    """

    name: str
    move_cost: int | None
    blocks_fire: bool = False
    hinders_fire: bool = False
    can_end: bool = True
    charge_clear: bool = True
    vaultable: bool = False


TERRAIN: dict[str, TerrainKind] = {
    "clear": TerrainKind("clear", 1),
    "blocking": TerrainKind("blocking", None, blocks_fire=True, can_end=False, charge_clear=False),
    "hindering": TerrainKind("hindering", 2, hinders_fire=True, charge_clear=False),
    "elevated": TerrainKind("elevated", 1),
    "slope": TerrainKind("slope", 2, hinders_fire=True, can_end=False, charge_clear=False),
    "cliff": TerrainKind("cliff", None, can_end=False, charge_clear=False),
    "concealing": TerrainKind("concealing", 1, hinders_fire=True),
    "shallow_water": TerrainKind("shallow_water", 2, charge_clear=False),
    "deep_water": TerrainKind(
        "deep_water", None, can_end=False, charge_clear=False, vaultable=True
    ),
}
