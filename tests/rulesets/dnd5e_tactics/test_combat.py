"""Unit attacks by the divisor table, damage pooling, Tactics and Stance modifiers in attacks,
mounts, ranged rules, resistances and healing (combat.py)."""

from __future__ import annotations

import pytest

from warhost.core.dice import DiceExhaustedError
from warhost.rulesets.dnd5e_tactics import combat
from warhost.rulesets.dnd5e_tactics.tables import TACTICS, divisor

from .c_helpers import FAR, THUG, ctx_of, duo, mace_only, stats
from .helpers import ARCHER, events, unit


def attack_events(ctx):  # type: ignore[no-untyped-def]
    return events(ctx, "unit_attack")


# --------------------------------------------------------------------------- number of hits


@pytest.mark.rule("T5-ATTACK-04", "T5-TACTICS-07", "T5-TACTICS-08", "T5-STANCE-01")
def test_needed_roll_is_member_ac_minus_attack_bonus() -> None:
    """Thug (+4 mace, Defensive -2 Atk) against a Thug in Close Stance on Defensive:
    AC 11 + 1 (Shield Wall) + 2 (Defensive) = 14, bonus 4 - 2 = 2, so 12 is needed."""
    ctx = ctx_of(duo())
    a, b = unit(ctx, "a"), unit(ctx, "b")
    mace = a.member.attacks[0]
    assert combat.needed_roll(ctx, a, mace, b, "melee") == 12
    terms = combat.unit_attack_terms(ctx.state, a, mace, b)
    assert (terms.ac, terms.bonus, terms.edge) == (14, 2, 0)


@pytest.mark.rule("T5-TACTICS-07", "T5-TACTICS-08", "T5-TACTICS-04", "T5-TACTICS-06")
def test_track_modifiers_change_target_ac_and_attack_bonus() -> None:
    """Aggressive attacker (+2 Atk) against a Vicious target (-1 AC) in Open Stance:
    AC 11 + 0 - 1 = 10, bonus 4 + 2 = 6, needed 4."""
    ctx = ctx_of(duo({"track": "aggressive"}, {"track": "vicious", "stance": "open"}))
    a, b = unit(ctx, "a"), unit(ctx, "b")
    assert combat.needed_roll(ctx, a, a.member.attacks[0], b) == 10 - 6


@pytest.mark.rule("T5-STANCE-01", "T5-REF-03")
def test_shield_wall_adds_one_ac_only_in_close_stance() -> None:
    close = ctx_of(duo(None, {"stance": "close"}))
    open_ = ctx_of(duo(None, {"stance": "open"}))
    needed = [combat.needed_roll(c, unit(c, "a"), unit(c, "a").member.attacks[0], unit(c, "b"))
              for c in (close, open_)]
    assert needed[0] == needed[1] + 1


@pytest.mark.rule("T5-ATTACK-01", "T5-ATTACK-03", "T5-AMB-19")
@pytest.mark.parametrize(("members", "eligible"), [(25, 20), (20, 20), (12, 12), (1, 1)])
def test_close_stance_eligible_attackers(members: int, eligible: int) -> None:
    """Close Stance: min(20, members); the commander is never one of them."""
    ctx = ctx_of(duo({"members": members, "member": mace_only()}), dice=[6])
    combat.unit_attack_action(ctx, unit(ctx, "a"), unit(ctx, "b"), "melee")
    (event,) = attack_events(ctx)
    assert event["eligible"] == eligible
    assert event["hits"] == eligible  # needed 12, d6 = 6: divisor 1


@pytest.mark.rule("T5-ATTACK-02", "T5-STANCE-04", "T5-REF-03")
@pytest.mark.parametrize(("members", "eligible"), [(40, 30), (30, 30), (25, 25)])
def test_open_stance_skirmishers_raise_the_cap_to_30(members: int, eligible: int) -> None:
    ctx = ctx_of(duo({"members": members, "member": mace_only(), "stance": "open"},
                     b_at=(24.0, 11.5)), dice=[6])
    a, b = unit(ctx, "a"), unit(ctx, "b")
    assert ctx.state.engaged(a, b)
    combat.unit_attack_action(ctx, a, b, "melee")
    assert attack_events(ctx)[0]["eligible"] == eligible


