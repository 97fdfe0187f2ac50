"""What `dnd5e-tactics` shows: map data for :mod:`warhost.render.maps` and narrative lines."""

from __future__ import annotations

from typing import Any

from warhost.core.events import Event
from warhost.core.wordings import Wording, Wordings
from warhost.rulesets.dnd5e_tactics.state import ACTIVE, T5State, Unit


def _outline(shape: Any) -> list[list[float]]:
    return [[round(x, 3), round(y, 3)] for x, y in list(shape.exterior.coords)[:-1]]


def map_view(state: T5State) -> dict[str, Any]:
    """The table: terrain areas and every body's footprint, in inches.

    Bodies are listed in turn order (fixed after set-up), so their short labels on the map
    stay the same from round to round; name, kind and strength feed the map's key.
    """
    from warhost.rulesets.dnd5e_tactics.end_of_round import side_scores

    units = []
    for body_id in state.order:
        body = state.bodies[body_id]
        status = body.status
        if isinstance(body, Unit):
            cmd = body.commander
            kind = f"unit of {body.member.name}, {body.stance} stance, {body.track} track"
            strength = f"{body.members}/{body.start_members} members, " + (
                f"commander {cmd.hp} hp" if cmd.alive else "commander slain")
            stance: str | None = body.stance
            if body.fled and status == ACTIVE:
                status = "fled"
        else:
            char = body.character
            kind = f"single character ({char.stats.name})"
            strength = f"{char.hp}/{char.stats.hp} hp"
            stance = None
        units.append({
            "id": body.id, "side": body.side, "name": body.name, "kind": kind,
            "strength": strength, "polygon": _outline(body.footprint), "status": status,
            "stance": stance, "facing": body.facing,
        })
    return {
        "geometry": "table",
        "width": state.board.width,
        "height": state.board.height,
        "areas": [{"name": r.name, "kind": r.kind, "polygon": _outline(r.polygon)}
                  for r in state.regions],
        "units": units,
        "sides": list(state.sides),
        "round": state.round,
        "scores": side_scores(state),
    }


# --------------------------------------------------------------------------- narrative


NARRATION = Wordings()
"""One wording per event type this ruleset words itself (``describe_event`` looks them up);
the narration tests check that every ``emit`` in the package has one."""


_words = NARRATION.of


def describe_event(event: dict[str, Any]) -> str | None:
    """One line of narrative per event (None: the generic text)."""
    return NARRATION.describe(event)


def _at(point: Any) -> str:
    return f"({point[0]:g}, {point[1]:g})" if point else "off the table"


def _d20(faces: list[int], kept: int, total: int) -> str:
    """``d20 14 +2 = 16`` or, with advantage or disadvantage, ``d20 14 and 3, keeps 3 +2 = 5``."""
    if len(faces) < 2:
        return f"d20 {_sum(kept, total)}"
    return f"d20 {faces[0]} and {faces[1]}, keeps {_sum(kept, total)}"


def _of(name: Any) -> str:
    """The possessive: ``orcs'``, ``Sir Aldric's``."""
    text = str(name)
    return text + ("'" if text.endswith("s") else "'s")


def _inches(value: float) -> str:
    return f"{round(float(value), 1):g} in"


def _sum(roll: int, total: int) -> str:
    """``13 +2 = 15`` (just ``13`` with no modifier)."""
    mod = total - roll
    return f"{roll} {mod:+d} = {total}" if mod else f"{roll}"


_ROLLS: dict[str, Wording] = {
    "divisor": lambda e: f"for the divisor of {e.get('attack', 'its attack')}",
    "attack": lambda e: f"to hit with {e.get('attack', 'an attack')}",
    "damage": lambda e: f"for the damage of {e.get('attack', 'an attack')}",
    "area save": lambda e: f"for its members' saves against {e.get('area', 'an area')}",
    "save": lambda e: f"to save against {e.get('area', 'an area')}",
    "encourage": lambda e: f"to encourage ({e.get('skill', 'a skill')})",
    "morale": lambda e: "for morale",
    "rally": lambda e: "for the commander's rally (Charisma save)",
    "death save": lambda e: "for the commander's death save",
    "remainder": lambda e: "for remainder damage to its commander",
    "heal": lambda e: f"for {e.get('heal', 'healing')}",
}


