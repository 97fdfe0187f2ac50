"""Figures of Monte Carlo results, drawn with matplotlib (no display needed).

:func:`plot_summary` draws one simulation: each side's win probability and the draw rate with
95% Wilson intervals, the distribution of rounds, and each side's surviving strength per
battle. :func:`plot_sweep` draws a parameter sweep: each side's win probability against the
varied value, with interval bands, the 50% line and the break-even value.

Both write a PNG (or SVG, from the file name) atomically: a temporary file beside the target,
moved into place with :func:`os.replace` only when the drawing succeeded.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from warhost.core.errors import WarhostError
from warhost.core.replay import atomic_output
from warhost.render.maps import SIDE_COLOURS
from warhost.sim.stats import wilson

FORMATS = ("png", "svg")
DRAW_COLOUR = "#8c8c8c"
"""Colour of draws in every figure."""

_INK = "#222222"
_GRID = "#dddddd"


# --------------------------------------------------------------------------- small helpers


def figure_format(path: str | Path, option: str = "plot") -> str:
    """``png`` or ``svg`` from the file name; anything else is an error naming ``option``."""
    suffix = Path(path).suffix.lower().lstrip(".")
    if suffix not in FORMATS:
        raise WarhostError(
            f"cannot tell the image format from {Path(path).name!r}: use a .png or .svg name",
            field=option,
        )
    return suffix


def _get(obj: Any, name: str, default: Any = None) -> Any:
    """``obj[name]`` for mappings, ``obj.name`` otherwise."""
    if isinstance(obj, Mapping):
        return obj.get(name, default)
    return getattr(obj, name, default)


def _colours(sides: Sequence[str]) -> dict[str, str]:
    return {side: SIDE_COLOURS[i % len(SIDE_COLOURS)] for i, side in enumerate(sides)}


def _percentile(values: Sequence[float], q: float) -> float:
    """Linear-interpolation percentile (as numpy's default)."""
    ordered = sorted(values)
    if not ordered:
        return math.nan
    pos = (len(ordered) - 1) * q / 100
    low = math.floor(pos)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (pos - low)


def wrap_name(name: str, width: int, lines: int = 3) -> str:
    """``name`` on at most ``lines`` lines of about ``width`` characters (cut with ``…``)."""
    import textwrap

    width = max(4, width)
    parts = textwrap.wrap(name, width, break_long_words=True, break_on_hyphens=False) or [""]
    if len(parts) > lines:
        parts = parts[:lines]
        parts[-1] = parts[-1][:width - 1].rstrip() + "…"
    return "\n".join(parts)


def _chars_across(ax: Any, parts: int, fontsize: float) -> int:
    """How many characters of ``fontsize`` fit across one of ``parts`` equal slices of the
    axes' width (with a margin between neighbours)."""
    fig = ax.get_figure()
    inches = ax.get_position().width * fig.get_figwidth() / max(1, parts)
    return int(inches * 72 * 0.88 / (0.62 * fontsize))


def _style(ax: Any) -> None:
    ax.spines["top"].set_visible(False)
    ax.spines["right"].set_visible(False)
    ax.grid(axis="y", color=_GRID, linewidth=0.7)
    ax.set_axisbelow(True)
    ax.tick_params(labelsize=8.5, colors=_INK)


def _save(fig: Any, path: str | Path, option: str) -> None:
    fmt = figure_format(path, option)
    with atomic_output(path) as temp:
        fig.savefig(temp, format=fmt, dpi=130, bbox_inches="tight", pad_inches=0.2,
                    facecolor="white")


# --------------------------------------------------------------------------- summary figure


def _record_sides(records: Sequence[Any]) -> list[str]:
    sides: list[str] = []
    for record in records:
        for unit in _get(record, "units", None) or []:
            side = str(_get(unit, "side"))
            if side not in sides:
                sides.append(side)
        for side in _get(record, "scores", None) or {}:
            if str(side) not in sides:
                sides.append(str(side))
    return sides


def summary_sides(summary: Mapping[str, Any], records: Sequence[Any]) -> list[str]:
    """The side names, in the scenario's order: from the summary, else from the records."""
    sides = summary.get("sides")
    if isinstance(sides, Mapping):
        return [str(s) for s in sides]
    if isinstance(sides, list) and sides:
        return [str(s["name"]) if isinstance(s, Mapping) else str(s) for s in sides]
    return _record_sides(records)


def _side_entry(summary: Mapping[str, Any], side: str) -> Mapping[str, Any]:
    sides = summary.get("sides")
    if isinstance(sides, Mapping):
        entry = sides.get(side)
        return entry if isinstance(entry, Mapping) else {}
    if isinstance(sides, list):
        for entry in sides:
            if isinstance(entry, Mapping) and entry.get("name") == side:
                return entry
    return {}


def _interval(entry: Mapping[str, Any]) -> tuple[float, float] | None:
    for key in ("interval", "ci", "wilson", "ci95", "interval95"):
        value = entry.get(key)
        if isinstance(value, Mapping):
            value = (value.get("low"), value.get("high"))
        if isinstance(value, (list, tuple)) and len(value) == 2 and None not in value:
            return (float(value[0]), float(value[1]))
    if entry.get("low") is not None and entry.get("high") is not None:
        return (float(entry["low"]), float(entry["high"]))
    return None


def _probability(entry: Mapping[str, Any]) -> float | None:
    for key in ("win_probability", "probability", "p", "rate", "win_rate"):
        value = entry.get(key)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
    return None


def outcome_rates(
    summary: Mapping[str, Any], records: Sequence[Any]
) -> list[tuple[str, float, float, float]]:
    """``(label, probability, low, high)`` for each side's win and for a draw.

    Taken from the summary where it has them, else counted from the records.
    """
    sides = summary_sides(summary, records)
    n = len(records)
    out: list[tuple[str, float, float, float]] = []
    winners = [_get(r, "winner") for r in records]
    for side in sides:
        entry = _side_entry(summary, side)
        nested = entry.get("win")
        win: Mapping[str, Any] = nested if isinstance(nested, Mapping) else entry
        p, interval = _probability(win), _interval(win)
        if p is None or interval is None:
            k = sum(1 for w in winners if w == side)
            p = k / n if n else 0.0
            interval = wilson(k, n)
        out.append((side, p, *interval))
    draws = summary.get("draws", summary.get("draw"))
    draw_entry: Mapping[str, Any] = draws if isinstance(draws, Mapping) else {}
    p, interval = _probability(draw_entry), _interval(draw_entry)
    if p is None and isinstance(summary.get("draw_rate"), (int, float)):
        p = float(summary["draw_rate"])
        interval = _interval({"interval": summary.get("draw_interval")})
    if p is None or interval is None:
        k = sum(1 for w in winners if w is None)
        p = k / n if n else 0.0
        interval = wilson(k, n)
    out.append(("Draw", p, *interval))
    return out


def side_strengths(records: Sequence[Any], sides: Sequence[str]) -> dict[str, list[int]]:
    """Each side's surviving strength in each battle (survivors summed over its units)."""
    out: dict[str, list[int]] = {side: [] for side in sides}
    for record in records:
        totals = dict.fromkeys(sides, 0)
        for unit in _get(record, "units", None) or []:
            side = str(_get(unit, "side"))
            if side in totals:
                totals[side] += int(_get(unit, "survivors", 0) or 0)
        for side in sides:
            out[side].append(totals[side])
    return out


def side_starts(records: Sequence[Any], sides: Sequence[str]) -> dict[str, int]:
    """Each side's starting strength (from the first record)."""
    starts = dict.fromkeys(sides, 0)
    for unit in (_get(records[0], "units", None) or []) if records else []:
        side = str(_get(unit, "side"))
        if side in starts:
            starts[side] += int(_get(unit, "start", 0) or 0)
    return starts


def _title(summary: Mapping[str, Any], records: Sequence[Any]) -> str:
    name = summary.get("scenario") or summary.get("name") or "Simulation"
    if isinstance(name, Mapping):
        name = name.get("name") or "Simulation"
    n = summary.get("n", summary.get("battles", len(records)))
    if isinstance(n, Mapping):
        n = n.get("count", len(records))
    seed = summary.get("seed", summary.get("master_seed"))
    parts = [str(name), f"{n} battles"]
    if seed is not None:
        parts.append(f"seed {seed}")
    return " — ".join(parts)


def _draw_outcomes(ax: Any, rates: list[tuple[str, float, float, float]],
                   colours: Mapping[str, str]) -> None:
    labels = [label for label, *_ in rates]
    values = [100 * p for _, p, _, _ in rates]
    lows = [max(0.0, 100 * (p - low)) for _, p, low, _ in rates]  # rounding can cross p
    highs = [max(0.0, 100 * (high - p)) for _, p, _, high in rates]
    bar_colours = [colours.get(label, DRAW_COLOUR) for label in labels]
    xs = list(range(len(labels)))
    ax.bar(xs, values, width=0.62, color=bar_colours, edgecolor="white", linewidth=0.8,
           yerr=[lows, highs], capsize=6, error_kw={"elinewidth": 1.3, "ecolor": _INK})
    for x, (_, p, low, high) in zip(xs, rates, strict=True):
        ax.annotate(f"{100 * p:.1f}%", xy=(x, 100 * high), xytext=(0, 5),
                    textcoords="offset points", ha="center", va="bottom", fontsize=9,
                    fontweight="bold", color=_INK)
    across = _chars_across(ax, len(labels), 8.5)
    names = [wrap_name(f"{label} wins", across) if label in colours else "Draw"
             for label in labels]
    ax.set_xticks(xs, [f"{name}\n{100 * low:.1f}–{100 * high:.1f}%"
                       for name, (_, _, low, high) in zip(names, rates, strict=True)])
    for tick in ax.get_xticklabels():
        tick.set_linespacing(1.3)
    ax.set_ylim(0, 112)
    ax.set_yticks(range(0, 101, 20), [f"{t}%" for t in range(0, 101, 20)])
    ax.axhline(50, color="#999999", linewidth=0.9, linestyle=(0, (4, 3)), zorder=0)
    ax.set_title("Outcome (bars: 95% Wilson interval)", fontsize=10, color=_INK)
    ax.set_ylabel("share of battles", fontsize=9)


def _draw_rounds(ax: Any, rounds: Sequence[int], summary: Mapping[str, Any]) -> None:
    if not rounds:
        ax.text(0.5, 0.5, "no battles", ha="center", va="center", transform=ax.transAxes)
        return
    low, high = min(rounds), max(rounds)
    counts = [sum(1 for r in rounds if r == v) for v in range(low, high + 1)]
    n = len(rounds)
    ax.bar(range(low, high + 1), [100 * c / n for c in counts], width=0.85, color="#7a9cc6",
           edgecolor="white", linewidth=0.6, label="battles")
    stats = summary.get("rounds") if isinstance(summary.get("rounds"), Mapping) else {}
    assert isinstance(stats, Mapping)

    def stat(key: str, q: float | None) -> float:
        value = stats.get(key)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
        return sum(rounds) / n if q is None else _percentile(rounds, q)

    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    top = max(100 * c / n for c in counts)
    reach = top * 1.06  # the marker lines stop below the legend
    mean, p5, p50, p95 = stat("mean", None), stat("p5", 5), stat("p50", 50), stat("p95", 95)
    ax.plot([mean, mean], [0, reach], color="#c0392b", linewidth=2.0)
    ax.plot([p50, p50], [0, reach], color=_INK, linewidth=1.5, linestyle="--")
    for x in (p5, p95):
        ax.plot([x, x], [0, reach], color=_INK, linewidth=1.5, linestyle=":")
    handles = [
        Patch(facecolor="#7a9cc6", label=f"battles (n = {n})"),
        Line2D([], [], color="#c0392b", linewidth=2.0, label=f"mean {mean:.1f}"),
        Line2D([], [], color=_INK, linewidth=1.5, linestyle="--", label=f"median {p50:g}"),
        Line2D([], [], color=_INK, linewidth=1.5, linestyle=":",
               label=f"5th–95th pct {p5:g}–{p95:g}"),
    ]
    ax.set_xlim(low - 0.7, high + 0.7)
    step = max(1, math.ceil((high - low + 1) / 12))
    ax.set_xticks(range(low, high + 1, step))
    ax.set_ylim(0, top * 1.3 + 0.5)
    ax.yaxis.set_major_formatter(_percent_formatter())
    ax.set_title("Length of battle", fontsize=10, color=_INK)
    ax.set_xlabel("rounds played", fontsize=9)
    ax.set_ylabel("share of battles", fontsize=9)
    ax.legend(handles=handles, fontsize=7.5, frameon=False, loc="upper center", ncol=2,
              borderaxespad=0.3)


def _percent_formatter() -> Any:
    from matplotlib.ticker import FuncFormatter

    return FuncFormatter(lambda v, _pos: f"{v:g}%")


def _draw_strength(ax: Any, strengths: Mapping[str, list[int]], starts: Mapping[str, int],
                   colours: Mapping[str, str]) -> None:
    sides = [s for s in strengths if strengths[s]]
    if not sides:
        ax.text(0.5, 0.5, "no battles", ha="center", va="center", transform=ax.transAxes)
        return
    high = max(max(max(v) for v in strengths.values() if v), *starts.values(), 1)
    width = 0.8 / len(sides)
    if high <= 40:  # grouped bars, one per strength value and side
        for i, side in enumerate(sides):
            values = strengths[side]
            n = len(values)
            shares = [100 * sum(1 for v in values if v == x) / n for x in range(high + 1)]
            offset = (i - (len(sides) - 1) / 2) * width
            ax.bar([x + offset for x in range(high + 1)], shares, width=width * 0.95,
                   color=colours[side], edgecolor="white", linewidth=0.4)
        step = max(1, math.ceil((high + 1) / 14))
        ax.set_xticks(range(0, high + 1, step))
        ax.set_xlim(-0.6, high + 0.6)
    else:  # many values: outlined histograms on common bins
        bins = min(30, high + 1)
        for side in sides:
            values = strengths[side]
            weights = [100 / len(values)] * len(values)
            ax.hist(values, bins=bins, range=(0, high), weights=weights, histtype="stepfilled",
                    alpha=0.35, color=colours[side])
            ax.hist(values, bins=bins, range=(0, high), weights=weights, histtype="step",
                    linewidth=1.6, color=colours[side])
    top = float(ax.dataLim.y1)
    for side in sides:
        values = strengths[side]
        mean = sum(values) / len(values)
        ax.plot([mean, mean], [0, top * 1.06], color=colours[side], linestyle="--",
                linewidth=1.3)
    ax.set_ylim(0, top * 1.3)
    ax.yaxis.set_major_formatter(_percent_formatter())
    ax.set_title("Surviving strength at the end", fontsize=10, color=_INK)
    ax.set_xlabel("survivors, summed over the side's units (dashed: mean)", fontsize=9)
    ax.set_ylabel("share of battles", fontsize=9)


def _side_legend(fig: Any, sides: Sequence[str], colours: Mapping[str, str],
                 notes: Mapping[str, str], top: float) -> None:
    """One legend under the panels naming every side in full: its colour and ``notes``."""
    from matplotlib.patches import Patch

    if not sides:
        return
    labels = [wrap_name(side, 50, 2) + (f"\n{notes[side]}" if notes.get(side) else "")
              for side in sides]
    widest = max(len(line) for label in labels for line in label.splitlines())
    ncol = max(1, min(len(sides), int(fig.get_figwidth() * 72 / (0.62 * 9 * (widest + 6)))))
    handles = [Patch(facecolor=colours[side], label=label) for side, label in zip(sides, labels)]
    fig.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, top), ncol=ncol,
               fontsize=9, frameon=False)


