"""The map view of a `dnd5e-tactics` state: every body, with the words the map's key shows."""

from __future__ import annotations

from warhost.rulesets.dnd5e_tactics.context import Ctx
from warhost.rulesets.dnd5e_tactics.state import ROUTED
from warhost.rulesets.dnd5e_tactics.view import map_view

from .c_helpers import OGRE, single_spec
from .helpers import make_ctx, scenario, unit, unit_spec


def _ctx() -> Ctx:
    units = {"A": [unit_spec("a", (24.0, 10.0), members=20)],
             "B": [unit_spec("b", (4.0, 30.0), members=12, stance="open", track="vicious")]}
    return make_ctx(scenario(units, singles={"B": [single_spec("s", (40.0, 30.0), OGRE)]}))


def test_bodies_carry_name_kind_and_strength() -> None:
    ctx = _ctx()
    unit(ctx, "a").members = 17
    unit(ctx, "b").commander.alive = False
    units = {u["id"]: u for u in map_view(ctx.state)["units"]}
    assert units["a"]["kind"] == "unit of Thug, close stance, defensive track"
    assert units["a"]["strength"] == "17/20 members, commander 52 hp"
    assert units["b"]["kind"] == "unit of Thug, open stance, vicious track"
    assert units["b"]["strength"] == "12/12 members, commander slain"
    assert units["s"]["kind"] == "single character (Ogre)"
    assert units["s"]["strength"] == f"{OGRE['hp']}/{OGRE['hp']} hp"


def test_status_shows_a_flight_this_round_and_routs() -> None:
    ctx = _ctx()
    unit(ctx, "a").fled = True
    unit(ctx, "b").status = ROUTED
    units = {u["id"]: u for u in map_view(ctx.state)["units"]}
    assert (units["a"]["status"], units["b"]["status"], units["s"]["status"]) == \
        ("fled", "routed", "active")


def test_bodies_keep_the_turn_order() -> None:
    """The order (and so each body's short label) is the same in every round."""
    ctx = _ctx()
    assert [u["id"] for u in map_view(ctx.state)["units"]] == ctx.state.order
