"""What people see of a `dnd35-wars` state and its events: map data and narrative lines."""

from __future__ import annotations

from typing import Any

from warhost.core.events import Event
from warhost.core.wordings import Wordings
from warhost.geometry.grid import Square
from warhost.rulesets.dnd35_wars.state import FIGHTING, Single, Unit, WarState

_STATUS = {FIGHTING: "active"}
"""The renderer's word for a status (others keep their own: routed, fled, scattered ...)."""


def map_view(state: WarState) -> dict[str, Any]:
    """Plain data for the map renderer (see :mod:`warhost.render.maps`): each unit as the
    shape of its counters (one square each) with its embedded singular creatures named in the
    key, each independent monster, NPC or PC as a figure on its square, the terrain kinds,
    water, elevation and structures, and the scale."""
    units = [_unit_entry(state, u) for u in state.units.values()]
    units += [_single_entry(s) for s in state.singles.values() if s.host is None]
    return {"width": state.width, "height": state.height, "cells": _cells(state),
            "units": units, "sides": list(state.sides), "round": state.round,
            "scale": f"1 square = {state.scale} ft"}


def _cells(state: WarState) -> list[dict[str, Any]]:
    """Every square that is not plain level dry clear ground."""
    squares = (set(state.terrain) | state.water | set(state.elevation)
               | set(state.structure_at))
    return [_cell(state, sq) for sq in sorted(squares)]


def _cell(state: WarState, sq: Square) -> dict[str, Any]:
    """One square: a structure's type wins over the ground's kind; clear ground under water
    is ``water``, raised clear ground ``high_ground``; other water is flagged."""
    kind = state.terrain.get(sq, "clear")
    level = state.elevation.get(sq, 0)
    wet = sq in state.water
    if sq in state.structure_at:
        name = f"{state.structures[state.structure_at[sq]].type}_structure"
    elif kind == "clear" and wet:
        name, wet = "water", False
    elif kind == "clear" and level:
        name = "high_ground"
    else:
        name = kind
    cell: dict[str, Any] = {"x": sq[0], "y": sq[1], "terrain": name, "level": level}
    if wet:
        cell["water"] = True
    return cell


def _label_square(squares: set[Square]) -> Square:
    """The counter nearest the middle of the shape (ties: the lowest, then westmost)."""
    n = len(squares)
    sx, sy = sum(x for x, _ in squares), sum(y for _, y in squares)
    return min(squares, key=lambda s: ((n * s[0] - sx) ** 2 + (n * s[1] - sy) ** 2,
                                       s[1], s[0]))


def _unit_entry(state: WarState, u: Unit) -> dict[str, Any]:
    """A unit: its counters' squares, its strength and state; embedded creatures by name."""
    status = _STATUS.get(u.status, u.status)
    if u.status == FIGHTING and not u.squares and u.enters_round is not None:
        status = f"arrives in round {u.enters_round}"
    entry: dict[str, Any] = {
        "id": u.id, "side": u.side, "name": _with_singles(state, u), "kind": _unit_kind(u),
        "strength": f"{u.hp}/{u.start_hp} HP, {u.counters} counters" if u.on_map
        else f"0/{u.start_hp} HP",
        "x": None, "y": None, "w": 1, "h": 1, "status": status, "facing": None,
    }
    if u.on_map:
        x, y = _label_square(u.squares)
        entry.update(x=x, y=y, squares=[list(sq) for sq in sorted(u.squares)],
                     health=round(u.hp / u.start_hp, 3))
        if u.status == FIGHTING:
            entry["facing"] = list(u.heading)
        machine = state.machines.get(u.id)
        if machine is not None:  # its figure on the counter carrying it (W35-SWU-02)
            x, y = machine.square if machine.square in u.squares else (x, y)
            entry["machine"] = {"kind": machine.kind, "name": machine.name, "x": x, "y": y,
                                "hp": machine.hp, "max_hp": machine.max_hp}
    return entry


