"""What people see of a `dnd4e-war` state and its events: map data and narrative lines."""

from __future__ import annotations

from typing import Any

from warhost.core.events import Event
from warhost.core.wordings import Wordings
from warhost.geometry.table import offset
from warhost.rulesets.dnd4e_war.state import Ground, Unit, WarState

ARC_LINE = 3.0
"""Length in inches of the front arc lines drawn from a unit's front corners."""


def _pt(p: tuple[float, float]) -> list[float]:
    return [round(p[0], 3), round(p[1], 3)]


def _ring(points: Any) -> list[list[float]]:
    return [_pt(p) for p in points]


def unit_status(state: WarState, unit: Unit) -> str:
    """``destroyed``, ``fleeing``, ``engaged`` or ``active``; a character ``slain`` or
    ``with`` the unit he has joined."""
    if unit.inside is not None:
        return f"with {unit.inside}"
    if unit.character is not None and unit.character.slain:
        return "slain"
    if not unit.alive:
        return "destroyed"
    if unit.fleeing:
        return "fleeing"
    return "engaged" if state.is_engaged(unit.id) else "active"


def arc_lines(unit: Unit, length: float = ARC_LINE) -> list[list[list[float]]]:
    """W4-UNIT-04: the two short 45-degree lines from the front corners that bound the
    unit's front arc (none for skirmishers and lone monsters, who see all round)."""
    if not unit.has_flanks or not unit.alive:
        return []
    frame = unit.frame()
    left, right = frame.corners()[:2]
    return [[_pt(left), _pt(offset(left, unit.facing - 45.0, length))],
            [_pt(right), _pt(offset(right, unit.facing + 45.0, length))]]


def _kind(unit: Unit) -> str:
    p = unit.profile
    if unit.character is not None:
        person = unit.character
        return f"character, {person.character_class or 'level'} {person.level}" + (
            ", general" if person.general else "")
    what = "skirmishers" if unit.skirmish else "companies"
    if unit.alive and not unit.skirmish:
        what = f"{_count(len(unit.companies), 'company', 'companies')} ({unit.files} wide)"
    extra = [w for w, on in (("cavalry", p.cavalry), ("monster", p.monster)) if on]
    return f"{what} of {p.name}" + (f", {', '.join(extra)}" if extra else "")


def _strength(unit: Unit) -> str:
    if unit.character is not None:
        person = unit.character
        return f"{person.hp_left}/{person.hp} hp"
    models = unit.models if unit.alive else 0
    text = f"{models}/{unit.start_models} models"
    if unit.alive and not unit.skirmish:
        text += " [" + " ".join(str(n) for n in unit.companies) + "]"
    if unit.joined:
        text += " with " + ", ".join(unit.joined)
    return text


def unit_view(state: WarState, unit: Unit) -> dict[str, Any]:
    """One unit on the map: its outline, each tray (or skirmisher base), facing and arcs."""
    status = unit_status(state, unit)
    return {
        "id": unit.id, "side": unit.side, "name": unit.name, "kind": _kind(unit),
        "strength": _strength(unit), "status": status,
        "polygon": _ring(unit.frame().corners()),
        # skirmishers and lone monsters see all round: no facing to show (W4-SKIRM-02)
        "facing": round(unit.facing, 3) if unit.has_flanks else None,
        "trays": [_ring(t.corners()) for t in unit.trays()] if unit.alive else [],
        "bases": "round" if unit.skirmish else "square",
        "arcs": arc_lines(unit),
        "engaged_with": sorted(state.engaged.get(unit.id, ())),
    }


def ground_effects(g: Ground) -> list[str]:
    """What a terrain piece does, in the words of the map's key."""
    effects = [f"height {g.height}"] if g.height else []
    effects += [w for w, on in (("impassable", g.region.impassable),
                                ("difficult", g.region.difficult),
                                ("blocks sight", g.blocks_sight),
                                ("barrier", g.barrier)) if on]
    effects += [str(v).replace("_", " ") for v in (g.cover, g.concealment) if v != "none"]
    return effects


