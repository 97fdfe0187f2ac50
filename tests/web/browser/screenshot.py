"""Take docs/web-battle.png: the battle page of a shipped example, mid-battle, with a person's
question open (not a test; run it by hand after a change to the page):

    PYTHONPATH=src .venv/bin/python tests/web/browser/screenshot.py [EXAMPLE SIDE ROUNDS OUT]
"""

from __future__ import annotations

import sys
from pathlib import Path

from playwright.sync_api import expect, sync_playwright

sys.path.insert(0, str(Path(__file__).parent))
from conftest import CHROMIUM, LiveServer

ROOT = Path(__file__).resolve().parents[3]


def main(example: str = "fantasy-battle/skirmish", side: str = "Good", rounds: int = 2,
         out: str = str(ROOT / "docs" / "web-battle.png")) -> None:
    with LiveServer() as server, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page(base_url=server.url, viewport={"width": 1440, "height": 900})
        page.goto("/")
        page.get_by_test_id("example-select").select_option(example)
        expect(page.get_by_test_id("check-result")).to_contain_text("✓")
        for select in page.locator("[data-testid=commander]").all():
            select.select_option("person" if select.get_attribute("data-side") == side else "ai")
        page.get_by_test_id("start").click()
        # answer the default until the battle reaches the round wanted
        while True:
            options = page.locator("[data-testid=option]:not([disabled])")
            expect(options.first).to_be_visible()
            round_now = int(page.get_by_test_id("map-svg").get_attribute("data-round") or 0)
            question = page.get_by_test_id("question")
            if round_now >= rounds and question.get_attribute("data-what") == "order" \
                    and page.locator("[data-testid=option]").count() > 2:
                break
            number = question.get_attribute("data-number")
            default = page.locator("[data-testid=option].default")
            (default if default.count() else options).first.click()
            page.wait_for_function(
                "(n) => document.querySelector('[data-testid=question]').dataset.number !== n",
                arg=number)
        # show a pick: the first unit on the map named by an order, clicked
        for text in page.locator("[data-testid=option]").all_inner_texts():
            unit = next((w for w in text.split()
                         if page.locator(f'[data-testid=map-svg] [data-unit="{w}"]').count()), None)
            if unit:
                page.locator(f'[data-testid=map-svg] [data-unit="{unit}"]').first.click()
                break
        page.wait_for_timeout(1200)
        page.screenshot(path=out)
        browser.close()
    print(out)


if __name__ == "__main__":
    args = sys.argv[1:]
    main(*(args[:2]), *([int(args[2])] if len(args) > 2 else []), *args[3:])  # type: ignore[arg-type]
