"""Monte Carlo runs through the HTTP API: progress, then the table and plot of ``warhost
simulate``."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient


def wait_for(client: TestClient, run_id: str, seen: list[int]) -> dict[str, Any]:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        view: dict[str, Any] = client.get(f"/api/simulations/{run_id}").json()
        seen.append(view["done"])
        if view["finished"]:
            return view
        time.sleep(0.02)
    raise AssertionError("the simulation did not finish")


def test_a_small_monte_carlo_runs_to_completion_with_its_progress(client: TestClient,
                                                                  tiny: str) -> None:
    started = client.post("/api/simulations", json={"text": tiny, "n": 40, "seed": 3,
                                                    "commanders": {"B": "random"}})
    assert started.status_code == 201, started.text
    body = started.json()
    assert body["total"] == 40 and body["commanders"] == {"A": "ai", "B": "random"}
    seen: list[int] = []
    view = wait_for(client, body["id"], seen)
    assert view["error"] is None and view["done"] == view["total"] == 40
    assert seen == sorted(seen) and seen[-1] == 40
    summary = view["summary"]
    assert summary["battles"] == 40 and set(summary["sides"]) == {"A", "B"}
    table = view["table"]
    assert table[0] == ["Outcome", "Probability", "95% interval", "Score mean", "Score sd"]
    assert [row[0] for row in table[1:]] == ["A wins", "B wins", "Draw"]
    assert all(row[1].endswith("%") for row in table[1:])
    assert view["units"][0][0] == "Side" and len(view["units"]) == 5
    plot = client.get(view["plot"])
    assert plot.status_code == 200 and plot.headers["content-type"] == "image/svg+xml"
    assert b"<svg" in plot.content[:2000]
    assert plot.headers["content-security-policy"].startswith("default-src 'none'")


def test_the_same_seed_gives_the_same_results(client: TestClient, tiny: str) -> None:
    views = []
    for _ in range(2):
        run_id = client.post("/api/simulations",
                             json={"text": tiny, "n": 10, "seed": 9}).json()["id"]
        views.append(wait_for(client, run_id, []))
    assert views[0]["table"] == views[1]["table"]


def test_an_example_with_a_person_side_is_simulated_with_the_ai(client: TestClient) -> None:
    body = client.post("/api/simulations", json={
        "example": "dnd5e-tactics/forest-ambush", "n": 5, "seed": 1,
        "commanders": {"Rangers of the March": "person"}}).json()
    view = wait_for(client, body["id"], [])
    assert view["commanders"]["Rangers of the March"] == "ai" and view["error"] is None


def test_bad_runs_are_refused(client: TestClient, tiny: str) -> None:
    for body, status, field in (({"text": tiny, "n": 0}, 400, "n"),
                                ({"text": tiny, "n": 100_001}, 400, "n"),
                                ({"text": tiny, "commanders": {"C": "ai"}}, 422, "commander"),
                                ({"text": tiny, "commanders": {"A": "scripted"}}, 422,
                                 "commander"),
                                ({"example": "nope/nope"}, 404, "example")):
        response = client.post("/api/simulations", json=body)
        assert response.status_code == status, (body, response.text)
        assert response.json()["error"]["field"] == field
    assert client.get("/api/simulations/nope").status_code == 404
    assert client.get("/api/simulations/nope/plot.svg").status_code == 404


def test_a_running_simulation_has_no_plot_yet_and_stops_with_the_server(
        make_client: Callable[..., TestClient], tiny: str) -> None:
    client = make_client()
    body = client.post("/api/simulations", json={"text": tiny, "n": 100_000, "seed": 1}).json()
    response = client.get(f"/api/simulations/{body['id']}/plot.svg")
    assert response.status_code == 409 and "no plot yet" in response.json()["error"]["message"]
    job = client.app.state.simulations.get(body["id"])  # type: ignore[attr-defined]
    client.__exit__(None, None, None)
    assert job.wait(timeout=60)
    assert job.error == "the run was stopped" and job.done < 100_000
