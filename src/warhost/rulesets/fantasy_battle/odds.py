"""Exact odds of one attack, by enumerating the dice (no sampling).

The kept die of ``n`` d6 is their maximum: P(max <= k) = (k/6)^n. The attack succeeds when
attacker's kept die + attack modifier is strictly greater than defender's kept die + defense
modifier (FB-COMBAT-01..03). What a success does depends on the target (FB-COMBAT-04..06,
FB-CAV-04..07):

==========================  ==========================================================
target                      result of a success
==========================  ==========================================================
Standard/Elite Infantry     defeat
Champion Infantry           wound (defeat when already Wounded)
Standard Cavalry            defeat
Elite Cavalry               the d6 dismount roll: 1-3 defeat, 4-6 dismount (1/2 each)
Champion Cavalry            dismount (also a wound under
                            ``champion_dismount_counts_as_wound``)
==========================  ==========================================================

Choices are not enumerated: Fate Points, Protect, declining special abilities and Frenzy. For
Fate Points :func:`fate_success` gives the success probability when one side spends one point
as well as it can (see there for the exact definition).

:func:`attack_odds` works on any battle state (the AI may call it); :func:`exact_odds` is the
ruleset hook :meth:`warhost.core.ruleset.Ruleset.exact_odds`: it builds the deployed state of
a scenario, applies a *situation* (positions, facings, charge, kind of attack, a wounded
target, option overrides), checks that the attack is legal there and reports.
"""

from __future__ import annotations

import difflib
from collections import Counter
from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import cache, lru_cache
from itertools import combinations_with_replacement
from math import factorial
from typing import Any, Literal

from warhost.core.errors import WarhostError
from warhost.core.odds import (
    IllegalAttackError,
    OddsReport,
    check_situation_keys,
    fraction_json,
    option_value,
    situation_flag,
    with_options,
)
from warhost.core.scenario import Scenario
from warhost.geometry.grid import Square, footprint
from warhost.rulesets.fantasy_battle import combat, feats
from warhost.rulesets.fantasy_battle.model import FantasyBattleScenario
from warhost.rulesets.fantasy_battle.state import (
    FACING_NAMES,
    FACINGS,
    RANK_DICE,
    FBState,
    Unit,
)
from warhost.rulesets.fantasy_battle.validate import check_scenario

__all__ = [
    "SITUATION_KEYS",
    "IllegalAttackError",
    "attack_odds",
    "build_state",
    "exact_odds",
    "fate_success",
    "hit_results",
    "max_distribution",
    "success_float",
    "success_probability",
]

Spender = Literal["attacker", "defender"]

SITUATION_KEYS: dict[str, str] = {
    "kind": "melee, ranged or throw (default: the legal attack of that pair where they stand)",
    "charge": "true: the attacker charged (Pike or Lancer, melee): +1 (FB-PIKE-06, FB-CAV-09)",
    "at_attacker": "square [x, y] (or 'x,y') to put the attacker on (anchor of a 2x2 base)",
    "at_defender": "square [x, y] (or 'x,y') to put the defender on",
    "facing_attacker": "facing of an attacking Pike (north, east, ...)",
    "facing_defender": "facing of a defending Pike (north, east, ...)",
    "wounded": "true: the defending Champion is already Wounded (FB-COMBAT-06)",
    "ignore_position": "true: report even when the attack is not legal where they stand",
    "options": "scenario option overrides, name -> value",
}
"""The situation keys :func:`exact_odds` understands, with what each means."""

OUTCOME_ORDER = ("success", "failure", "defeat", "wound", "dismount")


# --------------------------------------------------------------------------- dice


@cache
def max_distribution(dice: int) -> tuple[Fraction, ...]:
    """P(kept die = k) for k = 1..6 when ``dice`` d6 are rolled and the highest kept."""
    return tuple(Fraction(k**dice - (k - 1) ** dice, 6**dice) for k in range(1, 7))


@lru_cache(maxsize=4096)
def success_probability(attack_dice: int, defense_dice: int, attack_mod: int,
                        defense_mod: int) -> Fraction:
    """Exact probability that the attack succeeds (ties fail).

    Example:
        >>> success_probability(1, 1, 0, 0)
        Fraction(5, 12)
    """
    att = max_distribution(attack_dice)
    dfn = max_distribution(defense_dice)
    total = Fraction(0)
    for a in range(6):
        for d in range(6):
            if a + 1 + attack_mod > d + 1 + defense_mod:
                total += att[a] * dfn[d]
    return total


