"""warhost serve, end to end in a real browser (Playwright driving Debian's chromium).

Each test starts from the page as a person sees it: picks an example or uploads a file,
chooses the commanders, starts, then watches, clicks options and the map, types dice, or
opens the join links in other browser contexts.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

ROOT = Path(__file__).resolve().parents[3]
SKIRMISH = "fantasy-battle/skirmish"
FLANK = "dnd4e-war/flank-charge"
GIANT = "dnd35-wars/giant-and-goblins"


def start_battle(page: Any, example: str, commanders: dict[str, str], *, seed: int = 1,
                 manual_dice: bool = False) -> None:
    """Pick ``example`` on the setup page, set the commanders and the seed, and start."""
    page.get_by_test_id("example-select").select_option(example)
    expect(page.get_by_test_id("check-result")).to_contain_text("✓")
    for side, kind in commanders.items():
        page.locator(f'[data-testid=commander][data-side="{side}"]').select_option(kind)
    page.get_by_test_id("seed").fill(str(seed))
    if manual_dice:
        page.get_by_test_id("manual-dice").check()
    page.get_by_test_id("start").click()
    expect(page.get_by_test_id("battle")).to_be_visible()
    expect(page.get_by_test_id("map")).to_be_visible()


def question_number(page: Any) -> str | None:
    value: str | None = page.get_by_test_id("question").get_attribute("data-number")
    return value


def wait_for_next(page: Any, before: str | None) -> None:
    """Wait until the question changed from ``before`` or the battle ended."""
    page.wait_for_function(
        """(before) => {
            const w = document.querySelector('[data-testid=winner]');
            const q = document.querySelector('[data-testid=question]');
            return (w && !w.hidden) || (q && q.dataset.number !== before
                && q.querySelector('[data-testid=option]:not([disabled]), [data-testid=dice-input], [data-testid=waiting]'));
        }""", arg=before)


def over(page: Any) -> bool:
    return bool(page.get_by_test_id("winner").is_visible())


def test_page_loads(page: Any, server: Any) -> None:
    expect(page).to_have_title("warhost")
    select = page.get_by_test_id("example-select")
    expect(select.locator(f'option[value="{SKIRMISH}"]')).to_have_count(1)
    for ruleset in ("fantasy-battle", "dnd5e-tactics", "warband", "dnd4e-war", "dnd35-wars"):
        expect(select.locator(f'optgroup[label="{ruleset}"]')).to_have_count(1)
    select.select_option(SKIRMISH)
    expect(page.get_by_test_id("editor")).to_have_value(re.compile("Skirmish at the Old Mill"))
    expect(page.locator("[data-testid=commander]")).to_have_count(2)
    assert page.request.get(server.url + "/docs").ok
    assert page.js_errors == []


def test_ai_battle_runs_to_its_end_and_can_be_replayed(page: Any, tmp_path: Path) -> None:
    start_battle(page, SKIRMISH, {"Good": "ai", "Evil": "ai"})
    expect(page.get_by_test_id("winner")).to_have_text(re.compile(r"Winner: (Good|Evil)"))
    page.wait_for_function("document.querySelectorAll('[data-testid=log-line]').length > 20")
    expect(page.get_by_test_id("frame-label")).not_to_be_empty()
    # a finished battle plays from its start; pause, step, jump to a round, follow live
    page.get_by_test_id("live").click()
    label = page.get_by_test_id("frame-label")
    expect(label).to_contain_text("(live)")
    final = label.inner_text()
    page.get_by_test_id("step-back").click()
    expect(label).not_to_have_text(final)
    assert page.locator("#log .line.future").count() > 0  # the log shows the story so far
    page.get_by_test_id("step-forward").click()
    expect(label).to_have_text(re.compile(r"frame (\d+)/\1"))
    page.get_by_test_id("round-slider").fill("2")
    expect(label).to_contain_text("round 2")
    page.get_by_test_id("play").click()
    expect(page.get_by_test_id("play")).to_contain_text("pause")
    page.get_by_test_id("play").click()
    expect(page.get_by_test_id("play")).to_contain_text("play")
    # the grid map: every square a rect, units with ids and side colours, a legend
    svg = page.get_by_test_id("map-svg")
    assert svg.locator("rect.sq").count() == 14 * 12
    assert svg.locator("[data-unit][data-side]").count() >= 1
    expect(page.get_by_test_id("legend")).to_contain_text("Good")
    # save the replay, load it on a fresh page: the same winner
    winner = page.get_by_test_id("winner").inner_text()
    with page.expect_download() as download:
        page.get_by_test_id("save-replay").click()
    saved = tmp_path / "replay.json"
    download.value.save_as(saved)
    assert json.loads(saved.read_text())
    page.goto("/")
    page.get_by_test_id("replay-file").set_input_files(str(saved))
    expect(page.get_by_test_id("winner")).to_have_text(winner)
    assert page.js_errors == []


def test_play_a_side_by_clicking_the_map_and_the_options(page: Any) -> None:
    start_battle(page, SKIRMISH, {"Good": "person", "Evil": "ai"})
    expect(page.get_by_test_id("status")).to_contain_text("you command Good")
    by_unit = by_square = by_option = refused = 0
    deadline = time.monotonic() + 60
    while not over(page):
        assert time.monotonic() < deadline, "the battle did not end"
        options = page.get_by_test_id("option")
        expect(options.first).to_be_enabled()
        before = question_number(page)
        texts = options.all_inner_texts()
        default = page.locator("[data-testid=option].default")
        choice = default.inner_text() if default.count() else texts[0]
        words = choice.split()
        units = [w for w in words if page.locator(f'[data-testid=map-svg] [data-unit="{w}"]').count()]
        squares = page.locator(f'[data-testid=map-svg] rect.sq[data-x="{words[-2]}"][data-y="{words[-1]}"]') \
            if len(words) >= 3 and words[-1].isdigit() and words[-2].isdigit() else None
        if not refused and page.get_by_test_id("order-input").count() and texts[-1].startswith("move "):
            # an illegal order is refused with the reason and the rule
            page.locator('[data-testid=map-svg] rect.sq[data-x="13"][data-y="11"]').click()
            expect(page.get_by_test_id("propose-free")).to_have_text("move 13 11")
            page.get_by_test_id("propose-free").click()
            expect(page.get_by_test_id("question-error")).to_have_text(re.compile(r"\(FB-MOVE-\d+\)"))
            assert question_number(page) == before
            page.get_by_test_id("clear-pick").click()
            refused += 1
        if units and sum(units[0] in t.split() for t in texts) == 1:
            page.locator(f'[data-testid=map-svg] [data-unit="{units[0]}"]').first.click()
            expect(page.get_by_test_id("propose")).to_have_text(choice)
            page.get_by_test_id("propose").click()
            by_unit += 1
        elif squares is not None and squares.count() and sum(t.endswith(f" {words[-2]} {words[-1]}") for t in texts) == 1:
            box = squares.bounding_box()  # a click where the square is, whatever stands on it
            page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
            expect(page.get_by_test_id("propose")).to_have_text(choice)
            page.get_by_test_id("propose").click()
            by_square += 1
        else:
            options.filter(has_text=re.compile("^" + re.escape(choice) + "$")).first.click()
            by_option += 1
        wait_for_next(page, before)
    expect(page.get_by_test_id("winner")).to_contain_text("Winner")
    assert by_unit and by_square and by_option and refused, (by_unit, by_square, by_option)
    assert page.js_errors == []


def test_manual_dice_bad_face_refused_then_good_faces_taken(page: Any) -> None:
    start_battle(page, GIANT, {"Border army": "person", "Hill folk": "ai"}, manual_dice=True)
    question = page.get_by_test_id("question")
    expect(question).to_have_attribute("data-what", "dice")
    expect(page.get_by_test_id("prompt")).to_contain_text("1d20")
    before = question_number(page)
    page.get_by_test_id("dice-input").fill("25")
    page.get_by_test_id("dice-submit").click()
    expect(page.get_by_test_id("question-error")).not_to_be_empty()
    assert question_number(page) == before
    page.get_by_test_id("dice-input").fill("12")
    page.get_by_test_id("dice-submit").click()
    wait_for_next(page, before)
    expect(page.get_by_test_id("prompt")).to_contain_text("Hill folk")  # the other side's roll
    before = question_number(page)
    page.get_by_test_id("dice-input").fill("5")
    page.get_by_test_id("dice-input").press("Enter")
    wait_for_next(page, before)
    battle = page.url.split("/battle/")[1].split("?")[0]
    events = page.request.get(f"/api/battles/{battle}/events?since=0").json()["events"]
    placement = next(e for e in events if e["type"] == "placement")
    assert placement["rolls"] == {"Border army": 12, "Hill folk": 5}
    expect(page.get_by_test_id("log")).to_contain_text("12")
    assert page.js_errors == []


def test_a_broken_upload_shows_its_problem_and_line(page: Any, tmp_path: Path) -> None:
    text = (ROOT / "examples" / "fantasy-battle" / "skirmish.yaml").read_text()
    lines = text.splitlines()
    bad = next(i for i, line in enumerate(lines) if line.startswith("victory_points:"))
    lines[bad] = "victory_points: lots"
    broken = tmp_path / "broken.yaml"
    broken.write_text("\n".join(lines) + "\n")
    page.get_by_test_id("scenario-file").set_input_files(str(broken))
    problem = page.get_by_test_id("problem").first
    expect(problem).to_contain_text(f"line {bad + 1}")
    expect(problem).to_contain_text("victory_points")
    expect(page.locator(f'[data-testid=bad-line][data-line="{bad + 1}"]')).to_be_visible()
    expect(page.get_by_test_id("start")).to_be_disabled()
    # fixing it in the editor clears the problem
    page.get_by_test_id("editor").fill(text)
    expect(page.get_by_test_id("check-result")).to_contain_text("✓")
    expect(page.get_by_test_id("problem")).to_have_count(0)
    expect(page.get_by_test_id("start")).to_be_enabled()


def test_two_browsers_command_one_side_each_and_a_third_watches(new_page: Any) -> None:
    host = new_page("/")
    start_battle(host, FLANK, {"Humans": "person", "Orcs": "person"})
    links = {host.get_by_test_id("join-link").nth(i).get_attribute("data-side"):
             host.get_by_test_id("join-link").nth(i).input_value() for i in range(2)}
    watch = host.get_by_test_id("watch-link").input_value()
    host.close()
    players = {side: new_page(link) for side, link in links.items()}
    watcher = new_page(watch)
    for side, player in players.items():
        expect(player.get_by_test_id("status")).to_contain_text(f"you command {side}")
    expect(watcher.get_by_test_id("status")).to_contain_text("watching")
    battle = watch.rsplit("/", 1)[1]
    seen_waiting = set()
    deadline = time.monotonic() + 60
    while True:
        assert time.monotonic() < deadline, "the battle did not end"
        state = watcher.request.get(f"/api/battles/{battle}").json()
        if state["over"]:
            break
        side = state["question"]["side"]
        player = players[side]
        other = next(p for s, p in players.items() if s != side)
        options = player.locator("[data-testid=option]:not([disabled])")
        expect(options.first).to_be_visible()
        if other.get_by_test_id("waiting").count():
            seen_waiting.add(side)
        before = question_number(player)
        default = player.locator("[data-testid=option].default")
        (default if default.count() else options).first.click()
        wait_for_next(player, before)
    expect(watcher.get_by_test_id("winner")).to_be_visible()
    assert seen_waiting, "neither player ever saw the other's turn"
    expect(watcher.get_by_test_id("waiting")).to_have_count(0)
    winner = watcher.get_by_test_id("winner").inner_text()
    for player in players.values():
        expect(player.get_by_test_id("winner")).to_have_text(winner)
    for p in [*players.values(), watcher]:
        assert p.js_errors == []


def test_monte_carlo_shows_progress_and_the_table(page: Any) -> None:
    page.get_by_test_id("example-select").select_option(SKIRMISH)
    expect(page.get_by_test_id("check-result")).to_contain_text("✓")
    page.get_by_test_id("sim-n").fill("20")
    page.get_by_test_id("sim-run").click()
    table = page.get_by_test_id("sim-table")
    expect(table).to_be_visible(timeout=30_000)
    expect(table).to_contain_text("Good")
    expect(page.get_by_test_id("sim-count")).to_have_text("20 / 20")
    expect(page.get_by_test_id("sim-plot")).to_be_visible()
    assert page.js_errors == []


def test_the_table_map_shows_trays_and_a_click_on_a_unit_narrows_the_orders(page: Any) -> None:
    start_battle(page, FLANK, {"Humans": "person", "Orcs": "ai"})
    svg = page.get_by_test_id("map-svg")
    expect(svg).to_have_attribute("data-geometry", "table")
    expect(svg.locator('[data-unit="spearmen"] .tray')).to_have_count(4)  # four company trays
    assert svg.locator(".area").count() == 2
    assert svg.locator(".facing").count() >= 2
    expect(page.get_by_test_id("prompt")).to_contain_text("Which unit moves next?")
    svg.locator('[data-unit="knights"]').click()
    expect(page.get_by_test_id("pick-note")).to_contain_text("knights")
    expect(page.get_by_test_id("option")).to_have_count(1)
    before = question_number(page)
    page.get_by_test_id("filter").press("Enter")  # the one order left, given with Enter
    wait_for_next(page, before)
    expect(page.get_by_test_id("prompt")).to_contain_text("Knights of the Ford")
    assert page.js_errors == []


def test_a_map_pick_on_a_past_frame_brings_the_battle_back_to_now(page: Any) -> None:
    """Looking back at an earlier frame while an order is due, a click on the map returns
    the view to the battlefield as it stands, and narrows the orders to the unit clicked (or,
    for a move, to its square)."""
    start_battle(page, SKIRMISH, {"Good": "person", "Evil": "ai"}, seed=2)
    options = page.get_by_test_id("option")
    expect(options.first).to_be_enabled()
    for _ in range(6):  # a few orders, so that there are frames to look back on
        before = question_number(page)
        options.first.click()
        wait_for_next(page, before)
    expect(page.get_by_test_id("frame-label")).to_contain_text("(live)")
    page.get_by_test_id("step-back").click()
    expect(page.get_by_test_id("frame-label")).not_to_contain_text("(live)")
    page.locator('[data-testid=map-svg] g.unit[data-side="Good"]').first.click()
    expect(page.get_by_test_id("frame-label")).to_contain_text("(live)")
    expect(page.get_by_test_id("question")).to_contain_text("orders naming ")
    assert page.js_errors == []