def _unit_kind(u: Unit) -> str:
    """``unit of 100 human fighter, 10 a counter`` with its mount, mob or flying flags."""
    per = u.per_counter
    each = str(per.numerator) if per.denominator == 1 else f"{float(per):.3g}"
    flags = [w for w, on in (("mob", u.mob), ("mounted", u.mounted), ("chariots", u.chariot),
                             ("flying", u.flying)) if on]
    flags += _machine_flags(u)
    extra = f" ({', '.join(flags)})" if flags else ""
    return f"unit of {u.creatures} {u.creature.name}{extra}, {each} a counter"


def _with_singles(state: WarState, u: Unit) -> str:
    """The unit's name, then the singular creatures embedded in it."""
    inside = []
    for sid in u.singles:
        s = state.singles[sid]
        if s.host == u.id and s.alive:
            role = " leader" if sid == u.leader else ""
            inside.append(f"{s.id} ({s.kind.upper()}{role}, {s.hp} HP)")
    return f"{u.name} with {', '.join(inside)}" if inside else u.name


def _single_entry(s: Single) -> dict[str, Any]:
    """A monster, NPC or PC standing alone: a figure on its square (in the key only once it
    has fallen or left)."""
    kind = "monster" if s.kind == "monster" else s.kind.upper()
    placed = s.alive and s.square is not None
    return {"id": s.id, "side": s.side, "name": s.creature.name, "kind": kind,
            "strength": f"{max(0, s.hp)}/{s.creature.hp} HP",
            "x": s.square[0] if placed and s.square else None,
            "y": s.square[1] if placed and s.square else None, "w": 1, "h": 1,
            "figure": True, "status": _STATUS.get(s.status, s.status)}


NARRATION = Wordings()
"""One wording per event type this ruleset emits."""

_words = NARRATION.of


def describe_event(event: dict[str, Any]) -> str | None:
    """One line of narrative for the events this ruleset emits (None: the generic text)."""
    return NARRATION.describe(event)


@_words("initiative")
def _initiative(e: Event) -> str:
    return f"{e['who']} rolls {e['total']} for initiative"


@_words("turn")
def _turn(e: Event) -> str:
    return f"{e['unit']} takes its turn"


@_words("hold")
def _hold(e: Event) -> str:
    return f"{e['unit']} holds its ground"


@_words("stuck")
def _stuck(e: Event) -> str:
    return f"{e['unit']} is still stuck inside {e['inside']}"


@_words("move")
def _move(e: Event) -> str:
    dx, dy = e["by"]
    return f"{e['unit']} moves {dx:+d},{dy:+d}"


@_words("fled")
def _fled(e: Event) -> str:
    return f"{e['unit']} flees the battlefield"


@_words("attack")
def _attack(e: Event) -> str:
    who = e.get("unit") or e.get("who")
    result = "hits" if e["hit"] else "misses"
    if e.get("crit"):
        result = "scores a critical hit"
    elif e.get("threat"):
        result = "hits (critical not confirmed)"
    many = f" with {e['attackers']} attackers" if e.get("attackers") else ""
    if e.get("multiplier"):
        many = f" (x{e['multiplier']})"
    flank = ", flanking" if e.get("flanking") else ""
    return (f"{who} attacks {e['target']}{many}{flank}: {e['roll']} -> {e['total']} "
            f"vs AC {e['ac']}, {result}")


@_words("unit_damage")
def _unit_damage(e: Event) -> str:
    return (f"{e['unit']} loses {e['hp']} HP to {e['source']} ({e['left']} left, "
            f"{e['counters']} counters)")


@_words("single_damage")
def _single_damage(e: Event) -> str:
    return f"{e['who']} takes {e['hp']} damage from {e['source']} ({e['left']} HP left)"


@_words("vanquished")
def _vanquished(e: Event) -> str:
    freed = e.get("freed") or []
    left = f"; {', '.join(freed)} now fight alone" if freed else ""
    return f"{e['unit']} is vanquished{left}"