def summary_figure(summary: Mapping[str, Any], records: Sequence[Any]) -> Any:
    """The figure :func:`plot_summary` draws (a matplotlib ``Figure``)."""
    from matplotlib.figure import Figure

    sides = summary_sides(summary, records)
    colours = _colours(sides)
    # More sides: a wider outcome panel, so each bar's name and interval have room.
    bars = len(sides) + 1
    fig = Figure(figsize=(max(15.0, 3.5 * bars), 4.9))
    axes = fig.subplots(1, 3, gridspec_kw={"width_ratios": [max(1.0, bars / 3), 1.15, 1.15],
                                           "wspace": 0.28})
    for ax in axes:
        _style(ax)
    _draw_outcomes(axes[0], outcome_rates(summary, records), colours)
    _draw_rounds(axes[1], [int(_get(r, "rounds", 0)) for r in records], summary)
    strengths, starts = side_strengths(records, sides), side_starts(records, sides)
    _draw_strength(axes[2], strengths, starts, colours)
    fig.suptitle(_title(summary, records), fontsize=13, fontweight="bold", color=_INK)
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    renderer = FigureCanvasAgg(fig).get_renderer()  # type: ignore[no-untyped-call]
    bottom = min(ax.get_tightbbox(renderer).y0 for ax in axes) / fig.bbox.height
    notes = {side: f"survivors mean {sum(v) / len(v):.1f} of {starts.get(side, 0)}"
             for side, v in strengths.items() if v}
    _side_legend(fig, sides, colours, notes, bottom - 0.02)
    return fig


