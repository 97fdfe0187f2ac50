"""Figures of Monte Carlo results: files written, atomically, from real and hand-made data."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from warhost.core.errors import WarhostError
from warhost.core.scenario import load_scenario
from warhost.render.plots import (
    outcome_rates,
    plot_summary,
    plot_sweep,
    side_strengths,
    summary_figure,
    sweep_figure,
    wrap_name,
)
from warhost.sim.runner import BattleRecord, UnitRow, simulate
from warhost.sim.stats import wilson

ROOT = Path(__file__).resolve().parents[2]
SKIRMISH = ROOT / "examples" / "fantasy-battle" / "skirmish.yaml"
PNG = b"\x89PNG\r\n\x1a\n"


def _record(index: int, winner: str | None, rounds: int, good: int, evil: int) -> BattleRecord:
    units = [UnitRow(f"g{i}", "Good", 1, int(i < good), int(i >= good), "alive")
             for i in range(3)]
    units += [UnitRow(f"e{i}", "Evil", 2, 2 if i < evil else 0, 0 if i < evil else 2, "alive")
              for i in range(2)]
    return BattleRecord(index, index, winner, rounds, "", {"Good": 1, "Evil": 0}, units)


RECORDS = [_record(0, "Good", 3, 3, 0), _record(1, "Good", 5, 2, 1), _record(2, "Evil", 4, 0, 2),
           _record(3, None, 12, 1, 1)]


def _no_temp_files(directory: Path) -> bool:
    return not [p for p in directory.iterdir() if p.name.startswith(".")]


def test_outcome_rates_and_strengths_from_records() -> None:
    rates = outcome_rates({}, RECORDS)
    assert [r[0] for r in rates] == ["Good", "Evil", "Draw"]
    assert rates[0][1:] == (0.5, *wilson(2, 4))
    assert rates[2][1] == 0.25
    assert side_strengths(RECORDS, ["Good", "Evil"]) == {"Good": [3, 2, 0, 1],
                                                          "Evil": [0, 2, 4, 2]}


def test_outcome_rates_prefer_the_summary() -> None:
    summary = {"sides": {"Good": {"win_probability": 0.7, "interval": [0.6, 0.8]},
                         "Evil": {"win_probability": 0.2, "interval": [0.1, 0.3]}},
               "draws": {"rate": 0.1, "interval": [0.05, 0.2]}}
    assert outcome_rates(summary, RECORDS) == [("Good", 0.7, 0.6, 0.8), ("Evil", 0.2, 0.1, 0.3),
                                               ("Draw", 0.1, 0.05, 0.2)]


def test_summary_plot_of_a_real_run(tmp_path: Path) -> None:
    scenario = load_scenario(SKIRMISH)
    run = simulate(scenario, 12, seed=4, workers=1,
                   commanders={"Good": "random", "Evil": "random"})
    path = tmp_path / "summary.png"
    plot_summary(run.summary(), run.records(), path)
    data = path.read_bytes()
    assert data[:8] == PNG and len(data) > 20_000
    assert _no_temp_files(tmp_path)


def test_summary_plot_svg_and_many_strength_values(tmp_path: Path) -> None:
    records = [BattleRecord(i, i, "Good" if i % 3 else "Evil", 1 + i % 9, "", {},
                            [UnitRow("g", "Good", 100, i % 97, 100 - i % 97, "alive"),
                             UnitRow("e", "Evil", 100, (7 * i) % 89, 100 - (7 * i) % 89, "alive")])
               for i in range(60)]
    path = tmp_path / "summary.svg"
    plot_summary({"scenario": "Hand made", "battles": 60, "seed": 1}, records, path)
    text = path.read_text(encoding="utf-8")
    assert text.lstrip().startswith("<?xml") and "<svg" in text


def _points(probabilities: list[float], n: int = 100) -> list[dict[str, Any]]:
    points = []
    for value, p in enumerate(probabilities, start=2):
        good = round(p * n)
        evil = n - good - 5
        points.append({"value": value, "n": n,
                       "sides": {"Good": {"wins": good, "win_probability": good / n,
                                          "interval": list(wilson(good, n))},
                                 "Evil": {"wins": evil, "win_probability": evil / n,
                                          "interval": list(wilson(evil, n))}},
                       "draws": {"count": 5, "rate": 0.05, "interval": list(wilson(5, n))}})
    return points


@pytest.mark.parametrize("probabilities", [[0.2, 0.4, 0.6, 0.8], [0.6, 0.7, 0.9], [0.3]])
def test_sweep_plot(tmp_path: Path, probabilities: list[float]) -> None:
    path = tmp_path / "sweep.png"
    plot_sweep(_points(probabilities), path, label="victory_points")
    data = path.read_bytes()
    assert data[:8] == PNG and len(data) > 20_000
    assert _no_temp_files(tmp_path)


def test_failed_plot_leaves_the_old_file(tmp_path: Path) -> None:
    path = tmp_path / "sweep.png"
    path.write_bytes(b"old")
    with pytest.raises(KeyError):
        plot_sweep([{"n": 1, "sides": {}}], path)
    assert path.read_bytes() == b"old"
    assert _no_temp_files(tmp_path)


def test_unknown_image_format(tmp_path: Path) -> None:
    with pytest.raises(WarhostError, match="use a .png or .svg name"):
        plot_summary({}, RECORDS, tmp_path / "summary.jpg")
    with pytest.raises(WarhostError) as info:
        plot_sweep(_points([0.5]), tmp_path / "sweep.gif")
    assert info.value.field == "plot"
    assert list(tmp_path.iterdir()) == []


# --------------------------------------------------------------------------- long names, many sides

LONG = ["The Grand Alliance of the Northern Kingdoms", "Horde of the Ashen Wastes and Its Allies",
        "Free Companies of the Southern Marches", "Children of the Drowned Moon, Sea Raiders"]


def _long_records(sides: list[str]) -> list[BattleRecord]:
    out = []
    for i in range(40):
        units = [UnitRow(f"u{s}{j}", side, 3, (i * (s + 1) + j) % 4, 0, "alive")
                 for s, side in enumerate(sides) for j in range(2)]
        winner = sides[i % (len(sides) + 1)] if i % (len(sides) + 1) < len(sides) else None
        out.append(BattleRecord(i, i, winner, 1 + i % 7, "", {}, units))
    return out


def _overlapping_texts(fig: Any) -> list[tuple[str, str]]:
    """Pairs of texts of the drawn figure whose boxes overlap (tick labels, legends, titles,
    annotations): measured with the renderer after the figure is laid out."""
    from itertools import combinations

    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.text import Text

    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    renderer = canvas.get_renderer()
    texts = [t for t in fig.findobj(Text) if t.get_visible() and t.get_text().strip()]
    boxes = [(t.get_text(), t.get_window_extent(renderer)) for t in texts]
    return [(a, b) for (a, box_a), (b, box_b) in combinations(boxes, 2) if box_a.overlaps(box_b)]


@pytest.mark.parametrize("count", [2, 4])
def test_summary_with_long_side_names_has_no_overlapping_text(count: int) -> None:
    sides = LONG[:count]
    fig = summary_figure({"scenario": "Long names", "battles": 40}, _long_records(sides))
    assert _overlapping_texts(fig) == []
    ticks = [t.get_text() for t in fig.axes[0].get_xticklabels()]
    assert len(ticks) == count + 1 and ticks[-1].startswith("Draw")
    assert all(len(line) <= 16 for tick in ticks for line in tick.splitlines())  # wrapped
    legend = [t.get_text().replace("\n", " ") for t in fig.legends[0].get_texts()]
    for side in sides:  # the full names, once each, under the panels
        assert sum(entry.startswith(side + " survivors mean") for entry in legend) == 1


def test_sweep_with_four_long_side_names_has_no_overlapping_text() -> None:
    points = []
    for value in range(3, 9):
        wins = (value * 5, 40, 20, 40 - value * 5)
        points.append({"value": value, "n": 100, "sides": {
            side: {"wins": k, "win_probability": k / 100, "interval": list(wilson(k, 100))}
            for side, k in zip(LONG, wins, strict=True)}})
    fig = sweep_figure(points, label="victory_points")
    assert _overlapping_texts(fig) == []
    legend = [t.get_text().replace("\n", " ") for t in fig.axes[0].get_legend().get_texts()]
    assert legend[:4] == [f"{side} wins" for side in LONG]
    assert legend[4] == f"break-even ({LONG[0]} at 50%): none in range"


def test_wrap_name() -> None:
    assert wrap_name("Horde of the Ashen Wastes", 10) == "Horde of\nthe Ashen\nWastes"
    assert wrap_name("The Grand Alliance of the Northern Kingdoms", 10, 2) == \
        "The Grand\nAlliance…"