@_words("slain")
def _slain(e: Event) -> str:
    return f"{e['who']} falls"


@_words("counters_removed")
def _counters_removed(e: Event) -> str:
    squares = " ".join(f"({x},{y})" for x, y in e["squares"])
    return f"{e['unit']} loses the counters at {squares} ({e['left']} left)"


_UNHARMED = {"sheltered": "it shelters inside its fortification",
             "mundane": "mundane weapons cannot hurt it",
             "dr": "its damage reduction stops the blow",
             "spread": "the blow is spread too thin over a counter"}


@_words("unharmed")
def _unharmed(e: Event) -> str:
    who = e.get("unit") or e.get("who")
    why = _UNHARMED.get(e["reason"], e["reason"])
    return f"{who} takes no damage from {e['source']}: {why}"


@_words("structure_damage")
def _structure_damage(e: Event) -> str:
    return f"{e['structure']} takes {e['hp']} damage from {e['source']} ({e['left']} HP left)"


@_words("breached")
def _breached(e: Event) -> str:
    return f"{e['structure']} is breached"


@_words("collateral")
def _collateral(e: Event) -> str:
    if e["kind"] == "melee":
        return f"{e['who']} fights on the front line of {e['unit']} and is attacked by {e['source']}"
    save = "saves (Reflex)" if e["save"] else "fails its Reflex save"
    return f"stray missiles from {e['source']} fly at {e['who']} inside {e['unit']}: it {save}"


@_words("battle_over")
def _battle_over(e: Event) -> str:
    who = e["winner"] or "nobody"
    return f"The battle ends in round {e['round']}: {who} wins ({e['reason']})"


@_words("round_start")
def _round_start(e: Event) -> str:
    seconds = e.get("seconds", 0)
    return f"Round {e['round']} begins ({seconds // 60}:{seconds % 60:02d} into the battle)"


@_words("score")
def _score(e: Event) -> str:
    return f"{e['side']} has beaten {e['total']}% of the enemy's starting unit hit points"


# ---- combat: charges, volleys, cleaves and defence actions (W35-UATK, W35-DEFEND)


@_words("charge")
def _charge(e: Event) -> str:
    hill = " up the hill, losing the charge bonus" if e["uphill"] else ""
    return f"{e['unit']} charges {e['target']} ({e['dx']},{e['dy']}){hill}"


@_words("volley")
def _volley(e: Event) -> str:
    return f"{e['unit']} fires: {e['plan']}"


@_words("cleave")
def _cleave(e: Event) -> str:
    return f"{e['unit']} cleaves on into {e['target']} (extra attack {e['count']})"


@_words("set")
def _set(e: Event) -> str:
    return f"{e['unit']} sets against a charge"


@_words("phalanx")
def _phalanx(e: Event) -> str:
    return f"{e['unit']} forms a phalanx"


@_words("set_vs_charge")
def _set_vs_charge(e: Event) -> str:
    result = "repels the charge" if e["repelled"] else "fails to stop the charge"
    return (f"{e['unit']} meets the charge of {e['target']}: Reflex {e['total']} against "
            f"{e['charger_total']}, {result}")




# ---- morale (W35-MORALE, W35-MOB-09..11, W35-ABIL-09/10)

_TRIGGER_WORDS = {
    "first_damage": "its first losses", "flanked": "being flanked",
    "siege_or_area": "siege or area damage", "half_hp": "falling to half strength",
    "quarter_hp": "falling to a quarter of its strength",
    "melee_one_sided": "a one-sided melee", "three_times": "a far mightier foe",
    "friend_fleeing": "a friendly unit fleeing nearby", "ferocious": "a ferocious attacker",
    "leader_lost": "the loss of its leader", "friend_wiped": "a friendly unit wiped out nearby",
    "rally": "a rally", "mob_charge": "a charge", "mob_damage": "taking damage",
    "siege_weapon_lost": "the loss of its siege weapon", "tower_lost": "the loss of its tower",
}

