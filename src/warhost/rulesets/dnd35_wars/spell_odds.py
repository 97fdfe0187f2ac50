"""Exact odds of one spell on a unit (``warhost odds ... --set spell=NAME``): the distribution
of the counters it removes, with one unit save (W35-MAGIC-09/10) and with proportional saves
(W35-PROP-01..03, W35-AMB-55), every die enumerated.

The spell's counters affected come from its area (W35-AOE-02/05, W35-AMB-52/53; cast by a unit:
W35-UCAST-12, W35-AMB-59). Damage (W35-AMB-54): one roll for the whole spell; each affected
counter takes the per-creature damage, halved (rounded down) on a save for half, less DR, so a
unit loses floor(per-creature damage × counters affected) (a share of a counter scales it,
W35-AMB-53), failing and saving counters apart under proportional saves. A single-target damage
spell from a singular creature is divided as its attack would be (W35-DMG-13). A spell that
takes creatures out of the fight (W35-SPELL-10, W35-AMB-57) removes the whole affected counters
that fail; one that affects Hit Dice (W35-SPELL-14) first turns the HD rolled into counters.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from math import ceil, floor
from typing import Any

from warhost.core.errors import WarhostError
from warhost.core.odds import OddsReport, fraction_json, situation_flag
from warhost.rulesets.dnd35_wars import areas, damage, spellbook, tables
from warhost.rulesets.dnd35_wars.model import KnownSpell, Spell
from warhost.rulesets.dnd35_wars.state import Single, Unit, WarState

Distribution = dict[int, Fraction]
Shares = dict[Fraction, Fraction]
"""Counters affected (possibly a share of one) -> probability."""

EFFECTS = ("damage", "disable", "hd")
"""The effects whose result is counters removed."""

SPELL_KEYS: dict[str, str] = {
    "spell": "the spell cast (its name); the report gives the counters it removes",
    "caster_level": "spell: the caster level (default: the caster's)",
    "casters": "spell cast by a unit: its casting counters, +1 DC each beyond the first "
               "(W35-UCAST-13; default: all its counters)",
    "counters_hit": "spell: the counters the spell affects, a whole number or a share like "
                    "1/2 (default: from its area, W35-AOE-02..05)",
    "proportional": "spell: true/false, proportional saves (default: option "
                    "proportional_saves)",
}
"""The situation keys of a spell's odds (``dc`` is shared with morale checks)."""


# --------------------------------------------------------------------------- pure math


def save_chance(bonus: int, dc: int) -> Fraction:
    """One d20 save: a natural 20 saves, a natural 1 fails, else d20 + bonus ≥ DC
    (W35-MAGIC-09/10)."""
    return Fraction(sum(1 for n in range(1, 21)
                        if n == 20 or (n != 1 and n + bonus >= dc)), 20)


def per_creature(roll: int, saved: bool, on_save: str, dr: int) -> int:
    """One creature's damage from a spell's roll: halved (rounded down) on a save for half,
    nothing on a save that negates, then less DR (W35-AMB-54)."""
    if saved:
        roll = roll // 2 if on_save == "half" else 0
    return max(0, roll - dr)


def unit_hp_lost(per: int, counters: Fraction) -> int:
    """A unit's HP lost when ``counters`` of it take ``per`` each: rounded down, which scales
    a share of a counter (W35-AMB-53/54)."""
    return floor(per * counters)


def _mix(parts: list[tuple[Fraction, Distribution]]) -> Distribution:
    out: Distribution = {}
    for weight, dist in parts:
        for value, p in dist.items():
            if weight * p:
                out[value] = out.get(value, Fraction(0)) + weight * p
    return dict(sorted(out.items()))


def _mapped(dist: Distribution, f: Any) -> Distribution:
    out: Distribution = {}
    for value, p in dist.items():
        key = int(f(value))
        out[key] = out.get(key, Fraction(0)) + p
    return dict(sorted(out.items()))


