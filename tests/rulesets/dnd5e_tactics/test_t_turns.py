"""One body's turn (turns.py): its order, movement, Dash, Disengage, Charge, controlled mounts,
attacks of opportunity, encouragement, bonus actions and actions (T5-ROUND-11..13,
T5-COMMANDER-01..03, T5-ENCOURAGE-*, T5-MOVE-*, T5-MOUNT-01, T5-TERRAIN-09, T5-AMB-02,
T5-AMB-09..12, T5-AMB-15, T5-AMB-31, T5-AMB-52, T5-DEC-10..16)."""

from __future__ import annotations

from typing import Any

import pytest

from warhost.core.orders import Order
from warhost.geometry.table import distance, gap
from warhost.rulesets.dnd5e_tactics import combat, turns
from warhost.rulesets.dnd5e_tactics.context import Ctx
from warhost.rulesets.dnd5e_tactics.setup import parse_point
from warhost.rulesets.dnd5e_tactics.state import Single

from .helpers import KNIGHT, MAGE, THUG, events, unit, unit_spec
from .t_helpers import APART, FAR, Recorder, asked, block, melee_thug, pair, quiet_ctx

RUINS = [{"name": "Old tower", "kind": "ruins", "rect": [20, 8, 8, 4]}]
"""Ruins around A's centre (24, 10)."""


def move_texts(ctx: Ctx, body_id: str, plan: turns.Plan | None = None) -> list[str]:
    options, _, _ = turns.move_options(ctx, ctx.state.bodies[body_id], plan or turns.Plan())
    return [str(o) for o in options]


def turn(ctx: Ctx, body_id: str) -> None:
    ctx.state.round = max(ctx.state.round, 1)
    turns.take_turn(ctx, ctx.state.bodies[body_id])


# --------------------------------------------------------------------------- order of a turn


@pytest.mark.rule("T5-ROUND-11", "T5-ROUND-13", "T5-COMMANDER-01", "T5-DEC-14")
def test_a_unit_moves_then_its_commander_acts_then_the_unit() -> None:
    ctx = quiet_ctx(pair(terrain=RUINS))
    record = Recorder(ctx)
    turn(ctx, "a")
    assert record.kinds() == ["move", "callout", "commander_bonus", "commander_action",
                              "unit_bonus", "unit_action"]
    assert events(ctx, "turn")[0]["body"] == "a"


@pytest.mark.rule("T5-ROUND-13", "T5-AMB-52", "T5-TACTICS-12")
def test_the_commanders_encouragement_changes_the_units_attack_at_once() -> None:
    """Supporting rank +2 gives -1 to hit; the encouragement lifts it to +3 (0 to hit) before
    the unit attacks. b's members: AC 11 + 1 Close + 2 Defensive = 14; mace +4 needs 10."""
    ctx = quiet_ctx(pair({"track": "supporting"}), dice=[8, 1, 1],
                    orders={"A": ["hold", "none", "none", "encourage persuasion",
                                  "attack melee b"]})
    unit(ctx, "a").rank = 2
    turn(ctx, "a")
    log = ctx.battle.log.events
    encourage = next(i for i, e in enumerate(log) if e["type"] == "encourage")
    attacks = [i for i, e in enumerate(log) if e["type"] == "unit_attack"]
    assert len(attacks) == 2 and encourage < attacks[0]
    assert {log[i]["needed"] for i in attacks} == {10}
    assert unit(ctx, "a").rank == 3


@pytest.mark.rule("T5-COMMANDER-01", "T5-AMB-15", "T5-ENCOURAGE-01", "T5-ENCOURAGE-03")
def test_a_commander_may_encourage_with_both_its_bonus_action_and_its_action() -> None:
    """Bonus: 11 + 4 = 15 (DC 15) succeeds; action: 10 + 2 (Insight) = 12 (DC 12) succeeds.
    The unit still has its own action afterwards."""
    ctx = quiet_ctx(pair(b_at=FAR), dice=[11, 10],
                    orders={"A": ["hold", "encourage persuasion", "encourage insight"]})
    record = Recorder(ctx)
    turn(ctx, "a")
    assert [(e["action"], e["skill"], e["dc"], e["success"]) for e in events(ctx, "encourage")] \
        == [("bonus", "persuasion", 15, True), ("action", "insight", 12, True)]
    assert unit(ctx, "a").rank == 2
    assert record.kinds()[-1] == "unit_action"


