"""``warhost campaign new|fight|show|replay``: the record in SQLite, lasting effects carried to
the next battle, replays from the record, interrupted fights and bad files (WB-AMB-50)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tests.cli_helpers import assert_user_error, run
from warhost.rulesets.warband import campaign as record_module
from warhost.rulesets.warband import game


def _hero(cid: str, at: list[int], captain: bool = False, fate: int = 1) -> dict[str, Any]:
    return {"id": cid, "kind": "hero", "captain": captain, "at": at, "facing": "N",
            "stats": {"agility": 5, "melee": 6, "ranged": 4, "strength": 5, "toughness": 3,
                      "resolve": 6, "wounds": 2, "attacks": 2, "fate": fate},
            "weapons": [{"name": "sword", "kind": "melee"}],
            "items": [{"name": "rope", "kind": "gear"}]}


def _minion(cid: str, at: list[int]) -> dict[str, Any]:
    return {"id": cid, "kind": "minion", "at": at, "facing": "N",
            "stats": {"agility": 4, "melee": 8, "ranged": 3, "strength": 8, "toughness": 3,
                      "resolve": 5, "wounds": 1},
            "weapons": [{"name": "spear", "kind": "melee"}]}


def write_scenario(folder: Path) -> Path:
    data = {"ruleset": "warband", "name": "camp", "map": {"width": 8, "height": 8},
            "options": {"turn_limit": 20},
            "sides": [
                {"name": "Wolves", "commander": "random", "characters": [_hero("w1", [3, 3], True),
                                                  _minion("w2", [4, 3]),
                                                  _minion("w3", [2, 3])]},
                {"name": "Crows", "commander": "random", "characters": [_hero("c1", [3, 4], True),
                                                 _minion("c2", [4, 4]),
                                                 _minion("c3", [2, 4])]}]}
    path = folder / "camp.yaml"
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")  # JSON is YAML
    return path


def dump(db: Path) -> list[str]:
    conn = sqlite3.connect(db)
    try:
        return list(conn.iterdump())
    finally:
        conn.close()


def fight(db: Path, scenario: Path, seed: int, *extra: str) -> Any:
    return run("campaign", "fight", db, "--scenario", scenario, "--seed", str(seed),
               "--commander", "Wolves=random", "--commander", "Crows=random", *extra)


@pytest.fixture
def camp(tmp_path: Path) -> tuple[Path, Path]:
    scenario = write_scenario(tmp_path)
    db = tmp_path / "c.db"
    result = run("campaign", "new", db, "--scenario", scenario)
    assert result.exit_code == 0, result.output
    assert "2 warbands, 6 characters" in result.stdout
    return db, scenario


@pytest.mark.rule("WB-AMB-50")
@pytest.mark.rule("WB-INJURY-14")
def test_new_fight_show_replay(camp: tuple[Path, Path], tmp_path: Path) -> None:
    db, scenario = camp
    for seed in (1, 2):
        result = fight(db, scenario, seed)
        assert result.exit_code == 0, result.output
        assert f"recorded (Cycle {seed}, seed {seed})" in result.stdout
    result = fight(db, scenario, 3, "--same-cycle")
    assert result.exit_code == 0 and "(Cycle 2, seed 3)" in result.stdout
    conn = sqlite3.connect(db)
    rows = conn.execute("SELECT number, cycle, seed, scenario_text, replay FROM battles"
                        ).fetchall()
    stored = [json.loads(r[0]) for r in conn.execute(
        "SELECT result FROM incidents WHERE battle = 2 ORDER BY position")]
    conn.close()
    assert [r[:3] for r in rows] == [(1, 1, 1), (2, 2, 2), (3, 2, 3)]
    assert rows[0][3] == scenario.read_text(encoding="utf-8")
    log = json.loads(rows[1][4])["log"]
    assert stored  # the fight took characters out: each went through the step
    assert stored == [{k: v for k, v in e.items() if k not in ("seq", "type")}
                      for e in log if e["type"] == "incident"]
    assert json.loads(rows[0][4])["scenario"]["options"]["campaign_mode"] is True
    with record_module.connect(db) as conn2:
        rec = record_module.load(conn2, str(db))
    for incident in stored:
        if incident["table"] == "minion":  # 9-10 on the recovery roll: gone, gear lost
            member = rec.members[incident["who"]]
            gone = incident["rolls"][-1] >= 9
            assert (member.status == "retired") == gone
            assert (member.spec["weapons"] == []) == gone

    shown = run("campaign", "show", db)
    assert shown.exit_code == 0, shown.output
    for needle in ("Wolves", "Crows", "Character", "Scores changed", "Injuries", "Fate",
                   "Status", "battle 3: Cycle 2"):
        assert needle in shown.stdout

    out = tmp_path / "b2.json"
    again = run("campaign", "replay", db, "2", "--out", out)
    assert again.exit_code == 0, again.output
    assert again.stdout.startswith("matches: battle 2")
    assert run("replay", out).exit_code == 0
    assert_user_error(run("campaign", "replay", db, "9"), "no battle 9", str(db))


@pytest.mark.rule("WB-AMB-50")
@pytest.mark.rule("WB-INCIDENT-06")
@pytest.mark.rule("WB-SEVERE-04")
def test_lasting_effects_and_losses_reach_the_next_battle(camp: tuple[Path, Path]) -> None:
    db, scenario = camp
    with record_module.connect(db) as conn:
        rec = record_module.load(conn, str(db))
        rec.members["w1"].effects = [
            {"name": "weakened", "from": 1, "until": 1, "scores": {"strength": -1},
             "flags": {}, "traits": []},
            {"name": "major_wound", "from": 1, "until": 2, "scores": {},
             "flags": {"start_wounds_zero": True}, "traits": []}]
        rec.members["w2"].status = record_module.DEAD
        rec.members["c2"].out_until = 1  # recovering through Cycle 1
        conn.execute("BEGIN")
        record_module._write_rosters(conn, rec)
        conn.execute("COMMIT")
    assert fight(db, scenario, 4).exit_code == 0
    conn = sqlite3.connect(db)
    replay = json.loads(conn.execute("SELECT replay FROM battles").fetchone()[0])
    conn.close()
    sides = {s["name"]: {c["id"]: c for c in s["characters"]}
             for s in replay["scenario"]["sides"]}
    assert set(sides["Wolves"]) == {"w1", "w3"} and set(sides["Crows"]) == {"c1", "c3"}
    w1 = sides["Wolves"]["w1"]
    assert w1["stats"]["strength"] == 4 and w1["lasting"] == {"start_wounds_zero": True}
    assert w1["at"] == [3, 3]
    start = next(e for e in replay["log"] if e["type"] == "deploy" and e["who"] == "w1")
    assert start  # deployed from the scenario's square


@pytest.mark.rule("WB-AMB-50")
def test_interrupted_battle_leaves_the_record_as_it_was(camp: tuple[Path, Path],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    db, scenario = camp
    assert fight(db, scenario, 1).exit_code == 0
    before = dump(db)
    real = game.melee_phase

    def melee(state: Any, battle: Any) -> None:
        if state.turn == 2:
            raise KeyboardInterrupt
        real(state, battle)

    monkeypatch.setattr(game, "melee_phase", melee)
    result = fight(db, scenario, 2)
    assert result.exit_code == 130
    assert dump(db) == before


@pytest.mark.rule("WB-AMB-50")
def test_failure_while_saving_rolls_the_whole_fight_back(camp: tuple[Path, Path],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    db, scenario = camp
    before = dump(db)

    def broken(conn: sqlite3.Connection, record: Any) -> None:
        conn.execute("DELETE FROM characters")  # half-done when it fails
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(record_module, "_write_rosters", broken)
    result = fight(db, scenario, 1)
    assert result.exit_code == 3 and "disk on fire" in result.stderr
    assert dump(db) == before


def test_bad_campaign_files(tmp_path: Path) -> None:
    scenario = write_scenario(tmp_path)
    junk = tmp_path / "junk.db"
    junk.write_text("this is not a database at all, just some words" * 20)
    assert_user_error(run("campaign", "show", junk), str(junk), "not a warhost campaign file")
    assert_user_error(run("campaign", "fight", junk, "--scenario", scenario), str(junk),
                      "not a warhost campaign file")
    other = tmp_path / "other.db"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE t (x)")
    conn.close()
    assert_user_error(run("campaign", "show", other), str(other), "not a warhost campaign")
    assert_user_error(run("campaign", "show", tmp_path / "none.db"), "no such campaign file")
    db = tmp_path / "c.db"
    assert run("campaign", "new", db, "--scenario", scenario).exit_code == 0
    assert_user_error(run("campaign", "new", db, "--scenario", scenario), "exists already")


def test_recruits_join_and_a_hero_stands_in_for_a_dead_captain(camp: tuple[Path, Path],
                                                               tmp_path: Path) -> None:
    db, scenario = camp
    data = json.loads(scenario.read_text(encoding="utf-8"))
    data["sides"][0]["characters"].append({**_hero("w4", [5, 3]), "name": "Ada"})
    bigger = tmp_path / "bigger.yaml"
    bigger.write_text(json.dumps(data), encoding="utf-8")
    with record_module.connect(db) as conn:
        rec = record_module.load(conn, str(db))
        rec.members["w1"].status = record_module.DEAD
        conn.execute("BEGIN")
        record_module._write_rosters(conn, rec)
        conn.execute("COMMIT")
    assert fight(db, bigger, 1).exit_code == 0
    conn = sqlite3.connect(db)
    replay = json.loads(conn.execute("SELECT replay FROM battles").fetchone()[0])
    conn.close()
    wolves = {c["id"]: c for c in replay["scenario"]["sides"][0]["characters"]}
    assert set(wolves) == {"w2", "w3", "w4"} and wolves["w4"]["captain"] is True
    with record_module.connect(db) as conn:
        rec = record_module.load(conn, str(db))
    assert rec.members["w4"].warband == "Wolves" and rec.members["w1"].status == "dead"
    assert "Ada (w4)" in run("campaign", "show", db).stdout
