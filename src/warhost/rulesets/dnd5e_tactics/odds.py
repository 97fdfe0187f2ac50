"""Exact odds of one unit's Attack action, by enumerating the d6 of every resolution.

A unit attack has one die per resolution: the d6 that picks the divisor column
(T5-ATTACK-06..08, T5-AMB-22). With ``k`` resolutions there are ``6**k`` equally likely
results, so the distribution of hits and of damage is exact (:func:`combat.convolve`).

Outcomes (:class:`~warhost.core.odds.OddsReport` conventions): ``success`` = at least one
hit, ``failure`` = no hit, and ``hits N`` for each possible total N >= 1 (exclusive, they sum
to ``success``). ``details`` holds the damage distribution, expectations, the needed roll of
each resolution, and for a unit target the casualties this damage alone would cause at the
End of Round (damage // member HP, remainder rule left out); for a Single Character the
chance that it is slain.

:func:`attack_odds` works on any state (the AI may call it); :func:`exact_odds` is the
ruleset hook :meth:`warhost.core.ruleset.Ruleset.exact_odds`.

Example:
    >>> from fractions import Fraction
    >>> from warhost.rulesets.dnd5e_tactics.combat import convolve
    >>> dist = convolve([[(4, 0), (5, 0), (7, 0), (7, 0), (10, 0), (10, 0)]])
    >>> dist[(7, 0)]
    Fraction(1, 3)
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from warhost.core.commanders import FirstOptionCommander
from warhost.core.engine import Battle
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
from warhost.geometry.table import EDGES, edge_bearing
from warhost.rulesets.dnd5e_tactics import combat
from warhost.rulesets.dnd5e_tactics.context import Ctx
from warhost.rulesets.dnd5e_tactics.model import Dnd5eTacticsScenario
from warhost.rulesets.dnd5e_tactics.state import Body, Single, T5State, Unit
from warhost.rulesets.dnd5e_tactics.tables import (
    DIVISOR_ROWS,
    RANKS,
    STANCE_ATTACKERS,
    TRACKS,
    clamp_attack_roll,
)
from warhost.rulesets.dnd5e_tactics.validate import check_scenario

__all__ = ["SITUATION_KEYS", "attack_odds", "build_state", "exact_odds"]

SITUATION_KEYS: dict[str, str] = {
    "kind": "melee or ranged (default: the legal one where they stand, melee first)",
    "charge": "true: the Attack action of a Charge (T5-MOVE-03, option charge_multiattack)",
    "at_attacker": "footprint centre 'x,y' in inches to put the attacker at",
    "at_defender": "footprint centre 'x,y' in inches to put the defender at",
    "facing_attacker": "bearing in degrees (0 north, 90 east) or north/east/south/west",
    "facing_defender": "bearing of the defender",
    "ignore_position": "true: report even when the attack is not legal where they stand",
    "options": "scenario option overrides {name: value}",
    "attackers": "eligible attackers, overriding stance cap and members (T5-ATTACK-01..02)",
    "needed": "the needed d20 roll of every resolution, overriding the modifiers",
    "advantage": "true: one more source of advantage (+5; T5-AMB-21)",
    "disadvantage": "true: one more source of disadvantage (-5; T5-AMB-21)",
    "cover": "none, half or three_quarters: the defender's cover, replacing the terrain's",
    "stance": "close or open: the attacker's stance",
    "defender_stance": "close or open: the defender's stance",
    "track": "the attacker's Tactics Track", "rank": "the attacker's rank (-3..3)",
    "defender_track": "the defender's Tactics Track", "defender_rank": "the defender's rank",
    "members": "members left in the attacking unit",
    "defender_members": "members left in the defending unit",
    "mounts": "false: leave independent mounts' attacks out (default: in)",
}
"""Situation keys :func:`exact_odds` understands, with what each means."""

COVER_WORDS = {"none": combat.NO_COVER, "half": combat.HALF,
               "three_quarters": combat.THREE_QUARTERS, "three-quarters": combat.THREE_QUARTERS}


# --------------------------------------------------------------------------- the enumeration


def attack_odds(
    state: T5State,
    attacker: Unit,
    target: Body,
    kind: str,
    *,
    charge: bool = False,
    eligible: int | None = None,
    needed: int | None = None,
    advantage: bool = False,
    disadvantage: bool = False,
    cover: int | None = None,
    mounts: bool = True,
) -> OddsReport:
    """Exact odds of ``attacker``'s ``kind`` Attack action on ``target`` in ``state``.

    Legality is the caller's business (:func:`combat.why_not_unit`). Every resolution of the
    routine on ``target`` is enumerated (mounts too, unless ``mounts`` is off); the overrides
    are those of :data:`SITUATION_KEYS`.
    """
    resolutions = [(body, attack, by_mount) for body, attack, by_mount in
                   combat.action_resolutions(state, attacker, target, kind, charge=charge)
                   if body is target and (mounts or not by_mount)]
    lines: list[str] = []
    per: list[dict[str, Any]] = []
    count = attacker.attacker_cap if eligible is None else eligible
    for _, attack, by_mount in resolutions:
        terms = combat.unit_attack_terms(state, attacker, attack, target,
                                         extra_advantage=advantage,
                                         extra_disadvantage=disadvantage,
                                         cover_override=cover)
        raw = terms.needed if needed is None else needed
        rows = combat.face_table(state, attacker, target, attack, eligible=count, needed=raw)
        per.append({
            "attack": attack.name, "mount": by_mount, "needed": raw,
            "row": clamp_attack_roll(raw), "per_hit": combat.per_hit_damage(attacker, attack),
            "divisors": [d for d, _, _ in rows], "hits": [h for _, h, _ in rows],
            "damage": [dmg for _, _, dmg in rows],
        })
        label = f"{attack.name}{' (mount)' if by_mount else ''}"
        found = list(terms.lines) if needed is None else []
        found.append(f"needed roll {raw}{' (given)' if needed is not None else ''}: "
                     f"divisor row {row_label(raw)}")
        lines += [f"{label}: {line}" for line in found if f"{label}: {line}" not in lines]
    dist = combat.action_distribution(
        state, attacker, target, kind, charge=charge, eligible=count, needed=needed,
        mounts=mounts, extra_advantage=advantage, extra_disadvantage=disadvantage,
        cover_override=cover)
    hits: dict[int, Fraction] = {}
    damage: dict[int, Fraction] = {}
    for (h, d), p in dist.items():
        hits[h] = hits.get(h, Fraction(0)) + p
        damage[d] = damage.get(d, Fraction(0)) + p
    none = hits.get(0, Fraction(0))
    outcomes: dict[str, Fraction] = {"success": 1 - none, "failure": none}
    for h in sorted(hits):
        if h > 0:
            outcomes[f"hits {h}"] = hits[h]
    expected_hits = sum((h * p for h, p in hits.items()), Fraction(0))
    expected_damage = sum((d * p for d, p in damage.items()), Fraction(0))
    details: dict[str, Any] = {
        "eligible": count,
        "resolutions": per,
        "damage": {str(d): fraction_json(p) for d, p in sorted(damage.items())},
        "expected_hits": _number(expected_hits),
        "expected_damage": _number(expected_damage),
        "attacker_at": list(attacker.centre),
        "defender_at": list(target.centre),
        "gap_ft": round(state.gap(attacker, target) * 10, 3),
    }
    notes = [("Damage pools in the target's Total Damage Received and becomes casualties at "
              "the End of Round (T5-DAMAGE-08); the commander's attacks are not included.")]
    if isinstance(target, Unit):
        casualties: dict[int, Fraction] = {}
        for d, p in damage.items():
            c = min(target.members, d // target.member_hp)
            casualties[c] = casualties.get(c, Fraction(0)) + p
        details["casualties"] = {str(c): fraction_json(p) for c, p in sorted(casualties.items())}
        details["expected_casualties"] = _number(
            sum((c * p for c, p in casualties.items()), Fraction(0)))
        notes.append("Casualties: this damage alone divided by member HP, rounded down; the "
                     "remainder rule (T5-CASUALTY-04..06) is left out.")
    else:
        hp = target.character.hp
        slain = sum((p for d, p in damage.items() if d >= hp), Fraction(0))
        details["slain"] = fraction_json(slain)
        notes.append(f"Single Character damage is reduced by half its AC "
                     f"({state.options.single_character_reduction}, T5-SINGLE-05, T5-AMB-30).")
    faces = len(per)
    dice = (f"1d6 per resolution ({faces} resolution{'s' if faces != 1 else ''}, "
            f"{6 ** faces} equally likely results), {count} eligible attackers")
    return OddsReport(attacker=attacker.id, defender=target.id, kind=kind, modifiers=lines,
                      outcomes=outcomes, notes=notes, dice=dice, details=details)


def row_label(needed: int) -> str:
    """The divisor-table row a raw needed roll reads, e.g. '13-14' (T5-AMB-20)."""
    row = clamp_attack_roll(needed)
    for low, high, _ in DIVISOR_ROWS:
        if low <= row <= high:
            return f"{low}-{high}" if low != high else str(low)
    raise AssertionError("unreachable")


def _number(value: Fraction) -> dict[str, Any]:
    """An expectation as JSON: exact fraction text and a float."""
    text = str(value.numerator) if value.denominator == 1 else \
        f"{value.numerator}/{value.denominator}"
    return {"fraction": text, "value": float(value)}


# --------------------------------------------------------------------------- the situation


def _int(situation: Mapping[str, Any], key: str) -> int | None:
    value = situation.get(key)
    if value is None:
        return None
    try:
        return int(str(value).strip())
    except ValueError:
        raise WarhostError(f"expected a whole number, got {value!r}", field=key) from None


def _choice(situation: Mapping[str, Any], key: str, allowed: tuple[str, ...]) -> str | None:
    value = situation.get(key)
    if value is None:
        return None
    text = str(value).strip().lower()
    if text not in allowed:
        raise WarhostError(f"{key} must be one of {', '.join(allowed)}, not {value!r}",
                           field=key)
    return text


def _point(value: Any, key: str) -> tuple[float, float] | None:
    if value is None:
        return None
    parts = value.replace("(", "").replace(")", "").split(",") if isinstance(value, str) \
        else list(value)
    try:
        x, y = (float(str(p).strip()) for p in parts)
    except ValueError:
        raise WarhostError(f"expected a point X,Y in inches, got {value!r}",
                           field=key) from None
    return (x, y)


def _bearing(value: Any, key: str) -> float | None:
    if value is None:
        return None
    text = str(value).strip().lower()
    if text in EDGES:
        return edge_bearing(text)
    try:
        return float(text) % 360.0
    except ValueError:
        raise WarhostError(f"expected a bearing in degrees or north/east/south/west, got "
                           f"{value!r}", field=key) from None


def build_state(scenario: Scenario, situation: Mapping[str, Any] | None = None) -> Ctx:
    """The deployed state of ``scenario`` (with the option overrides of ``situation``), in a
    context whose commanders take every default; no round is played."""
    from warhost.rulesets.dnd5e_tactics.setup import new_state

    model: Dnd5eTacticsScenario = scenario.model
    model = with_options(model, dict((situation or {}).get("options") or {}), check_scenario)
    battle = Battle(scenario.ruleset, scenario, 0,
                    {side.name: FirstOptionCommander() for side in model.sides}, record=False)
    state = new_state(model, battle)
    return Ctx(state, battle)


def _body(state: T5State, body_id: str, role: str, scenario: Scenario) -> Body:
    body = state.bodies.get(body_id)
    if body is not None:
        return body
    ids = list(state.bodies)
    close = difflib.get_close_matches(body_id, ids, n=1, cutoff=0.5)
    hint = f"; did you mean {close[0]!r}?" if close else f" (bodies: {', '.join(ids[:12])})"
    raise WarhostError(f"no unit or Single Character {body_id!r} in scenario "
                       f"{scenario.name!r}{hint}", field=role)


def _apply_situation(state: T5State, attacker: Unit, target: Body,
                     situation: Mapping[str, Any]) -> None:
    """Place, turn and change the two bodies as the situation says."""
    for body, at_key, face_key in ((attacker, "at_attacker", "facing_attacker"),
                                   (target, "at_defender", "facing_defender")):
        at = _point(situation.get(at_key), at_key)
        if at is not None:
            body.centre = at
        facing = _bearing(situation.get(face_key), face_key)
        if facing is not None:
            body.facing = facing
        if not state.board.contains(body.footprint):
            raise WarhostError(f"{body.id} at {body.centre[0]:g},{body.centre[1]:g} would "
                               f"stand off the {state.board.width:g}x{state.board.height:g} "
                               "board", field=at_key)
    roles: list[tuple[Body, str]] = [(attacker, ""), (target, "defender_")]
    for body, prefix in roles:
        stance = _choice(situation, f"{prefix}stance", tuple(STANCE_ATTACKERS))
        track = _choice(situation, f"{prefix}track", TRACKS)
        rank = _int(situation, f"{prefix}rank")
        members = _int(situation, f"{prefix}members")
        if not isinstance(body, Unit):
            given = [k for k, v in (("stance", stance), ("track", track), ("rank", rank),
                                    ("members", members)) if v is not None]
            if given:
                raise WarhostError(f"{body.id} is a Single Character: it has no {given[0]}",
                                   field=f"{prefix}{given[0]}")
            continue
        if stance is not None:
            body.stance = stance
        if track is not None:
            body.track = track
        if rank is not None:
            if rank not in RANKS and state.options.rank_clamp:
                raise WarhostError(f"rank {rank} is outside -3..3", field=f"{prefix}rank")
            body.rank = rank
        if members is not None:
            if members < 0:
                raise WarhostError("members must be 0 or more", field=f"{prefix}members")
            body.members = members
            body.start_members = max(body.start_members, members)


def _natural_kind(state: T5State, attacker: Unit, target: Body, charge: bool) -> str:
    for kind in ("melee", "ranged"):
        if combat.why_not_unit(state, attacker, target, kind, charge=charge) is None:
            return kind
    return "melee" if charge or state.engaged(attacker, target) or \
        not combat.unit_routine(attacker, "ranged") else "ranged"


def exact_odds(
    scenario: Scenario, attacker: str, defender: str, situation: Mapping[str, Any]
) -> OddsReport:
    """The `dnd5e-tactics` implementation of :meth:`Ruleset.exact_odds`.

    ``situation`` keys: :data:`SITUATION_KEYS`. The attacker must be a unit; the defender a
    unit or a Single Character. Errors are :class:`~warhost.core.errors.WarhostError` with
    ``field`` set; an illegal attack raises :class:`IllegalAttackError` unless
    ``ignore_position`` is set (the notes then say why).

    Example:
        >>> report = exact_odds(scenario, "thugs", "guards", {"needed": 13})  # doctest: +SKIP
        >>> report.outcomes["hits 7"]  # doctest: +SKIP
        Fraction(1, 3)
    """
    check_situation_keys(situation, list(SITUATION_KEYS), " for dnd5e-tactics")
    ctx = build_state(scenario, situation)
    state = ctx.state
    att = _body(state, attacker, "attacker", scenario)
    dfn = _body(state, defender, "defender", scenario)
    if not isinstance(att, Unit):
        raise WarhostError(f"{att.id} is a Single Character; exact odds cover unit attacks",
                           field="attacker")
    if att.side == dfn.side:
        raise WarhostError(f"{att.id} and {dfn.id} are both on side {att.side}",
                           field="defender")
    _apply_situation(state, att, dfn, situation)
    charge = situation_flag(situation, "charge")
    kind = _choice(situation, "kind", ("melee", "ranged")) or \
        _natural_kind(state, att, dfn, charge)
    if charge and kind != "melee":
        raise WarhostError("a Charge ends in a melee Attack action", field="charge")
    if not combat.unit_routine(att, kind):
        raise WarhostError(f"{att.id} has no {kind} attack", field="kind")
    refusal = combat.why_not_unit(state, att, dfn, kind, charge=charge)
    problem = None if refusal is None else str(refusal)
    if problem is not None and not situation_flag(situation, "ignore_position"):
        raise IllegalAttackError(
            f"{att.id} cannot make a {kind} attack on {dfn.id} where they stand: {problem}",
            problem)
    cover_word = _choice(situation, "cover", tuple(COVER_WORDS))
    eligible = _int(situation, "attackers")
    if eligible is not None and eligible < 0:
        raise WarhostError("attackers must be 0 or more", field="attackers")
    report = attack_odds(
        state, att, dfn, kind, charge=charge, eligible=eligible,
        needed=_int(situation, "needed"), advantage=situation_flag(situation, "advantage"),
        disadvantage=situation_flag(situation, "disadvantage"),
        cover=COVER_WORDS[cover_word] if cover_word is not None else None,
        mounts=situation_flag(situation, "mounts", True))
    if problem is not None:
        report.notes.insert(0, f"Not a legal attack where they stand ({problem}); "
                               "reported anyway (ignore_position).")
    if isinstance(dfn, Single) and kind == "ranged":
        report.notes.append("A unit's shot at a Single Character has disadvantage and the "
                            "target counts as in half cover (T5-SINGLE-02..03).")
    report.details["legal"] = problem is None
    report.details["problem"] = problem
    report.details["charge"] = charge
    report.details["options"] = {k: option_value(v) for k, v in
                                 dict(situation.get("options") or {}).items()}
    return report
