"""What people see of a `dnd4e-war` state and its events: map data and narrative lines."""

from __future__ import annotations

from typing import Any

from warhost.core.events import Event
from warhost.core.wordings import Wordings
from warhost.rulesets.dnd4e_war.state import Unit, WarState


def _outline(unit: Unit) -> list[list[float]]:
    return [[round(x, 3), round(y, 3)] for x, y in unit.frame().corners()]


def map_view(state: WarState) -> dict[str, Any]:
    """The table in inches: terrain areas and every unit's outline, facing and state."""
    units = []
    for u in state.units.values():
        status = ("destroyed" if not u.alive else "fleeing" if u.fleeing else
                  "engaged" if state.is_engaged(u.id) else "active")
        units.append({
            "id": u.id, "side": u.side, "name": u.name,
            "kind": ("skirmishers" if u.skirmish else "companies") + f" of {u.profile.name}",
            "strength": f"{u.models}/{u.start_models} models",
            "polygon": _outline(u), "status": status, "facing": u.facing,
            "trays": [[[round(x, 3), round(y, 3)] for x, y in t.corners()] for t in u.trays()]
            if u.alive else [],
        })
    return {
        "geometry": "table", "width": state.board.width, "height": state.board.height,
        "areas": [{"name": g.name, "kind": g.region.kind,
                   "polygon": [[round(x, 3), round(y, 3)]
                               for x, y in g.region.polygon.exterior.coords]}
                  for g in state.ground],
        "units": units, "sides": list(state.sides), "round": state.turn,
    }


NARRATION = Wordings()
_words = NARRATION.of


def describe_event(event: dict[str, Any]) -> str | None:
    """One line of narrative for ``event`` (None for bookkeeping events)."""
    return NARRATION.describe(event)


@_words("deploy")
def _deploy(e: Event) -> str:
    return (f"{e['side']} deploys {e['name']} ({e['models']} models in {e['companies']} "
            f"companies) at {e['at'][0]:g},{e['at'][1]:g} facing {e['facing']:g}")


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
    return f"{e['side']} has taken {e['total']} points"


@_words("casualties")
def _casualties(e: Event) -> str:
    return f"{e['unit']} takes {e['hits']} hits and loses {e['slain']} models ({e['why']})"


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
            f"{e['needed']}+{extra}{multi}, {e['hits']} hits")


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
    turned = f", turning {abs(e['turned']):g} degrees" if e.get("turned") else ""
    files = f" {e['files']} companies wide" if e["kind"] == "reform" else ""
    return (f"{e['unit']} {verb}{files} to {x:g},{y:g} facing {e['facing']:g}{turned} "
            f"({e['cost']:g}\" of movement)")


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
            f"{e['distance']:g} inches")


@_words("charge_failed")
def _charge_failed(e: Event) -> str:
    return f"{e['unit']} fails to charge {e['target']} ({e['reason']})"


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
            f"{e['needed']}: {e['hits']} hits, {e['points']} points")


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
