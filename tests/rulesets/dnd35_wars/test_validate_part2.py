"""Hostile and wrong part-2 input to `warhost validate` (spells, siege weapons, towers, rams,
walls, spell libraries, options): each is refused with exit 2 and one line naming the file,
the line and the field, never a traceback.

Every case edits one line of the shipped siege example, so the line named is known."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli_helpers import run

EXAMPLE = Path(__file__).parents[3] / "examples" / "dnd35-wars" / "siege-of-a-keep.yaml"


def edited(tmp_path: Path, anchor: str, old: str, new: str) -> tuple[Path, int]:
    """The example with the first ``old`` after ``anchor`` replaced by ``new``, written to a
    file; the file and the line of the edit (1-based)."""
    text = EXAMPLE.read_text(encoding="utf-8")
    start = text.index(anchor)
    at = text.index(old, start)
    text = text[:at] + new + text[at + len(old):]
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    return path, text.count("\n", 0, at) + 1


def refused(path: Path, line: int | None, *needles: str, run_on: Path | None = None) -> str:
    """``warhost validate`` (on ``run_on``, default ``path``) exits 2 with one line starting
    ``path:line:`` and holding the needles (the field first), no traceback."""
    result = run("validate", run_on or path)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    where = f"{path}:{line}:" if line is not None else str(path)
    assert lines[0].startswith(where), (where, lines[0])
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])
    return lines[0]


def test_the_example_itself_is_valid() -> None:
    assert run("validate", EXAMPLE).exit_code == 0


@pytest.mark.rule("W35-MAGIC-01")
def test_an_unknown_spell(tmp_path: Path) -> None:
    path, line = edited(tmp_path, "battle-mage", "{spell: web", "{spell: webb")
    refused(path, line, "sides[0].npcs[0].creature.spells[1].spell", "unknown spell 'webb'",
            "did you mean web")


@pytest.mark.rule("W35-MAGIC-01")
def test_a_spell_above_the_casters_level(tmp_path: Path) -> None:
    _, line = edited(tmp_path, "battle-mage", "{spell: fireball", "{spell: fireball")
    path, _ = edited(tmp_path, "battle-mage", "caster_level: 7", "caster_level: 4")
    refused(path, line, "creature.spells[0].spell", "level-3 spell", "caster level 4")


@pytest.mark.rule("W35-SWU-05")
def test_a_siege_weapon_without_its_crew(tmp_path: Path) -> None:
    path, line = edited(tmp_path, "id: catapult", "count: 10", "count: 3")
    refused(path, line, "sides[0].units[2].count", "needs", "W35-SWU-05")


@pytest.mark.rule("W35-TOWER-08")
def test_a_siege_tower_with_69_creatures(tmp_path: Path) -> None:
    path, line = edited(tmp_path, "id: tower", "count: 70", "count: 69")
    refused(path, line, "sides[0].units[0].count", "exactly 70", "not 69")


@pytest.mark.rule("W35-RAM-02", "W35-AMB-75")
def test_a_ram_with_the_wrong_crew(tmp_path: Path) -> None:
    path, line = edited(tmp_path, "id: ram", "count: 8", "count: 9")
    refused(path, line, "sides[0].units[1].count", "battering ram", "not 9")


def test_an_unknown_shipped_spell_library(tmp_path: Path) -> None:
    path, line = edited(tmp_path, "spell_library", "[core]", "[nosuch]")
    refused(path, line, "spell_library[0]", "nosuch")


def test_a_library_file_with_a_bad_field(tmp_path: Path) -> None:
    lib = tmp_path / "lib.yaml"
    lib.write_text("spells:\n  - name: sparks\n    level: 0\n    effect: damage\n"
                   "    damage: 1d3\n    colour: red\n", encoding="utf-8")
    path, _ = edited(tmp_path, "spell_library", "[core]", "[core, lib.yaml]")
    refused(lib, 6, "spells[0].colour", "unknown field 'colour'", run_on=path)


@pytest.mark.parametrize("amount", ["1e9", ".nan", "-1e400", "2.5"])
def test_a_spell_amount_out_of_bounds_or_not_a_number(tmp_path: Path, amount: str) -> None:
    spell = ("spells:\n  - {name: hex, level: 1, effect: penalty, stat: attack, "
             f"amount: {amount}, range: close}}\n")
    path, line = edited(tmp_path, "options:", "options:", spell + "options:")
    refused(path, line + 1, "spells[0].amount")


def test_the_spell_lists_are_bounded(tmp_path: Path) -> None:
    many = ", ".join("{spell: fireball}" for _ in range(61))
    path, line = edited(tmp_path, "battle-mage", "spells:\n            - {spell: fireball, uses: 2}"
                        "\n            - {spell: web, uses: 1}", f"spells: [{many}]")
    refused(path, line, "sides[0].npcs[0].creature.spells", "60")
    defined = "".join(f"  - {{name: s{k}, level: 1, effect: damage, damage: 1d4}}\n"
                      for k in range(501))
    path, line = edited(tmp_path, "options:", "options:", "spells:\n" + defined + "options:")
    refused(path, line, "spells", "500")


@pytest.mark.parametrize(("old", "new", "words"), [
    ("round_limit: 20", "round_limit: 20\n  aoe_table: corected", "options.aoe_table"),
    ("round_limit: 20", "round_limit: 20\n  aoe_tabel: printed", "aoe_tabel"),
    ("round_limit: 20", "round_limit: 20\n  aoe_fraction_mode: rounded", "aoe_fraction_mode"),
])
def test_a_misspelt_area_option(tmp_path: Path, old: str, new: str, words: str) -> None:
    path, line = edited(tmp_path, "options:", old, new)
    refused(path, line + 1, words)


@pytest.mark.rule("W35-AMB-45")
def test_a_unit_placed_on_the_enemys_wall(tmp_path: Path) -> None:
    path, line = edited(tmp_path, "id: ballista", "counters: [[14, 8]]", "counters: [[16, 24]]")
    refused(path, line, "sides[0].units[3].counters", "wall-midwest", "W35-AMB-45")


@pytest.mark.rule("W35-AMB-45")
def test_a_wall_held_by_no_such_side(tmp_path: Path) -> None:
    path, line = edited(tmp_path, "id: gate,", "held_by: Garrison", "held_by: Garisson")
    refused(path, line, "map.structures[2].held_by", "Garisson")
