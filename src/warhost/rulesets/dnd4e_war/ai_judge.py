"""Cheap judgements the `dnd4e-war` AI weighs its options with.

Everything here is an expectation worked out in a few arithmetic steps from the units'
profiles and where their blocks stand: the hits a batch of dice makes, the models they slay,
the combat resolution a charge is likely to score on each side, the chance a charge reaches,
and the arcs one block stands in around another. No dice are rolled and no search is made.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from warhost.geometry.table import Tray
from warhost.rulesets.dnd4e_war.army import points_in_play
from warhost.rulesets.dnd4e_war.model import Power
from warhost.rulesets.dnd4e_war.odds import charge_reach_chance
from warhost.rulesets.dnd4e_war.state import Unit, WarState
from warhost.rulesets.dnd4e_war.tables import needed_score, points_per_hit

FLANK_BONUS = 2
REAR_BONUS = 4
OUTNUMBER_BONUS = 2
SUPPORT_BONUS = 2
SUPPORT_MAX = 14
STANDARD_BONUS = 2
BATTLE_STANDARD_BONUS = 4
"""Combat resolution bonuses (W4-RESOLVE-10 to 16), as the AI counts them."""
ASKEW = 5.0
"""Degrees off square beyond which two blocks meet only at a corner."""

_DICE = re.compile(r"(\d*)\s*[dD]\s*(\d+)")
_WEAPON = re.compile(r"(\d*)\s*\[\s*[wW]\s*\]")
_FLAT = re.compile(r"[+-]\s*\d+(?![dD\d])|^\s*\d+\s*$")


def hit_chance(defense: int, bonus: int, character: bool = False) -> float:
    """The chance one d20 hits ``defense`` at ``bonus`` (W4-HIT-01 to 04)."""
    return max(0, min(20, 21 - needed_score(defense, bonus, character))) / 20.0


def mean_damage(power: Power) -> float:
    """The average of the power's damage expression (a [W] rolls its weapon dice, else d8)."""
    text = power.damage
    weapon = 4.5
    if power.weapon_dice:
        weapon = sum(int(n or 1) * (int(s) + 1) / 2.0 for n, s in _DICE.findall(power.weapon_dice))
    total = sum(int(n or 1) * weapon for n in _WEAPON.findall(text))
    rest = _WEAPON.sub("", text)
    total += sum(int(n or 1) * (int(s) + 1) / 2.0 for n, s in _DICE.findall(rest))
    rest = _DICE.sub("", rest)
    total += sum(int(m.group(0).replace(" ", "")) for m in _FLAT.finditer(rest))
    return max(1.0, total)


def kill_rate(power: Power, target: Unit) -> float:
    """Models of ``target`` one hit slays on average: 1 / resilience for minions
    (W4-CAS-01/02), the damage over the hit points otherwise (W4-AMB-53)."""
    hp = target.profile.hp
    if isinstance(hp, int):
        return min(1.0, mean_damage(power) / max(1, hp))
    return 1.0 / max(1, target.profile.resilience)


def minion(unit: Unit) -> bool:
    """The unit's models are minions."""
    return not isinstance(unit.profile.hp, int)


def melee_power(unit: Unit) -> Power | None:
    """The melee power the unit fights with (its best bonus)."""
    powers = unit.powers("melee")
    return max(powers, key=lambda p: p.bonus) if powers else None


def ranged_power(unit: Unit) -> Power | None:
    """The unit's best shooting power (ranged or area burst), by bonus."""
    powers = unit.powers("ranged", "area_burst")
    return max(powers, key=lambda p: p.bonus) if powers else None


def is_shooter(unit: Unit) -> bool:
    """A unit whose shooting is at least as good as its fighting keeps its distance."""
    shot, blade = ranged_power(unit), melee_power(unit)
    return shot is not None and (blade is None or shot.bonus >= blade.bonus)


def per_model(state: WarState, attacks: int, power: Power, target: Unit) -> int:
    """Attack dice of one model (W4-MULTI: A > 1 multiattacks at minions, or any target
    under the option)."""
    if attacks <= 1 or power.usage != "at-will" or power.zone or power.area:
        return 1
    if not minion(target) and not state.options.multiattack_vs_nonminions:
        return 1
    return attacks


# --------------------------------------------------------------------------- arcs and reach