def plot_summary(summary: Mapping[str, Any], records: Sequence[Any], path: str | Path) -> None:
    """Draw one simulation's results into ``path`` (``.png`` or ``.svg``), atomically.

    Three panels: win probability of each side and the draw rate with 95% Wilson intervals;
    the distribution of rounds with its mean and 5th/50th/95th percentiles; each side's
    surviving strength per battle. Under them a legend names each side in full with its
    colour and mean survivors (long names are wrapped, never overlapping; any number of
    sides). ``records`` are :class:`~warhost.sim.runner.BattleRecord` objects (or their dict
    form); the title names the scenario, N and the seed.
    """
    figure_format(path)
    _save(summary_figure(summary, records), path, "plot")


# --------------------------------------------------------------------------- sweep figure


def _point(point: Any) -> Mapping[str, Any]:
    to_json = getattr(point, "to_json", None)
    if callable(to_json):
        data = to_json()
        assert isinstance(data, Mapping)
        return data
    if isinstance(point, Mapping):
        return point
    raise TypeError(f"not a sweep point: {point!r}")


def sweep_figure(
    points: Sequence[Any],
    *,
    label: str = "varied value",
    title: str | None = None,
    break_even: float | None = None,
) -> Any:
    """The figure :func:`plot_sweep` draws (a matplotlib ``Figure``)."""
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D

    data = sorted((_point(p) for p in points), key=lambda p: float(p["value"]))
    sides: list[str] = []
    for p in data:
        sides += [str(s) for s in p.get("sides", {}) if str(s) not in sides]
    colours = _colours(sides)
    xs = [float(p["value"]) for p in data]
    fig = Figure(figsize=(9.5, 5.4))
    ax = fig.add_subplot()
    _style(ax)
    ax.grid(axis="x", color=_GRID, linewidth=0.7)
    series: list[tuple[str, str, list[Mapping[str, Any]]]] = [
        (side, colours[side], [p["sides"].get(side, {}) for p in data]) for side in sides]
    if any(p.get("draws") for p in data):
        draws = [p.get("draws") or {} for p in data]
        if any(_probability(d) for d in draws):
            series.append(("Draw", DRAW_COLOUR, draws))
    for name, colour, entries in series:
        ps = [100 * (_probability(e) or 0.0) for e in entries]
        bounds = [_interval(e) or (math.nan, math.nan) for e in entries]
        lows = [100 * b[0] for b in bounds]
        highs = [100 * b[1] for b in bounds]
        dashed = name == "Draw"
        ax.fill_between(xs, lows, highs, color=colour, alpha=0.12 if dashed else 0.2,
                        linewidth=0)
        ax.plot(xs, ps, color=colour, linewidth=1.6 if dashed else 2.2,
                linestyle="--" if dashed else "-", marker="o", markersize=4.5,
                label="draw" if dashed else wrap_name(f"{name} wins", 26, 4))
    ax.axhline(50, color="#666666", linewidth=1.0, linestyle=(0, (5, 4)), zorder=1)
    ax.annotate("50%", xy=(0.0, 50), xycoords=("axes fraction", "data"), xytext=(4, 3),
                textcoords="offset points", va="bottom", fontsize=8.5, color="#666666")
    if break_even is None and sides:
        from warhost.sim.sweep import find_break_even

        firsts = [_probability(p["sides"].get(sides[0], {})) or 0.0 for p in data]
        break_even = find_break_even(xs, firsts)
    handles, _ = ax.get_legend_handles_labels()
    if break_even is not None:
        ax.axvline(break_even, color=_INK, linewidth=1.1, linestyle=":")
        ax.plot([break_even], [50], marker="D", markersize=8, color="white",
                markeredgecolor=_INK, markeredgewidth=1.6, zorder=5)
        who = f" ({wrap_name(sides[0], 24, 1)} at 50%)" if sides else ""
        right = bool(xs) and break_even > min(xs) + 0.6 * ((max(xs) - min(xs)) or 1.0)
        ax.annotate(f"break-even ≈ {break_even:.3g}{who}", xy=(break_even, 1.0),
                    xycoords=("data", "axes fraction"), xytext=(-6 if right else 6, -6),
                    textcoords="offset points", ha="right" if right else "left", va="top",
                    fontsize=9,
                    fontweight="bold", color=_INK,
                    bbox={"boxstyle": "round,pad=0.3", "facecolor": "white",
                          "edgecolor": "#bbbbbb", "alpha": 0.9})
    elif sides:  # said under the lines' names, so it never runs into them
        handles.append(Line2D([], [], linestyle="", label=wrap_name(
            f"break-even ({sides[0]} at 50%): none in range", 26, 4)))
    ax.set_ylim(-2, 104)
    ax.yaxis.set_major_formatter(_percent_formatter())
    if xs:
        span = (max(xs) - min(xs)) or 1.0
        ax.set_xlim(min(xs) - span * 0.03, max(xs) + span * 0.03)
        if all(x == int(x) for x in xs) and len(xs) <= 25:
            ax.set_xticks(xs)
    ax.set_xlabel(label, fontsize=10)
    ax.set_ylabel("win probability (band: 95% Wilson interval)", fontsize=10)
    n = data[0].get("n") if data else None
    heading = title or "Win probability"
    if n is not None and title is None:
        heading += f" — {n} battles per value"
    ax.set_title(heading, fontsize=12, fontweight="bold", color=_INK)
    ax.legend(handles=handles, fontsize=9, frameon=False, loc="upper left",
              bbox_to_anchor=(1.01, 1.0), labelspacing=0.8)
    return fig


def plot_sweep(
    points: Sequence[Any],
    path: str | Path,
    *,
    label: str = "varied value",
    title: str | None = None,
    break_even: float | None = None,
) -> None:
    """Draw each side's win probability against the varied value into ``path``, atomically.

    Each point is a :class:`~warhost.sim.sweep.SweepPoint` or its JSON form: ``{"value": v,
    "n": N, "sides": {side: {"wins": k, "win_probability": p, "interval": [low, high]}},
    "draws": {...}}``. Bands show the 95% Wilson intervals, a dashed line 50%, and a marker
    the break-even value (where the first side's win probability crosses 50%; computed from
    the points when not given). Any number of sides; long names are wrapped in the legend.
    """
    figure_format(path)
    _save(sweep_figure(points, label=label, title=title, break_even=break_even), path, "plot")