@pytest.mark.rule("T5-ATTACK-06", "T5-ATTACK-07", "T5-ATTACK-08")
@pytest.mark.parametrize("face", [1, 2, 3, 4, 5, 6])
def test_d6_picks_the_divisor_column_and_hits_round_up(face: int) -> None:
    """Needed 12 reads row 6-12 (3, 2, 2, 2, 2, 1): hits = ceil(20 / divisor)."""
    ctx = ctx_of(duo({"member": mace_only()}), dice=[face])
    damage = combat.unit_attack_action(ctx, unit(ctx, "a"), unit(ctx, "b"), "melee")
    (event,) = attack_events(ctx)
    expected_div = (3, 2, 2, 2, 2, 1)[face - 1]
    assert (event["needed"], event["d6"], event["divisor"]) == (12, face, expected_div)
    assert event["hits"] == -(-20 // expected_div)
    assert damage == event["hits"] * 8


@pytest.mark.rule("T5-ATTACK-08")
def test_seed_example_twenty_attackers_divisor_six_score_four() -> None:
    """Needed 15 (row 15-16), d6 = 1: divisor 6, 20 / 6 rounds up to 4."""
    ctx = ctx_of(duo({"member": mace_only()}, {"member": stats(THUG, ac=14)}), dice=[1])
    combat.unit_attack_action(ctx, unit(ctx, "a"), unit(ctx, "b"), "melee")
    event = attack_events(ctx)[0]
    assert (event["needed"], event["divisor"], event["hits"]) == (15, 6, 4)


@pytest.mark.rule("T5-AMB-20", "T5-ATTACK-07")
@pytest.mark.parametrize(("bonus", "face", "needed", "div"), [
    (12, 1, 4, 2),      # needed 4: row 1-5
    (29, 1, -13, 2),    # far below 1: still row 1-5 (a natural 1 always misses)
    (-15, 5, 31, 15),   # 31: row 20 (a natural 20 always hits)
    (-15, 6, 31, 10),
])
def test_attack_needed_rolls_outside_the_table_clamp(bonus: int, face: int, needed: int,
                                                     div: int) -> None:
    """Needed = 14 - (bonus - 2) against a Close, Defensive Thug."""
    member = stats(THUG, attacks=[{"name": "Mace", "bonus": bonus, "damage": "1d6+2"}],
                   multiattack=[])
    ctx = ctx_of(duo({"member": member}), dice=[face])
    combat.unit_attack_action(ctx, unit(ctx, "a"), unit(ctx, "b"), "melee")
    event = attack_events(ctx)[0]
    assert event["needed"] == needed
    assert event["row"] == min(20, max(1, needed))
    assert event["divisor"] == div
    assert event["hits"] == -(-20 // div)


# --------------------------------------------------------------------------- damage


@pytest.mark.rule("T5-DAMAGE-01", "T5-AMB-23")
def test_seed_example_ten_hits_of_six_are_sixty() -> None:
    """A 1d6 weapon: maximum 6; 10 hits (needed 12, d6 = 2, divisor 2) deal 60."""
    ctx = ctx_of(duo({"member": mace_only("1d6")}), dice=[2])
    assert combat.unit_attack_action(ctx, unit(ctx, "a"), unit(ctx, "b"), "melee") == 60
    assert unit(ctx, "b").tdr == 60


@pytest.mark.rule("T5-DAMAGE-02", "T5-TACTICS-10", "T5-TACTICS-06")
def test_vicious_dmg_modifier_applies_to_every_hit() -> None:
    """Vicious rank 0: +2 Dmg, so a 1d6+2 mace deals 10 a hit; 10 hits = 100."""
    ctx = ctx_of(duo({"member": mace_only(), "track": "vicious"}), dice=[2])
    a, b = unit(ctx, "a"), unit(ctx, "b")
    needed = combat.needed_roll(ctx, a, a.member.attacks[0], b)
    assert needed == 14 - 4  # Vicious has no Atk modifier
    combat.unit_attack_action(ctx, a, b, "melee")
    assert attack_events(ctx)[0]["per_hit"] == 10
    assert b.tdr == attack_events(ctx)[0]["hits"] * 10


@pytest.mark.rule("T5-DAMAGE-02", "T5-AMB-23", "T5-TACTICS-03")
def test_negative_dmg_never_takes_a_hit_below_zero() -> None:
    """Defensive rank -3: -2 Dmg; a weapon of maximum 1 deals 0 a hit, not -1."""
    ctx = ctx_of(duo({"member": mace_only("1")}), dice=[6])
    a = unit(ctx, "a")
    a.rank = -3
    assert combat.unit_attack_action(ctx, a, unit(ctx, "b"), "melee") == 0
    assert attack_events(ctx)[0]["per_hit"] == 0


@pytest.mark.rule("T5-DAMAGE-03", "T5-DAMAGE-05", "T5-AMB-22")
def test_multiattack_resolves_each_attack_with_its_own_d6() -> None:
    """Thug Multiattack (Mace, Mace): d6 1 then 6 give 7 and 20 hits, 56 + 160 = 216."""
    ctx = ctx_of(duo(), dice=[1, 6])
    total = combat.unit_attack_action(ctx, unit(ctx, "a"), unit(ctx, "b"), "melee")
    hits = [e["hits"] for e in attack_events(ctx)]
    assert [e["d6"] for e in attack_events(ctx)] == [1, 6]
    assert hits == [7, 20]
    assert total == 216 == unit(ctx, "b").tdr


@pytest.mark.rule("T5-DAMAGE-07", "T5-DAMAGE-08")
def test_damage_pools_in_the_tdr_and_kills_no_one_during_the_round() -> None:
    ctx = ctx_of(duo({"member": mace_only()}), dice=[6, 6])
    a, b = unit(ctx, "a"), unit(ctx, "b")
    b.tdr = 5
    combat.unit_attack_action(ctx, a, b, "melee")
    combat.unit_attack_action(ctx, a, b, "melee")
    assert b.tdr == 5 + 2 * 20 * 8
    assert b.members == 20


@pytest.mark.rule("T5-TACTICS-12", "T5-AMB-52")
def test_a_rank_change_applies_to_the_next_roll_at_once() -> None:
    """Defensive Atk is -2 at rank +1, -1 at +2 and 0 at +3."""
    ctx = ctx_of(duo())
    a, b = unit(ctx, "a"), unit(ctx, "b")
    mace = a.member.attacks[0]
    seen = []
    for _ in range(3):
        seen.append(combat.needed_roll(ctx, a, mace, b))
        ctx.change_rank(a, 1, "test")
    assert seen == [12, 12, 11]
    assert combat.needed_roll(ctx, a, mace, b) == 10


@pytest.mark.rule("T5-AMB-23")
@pytest.mark.parametrize(("field", "expected"), [
    ("resistances", 7 * 7 // 2), ("vulnerabilities", 7 * 7 * 2), ("immunities", 0)])
def test_resistance_applies_to_each_resolution_rounding_down(field: str, expected: int) -> None:
    """7 hits of a 1d6+1 club (49) against bludgeoning resistance: 24 (rounded down)."""
    target = stats(THUG, **{field: ["bludgeoning"]})
    ctx = ctx_of(duo({"member": mace_only("1d6+1")}, {"member": target}), dice=[1])
    assert combat.unit_attack_action(ctx, unit(ctx, "a"), unit(ctx, "b"), "melee") == expected


# --------------------------------------------------------------------------- split and targets


@pytest.mark.rule("T5-AMB-19")
def test_split_attacks_resolve_one_by_one_on_different_targets() -> None:
    """``resolve_unit_attack`` lets the turn send each resolution to its own target."""
    from .helpers import scenario, unit_spec

    model = scenario({"A": [unit_spec("a", (24.0, 10.0))],
                      "B": [unit_spec("b", (24.0, 11.0)), unit_spec("c", (29.5, 10.0))]},
                     split_attacks=True)
    ctx = ctx_of(model, dice=[6, 1])
    a, b, c = unit(ctx, "a"), unit(ctx, "b"), unit(ctx, "c")
    assert {t.id for t in combat.legal_targets(ctx, a, "melee")} == {"b", "c"}
    first, second = combat.unit_routine(a, "melee")
    combat.resolve_unit_attack(ctx, a, b, first)
    combat.resolve_unit_attack(ctx, a, c, second)
    assert (b.tdr, c.tdr) == (160, 56)


@pytest.mark.rule("T5-AMB-19", "T5-DAMAGE-05")
def test_one_attack_action_sends_every_resolution_to_one_target() -> None:
    ctx = ctx_of(duo(), dice=[6, 6])
    combat.unit_attack_action(ctx, unit(ctx, "a"), unit(ctx, "b"), "melee")
    assert {e["target"] for e in attack_events(ctx)} == {"b"}


@pytest.mark.rule("T5-AMB-10")
def test_melee_needs_engagement() -> None:
    ctx = ctx_of(duo(b_at=FAR))
    a, b = unit(ctx, "a"), unit(ctx, "b")
    assert combat.legal_targets(ctx, a, "melee") == []
    assert "not engaged" in str(combat.why_not_unit(ctx.state, a, b, "melee") or "")


@pytest.mark.rule("T5-AMB-12")
@pytest.mark.parametrize(("option", "resolutions"), [(True, 2), (False, 1)])
def test_charge_attack_routine_follows_charge_multiattack(option: bool,
                                                          resolutions: int) -> None:
    ctx = ctx_of(duo(charge_multiattack=option), dice=[6, 6])
    combat.unit_attack_action(ctx, unit(ctx, "a"), unit(ctx, "b"), "melee", charge=True)
    assert len(attack_events(ctx)) == resolutions


# --------------------------------------------------------------------------- advantage


@pytest.mark.rule("T5-ATTACK-05", "T5-AMB-21")
def test_disadvantage_counts_minus_five_and_never_stacks() -> None:
    """A dodging target and a lingering effect are two sources of disadvantage: -5 once."""
    ctx = ctx_of(duo())
    a, b = unit(ctx, "a"), unit(ctx, "b")
    mace = a.member.attacks[0]
    base = combat.needed_roll(ctx, a, mace, b)
    b.dodging = True
    assert combat.needed_roll(ctx, a, mace, b) == base + 5
    a.disadvantage_round = ctx.state.round
    assert combat.needed_roll(ctx, a, mace, b) == base + 5
    terms = combat.unit_attack_terms(ctx.state, a, mace, b, extra_advantage=True)
    assert terms.needed == base  # advantage and disadvantage cancel
    assert combat.unit_attack_terms(ctx.state, a, mace, b, extra_advantage=True,
                                    extra_disadvantage=False).edge == 0


# --------------------------------------------------------------------------- terrain and cover


RUINS = {"name": "Old Keep", "kind": "ruins", "rect": [20, 18, 8, 4]}
FOREST = {"name": "Dark Wood", "kind": "forest", "rect": [20, 18, 8, 4]}
FIELD = {"name": "Wheat", "kind": "field", "rect": [20, 13, 8, 3]}
WALL_OF_TREES = {"name": "Hedge Wood", "kind": "forest", "rect": [20, 13, 8, 3]}
WALL_OF_RUINS = {"name": "Broken Wall", "kind": "ruins", "rect": [20, 13, 8, 3]}


def shooters(terrain, b_at=FAR, a_member=THUG, **options):  # type: ignore[no-untyped-def]
    return ctx_of(duo({"member": a_member}, b_at=b_at, terrain=terrain, **options))


@pytest.mark.rule("T5-TERRAIN-03", "T5-TERRAIN-06", "T5-TERRAIN-10", "T5-AMB-02")
@pytest.mark.parametrize("piece", [RUINS, FOREST])
def test_a_unit_inside_ruins_or_forest_has_half_cover(piece) -> None:  # type: ignore[no-untyped-def]
    """Inside is judged by the footprint centre; half cover is +2 AC."""
    open_ground = shooters([])
    covered = shooters([piece])
    bow = unit(open_ground, "a").member.attacks[1]
    base = combat.needed_roll(open_ground, unit(open_ground, "a"), bow, unit(open_ground, "b"))
    assert combat.cover(covered, unit(covered, "a"), unit(covered, "b"), "ranged",
                        by_unit=True) == combat.HALF
    assert combat.needed_roll(covered, unit(covered, "a"), bow, unit(covered, "b")) == base + 2
    # melee against a unit inside counts too (our ruling)
    assert combat.cover(covered, None, unit(covered, "b"), "melee", by_unit=True) == combat.HALF
    # the centre just outside: no cover
    unit(covered, "b").centre = (24.0, 17.9)
    assert combat.cover(covered, unit(covered, "a"), unit(covered, "b"), "ranged",
                        by_unit=True) == combat.NO_COVER


@pytest.mark.rule("T5-TERRAIN-04", "T5-TERRAIN-10", "T5-AMB-02")
def test_ruins_bonus_action_gives_three_quarters_cover_only_inside_ruins() -> None:
    ctx = shooters([RUINS])
    a, b = unit(ctx, "a"), unit(ctx, "b")
    bow = a.member.attacks[1]
    half = combat.needed_roll(ctx, a, bow, b)
    b.three_quarter_cover = True
    assert combat.needed_roll(ctx, a, bow, b) == half + 3  # +5 instead of +2: no stacking
    forest = shooters([FOREST])
    fb = unit(forest, "b")
    fb.three_quarter_cover = True  # a flag outside Ruins gives nothing more
    assert combat.cover(forest, unit(forest, "a"), fb, "ranged", by_unit=True) == combat.HALF


@pytest.mark.rule("T5-TERRAIN-05", "T5-TERRAIN-07", "T5-AMB-02")
@pytest.mark.parametrize("piece", [WALL_OF_RUINS, WALL_OF_TREES])
def test_no_shot_across_ruins_or_forest(piece) -> None:  # type: ignore[no-untyped-def]
    ctx = shooters([piece])
    a, b = unit(ctx, "a"), unit(ctx, "b")
    assert combat.legal_targets(ctx, a, "ranged") == []
    refusal = combat.why_not_unit(ctx.state, a, b, "ranged")
    assert refusal is not None and piece["name"] in refusal.reason
    assert refusal.rule == {"ruins": "T5-TERRAIN-05", "forest": "T5-TERRAIN-07"}[piece["kind"]]
    # a commander's shot is blocked as well
    crossbow = a.member.attacks[1]
    blocked = combat.shot_blocked(ctx.state, a, b)
    assert blocked is not None and blocked.name == piece["name"]
    assert combat.why_not_character(ctx.state, a, crossbow, b) is not None
    # the target standing inside the piece is not "on the other side"
    b.centre = (24.0, 14.5)
    assert combat.why_not_unit(ctx.state, a, b, "ranged") is None


@pytest.mark.rule("T5-TERRAIN-08", "T5-TERRAIN-10")
def test_a_field_between_gives_the_target_half_cover_against_shots() -> None:
    ctx = shooters([FIELD])
    a, b = unit(ctx, "a"), unit(ctx, "b")
    assert combat.legal_targets(ctx, a, "ranged") == [b]
    assert combat.cover(ctx, a, b, "ranged", by_unit=True) == combat.HALF
    assert combat.cover(ctx, a, b, "melee", by_unit=True) == combat.NO_COVER
    # a target inside Forest behind a Field: still half cover only (best one counts)
    both = shooters([FIELD, FOREST])
    assert combat.cover(both, unit(both, "a"), unit(both, "b"), "ranged",
                        by_unit=True) == combat.HALF


# --------------------------------------------------------------------------- ranged combat


@pytest.mark.rule("T5-RANGED-01", "T5-AMB-32")
def test_no_unit_shot_at_an_engaged_enemy() -> None:
    from .helpers import scenario, unit_spec

    model = scenario({"A": [unit_spec("a", (10.0, 10.0)), unit_spec("c", (24.0, 19.0))],
                      "B": [unit_spec("b", FAR)]})
    ctx = ctx_of(model)
    a, b = unit(ctx, "a"), unit(ctx, "b")
    assert ctx.state.engaged(b, unit(ctx, "c"))
    assert combat.legal_targets(ctx, a, "ranged") == []
    assert "engaged" in str(combat.why_not_unit(ctx.state, a, b, "ranged") or "")


@pytest.mark.rule("T5-AMB-32")
def test_an_engaged_shooter_fires_at_an_unengaged_enemy_with_disadvantage() -> None:
    from .helpers import scenario, unit_spec

    model = scenario({"A": [unit_spec("a", (24.0, 10.0))],
                      "B": [unit_spec("b", (24.0, 11.0)), unit_spec("c", (24.0, 3.0),
                                                                     facing=0)]})
    ctx = ctx_of(model)
    a, c = unit(ctx, "a"), unit(ctx, "c")
    bow = a.member.attacks[1]
    assert ctx.state.in_melee(a) and not ctx.state.in_melee(c)
    assert combat.legal_targets(ctx, a, "ranged") == [c]
    terms = combat.unit_attack_terms(ctx.state, a, bow, c)
    assert terms.disadvantage and terms.edge == -5


@pytest.mark.rule("T5-AMB-02", "T5-GEN-02")
def test_long_range_is_disadvantage_and_beyond_it_illegal() -> None:
    """Crossbow 100/400 ft: 85 ft normal, 150 ft long (-5), 410 ft out of range."""
    board = (48.0, 60.0)
    from .helpers import scenario, unit_spec

    def at(y: float):  # type: ignore[no-untyped-def]
        model = scenario({"A": [unit_spec("a", (24.0, 10.0))], "B": [unit_spec("b", (24.0, y))]},
                         board=board)
        return ctx_of(model)

    near, far, out = at(20.0), at(26.0), at(52.0)
    bow = unit(near, "a").member.attacks[1]
    n = combat.needed_roll(near, unit(near, "a"), bow, unit(near, "b"))
    assert combat.needed_roll(far, unit(far, "a"), bow, unit(far, "b")) == n + 5
    assert combat.why_not_unit(out.state, unit(out, "a"), unit(out, "b"), "ranged") is not None
    assert combat.legal_targets(out, unit(out, "a"), "ranged") == []


@pytest.mark.rule("T5-RANGED-02", "T5-AMB-33")
def test_ranged_attack_never_uses_multiattack() -> None:
    volley = stats(ARCHER, multiattack=["Longbow", "Longbow"])
    ctx = ctx_of(duo({"member": volley}, b_at=FAR), dice=[6])
    a, b = unit(ctx, "a"), unit(ctx, "b")
    assert [x.name for x in combat.unit_routine(a, "ranged")] == ["Longbow"]
    combat.unit_attack_action(ctx, a, b, "ranged")
    assert len(attack_events(ctx)) == 1


HORSE_ARCHER = stats(ARCHER, mount={
    "name": "Riding Horse", "speed": 60, "control": "independent",
    "attacks": [{"name": "Hooves", "bonus": 2, "damage": "2d4+3"}]})
WARHORSE_RIDER = stats(THUG, mount={
    "name": "Warhorse", "speed": 60, "control": "independent",
    "attacks": [{"name": "Hooves", "bonus": 6, "damage": "2d6+4"}]})
PONY_RIDER = stats(THUG, mount={"name": "Pony", "speed": 40, "control": "controlled",
                                "attacks": [{"name": "Hooves", "bonus": 4, "damage": "1d4+2"}]})


@pytest.mark.rule("T5-RANGED-03", "T5-AMB-34")
def test_mounted_shooters_raise_the_targets_cover_one_step() -> None:
    """Open ground becomes half cover; inside Forest (half) becomes three-quarters."""
    plain = shooters([], a_member=HORSE_ARCHER)
    assert combat.cover(plain, unit(plain, "a"), unit(plain, "b"), "ranged",
                        by_unit=True) == combat.HALF
    wood = shooters([FOREST], a_member=HORSE_ARCHER)
    assert combat.cover(wood, unit(wood, "a"), unit(wood, "b"), "ranged",
                        by_unit=True) == combat.THREE_QUARTERS
    bow = unit(wood, "a").member.attacks[0]
    foot = shooters([FOREST], a_member=ARCHER)
    assert combat.needed_roll(wood, unit(wood, "a"), bow, unit(wood, "b")) == \
        combat.needed_roll(foot, unit(foot, "a"), bow, unit(foot, "b")) + 3
    # melee is unaffected
    assert combat.cover(plain, unit(plain, "a"), unit(plain, "b"), "melee",
                        by_unit=True) == combat.NO_COVER


@pytest.mark.rule("T5-RANGED-04", "T5-AMB-34", "T5-TERRAIN-10")
def test_three_quarters_becomes_total_cover_and_forbids_the_mounted_shot() -> None:
    ctx = shooters([RUINS], a_member=HORSE_ARCHER)
    a, b = unit(ctx, "a"), unit(ctx, "b")
    b.three_quarter_cover = True
    assert combat.cover(ctx, a, b, "ranged", by_unit=True) == combat.TOTAL
    assert combat.legal_targets(ctx, a, "ranged") == []
    assert "total cover" in str(combat.why_not_unit(ctx.state, a, b, "ranged") or "")
    foot = shooters([RUINS], a_member=ARCHER)
    unit(foot, "b").three_quarter_cover = True
    assert combat.legal_targets(foot, unit(foot, "a"), "ranged") == [unit(foot, "b")]


# --------------------------------------------------------------------------- mounts


@pytest.mark.rule("T5-DAMAGE-04", "T5-AMB-29", "T5-MOUNT-01")
def test_independent_mounts_attack_as_the_unit_with_its_track_modifiers() -> None:
    """Rider Multiattack (2 maces) then the Warhorse hooves: eligible mounts = eligible
    riders; the hooves use the mount's +6 with the Defensive -2: needed 14 - 4 = 10."""
    ctx = ctx_of(duo({"member": WARHORSE_RIDER, "members": 12}), dice=[6, 6, 2])
    a, b = unit(ctx, "a"), unit(ctx, "b")
    total = combat.unit_attack_action(ctx, a, b, "melee")
    rider1, rider2, mount = attack_events(ctx)
    assert mount["attack"] == "Hooves" and mount["why"] == "mount"
    assert mount["eligible"] == 12 and mount["needed"] == 10
    assert mount["per_hit"] == 16 and mount["hits"] == 6
    assert total == rider1["damage"] + rider2["damage"] + 6 * 16


@pytest.mark.rule("T5-MOUNT-01", "T5-AMB-29")
def test_controlled_mounts_do_not_attack() -> None:
    ctx = ctx_of(duo({"member": PONY_RIDER}), dice=[6, 6])
    a = unit(ctx, "a")
    assert combat.mount_routine(a) == []
    combat.unit_attack_action(ctx, a, unit(ctx, "b"), "melee")
    assert [e["attack"] for e in attack_events(ctx)] == ["Mace", "Mace"]


@pytest.mark.rule("T5-MOUNT-03", "T5-AMB-29")
def test_a_killed_rider_takes_its_mount_with_it() -> None:
    ctx = ctx_of(duo({"member": WARHORSE_RIDER}), dice=[6, 6, 6])
    a = unit(ctx, "a")
    a.members = 5
    combat.unit_attack_action(ctx, a, unit(ctx, "b"), "melee")
    assert attack_events(ctx)[-1]["eligible"] == 5


@pytest.mark.rule("T5-MOUNT-02")
def test_mounts_are_never_targets() -> None:
    """Only units and Single Characters are bodies; a mounted unit is hit as its riders."""
    ctx = ctx_of(duo(None, {"member": WARHORSE_RIDER}))
    a, b = unit(ctx, "a"), unit(ctx, "b")
    assert combat.target_stats(b).name == "Thug"
    terms = combat.unit_attack_terms(ctx.state, a, a.member.attacks[0], b)
    assert terms.ac == 11 + 1 + 2  # the rider's AC, not the horse's
    assert combat.legal_targets(ctx, a, "melee") == [b]


@pytest.mark.rule("T5-AMB-33", "T5-AMB-29")
def test_mounts_of_a_shooting_unit_attack_an_adjacent_enemy_engaged_only_with_it() -> None:
    from .helpers import scenario, unit_spec

    model = scenario({"A": [unit_spec("a", (24.0, 10.0), member=HORSE_ARCHER)],
                      "B": [unit_spec("b", (24.0, 11.0)), unit_spec("c", (24.0, 3.0),
                                                                     facing=0)]})
    ctx = ctx_of(model, dice=[6, 6])
    a, b, c = unit(ctx, "a"), unit(ctx, "b"), unit(ctx, "c")
    combat.unit_attack_action(ctx, a, c, "ranged")
    shot, hooves = attack_events(ctx)
    assert (shot["target"], shot["attack"]) == ("c", "Longbow")
    assert (hooves["target"], hooves["attack"]) == ("b", "Hooves")
    assert b.tdr > 0 and c.tdr > 0


@pytest.mark.rule("T5-AMB-33")
def test_mounts_of_a_shooting_unit_stay_idle_without_such_an_enemy() -> None:
    ctx = ctx_of(duo({"member": HORSE_ARCHER}, b_at=FAR), dice=[6])
    combat.unit_attack_action(ctx, unit(ctx, "a"), unit(ctx, "b"), "ranged")
    assert len(attack_events(ctx)) == 1


# --------------------------------------------------------------------------- table copies


@pytest.mark.rule("T5-REF-01")
def test_combat_reads_the_single_divisor_table(monkeypatch: pytest.MonkeyPatch) -> None:
    """Combat has no copy of its own: changing the one table changes the attack."""
    from warhost.rulesets.dnd5e_tactics import tables

    seen = []

    def spy(needed: int, d6: int) -> int:
        seen.append((needed, d6))
        return divisor(needed, d6)

    monkeypatch.setattr(combat, "divisor", spy)
    ctx = ctx_of(duo({"member": mace_only()}), dice=[4])
    combat.unit_attack_action(ctx, unit(ctx, "a"), unit(ctx, "b"), "melee")
    assert seen == [(12, 4)]
    assert combat.divisor is spy and tables.divisor is divisor
    assert unit(ctx, "a").cell is TACTICS["defensive"][3]


# --------------------------------------------------------------------------- expectations


@pytest.mark.rule("T5-ATTACK-08", "T5-AMB-22")
def test_expected_damage_is_the_mean_over_each_d6() -> None:
    """Row 6-12 hits for faces 1..6: 7, 10, 10, 10, 10, 20 (mean 67/6); two maces of 8."""
    ctx = ctx_of(duo())
    expected = combat.expected_unit_damage(ctx, unit(ctx, "a"), unit(ctx, "b"), "melee")
    assert expected == pytest.approx(2 * 8 * 67 / 6)


@pytest.mark.rule("T5-AMB-22")
def test_every_resolution_draws_a_die() -> None:
    ctx = ctx_of(duo(), dice=[3])
    with pytest.raises(DiceExhaustedError):
        combat.unit_attack_action(ctx, unit(ctx, "a"), unit(ctx, "b"), "melee")


@pytest.mark.rule("T5-DAMAGE-08")
def test_units_without_members_cannot_attack_or_be_attacked() -> None:
    ctx = ctx_of(duo())
    a, b = unit(ctx, "a"), unit(ctx, "b")
    b.members = 0
    assert combat.legal_targets(ctx, a, "melee") == []
    assert combat.resolve_unit_attack(ctx, a, b, a.member.attacks[0]) == 0
    assert attack_events(ctx) == []