def area_hp_lost(roll: Distribution, counters: Fraction, *, dr: int, save: str, on_save: str,
                 p_save: Fraction, failing: int | None) -> Distribution:
    """The HP a unit loses to an area damage spell over ``counters`` affected: one save for
    all (``failing`` None) or a fixed number of failing counters (proportional saves), the
    roll enumerated."""
    if save == "none":
        return _mapped(roll, lambda r: unit_hp_lost(per_creature(r, False, on_save, dr),
                                                    counters))
    if failing is not None:
        saving = counters - failing
        return _mapped(roll, lambda r: failing * per_creature(r, False, on_save, dr)
                       + unit_hp_lost(per_creature(r, True, on_save, dr), saving))
    fail = _mapped(roll, lambda r: unit_hp_lost(per_creature(r, False, on_save, dr), counters))
    saved = _mapped(roll, lambda r: unit_hp_lost(per_creature(r, True, on_save, dr), counters))
    return _mix([(1 - p_save, fail), (p_save, saved)])


def removed_by_hp(lost: Distribution, counters: int, hp: int, counter_hp: int) -> Distribution:
    """Counters a unit loses with each HP loss (W35-UNIT-12/13)."""
    return _mapped(lost, lambda v: counters - tables.counters_left(hp - min(v, hp), counter_hp))


def taken_out(affected: int, *, save: str, p_save: Fraction, failing: int | None
              ) -> Distribution:
    """Counters removed by a spell that takes the failing counters out (W35-SPELL-10,
    W35-AMB-57): all or none on one save, or the failing ones (proportional saves)."""
    if save == "none":
        return {affected: Fraction(1)}
    if failing is not None:
        return {failing: Fraction(1)}
    return _mix([(1 - p_save, {affected: Fraction(1)}), (p_save, {0: Fraction(1)})])


def shares_hit(area_value: Fraction, target_counters: int, mode: str) -> Shares:
    """The counters an area affects as a distribution: capped (W35-AOE-05), a share of one
    kept, made one, or made one with its own probability (W35-AMB-53)."""
    value = areas.capped(area_value, target_counters)
    if value >= 1 or value <= 0:
        return {Fraction(floor(value)): Fraction(1)}
    if mode == "scale":
        return {value: Fraction(1)}
    if mode == "round_up":
        return {Fraction(ceil(value)): Fraction(1)}
    return {k: p for k, p in ((Fraction(1), value), (Fraction(0), 1 - value)) if p}


# --------------------------------------------------------------------------- the report


def _known(caster: Unit | Single, name: str) -> KnownSpell | None:
    return next((k for k in caster.creature.spells if k.spell == name), None)


def _whole(situation: Mapping[str, Any], key: str, default: int, low: int) -> int:
    value = situation.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise WarhostError(f"{key} must be a whole number of at least {low}, not {value!r}",
                           field=key)
    return value


def _given_share(situation: Mapping[str, Any]) -> Fraction | None:
    value = situation.get("counters_hit")
    if value is None:
        return None
    try:
        share = Fraction(str(value))
    except (ValueError, ZeroDivisionError):
        share = Fraction(-1)
    if isinstance(value, bool) or share < 0:
        raise WarhostError(f"counters_hit must be a whole number or a share like 1/2, not "
                           f"{value!r}", field="counters_hit")
    return share


def _spell(state: WarState, situation: Mapping[str, Any]) -> Spell:
    name = str(situation.get("spell") or "").strip()
    if not name:
        raise WarhostError("name the spell: --set spell=NAME", field="spell")
    try:
        spell = spellbook.spell_of(state, name)
    except ValueError as exc:
        raise WarhostError(str(exc), field="spell") from None
    if spell.effect not in EFFECTS:
        raise WarhostError(f"{name} is a {spell.effect} spell; odds are given for spells that "
                           f"remove counters ({', '.join(EFFECTS)})", field="spell")
    return spell