_PC_DEEDS = {
    "slew_leader": "slaying an enemy leader", "slew_officer": "slaying an enemy officer",
    "destroyed_machine": "destroying a war machine", "fled_or_down": "fleeing or going down",
    "slew_tenth": "cutting down a tenth of an enemy unit",
}


def _trigger(why: str) -> str:
    return _TRIGGER_WORDS.get(why, why.replace("_", " "))


@_words("morale_check")
def _morale_check(e: Event) -> str:
    result = "holds" if e["passed"] else "fails"
    dice = f"{e['roll']} -> {e['total']} vs DC {e['dc']}"
    if e["why"] == "rally":
        return f"{e['unit']} tries to rally: {dice}, {'rallies' if e['passed'] else 'fails'}"
    if e["why"] == "mob_charge":
        return f"{e['unit']} works itself up to charge: {dice}, {result}"
    return f"{e['unit']} checks morale after {_trigger(e['why'])}: {dice}, {result}"


@_words("rout")
def _rout(e: Event) -> str:
    return f"{e['unit']} routs ({_trigger(e['why'])})"


@_words("rally")
def _rally(e: Event) -> str:
    return f"{e['unit']} rallies and fights on"


@_words("scatter")
def _scatter(e: Event) -> str:
    left = e.get("left") or []
    verb = "stays" if len(left) == 1 else "stay"
    behind = f"; {', '.join(left)} {verb} behind" if left else ""
    return f"{e['unit']} scatters and is gone for good{behind}"


@_words("regenerate")
def _regenerate(e: Event) -> str:
    who = e.get("unit") or e.get("who")
    return f"{who} regenerates {e['hp']} HP ({e['left']} HP now)"


@_words("mob_balks")
def _mob_balks(e: Event) -> str:
    return f"{e['unit']} balks and makes no attack this round"


@_words("stays_behind")
def _stays_behind(e: Event) -> str:
    x, y = e["at"]
    return f"{e['who']} does not flee with {e['unit']} and stands at {x},{y}"


@_words("pc_morale")
def _pc_morale(e: Event) -> str:
    deed = _PC_DEEDS.get(e["what"], e["what"].replace("_", " "))
    return f"{e['unit']} gets {e['value']:+d} morale from {e['who']} {deed}"


    return f"{e['side']} keeps {e['total']}% of its starting unit hit points"


# ---- setup, reinforcements and recovery


@_words("warning")
def _warning(e: Event) -> str:
    return f"Warning ({e['rule']}): {e['message']}"


@_words("placement")
def _placement(e: Event) -> str:
    if e.get("aggressor") is not None:
        return f"{e['aggressor']} attacks: {e['first']} places its units first"
    rolls = ", ".join(f"{side} {roll}" for side, roll in e["rolls"].items())
    return f"Placement roll-off ({rolls}): {e['winner']} wins; {e['first']} places first"


@_words("monster_placed")
def _monster_placed(e: Event) -> str:
    x, y = e["at"]
    where = f"moves to {x},{y}" if e["moved"] else f"stays on {x},{y}"
    return f"{e['who']} keeps its distance from {e['army']} and {where}"


@_words("reinforcement")
def _reinforcement(e: Event) -> str:
    return f"{e['unit']} arrives from the {e['edge']} edge with {e['counters']} counters"


@_words("reinforcement_delayed")
def _reinforcement_delayed(e: Event) -> str:
    return f"{e['unit']} finds no room on the {e['edge']} edge and waits"


@_words("recovery")
def _recovery(e: Event) -> str:
    return (f"{e['unit']} recovers {e['recovered']} of {e['lost']} lost HP ({e['percent']}%): "
            f"{e['hp']} HP, {e['counters']} counters")


# ---- singular creatures and in-unit actions (W35-MON, W35-NPC, W35-PC, W35-INUNIT)

def _square(sq: list[int]) -> str:
    return f"{sq[0]},{sq[1]}"


