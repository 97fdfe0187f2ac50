"""Attacks on war machines in dnd35-wars (W35-SIEGE-02/03, W35-SWU-04/09, W35-TOWER-14,
W35-AMB-88, W35-AMB-97, W35-DEC-24): any unit or creature may strike a siege weapon or a tower
instead of the unit carrying it; a destroyed machine costs its unit a morale check."""

from __future__ import annotations

import pytest

from tests.battle_watch import events
from tests.rulesets.dnd35_wars.helpers import (
    block,
    creature,
    get,
    make_battle,
    make_state,
    single,
    unit,
    who,
)
from warhost.core.decisions import Refusal
from warhost.core.orders import Order
from warhost.rulesets.dnd35_wars import actions, machines, morale, singles
from warhost.rulesets.dnd35_wars.state import ROUTED, Machine, WarState

BOWS = creature("archer", ranged=[{"bonus": 3, "damage": "1d8", "range_increment": 60}])


def _ringed(*others: dict[str, object]) -> WarState:
    """Siege unit ``g`` (side A): a 3x3 block with its ballista on the middle counter (5, 5)."""
    return make_state([unit("g", squares=block(4, 4, 3, 3), siege_weapon="ballista"),
                       *others])


def _refusal(result: object) -> Refusal:
    assert isinstance(result, Refusal), result
    return result


def _judge(state: WarState, uid: str, text: str) -> Order | Refusal | None:
    return actions.judge(state, get(state, uid))(Order.parse(text))


@pytest.mark.rule("W35-SIEGE-03")
@pytest.mark.rule("W35-SIEGE-02")
@pytest.mark.rule("W35-AMB-88")
@pytest.mark.rule("W35-SWU-09")
def test_a_unit_shoots_the_weapon_inside_another_unit() -> None:
    state = _ringed(unit("arch", "B", squares=[(5, 12)], creature=BOWS))
    g, arch = get(state, "g"), get(state, "arch")
    assert state.machines["g"].square == (5, 5)  # behind the counter on (5, 6)
    order = Order.parse("shoot_machine arch g")
    assert order in actions.legal_actions(state, arch)
    # 7 squares = 105 ft: -2; 15 + 3 - 2 hits AC 3; 3 archers on one side (W35-AMB-32)
    battle = make_battle(state, dice=[15, 8])
    actions.TAKERS[order.kind](state, battle, arch, order)
    hit = events(battle, "machine_attack")[0]
    assert (hit["total"], hit["ac"], hit["attackers"]) == (16, 3, 3)
    assert state.machines["g"].hp == 80 - (8 - 5) * 3  # hardness off the single roll
    assert g.hp == g.start_hp  # the unit's HP are its own


@pytest.mark.rule("W35-DEC-24")
@pytest.mark.rule("W35-SWU-09")
def test_attackers_choose_the_unit_or_its_weapon() -> None:
    state = _ringed(unit("arch", "B", squares=[(5, 12)], creature=BOWS))
    arch = get(state, "arch")
    kinds = {(o.kind, str(o.args[1])) for o in actions.legal_actions(state, arch)
             if len(o.args) > 1}
    assert {("shoot", "g"), ("shoot_machine", "g")} <= kinds
    assert not [o for o in actions.legal_actions(state, get(state, "g"))
                if o.kind in machines.ORDER_KINDS]  # never at one's own machine
    assert _refusal(_judge(state, "g", "shoot_machine g g")).rule == "W35-SWU-09"


@pytest.mark.rule("W35-AMB-97")
def test_melee_on_a_weapon_needs_a_counter_sharing_a_side_with_its_counter() -> None:
    state = make_state([unit("g", siege_weapon="ballista"), unit("side", "B", squares=[(5, 6)]),
                        unit("corner", "B", squares=[(6, 4)])])
    assert Order.parse("melee_machine side g") in actions.legal_actions(state, get(state, "side"))
    assert _refusal(_judge(state, "corner", "melee_machine corner g")).rule == "W35-AMB-97"
    # a straight Medium front: 3 attackers (W35-AMB-31); 10 + 4 hits; (6 + 2 - 5) x 3
    battle = make_battle(state, dice=[10, 6])
    actions.TAKERS["melee_machine"](state, battle, get(state, "side"),
                                    Order.parse("melee_machine side g"))
    assert events(battle, "machine_attack")[0]["attackers"] == 3
    assert state.machines["g"].hp == 80 - 9
    assert "g" in state.foes_engaged("side")


@pytest.mark.rule("W35-AMB-97")
@pytest.mark.rule("W35-SIEGE-02")
def test_the_weapons_space_is_the_target_size_for_melee_attackers() -> None:
    state = make_state([unit("g", siege_weapon="light_catapult"),
                        unit("side", "B", squares=[(5, 6)])])
    # a 10-ft machine is two cells a side: 2 along the side and the 2 corners
    battle = make_battle(state, dice=[10, 6])
    machines.melee(state, battle, get(state, "side"), get(state, "g"))
    assert events(battle, "machine_attack")[0]["attackers"] == 4
    assert state.machines["g"].hp == 80 - 3 * 4