# --------------------------------------------------------------------------- encouragement


@pytest.mark.rule("T5-ENCOURAGE-01", "T5-ENCOURAGE-02")
@pytest.mark.parametrize(("roll", "rank"), [(8, 1), (7, 0)])
def test_encouraging_as_an_action_is_dc_12_and_a_failure_costs_nothing(roll: int,
                                                                       rank: int) -> None:
    ctx = quiet_ctx(pair(b_at=FAR), dice=[roll], round_=1)
    assert turns.encourage(ctx, unit(ctx, "a"), "persuasion", bonus=False) is (rank == 1)
    assert unit(ctx, "a").rank == rank
    (event,) = events(ctx, "encourage")
    assert (event["roll"], event["modifier"], event["total"], event["dc"]) == (roll, 4,
                                                                              roll + 4, 12)


@pytest.mark.rule("T5-ENCOURAGE-03", "T5-ENCOURAGE-04")
@pytest.mark.parametrize(("roll", "rank"), [(11, 1), (10, -1)])
def test_encouraging_as_a_bonus_action_is_dc_15_and_a_failure_costs_a_rank(roll: int,
                                                                          rank: int) -> None:
    ctx = quiet_ctx(pair(b_at=FAR), dice=[roll], round_=1)
    turns.encourage(ctx, unit(ctx, "a"), "persuasion", bonus=True)
    assert unit(ctx, "a").rank == rank
    assert events(ctx, "rank")[0]["why"] in ("encouraged", "failed encouragement")


@pytest.mark.rule("T5-AMB-15", "T5-ENCOURAGE-01", "T5-DEC-10", "T5-DEC-11")
def test_the_skill_is_the_commanders_choice_with_its_best_as_default() -> None:
    """Knight Captain: Persuasion +4, Insight +2, History +1."""
    ctx = quiet_ctx(pair(b_at=FAR), round_=1)
    a = unit(ctx, "a")
    for bonus in (True, False):
        options, default = turns.character_options(ctx, a, bonus=bonus)
        texts = [str(o) for o in options]
        assert texts[:4] == ["none", "encourage persuasion", "encourage insight",
                             "encourage history"]
        assert str(default) == ("none" if bonus else "encourage persuasion")
    ctx = quiet_ctx(pair(b_at=FAR), dice=[11], round_=1)
    assert turns.encourage(ctx, unit(ctx, "a"), "history", bonus=False) is True  # 11 + 1
    assert events(ctx, "encourage")[0]["modifier"] == 1


@pytest.mark.rule("T5-AMB-15")
@pytest.mark.parametrize(("skill", "roll", "success"), [(12, 1, True), (-10, 20, False)])
def test_encouragement_has_no_automatic_result_on_a_natural_1_or_20(
        skill: int, roll: int, success: bool) -> None:
    knight = block(KNIGHT, skills={"persuasion": skill})
    ctx = quiet_ctx(pair({"commander": knight}, b_at=FAR), dice=[roll], round_=1)
    assert turns.encourage(ctx, unit(ctx, "a"), "persuasion", bonus=False) is success


# --------------------------------------------------------------------------- commanders


@pytest.mark.rule("T5-COMMANDER-02", "T5-TERRAIN-04", "T5-DEC-10")
def test_a_commander_may_take_the_ruins_cover_for_its_unit() -> None:
    ctx = quiet_ctx(pair(terrain=RUINS), orders={"A": ["hold", "none", "cover"]})
    record = Recorder(ctx)
    turn(ctx, "a")
    a = unit(ctx, "a")
    assert "cover" in record.options("commander_bonus")[0]
    assert a.three_quarter_cover
    assert "unit_bonus" not in record.kinds()  # nothing left for the unit's bonus action
    assert combat.cover_of(ctx.state, unit(ctx, "b"), a, "melee", by_unit=True) == \
        combat.THREE_QUARTERS


@pytest.mark.rule("T5-COMMANDER-03", "T5-DEC-11")
def test_outside_a_duel_a_commander_attacks_the_unit_and_is_never_a_target() -> None:
    """Greatsword x2 at b's members (AC 14): 15 + 15 pooled into b; b's commander untouched."""
    ctx = quiet_ctx(pair(), dice=[15, 15], round_=1)
    a, b = unit(ctx, "a"), unit(ctx, "b")
    options, _ = turns.character_options(ctx, a, bonus=False)
    attacks = [str(o) for o in options if o.kind == "attack"]
    assert attacks == ["attack Greatsword b"]
    turns.do_character_order(ctx, a, Order.parse(attacks[0]), bonus=False)
    assert b.tdr == 30 and b.commander.hp == b.commander.stats.hp
    assert len(events(ctx, "commander_attack")) == 2  # the whole Multiattack