@_words("single_hold")
def _single_hold(e: Event) -> str:
    return f"{e['who']} waits"


@_words("single_move")
def _single_move(e: Event) -> str:
    return f"{e['who']} moves to {_square(e['to'])}"


@_words("fight_through")
def _fight_through(e: Event) -> str:
    if e["advanced"]:
        return f"{e['who']} hacks its way into {e['unit']} at {_square(e['to'])}"
    return f"{e['who']} fails to break into {e['unit']}"


@_words("single_enter")
def _single_enter(e: Event) -> str:
    return f"{e['who']} joins the ranks of {e['unit']}"


@_words("single_leave")
def _single_leave(e: Event) -> str:
    return f"{e['who']} leaves {e['unit']} for {_square(e['to'])}"


@_words("single_charge")
def _single_charge(e: Event) -> str:
    return f"{e['who']} charges {e['target']} from {_square(e['to'])}"


@_words("total_defense")
def _total_defense(e: Event) -> str:
    return f"{e['who']} fights wholly on the defensive"


@_words("squad_follows")
def _squad_follows(e: Event) -> str:
    return f"{e['who']} spent the round moving with the squad"


_DEEDS = {"slew_leader": "slays an enemy leader", "slew_officer": "slays an enemy officer",
          "destroyed_machine": "destroys an enemy war machine",
          "fled_or_down": "goes down", "slew_tenth": "cuts down a tenth of a unit at a stroke"}


@_words("pc_deed")
def _pc_deed(e: Event) -> str:
    return f"{e['who']} {_DEEDS.get(e['what'], e['what'])}, and the ranks take note"


@_words("pc_xp")
def _pc_xp(e: Event) -> str:
    return f"{e['who']} defeats {e['count']} x {e['creature']}"


@_words("in_unit_combat")
def _in_unit_combat(e: Event) -> str:
    return f"Fighting inside {e['unit']} against {', '.join(e['foes'])}"


@_words("in_unit_order")
def _in_unit_order(e: Event) -> str:
    return f"Inside {e['unit']} they act in this order: {', '.join(e['order'])}"


@_words("stays_with_unit")
def _stays_with_unit(e: Event) -> str:
    return f"{e['who']} keeps pace with {e['unit']}"


@_words("left_behind")
def _left_behind(e: Event) -> str:
    return f"{e['who']} is left behind as {e['unit']} moves on"


@_words("front_line")
def _front_line(e: Event) -> str:
    where = "to the front line" if e["front"] else "to the back"
    return f"{e['who']} moves {where} of {e['unit']}"


# ---- movement and formation (movement.py, formation.py)


@_words("move_banked")
def _move_banked(e: Event) -> str:
    dx, dy = e["toward"]
    return f"{e['unit']} banks {e['points']} movement points toward the square at {dx:+d},{dy:+d}"


@_words("disengage")
def _disengage(e: Event) -> str:
    return f"{e['unit']} disengages from {', '.join(e['foes'])}"


@_words("regroup")
def _regroup(e: Event) -> str:
    return (f"{e['unit']} regroups with {e['partner']}: {e['hp']} HP in {e['counters']} "
            f"counters")


@_words("split")
def _split(e: Event) -> str:
    return f"{e['unit']} splits up: {e['counters']} counters leave as {e['new']}"


@_words("joins")
def _joins(e: Event) -> str:
    return f"{e['who']} goes with {e['unit']}"


@_words("pass_stuck")
def _pass_stuck(e: Event) -> str:
    return f"{e['unit']} is caught inside {e['inside']} and must pass on out"


@_words("formation")
def _formation(e: Event) -> str:
    return f"{e['unit']} rearranges its {e['counters']} counters"


@_words("phalanx_dropped")
def _phalanx_dropped(e: Event) -> str:
    return f"{e['unit']} breaks its phalanx"


@_words("volley_lands")
def _volley_lands(e: Event) -> str:
    return f"{e['unit']}'s volley falls on {len(e['squares'])} counters of {e['target']}"