def map_view(state: WarState) -> dict[str, Any]:
    """The table in inches: terrain areas with what they do, and every unit's outline,
    trays, facing, front arc and state."""
    from warhost.rulesets.dnd4e_war.game import score

    areas = []
    for g in state.ground:
        effects = ground_effects(g)
        areas.append({"name": g.name, "kind": ", ".join(effects) or "open ground",
                      "effects": effects,
                      "polygon": _ring(list(g.region.polygon.exterior.coords)[:-1])})
    return {
        "geometry": "table", "width": state.board.width, "height": state.board.height,
        "areas": areas,
        # a character inside a unit is drawn as part of it (listed on it), not on his own
        "units": [unit_view(state, u) for u in state.units.values() if u.inside is None],
        "sides": list(state.sides), "round": state.turn,
        "scores": {s: score(state, s) for s in state.sides},
        **({"markers": [machine_view(state, m) for m in state.machines.values()]}
           if state.machines else {}),
    }


NARRATION = Wordings()
_words = NARRATION.of


def describe_event(event: dict[str, Any]) -> str | None:
    """One line of narrative for ``event`` (None for bookkeeping events)."""
    return NARRATION.describe(event)


@_words("character_joins")
def _character_joins(e: Event) -> str:
    return f"{e['name']} is with {e['unit']} (W4-CHAR-03)"


@_words("deploy")
def _deploy(e: Event) -> str:
    at = f"{e['at'][0]:g},{e['at'][1]:g}"
    if e.get("formation") == "skirmish":
        body = f"{e['models']} skirmishers around {at}"
    else:
        wide = f", {e['files']} wide" if e.get("files") and e["companies"] > 1 else ""
        body = (f"{e['models']} models in {_count(e['companies'], 'company', 'companies')}"
                f"{wide}, front at {at} facing {e['facing']:g}°")
    return f"{e['side']} deploys {e['name']} ({e['unit']}): {body}"


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def _tenth(value: float) -> str:
    """A length, angle or coordinate to a tenth, as narration gives it (``4.2``, ``7``)."""
    return f"{round(float(value), 1):g}"


@_words("round_start")
def _round(e: Event) -> str:
    return f"--- Turn {e['round']} ---"


@_words("roll_off")
def _roll_off(e: Event) -> str:
    totals = ", ".join(f"{s} {t}" for s, t in e["totals"].items())
    return f"Roll-off for {e['why']}: {totals}"


@_words("initiative")
def _initiative(e: Event) -> str:
    if e["winner"] == e["side"]:
        return f"{e['side']} takes the initiative"
    return f"{e['winner']} gives the initiative to {e['side']}"


@_words("score")
def _score(e: Event) -> str:
    return f"{e['side']} has taken {e['total']} points of the enemy's army so far"


@_words("casualties")
def _casualties(e: Event) -> str:
    source = f" from {e['source']}" if e.get("source") else ""
    hits = _count(e["hits"], "hit", "hits")
    if not e["slain"]:
        return f"{e['unit']} takes {hits}{source} but loses no models ({e['why']})"
    return (f"{e['unit']} takes {hits}{source} and loses "
            f"{_count(e['slain'], 'model', 'models')} ({e['why']})")


@_words("destroyed")
def _destroyed(e: Event) -> str:
    return f"{e['unit']} is destroyed ({e['why']})"


@_words("fall_back")
def _fall_back(e: Event) -> str:
    moved = f" {e['moved']:g}\"" if "moved" in e else ""
    return f"{e['unit']} falls back{moved} ({e['why']})"


# ---- psychology: courage tests and saving throws
def _courage_line(e: Event, how: str) -> str:
    need = "a natural 20" if e.get("natural_20_only") else f"DC {e['dc']}"
    verdict = "passes" if e["passed"] else "fails"
    return (f"{e['unit']} {how} {e['kind']} test: {e['die']} + {e['bonus']} = {e['total']} "
            f"against {need}, {verdict} ({e['rule']})")


@_words("courage_test")
def _courage_test(e: Event) -> str:
    return _courage_line(e, "takes a")


@_words("courage_reroll")
def _courage_reroll(e: Event) -> str:
    return _courage_line(e, "re-rolls, by the battle standard, its")


@_words("courage_immune")
def _courage_immune(e: Event) -> str:
    reason = str(e["reason"]).replace("_", " ")
    return f"{e['unit']} passes its {e['kind']} test without rolling ({reason}, {e['rule']})"