# --------------------------------------------------------------------------- movement


def _moves(texts: list[str], kind: str) -> list[tuple[tuple[float, float], int]]:
    out = []
    for text in texts:
        order = Order.parse(text)
        if order.kind == kind:
            out.append((parse_point(order.args[0]), int(order.args[1])))
    return out


@pytest.mark.rule("T5-DEC-12", "T5-SETUP-02", "T5-AMB-09")
def test_moves_reach_at_most_the_speed_and_dashes_twice_it() -> None:
    ctx = quiet_ctx(pair(b_at=FAR), round_=1)
    texts = move_texts(ctx, "a")
    assert texts[0] == "hold" and len(texts) <= 40
    moves, dashes = _moves(texts, "move"), _moves(texts, "dash")
    assert moves and dashes
    assert all(distance(p, (24.0, 10.0)) <= 3.0 + 0.06 for p, _ in moves)
    assert all(3.0 < distance(p, (24.0, 10.0)) <= 6.0 + 0.06 for p, _ in dashes)
    assert ((24.0, 13.0), 0) in moves and ((24.0, 16.0), 0) in dashes


@pytest.mark.rule("T5-DEC-12")
def test_moves_stay_on_the_board_and_clear_of_other_bodies() -> None:
    from warhost.rulesets.dnd5e_tactics.turns import footprint_at, overlaps

    ctx = quiet_ctx(pair(a_at=(4.0, 2.0), b_at=(10.0, 4.0),
                         extra={"A": [unit_spec("a2", (4.0, 5.0), member=melee_thug())]}),
                    round_=1)
    a = unit(ctx, "a")
    for kind in ("move", "dash"):
        for point, facing in _moves(move_texts(ctx, "a"), kind):
            shape = footprint_at(a, point, facing)
            assert ctx.state.board.contains(shape)
            assert not any(overlaps(shape, b.footprint) for b in ctx.state.active()
                           if b is not a)


@pytest.mark.rule("T5-ROUND-12", "T5-COMMANDER-01")
@pytest.mark.parametrize(("member_speed", "commander_speed", "reach"), [
    (30, 20, 2.0), (40, 30, 3.0), (20, 40, 2.0)])
def test_the_unit_moves_at_its_slowest_characters_speed(
        member_speed: int, commander_speed: int, reach: float) -> None:
    ctx = quiet_ctx(pair({"member": melee_thug(speed=member_speed),
                          "commander": block(KNIGHT, speed=commander_speed)}, b_at=FAR),
                    round_=1)
    moves = _moves(move_texts(ctx, "a"), "move")
    assert max(distance(p, (24.0, 10.0)) for p, _ in moves) == pytest.approx(reach, abs=0.06)


@pytest.mark.rule("T5-AMB-09", "T5-DEC-12")
def test_the_footprint_centre_moves_and_the_facing_is_set_at_the_end() -> None:
    """b stands behind a (south): a steps north and turns about to face it."""
    ctx = quiet_ctx(pair(b_at=(24.0, 3.0)), orders={"A": ["move 24.0,13.0 180"]}, round_=1)
    a = unit(ctx, "a")
    assert a.facing == 0.0
    assert "move 24.0,13.0 180" in move_texts(ctx, "a")
    turn(ctx, "a")
    (event,) = events(ctx, "move")
    assert (event["from"], event["to"], event["cost"]) == ([24.0, 10.0], [24.0, 13.0], 3.0)
    assert a.centre == (24.0, 13.0) and a.facing == 180.0
    assert a.footprint.centroid.coords[0] == pytest.approx((24.0, 13.0))
    assert a.formation.member_points[0][1] < 13.0  # the front rank is now the southern one