def spell_odds(state: WarState, att: Unit | Single, dfn: Unit | Single,
               situation: Mapping[str, Any]) -> OddsReport:
    """The counters one spell of ``att`` removes from the unit ``dfn`` (see the module)."""
    spell = _spell(state, situation)
    if not isinstance(dfn, Unit):
        raise WarhostError(f"{dfn.id} is a singular creature: spell odds are for a unit "
                           "target", field="defender")
    notes: list[str] = []
    known = _known(att, spell.name)
    if known is None:
        notes.append(f"{att.id} does not know {spell.name}: worked as if it did.")
        known = KnownSpell(spell=spell.name)
    level = _whole(situation, "caster_level", att.creature.caster_level, 0)
    casters = 1
    if isinstance(att, Unit):
        casters = _whole(situation, "casters", att.counters, 1)
    base_dc = spellbook.save_dc(spell, known, att.creature) + casters - 1
    dc = _whole(situation, "dc", base_dc, 1)
    bonus = spellbook.save_bonus(dfn, spell.save) if spell.save != "none" else 0
    p_save = save_chance(bonus, dc) if spell.save != "none" else Fraction(0)
    lines = [f"{att.id} casts {spell.name} (level {spell.level}) at caster level {level}"]
    if spell.save != "none":
        lines.append(f"{dfn.id} saves: d20 {bonus:+d} ({spell.save}) against DC {dc}; a "
                     f"natural 20 saves and a natural 1 fails (W35-MAGIC-09/10)")
    shares = _shares(state, att, dfn, spell, situation, lines, notes)
    if spell.effect == "hd":
        lines.append(f"{spell.hit_dice} HD ÷ {spellbook.creature_hd(dfn.creature)} HD a "
                     f"creature ÷ {dfn.per_counter} creatures a counter, rounded down, at most "
                     f"the counters affected (W35-SPELL-14)")
    proportional = situation_flag(situation, "proportional", state.options.proportional_saves)
    both = {mode: _removed(state, dfn, spell, level, shares, dc=dc, bonus=bonus,
                           p_save=p_save, proportional=mode == "proportional", notes=notes)
            for mode in ("single_save", "proportional")}
    chosen = both["proportional" if proportional else "single_save"]
    if not spellbook.affects(spell, dfn.creature):
        notes.append(f"{spell.name} cannot affect {dfn.creature.name} (its creature type or "
                     f"Hit Dice).")
        chosen = both["single_save"] = both["proportional"] = {0: Fraction(1)}
    lines.append("proportional saves (W35-PROP-01..03)" if proportional
                 else "one save for the unit (W35-MAGIC-10)")
    outcomes = {"success": 1 - chosen.get(0, Fraction(0)), "failure": chosen.get(0, Fraction(0))}
    outcomes.update({f"counters_{n}": p for n, p in chosen.items() if n > 0 and p})
    details = {
        "spell": spell.name, "effect": spell.effect, "caster_level": level, "dc": dc,
        "save": spell.save, "save_bonus": bonus, "saves": fraction_json(p_save),
        "counters_hit": {str(k): fraction_json(p) for k, p in shares.items()},
        "mode": "proportional" if proportional else "single_save",
        **{f"counters_removed_{mode}": {str(k): fraction_json(p) for k, p in dist.items()}
           for mode, dist in both.items()},
        "expected_counters_removed": {mode: float(sum(k * p for k, p in dist.items()))
                                      for mode, dist in both.items()},
        "hp": dfn.hp, "counter_hp": dfn.counter_hp, "counters": dfn.counters,
    }
    dice = spellbook.damage_expr(spell, level) if spell.effect == "damage" else spell.hit_dice
    return OddsReport(attacker=att.id, defender=dfn.id, kind=f"spell {spell.name}",
                      modifiers=lines, outcomes=outcomes, notes=notes,
                      dice=f"{dice or 'no roll'}; save DC {dc}", details=details)


