"""Spells as the battle reads them (spellbook): a caster's numbers, saving throws
(W35-MAGIC-09/10), the shipped library, libraries named by a scenario, and the spell checks of
`warhost validate`."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from tests.cli_helpers import assert_user_error, run
from tests.rulesets.dnd35_wars.helpers import (
    block,
    creature,
    make_battle,
    make_state,
    scenario_data,
    single,
    unit,
)
from warhost.core.errors import ScenarioError
from warhost.core.scenario import load_scenario, scenario_from_data
from warhost.rulesets.dnd35_wars import spellbook
from warhost.rulesets.dnd35_wars.areas import area_counters
from warhost.rulesets.dnd35_wars.model import Creature, KnownSpell, Options, Spell
from warhost.rulesets.dnd35_wars.spellbook import (
    affects,
    damage_expr,
    duration_rounds,
    heal_amount_expr,
    levels_counted,
    max_spell_level,
    range_feet,
    save_bonus,
    save_dc,
    spell_of,
    unit_saves,
)

FRONT = block(0, 0, 5, 2)
FAR = block(0, 20, 5, 2)


def core() -> dict[str, Spell]:
    """The shipped library, by name."""
    data = spellbook.load_library(spellbook.SPELLS_DIR / "core.yaml")
    return {entry["name"]: Spell.model_validate(entry) for entry in data}


CORE = core()


def wizard(**fields: Any) -> dict[str, Any]:
    """A 5th-level human wizard entry knowing fireball."""
    entry = {"level": 5, "caster_level": 5, "casting_modifier": 3,
             "spells": [{"spell": "fireball", "uses": 2}], **fields}
    return creature("wizard", **entry)


def data_with(caster: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """A legal two-army scenario whose side A unit is made of ``caster`` creatures."""
    return scenario_data([unit("a", squares=FRONT, creature=caster),
                          unit("b", "B", squares=FAR)], **kwargs)


# ---------------------------------------------------------------- a caster's numbers


def test_max_spell_level_of_a_full_caster() -> None:
    assert [max_spell_level(cl) for cl in (0, 1, 2, 3, 4, 5, 9, 17, 20)] == [
        -1, 1, 1, 2, 2, 3, 5, 9, 9]


def test_save_dc_is_the_known_spell_s_or_ten_plus_level_plus_modifier() -> None:
    fireball = CORE["fireball"]
    caster = Creature(name="w", hp=20, ac=12, casting_modifier=3)
    assert save_dc(fireball, KnownSpell(spell="fireball"), caster) == 16
    assert save_dc(fireball, KnownSpell(spell="fireball", dc=19), caster) == 19


def test_ranges_by_caster_level() -> None:
    assert range_feet(CORE["scorching_ray"], 7) == 25 + 5 * 3  # close
    assert range_feet(CORE["hold_person"], 5) == 150  # medium
    assert range_feet(CORE["fireball"], 5) == 600  # long
    assert range_feet(CORE["cure_light_wounds"], 5) is None  # touch
    assert range_feet(CORE["bless"], 5) == 0  # personal
    assert range_feet(CORE["lightning_bolt"], 5) == 120  # feet


def test_damage_and_healing_by_caster_level_with_their_caps() -> None:
    assert damage_expr(CORE["fireball"], 7) == "7d6"
    assert damage_expr(CORE["fireball"], 14) == "10d6"  # at most 10d6
    assert damage_expr(CORE["cone_of_cold"], 20) == "15d6"
    assert levels_counted(CORE["fireball"], 0) == 1
    # magic missile: one missile at 1st, one more every two levels, at most five
    assert [damage_expr(CORE["magic_missile"], cl) for cl in (1, 2, 3, 5, 9, 12)] == [
        "1d4+1", "1d4+1", "2d4+2", "3d4+3", "5d4+5", "5d4+5"]
    # scorching ray: a second ray at 7th, a third at 11th
    assert [damage_expr(CORE["scorching_ray"], cl) for cl in (3, 6, 7, 11, 15)] == [
        "4d6", "4d6", "8d6", "12d6", "12d6"]
    assert damage_expr(CORE["ice_storm"], 9) == "5d6"
    assert damage_expr(CORE["bless"], 9) is None
    assert heal_amount_expr(CORE["cure_light_wounds"], 3) == "1d8+3"
    assert heal_amount_expr(CORE["cure_light_wounds"], 9) == "1d8+5"
    assert heal_amount_expr(CORE["cure_serious_wounds"], 9) == "3d8+9"
    assert heal_amount_expr(CORE["fireball"], 9) is None


def test_durations_in_rounds() -> None:
    assert duration_rounds(CORE["hold_person"], 5) == 5
    assert duration_rounds(CORE["bless"], 3) == 30  # a minute a level
    assert duration_rounds(CORE["fireball"], 5) == 0


def test_which_creatures_a_spell_affects() -> None:
    human = Creature(name="h", hp=5, ac=10, type="humanoid", level=1)
    ogre = Creature(name="o", hp=29, ac=16, type="giant", level=4)
    troll = Creature(name="t", hp=63, ac=16, type="giant", level=6)
    zombie = Creature(name="z", hp=16, ac=11, type="humanoid", undead=True, level=2)
    assert affects(CORE["hold_person"], human) and not affects(CORE["hold_person"], ogre)
    assert affects(CORE["sleep"], ogre) and not affects(CORE["sleep"], troll)  # 5+ HD
    turnable = Spell(name="x", level=1, effect="fear", creature_types=["undead"])
    assert affects(turnable, zombie) and not affects(turnable, human)
    assert affects(CORE["fireball"], troll)


def test_spell_of_names_an_unknown_spell_and_a_near_one() -> None:
    state = make_state([unit("a"), unit("b", "B", squares=[(9, 9)])],
                       spells=[CORE["fireball"].model_dump()])
    assert spell_of(state, "fireball").level == 3
    with pytest.raises(ValueError, match="unknown spell 'firebal'; did you mean fireball"):
        spell_of(state, "firebal")


# ---------------------------------------------------------------- saving throws


@pytest.mark.rule("W35-MAGIC-09", "W35-MAGIC-10")
def test_a_unit_makes_one_save_with_natural_1_and_20() -> None:
    state = make_state([unit("a"), unit("b", "B", squares=[(9, 9)])])
    assert unit_saves(make_battle(state, dice=[12]), 3, 15, "save") is True  # 15 vs 15
    assert unit_saves(make_battle(state, dice=[11]), 3, 15, "save") is False
    assert unit_saves(make_battle(state, dice=[1]), 30, 15, "save") is False
    assert unit_saves(make_battle(state, dice=[20]), -5, 40, "save") is True
    battle = make_battle(state, dice=[12, 1])
    unit_saves(battle, 3, 15, "save")
    # one die for the whole unit
    assert battle.dice.unused == 1  # type: ignore[attr-defined]


@pytest.mark.rule("W35-MAGIC-09")
def test_save_bonuses_of_units_and_creatures() -> None:
    state = make_state([unit("a", creature=creature(fort=4, ref=2, will=-1)),
                        unit("b", "B", squares=[(9, 9)])],
                       singles=[single("hero", unit="a", creature=creature(
                           "hero", hp=40, will=6, level=5))])
    a = state.units["a"]
    assert [save_bonus(a, s) for s in ("fort", "ref", "will")] == [4, 2, -1]
    assert save_bonus(state.singles["hero"], "will") == 6
    with pytest.raises(ValueError):
        save_bonus(a, "none")


# ---------------------------------------------------------------- the shipped library


def test_the_core_library_holds_the_battlefield_spells() -> None:
    wanted = {"fireball", "lightning_bolt", "cone_of_cold", "flame_strike", "sleep", "fear",
              "cause_fear", "bless", "prayer", "cure_light_wounds", "cure_moderate_wounds",
              "cure_serious_wounds", "mass_cure_light_wounds", "haste", "slow", "web",
              "entangle", "hold_person", "magic_missile", "scorching_ray", "shield_of_faith",
              "mage_armor", "confusion", "color_spray", "ice_storm", "red_dragon_breath_young"}
    assert wanted <= set(CORE)
    assert "turn" not in CORE and "turn_undead" not in CORE


def test_core_numbers_match_the_srd() -> None:
    fireball = CORE["fireball"]
    assert (fireball.level, fireball.range, fireball.save, fireball.on_save) == (
        3, "long", "ref", "half")
    assert fireball.area is not None and (fireball.area.shape, fireball.area.feet) == (
        "circle", 20)
    bolt = CORE["lightning_bolt"]
    assert bolt.area is not None and (bolt.area.shape, bolt.area.feet, bolt.area.squares) == (
        "line", 120, 24)
    cold = CORE["cone_of_cold"]
    assert cold.level == 5 and cold.area is not None and (cold.area.shape, cold.area.feet) == (
        "cone", 60)
    strike = CORE["flame_strike"]
    assert strike.area is not None and (strike.area.shape, strike.area.feet) == ("circle", 10)
    sleep = CORE["sleep"]
    assert (sleep.effect, sleep.hit_dice, sleep.max_hd, sleep.save) == ("hd", "4", 4, "will")
    assert sleep.area is not None and sleep.area.feet == 10
    for name, feet in (("web", 20), ("entangle", 40), ("ice_storm", 20), ("confusion", 15)):
        area = CORE[name].area
        assert area is not None and (area.shape, area.feet) == ("circle", feet), name
    for name, feet in (("fear", 30), ("color_spray", 15)):
        area = CORE[name].area
        assert area is not None and (area.shape, area.feet) == ("cone", feet), name
    assert CORE["hold_person"].creature_types == ["humanoid"]
    assert (CORE["cause_fear"].max_hd, CORE["cure_moderate_wounds"].heal) == (5, "2d8")
    breath = CORE["red_dragon_breath_young"]
    assert breath.damage == "6d10" and breath.area is not None and breath.area.shape == "cone"


@pytest.mark.rule("W35-AOE-02")
def test_every_core_area_has_a_size_at_every_scale() -> None:
    for spell in CORE.values():
        if spell.area is not None:
            for scale in (5, 15, 25, 50, 100, 200):
                assert area_counters(spell.area, scale, Options()) >= 0
    assert area_counters(CORE["fireball"].area, 15, Options()) == 4  # type: ignore[arg-type]


def test_the_library_ships_with_the_package() -> None:
    text = (Path(__file__).resolve().parents[3] / "pyproject.toml").read_text(encoding="utf-8")
    assert "rulesets/dnd35_wars/spells/*.yaml" in text
    assert (spellbook.SPELLS_DIR / "core.yaml").is_file()


# ---------------------------------------------------------------- libraries in a scenario


def test_a_scenario_includes_the_core_library() -> None:
    scenario = scenario_from_data(data_with(wizard()) | {"spell_library": ["core"]})
    names = [s.name for s in scenario.model.spells]
    assert "fireball" in names and "sleep" in names
    assert scenario.data["spell_library"] == []  # the data stands alone
    again = scenario_from_data(scenario.data)
    assert [s.name for s in again.model.spells] == names


def test_a_scenario_spell_replaces_the_library_s() -> None:
    mine = {**CORE["fireball"].model_dump(), "level_cap": 5}
    data = data_with(wizard(), spells=[mine]) | {"spell_library": ["core"]}
    spells = scenario_from_data(data).model.spells
    assert [s.level_cap for s in spells if s.name == "fireball"] == [5]


def test_a_library_relative_to_the_scenario(tmp_path: Path) -> None:
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "mine.yaml").write_text(
        "spells:\n  - name: sparks\n    level: 0\n    effect: damage\n    damage: 1d3\n",
        encoding="utf-8")
    caster = creature("adept", caster_level=1, spells=[{"spell": "sparks"}])
    path = tmp_path / "s.yaml"
    path.write_text(json.dumps(data_with(caster) | {"spell_library": ["lib/mine.yaml"]}),
                    encoding="utf-8")
    scenario = load_scenario(path)
    assert [s.name for s in scenario.model.spells] == ["sparks"]


TWICE = ("spells:\n  - {name: a, level: 0, effect: damage}\n"
         "  - {name: a, level: 1, effect: damage}\n")


@pytest.mark.parametrize(("text", "line", "words"), [
    (None, None, "no such spell library file"),
    ("spells: [\n", None, "malformed YAML"),
    ("spells:\n  - name: sparks\n    level: 0\n    effect: damage\n    damage: 1x3\n", 5,
     "spells[0].damage"),
    ("spells:\n  - name: sparks\n    level: 0\n    effect: damage\n    colour: red\n", 5,
     "unknown field 'colour'"),
    (TWICE, 3, "defined twice"),
])
def test_a_bad_library_names_its_file_and_line(tmp_path: Path, text: str | None,
                                               line: int | None, words: str) -> None:
    lib = tmp_path / "mine.yaml"
    if text is not None:
        lib.write_text(text, encoding="utf-8")
    path = tmp_path / "s.yaml"
    path.write_text(json.dumps(data_with(creature()) | {"spell_library": ["mine.yaml"]}),
                    encoding="utf-8")
    with pytest.raises(ScenarioError) as caught:
        load_scenario(path)
    message = str(caught.value)
    assert message.startswith(f"{lib}:{line}: " if line else f"{lib}"), message
    assert words in message
    result = run("validate", path)
    assert result.exit_code == 2 and len(result.output.strip().splitlines()) == 1
    assert str(lib) in result.output and words in result.output
    assert_user_error(run("battle", path, "--seed", "1"), str(lib), words)


def test_an_unknown_shipped_library_is_named(tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(json.dumps(data_with(creature()) | {"spell_library": ["cor"]}),
                    encoding="utf-8")
    result = run("validate", path)
    assert result.exit_code == 2 and len(result.output.strip().splitlines()) == 1
    assert "spell_library[0]: no shipped spell library 'cor'; did you mean core?" in (
        result.output)


# ---------------------------------------------------------------- validate


def invalid(tmp_path: Path, data: dict[str, Any], *needles: str) -> str:
    """``warhost validate`` on the data: exit 2, one line naming the file and the words."""
    path = tmp_path / "bad.yaml"
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")
    result = run("validate", path)
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.output, result.output
    for needle in (str(path), *needles):
        assert needle in lines[0], lines[0]
    return lines[0]


def test_validate_accepts_a_caster_with_the_core_library(tmp_path: Path) -> None:
    path = tmp_path / "ok.yaml"
    path.write_text(json.dumps(data_with(wizard()) | {"spell_library": ["core"]}),
                    encoding="utf-8")
    assert run("validate", path).exit_code == 0


def test_validate_refuses_an_unknown_spell(tmp_path: Path) -> None:
    caster = wizard()
    caster["spells"] = [{"spell": "firebal"}]
    invalid(tmp_path, data_with(caster) | {"spell_library": ["core"]},
            "sides[0].units[0].creature.spells[0].spell", "unknown spell 'firebal'",
            "did you mean fireball")


def test_validate_refuses_a_spell_above_the_caster_s_level(tmp_path: Path) -> None:
    caster = wizard(caster_level=4)
    invalid(tmp_path, data_with(caster) | {"spell_library": ["core"]},
            "creature.spells[0].spell", "level-3 spell", "caster level 4")
    monster = single("drake", "B", kind="monster", at=(20, 12), creature=creature(
        "drake", spells=[{"spell": "red_dragon_breath_young", "special": True},
                         {"spell": "fireball"}]))
    data = scenario_data([unit("a", squares=FRONT), unit("b", "B", squares=FAR)],
                         singles=[monster]) | {"spell_library": ["core"]}
    # the breath weapon is a special ability; fireball needs caster level 5 (the drake has 0)
    invalid(tmp_path, data, "monsters[0].creature.spells[1].spell", "caster level 0")


def test_a_special_ability_ignores_the_caster_level() -> None:
    breath = creature("dragon", spells=[{"spell": "fireball", "special": True, "dc": 19}])
    scenario_from_data(data_with(breath) | {"spell_library": ["core"]})


def test_validate_refuses_a_spell_defined_twice(tmp_path: Path) -> None:
    spells = [CORE["sleep"].model_dump(), CORE["sleep"].model_dump()]
    invalid(tmp_path, data_with(creature(), spells=spells), "spells[1].name", "defined twice")


def test_validate_asks_for_the_squares_of_an_area_not_in_the_table(tmp_path: Path) -> None:
    odd = {"name": "odd", "level": 1, "effect": "damage", "damage": "1d6",
           "area": {"shape": "circle", "feet": 25}}
    invalid(tmp_path, data_with(creature(), spells=[odd]), "spells[0].area", "squares")
    odd["area"] = {"shape": "circle", "feet": 25, "squares": 68}
    model = scenario_from_data(data_with(creature(), spells=[odd])).model
    assert area_counters(model.spells[0].area, 15, Options()) == Fraction(7)