@pytest.mark.rule("W35-SIEGE-02")
@pytest.mark.rule("W35-AMB-88")
def test_a_creature_next_to_the_weapon_attacks_it_in_full_less_hardness() -> None:
    state = make_state([unit("g", siege_weapon="ballista"), unit("t", "B", squares=[(5, 12)])],
                       singles=[single("ogre", "B", kind="monster", at=(6, 6))])
    ogre = who(state, "ogre")
    order = Order.parse("sattack ogre machine:g")
    assert order in singles.turn_options(state, ogre)
    battle = make_battle(state, dice=[10, 5])  # 10 + 9 hits; 5 + 3 = 8, less 5
    singles.take(state, battle, ogre, order)
    assert state.machines["g"].hp == 80 - 3
    far = make_state([unit("g", siege_weapon="ballista"), unit("t", "B", squares=[(5, 12)])],
                     singles=[single("ogre", "B", kind="monster", at=(7, 7))])
    assert order not in singles.turn_options(far, who(far, "ogre"))


@pytest.mark.rule("W35-AMB-88")
def test_a_blow_below_hardness_does_nothing() -> None:
    state = make_state([unit("g", siege_weapon="ballista"), unit("t", "B", squares=[(5, 12)])])
    battle = make_battle(state)
    assert machines.hit_machine(state, battle, get(state, "g"), 5, 10, source="t") == 0
    assert state.machines["g"].hp == 80 and events(battle, "machine_unharmed")


@pytest.mark.rule("W35-SWU-04")
def test_a_destroyed_weapon_makes_a_standard_unit_that_checks_morale_at_dc_15() -> None:
    for die, routed in ((1, True), (20, False)):
        state = make_state([unit("g", siege_weapon="ballista"),
                            unit("t", "B", squares=[(5, 12)])])
        g = get(state, "g")
        state.machines["g"].hp = 4
        battle = make_battle(state, dice=[die])
        assert machines.hit_machine(state, battle, g, 30, 1, source="t") == 4
        assert g.machine is None and machines.machine_of(state, "g") is None
        assert events(battle, "machine_destroyed")
        assert "siege_weapon_lost" in g.pending
        morale.morale_step(state, battle, g)
        assert events(battle, "morale_check")[0]["dc"] == 15
        assert (g.status == ROUTED) is routed
        if not routed:
            assert not [o for o in actions.legal_actions(state, g)
                        if o.kind in ("load", "siege_fire")]


@pytest.mark.rule("W35-TOWER-14")
def test_a_destroyed_tower_checks_morale_at_dc_20() -> None:
    state = make_state([unit("tw"), unit("t", "B", squares=[(5, 12)])])
    tw = get(state, "tw")
    tw.machine = "tower"
    machines.register(state, tw, Machine("tower", "tower", 10, 100, 3, 5, (5, 5)))
    battle = make_battle(state, dice=[20])
    machines.hit_machine(state, battle, tw, 15, 2, source="t")  # (15 - 5) x 2 = 20 > 10
    assert tw.machine is None and "tower_lost" in tw.pending
    morale.morale_step(state, battle, tw)
    assert events(battle, "morale_check")[0]["dc"] == 20


def test_the_figure_follows_its_unit_to_the_nearest_counter() -> None:
    state = _ringed(unit("t", "B", squares=[(5, 20)]))
    g = get(state, "g")
    state.remove_counters(g, {(5, 5)})
    machine = machines.machine_of(state, "g")
    assert machine is not None and machine.square == (4, 4)  # nearest, then lowest


def test_the_ai_values_a_volley_at_a_machine() -> None:
    state = _ringed(unit("arch", "B", squares=[(5, 12)], creature=BOWS))
    value = machines.ai_value(state, get(state, "arch"), Order.parse("shoot_machine arch g"))
    # hits on 2..20 (19/20), mean 1d8 = 4 (floor) - 5 hardness: nothing
    assert value == 0.0
    swords = creature(ranged=[{"bonus": 3, "damage": "2d8", "range_increment": 60}])
    state = _ringed(unit("arch", "B", squares=[(5, 12)], creature=swords))
    value = machines.ai_value(state, get(state, "arch"), Order.parse("shoot_machine arch g"))
    assert value == pytest.approx(19 / 20 * (9 - 5) * 3)


@pytest.mark.rule("W35-AMB-97")
def test_a_creature_that_fought_its_way_inside_may_strike_the_weapon() -> None:
    state = make_state([unit("g", squares=block(3, 5, 5, 1), siege_weapon="ballista"),
                        unit("t", "B", squares=[(5, 12)])],
                       singles=[single("ogre", "B", kind="monster", at=(9, 9))])
    ogre = who(state, "ogre")
    assert state.machines["g"].square == (5, 5)
    state.put_single(ogre, None)
    ogre.square, ogre.inside = (7, 5), "g"  # two counters from the weapon, inside its unit
    assert Order.parse("sattack ogre machine:g") in singles.turn_options(state, ogre)
    ogre.inside = None
    assert Order.parse("sattack ogre machine:g") not in singles.turn_options(state, ogre)


def test_the_figure_moves_with_its_formation() -> None:
    state = make_state([unit("g", squares=block(4, 5, 3, 1), siege_weapon="ballista"),
                        unit("t", "B", squares=[(5, 20)])])
    state.place(get(state, "g"), {(x + 1, 5) for x in range(4, 7)})  # one square east
    machine = machines.machine_of(state, "g")
    assert machine is not None and machine.square == (6, 5)  # still the middle counter
