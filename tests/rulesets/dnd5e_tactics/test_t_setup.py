"""Setup, deployment decisions, terrain announced before the battle and the initiative order
(setup.py; T5-SETUP-*, T5-INIT-*, T5-TERRAIN-01/02, T5-AMB-03/04, T5-DEC-01..04, T5-DEC-21)."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from warhost.core.errors import WarhostError
from warhost.rulesets.dnd5e_tactics.model import Dnd5eTacticsScenario
from warhost.rulesets.dnd5e_tactics.state import feet
from warhost.rulesets.dnd5e_tactics.tables import TRACKS
from warhost.rulesets.dnd5e_tactics.turns import speed_inches, walk
from warhost.rulesets.dnd5e_tactics.validate import check_scenario

from .helpers import ARCHER, GUARD, KNIGHT, MAGE, THUG, events, make_ctx, scenario, unit, unit_spec
from .t_helpers import asked, block, ctx_for, pair

# --------------------------------------------------------------------------- records and scale


@pytest.mark.rule("T5-SETUP-01")
def test_every_unit_starts_with_its_member_card_track_and_a_living_commander() -> None:
    ctx = make_ctx(scenario({"A": [unit_spec("a", (10, 5))],
                             "B": [unit_spec("b", (10, 30), member=GUARD, commander=MAGE)]}))
    for body_id, member, commander in (("a", THUG, KNIGHT), ("b", GUARD, MAGE)):
        u = unit(ctx, body_id)
        assert u.member.name == member["name"] and u.member.hp == member["hp"]
        assert u.commander.stats.name == commander["name"]
        assert u.commander.alive and u.commander.hp == commander["hp"]
        assert u.track in TRACKS and u.members == u.start_members == 20


@pytest.mark.rule("T5-SETUP-02")
def test_one_inch_is_ten_feet() -> None:
    assert feet(5) == 0.5 and feet(30) == 3.0 and feet(100) == 10.0
    ctx = make_ctx(pair(b_at=(24, 30)))
    assert speed_inches(unit(ctx, "a")) == 3.0  # a Thug's 30 ft


@pytest.mark.rule("T5-SETUP-03", "T5-DEC-02")
def test_an_open_track_is_asked_for_and_the_rank_starts_at_zero() -> None:
    model = scenario({"A": [unit_spec("a", (10, 5), track=None)],
                      "B": [unit_spec("b", (10, 30))]})
    ctx = make_ctx(model, orders={"A": ["track vicious"]})
    (decision,) = asked(ctx, "track")
    assert decision["order"] == "track vicious"
    a = unit(ctx, "a")
    assert (a.track, a.rank) == ("vicious", 0)
    assert unit(ctx, "b").track == "defensive"  # given by the scenario: not asked


@pytest.mark.rule("T5-SETUP-04", "T5-DEC-03", "T5-AMB-04", "T5-ROUND-04")
@pytest.mark.parametrize(("orders", "stance"), [([], "close"), (["stance open"], "open")])
def test_starting_stance_is_picked_at_deployment_close_by_default(
        orders: list[str], stance: str) -> None:
    model = scenario({"A": [unit_spec("a", (10, 5), stance=None)],
                      "B": [unit_spec("b", (10, 30))]})
    ctx = make_ctx(model, orders={"A": orders})
    assert unit(ctx, "a").stance == stance
    (deploy,) = [e for e in events(ctx, "deploy") if e["id"] == "a"]
    assert deploy["stance"] == stance


@pytest.mark.rule("T5-DEC-01")
def test_an_open_position_is_chosen_among_free_spots_in_the_deployment_zone() -> None:
    model = scenario({"A": [unit_spec("a", (10, 5)), {**unit_spec("a2", (0, 0)), "at": None}],
                      "B": [unit_spec("b", (10, 30))]}, board=(48, 36))
    model.sides[0].deployment_depth = 6
    ctx = make_ctx(model, orders={"A": ["deploy 42.0,3.0"]})
    a2 = unit(ctx, "a2")
    assert a2.centre == (42.0, 3.0)
    (decision,) = asked(ctx, "deploy")
    assert decision["order"] == "deploy 42.0,3.0"


@pytest.mark.rule("T5-DEC-01")
def test_deployment_spots_avoid_other_bodies_and_stay_in_the_zone() -> None:
    from warhost.rulesets.dnd5e_tactics.setup import deployment_spots

    model = scenario({"A": [unit_spec("a", (6, 3)), {**unit_spec("a2", (0, 0)), "at": None}],
                      "B": [unit_spec("b", (10, 30))]}, board=(48, 36))
    model.sides[0].deployment_depth = 6
    ctx = make_ctx(model)
    state = ctx.state
    a, a2 = unit(ctx, "a"), unit(ctx, "a2")
    spots = deployment_spots(state, a2, model.sides[0])
    assert spots and all(y == 3.0 for _, y in spots)
    assert (6.0, 3.0) not in spots  # a stands there
    assert a2.centre in spots and a2.centre != a.centre


@pytest.mark.rule("T5-DEC-21", "T5-TERRAIN-01")
def test_the_user_fixes_board_terrain_defender_and_options_before_play() -> None:
    model = scenario(
        {"A": [unit_spec("a", (10, 5))], "B": [unit_spec("b", (10, 30))]},
        terrain=[{"name": "Old mill", "kind": "ruins", "rect": [20, 10, 4, 4]},
                 {"name": "Cliff", "kind": "impassable", "polygon": [[30, 10], [34, 10],
                                                                       [32, 14]]}],
        board=(60, 40), defender="A", rank_clamp=False, max_rounds=7)
    ctx = make_ctx(model)
    state = ctx.state
    assert (state.board.width, state.board.height) == (60, 40)
    assert state.defender == "A"
    assert [(r.name, r.kind, r.difficult, r.impassable) for r in state.regions] == [
        ("Old mill", "ruins", True, False), ("Cliff", "impassable", False, True)]
    assert state.options.rank_clamp is False and state.options.max_rounds == 7


@pytest.mark.rule("T5-DEC-21", "T5-AMB-03")
def test_a_scenario_without_a_valid_defender_is_rejected() -> None:
    data: dict[str, Any] = {
        "ruleset": "dnd5e-tactics",
        "sides": [{"name": "A", "edge": "south", "units": [unit_spec("a", (10, 5))]},
                  {"name": "B", "edge": "north", "units": [unit_spec("b", (10, 30))]}]}
    with pytest.raises(ValidationError):
        Dnd5eTacticsScenario.model_validate(data)
    model = Dnd5eTacticsScenario.model_validate({**data, "defender": "C"})
    with pytest.raises(WarhostError):
        check_scenario(model)


# --------------------------------------------------------------------------- terrain


@pytest.mark.rule("T5-TERRAIN-02", "T5-TERRAIN-09")
@pytest.mark.parametrize("kind", ["ruins", "forest", "field"])
def test_ruins_forests_and_fields_cost_double(kind: str) -> None:
    """A 4 in piece across a 10 in walk: 6 in of open ground + 4 in x 2 = 14."""
    ctx = make_ctx(pair(b_at=(24, 30), terrain=[{"kind": kind, "rect": [3, -1, 4, 2]}]))
    assert walk(ctx.state, (0.0, 0.0), (10.0, 0.0), 100.0) == ((10.0, 0.0), 14.0)
    # 5 in of budget: 3 in to the edge, then 2 in of budget buys 1 in inside.
    assert walk(ctx.state, (0.0, 0.0), (10.0, 0.0), 5.0) == ((4.0, 0.0), 5.0)


@pytest.mark.rule("T5-TERRAIN-01")
def test_a_scenario_may_define_impassable_terrain_that_stops_a_walk() -> None:
    ctx = make_ctx(pair(b_at=(24, 30), terrain=[{"kind": "impassable",
                                                 "rect": [3, -1, 4, 2]}]))
    point, cost = walk(ctx.state, (0.0, 0.0), (10.0, 0.0), 100.0)
    assert point == (3.0, 0.0) and cost == 3.0


# --------------------------------------------------------------------------- initiative


def _order_of(ctx: Any) -> list[str]:
    return list(ctx.state.order)


@pytest.mark.rule("T5-INIT-01", "T5-AMB-03")
def test_initiative_is_member_dex_plus_commander_dex_with_no_roll() -> None:
    """Archer +2 with a Mage +2 = 4; Guard +1 with a Knight +0 = 1. No die is drawn."""
    ctx = make_ctx(scenario({"A": [unit_spec("a", (10, 5), member=ARCHER, commander=MAGE)],
                             "B": [unit_spec("b", (10, 30), member=GUARD)]}))
    assert (unit(ctx, "a").initiative, unit(ctx, "b").initiative) == (4, 1)
    assert ctx.battle.dice.unused == 0 and not events(ctx, "roll")
    (event,) = events(ctx, "initiative")
    assert [e["initiative"] for e in event["order"]] == [4, 1]


@pytest.mark.rule("T5-INIT-02")
def test_turns_go_from_highest_initiative_to_lowest() -> None:
    ctx = make_ctx(scenario({
        "A": [unit_spec("slow", (10, 5)), unit_spec("quick", (30, 5), member=ARCHER,
                                                    commander=MAGE)],
        "B": [unit_spec("mid", (10, 30), member=GUARD)]}))
    assert _order_of(ctx) == ["quick", "mid", "slow"]


@pytest.mark.rule("T5-INIT-03", "T5-AMB-03")
@pytest.mark.parametrize(("defender", "order"), [
    ("B", ["b1", "a1", "b2", "a2"]), ("A", ["a1", "b1", "a2", "b2"])])
def test_ties_alternate_sides_starting_with_the_defender(defender: str, order: list[str]) -> None:
    ctx = make_ctx(scenario({"A": [unit_spec("a1", (10, 5)), unit_spec("a2", (30, 5))],
                             "B": [unit_spec("b1", (10, 30)), unit_spec("b2", (30, 30))]},
                            defender=defender))
    assert _order_of(ctx) == order


@pytest.mark.rule("T5-INIT-03", "T5-AMB-03")
def test_when_one_side_runs_out_of_tied_units_the_others_follow_in_order() -> None:
    ctx = make_ctx(scenario({"A": [unit_spec("a1", (6, 5)), unit_spec("a2", (18, 5)),
                                   unit_spec("a3", (30, 5))],
                             "B": [unit_spec("b1", (10, 30))]}, defender="B"))
    assert _order_of(ctx) == ["b1", "a1", "a2", "a3"]


@pytest.mark.rule("T5-DEC-04", "T5-AMB-03")
def test_each_side_orders_its_own_tied_units() -> None:
    model = scenario({"A": [unit_spec("a1", (6, 5)), unit_spec("a2", (18, 5)),
                            unit_spec("a3", (30, 5))],
                      "B": [unit_spec("b1", (10, 30)), unit_spec("b2", (30, 30))]},
                     defender="A")
    ctx = make_ctx(model, orders={"A": ["next a3", "next a1"], "B": ["next b2"]})
    assert _order_of(ctx) == ["a3", "b2", "a1", "b1", "a2"]
    assert [d["order"] for d in asked(ctx, "tie_order")] == ["next a3", "next a1", "next b2"]


@pytest.mark.rule("T5-AMB-03")
def test_initiative_stays_fixed_when_a_commander_dies() -> None:
    from warhost.rulesets.dnd5e_tactics import combat

    ctx = ctx_for(scenario({"A": [unit_spec("a", (10, 5), member=ARCHER, commander=MAGE)],
                            "B": [unit_spec("b", (10, 30), member=GUARD)]}))
    before = (unit(ctx, "a").initiative, list(ctx.state.order))
    combat.kill_commander(ctx, unit(ctx, "a"), duel_winner=None)
    assert (unit(ctx, "a").initiative, list(ctx.state.order)) == before


@pytest.mark.rule("T5-SETUP-03")
def test_no_unit_starts_at_a_rank_other_than_zero() -> None:
    ctx = make_ctx(scenario({"A": [unit_spec("a", (10, 5), track="aggressive")],
                             "B": [unit_spec("b", (10, 30), track="supporting",
                                             member=block(GUARD))]}))
    assert [unit(ctx, i).rank for i in ("a", "b")] == [0, 0]


@pytest.mark.rule("T5-DEC-01", "T5-DEC-03", "T5-AMB-09")
def test_the_stance_is_chosen_before_the_position_so_the_spot_fits_the_formation() -> None:
    """An Open unit of 20 is 9.5 in wide: spots 4 in from a side edge would push it off the
    board, so they are not offered once Open is chosen (a fix to setup.py's order)."""
    model = scenario({"A": [{**unit_spec("a", (0, 0)), "at": None, "stance": None}],
                      "B": [unit_spec("b", (10, 30))]}, board=(48, 36))
    ctx = make_ctx(model, orders={"A": ["stance open"]})
    a = unit(ctx, "a")
    assert a.stance == "open"
    assert ctx.state.board.contains(a.footprint)
    kinds = [d["kind"] for d in ctx.battle.decisions if d["side"] == "A"]
    assert kinds.index("stance") < kinds.index("deploy")
