"""Parameter sweeps: paths into scenario data, values, break-even and a tiny real sweep."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from warhost.cli import app
from warhost.core.errors import WarhostError
from warhost.core.scenario import load_scenario
from warhost.sim.sweep import (
    PathError,
    apply_value,
    find_break_even,
    parse_path,
    parse_vary,
    point_from_records,
    read_value,
    run_sweep,
    sweep_scenarios,
    value_range,
)

ROOT = Path(__file__).resolve().parents[2]
SKIRMISH = ROOT / "examples" / "fantasy-battle" / "skirmish.yaml"

DATA: dict[str, Any] = {
    "victory_points": 8,
    "options": {"max_rounds": 12},
    "sides": [
        {"name": "Good", "units": [{"id": "g-hero", "name": "Ser Corvin", "fate_points": 1}]},
        {"name": "Evil",
         "squads": [{"id": "e-gobs", "members": [{"id": "e-gob-1", "at": [5, 10]},
                                                 {"id": "e-gob-2", "at": [6, 10]}]}],
         "units": [{"id": "e-boss", "name": "Goblin Boss", "at": [3, 11], "fate_points": 0}]},
    ],
}


# --------------------------------------------------------------------------- paths


def test_parse_path_steps() -> None:
    assert parse_path("victory_points") == [("key", "victory_points")]
    assert parse_path("sides[1].squads[-1].members") == [
        ("key", "sides"), ("index", 1), ("key", "squads"), ("index", -1), ("key", "members")]
    assert parse_path("sides[name=Evil].units[e-boss].fate_points") == [
        ("key", "sides"), ("match", "name=Evil"), ("key", "units"), ("match", "e-boss"),
        ("key", "fate_points")]


@pytest.mark.parametrize("text", ["", "a..b", "a.", ".a", "a[", "a[]", "a[0]b", "a.[0]", "1a"])
def test_parse_path_rejects_malformed(text: str) -> None:
    with pytest.raises(PathError) as info:
        parse_path(text)
    assert info.value.field == "--vary"


def test_apply_sets_numbers_without_touching_the_input() -> None:
    before = copy.deepcopy(DATA)
    out = apply_value(DATA, "victory_points", 10)
    assert out["victory_points"] == 10 and isinstance(out["victory_points"], int)
    assert DATA == before
    assert apply_value(DATA, "options.max_rounds", 3)["options"] == {"max_rounds": 3}
    assert apply_value(DATA, "options.max_rounds", 2.5)["options"]["max_rounds"] == 2.5


def test_apply_selects_by_index_id_name_and_key() -> None:
    expected = copy.deepcopy(DATA)
    expected["sides"][1]["units"][0]["fate_points"] = 2
    for path in ("sides[1].units[0].fate_points", "sides[Evil].units[e-boss].fate_points",
                 "sides[name=Evil].units[Goblin Boss].fate_points",
                 "sides[-1].units[id=e-boss].fate_points"):
        assert apply_value(DATA, path, 2) == expected, path


def test_apply_creates_a_missing_field() -> None:
    out = apply_value(DATA, "sides[Good].units[g-hero].abilities_count", 1)
    assert out["sides"][0]["units"][0]["abilities_count"] == 1
    data = {k: v for k, v in DATA.items() if k != "options"}
    assert apply_value(data, "options.max_rounds", 4)["options"] == {"max_rounds": 4}


def test_list_length_truncates() -> None:
    out = apply_value(DATA, "sides[Evil].squads[e-gobs].members", 1)
    assert out["sides"][1]["squads"][0]["members"] == [{"id": "e-gob-1", "at": [5, 10]}]
    assert apply_value(DATA, "sides[Evil].units", 0)["sides"][1]["units"] == []


def test_list_length_extends_with_fresh_ids_and_no_square() -> None:
    out = apply_value(DATA, "sides[Evil].squads[0].members", 4)
    assert out["sides"][1]["squads"][0]["members"] == [
        {"id": "e-gob-1", "at": [5, 10]},
        {"id": "e-gob-2", "at": [6, 10]},
        {"id": "e-gob-2-2"},
        {"id": "e-gob-2-3"},
    ]
    units = apply_value(DATA, "sides[Evil].units", 3)["sides"][1]["units"]
    assert units == [
        {"id": "e-boss", "name": "Goblin Boss", "at": [3, 11], "fate_points": 0},
        {"id": "e-boss-2", "name": "Goblin Boss 2", "fate_points": 0},
        {"id": "e-boss-3", "name": "Goblin Boss 3", "fate_points": 0},
    ]


def test_copied_squads_get_fresh_member_ids() -> None:
    squads = apply_value(DATA, "sides[Evil].squads", 2)["sides"][1]["squads"]
    assert squads[1] == {"id": "e-gobs-2", "members": [{"id": "e-gob-1-2"}, {"id": "e-gob-2-2"}]}
    assert squads[0] == DATA["sides"][1]["squads"][0]


def test_extended_ids_avoid_ids_in_use() -> None:
    data = copy.deepcopy(DATA)
    data["sides"][0]["units"].append({"id": "e-boss-2"})
    units = apply_value(data, "sides[Evil].units", 2)["sides"][1]["units"]
    assert units[1]["id"] == "e-boss-3"


def test_read_value() -> None:
    assert read_value(DATA, "sides[Evil].units[e-boss].fate_points") == 0
    assert read_value(DATA, "options.max_rounds") == 12


@pytest.mark.parametrize(("path", "value", "message"), [
    ("sides[5].units", 1, "index 5 is out of range"),
    ("sides[Orcs].units", 1, "no item with id or name 'Orcs' (there: Good, Evil)"),
    ("sides[name=Orcs]", 1, "no item with name 'Orcs'"),
    ("sides[Evil].name", 1, "is a str ('Evil'), not a number or a list"),
    ("options", 1, "is a mapping"),
    ("victory_points.x", 1, "is not a mapping"),
    ("options[0]", 1, "is not a list"),
    ("sides[Evil].units", 1.5, "whole number"),
    ("sides[Evil].units", -1, "whole number"),
    ("sides[Good].squads[0].members", 1, "sides[Good].squads: no such field"),
])
def test_apply_rejects_paths_that_do_not_fit(path: str, value: float, message: str) -> None:
    with pytest.raises(PathError, match=re.escape(message)):
        apply_value(DATA, path, value)


def test_cannot_grow_an_empty_list() -> None:
    data = copy.deepcopy(DATA)
    data["sides"][0]["units"] = []
    with pytest.raises(PathError, match="empty list"):
        apply_value(data, "sides[Good].units", 2)


# --------------------------------------------------------------------------- values


def test_value_ranges() -> None:
    assert value_range(4, 8, 2) == [4, 6, 8]
    assert value_range(8, 4, -2) == [8, 6, 4]
    assert value_range(0, 1, 0.25) == [0, 0.25, 0.5, 0.75, 1]
    assert value_range(0, 0.3, 0.1) == [0, 0.1, 0.2, 0.3]
    assert value_range(1, 10, 4) == [1, 5, 9]
    assert all(isinstance(v, int) for v in value_range(1, 3, 1))
    vary = parse_vary("options.max_rounds=2:4")
    assert (vary.path, vary.values) == ("options.max_rounds", (2, 3, 4))


@pytest.mark.parametrize(("text", "message"), [
    ("victory_points", "expected PATH=FROM:TO:STEP"),
    ("victory_points=1", "expected FROM:TO:STEP"),
    ("victory_points=a:b", "must be numbers"),
    ("victory_points=1:5:0", "must not be 0"),
    ("victory_points=1:5:-1", "never gets from"),
    ("victory_points=1:100000:1", "too many"),
    ("victory..points=1:2", "misplaced"),
])
def test_parse_vary_errors(text: str, message: str) -> None:
    with pytest.raises(PathError, match=message):
        parse_vary(text)


def test_invalid_scenarios_are_reported_before_running() -> None:
    scenario = load_scenario(SKIRMISH)
    with pytest.raises(WarhostError) as info:
        sweep_scenarios(scenario, parse_vary("sides[Evil].squads[e-gobs].members=3:4"))
    error = info.value
    assert error.field == "--vary" and error.file == str(SKIRMISH)
    assert "sides[Evil].squads[e-gobs].members=3 makes the scenario invalid" in error.message
    ok = sweep_scenarios(scenario, parse_vary("victory_points=6:8:2"))
    assert [(v, s.data["victory_points"]) for v, s in ok] == [(6, 6), (8, 8)]


# --------------------------------------------------------------------------- break-even


def test_break_even_interpolates_linearly() -> None:
    assert find_break_even([1, 2, 3], [0.2, 0.4, 0.8]) == pytest.approx(2.25)
    assert find_break_even([10, 20], [0.9, 0.3]) == pytest.approx(10 + 0.4 / 0.6 * 10)
    assert find_break_even([3, 1, 2], [0.8, 0.2, 0.4]) == pytest.approx(2.25)  # unsorted input


def test_break_even_exact_and_missing() -> None:
    assert find_break_even([1, 2, 3], [0.3, 0.5, 0.7]) == 2.0
    assert find_break_even([1, 2, 3], [0.1, 0.2, 0.5]) == 3.0
    assert find_break_even([1, 2, 3], [0.6, 0.7, 0.9]) is None
    assert find_break_even([1], [0.2]) is None
    assert find_break_even([], []) is None
    # the first crossing counts
    assert find_break_even([1, 2, 3, 4], [0.4, 0.6, 0.4, 0.6]) == pytest.approx(1.5)


def test_point_counts_and_intervals() -> None:
    class R:
        def __init__(self, winner: str | None, rounds: int) -> None:
            self.winner, self.rounds = winner, rounds

    records = [R("Good", 3)] * 6 + [R("Evil", 5)] * 3 + [R(None, 12)]
    point = point_from_records(7, ["Good", "Evil"], records)
    assert (point.n, point.sides["Good"].wins, point.sides["Evil"].wins, point.draws.wins) == (
        10, 6, 3, 1)
    assert point.sides["Good"].probability == 0.6
    assert point.sides["Good"].low < 0.6 < point.sides["Good"].high
    assert point.mean_rounds == pytest.approx(4.5)
    data = point.to_json()
    assert data["value"] == 7 and data["sides"]["Evil"]["wins"] == 3
    assert data["draws"]["count"] == 1


# --------------------------------------------------------------------------- real sweeps


def _tiny_sweep() -> dict[str, Any]:
    scenario = load_scenario(SKIRMISH)
    result = run_sweep(scenario, parse_vary("options.max_rounds=1:3:2"), 20, seed=7, workers=1,
                       commanders={"Good": "random", "Evil": "random"})
    return result.to_json()


def test_tiny_sweep_is_deterministic() -> None:
    first, second = _tiny_sweep(), _tiny_sweep()
    assert first == second
    assert [p["value"] for p in first["points"]] == [1, 3]
    for point in first["points"]:
        counted = sum(s["wins"] for s in point["sides"].values()) + point["draws"]["count"]
        assert counted == point["n"] == 20
        assert point["mean_rounds"] <= point["value"]
    assert first["break_even"]["side"] == "Good"
    json.dumps(first)


def test_sweep_command(tmp_path: Path) -> None:
    plot = tmp_path / "sweep.png"
    store = tmp_path / "sweep.duckdb"
    args = ["sweep", str(SKIRMISH), "--vary", "options.max_rounds=1:2", "-n", "6",
            "--seed", "3", "--workers", "1", "--commander", "Good=random",
            "--commander", "Evil=random"]
    runner = CliRunner()
    result = runner.invoke(app, [*args, "--json", "--plot", str(plot), "--out", str(store)])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["vary"]["values"] == [1, 2] and data["n"] == 6 and data["seed"] == 3
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    import duckdb

    con = duckdb.connect(str(store), read_only=True)
    try:
        assert con.execute("SELECT count(*) FROM sweep_battles").fetchone() == (12,)
        assert con.execute("SELECT count(*) FROM sweep_points").fetchone() == (6,)
    finally:
        con.close()
    table = runner.invoke(app, args)
    assert table.exit_code == 0, table.output
    assert "Break-even (Good at 50%)" in table.stdout


@pytest.mark.parametrize(("vary", "message"), [
    ("sides[Orcs].units=1:2", "error: --vary: sides[Orcs]: no item with id or name 'Orcs'"),
    ("sides[Evil].squads[0].members=3:4",
     "--vary: sides[Evil].squads[0].members=3 makes the scenario invalid"),
    ("victory_points=0:2", "victory_points=0 makes the scenario invalid"),
])
def test_sweep_command_rejects_bad_vary(vary: str, message: str, tmp_path: Path) -> None:
    plot = tmp_path / "never.png"
    result = CliRunner().invoke(app, ["sweep", str(SKIRMISH), "--vary", vary, "-n", "2",
                                      "--plot", str(plot)])
    assert result.exit_code == 2
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert not plot.exists()