@lru_cache(maxsize=4096)
def success_float(attack_dice: int, defense_dice: int, attack_mod: int, defense_mod: int) -> float:
    """:func:`success_probability` as a float, for the AI's hot path."""
    return float(success_probability(attack_dice, defense_dice, attack_mod, defense_mod))


@cache
def _rolls(dice: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Every roll of ``dice`` d6 as (sorted faces, number of ordered rolls giving it)."""
    out = []
    for faces in combinations_with_replacement(range(1, 7), dice):
        ways = factorial(dice)
        for count in Counter(faces).values():
            ways //= factorial(count)
        out.append((faces, ways))
    return tuple(out)


def _rerolls(faces: tuple[int, ...]) -> list[int]:
    """For each distinct die of a roll: the highest of the *other* dice (0 when none)."""
    out = []
    for i in range(len(faces)):
        if i and faces[i] == faces[i - 1]:
            continue
        rest = faces[:i] + faces[i + 1:]
        out.append(max(rest) if rest else 0)
    return out


@lru_cache(maxsize=1024)
def fate_success(attack_dice: int, defense_dice: int, attack_mod: int, defense_mod: int,
                 spender: Spender) -> Fraction:
    """Exact success probability when ``spender`` spends one Fate Point as well as it can.

    Definition: both sides roll; ``spender`` sees every die and, only if the result is not
    already the one it wants (the attacker wants a success, the defender a failure), spends
    exactly one Fate Point to reroll the one die, its own or the opponent's, that gives it the
    best chance after the reroll (FB-FATE-04); the new face stands even if worse (FB-FATE-05).
    The other side spends nothing. In practice the best die is the spender's own lowest or the
    opponent's highest, but every die is tried.

    Example:
        >>> fate_success(1, 1, 0, 0, "attacker")
        Fraction(49, 72)
        >>> fate_success(1, 1, 0, 0, "defender")
        Fraction(7, 36)
    """
    diff = defense_mod - attack_mod  # success: kept attack die > kept defense die + diff
    total = 0
    for a_faces, a_ways in _rolls(attack_dice):
        a_max = a_faces[-1]
        for d_faces, d_ways in _rolls(defense_dice):
            d_max = d_faces[-1]
            success = a_max > d_max + diff
            # successes among the 6 faces of the rerolled die, per choice of die
            own_att = [sum(1 for f in range(1, 7) if max(rest, f) > d_max + diff)
                       for rest in _rerolls(a_faces)]
            own_def = [sum(1 for f in range(1, 7) if a_max > max(rest, f) + diff)
                       for rest in _rerolls(d_faces)]
            if spender == "attacker":
                sixths = 6 if success else max(own_att + own_def)
            else:
                sixths = min(own_att + own_def) if success else 0
            total += a_ways * d_ways * sixths
    return Fraction(total, 6 ** (attack_dice + defense_dice + 1))


# --------------------------------------------------------------------------- results


def hit_results(state: FBState, target: Unit) -> dict[str, Fraction]:
    """What a successful attack on ``target`` does, as probabilities given a success.

    Protect is not counted (it is a choice, FB-FEAT-08).

    Example:
        >>> from tests.rulesets.fantasy_battle.helpers import make_state  # doctest: +SKIP
        >>> s = make_state(units=[{"id": "k", "cls": "knight", "rank": "elite",
        ...                        "at": (1, 1)}])  # doctest: +SKIP
        >>> hit_results(s, s.units["k"])  # doctest: +SKIP
        {'defeat': Fraction(1, 2), 'dismount': Fraction(1, 2)}
    """
    if target.type == "infantry":
        if target.rank == "champion" and not target.wounded:  # FB-COMBAT-05
            return {"wound": Fraction(1)}
        return {"defeat": Fraction(1)}  # FB-COMBAT-04/06
    if target.rank == "champion":  # FB-CAV-07
        return {"dismount": Fraction(1)}
    if target.rank == "elite":  # FB-CAV-05: d6, 1-3 defeat, 4-6 dismount
        return {"defeat": Fraction(1, 2), "dismount": Fraction(1, 2)}
    return {"defeat": Fraction(1)}  # FB-CAV-04


def _rank_class(unit: Unit) -> str:
    return f"{unit.rank.capitalize()} {unit.cls.replace('_', ' ').title()}"


def _dice_text(unit: Unit, mod: int) -> str:
    n = RANK_DICE[unit.rank]
    keep = " keep highest" if n > 1 else ""
    return f"{unit.id} ({_rank_class(unit)}): {n}d6{keep} {mod:+d}"


def attack_odds(
    state: FBState,
    attacker: Unit,
    target: Unit,
    kind: str,
    *,
    charging: bool = False,
) -> OddsReport:
    """Exact odds of ``attacker`` attacking ``target`` with an attack of ``kind`` in ``state``.

    Legality is the caller's business (:func:`combat.attack_options`). The modifiers are
    :func:`combat.modifiers` for this exact position, with every special ability in effect.
    ``outcomes`` holds ``success``, ``failure``, ``defeat``, ``wound`` and ``dismount``
    (``failure`` and the last three sum to 1); ``alternatives`` the success probability when a
    side with unspent Fate Points spends one (:func:`fate_success`).
    """
    att_mod, def_mod, lines = combat.modifiers(state, attacker, target, kind, charging)
    n = RANK_DICE[attacker.rank]
    m = RANK_DICE[target.rank]
    success = success_probability(n, m, att_mod, def_mod)
    after = hit_results(state, target)
    outcomes = {"success": success, "failure": 1 - success}
    for name in ("defeat", "wound", "dismount"):
        outcomes[name] = success * after.get(name, Fraction(0))
    notes: list[str] = []
    alternatives: dict[str, Fraction] = {}
    fate = {"attacker": attacker.fate_left, "defender": target.fate_left}
    for role, unit in (("attacker", attacker), ("defender", target)):
        if fate[role] > 0:
            alternatives[f"success if {unit.id} spends 1 Fate Point"] = fate_success(
                n, m, att_mod, def_mod, role)
    if alternatives:
        sides = " and ".join(f"{u.id} has {fate[r]}" for r, u in
                             (("attacker", attacker), ("defender", target)) if fate[r] > 0)
        notes.append(
            f"Fate Points are choices and are not in the outcomes ({sides} unspent, FB-FATE-*). "
            "'If it spends 1 Fate Point': that side sees all the dice and, only when the roll "
            "goes against it, rerolls the one die (its own or the opponent's) that gives it the "
            "best chance; the new face stands; the other side spends nothing.")
        if len(alternatives) == 2:
            notes.append("Both sides have Fate Points: the alternating Fate Point window "
                         "(FB-AMB-43) is a game between them and is not enumerated.")
    if (target.rank == "elite" and "dismount" in after and state.options.fate_on_dismount_roll
            and (fate["attacker"] > 0 or fate["defender"] > 0)):
        notes.append("The dismount die may be rerolled with Fate Points too (FB-AMB-32); "
                     "the 1/2 split assumes no one does.")
    if (after.get("dismount") and target.rank == "champion"
            and state.options.champion_dismount_counts_as_wound):
        notes.append("The dismount also Wounds the Champion "
                     "(champion_dismount_counts_as_wound, FB-AMB-33).")
    protectors = [
        c.id for c in state.units.values()
        if c.rank == "champion" and c.side == target.side and c.id != target.id
        and "protect" in c.feats and state.adjacent(c, target)
        and feats.can_use_feat(state, c, "protect")
    ]
    if protectors:
        notes.append(f"Protect: {', '.join(protectors)} may turn a success into a failure "
                     "(FB-FEAT-08); not in the outcomes.")
    declinable = [
        a.name for side_unit, roll in ((attacker, "attack"), (target, "defense"))
        for _, a in combat.abilities_affecting(state, side_unit)
        if (a.attack if roll == "attack" else a.defense) != 0
    ]
    if declinable:
        notes.append("Special abilities are counted as in effect; their owners may decline them "
                     "(FB-ABIL-02, FB-AMB-48).")
    if (attacker.rank == "champion" and outcomes["defeat"] and
            feats.can_use_feat(state, attacker, "frenzy")):
        notes.append("A defeat may be followed by a Frenzy attack (FB-FEAT-06); "
                     "not in the outcomes.")
    details: dict[str, Any] = {
        "attack_dice": n,
        "defense_dice": m,
        "attack_mod": att_mod,
        "defense_mod": def_mod,
        "charging": charging,
        "attacker_at": list(attacker.anchor) if attacker.anchor is not None else None,
        "defender_at": list(target.anchor) if target.anchor is not None else None,
        "distance": state.distance(attacker, target) if attacker.on_map and target.on_map
        else None,
        "defender_wounded": target.wounded,
        "fate_points": fate,
        "after_success": {k: fraction_json(v) for k, v in after.items()},
    }
    return OddsReport(
        attacker=attacker.id, defender=target.id, kind=kind, modifiers=lines,
        outcomes=outcomes, notes=notes,
        dice=f"{_dice_text(attacker, att_mod)} vs {_dice_text(target, def_mod)}",
        alternatives=alternatives, details=details,
    )


# --------------------------------------------------------------------------- legality


def _why_not(state: FBState, attacker: Unit, target: Unit, kind: str) -> str:
    """Why ``attacker`` cannot make a ``kind`` attack on ``target`` where they stand."""
    dist = state.distance(attacker, target)
    same_level = state.level_of(attacker) == state.level_of(target)
    adjacent = state.adjacent(attacker, target)
    where = f"distance {dist}"
    if kind == "melee":
        if attacker.is_archer:
            name = "an archer" if attacker.cls == "archer" else "a mounted archer"
            return (f"{attacker.id} is {name}: it has only a "
                    "ranged attack, at non-adjacent enemies (FB-INF-02, FB-AMB-26)")
        if not adjacent:
            if dist == 1 and not same_level:
                return ("they stand on different levels, so they are not adjacent "
                        "(FB-TERRAIN-07); a melee attack needs an adjacent enemy (FB-INF-01)")
            return f"they are not adjacent ({where}); a melee attack needs an adjacent enemy " \
                   "(FB-INF-01, FB-AMB-26)"
        if attacker.has_facing and not state.in_front_arc(attacker, state.squares_of(target)):
            facing = FACING_NAMES.get(attacker.facing or (0, 0), "?")
            return (f"{target.id} is not in the front arc of Pike {attacker.id} "
                    f"(facing {facing}) (FB-PIKE-02)")
    elif kind == "ranged":
        if not attacker.is_archer:
            return (f"{attacker.id} is a {attacker.cls}: only Archers and Mounted Archers make "
                    "ranged attacks (FB-INF-02, FB-CAV-11)")
        if adjacent:
            return "an Archer cannot attack an adjacent enemy (FB-INF-02)"
        if dist > state.options.max_range:
            return f"{where} is beyond max_range {state.options.max_range} (FB-AMB-30)"
        if state.options.archer_ally_adjacency == "forbid":
            friends = [u.id for u in state.friends(attacker.side)
                       if u.id != attacker.id and state.adjacent(u, target)]
            if friends:
                return (f"{target.id} is adjacent to {', '.join(friends)}, friendly to "
                        f"{attacker.id}: no shooting into a melee (FB-ARCHER-01, FB-AMB-27)")
        if not combat.line_of_fire(state, attacker, target)[0]:
            return "blocking terrain cuts every line of fire (FB-ARCHER-03, FB-AMB-28)"
    elif kind == "throw":
        if attacker.is_archer:
            return "Archers and Mounted Archers gain nothing from Throw (FB-AMB-35)"
        if attacker.rank != "champion" or "throw" not in attacker.feats:
            return f"{attacker.id} has no Throw Feat (FB-FEAT-09)"
        if not feats.can_use_feat(state, attacker, "throw"):
            return f"{attacker.id} has used its Throw Feat (FB-FEAT-09)"
        lo, hi = combat.THROW_RANGE
        if not lo <= dist <= hi:
            return f"{where}; a Throw reaches {lo}-{hi} squares (FB-FEAT-09, FB-AMB-35)"
        if (attacker.has_facing and not state.options.pike_throw_ignores_facing
                and not state.in_front_arc(attacker, state.squares_of(target))):
            return f"{target.id} is not in the front arc of Pike {attacker.id} (FB-AMB-35)"
        if not combat.throw_clear(state, attacker, target):
            return ("every line to the target touches another unit or blocking terrain "
                    "(FB-FEAT-09, FB-AMB-35)")
    return "not a legal attack"


def _natural_kind(attacker: Unit) -> str:
    """The kind of attack the pair would make, legal or not: ranged for Archers, else melee."""
    return "ranged" if attacker.is_archer else "melee"


def _choose_kind(
    state: FBState, attacker: Unit, target: Unit, wanted: str | None, ignore_position: bool
) -> tuple[str, str | None]:
    """The kind of attack, and why it is not legal here (None: it is)."""
    allow_throw = feats.can_use_feat(state, attacker, "throw")
    legal = [o.kind for o in combat.attack_options(state, attacker, allow_throw=allow_throw)
             if o.target == target.id]
    kind = wanted or (legal[0] if legal else _natural_kind(attacker))
    if kind in legal:
        return kind, None
    reason = _why_not(state, attacker, target, kind)
    if not ignore_position:
        raise IllegalAttackError(
            f"{attacker.id} cannot make a {kind} attack on {target.id} where they stand: "
            f"{reason}", reason)
    return kind, reason


# --------------------------------------------------------------------------- situation


def _square(value: Any, key: str) -> Square | None:
    if value is None:
        return None
    parts: Sequence[Any]
    if isinstance(value, str):
        parts = [p for p in value.replace("(", "").replace(")", "").split(",")]
    else:
        parts = list(value)
    try:
        x, y = (int(str(p).strip()) for p in parts)
    except ValueError:
        raise WarhostError(f"expected a square X,Y (two whole numbers), got {value!r}",
                           field=key) from None
    return (x, y)


def _unit(state: FBState, uid: str, role: str, scenario: Scenario) -> Unit:
    unit = state.units.get(uid)
    if unit is not None:
        return unit
    ids = list(state.units)
    close = difflib.get_close_matches(uid, ids, n=1, cutoff=0.5)
    if close:
        hint = f"; did you mean {close[0]!r}?"
    else:
        shown = ", ".join(ids[:12]) + (", ..." if len(ids) > 12 else "")
        hint = f" (units: {shown})"
    raise WarhostError(f"no unit {uid!r} in scenario {scenario.name!r}{hint}", field=role)


def _check_space(state: FBState, unit: Unit, anchor: Square, key: str) -> None:
    """A space ``unit`` may stand on: on the map, free, enterable and not slope."""
    space = footprint(anchor, unit.size)
    grid = state.grid
    for sq in space:
        if not grid.contains(sq):
            raise WarhostError(f"{unit.id} at {anchor[0]},{anchor[1]} would be off the "
                               f"{grid.width}x{grid.height} map", field=key)
        other = state.occupied.get(sq)
        if other is not None and other != unit.id:
            raise WarhostError(f"square {sq[0]},{sq[1]} is taken by {other}", field=key)
        kind = state.terrain(sq)
        if kind.move_cost is None or not kind.can_end:
            raise WarhostError(f"{unit.id} cannot stand on {kind.name} at {sq[0]},{sq[1]}",
                               field=key)
    if len({state.square_level(sq) for sq in space}) > 1:
        raise WarhostError(f"{unit.id} at {anchor[0]},{anchor[1]} would stand on two levels",
                           field=key)


def _set_facing(state: FBState, unit: Unit, name: Any, key: str) -> None:
    if name is None:
        return
    text = str(name).strip().lower()
    if not unit.has_facing:
        raise WarhostError(f"{unit.id} is a {unit.cls}; only Pikes have a facing "
                           "(FB-PIKE-01, FB-CAV-10)", field=key)
    allowed = [n for n, (fx, fy) in FACINGS.items()
               if state.options.pike_facings == 8 or fx == 0 or fy == 0]
    if text not in allowed:
        raise WarhostError(f"unknown facing {name!r} (use {', '.join(allowed)})", field=key)
    state.set_facing(unit, FACINGS[text])


def _apply_situation(
    state: FBState, attacker: Unit, target: Unit, situation: Mapping[str, Any]
) -> None:
    """Move, turn and wound the two units as the situation says."""
    moves = [(unit, _square(situation.get(key), key), key)
             for unit, key in ((attacker, "at_attacker"), (target, "at_defender"))]
    for unit, at, _ in moves:
        if at is not None:
            state.place(unit, None)
    for unit, at, key in moves:
        if at is not None:
            _check_space(state, unit, at, key)
            state.place(unit, at)
    for unit, at, key in moves:
        if not unit.on_map:
            raise WarhostError(
                f"{unit.id} has no square in the scenario (it is deployed during play); "
                f"give its square with {key}", field=key)
    _set_facing(state, attacker, situation.get("facing_attacker"), "facing_attacker")
    _set_facing(state, target, situation.get("facing_defender"), "facing_defender")
    if situation_flag(situation, "wounded"):
        if target.rank != "champion":
            raise WarhostError(f"{target.id} is {target.rank}: only a Champion can be Wounded "
                               "(FB-COMBAT-05)", field="wounded")
        target.wounded = True


def build_state(scenario: Scenario, situation: Mapping[str, Any] | None = None) -> FBState:
    """The deployed state of ``scenario`` (units on their scenario squares), with the option
    overrides of ``situation`` (key ``options``) applied; no battle is run."""
    from warhost.rulesets.fantasy_battle.setup import new_state

    model: FantasyBattleScenario = scenario.model
    model = with_options(model, dict((situation or {}).get("options") or {}), check_scenario)
    return new_state(model)


def exact_odds(
    scenario: Scenario, attacker: str, defender: str, situation: Mapping[str, Any]
) -> OddsReport:
    """The `fantasy-battle` implementation of :meth:`Ruleset.exact_odds`.

    ``situation`` keys: see :data:`SITUATION_KEYS`. Errors are
    :class:`~warhost.core.errors.WarhostError` with ``field`` set to ``attacker``,
    ``defender`` or the situation key; an illegal attack raises :class:`IllegalAttackError`
    unless ``ignore_position`` is set (then the report says why in its notes).

    Example:
        >>> report = exact_odds(scenario, "a-sword", "b-brute",
        ...                     {"at_attacker": (3, 5)})  # doctest: +SKIP
        >>> report.outcomes["success"]  # doctest: +SKIP
        Fraction(125, 216)
    """
    check_situation_keys(situation, list(SITUATION_KEYS))
    state = build_state(scenario, situation)
    att = _unit(state, attacker, "attacker", scenario)
    dfn = _unit(state, defender, "defender", scenario)
    if att.id == dfn.id:
        raise WarhostError(f"{att.id} cannot attack itself", field="defender")
    if att.side == dfn.side:
        raise WarhostError(f"{att.id} and {dfn.id} are both on side {att.side}",
                           field="defender")
    _apply_situation(state, att, dfn, situation)
    wanted = situation.get("kind")
    if wanted is not None and wanted not in ("melee", "ranged", "throw"):
        raise WarhostError(f"unknown kind of attack {wanted!r} (use melee, ranged or throw)",
                           field="kind")
    ignore = situation_flag(situation, "ignore_position")
    kind, problem = _choose_kind(state, att, dfn, wanted, ignore)
    charging = situation_flag(situation, "charge")
    if charging:
        if not att.has_charge:
            raise WarhostError(f"{att.id} is a {att.cls}: only Pikes and Lancers charge "
                               "(FB-PIKE-06, FB-CAV-09)", field="charge")
        if kind != "melee":
            raise WarhostError(f"a charge ends in a melee attack, not a {kind} one "
                               "(FB-PIKE-07)", field="charge")
    report = attack_odds(state, att, dfn, kind, charging=charging)
    if charging:
        report.notes.append("The charge move itself (at least 2 squares in a straight line "
                            "over clear ground, FB-PIKE-07..10) is assumed to have been legal.")
    if problem is not None:
        report.notes.insert(0, f"Not a legal attack where they stand ({problem}); "
                               "reported anyway (ignore_position).")
    if scenario.model.battlefield.kind == "constructed":
        report.notes.append("Constructed battlefield: the terrain pieces are placed during "
                            "setup, so this map has none.")
    report.details["legal"] = problem is None
    report.details["problem"] = problem
    report.details["options"] = {k: option_value(v) for k, v in
                                 dict(situation.get("options") or {}).items()}
    return report

