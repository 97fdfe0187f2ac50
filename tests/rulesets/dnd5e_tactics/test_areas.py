"""Area effects on units: template placement over the formation, saves by the divisor table,
average damage, lingering disadvantage, duels and the scenario options (combat.py).

The Fireball of the Battle Mage: a 20 ft (2 in) sphere, range 150 ft, DEX save DC 15, 8d6
(average 28, half on a save). Aimed at a Close Stance Thug unit 85 ft away it covers 16 of
the 20 members: 8 a rank (centres within 2 in of the unit's centre), see
:func:`test_formation_decides_how_many_members_are_covered`.
"""

from __future__ import annotations

from typing import Any

import pytest

from warhost.rulesets.dnd5e_tactics import combat

from .c_helpers import FAR, MAGE, THUG, ctx_of, duo, stats
from .helpers import events, scenario, unit, unit_spec


def fireball(dc: int = 15, **changes: Any) -> dict[str, Any]:
    spec = {"name": "Fireball", "shape": "sphere", "size": 20, "range": 150, "save": "dex",
            "dc": dc, "damage": "8d6", "damage_type": "fire"}
    spec.update(changes)
    return spec


def caster(**changes: Any) -> dict[str, Any]:
    """A Battle Mage whose Fireball is changed as given (unlimited uses)."""
    return stats(MAGE, areas=[fireball(**changes)])


def cast(ctx, by_commander: bool = True) -> int:  # type: ignore[no-untyped-def]
    return combat.area_effect(ctx, unit(ctx, "a"), "Fireball", unit(ctx, "b"),
                              by_commander=by_commander)


def area_event(ctx) -> dict[str, Any]:  # type: ignore[no-untyped-def]
    (event,) = events(ctx, "area")
    return event


# --------------------------------------------------------------------------- placement


@pytest.mark.rule("T5-AREA-01", "T5-AREA-02", "T5-AREA-03", "T5-AMB-09", "T5-AMB-24")
@pytest.mark.parametrize(("stance", "covered"), [("close", 16), ("open", 8)])
def test_formation_decides_how_many_members_are_covered(stance: str, covered: int) -> None:
    """Close: centres 5 ft apart, 8 a rank within 2 in of the centre (|dx| <= 1.75).
    Open: centres 10 ft apart, 4 a rank (|dx| <= 1.5)."""
    ctx = ctx_of(duo({"commander": MAGE}, {"stance": stance}, b_at=FAR), dice=[1])
    cast(ctx)
    assert area_event(ctx)["covered"] == covered


@pytest.mark.rule("T5-AMB-24")
def test_a_centre_out_of_range_moves_toward_the_user() -> None:
    """B's centre 26.5 in north is beyond 150 ft of A's front edge (10.5 in): the sphere's
    centre stops at 25.5 in. Front rank (26.25): |dx| <= 1.75, 8; back rank (26.75):
    |dx| <= 1.25, 6; 14 in all."""
    ctx = ctx_of(duo({"commander": MAGE}, b_at=(24.0, 26.5)), dice=[1])
    a, b = unit(ctx, "a"), unit(ctx, "b")
    template, covered = combat.place_area(ctx.state, a, combat.area_spec(a, "Fireball", True), b)
    assert covered == 14
    assert template is not None and template.centroid.y == pytest.approx(25.5, abs=1e-6)
    far = ctx_of(duo({"commander": MAGE}, b_at=(24.0, 30.0)))
    assert combat.area_targets(far, unit(far, "a"), "Fireball", by_commander=True) == []


@pytest.mark.rule("T5-AMB-24")
@pytest.mark.parametrize(("b_at", "covered"), [((24.0, 11.0), 8), ((24.0, 12.0), 4)])
def test_a_cube_starts_on_the_users_edge(b_at: tuple[float, float], covered: int) -> None:
    """Thunderwave, a 15 ft cube from A's front edge toward B: x 23.25..24.75 (4 files),
    y 10.5..12.0 (both ranks when touching, the front rank only 5 ft further off)."""
    wave = stats(MAGE, areas=[{"name": "Thunderwave", "shape": "cube", "size": 15,
                               "save": "con", "dc": 15, "damage": "2d8"}])
    ctx = ctx_of(duo({"commander": wave}, b_at=b_at))
    a, b = unit(ctx, "a"), unit(ctx, "b")
    assert combat.place_area(ctx.state, a, combat.area_spec(a, "Thunderwave", True),
                             b)[1] == covered