# ---- conditions (conditions.py: lasting spell effects on units)


_STAT_WORDS = {"ac": "AC", "saves": "saving throws", "attack": "attack rolls",
               "damage": "damage rolls"}


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else str(value)


@_words("modifier")
def _modifier(e: Event) -> str:
    stat = _STAT_WORDS.get(e["stat"], e["stat"])
    if e["amount"] == 0:
        return f"{e['source']} leaves {e['unit']}'s {stat} unchanged"
    lasting = f"for {e['rounds']} rounds" if e["rounds"] else "for the rest of the battle"
    return f"{e['unit']} gets {_signed(e['amount'])} to {stat} from {e['source']} {lasting}"


@_words("modifier_ends")
def _modifier_ends(e: Event) -> str:
    return f"{e['source']} no longer changes {e['unit']}'s {_STAT_WORDS.get(e['stat'], e['stat'])}"


@_words("hindered")
def _hindered(e: Event) -> str:
    how = "held in place" if e["speed"] == "zero" else "slowed to half speed"
    lasting = f"for {e['rounds']} rounds" if e["rounds"] else "for the rest of the battle"
    return f"{e['counters']} counters of {e['unit']} are {how} by {e['source']} {lasting}"


@_words("hindered_ends")
def _hindered_ends(e: Event) -> str:
    return f"{e['unit']}'s hindered counters move freely again"


@_words("carried")
def _carried(e: Event) -> str:
    return f"{e['unit']} carries its {e['counters']} hindered counters behind the line"


@_words("disabled")
def _disabled(e: Event) -> str:
    lasting = f"for {e['rounds']} rounds" if e["rounds"] else "for the rest of the battle"
    return (f"{e['source']} takes {e['counters']} counters of {e['unit']} out of the fight "
            f"{lasting} ({e['hp']} HP, {e['left']} left)")


@_words("disabled_return")
def _disabled_return(e: Event) -> str:
    parts = []
    if e["rejoined"]:
        parts.append(f"{e['rejoined']} rejoin {e['unit']}")
    if e["new"]:
        parts.append(f"the rest form {e['new']}")
    if not parts:
        parts.append("none can rejoin" if e["counters"] else "none find room")
    return f"{e['source']} ends: {e['counters']} counters come back; {', '.join(parts)}"


@_words("frightened")
def _frightened(e: Event) -> str:
    if e["immune"]:
        return f"{e['unit']} knows no fear: {e['source']} has no effect"
    reach = "the whole unit" if e["whole"] else "part of the unit"
    return f"{e['unit']} is gripped by {e['source']} ({reach})"


@_words("turned")
def _turned(e: Event) -> str:
    if e["whole"]:
        return f"{e['who']} turns {e['unit']} ({e['hd']} HD): the whole unit flees"
    if e["counters"]:
        return f"{e['who']} turns {e['counters']} counters of {e['unit']} ({e['hd']} HD)"
    return f"{e['who']}'s turning ({e['hd']} HD) is too weak to move a counter of {e['unit']}"


@_words("rout_ends")
def _rout_ends(e: Event) -> str:
    return f"{e['unit']} stops fleeing and returns to the fight"


# ---- magic


def _target_of(e: Event) -> str:
    return str(e.get("unit") or e.get("who"))


@_words("cast")
def _cast(e: Event) -> str:
    rounds = f" (a {e['rounds']}-round casting)" if e.get("rounds", 1) > 1 else ""
    return f"{e['who']} casts {e['spell']} at {e['target']}{rounds}"


@_words("casting")
def _casting(e: Event) -> str:
    return f"{e['who']} goes on casting {e['spell']} ({e['left']} more round(s))"


@_words("spell_lost")
def _spell_lost(e: Event) -> str:
    return f"{e['who']}'s {e['spell']} is lost: {e['reason']}"


@_words("area")
def _area(e: Event) -> str:
    whole = ", the whole unit" if e.get("whole") else ""
    return f"{e['spell']} from {e['who']} covers {e['counters']} counters of {e['unit']}{whole}"