def in_front(viewer: Tray, shape: Tray) -> bool:
    """Some corner (or the centre) of ``shape`` lies in ``viewer``'s front arc."""
    return any(viewer.arc_of(p) == "front" for p in (*shape.corners(), shape.centre))


def sees_all_round(unit: Unit) -> bool:
    """Skirmishers and lone models see (and charge) any way (W4-SKIRM-02, W4-MONSTER-05)."""
    return unit.skirmish or unit.models == 1


def arc_struck(target: Tray, attacker: Tray, target_unit: Unit) -> str:
    """The arc of ``target`` a unit coming from ``attacker`` is likely to strike (units
    without flanks are always met in front)."""
    if not target_unit.has_flanks or target_unit.lone:
        return "front"
    return target.arc_of(attacker.centre)


def reach_chance(unit: Unit, gap: float) -> float:
    """The chance ``unit``'s charge covers ``gap`` inches (W4-CHARGE-06/07/09)."""
    return float(charge_reach_chance(unit.speed(), gap))


# --------------------------------------------------------------------------- close combat


@dataclass(frozen=True)
class Clash:
    """What one side of a clash is expected to score: hits, the models they slay and its
    combat resolution total."""

    hits: float
    slain: float
    total: float


def contact_share(attacker: Unit, at: Tray, target: Tray) -> float:
    """The share of ``attacker``'s frontage (its block at ``at``) that a charge brings into
    contact with ``target``: the target's breadth across the charger's facing, or a single
    company when the two blocks stand askew (a charge keeps the charger's facing, so it
    meets an askew block at a corner, W4-CHARGE-14)."""
    width = max(at.width, attacker.base)
    rights = [at.to_local(c)[0] for c in target.corners()]
    share = min(1.0, (max(rights) - min(rights) + attacker.base) / width)
    skew = abs(at.facing - target.facing) % 90.0
    if min(skew, 90.0 - skew) > ASKEW:
        share = min(share, 1.0 / max(1, min(attacker.files, len(attacker.companies))))
    return share


def melee_dice(state: WarState, unit: Unit, target: Unit, share: float) -> tuple[float, int]:
    """Ordinary and captain's dice ``unit`` rolls at ``target`` with ``share`` of its front
    in contact (the front rows; reach 2 brings the second, W4-MELEE-02/08)."""
    power = melee_power(unit)
    if power is None or not unit.alive:
        return 0.0, 0
    if unit.skirmish:
        return unit.models * share * per_model(state, unit.profile.attacks, power, target), 0
    fronts = range(min(unit.files, len(unit.companies)))
    rows = 2 if power.reach >= 2 else 1
    models = sum(unit.row_models(s, r) for s in fronts for r in range(rows)) * share
    captain = 0
    if unit.captain is not None and unit.command_slot is not None and models >= 1:
        models -= 1
        captain = per_model(state, unit.captain_attacks, power, target)
    return models * per_model(state, unit.profile.attacks, power, target), captain


def _support(unit: Unit) -> int:
    """Combat resolution from rear companies supporting (W4-RESOLVE-09/10)."""
    if unit.is_monster or unit.skirmish:
        return 0
    spare = max(0, len(unit.companies) - unit.files)
    return min(SUPPORT_MAX, SUPPORT_BONUS * spare)


def _standards(unit: Unit) -> int:
    if unit.battle_standard:
        return BATTLE_STANDARD_BONUS
    return STANDARD_BONUS if unit.standard else 0


def strike(state: WarState, unit: Unit, unit_frame: Tray, target: Unit, target_frame: Tray,
           arc: str, *, charge: bool, fraction: float = 1.0) -> Clash:
    """The expected blows of ``unit`` on ``target`` met in ``arc`` (``fraction``: the share
    of ``unit``'s models still standing when it strikes)."""
    power = melee_power(unit)
    if power is None:
        return Clash(0.0, 0.0, 0.0)
    share = 1.0 if unit.skirmish else contact_share(unit, unit_frame, target_frame)
    ordinary, captain = melee_dice(state, unit, target, share)
    ordinary *= fraction
    defense = getattr(target.profile.defenses, power.vs)
    bonus = power.bonus + (1 if charge else 0)
    hits = ordinary * hit_chance(defense, bonus) + captain * hit_chance(defense, bonus, True)
    if charge:
        extra = 3.5 if unit.profile.cavalry else 2.0
        companies = 1 if unit.skirmish else max(1, round(min(unit.files, len(unit.companies))
                                                         * share))
        hits += companies * extra * hit_chance(defense, bonus)
    slain = min(float(target.models), hits * kill_rate(power, target))
    return Clash(hits, slain, hits * points_per_hit(power.damage))