@pytest.mark.rule("T5-AMB-24", "T5-AREA-07", "T5-MOUNT-02")
def test_the_count_is_capped_at_the_members_and_never_includes_the_commander() -> None:
    """A 100 ft sphere covers every member square; the commander is not a target, and its
    hit points are untouched (T5-AREA-08)."""
    ctx = ctx_of(duo({"commander": caster(size=100)}, b_at=FAR), dice=[6])
    cast(ctx)
    assert area_event(ctx)["covered"] == 20
    assert unit(ctx, "b").commander.hp == 52


@pytest.mark.rule("T5-AMB-24")
def test_declared_counts_are_asked_of_the_users_side() -> None:
    ctx = ctx_of(duo({"commander": MAGE}, b_at=FAR, aoe_targets="declared"), dice=[1],
                 orders={"A": ["count 5"]})
    cast(ctx)
    assert area_event(ctx)["covered"] == 5
    decision = [e for e in events(ctx, "decision") if e["kind"] == "aoe_count"]
    assert decision and decision[0]["order"] == "count 5"


# --------------------------------------------------------------------------- saves and damage


@pytest.mark.rule("T5-AREA-04", "T5-AREA-05", "T5-AMB-25")
@pytest.mark.parametrize("face", [1, 2, 3, 4, 5, 6])
def test_saves_by_the_divisor_table_and_average_damage(face: int) -> None:
    """Needed 15 (DC 15, DEX +0), row 15-16: 6, 5, 4, 4, 3, 2. Failures take 28, successes
    14."""
    ctx = ctx_of(duo({"commander": MAGE}, b_at=FAR), dice=[face])
    damage = cast(ctx)
    event = area_event(ctx)
    div = (6, 5, 4, 4, 3, 2)[face - 1]
    ok = -(-16 // div)
    assert (event["needed"], event["divisor"], event["successes"]) == (15, div, ok)
    assert event["failures"] == 16 - ok
    assert damage == (16 - ok) * 28 + ok * 14 == unit(ctx, "b").tdr
    assert unit(ctx, "b").members == 20


@pytest.mark.rule("T5-AMB-25")
def test_no_damage_on_a_save_when_the_effect_says_so() -> None:
    ctx = ctx_of(duo({"commander": caster(on_save="none")}, b_at=FAR), dice=[1])
    assert cast(ctx) == 13 * 28


@pytest.mark.rule("T5-TACTICS-09", "T5-AMB-25", "T5-TACTICS-10", "T5-AREA-05")
@pytest.mark.parametrize(("track", "rank", "needed", "full"), [
    ("defensive", 0, 13, 28),     # -2 Atk lowers the DC
    ("aggressive", 0, 17, 28),    # +2 Atk raises it
    ("vicious", 0, 15, 30),       # +2 Dmg on the average
    ("supporting", -3, 14, 26),   # -1 Atk, -2 Dmg
])
def test_a_units_track_changes_its_area_dc_and_damage(track: str, rank: int, needed: int,
                                                      full: int) -> None:
    model = duo({"member": caster(), "members": 5, "track": track}, b_at=FAR)
    ctx = ctx_of(model, dice=[6])
    unit(ctx, "a").rank = rank
    cast(ctx, by_commander=False)
    event = area_event(ctx)
    assert event["needed"] == needed
    ok = event["successes"]
    assert event["damage"] == event["failures"] * full + ok * (full // 2)


@pytest.mark.rule("T5-AMB-07", "T5-EXEMPT-02")
def test_a_commanders_area_ignores_its_units_track() -> None:
    ctx = ctx_of(duo({"commander": MAGE, "track": "vicious"}, b_at=FAR), dice=[1])
    ctx2 = ctx_of(duo({"commander": MAGE, "track": "aggressive"}, b_at=FAR), dice=[1])
    assert cast(ctx) == cast(ctx2) == 13 * 28 + 3 * 14
    assert area_event(ctx)["needed"] == 15


@pytest.mark.rule("T5-AMB-20")
@pytest.mark.parametrize(("dc", "mode", "dice", "ok"), [
    (1, "raw", [], 16),          # needed 1: everyone saves, no die
    (25, "raw", [], 0),          # needed 25: nobody saves, no die
    (1, "clamp", [1], 8),        # row 1-5, d6 1: divisor 2
    (25, "clamp", [1], 1),       # row 20, d6 1: divisor 20
])
def test_save_extremes(dc: int, mode: str, dice: list[int], ok: int) -> None:
    ctx = ctx_of(duo({"commander": caster(dc=dc)}, b_at=FAR, save_extremes=mode), dice=dice)
    damage = cast(ctx)
    event = area_event(ctx)
    assert event["successes"] == ok
    assert damage == (16 - ok) * 28 + ok * 14
    assert (event["d6"] is None) == (mode == "raw")


@pytest.mark.rule("T5-TERRAIN-10", "T5-TERRAIN-06")
def test_cover_adds_to_dex_saves() -> None:
    wood = {"kind": "forest", "rect": [20, 18, 8, 4]}
    ctx = ctx_of(duo({"commander": MAGE}, b_at=FAR, terrain=[wood]), dice=[1])
    cast(ctx)
    assert area_event(ctx)["needed"] == 15 - 2


@pytest.mark.rule("T5-AMB-21", "T5-GEN-02")
def test_dodging_gives_advantage_on_dex_saves() -> None:
    ctx = ctx_of(duo({"commander": MAGE}, b_at=FAR), dice=[1])
    unit(ctx, "b").dodging = True
    cast(ctx)
    assert area_event(ctx)["needed"] == 15 - 5


@pytest.mark.rule("T5-AMB-23")
def test_resistance_to_the_areas_damage_type() -> None:
    ctx = ctx_of(duo({"commander": MAGE}, {"member": stats(THUG, resistances=["fire"])},
                     b_at=FAR), dice=[1])
    assert cast(ctx) == (13 * 28 + 3 * 14) // 2


# --------------------------------------------------------------------------- lingering effects


@pytest.mark.rule("T5-AREA-06", "T5-AMB-27")
def test_lingering_effect_becomes_disadvantage_next_round() -> None:
    ctx = ctx_of(duo({"commander": caster(lingering=True)}, b_at=FAR), dice=[1])
    b = unit(ctx, "b")
    cast(ctx)
    assert b.disadvantage_round == 2
    assert not combat.has_disadvantage(ctx, b, "attack")
    ctx.state.round = 2
    assert combat.has_disadvantage(ctx, b, "attack")
    assert combat.has_disadvantage(ctx, b, "save")
    assert not combat.has_disadvantage(ctx, b, "morale")
    ctx.state.round = 3
    assert not combat.has_disadvantage(ctx, b, "attack")


@pytest.mark.rule("T5-AMB-27")
@pytest.mark.parametrize(("scope", "kinds"), [
    ("attacks_only", {"attack"}),
    ("attacks_and_saves", {"attack", "save"}),
    ("all_d20", {"attack", "save", "morale"}),
])
def test_lingering_disadvantage_scope(scope: str, kinds: set[str]) -> None:
    ctx = ctx_of(duo(lingering_disadvantage_scope=scope))
    b = unit(ctx, "b")
    b.disadvantage_round = ctx.state.round
    assert {k for k in ("attack", "save", "morale") if combat.has_disadvantage(ctx, b, k)} \
        == kinds


@pytest.mark.rule("T5-AMB-27", "T5-AMB-21")
def test_lingering_disadvantage_worsens_saves_once() -> None:
    ctx = ctx_of(duo({"commander": MAGE}, b_at=FAR), dice=[1])
    unit(ctx, "b").disadvantage_round = ctx.state.round
    cast(ctx)
    assert area_event(ctx)["needed"] == 15 + 5


# --------------------------------------------------------------------------- who is affected


@pytest.mark.rule("T5-AREA-09", "T5-DUEL-02", "T5-AREA-08")
def test_a_dueling_commanders_area_hits_only_the_opposing_commander() -> None:
    """The Knight's DEX save is +0: a 5 fails, taking the average 28 at once; no unit is
    touched."""
    ctx = ctx_of(duo({"commander": MAGE}), dice=[5])
    a, b = unit(ctx, "a"), unit(ctx, "b")
    combat.start_duel(ctx, a, b)
    assert combat.area_targets(ctx, a, "Fireball", by_commander=True) == [b]
    damage = combat.area_effect(ctx, a, "Fireball", b, by_commander=True)
    assert damage == 28
    assert b.commander.hp == 52 - 28 and b.tdr == 0 and a.tdr == 0
    assert area_event(ctx)["duel"] is True


@pytest.mark.rule("T5-AREA-09")
def test_a_dueling_commanders_area_cannot_be_aimed_elsewhere() -> None:
    model = scenario({"A": [unit_spec("a", (24.0, 10.0), commander=MAGE)],
                      "B": [unit_spec("b", (24.0, 11.0)), unit_spec("c", FAR)]})
    ctx = ctx_of(model)
    a, b, c = unit(ctx, "a"), unit(ctx, "b"), unit(ctx, "c")
    combat.start_duel(ctx, a, b)
    with pytest.raises(ValueError):
        combat.area_effect(ctx, a, "Fireball", c, by_commander=True)


@pytest.mark.rule("T5-AREA-09", "T5-AREA-07")
def test_a_save_made_in_a_duel_halves_the_average() -> None:
    ctx = ctx_of(duo({"commander": MAGE}), dice=[15])
    a, b = unit(ctx, "a"), unit(ctx, "b")
    combat.start_duel(ctx, a, b)
    assert combat.area_effect(ctx, a, "Fireball", b, by_commander=True) == 14


@pytest.mark.rule("T5-AMB-26")
@pytest.mark.parametrize(("per_member", "effects"), [(False, 1), (True, 3)])
def test_unit_area_is_one_effect_unless_per_member(per_member: bool, effects: int) -> None:
    ctx = ctx_of(duo({"member": caster(), "members": 3}, b_at=FAR,
                     unit_aoe_per_member=per_member), dice=[1, 1, 1])
    damage = cast(ctx, by_commander=False)
    assert len(events(ctx, "area")) == effects
    assert damage == effects * events(ctx, "area")[0]["damage"]


@pytest.mark.rule("T5-AMB-26", "T5-AREA-01")
def test_limited_uses_of_a_units_area() -> None:
    """The Battle Mage's Fireball has 2 uses: the unit's members share them."""
    ctx = ctx_of(duo({"member": MAGE, "members": 3}, b_at=FAR), dice=[1, 1])
    a = unit(ctx, "a")
    assert combat.area_uses_left(a, "Fireball", False) == 2
    cast(ctx, by_commander=False)
    cast(ctx, by_commander=False)
    assert combat.area_uses_left(a, "Fireball", False) == 0
    with pytest.raises(ValueError):
        cast(ctx, by_commander=False)


@pytest.mark.rule("T5-AREA-04", "T5-AMB-22")
def test_expected_area_damage_is_exact_over_the_d6() -> None:
    """Row 15-16 successes among 16: 3, 4, 4, 4, 6, 8."""
    ctx = ctx_of(duo({"commander": MAGE}, b_at=FAR))
    expected = combat.expected_area_damage(ctx, unit(ctx, "a"), "Fireball", unit(ctx, "b"),
                                           by_commander=True)
    ok = (3, 4, 4, 4, 6, 8)
    assert expected == pytest.approx(sum((16 - s) * 28 + s * 14 for s in ok) / 6)
