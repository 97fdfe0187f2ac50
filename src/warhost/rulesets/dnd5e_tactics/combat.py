"""Attacks of units, commanders and Single Characters; cover; duels' damage; slain commanders.

INTERFACE STUB — being implemented. Signatures are the contract other modules rely on.
"""

from __future__ import annotations

from warhost.rulesets.dnd5e_tactics.context import Ctx
from warhost.rulesets.dnd5e_tactics.model import AttackSpec
from warhost.rulesets.dnd5e_tactics.state import Body, Unit

NO_COVER, HALF, THREE_QUARTERS, TOTAL = 0, 1, 2, 3
COVER_AC = {NO_COVER: 0, HALF: 2, THREE_QUARTERS: 5}
COVER_DEX_SAVE = {NO_COVER: 0, HALF: 2, THREE_QUARTERS: 5}


def unit_routine(unit: Unit, kind: str, *, charge: bool = False) -> list[AttackSpec]:
    """The attacks one Attack action of ``unit`` resolves, melee or ranged (T5-DAMAGE-03,
    T5-RANGED-02, T5-AMB-12): the Multiattack list (or the first attack of that kind), or for
    ranged exactly one attack. Mount attacks are separate (see :func:`mount_routine`)."""
    raise NotImplementedError


def mount_routine(unit: Unit) -> list[AttackSpec]:
    """Attacks of independent mounts (T5-AMB-29); empty for controlled mounts."""
    raise NotImplementedError


def legal_targets(ctx: Ctx, attacker: Body, kind: str) -> list[Body]:
    """Enemy bodies ``attacker`` may attack with a ``kind`` ('melee' or 'ranged') attack now:
    melee needs engagement within reach; ranged needs range, no total cover, no Ruins/Forest in
    between, and (for units) a target not engaged in melee (T5-RANGED-01, T5-AMB-32). Inside a
    duel a commander's only target is its opponent."""
    raise NotImplementedError


def unit_attack_action(ctx: Ctx, unit: Unit, target: Body, kind: str, *, charge: bool = False) -> int:
    """The unit's Attack action against ``target``: every attack of its routine, each with its
    own d6 (T5-AMB-22), plus independent mounts; damage pooled into the target's TDR, or applied
    to a Single Character. Returns the total damage dealt. Emits ``unit_attack`` per
    resolution."""
    raise NotImplementedError


def resolve_unit_attack(ctx: Ctx, unit: Unit, target: Body, attack: AttackSpec, *, why: str = "attack") -> int:
    """One attack resolution by a unit (T5-ATTACK-01..08, T5-DAMAGE-01..07, T5-SINGLE-02..05):
    returns the damage dealt and applies it (pooled or to a Single Character)."""
    raise NotImplementedError


def commander_attack(ctx: Ctx, owner: Body, target: Body, attack: AttackSpec, *, opportunity: bool = False) -> int:
    """An attack by the commander of ``owner`` (a unit) or by ``owner`` itself (a Single
    Character) against ``target``: a dueling opponent's character, a unit (as one member,
    pooled, T5-CMDATK-02/03) or a Single Character. Commander hits deal maximum damage
    (T5-CMDATK-04, option ``commander_damage``). Returns the damage dealt."""
    raise NotImplementedError


def damage_character(ctx: Ctx, owner: Body, amount: int, *, by: Body | None, duel: bool) -> None:
    """Hit points lost by the commander of ``owner`` (a unit) or by a Single Character; at 0 the
    character dies (T5-AMB-18), with :func:`kill_commander` for commanders."""
    raise NotImplementedError


def kill_commander(ctx: Ctx, unit: Unit, *, duel_winner: Body | None) -> None:
    """A unit's commander dies: -1 rank at once, card discarded, duel over; the duel winner's
    unit gains 1 rank (T5-SLAIN-01..03)."""
    raise NotImplementedError


def end_duel(ctx: Ctx, body: Body, why: str) -> None:
    """End any duel the character of ``body`` (its commander, or the Single Character) is in
    (T5-DUEL-05, T5-AMB-14). Emits ``duel_end``."""
    raise NotImplementedError


def opportunity_attack(ctx: Ctx, attacker: Body, mover: Body, *, commander_too: bool, why: str = "opportunity") -> int:
    """Reaction attacks on ``mover`` leaving reach or fleeing (T5-AMB-11, T5-FLEE-04..06,
    T5-AMB-47): a unit makes one melee resolution (no Multiattack); its commander may add one
    maximum-damage attack against the unit only. Uses reactions. Returns the damage."""
    raise NotImplementedError


def area_effect(ctx: Ctx, user: Body, area_name: str, target: Body, *, by_commander: bool) -> int:
    """Use an area effect against ``target`` (T5-AREA-01..09): the template is centred to cover
    the target; members covered (geometry or declared count), saves by the divisor table,
    average damage into the TDR. In a duel, a commander's area hits only the opposing
    commander. Returns the damage."""
    raise NotImplementedError


def heal(ctx: Ctx, healer: Body, heal_name: str, target: Body) -> int:
    """Healing by a commander or Single Character (T5-AMB-39): lowers a unit's TDR, or restores a
    character's hit points. Returns the amount."""
    raise NotImplementedError