# ---- shooting and casualties

@_words("shoot")
def _shoot(e: Event) -> str:
    extra = f", cover +{e['cover']}" if e["cover"] else ""
    multi = f", multiattack: {e['multiattack']}" if e["multiattack"] != "none" else ""
    return (f"{e['unit']} shoots {e['power']} at {e['target']}: {e['dice']} dice needing "
            f"{e['needed']}+{extra}{multi}, {_count(e['hits'], 'hit', 'hits')}")


@_words("area_burst")
def _area_burst(e: Event) -> str:
    hit = ", ".join(f"{n} of {uid}" for uid, n in e["covered"].items()) or "nobody"
    return (f"{e['unit']} bursts {e['power']} (size {e['size']}) at "
            f"{e['centre'][0]:g},{e['centre'][1]:g}, covering {hit}")


@_words("hope_is_lost")
def _hope_is_lost(e: Event) -> str:
    return f"Hope is lost! {e['unit']} loses its last {e['removed']} models"


@_words("command_lost")
def _command_lost(e: Event) -> str:
    return f"{e['unit']} loses its {' and '.join(e['models'])}"


@_words("condition")
def _condition(e: Event) -> str:
    return f"{e['unit']} is {e['condition']}" if e["on"] else \
        f"{e['unit']} is no longer {e['condition']}"


@_words("saving_throw")
def _saving_throw(e: Event) -> str:
    verdict = "ends it" if e["saved"] else "fails"
    return (f"{e['unit']} saves against {e['effect']}: {e['roll']}+{e['bonus']}, {verdict}")


@_words("weakened")
def _weakened(e: Event) -> str:
    return f"Ongoing damage weakens {e['models']} of {e['unit']}'s models this turn"


# ---- movement (W4-MOVE, W4-FLEE)

_MOVE_VERBS = {"haul": "hauls its war machine", "walk": "walks", "double": "makes a double move", "run": "runs",
               "wheel": "wheels", "pivot": "pivots", "reform": "reforms"}


@_words("move")
def _move(e: Event) -> str:
    verb = _MOVE_VERBS.get(e["kind"], "moves")
    x, y = e["to"]
    turned = f", turning {abs(e['turned']):.0f} degrees" if e.get("turned") else ""
    files = (f" {_count(e['files'], 'company', 'companies')} wide" if e["kind"] == "reform"
             else "")
    return (f"{e['unit']} {verb}{files} to {_tenth(x)},{_tenth(y)} facing "
            f"{e['facing']:.0f}{turned} ({_tenth(e['cost'])}\" of movement)")


@_words("rallied")
def _rallied(e: Event) -> str:
    return f"{e['unit']} rallies and stops fleeing"


@_words("stand_up")
def _stand_up(e: Event) -> str:
    return f"{e['unit']} gets its fallen warriors back on their feet ({e['action']} action)"


@_words("fled_through")
def _fled_through(e: Event) -> str:
    return f"{e['unit']} flees through {e['target']}"


# ---- combat (charges, close combat, resolution, pursuit)

@_words("charge_declared")
def _charge_declared(e: Event) -> str:
    return f"{e['unit']} declares a charge on {e['target']}"


@_words("charge_roll")
def _charge_roll(e: Event) -> str:
    return (f"{e['unit']} rolls {e['roll']} to charge {e['target']}: "
            f"{_tenth(e['distance'])} inches")


@_words("charge_failed")
def _charge_failed(e: Event) -> str:
    return f"{e['unit']} fails to charge {e['target']}: {e['reason']}"


@_words("charge_move")
def _charge_move(e: Event) -> str:
    return (f"{e['unit']} charges {e['distance']:g} inches into the {e['arc']} of "
            f"{e['target']}, company {e['spearhead']} leading")


@_words("skirmish_contact")
def _skirmish_contact(e: Event) -> str:
    return f"{e['models']} models of {e['unit']} close in on {e['target']}"