@pytest.mark.rule("T5-TERRAIN-09", "T5-TERRAIN-02", "T5-DEC-12")
def test_difficult_terrain_halves_the_distance_walked_inside_it() -> None:
    """A field from y = 11: 1 in of open ground, then the remaining 2 in buy 1 in."""
    ctx = quiet_ctx(pair(b_at=FAR, terrain=[{"kind": "field", "rect": [10, 11, 28, 8]}]),
                    orders={"A": ["move 24.0,12.0 0"]}, round_=1)
    texts = move_texts(ctx, "a")
    assert "move 24.0,12.0 0" in texts and "move 24.0,13.0 0" not in texts
    turn(ctx, "a")
    assert events(ctx, "move")[0]["cost"] == 3.0


@pytest.mark.rule("T5-MOVE-01")
def test_an_engaged_unit_may_move_and_staying_in_reach_provokes_nothing() -> None:
    ctx = quiet_ctx(pair(), orders={"A": ["move 27.0,10.0 0"], "B": ["opportunity"]})
    assert "move 27.0,10.0 0" in move_texts(ctx, "a")
    turn(ctx, "a")
    assert ctx.state.engaged(unit(ctx, "a"), unit(ctx, "b"))
    assert not asked(ctx, "reaction") and not events(ctx, "unit_attack")


@pytest.mark.rule("T5-MOVE-02", "T5-AMB-11", "T5-DEC-16")
def test_leaving_reach_without_disengage_provokes_one_resolution_and_a_commander_attack() -> None:
    """b's reaction: one mace resolution (no Multiattack), d6 = 6 with needed 12 (AC 14 vs
    +4 -2): divisor 1, 20 hits x 8 = 160. Its commander's Greatsword: d20 15 hits for 15."""
    ctx = quiet_ctx(pair(), dice=[6, 15], orders={
        "A": ["move 24.0,7.0 0"], "B": ["opportunity", "opportunity Greatsword"]})
    record = Recorder(ctx)
    turn(ctx, "a")
    assert record.options("reaction") == [["opportunity", "none"],
                                          ["opportunity Greatsword", "none"]]
    (attack,) = events(ctx, "unit_attack")
    assert (attack["attacker"], attack["why"], attack["damage"]) == ("b", "opportunity", 160)
    (swing,) = events(ctx, "commander_attack")
    assert swing["opportunity"] is True and swing["damage"] == 15
    a, b = unit(ctx, "a"), unit(ctx, "b")
    assert a.tdr == 175 and a.centre == (24.0, 7.0)
    assert b.reaction_used and b.commander.reaction_used
    move = next(i for i, e in enumerate(ctx.battle.log.events) if e["type"] == "move")
    assert ctx.battle.log.events.index(attack) < move  # before it gets away


@pytest.mark.rule("T5-AMB-11", "T5-DEC-16")
def test_one_reaction_per_unit_and_per_commander_per_round() -> None:
    model = pair(extra={"A": [unit_spec("a2", (29.0, 10.0), member=melee_thug())]})
    ctx = quiet_ctx(model, dice=[1, 1], orders={
        "A": ["move 24.0,7.0 0", "hold", "move 29.0,7.0 0"],
        "B": ["opportunity", "opportunity Greatsword"]})
    turn(ctx, "a")
    assert len(asked(ctx, "reaction")) == 2
    turn(ctx, "a2")
    assert len(asked(ctx, "reaction")) == 2  # nothing left to react with
    assert [e["attacker"] for e in events(ctx, "unit_attack")] == ["b"]


@pytest.mark.rule("T5-MOVE-02", "T5-AMB-11", "T5-DEC-13")
def test_disengage_uses_the_action_and_provokes_nothing() -> None:
    ctx = quiet_ctx(pair(), orders={"A": ["disengage 24.0,7.0 0"], "B": ["opportunity"]})
    record = Recorder(ctx)
    turn(ctx, "a")
    assert unit(ctx, "a").centre == (24.0, 7.0)
    assert "reaction" not in record.kinds() and "unit_action" not in record.kinds()
    assert events(ctx, "move")[0]["kind"] == "disengage"


@pytest.mark.rule("T5-MOVE-02")
def test_disengage_is_offered_only_for_moves_out_of_an_enemys_reach() -> None:
    ctx = quiet_ctx(pair(), round_=1)
    texts = move_texts(ctx, "a")
    a, b = unit(ctx, "a"), unit(ctx, "b")
    disengages = _moves(texts, "disengage")
    assert disengages
    for point, facing in disengages:
        assert gap(turns.footprint_at(a, point, facing), b.footprint) > b.reach
    assert not _moves(move_texts(quiet_ctx(pair(b_at=FAR), round_=1), "a"), "disengage")