@_words("roll")
def _roll(e: Event) -> str:
    who = next((str(e[k]) for k in ("unit", "owner", "attacker", "healer") if e.get(k)), "")
    if e.get("why") in ("area save", "save") and e.get("target"):
        who = str(e["target"])
    why = str(e.get("why") or "")
    purpose = _ROLLS[why](e) if why in _ROLLS else (f"({why})" if why else "")
    faces = " ".join(str(f) for f in e["faces"])
    total = f" = {e['total']}" if "total" in e and len(e["faces"]) != 1 else ""
    head = f"{who} rolls" if who else "Roll of"
    return f"{head} {e['expr']} {purpose}: {faces}{total}".replace("  ", " ")


@_words("round_start")
def _round_start(e: Event) -> str:
    return f"=== Round {e['round']} ==="


@_words("round_end")
def _round_end(e: Event) -> str:
    return f"--- end of round {e['round']}"


@_words("initiative")
def _initiative(e: Event) -> str:
    return "Turn order: " + ", ".join(f"{b['id']} ({b['initiative']:+d})" for b in e["order"])


@_words("deploy")
def _deploy(e: Event) -> str:
    where = f"{e['id']} ({e['side']}) deploys at {_at(e['at'])}, facing {e['facing']:g}°"
    if e.get("kind") == "unit":
        return (f"{where}: {e['members']} members in {e['stance']} stance on the "
                f"{e['track']} track")
    return f"{where}: a single character"


@_words("stance")
def _stance(e: Event) -> str:
    return f"  {e['unit']} changes from {e['before']} to {e['after']} stance"


@_words("tactics")
def _tactics(e: Event) -> str:
    if e.get("choice") == "switch":
        return f"  {e['unit']} switches from the {e['before']} to the {e['track']} track"
    return f"  {e['unit']} advances on the {e['track']} track"


@_words("rank")
def _rank(e: Event) -> str:
    return f"  {e['unit']} rank {e['before']:+d} -> {e['after']:+d} ({e['why']})"


@_words("turn")
def _turn(e: Event) -> str:
    return f"- {e['body']} ({e['side']}) takes its turn"


_MOUNTS = {"dash": "Dash", "disengage": "Disengage", "dodge": "Dodge"}


@_words("mount")
def _mount(e: Event) -> str:
    return f"  {_of(e['body'])} mounts take the {_MOUNTS.get(e['action'], e['action'])} action"


_MOVES = {"move": "moves", "dash": "dashes", "charge": "charges", "disengage": "disengages"}


@_words("move")
def _move(e: Event) -> str:
    verb = _MOVES.get(str(e.get("kind")), str(e.get("kind") or "moves"))
    return (f"  {e['body']} {verb} {_at(e['from'])} -> {_at(e['to'])} "
            f"({_inches(e['cost'])}, facing {e['facing']:g}°)")


@_words("engage")
def _engage(e: Event) -> str:
    return f"  {e['body']} engages {e['enemy']}"


@_words("cover")
def _cover(e: Event) -> str:
    who = {"unit": "as the unit's bonus action", "commander": "by its commander's order"}.get(
        str(e.get("by")), "")
    return f"  {e['body']} takes three-quarters cover in the ruins {who}".rstrip()


@_words("dodge")
def _dodge(e: Event) -> str:
    return f"  {e['body']} takes the Dodge action"


_ATTACK_WHY = {"charge": " (charge)", "mount": " (its mounts)", "flee": " (at a fleeing unit)",
               "opportunity": " (opportunity attack)"}