@_words("save")
def _save(e: Event) -> str:
    if "failing" in e:
        return (f"{e['unit']} against {e['spell']} (DC {e['dc']} {e['save']}): "
                f"{e['failing']} of {e['counters']} counters fail")
    result = "saves" if e["saved"] else "fails its save"
    return f"{_target_of(e)} {result} against {e['spell']} (DC {e['dc']} {e['save']})"


@_words("spell_damage")
def _spell_damage(e: Event) -> str:
    if e.get("counters") is not None:
        return (f"{e['spell']} deals {e['per']} a creature to {e['counters']} counters of "
                f"{e['unit']}: {e['total']} damage")
    return f"{e['spell']} deals {e['total']} to {_target_of(e)} (rolled {e['per']})"


@_words("healed")
def _healed(e: Event) -> str:
    back = f", {e['counters']} counters" if e.get("unit") else ""
    return f"{_target_of(e)} is healed {e['hp']} HP by {e['source']} ({e['left']} HP{back})"


_NO_EFFECT = {"immune": "it is not affected", "saved": "it saved",
              "too few counters": "too few counters are affected",
              "too few Hit Dice": "too few Hit Dice to affect a counter",
              "too strong": "it is too strong", "unhurt": "it has lost no HP"}


@_words("no_effect")
def _no_effect(e: Event) -> str:
    why = _NO_EFFECT.get(e["reason"], e["reason"])
    return f"{e['spell']} has no effect on {_target_of(e)}: {why}"


@_words("hit_dice")
def _hit_dice(e: Event) -> str:
    return f"{e['spell']} reaches {e['hd']} Hit Dice: {e['counters']} counters of {e['unit']}"


@_words("spell_on")
def _spell_on(e: Event) -> str:
    return f"{e['who']} is under {e['spell']} ({e['effect']}) until round {e['until']}"


@_words("spell_bound")
def _spell_bound(e: Event) -> str:
    return f"{e['who']} cannot act this round ({e['why']})"


@_words("turning")
def _turning(e: Event) -> str:
    return (f"{e['who']} turns undead at {e['target']}: check {e['check']} turns up to "
            f"{e['max_hd']} HD, {e['hd']} HD in all")


# ---- siege


def _machine_name(name: str) -> str:
    return name.replace("_", " ")


@_words("siege_load")
def _siege_load(e: Event) -> str:
    if e["loaded"]:
        return f"{e['unit']} loads its {_machine_name(e['weapon'])}: ready to fire"
    return (f"{e['unit']} works at loading its {_machine_name(e['weapon'])} "
            f"({e['done']} of {e['needed']} rounds)")


@_words("siege_fire")
def _siege_fire(e: Event) -> str:
    result = "critical hit" if e["crit"] else ("hit" if e["hit"] else "miss")
    return (f"{e['unit']} fires its {_machine_name(e['weapon'])} at {e['target']} "
            f"({e['feet']} ft): d20 {e['roll']} → {e['total']} vs AC {e['ac']}, {result}")


@_words("siege_defend")
def _siege_defend(e: Event) -> str:
    return f"{e['unit']}'s spare counters take total defense (+{e['ac']} AC)"


@_words("machine_attack")
def _machine_attack(e: Event) -> str:
    who = e.get("unit") or e.get("who")
    result = "critical hit" if e["crit"] else ("hit" if e["hit"] else "miss")
    many = f" with {e['attackers']} attackers" if e.get("attackers", 1) != 1 else ""
    return (f"{who} attacks the {_machine_name(e['machine'])} of {e['target']}{many}: "
            f"d20 {e['roll']} → {e['total']} vs AC {e['ac']}, {result}")


@_words("machine_damage")
def _machine_damage(e: Event) -> str:
    return (f"the {_machine_name(e['machine'])} of {e['unit']} takes {e['hp']} damage from "
            f"{e['source']} ({e['left']} HP left)")