@pytest.mark.rule("T5-MOVE-03", "T5-MOVE-04", "T5-AMB-12", "T5-DEC-13")
def test_a_charge_dashes_into_contact_and_attacks_that_unit_with_its_full_routine() -> None:
    """b is 5 in away: beyond a walk (3 in), within a Dash (6 in)."""
    ctx = quiet_ctx(pair(b_at=APART), dice=[1, 1], orders={"A": ["charge b"]})
    record = Recorder(ctx)
    turn(ctx, "a")
    a, b = unit(ctx, "a"), unit(ctx, "b")
    assert events(ctx, "move")[0]["kind"] == "charge"
    assert ctx.state.adjacent(a, b)
    assert [(e["target"], e["why"]) for e in events(ctx, "unit_attack")] == [
        ("b", "charge"), ("b", "charge")]
    assert "unit_action" not in record.kinds()


@pytest.mark.rule("T5-AMB-12")
def test_charge_multiattack_off_limits_a_charge_to_one_resolution() -> None:
    ctx = quiet_ctx(pair(b_at=APART, charge_multiattack=False), dice=[1],
                    orders={"A": ["charge b"]})
    turn(ctx, "a")
    assert len(events(ctx, "unit_attack")) == 1


@pytest.mark.rule("T5-MOVE-04")
def test_a_charge_attacks_only_the_unit_it_closed_with() -> None:
    """c ends next to a as well; the charge's attacks still all go at b."""
    c = unit_spec("c", (29.3, 14.9), member=melee_thug())
    ctx = quiet_ctx(pair(b_at=APART, extra={"B": [c]}), dice=[1, 1],
                    orders={"A": ["charge b"]})
    assert {"charge b", "charge c"} <= set(move_texts(ctx, "a"))
    turn(ctx, "a")
    assert ctx.state.adjacent(unit(ctx, "a"), unit(ctx, "c"))
    assert {e["target"] for e in events(ctx, "unit_attack")} == {"b"}


@pytest.mark.rule("T5-MOVE-03")
@pytest.mark.parametrize(("b_at", "offered"), [((24.0, 11.0), False), (APART, True),
                                               ((24.0, 18.0), False)])
def test_a_charge_needs_an_enemy_unit_not_yet_adjacent_within_a_dash(
        b_at: tuple[float, float], offered: bool) -> None:
    ctx = quiet_ctx(pair(b_at=b_at), round_=1)
    assert ("charge b" in move_texts(ctx, "a")) is offered


# --------------------------------------------------------------------------- mounts


def _riders(control: str = "controlled") -> dict[str, Any]:
    return melee_thug(mount={"name": "Riding horse", "speed": 60, "control": control})


@pytest.mark.rule("T5-MOUNT-01", "T5-DEC-15", "T5-AMB-29")
def test_controlled_mounts_may_dash_and_leave_the_riders_action_free() -> None:
    fast = block(KNIGHT, mount={"name": "Warhorse", "speed": 60})
    ctx = quiet_ctx(pair({"member": _riders(), "commander": fast}, b_at=FAR),
                    orders={"A": ["dash"]})
    record = Recorder(ctx)
    turn(ctx, "a")
    assert record.options("mount") == [["none", "dash", "disengage", "dodge"]]
    moves = [Order.parse(t) for t in record.options("move")[0]]
    assert {o.kind for o in moves} == {"hold", "move"}  # no Dash of its own, no Charge
    assert max(distance(parse_point(o.args[0]), (24.0, 10.0)) for o in moves
               if o.kind == "move") == pytest.approx(12.0, abs=0.06)
    assert "unit_action" in record.kinds()
    assert events(ctx, "mount")[0]["action"] == "dash"


@pytest.mark.rule("T5-MOUNT-01", "T5-AMB-11")
def test_a_controlled_mounts_disengage_lets_the_unit_leave_without_provoking() -> None:
    ctx = quiet_ctx(pair({"member": _riders()}), orders={
        "A": ["disengage", "move 24.0,7.0 0"], "B": ["opportunity"]})
    record = Recorder(ctx)
    turn(ctx, "a")
    assert unit(ctx, "a").centre == (24.0, 7.0)
    assert "reaction" not in record.kinds()
    assert "unit_action" in record.kinds()  # the riders' action is still theirs


