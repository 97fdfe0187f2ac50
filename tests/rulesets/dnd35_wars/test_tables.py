"""The numbers of `dnd35-wars`: printed tables checked cell by cell against the catalog, and
the seed's worked examples (counters, the fighter unit, recommended scales)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from warhost.rulesets.dnd35_wars import tables as t

F = Fraction
COLUMNS = (5, 15, 25, 50, 100, 200)

# W35-SIZE-01 as the catalog prints it ("2x2*" -> ("x", 2)).
PRINTED_SIZE_TABLE = [
    ("fine", (100, 900, 2_500, 10_000, 40_000, 160_000)),
    ("diminutive", (25, 225, 625, 2_500, 10_000, 40_000)),
    ("tiny", (4, 56, 156, 625, 2_500, 10_000)),
    ("small", (1, 10, 25, 100, 400, 1_600)),
    ("medium", (1, 10, 25, 100, 400, 1_600)),
    ("large", (("x", 2), 2, 6, 25, 100, 400)),
    ("huge", (("x", 3), 1, 3, 12, 44, 178)),
    ("gargantuan", (("x", 4), 1, 1, 6, 25, 100)),
    ("colossal", (("x", 6), ("x", 2), 1, 3, 11, 44)),
]

# W35-STAT-12 as the catalog prints it: scale -> speeds 15, 20, 30, 40 ft.
PRINTED_MOVE_TABLE = [
    (5, (6, 8, 12, 16)),
    (15, (2, 3, 4, 5)),
    (25, (1, 2, 3, 4)),
    (50, (F(1, 2), 1, 2, 3)),
    (100, (F(1, 3), F(1, 2), 1, 2)),
    (200, (F(1, 4), F(1, 3), F(1, 2), 1)),
]


# --- scales and sizes -------------------------------------------------------------------------

@pytest.mark.rule("W35-SCALE-01")
@pytest.mark.rule("W35-AMB-07")
def test_battle_scales_are_the_five_columns_and_others_are_refused() -> None:
    assert t.SCALES == (15, 25, 50, 100, 200)
    for scale in t.SCALES:
        assert t.check_scale(scale) == scale
    for bad in (5, 30, 75, 0):
        with pytest.raises(ValueError, match="battle scale"):
            t.check_scale(bad)
    with pytest.raises(ValueError, match="no table column"):
        t.capacity("medium", 30)
    with pytest.raises(ValueError, match="no table column"):
        t.move_rate(30, 75)


@pytest.mark.rule("W35-SIZE-01")
@pytest.mark.parametrize(("size", "cells"), PRINTED_SIZE_TABLE)
def test_size_table_row_as_printed(size: str, cells: tuple[object, ...]) -> None:
    assert t.SIZE_TABLE[size] == dict(zip(COLUMNS, cells, strict=True))
    for scale, cell in zip(COLUMNS, cells, strict=True):
        if isinstance(cell, tuple):
            assert t.capacity(size, scale) == 0
            assert t.span(size, scale) == cell[1]
        else:
            assert t.capacity(size, scale) == cell
            assert t.span(size, scale) == 1


@pytest.mark.rule("W35-SIZE-01")
def test_size_names_in_order() -> None:
    assert t.SIZES == tuple(size for size, _ in PRINTED_SIZE_TABLE)
    with pytest.raises(ValueError, match="unknown creature size"):
        t.capacity("enormous", 15)


@pytest.mark.rule("W35-SIZE-02")
def test_nxn_entries_make_one_creature_span_squares() -> None:
    assert t.span("large", 5) == 2
    assert t.span("colossal", 15) == 2
    assert t.span("colossal", 5) == 6
    assert t.counters_needed(3, "colossal", 15) == 12  # 3 creatures x 2 x 2 squares
    assert t.counters_needed(1, "large", 5) == 4


@pytest.mark.rule("W35-AMB-06")
def test_irregular_printed_cells_are_kept_and_one_means_one_square() -> None:
    assert t.capacity("huge", 50) == 12  # geometry would give 11.1
    for size, scale in (("gargantuan", 15), ("gargantuan", 25), ("colossal", 25)):
        assert t.capacity(size, scale) == 1
        assert t.span(size, scale) == 1
        assert t.counters_needed(7, size, scale) == 7


@pytest.mark.rule("W35-AMB-05")
def test_tiny_row_printed_by_default_or_geometric_by_option() -> None:
    assert [t.capacity("tiny", s) for s in COLUMNS] == [4, 56, 156, 625, 2_500, 10_000]
    geometric = [t.capacity("tiny", s, table="geometric") for s in COLUMNS]
    assert geometric == [6, 56, 156, 625, 2_500, 10_000]  # floor(6.25 x (scale/5)^2)
    for size in ("fine", "diminutive", "small", "medium", "large", "huge"):
        assert [t.capacity(size, s, table="geometric") for s in COLUMNS] == \
            [t.capacity(size, s) for s in COLUMNS]
    assert t.counters_needed(20, "tiny", 5) == 5
    assert t.counters_needed(20, "tiny", 5, table="geometric") == 4
    with pytest.raises(ValueError, match="size_table"):
        t.capacity("tiny", 15, table="exact")


@pytest.mark.rule("W35-SCALE-05")
def test_fifteen_foot_square_holds_ten_small_or_medium_creatures() -> None:
    for table in t.SIZE_TABLES:
        assert t.capacity("medium", 15, table) == 10
        assert t.capacity("small", 15, table) == 10


@pytest.mark.rule("W35-SIZE-03")
def test_mounted_units_use_large_row_and_chariots_huge() -> None:
    assert t.member_size("medium", mounted=True) == "large"
    assert t.member_size("small", mounted=True) == "large"
    assert t.member_size("medium", mounted=True, chariot=True) == "huge"
    assert t.member_size("medium", chariot=True) == "huge"
    assert t.member_size("tiny") == "tiny"
    assert t.capacity(t.member_size("medium", mounted=True), 25) == 6
    assert t.capacity(t.member_size("medium", chariot=True), 25) == 3


@pytest.mark.rule("W35-SIZE-04")
@pytest.mark.rule("W35-UNIT-03")
def test_counters_are_creatures_over_capacity_rounded_up() -> None:
    assert t.counters_needed(1, "medium", 200) == 1
    assert t.counters_needed(1_600, "medium", 200) == 1
    assert t.counters_needed(1_601, "medium", 200) == 2
    assert t.counters_needed(13, "huge", 50) == 2
    assert t.counters_needed(179, "huge", 200) == 2


@pytest.mark.rule("W35-AMB-93")
def test_a_unit_needs_at_least_one_creature() -> None:
    assert t.counters_needed(1, "medium", 15) == 1
    with pytest.raises(ValueError, match="at least 1 creature"):
        t.counters_needed(0, "medium", 15)


@pytest.mark.rule("W35-UNIT-04")
def test_example_60_elves_at_15_ft() -> None:
    assert t.counters_needed(60, "medium", 15) == 6
    assert t.creatures_per_counter(60, 6) == 10


@pytest.mark.rule("W35-UNIT-05")
@pytest.mark.rule("W35-AMB-09")
def test_example_51_elves_spread_over_six_counters() -> None:
    assert t.counters_needed(51, "medium", 15) == 6
    assert t.creatures_per_counter(51, 6) == F(17, 2)
    with pytest.raises(ValueError):
        t.creatures_per_counter(51, 0)


@pytest.mark.rule("W35-UNIT-06")
def test_example_fifty_elves_need_five_squares() -> None:
    assert t.counters_needed(50, "medium", 15) == 5


@pytest.mark.rule("W35-UNIT-07")
def test_example_128_ogres_at_50_ft() -> None:
    assert t.capacity("large", 50) == 25
    assert t.counters_needed(128, "large", 50) == 6


@pytest.mark.rule("W35-UNIT-10")
@pytest.mark.rule("W35-UNIT-08")
@pytest.mark.rule("W35-UNIT-09")
@pytest.mark.rule("W35-AMB-01")
@pytest.mark.rule("W35-AMB-02")
@pytest.mark.rule("W35-AMB-03")
def test_example_hundred_fighters_at_15_ft() -> None:
    counters = t.counters_needed(100, "medium", 15)
    assert counters == 10
    assert t.creatures_per_counter(100, counters) == 10
    unit_hp = t.starting_unit_hp(12, counters)
    assert unit_hp == 120
    assert t.starting_counter_hp(unit_hp, counters) == 12
    # Cha 12 (+1), a unit of fighters (+1); the seed's fighter is neutral good, not lawful.
    assert t.morale_score(1, fighters=True) == 2
    assert t.move_rate(20, 15) == 3


@pytest.mark.rule("W35-AMB-31")
def test_size_cells_per_side() -> None:
    assert t.SIZE_CELLS == {"fine": 1, "diminutive": 1, "tiny": 1, "small": 1, "medium": 1,
                            "large": 2, "huge": 3, "gargantuan": 4, "colossal": 6}


def test_standard_size_modifiers() -> None:
    assert [t.SIZE_MODIFIER[s] for s in t.SIZES] == [8, 4, 2, 1, 0, -1, -2, -4, -8]


# --- recommended scale ------------------------------------------------------------------------

@pytest.mark.rule("W35-SCALE-04")
@pytest.mark.rule("W35-AMB-08")
@pytest.mark.parametrize(("low", "high", "scale"), [
    (1, 100, 15), (101, 400, 25), (401, 1_600, 50), (1_601, 6_400, 100), (6_401, 102_400, 200),
])
def test_recommended_scale_rows_for_medium_and_small(low: int, high: int, scale: int) -> None:
    for size in ("small", "medium"):
        assert t.suggest_scale(low, size) == scale
        assert t.suggest_scale(high, size) == scale
    assert t.capacity("medium", scale) == {15: 10, 25: 25, 50: 100, 100: 400, 200: 1_600}[scale]


@pytest.mark.rule("W35-SCALE-07")
def test_example_200_large_creatures_use_50_ft() -> None:
    assert t.suggest_scale(200, "medium") == 25
    assert t.suggest_scale(200, "large") == 50
    assert t.suggest_scale(200, "huge") == 100
    assert t.suggest_scale(200, "colossal") == 200  # clamped to the largest scale


@pytest.mark.rule("W35-SCALE-08")
def test_example_300_tiny_creatures_use_15_ft() -> None:
    assert t.suggest_scale(300, "tiny") == 15
    assert t.suggest_scale(2_000, "tiny") == 50
    assert t.suggest_scale(2_000, "fine") == 15
    assert t.suggest_scale(50, "diminutive") == 15  # clamped to the smallest scale


@pytest.mark.rule("W35-AMB-08")
def test_suggested_scale_beyond_the_last_row_stays_200() -> None:
    assert t.suggest_scale(500_000, "medium") == 200


# --- move rates -------------------------------------------------------------------------------

@pytest.mark.rule("W35-STAT-12")
@pytest.mark.rule("W35-STAT-11")
@pytest.mark.parametrize(("scale", "rates"), PRINTED_MOVE_TABLE)
def test_move_rate_table_row_as_printed(scale: int, rates: tuple[int | Fraction, ...]) -> None:
    for speed, rate in zip((15, 20, 30, 40), rates, strict=True):
        assert t.move_rate(speed, scale) == rate
        assert isinstance(t.move_rate(speed, scale), Fraction)


@pytest.mark.rule("W35-STAT-13")
def test_fractional_rates_are_one_square_every_n_rounds() -> None:
    assert t.move_rate(15, 50) == F(1, 2)
    assert t.move_rate(15, 100) == F(1, 3)
    assert t.move_rate(20, 100) == F(1, 2)
    assert t.move_rate(15, 200) == F(1, 4)
    assert t.move_rate(20, 200) == F(1, 3)
    assert t.move_rate(30, 200) == F(1, 2)


@pytest.mark.rule("W35-AMB-11")
@pytest.mark.parametrize(("speed", "expected"), [
    # between tabulated speeds: the column of the largest tabulated speed below
    (25, {5: 8, 15: 3, 25: 2, 50: 1, 100: F(1, 2), 200: F(1, 3)}),
    (35, {5: 12, 15: 4, 25: 3, 50: 2, 100: 1, 200: F(1, 2)}),
    # above 40 ft: floor(2 x speed / scale), never below the 40-ft column
    (50, {5: 20, 15: 6, 25: 4, 50: 3, 100: 2, 200: 1}),
    (60, {5: 24, 15: 8, 25: 4, 50: 3, 100: 2, 200: 1}),
    (80, {5: 32, 15: 10, 25: 6, 50: 3, 100: 2, 200: 1}),
    (120, {5: 48, 15: 16, 25: 9, 50: 4, 100: 2, 200: 1}),
    # below 15 ft: floor(2 x speed / scale) or 1/ceil(scale / (2 x speed)), capped by 15 ft
    (10, {5: 4, 15: 1, 25: F(1, 2), 50: F(1, 3), 100: F(1, 5), 200: F(1, 10)}),
    (5, {5: 2, 15: F(1, 2), 25: F(1, 3), 50: F(1, 5), 100: F(1, 10), 200: F(1, 20)}),
])
def test_untabulated_speeds(speed: int, expected: dict[int, int | Fraction]) -> None:
    assert {scale: t.move_rate(speed, scale) for scale in COLUMNS} == expected


@pytest.mark.rule("W35-AMB-11")
def test_untabulated_rates_never_decrease_with_speed() -> None:
    for scale in COLUMNS:
        rates = [t.move_rate(speed, scale) for speed in range(1, 200)]
        assert rates == sorted(rates)
    assert t.move_rate(0, 15) == 0
    with pytest.raises(ValueError):
        t.move_rate(-5, 15)


@pytest.mark.rule("W35-AMB-13")
def test_siege_movement_points_from_feet() -> None:
    weapon = {15: F(1), 25: F(3, 5), 50: F(3, 10), 100: F(3, 20), 200: F(3, 40)}
    tower = {15: F(1, 2), 25: F(3, 10), 50: F(3, 20), 100: F(3, 40), 200: F(3, 80)}
    for scale in t.SCALES:
        assert t.siege_move_points(15, scale) == weapon[scale]
        assert t.siege_move_points(F(15, 2), scale) == tower[scale]


@pytest.mark.rule("W35-AMB-67")
@pytest.mark.rule("W35-DEFEND-10")
def test_phalanx_halves_the_move_rate() -> None:
    assert t.phalanx_rate(F(5)) == 2
    assert t.phalanx_rate(F(3)) == 1
    assert t.phalanx_rate(F(1)) == 1
    assert t.phalanx_rate(F(2)) == 1
    assert t.phalanx_rate(F(4)) == 2
    assert t.phalanx_rate(7) == 3
    assert t.phalanx_rate(F(1, 2)) == F(1, 4)
    assert t.phalanx_rate(F(1, 3)) == F(1, 6)


# --- terrain and structures -------------------------------------------------------------------

@pytest.mark.rule("W35-TERR-14")
@pytest.mark.parametrize(("terrain", "cost"), [
    ("clear", 1), ("difficult", 2), ("light_forest", 2), ("heavy_forest", 3), ("jungle", 3),
    ("ruins", 3), ("rocky", 3), ("building", 4), ("castle", 5), ("swamp", 4), ("sand", 2),
    ("desert", 2),
])
def test_terrain_cost_as_printed(terrain: str, cost: int) -> None:
    assert t.TERRAIN_COST[terrain] == cost


@pytest.mark.rule("W35-TERR-14")
def test_terrain_table_slopes_and_nothing_else() -> None:
    assert len(t.TERRAIN_COST) == 12
    assert t.DOWNHILL_COST == F(2, 3)
    assert 3 * t.DOWNHILL_COST == 2  # three squares down a slope cost two
    assert t.UP_SLOPE_COSTS == (2, 3, 4)


@pytest.mark.rule("W35-TERR-04")
@pytest.mark.rule("W35-TERR-07")
def test_forests_are_difficult_terrain() -> None:
    assert t.TERRAIN_COST["difficult"] == 2
    assert t.FOREST_TERRAINS == {"light_forest", "heavy_forest", "jungle"}
    for forest in t.FOREST_TERRAINS:
        assert t.TERRAIN_COST[forest] >= t.TERRAIN_COST["difficult"]


@pytest.mark.rule("W35-STRUCT-06")
def test_structure_dr_as_printed() -> None:
    assert t.STRUCTURE_DR == {"ruins": 1, "wooden": 2, "light_stone": 2, "keep": 3,
                              "heavy_stone": 3, "castle": 4}


# --- morale -----------------------------------------------------------------------------------

@pytest.mark.rule("W35-MORALE-03")
@pytest.mark.parametrize(("trigger", "dc"), [
    ("first_damage", 8), ("flanked", 10), ("siege_or_area", 15), ("half_hp", 15),
    ("quarter_hp", 20), ("melee_one_sided", 10), ("three_times", 15), ("friend_fleeing", 15),
    ("ferocious", 15), ("leader_lost", 20), ("friend_wiped", 20), ("rally", 20),
])
def test_morale_dc_as_printed(trigger: str, dc: int) -> None:
    assert t.MORALE_DC[trigger] == dc


@pytest.mark.rule("W35-MORALE-14")
def test_morale_dcs_from_other_chapters() -> None:
    assert t.MORALE_DC["mob_charge"] == 10
    assert t.MORALE_DC["mob_damage"] == 10
    assert t.MORALE_DC["siege_weapon_lost"] == 15
    assert t.MORALE_DC["tower_lost"] == 20
    assert len(t.MORALE_DC) == 16


@pytest.mark.rule("W35-AMB-16")
@pytest.mark.rule("W35-MORALE-03")
def test_one_time_triggers() -> None:
    assert t.ONE_TIME_TRIGGERS == {"first_damage", "flanked", "half_hp", "quarter_hp"}
    assert t.ONE_TIME_TRIGGERS <= t.MORALE_DC.keys()


@pytest.mark.rule("W35-PC-11")
def test_pc_action_morale_as_printed() -> None:
    assert t.PC_ACTION_MORALE == {"slew_leader": 2, "slew_officer": 1, "destroyed_machine": 1,
                                  "fled_or_down": -4, "slew_tenth": 1}


@pytest.mark.rule("W35-STAT-01")
@pytest.mark.rule("W35-STAT-02")
def test_morale_is_charisma_plus_factors() -> None:
    assert t.morale_score(0) == 0
    assert t.morale_score(-1) == -1
    assert t.morale_score(3) == 3
    assert t.morale_score(0, barbarians=True) == -1
    assert t.morale_score(0, fighters=True) == 1
    assert t.morale_score(0, chaotic=True) == -1
    assert t.morale_score(0, lawful=True) == 1
    assert t.morale_score(1, barbarians=True, chaotic=True) == -1
    assert t.morale_score(2, fighters=True, lawful=True, training_months=8, battles=1) == 7


@pytest.mark.rule("W35-STAT-03")
def test_training_bonus_per_four_months_at_most_three() -> None:
    months_to_bonus = {0: 0, 3: 0, 4: 1, 7: 1, 8: 2, 11: 2, 12: 3, 16: 3, 48: 3}
    for months, bonus in months_to_bonus.items():
        assert t.training_bonus(months) == bonus
        assert t.morale_score(0, training_months=months) == bonus
    with pytest.raises(ValueError):
        t.training_bonus(-4)


@pytest.mark.rule("W35-STAT-04")
def test_battle_experience_has_no_cap() -> None:
    assert t.morale_score(0, battles=1) == 1
    assert t.morale_score(0, battles=12) == 12


@pytest.mark.rule("W35-AMB-22")
@pytest.mark.rule("W35-MOB-08")
def test_mob_morale_keeps_only_negative_terms() -> None:
    assert t.morale_score(2, fighters=True, training_months=12, battles=4, lawful=True) == 11
    assert t.morale_score(2, fighters=True, training_months=12, battles=4, lawful=True,
                          mob=True) == 0
    assert t.morale_score(-2, mob=True, barbarians=True, chaotic=True, battles=3) == -4
    assert t.morale_score(1, mob=True, chaotic=True) == -1


@pytest.mark.rule("W35-AMB-91")
def test_half_and_quarter_hp_thresholds() -> None:
    assert t.hp_triggers(120, 120, 61) == []
    assert t.hp_triggers(120, 61, 60) == ["half_hp"]  # exactly half counts
    assert t.hp_triggers(120, 60, 40) == []  # already at half
    assert t.hp_triggers(120, 40, 30) == ["quarter_hp"]
    assert t.hp_triggers(120, 100, 20) == ["half_hp", "quarter_hp"]
    assert t.hp_triggers(121, 61, 60) == ["half_hp"]
    assert t.hp_triggers(121, 62, 61) == []
    assert t.hp_triggers(120, 30, 0) == []


@pytest.mark.rule("W35-UNIT-12")
@pytest.mark.rule("W35-UNIT-13")
@pytest.mark.rule("W35-AMB-10")
def test_counters_left_by_pooled_hp() -> None:
    assert t.counters_left(120, 12) == 10
    assert t.counters_left(109, 12) == 10  # 11 damage carried over, no counter lost yet
    assert t.counters_left(108, 12) == 9
    assert t.counters_left(84, 12) == 7  # several counters at once
    assert t.counters_left(1, 12) == 1
    assert t.counters_left(0, 12) == 0
    assert t.counters_left(-5, 12) == 0


# --- attacks, mounts, abilities ---------------------------------------------------------------

@pytest.mark.rule("W35-STAT-15")
@pytest.mark.rule("W35-AMB-14")
def test_averaging_several_attacks() -> None:
    assert t.average_attacks([(5, "1d4+2"), (5, "1d4+2"), (2, "1d4+2")]) == (4, "1d4+2")
    # claw 1d4 (2.5), claw 1d4 (2.5), bite 1d8 (4.5): mean 3.17 -> 3
    assert t.average_attacks([(6, "1d4"), (6, "1d4"), (1, "1d8")]) == (4, "3")
    # 1d6 (3.5) and 1d6+1 (4.5): mean 4, floored only once
    assert t.average_attacks([(3, "1d6"), (2, "1d6+1")]) == (2, "4")
    assert t.average_attacks([(-1, "1d3"), (-2, "1d3")]) == (-2, "1d3")
    assert t.average_attacks([(7, "2d6+3")]) == (7, "2d6+3")
    with pytest.raises(ValueError):
        t.average_attacks([])


@pytest.mark.rule("W35-TYPE-05")
def test_mounted_damage_adds_the_mounts_best_average() -> None:
    assert t.mounted_damage("1d8+2", ["1d6+4", "1d4"]) == "1d8+9"
    assert t.mounted_damage("1d8", ["1d4", "2d6"]) == "1d8+7"
    assert t.mounted_damage("1d8+2", []) == "1d8+2"
    assert t.mounted_damage("5", ["1d6"]) == "8"
    assert t.mounted_damage("1d6+1d4-1", ["1d3"]) == "1d6+1d4+1"


@pytest.mark.rule("W35-TYPE-06")
@pytest.mark.rule("W35-AMB-25")
def test_barding_adds_half_its_armor_bonus() -> None:
    assert t.barding_ac(5) == 2  # chainmail barding
    assert t.barding_ac(8) == 4
    assert t.barding_ac(1) == 0
    assert t.barding_ac(0) == 0


@pytest.mark.rule("W35-TYPE-11")
@pytest.mark.rule("W35-TYPE-12")
def test_mount_hp_counts_only_for_intelligent_mounts() -> None:
    assert t.mount_hp(30, 40, intelligent=True) == 70
    assert t.mount_hp(30, 40, intelligent=False) == 30


@pytest.mark.rule("W35-ABIL-09")
def test_regeneration_is_hit_dice_times_creatures_per_counter() -> None:
    assert t.regeneration(6, F(10)) == 60
    assert t.regeneration(6, t.creatures_per_counter(51, 6)) == 51
    assert t.regeneration(5, F(17, 2)) == 42  # 42.5 rounded down


@pytest.mark.rule("W35-ABIL-04")
@pytest.mark.rule("W35-AMB-28")
def test_great_cleave_cap() -> None:
    assert t.great_cleave_cap == 8


# --- ranges -----------------------------------------------------------------------------------

@pytest.mark.rule("W35-UATK-12")
@pytest.mark.rule("W35-AMB-36")
def test_range_increments_and_penalty() -> None:
    assert t.range_increments(0, 60) == 1
    assert t.range_increments(60, 60) == 1
    assert t.range_increments(61, 60) == 2
    assert t.range_increments(600, 60) == 10
    assert [t.range_penalty(n) for n in (1, 2, 3, 10)] == [0, -2, -4, -18]
    with pytest.raises(ValueError):
        t.range_increments(10, 0)


@pytest.mark.rule("W35-UATK-13")
@pytest.mark.rule("W35-AMB-36")
def test_maximum_range_ten_increments_or_five_thrown() -> None:
    assert t.max_increments(thrown=False) == 10
    assert t.max_increments(thrown=True) == 5
    assert t.in_range(600, 60)
    assert not t.in_range(601, 60)
    assert t.in_range(50, 10, thrown=True)
    assert not t.in_range(51, 10, thrown=True)


@pytest.mark.rule("W35-UATK-14")
@pytest.mark.rule("W35-AMB-36")
def test_range_is_measured_in_feet() -> None:
    # the fighters' shortbow (60 ft) at 5 squares: 75 ft at 15 ft, 125 ft at 25 ft
    assert t.distance_feet(5, 15) == 75
    assert t.range_penalty(t.range_increments(t.distance_feet(5, 15), 60)) == -2
    assert t.range_penalty(t.range_increments(t.distance_feet(5, 25), 60)) == -4
    assert t.in_range(t.distance_feet(24, 25), 60)
    assert not t.in_range(t.distance_feet(25, 25), 60)
