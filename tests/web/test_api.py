"""The HTTP API of ``warhost serve``: the page, the examples, scenario checks and uploads
(size-limited, safe YAML, never reading a file of the server)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from typer.testing import CliRunner

from warhost.cli import app as cli
from warhost.core.errors import ScenarioError, UserFileRefused, no_user_files, read_user_file
from warhost.core.registry import all_rulesets
from warhost.web.uploads import check_text, parse_scenario


def error_of(response: Any) -> dict[str, Any]:
    """The ``error`` object of an error response (every error has one)."""
    body = response.json()
    assert set(body["error"]) >= {"message", "line", "field"}, body
    return body["error"]  # type: ignore[no-any-return]


# --------------------------------------------------------------------------- the page


def test_the_page_the_battle_page_and_the_openapi_docs_are_served(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert client.get("/battle/abc").text == page.text
    docs = client.get("/docs")
    assert docs.status_code == 200 and "swagger" in docs.text.lower()
    paths = client.get("/openapi.json").json()["paths"]
    for path in ("/api/examples", "/api/battles", "/api/battles/{battle_id}/orders",
                 "/api/battles/{battle_id}/dice", "/api/replays", "/api/simulations"):
        assert path in paths


def test_static_files_are_served_and_paths_cannot_leave_the_folder(client: TestClient) -> None:
    static = Path(__file__).parents[2] / "src/warhost/web/static"
    for path in static.glob("*"):
        assert client.get(f"/static/{path.name}").status_code == 200
    assert client.get("/static/../app.py").status_code == 404
    assert client.get("/static/%2e%2e/app.py").status_code == 404


def test_an_unknown_path_is_a_404_in_the_error_shape(client: TestClient) -> None:
    response = client.get("/api/nothing")
    assert response.status_code == 404
    assert error_of(response)["message"]


# --------------------------------------------------------------------------- examples


def test_every_shipped_example_is_listed_with_its_sides_and_its_text(client: TestClient) -> None:
    listed = client.get("/api/examples").json()
    ids = {e["id"] for e in listed}
    for name, ruleset in all_rulesets().items():
        for path in ruleset.examples():
            assert f"{name}/{path.stem}" in ids
    skirmish = next(e for e in listed if e["id"] == "fantasy-battle/skirmish")
    assert skirmish["ruleset"] == "fantasy-battle" and skirmish["sides"] == ["Good", "Evil"]
    text = client.get("/api/examples/fantasy-battle/skirmish").json()
    assert text["id"] == "fantasy-battle/skirmish"
    shipped = next(p for p in all_rulesets()["fantasy-battle"].examples()
                   if p.stem == "skirmish")
    assert text["text"] == shipped.read_text(encoding="utf-8")


def test_an_unknown_example_is_a_404_and_never_a_path(client: TestClient) -> None:
    response = client.get("/api/examples/fantasy-battle/nothing")
    assert response.status_code == 404
    assert "no shipped example" in error_of(response)["message"]
    assert client.get("/api/examples/..%2F..%2Fpyproject/x").status_code == 404
    assert client.post("/api/battles", json={"example": "../../../etc/passwd"}).status_code == 404


# --------------------------------------------------------------------------- scenario checks


def test_a_valid_scenario_is_ok_with_its_ruleset_name_and_sides(client: TestClient,
                                                                 tiny: str) -> None:
    body = client.post("/api/scenarios/check", json={"text": tiny}).json()
    assert body == {"ok": True, "ruleset": "fantasy-battle", "name": "Tiny", "sides": ["A", "B"],
                    "commanders": {"A": "ai", "B": "ai"}}


def test_problems_are_those_of_warhost_validate_with_their_lines(client: TestClient, tiny: str,
                                                                 tmp_path: Path) -> None:
    broken = tiny.replace("victory_points: 3", "victory_points: three").replace(
        "at: [3, 1]", "at: [3, 11]").replace("  max_rounds: 4", "  max_rounds: 4\n  colour: red")
    response = client.post("/api/scenarios/check", json={"text": broken})
    assert response.status_code == 422
    body = response.json()
    assert body["ok"] is False
    path = tmp_path / "upload.yaml"
    path.write_text(broken, encoding="utf-8")
    validated = CliRunner().invoke(cli, ["validate", str(path), "--json"])
    expected = [{k: p[k] for k in ("message", "line", "field")}
                for p in json.loads(validated.stdout)["problems"]]
    got = [{k: p[k] for k in ("message", "line", "field")} for p in body["problems"]]
    assert got == expected and len(got) >= 2
    assert body["error"]["message"] == got[0]["message"]
    assert any(p["line"] == broken.splitlines().index("victory_points: three") + 1
               for p in got)


def test_malformed_yaml_is_named_with_its_line(client: TestClient) -> None:
    body = client.post("/api/scenarios/check",
                       json={"text": "ruleset: fantasy-battle\nname: [x\nsides: []\n"}).json()
    assert body["ok"] is False
    assert body["problems"][0]["message"].startswith("malformed YAML")
    assert body["problems"][0]["line"] == 3


# --------------------------------------------------------------------------- uploads are safe


def test_a_scenario_too_large_is_refused_with_413(make_client: Callable[..., TestClient],
                                                  tiny: str) -> None:
    client = make_client(max_upload=10_000)
    big = tiny + "#" * 10_000 + "\n"
    for path in ("/api/scenarios/check", "/api/battles", "/api/simulations"):
        response = client.post(path, json={"text": big})
        assert response.status_code == 413, (path, response.text)
        assert "larger than 10000 bytes" in error_of(response)["message"]
    huge = client.post("/api/battles", content=b"{" + b" " * 100_000 + b"}",
                       headers={"content-type": "application/json"})
    assert huge.status_code == 413


def test_an_alias_bomb_is_refused_fast(client: TestClient) -> None:
    bomb = "ruleset: fantasy-battle\nl0: &l0 [x, x, x, x, x, x, x, x, x, x]\n"
    for level in range(1, 12):
        bomb += f"l{level}: &l{level} [{', '.join([f'*l{level - 1}'] * 10)}]\n"
    started = time.monotonic()
    response = client.post("/api/scenarios/check", json={"text": bomb})
    assert time.monotonic() - started < 10  # measured, not expanded (about 10**12 values)
    assert response.status_code == 422
    assert "alias" in response.json()["problems"][0]["message"]


def test_a_python_yaml_tag_is_refused_and_never_constructed(client: TestClient, tiny: str,
                                                             tmp_path: Path) -> None:
    marker = tmp_path / "constructed"
    text = tiny.replace("name: Tiny", f"name: !!python/object/apply:os.system ['touch {marker}']")
    body = client.post("/api/scenarios/check", json={"text": text}).json()
    assert body["ok"] is False and body["problems"][0]["line"] == 2
    assert body["problems"][0]["field"] == "name"
    text = tiny.replace("name: Tiny", "name: Tiny\nwhen: !!binary aGVsbG8=")
    body = client.post("/api/scenarios/check", json={"text": text}).json()
    assert "unsupported YAML value" in body["problems"][0]["message"]
    assert not marker.exists()


def test_nan_and_infinity_are_refused(client: TestClient, tiny: str) -> None:
    for value in (".nan", ".inf", "-.inf"):
        text = tiny.replace("victory_points: 3", f"victory_points: {value}")
        body = client.post("/api/scenarios/check", json={"text": text}).json()
        assert body["ok"] is False and body["problems"][0]["field"] == "victory_points"
    response = client.post("/api/battles", content=b'{"text": "x", "seed": NaN}',
                           headers={"content-type": "application/json"})
    assert response.status_code == 400 and error_of(response)["field"] == "seed"


ARMY = """\
ruleset: dnd4e-war
name: Files
sides:
  - name: Legion
    army: {path}
  - name: Horde
    army: armies/orc-horde.yaml