@dataclass(frozen=True)
class ChargeOutlook:
    """What a charge is expected to bring: the combat resolution totals of both sides, the
    charger's blows and the blows that answer them."""

    ours: float
    theirs: float
    mine: Clash
    answer: Clash

    @property
    def edge(self) -> float:
        """The expected combat resolution margin (positive favours the charger)."""
        return self.ours - self.theirs


def charge_outlook(state: WarState, attacker: Unit, at: Tray, target: Unit, target_at: Tray,
                   arc: str) -> ChargeOutlook:
    """``attacker`` (its block at ``at``) charging ``target`` in ``arc``: its charge blows
    and bonuses against the blows that answer it in the close combat phase and the
    target's bonuses (W4-CHARGE-17 to 20, W4-RESOLVE)."""
    mine = strike(state, attacker, at, target, target_at, arc, charge=True)
    left = max(0.0, 1.0 - mine.slain / max(1, target.models))
    answer = Clash(0.0, 0.0, 0.0)
    if not target.shot and not target.fleeing and not target.standard_used:
        answer = strike(state, target, target_at, attacker, at, "front", charge=False,
                        fraction=left)
    ours = mine.total + _standards(attacker) + _support(attacker)
    theirs = answer.total + _standards(target) + (_support(target) if arc == "front" else 0)
    if arc in ("left", "right"):
        ours += FLANK_BONUS
    elif arc == "rear":
        ours += REAR_BONUS
    if attacker.strength() > target.strength() - mine.slain * target.model_strength():
        ours += OUTNUMBER_BONUS
    elif target.strength() > attacker.strength():
        theirs += OUTNUMBER_BONUS
    return ChargeOutlook(ours, theirs, mine, answer)


def charge_edge(state: WarState, attacker: Unit, at: Tray, target: Unit, target_at: Tray,
                arc: str) -> float:
    """The expected combat resolution margin of the charge (see :func:`charge_outlook`)."""
    return charge_outlook(state, attacker, at, target, target_at, arc).edge


def flee_chance(state: WarState, winner: Unit, loser: Unit, margin: float) -> float:
    """The chance ``loser`` fails its break test after losing to ``winner`` by ``margin``
    (W4-BREAK-01, W4-FEAR-08/09, a battle standard's re-roll W4-CMD-09)."""
    from warhost.rulesets.dnd4e_war import psychology
    from warhost.rulesets.dnd4e_war.odds import courage_pass_chance, has_reroll

    if not loser.alive or loser.fleeing:
        return 0.0
    causer = winner if psychology.felt_fear(state, winner, loser) else None
    dc, nat20 = psychology.break_dc(max(1, round(margin)), causer, loser.strength())
    fearless = psychology.immune(state, loser, "break") is not None
    passed = courage_pass_chance(psychology.courage_bonus(state, loser), dc,
                                 natural_20_only=nat20, fearless=fearless,
                                 reroll=has_reroll(state, loser))
    return 1.0 - float(passed)


def _normal_below(z: float) -> float:
    """The standard normal distribution function."""
    return 0.5 * math.erfc(-z / math.sqrt(2.0))


def round_outlook(state: WarState, attacker: Unit, at: Tray, target: Unit, target_at: Tray,
                  arc: str) -> ChargeOutlook:
    """A later round of the same fight: no charge bonuses, and the side with the higher
    initiative strikes first, its casualties thinning the other's blows (W4-MELEE,
    W4-AMB-78)."""
    if attacker.profile.initiative >= target.profile.initiative:
        mine = strike(state, attacker, at, target, target_at, arc, charge=False)
        left = max(0.0, 1.0 - mine.slain / max(1, target.models))
        if attacker.profile.initiative == target.profile.initiative:
            left = 1.0
        answer = strike(state, target, target_at, attacker, at, "front", charge=False,
                        fraction=left)
    else:
        answer = strike(state, target, target_at, attacker, at, "front", charge=False)
        left = max(0.0, 1.0 - answer.slain / max(1, attacker.models))
        mine = strike(state, attacker, at, target, target_at, arc, charge=False,
                      fraction=left)
    ours = mine.total + _standards(attacker) + _support(attacker)
    theirs = answer.total + _standards(target) + (_support(target) if arc == "front" else 0)
    ours += REAR_BONUS if arc == "rear" else FLANK_BONUS if arc in ("left", "right") else 0
    if attacker.strength() > target.strength():
        ours += OUTNUMBER_BONUS
    elif target.strength() > attacker.strength():
        theirs += OUTNUMBER_BONUS
    return ChargeOutlook(ours, theirs, mine, answer)


