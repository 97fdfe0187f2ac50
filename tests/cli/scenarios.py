"""Small scenario files for the CLI and replay tests (written into a temporary directory)."""

from __future__ import annotations

from pathlib import Path

TINY = """\
ruleset: fantasy-battle
name: Tiny
victory_points: 3
options:
  max_rounds: 4
  first_player: A
battlefield:
  width: 8
  height: 8
  terrain:
    - type: hindering
      squares: [[2, 4]]
    - type: shallow_water
      squares: [[5, 4], [6, 4]]
  victory_areas:
    - name: well
      squares: [[4, 4]]
sides:
  - name: A
    commander: {a_commander}
{a_orders}    units:
      - {{id: a-sword, rank: elite, type: infantry, class: warrior, at: [3, 1]}}
      - {{id: a-pike, rank: elite, type: infantry, class: pike, at: [4, 1], facing: north}}
  - name: B
    commander: ai
    units:
      - {{id: b-brute, rank: elite, type: infantry, class: warrior, at: [3, 6]}}
      - {{id: b-bow, rank: elite, type: infantry, class: archer, at: [4, 6]}}
"""

def tiny_text(a_commander: str = "ai", orders: str | None = None) -> str:
    """The text of the tiny scenario; side A may be scripted with an orders file."""
    a_orders = f"    orders: {orders}\n" if orders else ""
    return TINY.format(a_commander=a_commander, a_orders=a_orders)


def write_tiny(directory: Path, name: str = "tiny.yaml", **kwargs: str | None) -> Path:
    """Write the tiny scenario into ``directory`` and return its path."""
    path = directory / name
    path.write_text(tiny_text(**kwargs), encoding="utf-8")  # type: ignore[arg-type]
    return path


def line_of(path: Path, needle: str) -> int:
    """The 1-based number of the first line of ``path`` containing ``needle``."""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if needle in line:
            return number
    raise AssertionError(f"{needle!r} not in {path}")


def write_off_map(directory: Path) -> Path:
    """The tiny scenario with unit a-sword placed off the 8 x 8 map."""
    text = tiny_text().replace("class: warrior, at: [3, 1]", "class: warrior, at: [30, 1]")
    path = directory / "off-map.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def write_misspelt(directory: Path) -> Path:
    """The tiny scenario with two schema problems: a misspelt field and a bad rank."""
    text = tiny_text().replace("victory_points: 3", "victory_points: 3\nvictory_pionts: 4")
    text = text.replace("{id: b-bow, rank: elite", "{id: b-bow, rank: general")
    path = directory / "misspelt.yaml"
    path.write_text(text, encoding="utf-8")
    return path
