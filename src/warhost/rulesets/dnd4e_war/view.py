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
    """``destroyed``, ``fleeing``, ``engaged`` or ``active``."""
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
    what = "skirmishers" if unit.skirmish else "companies"
    if unit.alive and not unit.skirmish:
        what = f"{_count(len(unit.companies), 'company', 'companies')} ({unit.files} wide)"
    extra = [w for w, on in (("cavalry", p.cavalry), ("monster", p.monster)) if on]
    return f"{what} of {p.name}" + (f", {', '.join(extra)}" if extra else "")


def _strength(unit: Unit) -> str:
    models = unit.models if unit.alive else 0
    text = f"{models}/{unit.start_models} models"
    if unit.alive and not unit.skirmish:
        text += " [" + " ".join(str(n) for n in unit.companies) + "]"
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
        "areas": areas, "units": [unit_view(state, u) for u in state.units.values()],
        "sides": list(state.sides), "round": state.turn,
        "scores": {s: score(state, s) for s in state.sides},
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

_MOVE_VERBS = {"walk": "walks", "double": "makes a double move", "run": "runs",
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
    how = "charge attacks" if e["charge"] else "attacks"
    extra = f", {e['extra']} extra" if e["extra"] else ""
    return (f"{who} makes {e['dice']} {how}{extra} on {e['target']} needing "
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