@_words("unit_attack")
def _unit_attack(e: Event) -> str:
    notes = []
    if e.get("edge"):
        notes.append("advantage" if e["edge"] > 0 else "disadvantage")
    if e.get("cover"):
        notes.append("target in cover")
    extra = f", {', '.join(notes)}" if notes else ""
    return (f"  {e['attacker']} attacks {e['target']} with {e['attack']}"
            f"{_ATTACK_WHY.get(str(e.get('why')), '')}: each needs {e['needed']} on the d20"
            f"{extra}; d6 {e['d6']} -> {e['eligible']} attackers / {e['divisor']} = "
            f"{e['hits']} hits x {e['per_hit']} = {e['damage']} damage")


@_words("commander_attack")
def _commander_attack(e: Event) -> str:
    if e["hit"]:
        verdict = ("critical hit" if e.get("critical") else "hits") + f" for {e['damage']} damage"
    else:
        verdict = "misses"
    how = " (opportunity attack)" if e.get("opportunity") else ""
    how += " (duel)" if e.get("duel") else ""
    return (f"  {e['character']} ({e['owner']}) attacks {e['target']} with {e['attack']}{how}: "
            f"{_d20(e['faces'], e['roll'], e['total'])} vs AC {e['ac']}, "
            f"{verdict}")


@_words("character_damage")
def _character_damage(e: Event) -> str:
    line = f"  {e['character']} ({e['owner']}) takes {e['amount']} damage"
    if "failures" in e:
        return f"{line} while dying: {e['failures']} failed death saves"
    return f"{line}: {e['hp']} hp left"


@_words("commander_dying")
def _commander_dying(e: Event) -> str:
    return f"  {e['character']}, commander of {e['unit']}, drops to 0 hp and is dying"


@_words("death_save")
def _death_save(e: Event) -> str:
    return (f"  {e['character']} ({e['unit']}) death save: d20 {e['roll']}, {e['result']} "
            f"({e['successes']} successes, {e['failures']} failures)")


@_words("commander_slain")
def _commander_slain(e: Event) -> str:
    by = f" by {e['by']} in a duel" if e.get("by") else ""
    return f"  {e['name']}, commander of {e['unit']}, is slain{by}"


@_words("single_slain")
def _single_slain(e: Event) -> str:
    by = f" by {e['by']}" if e.get("by") else ""
    return f"  {e['name']} ({e['single']}) is slain{by}" + (" in a duel" if e.get("duel") else "")


@_words("destroyed")
def _destroyed(e: Event) -> str:
    return f"  {e['unit']} is destroyed: no members and no commander left"


@_words("area")
def _area(e: Event) -> str:
    who = f"{_of(e['user'])} commander" if e.get("by_commander") else str(e["user"])
    head = f"  {who} uses {e['area']} on {e['target']}"
    if not e["covered"]:
        return f"{head}: nobody is caught"
    if e.get("d6") is not None:
        dice = f"save needs {e['needed']}, d6 {e['d6']} -> divisor {e['divisor']}"
    elif e.get("roll") is not None:
        dice = f"save needs {e['needed']}, d20 {e['roll']}"
    else:
        dice = f"save needs {e['needed']}, no die needed"
    return (f"{head}: {e['covered']} caught, {dice}: {e['successes']} save, "
            f"{e['failures']} fail, {e['damage']} damage")


@_words("heal")
def _heal(e: Event) -> str:
    head = f"  {e['healer']} uses {e['heal']} on {e['target']}"
    if "tdr" in e:
        return (f"{head}: rolled {e['rolled']}, {e['amount']} damage taken back "
                f"({e['tdr']} damage still pooled)")
    whom = "its commander" if e.get("commander") else "it"
    return f"{head}: rolled {e['rolled']}, {whom} regains {e['amount']} hp ({e['hp']} hp)"


@_words("duel_called")
def _duel_called(e: Event) -> str:
    return (f"  {e['challenger']} ({e['caller']}) calls out {e['challenged']} ({e['target']}) "
            "to a duel")


@_words("duel_declined")
def _duel_declined(e: Event) -> str:
    return f"  {e['target']} declines the duel with {e['caller']}"


@_words("duel_start")
def _duel_start(e: Event) -> str:
    return f"  The duel begins: {e['a']} against {e['b']}"