@pytest.mark.rule("T5-MOUNT-01", "T5-MOUNT-02")
def test_a_controlled_mounts_dodge_changes_nothing_for_the_riders() -> None:
    ctx = quiet_ctx(pair({"member": _riders()}), orders={"A": ["dodge"]})
    turn(ctx, "a")
    assert events(ctx, "mount")[0]["action"] == "dodge"
    assert not unit(ctx, "a").dodging


@pytest.mark.rule("T5-MOUNT-01", "T5-AMB-29")
def test_independent_mounts_are_not_asked_for_an_action() -> None:
    ctx = quiet_ctx(pair({"member": _riders("independent")}, b_at=FAR))
    record = Recorder(ctx)
    turn(ctx, "a")
    assert "mount" not in record.kinds()


# --------------------------------------------------------------------------- bonus actions, actions


@pytest.mark.rule("T5-DEC-14", "T5-TERRAIN-04", "T5-AMB-02")
def test_the_ruins_cover_lasts_until_the_units_next_turn() -> None:
    ctx = quiet_ctx(pair(terrain=RUINS), orders={"A": ["hold", "none", "none", "none",
                                                       "cover"]})
    record = Recorder(ctx)
    turn(ctx, "a")
    a = unit(ctx, "a")
    assert record.options("unit_bonus") == [["none", "cover"]]
    assert a.three_quarter_cover
    turns.start_turn(ctx, a)
    assert not a.three_quarter_cover


@pytest.mark.rule("T5-AMB-02", "T5-DEC-14")
def test_the_ruins_cover_ends_when_the_unit_leaves_the_ruins() -> None:
    """Ruins from y = 9 to 11: 1 in inside costs 2, then 1 in of open ground."""
    ruins = [{"kind": "ruins", "rect": [20, 9, 8, 2]}]
    ctx = quiet_ctx(pair(b_at=FAR, terrain=ruins), orders={"A": ["move 24.0,12.0 0"]},
                    round_=1)
    a = unit(ctx, "a")
    a.three_quarter_cover = True
    turns.movement_step(ctx, a, turns.Plan())
    assert a.centre == (24.0, 12.0)
    assert not turns.inside_ruins(ctx.state, a)
    assert not a.three_quarter_cover


@pytest.mark.rule("T5-DEC-14")
def test_no_bonus_action_is_asked_of_a_unit_outside_ruins() -> None:
    ctx = quiet_ctx(pair())
    record = Recorder(ctx)
    turn(ctx, "a")
    assert "unit_bonus" not in record.kinds()


@pytest.mark.rule("T5-DEC-13")
def test_the_units_action_offers_legal_attacks_dodge_and_nothing() -> None:
    ctx = quiet_ctx(pair({"member": THUG}), round_=1)
    options, default = turns.unit_action_options(ctx, unit(ctx, "a"))
    assert [str(o) for o in options] == ["none", "dodge", "attack melee b"]
    assert str(default) == "attack melee b"
    far = quiet_ctx(pair({"member": THUG}, b_at=(24.0, 16.0)), round_=1)
    options, _ = turns.unit_action_options(far, unit(far, "a"))
    assert [str(o) for o in options] == ["none", "dodge", "attack ranged b"]  # crossbows


@pytest.mark.rule("T5-DEC-13")
def test_dodge_lasts_until_the_units_next_turn() -> None:
    ctx = quiet_ctx(pair(), orders={"A": ["hold", "none", "none", "none", "dodge"]})
    turn(ctx, "a")
    a = unit(ctx, "a")
    assert a.dodging
    turns.start_turn(ctx, a)
    assert not a.dodging


@pytest.mark.rule("T5-DEC-13", "T5-DEC-11")
def test_area_abilities_are_offered_to_commanders_and_units() -> None:
    breath = {"name": "Fire Breath", "shape": "cone", "size": 15, "save": "dex", "dc": 13,
              "damage": "4d6", "uses": 1}
    ctx = quiet_ctx(pair({"member": melee_thug(areas=[breath]), "commander": MAGE},
                         b_at=(24.0, 12.0)), round_=1)
    a = unit(ctx, "a")
    unit_options, _ = turns.unit_action_options(ctx, a)
    assert "area Fire_Breath b" in [str(o) for o in unit_options]
    options, _ = turns.character_options(ctx, a, bonus=False)
    assert "area Fireball b" in [str(o) for o in options]


# --------------------------------------------------------------------------- declared engagement