def _shares(state: WarState, att: Unit | Single, dfn: Unit, spell: Spell,
            situation: Mapping[str, Any], lines: list[str], notes: list[str]) -> Shares:
    """The counters affected, as given or from the area (W35-AOE-02..05, W35-UCAST-12)."""
    given = _given_share(situation)
    if given is not None:
        lines.append(f"counters affected: {given} (given)")
        return shares_hit(given, dfn.counters, state.options.aoe_fraction_mode)
    if spell.area is None:
        if isinstance(att, Unit):
            raise WarhostError("a unit's single-target spell aims each counter at its own "
                               "target (W35-UCAST-10): give counters_hit", field="spell")
        lines.append("single target: the damage is divided by the creatures in a counter "
                     "(W35-DMG-13)")
        return {Fraction(1): Fraction(1)}
    if isinstance(att, Unit):
        hit = areas.unit_cast_counters(spell.area, dfn.counters)
        lines.append(f"counters affected: {hit} (the 5-ft squares of the area, at most the "
                     f"target's counters, W35-UCAST-12, W35-AMB-59)")
        return {Fraction(hit): Fraction(1)}
    value = areas.area_counters(spell.area, state.scale, state.options)
    lines.append(f"area {spell.area.shape} {spell.area.feet} ft at {state.scale} ft: {value} "
                 f"counters (table {state.options.aoe_table}, W35-AOE-02/03), at most "
                 f"{dfn.counters} (W35-AOE-05)")
    if 0 < value < 1:
        notes.append(f"a share of a counter: option aoe_fraction_mode="
                     f"{state.options.aoe_fraction_mode} (W35-AMB-53).")
    return shares_hit(value, dfn.counters, state.options.aoe_fraction_mode)


def _removed(state: WarState, dfn: Unit, spell: Spell, level: int, shares: Shares, *, dc: int,
             bonus: int, p_save: Fraction, proportional: bool, notes: list[str]
             ) -> Distribution:
    """The distribution of counters removed, over the counters affected."""
    parts = []
    for share, weight in shares.items():
        whole = share >= 1 and share.denominator == 1
        failing = (areas.failing_counters(dc, bonus, int(share))
                   if proportional and whole and spell.save != "none" else None)
        parts.append((weight, _removed_by(state, dfn, spell, level, share, dc=dc, bonus=bonus,
                                          p_save=p_save, failing=failing, notes=notes)))
    return _mix(parts)


def _removed_by(state: WarState, dfn: Unit, spell: Spell, level: int, share: Fraction, *,
                dc: int, bonus: int, p_save: Fraction, failing: int | None,
                notes: list[str]) -> Distribution:
    if spell.effect == "damage":
        return removed_by_hp(_hp_lost(state, dfn, spell, level, share, p_save, failing, notes),
                             dfn.counters, dfn.hp, dfn.counter_hp)
    if spell.effect == "disable":
        return taken_out(areas.whole_counters(share), save=spell.save, p_save=p_save,
                         failing=failing)
    hd_roll = _dice(spell.hit_dice or "0")
    parts = []
    for hd, p in hd_roll.items():
        affected = min(areas.counters_from_hd(hd, spellbook.creature_hd(dfn.creature),
                                              dfn.per_counter),
                       areas.whole_counters(share) if spell.area is not None else dfn.counters)
        fail = (areas.failing_counters(dc, bonus, affected) if failing is not None else None)
        parts.append((p, taken_out(affected, save=spell.save, p_save=p_save, failing=fail)))
    return _mix(parts)


def _dice(expr: str) -> Distribution:
    from warhost.rulesets.dnd35_wars.odds import dice_distribution

    return dice_distribution(expr)


def _hp_lost(state: WarState, dfn: Unit, spell: Spell, level: int, share: Fraction,
             p_save: Fraction, failing: int | None, notes: list[str]) -> Distribution:
    expr = spellbook.damage_expr(spell, level) or "0"
    roll = _dice(expr)
    if damage.sheltered(state, dfn):
        note = f"{dfn.id} shelters in its fortification: no damage (W35-STRUCT-03)."
        if note not in notes:
            notes.append(note)
        return {0: Fraction(1)}
    dr = damage.unit_dr(state, dfn)
    if spell.area is None:  # a singular creature's single target: W35-DMG-13
        if spell.ranged_touch:
            notes.append("the ranged touch attack is taken to hit (its roll is not included).")

        def divided(saved: bool) -> Distribution:
            return _mapped(roll, lambda r: floor(
                Fraction(per_creature(r, saved, spell.on_save, dr)) / dfn.per_counter))
        return _mix([(1 - p_save, divided(False)), (p_save, divided(True))])
    return area_hp_lost(roll, share, dr=dr, save=spell.save, on_save=spell.on_save,
                        p_save=p_save, failing=failing)