@_words("strike")
def _strike(e: Event) -> str:
    who = f"the captain of {e['unit']}" if e["captain"] else e["unit"]
    if e.get("by"):
        who = f"{e['by']} of {e['unit']}"
    how = "charge attacks" if e["charge"] else "attacks"
    extra = f", {e['extra']} extra" if e["extra"] else ""
    target = e["target"]
    if e.get("character"):
        target = f"{e['character']} in {target} (W4-CHAR-16)"
    return (f"{who} makes {e['dice']} {how}{extra} on {target} needing "
            f"{e['needed']}+: {_count(e['hits'], 'hit', 'hits')}, "
            f"{_count(e['points'], 'point', 'points')}")


@_words("support")
def _support(e: Event) -> str:
    return f"{e['unit']} supports with companies {', '.join(map(str, e['companies']))}"


@_words("combat_result")
def _combat_result(e: Event) -> str:
    fight = ", ".join(e["fight"])
    if not e["totals"]:
        return f"Combat of {fight}: {e['winner'] or 'nobody'} is left standing"
    totals = ", ".join(f"{s} {t}" for s, t in e["totals"].items())
    if e["winner"] is None:
        return f"Combat of {fight}: a draw ({totals})"
    return f"Combat of {fight}: {e['winner']} wins by {e['margin']} ({totals})"


@_words("pursuit")
def _pursuit(e: Event) -> str:
    return f"{e['unit']} pursues {e['target']} {e['distance']:g} inches"


@_words("caught")
def _caught(e: Event) -> str:
    return f"{e['unit']} catches {e['target']}"


@_words("re_engage")
def _re_engage(e: Event) -> str:
    return f"{e['unit']} moves {e['distance']:g} inches back into contact with {e['target']}"


@_words("pursuit_blocked")
def _pursuit_blocked(e: Event) -> str:
    return f"{e['unit']} has no room to turn and pursue {e['target']}"


# ---- command: challenges, action points, the general, recharge

@_words("challenge_issued")
def _challenge_issued(e: Event) -> str:
    return f"{e['character']} of {e['side']} issues a challenge"


@_words("challenge_accepted")
def _challenge_accepted(e: Event) -> str:
    return f"{e['character']} accepts the challenge of {e['challenger']}"


@_words("challenge_declined")
def _challenge_declined(e: Event) -> str:
    return (f"The challenge of {e['character']} is declined: {e['sent']} is sent to the rear "
            f"of {e['unit']}")


@_words("challenge_strike")
def _challenge_strike(e: Event) -> str:
    return (f"{e['character']} strikes {e['target']} with {e['power']}, needing "
            f"{e['needed']}+: {_count(e['hits'], 'hit', 'hits')}")


@_words("challenge_damage")
def _challenge_damage(e: Event) -> str:
    excess = f", {e['excess']} more wasted on the fallen" if e["excess"] else ""
    return (f"{e['by']} wounds {e['character']} with {_count(e['hits'], 'hit', 'hits')}"
            f"{excess}; {e['hp_left']} hit points left")


@_words("challenge_slain")
def _challenge_slain(e: Event) -> str:
    return f"{e['character']} is slain in the challenge"


@_words("overkill")
def _overkill(e: Event) -> str:
    parts = ", ".join(f"{side} +{n}" for side, n in e["bonus"].items())
    return f"Overkill: {parts} to combat resolution"


@_words("action_point_dice")
def _action_point_dice(e: Event) -> str:
    return (f"{e['character']} spends {_count(e['spent'], 'action point', 'action points')} "
            f"to turn a {e['before']} into a {e['after']} ({e['why']}); {e['left']} left")


@_words("action_point_spent")
def _action_point_spent(e: Event) -> str:
    return (f"{e['character']} spends an action point on {e['purpose']}; {e['left']} left")


@_words("act_first")
def _act_first(e: Event) -> str:
    return f"{e['unit']} acts first in the {e['phase']} phase ({e['character']})"


@_words("general_nominated")
def _general_nominated(e: Event) -> str:
    return f"{e['character']} is nominated general of {e['side']}"


@_words("power_used")
def _power_used(e: Event) -> str:
    return f"{e['character']} uses the {e['usage']} power {e['power']}"


@_words("recharge")
def _recharge(e: Event) -> str:
    if e["power"] is None:
        return f"{e['character']} tries to recharge a power and rolls {e['roll']}: no luck"
    return f"{e['character']} rolls {e['roll']} and recharges {e['power']}"


# ---- class war rules (W4-CLASS)

