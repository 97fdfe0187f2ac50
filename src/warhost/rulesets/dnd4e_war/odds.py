"""Exact odds for `dnd4e-war` (the ruleset's exact-odds hook), by enumerating the dice.

Four things a player weighs before acting, each as an exact distribution of fractions:

* the hits of one batch of attack dice (W4-HIT-01..04: each d20 hits on the chart's score,
  ordinary models never below 8, a captain as a character never below 2) and the casualties
  they make through resilience (W4-CAS-01..04: hits // resilience, at most the models left);
* the charge distance, 1d6 + (Speed - 3) with a 1 failing (W4-CHARGE-06/07/09, W4-AMB-11), and
  the chance that it reaches a target at a given distance;
* a break test (W4-BREAK-01, W4-FEAR-08/09, W4-IMMUNE-01, W4-CMD-09): a pure function of the
  bonus, the DC and the flags, :func:`courage_pass_chance`;
* the fall back! distance, 2d6 + 2 x Speed - 12 never below 0 (W4-FLEE-04, W4-AMB-09).

:class:`~warhost.core.odds.OddsReport` outcomes: ``success`` = at least one hit, ``failure``
= no hit, and ``hits N`` for each possible total N >= 1. The other distributions are in
``details``. The courage bonus comes from a function passed in (``courage``), by default
:func:`warhost.rulesets.dnd4e_war.psychology.courage_bonus`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from math import comb
from typing import Any

from warhost.core.errors import WarhostError
from warhost.core.odds import (
    OddsReport,
    check_situation_keys,
    close_match_hint,
    fraction_json,
    situation_flag,
    with_options,
)
from warhost.core.scenario import Scenario
from warhost.geometry.table import read_point
from warhost.rulesets.dnd4e_war import psychology
from warhost.rulesets.dnd4e_war.model import Dnd4eWarScenario, Power
from warhost.rulesets.dnd4e_war.state import Unit, WarState
from warhost.rulesets.dnd4e_war.tables import (
    charge_distance,
    fall_back_distance,
    needed_score,
)

__all__ = [
    "SITUATION_KEYS", "attack_dice", "break_dc", "break_odds", "casualty_distribution",
    "charge_distribution", "charge_reach_chance", "courage_pass_chance", "exact_odds",
    "fall_back_distribution", "hit_distribution", "mean", "unit_odds",
]

Distribution = dict[int, Fraction]
CourageBonus = Callable[[WarState, Unit], int]

SITUATION_KEYS: dict[str, str] = {
    "kind": "ranged or melee (default: ranged when the attacker has a ranged power and does "
            "not charge)",
    "power": "the attacker's power by name (default: its first of that kind)",
    "dice": "the number of attack dice (default: as the units stand, see the notes)",
    "character_dice": "of those, dice rolled by characters (no floor of 8; default: the "
                      "captain's multiattack when the dice are counted as they stand, else 0)",
    "charge": "true: the attacker charged more than 2\", +1 to hit (W4-CHARGE-19)",
    "cover": "cover of the target: none, cover, superior_cover, concealment, "
             "total_concealment, or a number added to its defense (W4-AMB-46)",
    "higher_ground": "true/false: the shooters stand higher (default: from the terrain)",
    "distance": "inches the charge must cover (default: the gap between the two units)",
    "margin": "the margin by which the defender's side lost the combat (default 1)",
    "fear": "none, fear or terror: what the winner causes (default: from its rules)",
    "natural_20_only": "true/false: W4-FEAR-09 applies (default: a fear causer of higher "
                       "unit strength)",
    "fearless": "true/false: the defender passes every courage test (default: its rules)",
    "reroll": "true/false: the defender may re-roll a failed test (default: an allied "
              "battle standard within 12\")",
    "courage": "the defender's courage bonus (default: race + size + musician + stalwart/"
               "bard)",
    "at_attacker": "X,Y: put the middle of the attacker's front edge here (skirmishers: "
                   "their centre), default where the scenario puts it",
    "at_defender": "X,Y: the same for the defender",
    "facing_attacker": "bearing in degrees the attacker faces (0 = north)",
    "facing_defender": "bearing in degrees the defender faces",
    "ignore_position": "accepted for the command's flag; positions give only the defaults",
    "options": "scenario option overrides, name -> value",
}
"""The situation keys :func:`exact_odds` understands, with what each means."""

BATTLE_STANDARD_RANGE = 12.0
"""W4-CMD-09: allies within this many inches of the battle standard may re-roll."""
FEAR_DC = {"none": 0, "fear": psychology.FEAR_BREAK, "terror": psychology.TERROR_BREAK}
"""W4-FEAR-08: what a fear or terror causer adds to the break test DC."""


# --------------------------------------------------------------------------- attack dice


def hit_chance(needed: int) -> Fraction:
    """The exact chance one d20 shows ``needed`` or more (``needed`` already floored)."""
    faces = max(0, min(20, 21 - needed))
    return Fraction(faces, 20)


def binomial(count: int, chance: Fraction) -> Distribution:
    """Hits of ``count`` independent dice that each hit with ``chance``."""
    miss = 1 - chance
    return {k: comb(count, k) * chance**k * miss ** (count - k) for k in range(count + 1)}


def convolve(a: Distribution, b: Distribution) -> Distribution:
    """The distribution of the sum of two independent counts."""
    out: Distribution = {}
    for x, p in a.items():
        for y, q in b.items():
            out[x + y] = out.get(x + y, Fraction(0)) + p * q
    return out


def hit_distribution(dice: int, defense: int, bonus: int, character_dice: int = 0
                     ) -> Distribution:
    """W4-HIT-01..04: hits of ``dice`` d20 against ``defense`` at ``bonus``; the first
    ``dice - character_dice`` are ordinary (floor 8), the rest characters' (floor 2)."""
    ordinary = max(0, dice - character_dice)
    plain = binomial(ordinary, hit_chance(needed_score(defense, bonus)))
    heroes = binomial(max(0, character_dice), hit_chance(needed_score(defense, bonus, True)))
    return convolve(plain, heroes)