@_words("machine_unharmed")
def _machine_unharmed(e: Event) -> str:
    return (f"the {_machine_name(e['machine'])} of {e['unit']} shrugs off {e['source']}'s "
            f"blow ({e['reason']})")


@_words("machine_destroyed")
def _machine_destroyed(e: Event) -> str:
    return (f"the {_machine_name(e['machine'])} of {e['unit']} is destroyed; "
            f"{e['unit']} fights on as a plain unit if its nerve holds")


# ---- ucast


@_words("ucast")
def _ucast(e: Event) -> str:
    idle = f" ({e['idle']} cannot)" if e.get("idle") else ""
    aimed = ", ".join(e["targets"])
    counters = "1 counter" if e["counters"] == 1 else f"{e['counters']} counters"
    return f"{e['unit']} casts {e['spell']} from {counters}{idle} at {aimed}"


@_words("ucast_healing")
def _ucast_healing(e: Event) -> str:
    return (f"{e['unit']}'s {e['spell']} heals {e['average']} HP a casting counter "
            f"x {e['counters']} = {e['hp']} HP")


@_words("ucast_area")
def _ucast_area(e: Event) -> str:
    return (f"{e['unit']}'s {e['spell']} covers {e['counters']} counters of {e['target']} "
            f"(DC {e['dc']})")


@_words("ucast_lands")
def _ucast_lands(e: Event) -> str:
    return (f"{e['unit']}'s {e['spell']}: {e['counters']} of {e['aimed']} casting counters "
            f"reach {e['target']}")


@_words("ucast_begins")
def _ucast_begins(e: Event) -> str:
    return f"{e['unit']} begins casting {e['spell']}: it takes effect in round {e['round']}"


@_words("ucast_continues")
def _ucast_continues(e: Event) -> str:
    return f"{e['unit']} keeps casting {e['spell']} (until round {e['round']})"


@_words("ucast_lost")
def _ucast_lost(e: Event) -> str:
    return f"{e['unit']}'s {e['spell']} is lost: {e['reason']}"


# ---- tower


def _machine_flags(u: Unit) -> list[str]:
    """A siege tower's stack and drawbridge, or a battering ram, for the map key."""
    if u.machine == "tower":
        bridge = "drawbridge down" if u.bridge_round >= 0 else "drawbridge up"
        return [f"siege tower, {u.counters} counters stacked", bridge]
    if u.machine == "ram":
        return ["battering ram"]
    return []


@_words("slit_volley")
def _slit_volley(e: Event) -> str:
    shots = ", ".join(f"{n} at {t}" for t, _, n in (p.partition(":")
                                                       for p in str(e["plan"]).split(",")))
    return f"{e['unit']}'s archers shoot through the tower's slits: {shots}"


@_words("bridge_lowered")
def _bridge_lowered(e: Event) -> str:
    return f"{e['unit']} drops its tower's drawbridge onto the wall"


@_words("crossed")
def _crossed(e: Event) -> str:
    via = "across its drawbridge" if e["unit"] == e["tower"] else f"up through {e['tower']}"
    return (f"a counter of {e['unit']} goes {via} onto the wall at {e['at'][0]},{e['at'][1]} "
            f"as {e['onto']} ({e['left']} counters left behind)")


@_words("ram_strike")
def _ram_strike(e: Event) -> str:
    return (f"{e['unit']}'s {e['swingers']} swing the ram into {e['structure']} for "
            f"{e['damage']} damage")


@_words("ram_formed")
def _ram_formed(e: Event) -> str:
    return (f"{e['creatures']} creatures leave {e['donor']} (costing it {e['donor_hp']} HP) to "
            f"carry a battering ram as {e['unit']}")


# ---- integrate: spells at a war machine


@_words("spell_at_machine")
def _spell_at_machine(e: Event) -> str:
    return f"{e['who']}'s {e['spell']} strikes the machine of {e['unit']} (rolled {e['per']})"