_DUEL_ENDS = {"slain": "a duellist is slain", "destroyed": "a unit is destroyed",
              "flee": "a unit flees", "rout": "a unit routs",
              "separated": "the duellists are separated"}


@_words("duel_end")
def _duel_end(e: Event) -> str:
    other = f" and {e['opponent']}" if e.get("opponent") else ""
    why = _DUEL_ENDS.get(str(e.get("why")), str(e.get("why")))
    return f"  The duel of {e['body']}{other} ends: {why}"


@_words("encourage")
def _encourage(e: Event) -> str:
    verdict = "succeeds" if e["success"] else "fails"
    how = "as a bonus action" if e.get("action") == "bonus" else "as an action"
    return (f"  {_of(e['unit'])} commander encourages {how} ({e['skill']}): d20 "
            f"{_sum(e['roll'], e['total'])} vs DC {e['dc']}, {verdict}")


@_words("casualties")
def _casualties(e: Event) -> str:
    why = " from the fleeing attacks" if e.get("why") == "flee_attack" else ""
    return (f"  {e['unit']} takes {e['tdr']} damage{why}: {e['killed']} killed, "
            f"{e['members']} left, remainder {e['remainder']}")


@_words("remainder")
def _remainder(e: Event) -> str:
    choice = e["choice"]
    head = f"  {_of(e['unit'])} remainder of {e['remainder']} damage"
    if choice == "casualty":
        return f"{head}: {e['side']} chooses one more casualty ({e['members']} left)"
    if choice == "commander":
        return f"{head}: {e['side']} chooses 4d6 on its commander, {e['damage']} damage"
    return f"{head} has no effect (no member left, commander dueling or dead)"


_MORALE = {"pass": "holds", "rank": "wavers (-1 rank)", "flee": "flees", "rout": "routs"}


@_words("morale")
def _morale(e: Event) -> str:
    result = _MORALE.get(str(e["result"]), str(e["result"]))
    if e.get("commander_only") or e.get("roll") is None:
        return f"  {e['unit']} has only its commander left: no morale check, it {result}"
    mods = " ".join(f"{v:+d} {k}" for k, v in (e.get("modifiers") or {}).items() if v)
    return (f"  {e['unit']} morale: d20 {e['roll']}{' ' + mods if mods else ''} = {e['total']} "
            f"vs DC {e['dc']}: {result}")


@_words("rally")
def _rally(e: Event) -> str:
    outcome = _MORALE.get(str(e["outcome"]), str(e["outcome"]))
    if not e.get("attempted"):
        return f"  {_of(e['unit'])} commander does not try to rally: the unit {outcome}"
    verdict = "succeeds" if e["success"] else "fails"
    return (f"  {_of(e['unit'])} commander rallies (Charisma save): d20 "
            f"{_sum(e['roll'], e['total'])} vs DC {e['dc']}, {verdict}; the unit {outcome}")


@_words("flee")
def _flee(e: Event) -> str:
    if e.get("away_from"):
        how = f"away from {e['away_from']}"
    else:
        how = f"towards the {e['edge']} edge" if e.get("edge") else "away"
    off = " and leaves the table" if e.get("off_board") else ""
    return f"  {e['unit']} flees {how}: {_at(e['from'])} -> {_at(e['to'])}{off}"


@_words("follow_through")
def _follow_through(e: Event) -> str:
    if not e.get("moved"):
        return f"  {e['unit']} stays where it is (no follow-through)"
    return f"  {e['unit']} follows through {_at(e['from'])} -> {_at(e['to'])}"


_ROUT_WHY = {"commander only": "only its commander is left", "morale": "failed morale",
             "fled off the board": "it fled off the table",
             "no members left": "no members are left"}


@_words("rout")
def _rout(e: Event) -> str:
    why = _ROUT_WHY.get(str(e.get("why")), str(e.get("why")))
    return f"  {e['unit']} routs and leaves the battle ({why}; {e['members']} members)"


@_words("score")
def _score(e: Event) -> str:
    return f"  {_of(e['side'])} score is now {e['total']}"
