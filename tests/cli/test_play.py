"""``warhost play``: a person at the terminal, answered here by a scripted stand-in."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from tests.cli.scenarios import write_tiny
from warhost.cli import app

runner = CliRunner()


class Person:
    """Answers every prompt: the first option for orders, all ones... for dice."""

    def __init__(self, face: int = 3) -> None:
        self.face = face
        self.prompts: list[str] = []

    def __call__(self, prompt: Any = "", **_: Any) -> str:  # stands in for Console.input
        text = str(prompt)
        self.prompts.append(text)
        dice = re.match(r"(?:Roll|Please type) (\d+)", text)
        if dice:
            return " ".join([str(self.face)] * int(dice.group(1)))
        return "1"


@pytest.fixture
def person(monkeypatch: pytest.MonkeyPatch) -> Person:
    who = Person()
    monkeypatch.setattr(Console, "input", who)
    return who


def test_play_asks_the_person_and_saves_a_replay(tmp_path: Path, person: Person) -> None:
    tiny = write_tiny(tmp_path)
    out = tmp_path / "played.json"
    result = runner.invoke(app, ["play", str(tiny), "--side", "A", "--seed", "4",
                                 "--replay", str(out)])
    assert result.exit_code == 0, result.output
    assert any(p.startswith("[A]") for p in person.prompts)
    assert "You command A" in result.stdout
    assert "Scores:" in result.stdout
    data = json.loads(out.read_text())
    assert data["commanders"] == {"A": "human", "B": "ai"}
    assert "dice" not in data
    # the person's battle re-runs to the same log (seeded dice as in any battle)
    check = runner.invoke(app, ["replay", str(out)])
    assert check.exit_code == 0, check.output


def test_play_with_manual_dice_records_the_faces(tmp_path: Path, person: Person) -> None:
    tiny = write_tiny(tmp_path)
    out = tmp_path / "manual.json"
    result = runner.invoke(app, ["play", str(tiny), "--side", "B", "--seed", "4",
                                 "--manual-dice", "--replay", str(out)])
    assert result.exit_code == 0, result.output
    assert any(p.startswith("Roll ") for p in person.prompts)
    data = json.loads(out.read_text())
    assert data["dice"] and set(data["dice"]) == {3}
    rolls = [e for e in data["log"] if e["type"] == "roll"]
    assert sum(len(e["faces"]) for e in rolls) == len(data["dice"])
    check = runner.invoke(app, ["replay", str(out)])
    assert check.exit_code == 0, check.output


def test_play_unknown_side(tmp_path: Path) -> None:
    result = runner.invoke(app, ["play", str(write_tiny(tmp_path)), "--side", "Z"])
    assert result.exit_code == 2
    assert result.stderr.splitlines() == ["error: side: no side named 'Z' (sides: A, B)"]


def test_play_input_ends(tmp_path: Path) -> None:
    result = runner.invoke(app, ["play", str(write_tiny(tmp_path)), "--side", "A", "--seed", "4"],
                           input="")
    assert result.exit_code == 2
    saved = tmp_path / "tiny.play.json"
    assert result.stderr.strip().splitlines() == [
        f"error: input ended before the battle did; the battle so far is saved in {saved}: "
        f"continue it with warhost play --resume {saved}"]
    assert "Traceback" not in result.output


def test_play_interrupted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupt(*_: Any, **__: Any) -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr(Console, "input", interrupt)
    result = runner.invoke(app, ["play", str(write_tiny(tmp_path)), "--side", "A", "--seed", "4"])
    assert result.exit_code == 130
    saved = tmp_path / "tiny.play.json"
    assert result.stderr.splitlines() == [
        f"error: interrupted; the battle so far is saved in {saved}: continue it with "
        f"warhost play --resume {saved}"]
