"""The attack roll every shooting, charge and close combat attack uses (W4-SHOOT-17 to 20,
W4-MELEE-09, W4-HIT section)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from warhost.core.battle import Battle
from warhost.rulesets.dnd4e_war.tables import hits as count_hits
from warhost.rulesets.dnd4e_war.tables import needed_score

if TYPE_CHECKING:
    from warhost.rulesets.dnd4e_war.state import Unit, WarState


@dataclass(frozen=True)
class Roll:
    """One batch of attack dice: what was needed, the faces and the hits."""

    needed: int
    faces: tuple[int, ...]
    hits: int


def roll_attacks(battle: Battle, dice: int, ac: int, bonus: int, why: str,
                 character: bool = False, boosted: int = 0, boost: int = 0, *,
                 state: WarState | None = None, unit: Unit | None = None) -> Roll:
    """Roll ``dice`` d20s needing the chart's score for ``ac`` against ``bonus`` (the floor
    of 8 for ordinary models, W4-HIT-02; characters W4-HIT-04); no dice, no hits. The last
    ``boosted`` dice are one model's that adds ``boost`` (an item bearer, W4-ITEM-03). Given
    the ``state`` and the rolling ``unit``, a character with it may change a die with action
    points before the hits are counted (W4-AP-01)."""
    needed = needed_score(ac, bonus, character)
    if dice <= 0:
        return Roll(needed, (), 0)
    faces = tuple(battle.dice.pool(dice, 20, why))
    if state is not None and state.characters:
        from warhost.rulesets.dnd4e_war.action_points import modify_dice

        faces = modify_dice(state, battle, unit, faces, 20, lambda f: f >= needed, why)
    if boosted <= 0 or not boost:
        return Roll(needed, faces, count_hits(list(faces), needed))
    plain = len(faces) - min(boosted, len(faces))
    better = needed_score(ac, bonus + boost, character)
    hits = count_hits(list(faces[:plain]), needed) + count_hits(list(faces[plain:]), better)
    return Roll(needed, faces, hits)


def first_use_hits(faces: Sequence[int], needed: int, per_model: int, first: int) -> int:
    """W4-MULTI-06/07: hits among the dice of each model's first use of its power. The faces
    come model by model, ``per_model`` each; the first ``first`` of each model's dice (one
    attack plus the power's own extra attacks) are its first use."""
    if per_model <= 0:
        return 0
    return sum(1 for i, face in enumerate(faces) if i % per_model < first and face >= needed)