@pytest.mark.rule("T5-AMB-10")
def test_declared_engagements_are_asked_after_a_move_and_dropped_when_apart() -> None:
    ctx = quiet_ctx(pair(b_at=FAR, engagement_model="declared"),
                    orders={"A": ["engage b"]}, round_=1)
    a, b = unit(ctx, "a"), unit(ctx, "b")
    a.centre = (24.0, 28.2)  # 0.8 in from b: beyond 5 ft, within reach + 1 in
    turns.after_movement(ctx, a)
    (decision,) = asked(ctx, "engage")
    assert decision["order"] == "engage b"
    assert ctx.state.engaged(a, b) and frozenset(("a", "b")) in ctx.state.declared
    a.centre = (24.0, 26.0)
    turns.after_movement(ctx, a)
    assert not ctx.state.engaged(a, b) and not ctx.state.declared


@pytest.mark.rule("T5-AMB-10")
def test_footprint_engagement_asks_nothing() -> None:
    ctx = quiet_ctx(pair(b_at=FAR), round_=1)
    a, b = unit(ctx, "a"), unit(ctx, "b")
    a.centre = (24.0, 28.2)
    turns.after_movement(ctx, a)
    assert not asked(ctx, "engage") and not ctx.state.engaged(a, b)
    a.centre = (24.0, 28.6)
    assert ctx.state.engaged(a, b)


@pytest.mark.rule("T5-AMB-10", "T5-MOVE-03")
def test_a_charge_declares_its_engagement() -> None:
    ctx = quiet_ctx(pair(b_at=APART, engagement_model="declared"), dice=[1, 1],
                    orders={"A": ["charge b"]})
    turn(ctx, "a")
    assert frozenset(("a", "b")) in ctx.state.declared
    assert len(events(ctx, "unit_attack")) == 2


# --------------------------------------------------------------------------- Single Characters


OGRE = {"name": "Ogre", "ac": 11, "hp": 59, "speed": 40, "dex": -1,
        "attacks": [{"name": "Greatclub", "bonus": 6, "damage": "2d8+4"}]}


@pytest.mark.rule("T5-AMB-31", "T5-DEC-11")
def test_a_single_character_moves_then_takes_its_bonus_action_and_action() -> None:
    ogre = {"id": "ogre", "stats": OGRE, "at": [24.0, 10.8]}
    ctx = quiet_ctx(pair(b_at=FAR, singles={"B": [ogre]}),
                    dice=[15, 2, 3], orders={"B": ["hold", "attack Greatclub a"]})
    record = Recorder(ctx)
    turn(ctx, "ogre")
    assert record.kinds() == ["move", "callout", "commander_bonus", "commander_action"]
    assert record.options("commander_bonus") == [["none"]]  # nothing to ask
    assert record.options("commander_action")[0] == ["none", "attack Greatclub a", "dodge"]
    assert not [d for d in ctx.battle.decisions if d["kind"] == "commander_bonus"]
    (swing,) = events(ctx, "commander_attack")
    assert swing["hit"] and unit(ctx, "a").tdr == 2 + 3 + 4  # rolled damage (T5-AMB-31)
    assert isinstance(ctx.state.bodies["ogre"], Single)


# --------------------------------------------------------------------------- dying commanders


@pytest.mark.rule("T5-AMB-18", "T5-COMMANDER-01")
def test_a_dying_commander_rolls_its_death_save_and_sits_out_the_turn() -> None:
    """``commander_death_saves``: the save comes first; a commander at 0 hp takes no call-out,
    bonus action or action, while its unit still acts."""
    ctx = quiet_ctx(pair(commander_death_saves=True), dice=[12])
    a = unit(ctx, "a")
    a.commander.hp, a.commander.dying = 0, True
    record = Recorder(ctx)
    turn(ctx, "a")
    (save,) = events(ctx, "death_save")
    assert (save["unit"], save["roll"], save["result"]) == ("a", 12, "success")
    assert record.kinds() == ["move", "unit_action"]


@pytest.mark.rule("T5-AMB-11", "T5-AMB-50")
def test_a_unit_down_to_its_commander_draws_no_attack_of_opportunity() -> None:
    ctx = quiet_ctx(pair(), orders={"A": ["move 24.0,7.0 0"], "B": ["opportunity"]})
    unit(ctx, "a").members = 0
    record = Recorder(ctx)
    turn(ctx, "a")
    assert unit(ctx, "a").centre == (24.0, 7.0)
    assert "reaction" not in record.kinds()
