"""Replay files: writing, reading, checking and re-running (warhost.core.replay)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.cli.scenarios import write_tiny
from warhost import __version__
from warhost.core.dice import ScriptedDice
from warhost.core.engine import run_battle
from warhost.core.errors import ReplayError, WarhostError
from warhost.core.replay import (
    RecordingDice,
    atomic_output,
    compare,
    dumps_replay,
    load_replay,
    replay_data,
    rerun,
    save_replay,
    write_text_atomically,
)
from warhost.core.scenario import Scenario, load_scenario

KINDS = {"A": "ai", "B": "ai"}


@pytest.fixture
def scenario(tmp_path: Path) -> Scenario:
    return load_scenario(write_tiny(tmp_path))


@pytest.fixture
def saved(scenario: Scenario, tmp_path: Path) -> Path:
    result = run_battle(scenario, 9)
    path = tmp_path / "r.json"
    save_replay(result, scenario, path, KINDS)
    return path


def rewrite(path: Path, change: Any) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(dumps_replay(data), encoding="utf-8")


# --------------------------------------------------------------------------- atomic files


def test_atomic_output_keeps_the_old_file_when_writing_fails(tmp_path: Path) -> None:
    target = tmp_path / "out.txt"
    target.write_text("old", encoding="utf-8")
    with pytest.raises(RuntimeError), atomic_output(target) as temp:
        temp.write_text("half", encoding="utf-8")
        raise RuntimeError("disk on fire")
    assert target.read_text(encoding="utf-8") == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["out.txt"]


def test_atomic_write_replaces_whole_file(tmp_path: Path) -> None:
    target = tmp_path / "out.txt"
    target.write_text("old", encoding="utf-8")
    write_text_atomically(target, "new")
    assert target.read_text(encoding="utf-8") == "new"
    assert [p.name for p in tmp_path.iterdir()] == ["out.txt"]


def test_atomic_output_into_a_missing_directory(tmp_path: Path) -> None:
    with pytest.raises(WarhostError, match="no such directory"):
        write_text_atomically(tmp_path / "no" / "x.json", "{}")


# --------------------------------------------------------------------------- the format


def test_replay_document_fields(scenario: Scenario) -> None:
    result = run_battle(scenario, 9)
    data = replay_data(result, scenario, KINDS)
    assert list(data)[:8] == ["format", "version", "warhost", "ruleset", "scenario_file",
                              "scenario", "seed", "commanders"]
    assert data["format"] == "warhost-replay"
    assert data["version"] == 1
    assert data["warhost"] == __version__
    assert data["ruleset"] == "fantasy-battle@1"
    assert data["scenario"] == scenario.data
    assert data["decisions"] == result.decisions
    assert data["events"] == len(result.log)
    assert data["log_sha256"] == result.log.digest()
    assert data["log"] == result.log.events
    assert "dice" not in data
    assert json.loads(dumps_replay(data)) == data


def test_one_decision_per_line(saved: Path) -> None:
    replay = load_replay(saved)
    lines = saved.read_text(encoding="utf-8").splitlines()
    for index in (0, len(replay.decisions) - 1):
        number = replay.decision_line(index)
        assert number is not None
        assert json.loads(lines[number - 1].rstrip(",")) == replay.decisions[index]


def test_rerun_matches(saved: Path) -> None:
    replay = load_replay(saved)
    result, matches = rerun(replay)
    assert matches
    assert result.log.digest() == replay.log_sha256
    assert compare(replay, result) is None


def test_replay_without_stored_log_still_checks_the_digest(
    scenario: Scenario, tmp_path: Path
) -> None:
    path = tmp_path / "short.json"
    save_replay(run_battle(scenario, 9), scenario, path, KINDS, keep_log=False)
    assert "log" not in json.loads(path.read_text())
    assert rerun(load_replay(path))[1]
    rewrite(path, lambda d: d.update(log_sha256="f" * 64))
    result, matches = rerun(load_replay(path))
    assert not matches
    difference = compare(load_replay(path), result)
    assert difference is not None and difference.field == "log_sha256"


# --------------------------------------------------------------------------- tampering


def test_tampered_event_is_found_by_index(saved: Path) -> None:
    def change(data: dict[str, Any]) -> None:
        data["log"][3]["tampered"] = True

    rewrite(saved, change)
    replay = load_replay(saved)
    result, matches = rerun(replay)
    assert not matches
    difference = compare(replay, result)
    assert difference is not None
    assert difference.index == 3
    assert "event 3 differs" in difference.message


def test_tampered_digest(saved: Path) -> None:
    rewrite(saved, lambda d: d.update(log_sha256="0" * 64))
    replay = load_replay(saved)
    result, matches = rerun(replay)
    assert not matches
    difference = compare(replay, result)
    assert difference is not None and "log_sha256" in difference.message


def test_tampered_decision_diverges_or_differs(saved: Path) -> None:
    def change(data: dict[str, Any]) -> None:
        data["decisions"][0]["order"] = "activate nobody"

    rewrite(saved, change)
    replay = load_replay(saved)
    with pytest.raises(ReplayError) as caught:
        rerun(replay)
    error = caught.value
    assert error.field == "decisions"
    assert error.file == str(saved)
    assert error.line == replay.decision_line(0)


def test_swapped_decision_changes_the_log(saved: Path) -> None:
    """A different but legal choice plays a different battle: found by event index."""
    replay = load_replay(saved)
    first = replay.decisions[0]
    if first["kind"] != "activate":
        pytest.skip("first decision is not an activation")
    other = "activate a-pike" if first["order"] != "activate a-pike" else "activate a-sword"

    def change(data: dict[str, Any]) -> None:
        data["decisions"][0]["order"] = other

    rewrite(saved, change)
    replay = load_replay(saved)
    try:
        result, matches = rerun(replay)
    except ReplayError as exc:  # later recorded decisions no longer fit: also a difference
        assert exc.field == "decisions"
        return
    assert not matches
    difference = compare(replay, result)
    assert difference is not None and difference.index is not None


# --------------------------------------------------------------------------- loading errors


def test_other_warhost_version(saved: Path) -> None:
    rewrite(saved, lambda d: d.update(warhost="9.9.9"))
    with pytest.raises(ReplayError) as caught:
        load_replay(saved)
    assert caught.value.field == "version"
    assert caught.value.file == str(saved)
    assert caught.value.line == 4
    assert "9.9.9" in str(caught.value)


def test_other_ruleset_version(saved: Path) -> None:
    rewrite(saved, lambda d: d.update(ruleset="fantasy-battle@2"))
    with pytest.raises(ReplayError) as caught:
        load_replay(saved)
    assert caught.value.field == "ruleset"
    assert "fantasy-battle@2" in str(caught.value)


def test_other_format_version(saved: Path) -> None:
    rewrite(saved, lambda d: d.update(version=2))
    with pytest.raises(ReplayError) as caught:
        load_replay(saved)
    assert caught.value.field == "version"


def test_malformed_json_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{\n  "format": "warhost-replay",\n  "seed": 1\n  "x": 2\n}', encoding="utf-8")
    with pytest.raises(ReplayError) as caught:
        load_replay(path)
    assert caught.value.line == 4
    assert str(caught.value).startswith(f"{path}:4: malformed JSON")


def test_not_a_replay(tmp_path: Path) -> None:
    path = tmp_path / "other.json"
    path.write_text('{"hello": 1}', encoding="utf-8")
    with pytest.raises(ReplayError, match="not a warhost replay"):
        load_replay(path)


def test_missing_field(saved: Path) -> None:
    rewrite(saved, lambda d: d.pop("seed"))
    with pytest.raises(ReplayError) as caught:
        load_replay(saved)
    assert caught.value.field == "seed"


def test_bad_decision_record(saved: Path) -> None:
    def change(data: dict[str, Any]) -> None:
        data["decisions"][1] = {"side": "A"}

    rewrite(saved, change)
    with pytest.raises(ReplayError) as caught:
        load_replay(saved)
    assert caught.value.field == "decisions[1]"


# --------------------------------------------------------------------------- manual dice


def test_manual_dice_are_recorded_and_replayed(scenario: Scenario, tmp_path: Path) -> None:
    faces = [(i * 5) % 6 + 1 for i in range(5000)]
    dice = RecordingDice(ScriptedDice(faces))
    result = run_battle(scenario, 3, dice=dice)
    assert dice.faces == faces[: len(dice.faces)]
    rolled = sum(len(e["faces"]) for e in result.log.of_type("roll"))
    assert len(dice.faces) >= rolled
    path = tmp_path / "manual.json"
    save_replay(result, scenario, path, KINDS, dice=dice.faces)
    replay = load_replay(path)
    assert replay.dice == dice.faces
    again, matches = rerun(replay)
    assert matches
    assert again.log.digest() == result.log.digest()


def test_manual_dice_faces_must_be_numbers(scenario: Scenario, tmp_path: Path) -> None:
    path = tmp_path / "manual.json"
    save_replay(run_battle(scenario, 3), scenario, path, KINDS, dice=[1, 2])
    rewrite(path, lambda d: d.update(dice=[1, "two"]))
    with pytest.raises(ReplayError) as caught:
        load_replay(path)
    assert caught.value.field == "dice"