"""


def test_an_upload_naming_a_file_of_the_server_is_refused_at_its_field(client: TestClient) -> None:
    for path in ("/etc/passwd", "../../../../etc/passwd", "armies/iron-legion.yaml"):
        response = client.post("/api/scenarios/check", json={"text": ARMY.format(path=path)})
        problem = response.json()["problems"][0]
        assert "cannot read files of the server" in problem["message"], problem
        assert problem["field"] == "sides[0].army" and problem["line"] == 5
        assert problem["file"] == "upload.yaml"
        started = client.post("/api/battles", json={"text": ARMY.format(path=path)})
        assert started.status_code == 422
        assert "cannot read files of the server" in error_of(started)["message"]


def test_an_upload_naming_a_spell_library_of_its_own_is_refused(client: TestClient) -> None:
    text = client.get("/api/examples/dnd35-wars/necromancer-horde").json()["text"]
    line = text.splitlines().index("spell_library: [core]") + 1
    for entry in ("spells/mine.yaml", "/etc/hosts"):
        mine = text.replace("spell_library: [core]", f"spell_library: [core, {entry}]")
        problem = client.post("/api/scenarios/check", json={"text": mine}).json()["problems"][0]
        assert "cannot read files of the server" in problem["message"]
        assert problem["field"] == "spell_library[1]" and problem["line"] == line


def test_the_guard_refuses_every_file_but_the_packages_own(tmp_path: Path) -> None:
    mine = tmp_path / "mine.yaml"
    mine.write_text("x: 1\n", encoding="utf-8")
    assert read_user_file(mine, ScenarioError, "army") == "x: 1\n"
    with no_user_files():
        try:
            read_user_file(mine, ScenarioError, "army")
        except UserFileRefused as exc:
            assert exc.path == str(mine) and exc.file == "upload.yaml"
        else:
            raise AssertionError("the file was read")
    with no_user_files(allow=[mine]):
        assert read_user_file(mine, ScenarioError, "army") == "x: 1\n"
    assert read_user_file(mine, ScenarioError, "army") == "x: 1\n"  # the guard is gone


def test_a_shipped_spell_library_still_loads_in_an_upload(client: TestClient) -> None:
    text = client.get("/api/examples/dnd35-wars/necromancer-horde").json()["text"]
    assert "spell_library: [core]" in text
    assert parse_scenario(text).ruleset.name == "dnd35-wars"
    assert check_text(text) == []
    assert client.post("/api/scenarios/check", json={"text": text}).json()["ok"] is True


def test_a_request_that_is_not_what_the_endpoint_takes_is_a_400(client: TestClient,
                                                               tiny: str) -> None:
    bad = client.post("/api/battles", content=b"{not json",
                      headers={"content-type": "application/json"})
    assert bad.status_code == 400 and "not valid JSON" in error_of(bad)["message"]
    for body, field in (({"text": 3}, "text"), ({"text": tiny, "seed": -1}, "seed"),
                        ({"text": tiny, "seed": "7"}, "seed"),
                        ({"text": tiny, "manual_dice": "maybe"}, "manual_dice")):
        response = client.post("/api/battles", json=body)
        assert response.status_code == 400, body
        assert error_of(response)["field"] == field
    both = client.post("/api/battles", json={"text": tiny, "example": "fantasy-battle/skirmish"})
    assert both.status_code == 400 and "either" in error_of(both)["message"]
    assert client.post("/api/battles", json={}).status_code == 400
