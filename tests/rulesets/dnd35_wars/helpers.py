"""Small builders for dnd35-wars tests: a creature, a unit entry, a state with every unit on
the squares its entry gives, and a battle runtime with scripted dice and orders."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tests.battle_watch import events, record  # noqa: F401 - the tests import them from here
from tests.orders_by_kind import OrdersByKind
from warhost.core.commanders import FirstOptionCommander
from warhost.core.dice import ScriptedDice, SeededDice
from warhost.core.engine import Battle, BattleResult, run_battle
from warhost.core.registry import get_ruleset
from warhost.core.ruleset import Scenario
from warhost.rulesets.dnd35_wars.model import Dnd35WarsScenario
from warhost.rulesets.dnd35_wars.setup import initial_state
from warhost.rulesets.dnd35_wars.state import FIGHTING, Single, Unit, WarState


def creature(name: str = "human warrior", **fields: Any) -> dict[str, Any]:
    """A creature entry: a Medium human with 10 HP, AC 15, speed 30 ft and a +4 longsword
    (1d8+2, 19-20) unless ``fields`` say otherwise."""
    entry: dict[str, Any] = {
        "name": name, "hp": 10, "ac": 15, "touch_ac": 11, "speed": 30, "cha": 10,
        "fort": 2, "ref": 1, "will": 0,
        "melee": [{"name": "longsword", "bonus": 4, "damage": "1d8+2", "crit_range": 19}],
    }
    entry.update(fields)
    return entry


def unit(uid: str, side: str = "A", squares: Sequence[tuple[int, int]] = ((5, 5),),
         count: int | None = None, **fields: Any) -> dict[str, Any]:
    """A unit entry for side ``side`` (``A`` or ``B``) on ``squares``, one counter each;
    ``count`` defaults to 10 creatures a counter (the 15-ft scale for Medium creatures)."""
    entry: dict[str, Any] = {"id": uid, "creature": fields.pop("creature", None) or creature(),
                             "count": count if count is not None else 10 * len(squares),
                             "counters": [list(sq) for sq in squares], "_side": side}
    entry.update(fields)
    return entry


def block(x0: int, y0: int, w: int, h: int) -> list[tuple[int, int]]:
    """The squares of a w x h rectangle with lower-left corner (x0, y0)."""
    return [(x, y) for y in range(y0, y0 + h) for x in range(x0, x0 + w)]


def single(sid: str, side: str = "A", kind: str = "npc", unit: str | None = None,
           at: tuple[int, int] | None = None, **fields: Any) -> dict[str, Any]:
    """A monster (``at``), NPC or PC (``unit``) entry: a 5th-level human fighter with 40 HP,
    AC 18 and a +9 longsword unless ``fields`` say otherwise."""
    entry: dict[str, Any] = {"id": sid, "_side": side, "_kind": kind,
                             "creature": fields.pop("creature", None) or creature(
                                 "hero", hp=40, ac=18, level=5, cha=14,
                                 melee=[{"bonus": 9, "damage": "1d8+3", "crit_range": 19}])}
    if kind == "monster":
        entry["at"] = list(at or (10, 10))
    else:
        entry["unit"] = unit
    entry.update(fields)
    return entry


def scenario_data(units: Sequence[Mapping[str, Any]], *, scale: int = 15, width: int = 40,
                  height: int = 30, terrain: Sequence[Mapping[str, Any]] = (),
                  structures: Sequence[Mapping[str, Any]] = (),
                  options: Mapping[str, Any] | None = None,
                  singles: Sequence[Mapping[str, Any]] = (),
                  spells: Sequence[Mapping[str, Any]] = ()) -> dict[str, Any]:
    """Plain scenario data with the units and singular creatures grouped by their ``_side``
    (sides A and B), and the spell definitions ``spells``."""
    sides = []
    for name in ("A", "B"):
        side: dict[str, Any] = {"name": name, "units": [
            {k: v for k, v in u.items() if k != "_side"} for u in units if u["_side"] == name]}
        for kind, key in (("monster", "monsters"), ("npc", "npcs"), ("pc", "pcs")):
            side[key] = [{k: v for k, v in s.items() if k not in ("_side", "_kind")}
                         for s in singles if s["_side"] == name and s["_kind"] == kind]
        sides.append(side)
    return {"ruleset": "dnd35-wars", "scale": scale,
            "map": {"width": width, "height": height, "terrain": list(terrain),
                    "structures": list(structures)},
            "options": dict(options or {}), "spells": list(spells), "sides": sides}


def make_state(units: Sequence[Mapping[str, Any]], **kwargs: Any) -> WarState:
    """A state with every unit placed (placement rules unchecked: tests may put units in
    contact), round 1, and the initiative order the order of the entries."""
    data = scenario_data(units, **kwargs)
    state = initial_state(Dnd35WarsScenario.model_validate(data))
    state.round = 1
    state.order = [u["id"] for u in units] + [s["id"] for s in kwargs.get("singles", ())
                                                if s["_kind"] == "monster"]
    return state


def make_battle(state: WarState, dice: Sequence[int] = (),
                orders: Mapping[str, Sequence[str]] | None = None) -> Battle:
    """A battle runtime over ``state`` with scripted dice faces and scripted orders per side
    (decisions the orders do not address take the default, else the first option)."""
    commanders = {side: OrdersByKind((orders or {}).get(side, []), FirstOptionCommander())
                  for side in state.sides}
    battle = Battle(get_ruleset("dnd35-wars"), None, 0, commanders,  # type: ignore[arg-type]
                    dice=ScriptedDice(dice))
    battle.state = state
    return battle


def seeded_battle(state: WarState | None, seed: int) -> Battle:
    """A battle runtime over ``state`` with seeded dice and default orders (seeded runs
    checked against exact odds)."""
    commanders = {side: OrdersByKind([], FirstOptionCommander())
                  for side in (state.sides if state is not None else ("A", "B"))}
    battle = Battle(get_ruleset("dnd35-wars"), None, 0, commanders,  # type: ignore[arg-type]
                    dice=SeededDice(seed))
    battle.state = state
    return battle


def restorer(state: WarState, uid: str, sid: str | None = None) -> Callable[[], None]:
    """A function putting unit ``uid`` (and creature ``sid``) back as they are now: HP,
    counters and status, so each seeded trial starts from the same position."""
    target = get(state, uid)
    hp, squares = target.hp, set(target.squares)
    creature_hp = who(state, sid).hp if sid else 0
    spot = who(state, sid).square if sid else None

    def restore() -> None:
        target.hp, target.status = hp, FIGHTING
        state.place(target, squares)
        if sid:
            hero = who(state, sid)
            hero.hp, hero.status = creature_hp, FIGHTING
            state.put_single(hero, spot)
    return restore


def get(state: WarState, uid: str) -> Unit:
    """The unit ``uid``."""
    return state.units[uid]


def who(state: WarState, sid: str) -> Single:
    """The singular creature ``sid``."""
    return state.singles[sid]


def invariant_playouts(scenario: Scenario, kind: str,
                       seeds: range = range(3)) -> tuple[list[str], list[BattleResult]]:
    """Play ``scenario`` once per seed, every side ``kind``, checking the ruleset's invariants
    at the end of every round: the broken ones (with their round) and the results."""
    ruleset = get_ruleset("dnd35-wars")
    sides = ruleset.side_names(scenario.model)
    problems: list[str] = []

    def check(round_number: int, state: object) -> None:
        problems.extend(f"round {round_number}: {p}"
                        for p in ruleset.check_invariants(state, []))

    results = [run_battle(scenario, seed, {s: kind for s in sides}, observers=[check])
               for seed in seeds]
    return problems, results
