"""``warhost units``: the derived stat block of every dnd35-wars unit as a table or JSON
(W35-UNIT-01, W35-STAT-06..10/16, W35-SCALE-04/09, W35-AMB-08/72); bad files exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli_helpers import assert_user_error, run

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
FIGHTERS = Path(__file__).resolve().parents[1] / "rulesets" / "dnd35_wars" / "data" / "fighters-and-orcs.yaml"


def changed(tmp_path: Path, old: str, new: str) -> Path:
    """A copy of the example with one piece of text replaced (it must be there once)."""
    text = FIGHTERS.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path = tmp_path / "scenario.yaml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


@pytest.mark.rule("W35-UNIT-01", "W35-UNIT-10", "W35-AMB-01", "W35-AMB-02", "W35-AMB-03",
                  "W35-STAT-06", "W35-STAT-08", "W35-STAT-09", "W35-STAT-10", "W35-STAT-16")
def test_the_seed_fighter_unit_prints_its_stat_block() -> None:
    result = run("units", FIGHTERS)
    assert result.exit_code == 0, result.output
    out = result.stdout
    fighters = out[out.index("Fighters of the March"):out.index("Elf archers")]
    for field, value in [("Counters", "10 x 10 = 100 human fighter"), ("Unit HP", "120"),
                         ("Counter HP", "12"), ("Morale", "+2"), ("Race", "human"),
                         ("Class/Level", "fighter 1"), ("Init", "+5"),
                         ("AC", "18, touch 11"), ("Fort/Ref/Will", "+4/+1/+0"),
                         ("Move Rate", "3 squares"), ("Melee", "+3 (1d8, 19-20/x2)"),
                         ("Ranged", "+2 (1d6+2, x3, 60 ft)")]:
        line = next(ln for ln in fighters.splitlines() if f" {field} " in ln)
        assert value in line, (field, line)
    assert "Scale: 15 ft a square" in out


@pytest.mark.rule("W35-UNIT-01", "W35-STAT-13", "W35-UNIT-05")
def test_json_gives_every_field_with_exact_fractions(tmp_path: Path) -> None:
    slow = changed(tmp_path, "count: 60", "count: 51")
    data = json.loads(run("units", slow, "--json").stdout)
    archers = next(u for u in data["units"] if u["id"] == "archers")
    assert (archers["counters"], archers["per_counter"], archers["creatures"]) == (6, "17/2", 51)
    fighters = data["units"][0]
    assert fighters["unit_hp"] == 120 and fighters["move_rate"] == "3"
    assert fighters["ranged"] == {"bonus": 2, "damage": "1d6+2", "crit_range": 20,
                                  "crit_multiplier": 3, "range_increment": 60}
    half = json.loads(run("units", changed(tmp_path, "scale: 15", "scale: 50"), "--json").stdout)
    assert half["units"][0]["move_rate"] == "1"  # 20 ft at 50 ft a square
    elves = next(u for u in half["units"] if u["id"] == "archers")
    assert elves["move_rate"] == "2"
    epic = run("units", changed(tmp_path, "scale: 15", "scale: 100")).stdout
    fighters = epic[epic.index("Fighters of the March"):epic.index("Elf archers")]
    assert "1/2 squares" in fighters  # one square every other round (W35-STAT-13)


@pytest.mark.rule("W35-SCALE-04", "W35-SCALE-06", "W35-SCALE-09", "W35-AMB-08")
def test_the_scale_suggestion_is_advice_only(tmp_path: Path) -> None:
    out = run("units", FIGHTERS).stdout
    assert "suggested scale: 15 ft for the largest unit, 'fighters'" in out
    bigger = changed(tmp_path, "scale: 15", "scale: 25")
    result = run("units", bigger)
    assert result.exit_code == 0
    assert "suggested scale: 15 ft" in result.stdout and "uses 25 ft; advisory" in result.stdout
    assert "'archers' has 3 counters; 4 to 16 play best (W35-SCALE-09)" in result.stdout


def test_bad_files_exit_2_with_one_line(tmp_path: Path) -> None:
    assert_user_error(run("units", tmp_path / "missing.yaml"), "missing.yaml")
    assert_user_error(run("units", changed(tmp_path, "scale: 15", "scale: 30")),
                      "scale", "15, 25, 50, 100 or 200")
    other = EXAMPLES / "warband" / "hill-archers.yaml"
    assert_user_error(run("units", other), "dnd35-wars", "warband")


def test_the_same_checks_as_validate(tmp_path: Path) -> None:
    overlap = changed(tmp_path, "at: [17, 6]", "at: [11, 6]")
    line = assert_user_error(run("units", overlap), "W35-PLACE-06")
    validated = run("validate", overlap)
    assert validated.exit_code == 2 and line.removeprefix("error: ") in validated.stdout


# ---- part 2: machines and casters, as the battle starts

SIEGE = EXAMPLES / "dnd35-wars" / "siege-of-a-keep.yaml"
HORDE = EXAMPLES / "dnd35-wars" / "necromancer-horde.yaml"


def _block(out: str, title: str) -> dict[str, str]:
    """The rows of the table titled ``title`` (its first line), as field -> value."""
    start = out.index(title)
    rows: dict[str, str] = {}
    for line in out[start:].splitlines()[2:]:
        if not line.startswith("│"):
            break
        cells = [c.strip() for c in line.strip("│").split("│")]
        rows[cells[0]] = cells[1]
    return rows


@pytest.mark.rule("W35-TOWER-07", "W35-TOWER-09", "W35-TOWER-13", "W35-AMB-13", "W35-AMB-46",
                  "W35-TOWER-05")
def test_a_siege_tower_unit_shows_its_stack_initiative_move_and_tower() -> None:
    result = run("units", SIEGE)
    assert result.exit_code == 0, result.output
    tower = _block(result.stdout, "Siege tower (tower, Besiegers)")
    assert tower["Counters"].startswith("7 x 10 = 70 human soldier, stacked on one square")
    assert tower["Init"].startswith("-4")  # the soldiers' +0, -4 in the tower
    assert tower["Move Rate"].startswith("1/2 squares (7.5 ft a round")
    assert tower["Siege Tower"].startswith("100 HP, AC 3, hardness 5")
    data = json.loads(run("units", SIEGE, "--json").stdout)
    unit = next(u for u in data["units"] if u["id"] == "tower")
    assert (unit["counters"], unit["initiative"], unit["move_rate"]) == (7, -4, "1/2")
    assert unit["machine"] == {"kind": "tower", "name": "tower", "hp": 100, "ac": 3,
                               "hardness": 5}


@pytest.mark.rule("W35-SWU-05", "W35-SWU-07", "W35-AMB-13", "W35-SIEGE-13", "W35-SIEGE-16",
                  "W35-AMB-50", "W35-SIEGE-04")
def test_a_siege_weapon_unit_shows_its_weapon_crew_rate_of_fire_and_move() -> None:
    out = run("units", SIEGE).stdout
    catapult = _block(out, "Heavy catapult (catapult, Besiegers)")
    assert catapult["Move Rate"].startswith("1 squares (15 ft a round")
    assert catapult["Crew"].startswith("4 of 10")
    assert catapult["Rate of Fire"].startswith("4 rounds")
    assert catapult["Siege Weapon"].startswith("heavy catapult 6d6, 200 ft, min 100 ft; 80 HP, "
                                               "AC 3, hardness 5")
    ballista = _block(out, "Ballista (ballista, Besiegers)")
    assert ballista["Crew"].startswith("3 of") and "19-20/x2, 120 ft" in ballista["Siege Weapon"]
    data = json.loads(run("units", SIEGE, "--json").stdout)
    unit = next(u for u in data["units"] if u["id"] == "catapult")
    assert (unit["crew"], unit["rate_of_fire"], unit["move_rate"]) == (4, 4, "1")


@pytest.mark.rule("W35-RAM-04", "W35-RAM-08")
def test_a_ram_unit_shows_its_ac_without_dex_and_its_blow(tmp_path: Path) -> None:
    text = SIEGE.read_text(encoding="utf-8").replace("dex: 11", "dex: 14", 1)
    nimble = tmp_path / "siege.yaml"
    nimble.write_text(text, encoding="utf-8")
    ram = _block(run("units", nimble).stdout, "Ram crew (ram, Besiegers)")
    # AC 13 with Dex 14 (+2) loses it: 11, touch 8
    assert ram["AC"] == "11, touch 8 (no Dex, W35-RAM-08)"
    assert ram["Ram"].startswith("14 + 8 x +2 Str = 30 a blow")  # Str 15: +2 each
    unit = next(u for u in json.loads(run("units", nimble, "--json").stdout)["units"]
                if u["id"] == "ram")
    assert (unit["ac"], unit["touch_ac"], unit["ram_damage"]) == (11, 8, 30)


@pytest.mark.rule("W35-MAGIC-01")
def test_the_casters_table_lists_each_spell_with_level_uses_and_dc() -> None:
    result = run("units", HORDE)
    assert result.exit_code == 0, result.output
    out = result.stdout
    table = out[out.index("Spellcasters"):out.index("Scale:")]
    rows = [[c.strip() for c in ln.strip("│").split("│")] for ln in table.splitlines()
            if ln.startswith("│")]
    # DC 10 + spell level + casting modifier 4; no DC for a spell with no save
    assert ["necromancer", "Dead of Vhal", "skeletons", "9", "fireball", "3", "2", "17"] in rows
    assert ["necromancer", "Dead of Vhal", "skeletons", "9", "fear", "4", "2", "18"] in rows
    assert ["high-cleric", "Order of the Dawn", "maces", "9", "bless", "1", "2", "-"] in rows
    assert ["high-cleric", "Order of the Dawn", "maces", "9", "turn undead", "cleric 9", "5",
            "-"] in rows
    data = json.loads(run("units", HORDE, "--json").stdout)
    fireball = next(c for c in data["casters"] if c["spell"] == "fireball")
    assert (fireball["level"], fireball["uses"], fireball["dc"]) == (3, 2, 17)