@_words("class_reroll")
def _class_reroll(e: Event) -> str:
    return _courage_line(e, f"re-rolls, by {e['character']}'s blessing, its")


@_words("class_beast_form")
def _class_beast_form(e: Event) -> str:
    how = "takes beast form and causes fear" if e["on"] else "leaves beast form"
    return f"{e['character']} {how} ({e['rule']})"


@_words("class_extra_attack")
def _class_extra_attack(e: Event) -> str:
    extra = _count(e["attacks"], "extra attack", "extra attacks")
    return f"{e['character']}'s {e['feature']} gives {extra} on {e['target']} ({e['rule']})"


@_words("class_spirit_strike")
def _class_spirit_strike(e: Event) -> str:
    return (f"{e['character']}'s spirit strikes {e['target']} with {e['power']} needing "
            f"{e['needed']}+: {_count(e['hits'], 'hit', 'hits')} ({e['rule']})")


@_words("class_rampage")
def _class_rampage(e: Event) -> str:
    how = "a devastating rampage" if e["devastating"] else "a rampage"
    return (f"{e['character']} goes on {how} against {e['target']}: "
            f"{_count(e['dice'], 'basic attack', 'basic attacks')} needing {e['needed']}+, "
            f"{_count(e['hits'], 'hit', 'hits')} ({e['rule']})")


# ---- war machines

def machine_view(state: WarState, machine: Any) -> dict[str, Any]:
    """A war machine as a map marker: its footprint, facing and state (W4-WM section)."""
    from warhost.rulesets.dnd4e_war.machines import abandoned, footprint

    status = ("destroyed" if machine.destroyed else "abandoned" if abandoned(state, machine)
              else "disabled" if machine.disabled else "loaded" if machine.loaded
              else "unloaded")
    name = machine.kind.replace("_", " ")
    return {"id": machine.id, "side": machine.side, "kind": machine.kind,
            "label": f"{machine.id} ({name}, {status})",
            "crew": machine.crew, "at": _pt(machine.at), "facing": round(machine.facing, 3),
            "polygon": _ring(footprint(machine).corners()), "status": status,
            "loaded": machine.loaded, "disabled": machine.disabled}


def _machine_name(e: Event) -> str:
    return f"The war machine {e['machine']}" + (
        f" ({e['unit']})" if e["unit"] != e["machine"] else "")


@_words("machine_reload")
def _machine_reload(e: Event) -> str:
    return (f"{e['unit']} reloads the war machine {e['machine']} (a {e['action']} action, "
            "W4-WM-08)")


@_words("machine_moved")
def _machine_moved(e: Event) -> str:
    return (f"The war machine {e['machine']} is hauled to {_tenth(e['to'][0])},"
            f"{_tenth(e['to'][1])}")


@_words("machine_fire")
def _machine_fire(e: Event) -> str:
    if e["kind"] == "bolt_thrower":
        rolls = ", ".join(f"{r['face']} (+{r['bonus']}, needs {r['needed']})"
                          if r["bonus"] >= 0 else f"{r['face']} ({r['bonus']}, needs "
                          f"{r['needed']})" for r in e["rolls"])
        cover = f", cover +{e['cover']}" if e.get("cover") else ""
        return (f"{_machine_name(e)} fires a bolt at {e['target']}: {rolls}{cover}: "
                f"{_count(e['hits'], 'hit', 'hits')}")
    aim = f"{_tenth(e['aim'][0])},{_tenth(e['aim'][1])}"
    if e["landed"] is None:
        return f"{_machine_name(e)} aims a stone at {aim} but rolls a 1: misfire!"
    if e["scatter"] == "hit":
        return f"{_machine_name(e)} hurls a stone at {aim}: it lands right on target"
    return (f"{_machine_name(e)} hurls a stone at {aim}: it scatters {e['d10']}\" towards "
            f"{e['scatter']} degrees and lands at {_tenth(e['landed'][0])},"
            f"{_tenth(e['landed'][1])}")


@_words("machine_misfire")
def _machine_misfire(e: Event) -> str:
    slain = e.get("slain")
    what = {"destroyed": "is destroyed, its crew slain" + (
                f" ({_count(slain, 'crewman', 'crewmen')})" if slain else ""),
            "disabled": "is disabled until repaired, and a crewman is hurt",
            "may not shoot": "does not fire this turn"}.get(e["result"], e["result"])
    return f"Misfire roll {e['roll']}: the war machine {e['machine']} {what} (W4-STONE-09)"