def casualty_distribution(hits: Distribution, resilience: int, models: int) -> Distribution:
    """W4-CAS-01..04: each ``resilience`` hits slay one minion, leftovers are lost, and no
    more than ``models`` can fall."""
    out: Distribution = {}
    for h, p in hits.items():
        slain = min(models, h // max(1, resilience))
        out[slain] = out.get(slain, Fraction(0)) + p
    return out


def mean(dist: Mapping[int, Fraction] | Mapping[float, Fraction]) -> Fraction:
    """The expectation of a distribution (exact while its values are whole)."""
    return sum((Fraction(v) * p for v, p in dist.items()), Fraction(0))


def attack_dice(state: WarState, attacker: Unit, defender: Unit, kind: str
                ) -> tuple[int, int, list[str]]:
    """Dice the attacker rolls as it stands: the front row of each company (the front two
    rows when shooting from higher ground, W4-SHOOT-11/12); a captain in the command company
    rolls his Attacks as a multiattack (W4-SHOOT-13). Returns (dice, character dice, lines)."""
    higher = kind == "ranged" and state.elevation(attacker) > state.elevation(defender)
    return _dice_count(attacker, higher, kind)


def _dice_count(attacker: Unit, two_rows: bool, kind: str) -> tuple[int, int, list[str]]:
    if attacker.skirmish:
        return attacker.models, 0, [f"{attacker.models} skirmishers, one die each"]
    slots = range(len(attacker.companies))
    front = sum(attacker.row_models(s, 0) for s in slots)
    second = sum(attacker.row_models(s, 1) for s in slots) if two_rows else 0
    captain = attacker.captain is not None and attacker.command_slot is not None and front > 0
    ordinary = front - (1 if captain else 0)
    ranged = kind == "ranged"
    lines = [f"{ordinary} dice from the front rows"
             + (" (W4-SHOOT-11)" if ranged else " of the companies")]
    if two_rows:
        lines.append(f"{second} dice from the second rows: higher ground (W4-SHOOT-12)")
    heroes = attacker.captain_attacks if captain else 0
    if captain and heroes > 1:
        lines.append(f"{heroes} dice from captain {attacker.captain}'s multiattack "
                     f"({'W4-SHOOT-13' if ranged else 'W4-MULTI-05'}), rolled as a character "
                     "(W4-HIT-04)")
    elif captain:
        lines.append(f"1 die from captain {attacker.captain}, rolled as a character "
                     "(W4-HIT-04)")
    return ordinary + second + heroes, heroes, lines


# --------------------------------------------------------------------------- charge, fall back


def charge_distribution(speed: float) -> dict[float, Fraction]:
    """W4-CHARGE-06/07/09, W4-AMB-11: inches a charge may cover; 0 is a failed roll of 1 (or
    a modifier so low that nothing is reached)."""
    out: dict[float, Fraction] = {}
    for roll in range(1, 7):
        d = charge_distance(roll, speed)
        out[d] = out.get(d, Fraction(0)) + Fraction(1, 6)
    return dict(sorted(out.items()))


def charge_reach_chance(speed: float, distance: float) -> Fraction:
    """The chance a charge of a unit of ``speed`` covers ``distance`` inches (a 1 always
    fails, W4-CHARGE-07; a result of 0 or less reaches nothing, W4-AMB-11)."""
    return sum((p for d, p in charge_distribution(speed).items()
                if d > 0 and d >= distance - 1e-9), Fraction(0))


def fall_back_distribution(speed: float) -> dict[float, Fraction]:
    """W4-FLEE-04, W4-AMB-09: 2d6 + 2 x Speed - 12 inches, never below 0."""
    out: dict[float, Fraction] = {}
    for a in range(1, 7):
        for b in range(1, 7):
            d = fall_back_distance(a + b, speed)
            out[d] = out.get(d, Fraction(0)) + Fraction(1, 36)
    return dict(sorted(out.items()))


# --------------------------------------------------------------------------- courage


def break_dc(margin: int, fear: str = "none") -> int:
    """W4-BREAK-01, W4-FEAR-08: DC 10 + the margin of defeat, +2 against a fear causer, +4
    against a terror causer."""
    if fear not in FEAR_DC:
        raise ValueError(f"fear must be one of {sorted(FEAR_DC)}, not {fear!r}")
    return 10 + margin + FEAR_DC[fear]


def courage_pass_chance(bonus: int, dc: int, *, natural_20_only: bool = False,
                        fearless: bool = False, reroll: bool = False) -> Fraction:
    """The chance a courage test passes: d20 + ``bonus`` >= ``dc`` (W4-COUR-01, W4-AMB-42);
    only a natural 20 under W4-FEAR-09; always for a fearless unit (W4-IMMUNE-01); one
    re-roll of a failure, which must be kept (W4-CMD-09)."""
    if fearless:
        return Fraction(1)
    once = Fraction(1, 20) if natural_20_only else hit_chance(max(1, dc - bonus))
    return once + (1 - once) * once if reroll else once


def has_reroll(state: WarState, unit: Unit) -> bool:
    """W4-CMD-09: an allied battle standard (its unit) stands within 12"."""
    return any(u.battle_standard and (u is unit or state.gap(u, unit) <= BATTLE_STANDARD_RANGE)
               for u in state.units_of(unit.side))


def break_odds(state: WarState, winner: Unit, loser: Unit, situation: Mapping[str, Any],
               courage: CourageBonus = psychology.courage_bonus) -> tuple[Fraction, list[str],
                                                                      dict[str, Any]]:
    """The chance ``loser`` passes its break test against ``winner``, the lines explaining
    it, and its terms as JSON data."""
    margin = _whole(situation.get("margin", 1), "margin")
    felt = psychology.felt_fear(state, winner, loser) or "none"
    fear = str(situation.get("fear", felt)).strip().lower()
    if fear not in FEAR_DC:
        raise WarhostError(f"fear must be none, fear or terror, not {fear!r}", field="fear")
    dc = break_dc(margin, fear)
    bonus = _whole(situation["courage"], "courage") if "courage" in situation else courage(
        state, loser)
    nat20 = situation_flag(situation, "natural_20_only",
                           fear != "none" and winner.strength() > loser.strength())
    fearless = situation_flag(situation, "fearless", loser.rule("fearless"))
    reroll = situation_flag(situation, "reroll", has_reroll(state, loser))
    chance = courage_pass_chance(bonus, dc, natural_20_only=nat20, fearless=fearless,
                                 reroll=reroll)
    lines = [f"Break test of {loser.id}: d20 {bonus:+d} against DC {dc} = 10 + margin {margin}"
             + (f" + {FEAR_DC[fear]} {fear} (W4-FEAR-08)" if fear != "none" else "")
             + " (W4-BREAK-01)"]
    if nat20:
        lines.append(f"only a natural 20 passes: {winner.id} causes {fear} and is stronger "
                     f"(W4-FEAR-09)")
    if fearless:
        lines.append(f"{loser.id} is fearless: it passes every courage test (W4-IMMUNE-01)")
    if reroll:
        lines.append("one re-roll of a failed test, kept even if worse (battle standard, "
                     "W4-CMD-09)")
    terms = {"bonus": bonus, "dc": dc, "margin": margin, "fear": fear,
             "natural_20_only": nat20, "fearless": fearless, "reroll": reroll}
    return chance, lines, terms


# --------------------------------------------------------------------------- the hook


def exact_odds(scenario: Scenario, attacker: str, defender: str,
               situation: Mapping[str, Any],
               courage: CourageBonus = psychology.courage_bonus) -> OddsReport:
    """The `dnd4e-war` implementation of :meth:`Ruleset.exact_odds`: one batch of attacks of
    ``attacker`` on ``defender``, its casualties, ``attacker``'s charge on ``defender``, and
    ``defender``'s break test and fall back! if it loses; keys: :data:`SITUATION_KEYS`."""
    from warhost.rulesets.dnd4e_war.setup import initial_state
    from warhost.rulesets.dnd4e_war.validate import check_scenario

    check_situation_keys(situation, list(SITUATION_KEYS), " for dnd4e-war")
    model: Dnd4eWarScenario = scenario.model
    model = with_options(model, dict(situation.get("options") or {}), check_scenario)
    state = initial_state(model)
    att = _unit(state, attacker, "attacker")
    dfn = _unit(state, defender, "defender")
    if att.id == dfn.id:
        raise WarhostError(f"{att.id} cannot attack itself", field="defender")
    if att.side == dfn.side:
        raise WarhostError(f"{att.id} and {dfn.id} are both of {att.side}", field="defender")
    for role, who in (("attacker", att), ("defender", dfn)):
        _place(who, situation.get(f"at_{role}"), situation.get(f"facing_{role}"), role)
    return unit_odds(state, att, dfn, situation, courage)


def unit_odds(state: WarState, att: Unit, dfn: Unit, situation: Mapping[str, Any],
              courage: CourageBonus = psychology.courage_bonus) -> OddsReport:
    """The report of :func:`exact_odds` on any state (the AI may call it)."""
    kind, power = _kind_and_power(att, situation)
    charge = kind == "melee" and situation_flag(situation, "charge")
    cover = _cover(state, situation)
    defense = getattr(dfn.profile.defenses, power.vs) + cover
    bonus = power.bonus + (1 if charge else 0)
    dice, heroes, dice_lines = _dice(state, att, dfn, kind, situation)
    hits = hit_distribution(dice, defense, bonus, heroes)
    none = hits.get(0, Fraction(0))
    outcomes: dict[str, Fraction] = {"success": 1 - none, "failure": none}
    outcomes.update({f"hits {h}": p for h, p in sorted(hits.items()) if h > 0 and p})
    details: dict[str, Any] = {
        "dice": dice, "character_dice": heroes,
        "needed": needed_score(defense, bonus),
        "needed_character": needed_score(defense, bonus, True) if heroes else None,
        "expected_hits": _number(mean(hits)),
        **_casualty_details(hits, dfn),
    }
    res = dfn.profile.resilience
    per = "each hit slays" if res == 1 else f"every {res} hits slay"
    notes = [(f"Casualties: {per} one of {dfn.models} models; leftover hits are lost "
              "(W4-CAS-01..04, W4-AMB-54).")]
    gap = state.gap(att, dfn)
    if kind == "ranged" and gap > power.range:
        notes.insert(0, f"{dfn.id} is {gap:.1f}\" away, beyond the {power.range:g}\" range of "
                        f"{power.name} (W4-SHOOT-06); the odds assume it were in range.")
    details["in_range"] = kind != "ranged" or gap <= power.range
    details.update(_charge_details(att, situation, gap, notes))
    passed, break_lines, break_terms = break_odds(state, att, dfn, situation, courage)
    details["break_test"] = {"passes": fraction_json(passed), "flees": fraction_json(1 - passed)}
    details["break_terms"] = break_terms
    notes += break_lines
    details["fall_back"] = _json_dist(fall_back_distribution(dfn.speed()))
    notes.append(f"Fall back! of {dfn.id} (Speed {dfn.speed():g}): 2d6 + 2 x Speed - 12, "
                 "never below 0 (W4-FLEE-04, W4-AMB-09).")
    notes += _caveats(kind, situation)
    dice_text = f"{dice}d20 needing {details['needed']}+"
    if heroes:
        dice_text += f" ({heroes} of them characters' needing {details['needed_character']}+)"
    lines = _attack_lines(power, defense, cover, charge, bonus, heroes)
    return OddsReport(attacker=att.id, defender=dfn.id, kind=f"{kind}, {power.name}",
                      modifiers=dice_lines + lines, outcomes=outcomes, notes=notes,
                      dice=dice_text, details=details)


def _casualty_details(hits: Distribution, dfn: Unit) -> dict[str, Any]:
    casualties = casualty_distribution(hits, dfn.profile.resilience, dfn.models)
    return {"casualties": _json_dist(casualties),
            "expected_casualties": _number(mean(casualties))}


def _charge_details(att: Unit, situation: Mapping[str, Any], gap: float, notes: list[str]
                    ) -> dict[str, Any]:
    """The attacker's charge distance and its chance to cover ``distance`` (or the gap)."""
    distance = (_inches(situation["distance"], "distance") if "distance" in situation
                else gap)
    speed = att.speed()
    reach = charge_reach_chance(speed, distance)
    notes.append(f"Charge of {att.id} (Speed {speed:g}): 1d6 {speed - 3:+g}, a 1 fails "
                 f"(W4-CHARGE-06/07/09, W4-AMB-11); {_inch_text(distance)} to cover.")
    return {"charge_distance": _json_dist(charge_distribution(speed)),
            "charge_reach": {f"reaches {_inch_text(distance)}": fraction_json(reach),
                             "falls short": fraction_json(1 - reach)}}


def _caveats(kind: str, situation: Mapping[str, Any]) -> list[str]:
    out = []
    if kind == "melee" and "dice" not in situation:
        out.append("Close combat dice counted as the front rows of every company; give "
                   "--set dice=N for the models really in reach (W4-MELEE-02/08).")
    if situation_flag(situation, "ignore_position"):
        out.append("Positions only give the defaults above; nothing is refused by them.")
    return out


def _unit(state: WarState, uid: str, role: str) -> Unit:
    if uid not in state.units:
        raise WarhostError(f"no unit {uid!r}{close_match_hint(uid, sorted(state.units), 'units')}",
                           field=role)
    return state.units[uid]


def _place(unit: Unit, at: Any, facing: Any, role: str) -> None:
    """Move ``unit`` (keeping its formation) so its front middle, or a skirmisher's centre,
    stands at ``at``, and turn it to ``facing``."""
    if facing is not None:
        try:
            unit.facing = float(facing) % 360.0
        except (TypeError, ValueError):
            raise WarhostError(f"a facing is a bearing in degrees, not {facing!r}",
                               field=f"facing_{role}") from None
    if at is None:
        return
    point = read_point(at)
    if point is None:
        raise WarhostError(f"expected X,Y in inches, got {at!r}", field=f"at_{role}")
    dx, dy = point[0] - unit.front[0], point[1] - unit.front[1]
    if unit.skirmish and unit.points:
        centre = unit.frame().centre
        dx, dy = point[0] - centre[0], point[1] - centre[1]
        unit.points = [(x + dx, y + dy) for x, y in unit.points]
    unit.front = (unit.front[0] + dx, unit.front[1] + dy)


def _kind_and_power(att: Unit, situation: Mapping[str, Any]) -> tuple[str, Power]:
    kinds = {"ranged": ("ranged",), "melee": ("melee",)}
    charge = situation_flag(situation, "charge")
    kind = situation.get("kind")
    if kind is None:
        kind = "ranged" if att.powers("ranged") and not charge else "melee"
    kind = str(kind).strip().lower()
    if kind not in kinds:
        raise WarhostError(f"kind must be ranged or melee, not {kind!r}", field="kind")
    if charge and kind != "melee":
        raise WarhostError("only charge attacks, which are melee, get the charge bonus "
                           "(W4-CHARGE-17/19)", field="charge")
    powers = att.powers(*kinds[kind])
    if not powers:
        raise WarhostError(f"{att.id} has no {kind} power", field="kind")
    name = situation.get("power")
    if name is None:
        return kind, powers[0]
    for p in powers:
        if p.name.lower() == str(name).strip().lower():
            return kind, p
    raise WarhostError(f"{att.id} has no {kind} power {name!r}"
                       f"{close_match_hint(str(name), [p.name for p in powers], kind)}",
                       field="power")


def _cover(state: WarState, situation: Mapping[str, Any]) -> int:
    """W4-AMB-46: the defense a cover name (or a number) adds."""
    value = situation.get("cover", 0)
    if isinstance(value, bool):
        raise WarhostError("cover must be a name or a number", field="cover")
    if isinstance(value, int):
        return value
    name = str(value).strip().lower()
    if name in ("", "none"):
        return 0
    values = state.options.cover_values.model_dump()
    if name not in values:
        raise WarhostError(f"unknown cover {name!r}"
                           f"{close_match_hint(name, ['none', *values], 'known')}",
                           field="cover")
    return int(values[name])


def _dice(state: WarState, att: Unit, dfn: Unit, kind: str, situation: Mapping[str, Any]
          ) -> tuple[int, int, list[str]]:
    if "dice" in situation:
        dice = _whole(situation["dice"], "dice")
        heroes = _whole(situation.get("character_dice", 0), "character_dice")
        if heroes > dice:
            raise WarhostError("character_dice cannot exceed dice", field="character_dice")
        return dice, heroes, [f"{dice} dice (given)"]
    if "higher_ground" in situation:
        two = kind == "ranged" and situation_flag(situation, "higher_ground")
        dice, heroes, lines = _dice_count(att, two, kind)
    else:
        dice, heroes, lines = attack_dice(state, att, dfn, kind)
    if "character_dice" in situation:
        heroes = min(dice, _whole(situation["character_dice"], "character_dice"))
    return dice, heroes, lines


def _attack_lines(power: Power, defense: int, cover: int, charge: bool, bonus: int,
                  heroes: int) -> list[str]:
    vs = power.vs.upper() if power.vs == "ac" else power.vs
    lines = [f"{power.name} {power.bonus:+d} vs {vs} {defense - cover}"]
    if cover:
        lines.append(f"cover {cover:+d} to the target's defense (W4-SHOOT-17, W4-AMB-46)")
    if charge:
        lines.append("charged more than 2\": +1 to hit (W4-CHARGE-19)")
    needed = needed_score(defense, bonus)
    lines.append(f"needs {needed}+ on the d20 (W4-HIT-01); ordinary models miss below 8 "
                 "(W4-HIT-02), 20 is the most ever needed (W4-HIT-03)")
    if heroes:
        lines.append(f"characters need {needed_score(defense, bonus, True)}+ (W4-HIT-04, "
                     "W4-AMB-03)")
    return lines


def _whole(value: Any, key: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise WarhostError(f"{key} must be a whole number, not {value!r}", field=key)
    return value


def _inches(value: Any, key: str) -> float:
    try:
        inches = float(value)
    except (TypeError, ValueError):
        raise WarhostError(f"{key} must be a number of inches, not {value!r}",
                           field=key) from None
    if not 0 <= inches < 10_000:
        raise WarhostError(f"{key} must be 0 or more inches, not {value!r}", field=key)
    return inches


def _inch_text(value: float) -> str:
    return f"{round(value, 3):g}\""


def _json_dist(dist: Mapping[int, Fraction] | Mapping[float, Fraction]) -> dict[str, Any]:
    return {(_inch_text(float(k)) if isinstance(k, float) else str(k)): fraction_json(p)
            for k, p in dist.items()}


def _number(value: Fraction) -> dict[str, Any]:
    """An expectation as JSON: exact fraction text and a float."""
    text = str(value.numerator) if value.denominator == 1 else \
        f"{value.numerator}/{value.denominator}"
    return {"fraction": text, "value": float(value)}
