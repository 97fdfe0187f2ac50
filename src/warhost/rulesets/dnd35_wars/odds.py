"""Exact odds for `dnd35-wars` (the ruleset's exact-odds hook), by enumerating the dice.

One attack of any of the four damage pathways (W35-DMG-01), or one morale check:

* the hit chance: d20 + bonus against AC, a natural 20 hits and a natural 1 misses
  (W35-COMBAT-03, W35-GEN-02); the chance of a confirmed critical (threat range, then a
  confirmation roll against the same AC, W35-GEN-03, W35-AMB-89; option ``unit_crits``,
  crit-immune targets);
* the exact distribution of one damage roll (each die enumerated; an averaged attack's fixed
  damage is a constant, W35-AMB-14), times the critical multiplier on that single roll, DR off
  the single roll (W35-AMB-88), then the pathway: times the counters (unit against unit,
  W35-DMG-02/05/07), times the attacking creatures (unit against a creature, W35-DMG-09/12),
  divided by the creatures per counter and rounded down (a creature against a unit,
  W35-DMG-13/14), or in full (creature against creature, W35-DMG-15);
* the counters a unit target loses from its current HP (W35-UNIT-12/13), or the chance a
  creature target falls;
* a morale check: d20 + modifier against the DC (W35-MORALE-02) with a natural 20/1
  deciding under option ``morale_natural_rolls`` (W35-AMB-15);
* one spell on a unit (situation ``spell``): the counters it removes, see :mod:`spell_odds`.

:class:`~warhost.core.odds.OddsReport` outcomes: ``success`` = the attack hits (the check
passes), ``failure`` = it misses (fails); the results of a hit are ``counters_N`` (a unit target
loses N counters) or ``falls``/``stands`` (a creature target). ``details`` carries the damage
distributions. Nothing is rolled and the scenario state is never changed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from warhost.core.damage_dice import DamageDice
from warhost.core.decisions import Refusal
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
from warhost.geometry.grid import Square, forward_most, projection, unit_distance
from warhost.rulesets.dnd35_wars import combat, damage, morale, reach, tables
from warhost.rulesets.dnd35_wars.model import Dnd35WarsScenario
from warhost.rulesets.dnd35_wars.spell_odds import SPELL_KEYS, spell_odds
from warhost.rulesets.dnd35_wars.state import Single, Unit, UnitAttack, WarState

__all__ = [
    "SITUATION_KEYS", "HitChances", "counters_removed", "damage_roll_distribution",
    "dice_distribution", "exact_odds", "hit_chances", "mean", "morale_pass_chance",
    "odds_on_state", "per_hit_distribution",
]

Distribution = dict[int, Fraction]
Actor = Unit | Single

UNIT_KINDS = ("melee", "charge", "free", "ranged", "crossbow")
PATHWAYS = ("unit_vs_unit", "unit_vs_single", "single_vs_unit", "single_vs_single")
KINDS = (*UNIT_KINDS, *PATHWAYS[1:], "morale")

SITUATION_KEYS: dict[str, str] = {
    "kind": "melee, charge, free (the Disengage free attack), ranged or crossbow for a unit "
            "attacking a unit; unit_vs_single, single_vs_unit or single_vs_single (a melee "
            "attack; add ranged=true or charge=true); morale: the defender's morale check; "
            "spell: the spell named by spell=NAME; siege_volley: one shot of the attacker's "
            "siege weapon at a structure section or machine:UNIT (the defender) (default: "
            "melee, or the pathway the pair makes)",
    "ranged": "true: the attack on or by a singular creature is its ranged attack",
    "charge": "true: the attacker charges, +2 on the attack (W35-UATK-04, W35-AMB-30)",
    "multiplier": "unit against unit: the attacking counters in contact (melee) or firing "
                  "(ranged); default: as they stand, else the attacker's front rank against "
                  "the defender's (melee) or all its counters (ranged), capped as W35-DMG-05/07 "
                  "say",
    "attackers": "unit against a creature: the unit's creatures striking it (default: "
                 "W35-AMB-31/32 as they stand, else a straight front or one counter side)",
    "bonus": "extra modifiers on the attack roll (a whole number, may be negative)",
    "ac": "the target's AC (default: its own, with its charge penalty)",
    "range_feet": "ranged: the distance in feet (default: between them as they stand)",
    "flanked": "true/false: +2 flanking (W35-MULTI-03, W35-DMG-10; default: a creature "
               "surrounded by the attacking unit); never against flank-immune targets",
    "trigger": "morale: the circumstance of table W35-MORALE-03 (default first_damage; rally: "
               "the routed unit's check, −4 fleeing)",
    "dc": "morale: the DC (default: the trigger's); spell: the save DC (default: the "
          "caster's)",
    "modifier": "morale: source modifiers added to the unit's own terms (W35-MORALE-04)",
    "ignore_position": "accepted for the command's flag; positions only give defaults here",
    "options": "scenario option overrides, name -> value",
    **SPELL_KEYS,
}
"""The situation keys :func:`exact_odds` understands, with what each means."""

CHARGE_BONUS = 2
"""W35-UATK-04 (units), W35-AMB-30 (creatures): +2 on a charge attack."""
FREE_ATTACK_BONUS = 2
"""W35-AMB-82: the Disengage free attack is made at +2."""
FLANKING_BONUS = 2
"""W35-MULTI-03, W35-DMG-10: +2 for flanking."""
DEFAULT_TRIGGER = "first_damage"
ENSLAVED_PENALTY = -4
FLEEING_PENALTY = -4
"""W35-MORALE-04: an enslaved unit, a unit already fleeing (its rally check)."""
ENUMERATION_LIMIT = 20_000_000
"""The most steps an exact enumeration of one damage expression may take."""


# --------------------------------------------------------------------------- pure math


@dataclass(frozen=True)
class HitChances:
    """The chance one attack roll hits, and the chance it is a confirmed critical (a part of
    the hits)."""

    hit: Fraction
    crit: Fraction


def _hits(natural: int, bonus: int, ac: int) -> bool:
    return natural == 20 or (natural != 1 and natural + bonus >= ac)


def hit_chances(bonus: int, ac: int, *, crit_range: int = 20, crit_ok: bool = True
                ) -> HitChances:
    """W35-COMBAT-03, W35-GEN-02/03, W35-AMB-89: d20 + ``bonus`` ≥ ``ac`` hits, a natural 20
    always and a natural 1 never; a hit whose die is in the threat range is a critical when a
    second roll against the same AC would hit too."""
    faces = [n for n in range(1, 21) if _hits(n, bonus, ac)]
    hit = Fraction(len(faces), 20)
    if not crit_ok:
        return HitChances(hit, Fraction(0))
    threat = Fraction(sum(1 for n in faces if n >= crit_range), 20)
    return HitChances(hit, threat * hit)


def _convolve_counts(a: dict[int, int], b: dict[int, int]) -> dict[int, int]:
    out: dict[int, int] = {}
    for x, m in a.items():
        for y, n in b.items():
            out[x + y] = out.get(x + y, 0) + m * n
    return out


def dice_distribution(expr: str) -> Distribution:
    """The exact distribution of the total of a damage expression (every die enumerated)."""
    parsed = DamageDice.parse(expr)
    work = sum(count * sides * (count * sides) for count, sides, _ in parsed.dice)
    if work > ENUMERATION_LIMIT:
        raise WarhostError(f"{expr!r} has too many dice to enumerate exactly", field="kind")
    counts: dict[int, int] = {parsed.flat: 1}
    total = 1
    for count, sides, sign in parsed.dice:
        die = {sign * face: 1 for face in range(1, sides + 1)}
        for _ in range(count):
            counts = _convolve_counts(counts, die)
            total *= sides
    return {v: Fraction(n, total) for v, n in sorted(counts.items())}


def damage_roll_distribution(expr: str, multiplier: int = 1) -> Distribution:
    """One damage roll as :func:`warhost.rulesets.dnd35_wars.damage.roll_damage` makes it: at
    least 1, times ``multiplier`` (a confirmed critical's, W35-AMB-89)."""
    out: Distribution = {}
    for value, p in dice_distribution(expr).items():
        dealt = max(1, value) * multiplier
        out[dealt] = out.get(dealt, Fraction(0)) + p
    return out


def _add(a: Distribution, b: Distribution) -> Distribution:
    out: Distribution = {}
    for x, p in a.items():
        for y, q in b.items():
            out[x + y] = out.get(x + y, Fraction(0)) + p * q
    return dict(sorted(out.items()))


def _mix(parts: list[tuple[Fraction, Distribution]]) -> Distribution:
    out: Distribution = {}
    for weight, dist in parts:
        for v, p in dist.items():
            out[v] = out.get(v, Fraction(0)) + weight * p
    return dict(sorted((v, p) for v, p in out.items() if p))


def per_hit_distribution(attack: UnitAttack, chances: HitChances, extra_dice: str | None = None
                         ) -> Distribution:
    """The damage of one roll given that the attack hits: a plain roll or, with the share of
    confirmed criticals among the hits, the roll times the critical multiplier; extra dice
    (sneak attack) are added and never multiplied."""
    if not chances.hit:
        return {}
    crit_share = chances.crit / chances.hit
    parts = [(1 - crit_share, damage_roll_distribution(attack.damage))]
    if crit_share:
        parts.append((crit_share, damage_roll_distribution(attack.damage,
                                                           attack.crit_multiplier)))
    dist = _mix(parts)
    return _add(dist, dice_distribution(extra_dice)) if extra_dice else dist


def _mapped(dist: Distribution, f: Callable[[int], int]) -> Distribution:
    out: Distribution = {}
    for v, p in dist.items():
        key = f(v)
        out[key] = out.get(key, Fraction(0)) + p
    return dict(sorted(out.items()))


def counters_removed(counters: int, hp: int, counter_hp: int, lost: int) -> int:
    """W35-UNIT-12/13: the counters a unit of ``counters`` at ``hp`` loses with ``lost`` HP:
    its counters minus ceil(HP after ÷ counter HP)."""
    return counters - tables.counters_left(hp - min(lost, hp), counter_hp)


def morale_pass_chance(modifier: int, dc: int, *, natural_rolls: bool = True) -> Fraction:
    """W35-MORALE-02, W35-AMB-15: the chance d20 + ``modifier`` reaches ``dc``; with natural
    rolls a 20 always passes and a 1 always fails."""
    def passes(n: int) -> bool:
        if natural_rolls and n in (1, 20):
            return n == 20
        return n + modifier >= dc
    return Fraction(sum(1 for n in range(1, 21) if passes(n)), 20)


def mean(dist: Mapping[int, Fraction]) -> Fraction:
    """The expectation of a distribution."""
    return sum((v * p for v, p in dist.items()), Fraction(0))


# --------------------------------------------------------------------------- the hook


def exact_odds(scenario: Scenario, attacker: str, defender: str,
               situation: Mapping[str, Any]) -> OddsReport:
    """The `dnd35-wars` implementation of :meth:`Ruleset.exact_odds`: one attack of
    ``attacker`` (a unit or a singular creature) on ``defender``, or the defender's morale
    check; keys: :data:`SITUATION_KEYS`."""
    from warhost.rulesets.dnd35_wars.setup import initial_state
    from warhost.rulesets.dnd35_wars.validate import check_scenario

    check_situation_keys(situation, list(SITUATION_KEYS), " for dnd35-wars")
    model: Dnd35WarsScenario = scenario.model
    model = with_options(model, dict(situation.get("options") or {}), check_scenario)
    state = initial_state(model)
    if situation.get("kind") == "siege_volley":  # a siege weapon at a structure or machine
        return siege_volley_on_state(state, _siege_unit(state, attacker), defender)
    att = _actor(state, attacker, "attacker")
    dfn = _actor(state, defender, "defender")
    if att.id == dfn.id:
        raise WarhostError(f"{att.id} cannot attack itself", field="defender")
    if att.side == dfn.side:
        raise WarhostError(f"{att.id} and {dfn.id} are both of {att.side}", field="defender")
    return odds_on_state(state, att, dfn, situation)


def odds_on_state(state: WarState, att: Actor, dfn: Actor, situation: Mapping[str, Any]
                  ) -> OddsReport:
    """The report of :func:`exact_odds` on any state (the AI may call it)."""
    if "spell" in situation or str(situation.get("kind", "")).strip().lower() == "spell":
        return spell_odds(state, att, dfn, situation)
    kind = _kind(att, dfn, situation)
    if kind == "morale":
        return morale_odds(state, att, dfn, situation)
    if isinstance(att, Unit) and isinstance(dfn, Unit):
        return _report(state, att, dfn, kind, situation, *_unit_vs_unit(state, att, dfn, kind,
                                                                          situation))
    ranged = kind == "ranged" or situation_flag(situation, "ranged")
    if kind == "charge":
        situation = {**situation, "charge": True}
    if ranged and situation_flag(situation, "charge"):
        raise WarhostError("a charge ends in a melee attack (W35-UATK-04)", field="charge")
    if isinstance(att, Unit) and isinstance(dfn, Single):
        plan = _unit_vs_single(state, att, dfn, ranged, situation)
    elif isinstance(att, Single) and isinstance(dfn, Unit):
        plan = _single_attacker(state, att, dfn, ranged, situation)
    else:
        assert isinstance(att, Single) and isinstance(dfn, Single)
        plan = _single_attacker(state, att, dfn, ranged, situation)
    label = "ranged" if ranged else ("charge" if situation_flag(situation, "charge") else "melee")
    return _report(state, att, dfn, label, situation, *plan)


# --------------------------------------------------------------------------- who and what


def _actor(state: WarState, name: str, role: str) -> Actor:
    if name in state.units:
        return state.units[name]
    if name in state.singles:
        return state.singles[name]
    known = sorted([*state.units, *state.singles])
    raise WarhostError(f"no unit or creature {name!r}{close_match_hint(name, known, 'known')}",
                       field=role)


def _pathway(att: Actor, dfn: Actor) -> str:
    a = "unit" if isinstance(att, Unit) else "single"
    d = "unit" if isinstance(dfn, Unit) else "single"
    return f"{a}_vs_{d}"


def _kind(att: Actor, dfn: Actor, situation: Mapping[str, Any]) -> str:
    """The kind asked for, checked against the pair: unit kinds only between units, a pathway
    name only for its own pair."""
    pathway = _pathway(att, dfn)
    raw = situation.get("kind")
    charge = situation_flag(situation, "charge")
    if raw is None:
        if isinstance(att, Unit) and isinstance(dfn, Unit):
            shoots = situation_flag(situation, "ranged") or att.melee is None
            return "charge" if charge else ("ranged" if shoots else "melee")
        return pathway
    kind = str(raw).strip().lower()
    if kind not in KINDS:
        raise WarhostError(f"unknown kind {kind!r}{close_match_hint(kind, KINDS, 'kinds')}",
                           field="kind")
    if kind == "morale":
        if not isinstance(dfn, Unit):
            raise WarhostError(f"{dfn.id} is a singular creature: only units make morale "
                               "checks (W35-MORALE-01)", field="defender")
        return kind
    if pathway == "unit_vs_unit" and kind in PATHWAYS:
        raise WarhostError(f"{att.id} and {dfn.id} are units: kind is one of "
                           f"{', '.join(UNIT_KINDS)}", field="kind")
    if pathway != "unit_vs_unit" and kind in ("free", "crossbow"):
        raise WarhostError(f"{kind} is an attack of a unit on a unit; this pair attacks as "
                           f"{pathway}", field="kind")
    if kind in PATHWAYS and kind != pathway:
        raise WarhostError(f"{att.id} attacking {dfn.id} is {pathway}, not {kind}",
                           field="kind")
    if charge and kind in ("ranged", "crossbow", "free"):
        raise WarhostError(f"a {kind} attack is no charge (W35-UATK-04)", field="charge")
    if charge and pathway == "unit_vs_unit" and kind == "melee":
        return "charge"
    return kind


def _whole(situation: Mapping[str, Any], key: str, default: int, *, low: int | None = 0) -> int:
    value = situation.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or (low is not None
                                                                 and value < low):
        least = "" if low is None else f" of at least {low}"
        raise WarhostError(f"{key} must be a whole number{least}, not {value!r}", field=key)
    return value


# --------------------------------------------------------------------------- the plans


@dataclass
class _Plan:
    """An attack ready to enumerate: the roll's terms, the damage per roll, and how a roll
    becomes HP lost."""

    attack: UnitAttack
    bonus: int
    ac: int
    crit_ok: bool
    lost: Callable[[int], int]
    lines: list[str]
    extra_dice: str | None = None
    facts: dict[str, Any] = field(default_factory=dict)


def _attack_line(who: str, attack: UnitAttack, ranged: bool) -> str:
    return f"{who} {'ranged' if ranged else 'melee'} {attack.bonus:+d}, damage {attack.damage}"


def _attack_of(att: Unit, ranged: bool) -> UnitAttack:
    attack = att.ranged if ranged else att.melee
    if attack is None:
        raise WarhostError(f"{att.id} has no {'ranged' if ranged else 'melee'} attack",
                           field="kind")
    return attack


def _target_ac(state: WarState, att: Actor, dfn: Actor, kind: str,
               situation: Mapping[str, Any]) -> int:
    if "ac" in situation:
        return _whole(situation, "ac", 0, low=None)
    if isinstance(dfn, Single):
        return damage.single_ac(dfn, state)
    ac_against = getattr(combat, "ac_against", None)
    if ac_against is not None and isinstance(att, Unit):
        return int(ac_against(state, dfn, att, kind))
    return damage.ac_for_single(state, dfn)


def _flanking(dfn: Actor, default: bool, situation: Mapping[str, Any],
              lines: list[str]) -> int:
    flanked = situation_flag(situation, "flanked", default)
    immune = dfn.flank_immune if isinstance(dfn, Unit) else dfn.creature.flank_immune
    if flanked and immune:
        lines.append(f"{dfn.id} cannot be flanked (W35-MULTI-04)")
        return 0
    if flanked and isinstance(dfn, Unit) and dfn.mob:
        lines.append(f"{dfn.id} is a mob and cannot be flanked (W35-MOB-02)")
        return 0
    if flanked:
        lines.append("+2 flanking (W35-MULTI-03, W35-DMG-10)")
        return FLANKING_BONUS
    return 0


def _range_penalty(state: WarState, attack: UnitAttack, squares: list[Square],
                   target: list[Square], situation: Mapping[str, Any], lines: list[str],
                   notes: list[str], increment: int | None = None) -> int:
    """W35-UATK-12..14, W35-AMB-36: −2 per full range increment beyond the first."""
    if "range_feet" in situation:
        feet = _whole(situation, "range_feet", 0)
    else:
        feet = tables.distance_feet(unit_distance(squares, target), state.scale)
    increment = increment or attack.range_increment
    if increment is None:
        notes.append("The attack has no range increment; no range penalty is counted.")
        return 0
    if not tables.in_range(feet, increment, attack.thrown):
        notes.append(f"{feet} ft is beyond the weapon's maximum range of "
                     f"{tables.max_increments(attack.thrown) * increment} ft (W35-UATK-13); "
                     "the odds are as if it could shoot.")
    penalty = tables.range_penalty(tables.range_increments(feet, increment))
    lines.append(f"range {feet} ft, increment {increment} ft: {penalty:+d} (W35-UATK-12)")
    return penalty


def _front_rank(unit: Unit, heading: Square) -> int:
    """The counters of ``unit`` on its forward-most row along ``heading``."""
    if not unit.squares:
        return 0
    front = forward_most(unit.squares, heading)
    return sum(1 for sq in unit.squares if projection(sq, heading) == front)


def _toward(a: Unit, b: Unit) -> Square:
    ax = sum(x for x, _ in a.squares) / len(a.squares)
    ay = sum(y for _, y in a.squares) / len(a.squares)
    bx = sum(x for x, _ in b.squares) / len(b.squares)
    by = sum(y for _, y in b.squares) / len(b.squares)
    dx, dy = bx - ax, by - ay
    if abs(dx) >= abs(dy):
        return (1 if dx > 0 else -1, 0)
    return (0, 1 if dy > 0 else -1)


def _melee_multiplier(att: Unit, dfn: Unit, notes: list[str]) -> int:
    contact = reach.melee_multiplier(att.squares, dfn.squares)
    if contact:
        return contact
    heading = _toward(att, dfn)
    assumed = min(_front_rank(att, heading), _front_rank(dfn, (-heading[0], -heading[1])))
    notes.append(f"{att.id} and {dfn.id} are not in contact: assumed {assumed} counters in "
                 "contact, front rank against front rank; give multiplier=N for another "
                 "count (W35-DMG-02, W35-UATK-07).")
    return assumed


def _blocked(state: WarState, att: Unit, dfn: Unit) -> Callable[[Square], bool]:
    return reach.view_blocker(state, (att.id, dfn.id))


def _ranged_multiplier(state: WarState, att: Unit, dfn: Unit, crossbow: bool,
                       situation: Mapping[str, Any], notes: list[str]) -> int:
    """Firing counters, capped by the target's counters for arcing fire (W35-DMG-04/05) and
    uncapped for crossbows unless the option says (W35-DMG-07, W35-AMB-34)."""
    if "multiplier" in situation:
        firing = _whole(situation, "multiplier", 0)
    elif crossbow:
        firing = len(reach.counters_with_sight(att.squares, dfn.squares,
                                               _blocked(state, att, dfn)))
        if not firing:
            firing = att.counters
            notes.append("No counter has line of sight as they stand; all are counted.")
    else:
        firing = att.counters
    cap = state.options.crossbow_cap_by_target
    return reach.ranged_multiplier(firing, dfn.counters, crossbow, cap)


def _unit_vs_unit(state: WarState, att: Unit, dfn: Unit, kind: str,
                  situation: Mapping[str, Any]) -> tuple[_Plan, list[str]]:
    ranged = kind in ("ranged", "crossbow")
    attack = _attack_of(att, ranged)
    notes: list[str] = []
    if kind == "crossbow" and not attack.crossbow:
        raise WarhostError(f"{att.id}'s ranged attack is no crossbow", field="kind")
    crossbow = ranged and attack.crossbow
    lines = [_attack_line(att.id, attack, ranged)]
    bonus, flanked = _unit_bonus(state, att, dfn, kind, situation, lines)
    if ranged:
        bonus += _range_penalty(state, attack, sorted(att.squares), sorted(dfn.squares),
                                situation, lines, notes, _increment(att, attack))
        mult = _ranged_multiplier(state, att, dfn, crossbow, situation, notes)
        rule = "W35-DMG-07, W35-AMB-34" if crossbow else "W35-DMG-05"
    else:
        mult = (_whole(situation, "multiplier", 0) if "multiplier" in situation
                else _melee_multiplier(att, dfn, notes))
        rule = "W35-DMG-02"
    if mult > att.counters:
        raise WarhostError(f"{att.id} has only {att.counters} counters", field="multiplier")
    sneak = damage.sneak_dice(att.feats) if flanked else 0
    if sneak:
        lines.append(f"sneak attack +{sneak}d6 on the flanked unit (W35-STAT-07)")
    lines.append(f"damage x {mult} counters ({rule})")
    dr = damage.unit_dr(state, dfn)
    lost = _unit_loss(state, dfn, attack.magic, lambda per: max(0, per - dr) * mult)
    if dr:
        lines.append(f"DR {dr} off each roll before the multiplier (W35-AMB-88)")
    plan = _Plan(attack, bonus, _target_ac(state, att, dfn, kind, situation),
                 damage.crits_allowed(state, att, dfn), lost, lines,
                 f"{sneak}d6" if sneak else None, {"multiplier": mult})
    _harmless(state, dfn, attack, notes)
    return plan, notes


def _unit_bonus(state: WarState, att: Unit, dfn: Unit, kind: str,
                situation: Mapping[str, Any], lines: list[str]) -> tuple[int, bool]:
    """The attack bonus of a unit on a unit and whether it flanks: the combat module's
    :func:`attack_bonus` where it stands when that exists (mounts, higher ground, phalanx,
    forest ...), else the stat-block bonus with the charge and free-attack +2; ``bonus``
    is added and ``flanked`` overrides the flanking found."""
    attack = _attack_of(att, kind in ("ranged", "crossbow"))
    extra = _whole(situation, "bonus", 0, low=None)
    if kind == "charge":
        lines.append("charge: +2 (W35-UATK-04)")
    if kind == "free":
        lines.append("Disengage free attack: +2 (W35-AMB-82)")
    bonus_of = getattr(combat, "attack_bonus", None)
    if bonus_of is not None:
        found = bonus_of(state, att, dfn, "ranged" if kind == "crossbow" else kind,
                         extra=extra)
        total, flanked = int(found.total), bool(found.flanked)
    else:
        total = attack.bonus + extra + (CHARGE_BONUS if kind == "charge" else 0) + (
            FREE_ATTACK_BONUS if kind == "free" else 0)
        flanked = False
    if flanked:
        total -= FLANKING_BONUS
    if kind in ("ranged", "crossbow"):
        if situation_flag(situation, "flanked"):
            lines.append("flanking counts only in melee (W35-MULTI-03)")
        return total, False
    flank = _flanking(dfn, flanked, situation, lines)
    known = attack.bonus + extra + (2 if kind in ("charge", "free") else 0)
    if total != known:
        lines.append(f"other modifiers where they stand: {total - known:+d} (W35-AMB-26 ...)")
    return total + flank, bool(flank)


def _increment(att: Unit, attack: UnitAttack) -> int | None:
    """The range increment: the combat module's (Far Shot) when it has one."""
    of = getattr(combat, "range_increment", None)
    return int(of(att)) if of is not None and of(att) is not None else attack.range_increment


def _harmless(state: WarState, dfn: Unit, attack: UnitAttack, notes: list[str]) -> None:
    """A note when no hit can hurt the unit where it stands."""
    if damage.sheltered(state, dfn):
        notes.append(f"{dfn.id} shelters in its fortification: no damage (W35-STRUCT-03, "
                     "W35-AMB-45).")
    elif dfn.creature.mundane_immune and not attack.magic:
        notes.append(f"{dfn.id} is immune to mundane weapons (W35-ABIL-08).")


def _unit_loss(state: WarState, dfn: Unit, magic: bool,
               amount: Callable[[int], int]) -> Callable[[int], int]:
    """HP a unit loses from one roll: none while sheltered or to mundane weapons when immune,
    else ``amount`` of the roll, at most its HP (W35-STRUCT-03, W35-ABIL-08, W35-UNIT-11)."""
    if damage.sheltered(state, dfn) or (dfn.creature.mundane_immune and not magic):
        return lambda per: 0
    return lambda per: min(amount(per), dfn.hp)


def _single_square(att: Unit, dfn: Single) -> Square:
    sq = dfn.square if dfn.square is not None else (
        min(att.squares) if dfn.host == att.id and att.squares else None)
    if sq is None:
        raise WarhostError(f"{att.id} cannot attack {dfn.id}: it is not on the map",
                           field="defender")
    return sq


def _default_attackers(state: WarState, att: Unit, dfn: Single, sq: Square, ranged: bool,
                       notes: list[str]) -> tuple[int, bool]:
    """W35-AMB-31/32 as they stand; when none can strike, a straight front of up to three
    counters (melee) or one counter side (ranged)."""
    count, surrounded = damage.attackers_against(state, att, dfn, sq, ranged)
    if count:
        return count, surrounded
    if ranged:
        count = min(reach.creatures_per_side(att.per_counter), att.derived_creatures)
        notes.append(f"No counter of {att.id} can shoot {dfn.id} as they stand: assumed one "
                     f"counter side, {count} creatures (W35-AMB-32); give attackers=N.")
        return count, False
    front = [(-1, -1), (0, -1), (1, -1)][:max(1, min(3, att.counters))]
    count, _ = reach.attackers_on_single((0, 0), tables.SIZE_CELLS[dfn.creature.size],
                                         tables.SIZE_CELLS[att.size], set(front),
                                         att.derived_creatures)
    notes.append(f"{att.id} is not next to {dfn.id}: assumed a straight front, {count} "
                 "creatures (W35-AMB-31); give attackers=N.")
    return count, False


def _unit_vs_single(state: WarState, att: Unit, dfn: Single, ranged: bool,
                    situation: Mapping[str, Any]) -> tuple[_Plan, list[str]]:
    if not damage.single_target_ok(state, att, dfn):
        raise WarhostError(f"{att.id} cannot attack {dfn.id}: it stands inside a unit of its "
                           "own side or is out of the fight (W35-DMG-08)", field="defender")
    attack = _attack_of(att, ranged)
    notes: list[str] = []
    sq = _single_square(att, dfn)
    count, surrounded = _default_attackers(state, att, dfn, sq, ranged, notes)
    if "attackers" in situation:
        count = _whole(situation, "attackers", 0)
        if count > att.derived_creatures:
            raise WarhostError(f"{att.id} stands for only {att.derived_creatures} creatures",
                               field="attackers")
    lines = [_attack_line(att.id, attack, ranged)]
    bonus = attack.bonus + _whole(situation, "bonus", 0, low=None)
    if situation_flag(situation, "charge") and not ranged:
        bonus += CHARGE_BONUS
        lines.append("charge: +2 (W35-UATK-04)")
    if ranged:
        bonus += _range_penalty(state, attack, sorted(att.squares), [sq], situation, lines,
                                notes)
    flank = 0 if ranged else _flanking(dfn, surrounded, situation, lines)
    bonus += flank
    sneak = damage.sneak_dice(att.feats) if flank else 0
    rule = "W35-DMG-12, W35-AMB-32" if ranged else "W35-DMG-09, W35-AMB-31"
    lines.append(f"damage x {count} creatures ({rule})")
    if sneak:
        lines.append(f"sneak attack +{sneak}d6 on the flanked target (W35-STAT-07)")
    dr = dfn.creature.dr
    immune = dfn.creature.mundane_immune and not attack.magic
    plan = _Plan(attack, bonus, _target_ac(state, att, dfn, "melee", situation),
                 damage.crits_allowed(state, att, dfn),
                 lambda per: 0 if immune else max(0, per - dr) * count, lines,
                 f"{sneak}d6" if sneak else None, {"attackers": count, "flanked": bool(flank)})
    return plan, notes


def _single_attacker(state: WarState, att: Single, dfn: Actor, ranged: bool,
                     situation: Mapping[str, Any]) -> tuple[_Plan, list[str]]:
    charge = situation_flag(situation, "charge")
    attacks = damage.single_attacks(att, charge=charge, ranged=ranged)
    if not attacks:
        raise WarhostError(f"{att.id} has no {'ranged' if ranged else 'melee'} attack",
                           field="kind")
    attack = attacks[0]
    notes: list[str] = []
    if len(attacks) > 1:
        notes.append(f"{att.id} makes {len(attacks)} attacks in a full attack (W35-PC-04); "
                     "these are the odds of the first.")
    lines = [_attack_line(att.id, attack, ranged)]
    bonus = attack.bonus + _whole(situation, "bonus", 0, low=None)
    if charge:
        bonus += CHARGE_BONUS
        lines.append("charge: +2 (W35-AMB-30)")
    if ranged and att.square is not None:
        target = sorted(dfn.squares) if isinstance(dfn, Unit) else (
            [dfn.square] if dfn.square is not None else [att.square])
        bonus += _range_penalty(state, attack, [att.square], target, situation, lines, notes)
    bonus += _flanking(dfn, False, situation, lines)
    crit_ok = damage.crits_allowed(state, att, dfn)
    ac = _target_ac(state, att, dfn, "single", situation)
    if isinstance(dfn, Unit):
        dr = damage.unit_dr(state, dfn)
        per_counter = dfn.per_counter
        lines.append(f"damage ÷ {per_counter} creatures per counter, rounded down "
                     "(W35-DMG-13/14)")
        lost = _unit_loss(state, dfn, attack.magic,
                          lambda per: int(Fraction(max(0, per - dr)) / per_counter))
        _harmless(state, dfn, attack, notes)
        return _Plan(attack, bonus, ac, crit_ok, lost, lines), notes
    sdr = dfn.creature.dr
    immune = dfn.creature.mundane_immune and not attack.magic
    lines.append("full damage (W35-DMG-15)")
    return _Plan(attack, bonus, ac, crit_ok,
                 lambda per: 0 if immune else max(0, per - sdr), lines), notes


# --------------------------------------------------------------------------- the report


def _json_dist(dist: Mapping[int, Fraction]) -> dict[str, Any]:
    return {str(k): fraction_json(p) for k, p in dist.items()}


def _number(value: Fraction) -> dict[str, Any]:
    text = str(value.numerator) if value.denominator == 1 else \
        f"{value.numerator}/{value.denominator}"
    return {"fraction": text, "value": float(value)}


def _report(state: WarState, att: Actor, dfn: Actor, kind: str,
            situation: Mapping[str, Any], plan: _Plan, notes: list[str]) -> OddsReport:
    chances = hit_chances(plan.bonus, plan.ac, crit_range=plan.attack.crit_range,
                          crit_ok=plan.crit_ok)
    per_hit = per_hit_distribution(plan.attack, chances, plan.extra_dice)
    lost_on_hit = _mapped(per_hit, plan.lost)
    hp_lost = _mix([(1 - chances.hit, {0: Fraction(1)}), (chances.hit, lost_on_hit)])
    outcomes: dict[str, Fraction] = {"success": chances.hit, "failure": 1 - chances.hit}
    details: dict[str, Any] = {
        "pathway": _pathway(att, dfn), "bonus": plan.bonus, "ac": plan.ac, **plan.facts,
        "hit": fraction_json(chances.hit), "critical": fraction_json(chances.crit),
        "damage_roll": _json_dist(damage_roll_distribution(plan.attack.damage)),
        "hp_lost": _json_dist(hp_lost), "expected_hp_lost": _number(mean(hp_lost)),
    }
    if isinstance(dfn, Unit):
        removed = _mapped(lost_on_hit, lambda v: counters_removed(
            dfn.counters, dfn.hp, dfn.counter_hp, v))
        outcomes.update({f"counters_{n}": chances.hit * p for n, p in removed.items() if p})
        details.update(hp=dfn.hp, counter_hp=dfn.counter_hp, counters=dfn.counters)
        notes.append(f"{dfn.id} has {dfn.hp} HP in {dfn.counters} counters of {dfn.counter_hp}"
                     " HP: counters removed = counters − ceil(HP after ÷ counter HP) "
                     "(W35-UNIT-12/13).")
    else:
        falls = sum((p for v, p in lost_on_hit.items() if v >= dfn.hp), Fraction(0))
        outcomes["falls"] = chances.hit * falls
        outcomes["stands"] = chances.hit * (1 - falls)
        details.update(hp=dfn.hp)
    if not plan.crit_ok:
        notes.append("No critical hits on this attack (W35-AMB-89: crit-immune target or "
                     "option unit_crits off).")
    crit = (f", threat {plan.attack.crit_range}-20 x{plan.attack.crit_multiplier}"
            if plan.crit_ok else "")
    needed = max(2, min(20, plan.ac - plan.bonus))
    roll = (f"d20 {plan.bonus:+d} against AC {plan.ac}: needs {needed}+, a natural 20 hits "
            "and a natural 1 misses (W35-COMBAT-03, W35-GEN-02)")
    lines = [*plan.lines, roll]
    return OddsReport(attacker=att.id, defender=dfn.id, kind=f"{kind}, {_pathway(att, dfn)}",
                      modifiers=lines, outcomes=outcomes, notes=notes,
                      dice=f"1d20{plan.bonus:+d} vs AC {plan.ac}{crit}; damage "
                           f"{plan.attack.damage}", details=details)


def morale_modifier(state: WarState, unit: Unit, extra: int, *, fleeing: bool = False
                    ) -> tuple[int, list[str]]:
    """The unit's morale check modifier: its own terms (the morale module's when it has them,
    else its Morale score, −4 enslaved and −4 fleeing, W35-MORALE-04) plus ``extra``; for a
    mob a positive term counts 0 (W35-AMB-22)."""
    terms_of = getattr(morale, "modifier_terms", None)
    if terms_of is not None:
        terms: list[tuple[str, int]] = list(terms_of(state, unit, fleeing=fleeing))
    else:
        terms = [("morale", unit.morale)]
        terms += [("enslaved", ENSLAVED_PENALTY)] if unit.enslaved else []
        terms += [("fleeing", FLEEING_PENALTY)] if fleeing else []
    if extra:
        terms.append(("given", min(extra, 0) if unit.mob else extra))
    lines = [f"{name} {value:+d}" for name, value in terms]
    return sum(value for _, value in terms), lines


def morale_odds(state: WarState, att: Actor, dfn: Actor, situation: Mapping[str, Any]
                ) -> OddsReport:
    """The defender's morale check (W35-MORALE-02, W35-AMB-15)."""
    assert isinstance(dfn, Unit)
    trigger = str(situation.get("trigger", DEFAULT_TRIGGER)).strip().lower()
    if trigger not in tables.MORALE_DC:
        raise WarhostError(f"unknown trigger {trigger!r}"
                           f"{close_match_hint(trigger, list(tables.MORALE_DC), 'triggers')}",
                           field="trigger")
    dc = _whole(situation, "dc", tables.MORALE_DC[trigger])
    modifier, lines = morale_modifier(state, dfn, _whole(situation, "modifier", 0, low=None),
                                      fleeing=trigger == "rally" or dfn.routed)
    natural = state.options.morale_natural_rolls
    notes: list[str] = []
    if dfn.morale_immune:
        chance = Fraction(1)
        notes.append(f"{dfn.id} never checks morale (W35-STAT-05): it always holds.")
    else:
        chance = morale_pass_chance(modifier, dc, natural_rolls=natural)
    lines.append(f"d20 {modifier:+d} against DC {dc} ({trigger}, W35-MORALE-02/03)")
    if natural:
        lines.append("a natural 20 passes and a natural 1 fails (W35-AMB-15)")
    return OddsReport(attacker=att.id, defender=dfn.id, kind=f"morale check of {dfn.id}",
                      modifiers=lines, outcomes={"success": chance, "failure": 1 - chance},
                      notes=notes, dice=f"1d20{modifier:+d} vs DC {dc}",
                      details={"trigger": trigger, "dc": dc, "modifier": modifier,
                               "passes": fraction_json(chance),
                               "routs": fraction_json(1 - chance)})


# --------------------------------------------------------------------------- siege volleys


def siege_volley_odds(weapon_name: str, bonus: int, ac: int, hardness: int,
                      hp: int | None = None) -> Distribution:
    """The exact distribution of the HP a structure section (or a machine) loses to one shot
    of a siege weapon: d20 + ``bonus`` against ``ac`` (AC 10 for catapults and trebuchets,
    W35-SIEGE-09), the weapon's dice (a ballista's confirmed critical doubles the roll,
    W35-AMB-49/89), less ``hardness`` (W35-SIEGE-07, W35-AMB-45), capped at ``hp``."""
    from warhost.rulesets.dnd35_wars import siege

    weapon = tables.siege_weapon(weapon_name)
    if weapon.crit is None:
        ac = tables.CATAPULT_AC
    attack = siege.weapon_attack(weapon)
    chances = hit_chances(bonus, ac, crit_range=attack.crit_range,
                          crit_ok=weapon.crit is not None)

    def lost(rolled: int) -> int:
        after = max(0, rolled - hardness)
        return after if hp is None else min(hp, after)

    on_hit = _mapped(per_hit_distribution(attack, chances), lost)
    return _mix([(1 - chances.hit, {0: Fraction(1)}), (chances.hit, on_hit)])


def siege_volley_on_state(state: WarState, unit: Unit, target: str) -> OddsReport:
    """The ``siege_volley`` situation: one shot of ``unit``'s siege weapon at a structure
    section or ``machine:UNIT`` as they stand (its bonus, AC, range), with the HP it loses;
    results ``breached`` (the target reaches 0 HP) and ``holds``."""
    from warhost.rulesets.dnd35_wars import machines, siege

    machine = siege.siege_machine(state, unit)
    if machine is None:
        raise WarhostError(f"{unit.id} carries no siege weapon", field="attacker")
    aim = siege.aim(state, unit, machine, target)
    if isinstance(aim, Refusal):
        raise WarhostError(f"{unit.id} cannot fire at {target}: {aim.reason} ({aim.rule})",
                           field="defender")
    if aim.kind not in ("structure", "machine"):
        raise WarhostError("a siege volley's odds are for a structure or a machine",
                           field="defender")
    bonus = siege.shot_bonus(state, machine, aim)
    ac = siege.target_ac(state, unit, machine, aim)
    if aim.kind == "machine":
        hp, hardness = state.machines[aim.id].hp, state.machines[aim.id].hardness
    else:
        hp, hardness = state.structure_hp[aim.id], state.structures[aim.id].hardness
    dist = siege_volley_odds(machine.name, bonus, ac, hardness, hp)
    weapon = tables.siege_weapon(machine.name)
    chances = hit_chances(bonus, ac, crit_range=siege.weapon_attack(weapon).crit_range,
                          crit_ok=weapon.crit is not None)
    breached = dist.get(hp, Fraction(0)) if hp > 0 else Fraction(0)
    outcomes = {"success": chances.hit, "failure": 1 - chances.hit, "breached": breached,
                "holds": chances.hit - breached}
    details = {"bonus": bonus, "ac": ac, "hardness": hardness, "hp": hp, "feet": aim.feet,
               "hit": fraction_json(chances.hit), "critical": fraction_json(chances.crit),
               "hp_lost": _json_dist(dist), "expected_hp_lost": _number(mean(dist))}
    name = machines.target_text(aim.id) if aim.kind == "machine" else aim.id
    return OddsReport(attacker=unit.id, defender=name, kind="siege_volley",
                      modifiers=[f"d20 {bonus:+d} against AC {ac} (W35-SIEGE-08/09/11)"],
                      outcomes=outcomes, dice=f"1d20{bonus:+d} vs AC {ac}; damage "
                      f"{weapon.damage} less hardness {hardness}", details=details)


def _siege_unit(state: WarState, name: str) -> Unit:
    actor = _actor(state, name, "attacker")
    if not isinstance(actor, Unit):
        raise WarhostError(f"{name} is not a unit", field="attacker")
    return actor