@_words("machine_repair")
def _machine_repair(e: Event) -> str:
    return f"{e['unit']} repairs the war machine {e['machine']} (W4-AMB-66)"


@_words("machine_abandoned")
def _machine_abandoned(e: Event) -> str:
    why = {"fled": "flee and leave it behind", "moved away": "move away from it",
           "abandoned": "abandon it"}.get(e["why"], e["why"])
    return f"The crew of the war machine {e['machine']} ({e['unit']}) {why}"


@_words("machine_taken")
def _machine_taken(e: Event) -> str:
    return f"{e['unit']} takes over the abandoned {e['machine']} (W4-WM-15)"


@_words("machine_line_up")
def _machine_line_up(e: Event) -> str:
    return f"The crew of {e['machine']} line up between it and the charging {e['charger']}"


# ---- characters in play (W4-CHAR)

@_words("character_joined")
def _character_joined(e: Event) -> str:
    return (f"{e['character']} moves {_tenth(e['cost'])} inches and joins {e['unit']} "
            "(W4-CHAR-03/04)")


@_words("character_left")
def _character_left(e: Event) -> str:
    return f"{e['character']} steps out of {e['unit']} (W4-CHAR-07)"


@_words("character_wounded")
def _character_wounded(e: Event) -> str:
    if e["slain"]:
        return f"{e['character']} is slain ({_count(e['hits'], 'hit', 'hits')})"
    return (f"{e['character']} takes {_count(e['used'], 'hit', 'hits')}, "
            f"{e['hp_left']} hit points left")


@_words("character_stranded")
def _character_stranded(e: Event) -> str:
    return f"{e['character']} is left alone where {e['unit']} stood"


@_words("character_shoots")
def _character_shoots(e: Event) -> str:
    return (f"{e['character']} of {e['unit']} shoots {e['target']} with {e['power']}: "
            f"{_count(e['dice'], 'die', 'dice')} needing {e['needed']}, "
            f"{_count(e['hits'], 'hit', 'hits')} (W4-CHAR-14)")


@_words("character_repositioned")
def _character_repositioned(e: Event) -> str:
    return (f"{e['character']} moves to the front of company {e['company']} of {e['unit']} "
            "to reach the enemy (W4-CHAR-19)")


@_words("rider_split")
def _rider_split(e: Event) -> str:
    return (f"{e['unit']}'s attacks on {e['target']}: {e['mount']} at the mount "
            f"({_count(e['mount_hits'], 'hit', 'hits')}), {e['rider']} at the rider "
            f"({_count(e['rider_hits'], 'hit', 'hits')}) (W4-MONSTER-07/08)")


@_words("mount_wounded")
def _mount_wounded(e: Event) -> str:
    if e["slain"]:
        return f"{e['character']}'s mount is slain; he fights on foot"
    return (f"{e['character']}'s mount takes {_count(e['used'], 'hit', 'hits')}, "
            f"{e['hp_left']} hit points left")


@_words("character_lost")
def _character_lost(e: Event) -> str:
    return f"{e['character']} is lost with {e['unit']} ({e['why']})"


@_words("hits_discarded")
def _hits_discarded(e: Event) -> str:
    return (f"{_count(e['hits'], 'hit', 'hits')} of {e['unit']} on {e['target']} find no model "
            "they can strike and are discarded (W4-SHOOT-19)")


# ---- army building and magic items (W4-ITEM)

@_words("magic_item")
def _magic_item(e: Event) -> str:
    what = {"attack": "+2 to its bearer's attack rolls", "defenses": "+2 to its bearer's "
            "defenses"}.get(str(e.get("bonus")), "no bonus in play")
    return f"{e['unit']} carries {e['item']} ({what}, W4-ITEM-03)"


@_words("battle_banner")
def _battle_banner(e: Event) -> str:
    kept = "" if e.get("kept") else "; bought for this battle, it is not kept after it"
    return f"{e['character']} bears {e['name']}, the army's battle standard (W4-ITEM-07{kept})"