def _settle(state: WarState, attacker: Unit, target: Unit, look: ChargeOutlook
            ) -> tuple[float, float]:
    """The worth one round brings the attacker (gain less loss, in points) and the chance
    the fight ends with it (either side breaking); the margin is taken as normal, its
    spread from the dice."""
    spread = math.sqrt(look.mine.total * _points_each(attacker)
                       + look.answer.total * _points_each(target) + 1.0)
    win = _normal_below(look.edge / spread)
    lose = _normal_below(-look.edge / spread)
    theirs = win * flee_chance(state, attacker, target, max(1.0, look.edge + 0.5 * spread))
    ours = lose * flee_chance(state, target, attacker, max(1.0, -look.edge + 0.5 * spread))
    gain = theirs * whole_worth(state, target) + look.mine.slain * unit_worth(target)
    loss = ours * whole_worth(state, attacker) + look.answer.slain * unit_worth(attacker)
    return gain - loss, theirs + ours


def charge_payoff(state: WarState, attacker: Unit, at: Tray, target: Unit, target_at: Tray,
                  arc: str, scale: float) -> float:
    """What the charge is worth to the charger, in units of ``scale`` (a unit's worth): for
    the charge round and, if nobody breaks, one more round, the chance it wins times the
    chance the loser breaks times the loser's worth, and the models slain."""
    first, ended = _settle(state, attacker, target,
                           charge_outlook(state, attacker, at, target, target_at, arc))
    later, _ = _settle(state, attacker, target,
                       round_outlook(state, attacker, at, target, target_at, arc))
    return (first + (1.0 - ended) * later) / scale


def _points_each(unit: Unit) -> int:
    power = melee_power(unit)
    return points_per_hit(power.damage) if power is not None else 1


def whole_worth(state: WarState, unit: Unit) -> float:
    """What the enemy scores when ``unit`` flees or dies (W4-AMB-74)."""
    from warhost.rulesets.dnd4e_war.game import unit_value

    return float(unit_value(state, unit.id))


def average_worth(state: WarState) -> float:
    """The average worth of the units on the table."""
    values = [whole_worth(state, u) for u in state.units.values()]
    return max(1.0, sum(values) / max(1, len(values)))


def fight_edge(state: WarState, side: str, units: list[Unit]) -> float:
    """A rough margin for ``side`` in a fight already joined: the blows and bonuses of its
    units against the enemy's."""
    margin = 0.0
    for unit in units:
        if not unit.alive or unit.fleeing:
            continue
        sign = 1.0 if unit.side == side else -1.0
        foes = [f for f in state.foes_of(unit.id) if not f.fleeing]
        if not foes:
            continue
        foe = foes[0]
        frame, other = unit.frame(), foe.frame()
        arc = arc_struck(other, frame, foe)
        value = strike(state, unit, frame, foe, other, arc, charge=False).total
        value += _standards(unit) + _support(unit)
        value += REAR_BONUS if arc == "rear" else FLANK_BONUS if arc in ("left", "right") else 0
        margin += sign * value
    return margin


# --------------------------------------------------------------------------- shooting


def shot_kills(state: WarState, unit: Unit, power: Power, target: Unit, dice: float,
               captain: int = 0, cover: int = 0) -> float:
    """Expected models of ``target`` slain by ``dice`` ordinary and ``captain`` character
    dice of ``power``."""
    defense = getattr(target.profile.defenses, power.vs) + cover
    hits = (dice * hit_chance(defense, power.bonus)
            + captain * hit_chance(defense, power.bonus, True))
    return min(float(target.models), hits * kill_rate(power, target))


def unit_worth(unit: Unit) -> float:
    """What one model of ``unit`` is worth: its share of the unit's points (or strength)."""
    per = points_in_play(unit.profile)
    if per is None:
        return float(unit.model_strength())
    size = 1 if unit.skirmish else max(1, unit.company_size)
    return per / size
