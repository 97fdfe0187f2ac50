"""Option lists for a person at the terminal: short decisions numbered in full, long ones grouped.

A decision with more than :data:`GROUP_ABOVE` options is shown grouped by kind of order, with
counts: orders naming places (``move 4 7`` on a grid, ``move 7.0,8.0 90`` on a table) become
one summary line (the ranges, the form to type, a few numbered samples) and, on a grid, a small
picture of the reachable squares lined up with the text map; orders naming units are grouped by
the unit they name (``attack`` by target). Numbers always count through the full list, so a
number shown in any view picks the same order.

Example:
    >>> from warhost.core.decisions import Decision
    >>> from warhost.core.orders import Order
    >>> moves = tuple(Order.of("move", x, y) for y in range(3) for x in range(5))
    >>> d = Decision("A", "move", (Order.of("hold"),) + moves, subject="a1")
    >>> print(option_listing(d))  # doctest: +NORMALIZE_WHITESPACE
    16 orders for a1, by kind (numbers count through the full list; ? lists it, ? KIND one kind):
      1. hold
      move (15): x 0-4, y 0-2; type "move X Y"
      2 ooooo
      1 ooooo
      0 ooooo
        01234
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from warhost.core.decisions import Decision
from warhost.core.orders import Arg, Order

GROUP_ABOVE = 12
"""Decisions with more options than this are shown grouped."""

LINE_WIDTH = 100
"""Lines of numbered orders are wrapped at about this width."""

SAMPLES = 6
"""How many numbered examples a summarised kind of order shows (table destinations)."""

GRID_LIMIT = (100, 40)
"""The largest grid of destinations drawn (columns, rows); larger ones get the summary only."""

Entry = tuple[int, Order]
"""An option and its number (1-based, in the decision's full list)."""

Point = tuple[float, float]


def option_listing(
    decision: Decision, query: str | None = None, units: Collection[str] = ()
) -> str | None:
    """The text that lists ``decision``'s options for a person.

    ``query`` None gives the overview shown when the decision is asked (grouped when long);
    ``""`` gives every option numbered; a word gives the options of that kind or, failing that,
    those naming that word (a unit): None when nothing matches. ``units`` are the unit ids of
    the battle, for grouping orders by the unit they name.
    """
    entries = [(i, decision.option(i - 1)) for i in range(1, decision.option_count + 1)]
    if query is None:
        if len(entries) <= GROUP_ABOVE:
            lines = [f"  {i}. {o}" for i, o in entries]
        else:
            lines = grouped(decision, entries, units)
    elif query == "":
        lines = numbered(entries)
    else:
        chosen = [(i, o) for i, o in entries if o.kind == query]
        if not chosen:
            chosen = [(i, o) for i, o in entries if query in map(str, o.args)]
        if not chosen:
            return None
        lines = [f"  {_count_label(query, chosen)}:"] + numbered(chosen, indent=4)
        grid = destination_grid(chosen)
        if chosen[0][1].kind == query and grid:
            lines += grid
    default = decision.default
    if default is not None:
        lines.append(f"  (Enter = {default})")
    return "\n".join(lines)


def numbered(entries: Sequence[Entry], indent: int = 2) -> list[str]:
    """Numbered orders, one per line for a few, else in columns (row by row)."""
    cells = [f"{i}. {o}" for i, o in entries]
    if len(cells) <= GROUP_ABOVE:
        return [" " * indent + cell for cell in cells]
    return _columns(cells, indent)


def grouped(decision: Decision, entries: Sequence[Entry], units: Collection[str]) -> list[str]:
    """The grouped overview of a long decision: one block per kind, in order of appearance."""
    about = f" for {decision.subject}" if decision.subject else ""
    lines = [f"{len(entries)} orders{about}, by kind (numbers count through the full list; "
             "? lists it, ? KIND one kind):"]
    by_kind: dict[str, list[Entry]] = {}
    for entry in entries:
        by_kind.setdefault(entry[1].kind, []).append(entry)
    known = set(units) | ({decision.subject} if decision.subject else set())
    for kind, chosen in by_kind.items():
        lines += kind_block(kind, chosen, known)
    return lines


def kind_block(kind: str, entries: Sequence[Entry], units: Collection[str]) -> list[str]:
    """The lines for one kind of order within a grouped overview."""
    if len(entries) == 1:
        i, order = entries[0]
        return [f"  {i}. {order}"]
    points = [_point(o) for _, o in entries]
    if len(entries) > SAMPLES and all(p is not None for p in points):
        return _place_block(kind, entries, [p for p in points if p is not None])
    by_unit = _by_unit(entries, units)
    if by_unit is not None:
        lines = [f"  {_count_label(kind, entries)}, by the unit named:"]
        for unit, chosen in by_unit.items():
            listed = "   ".join(f"{i}. {o}" for i, o in chosen)
            lines.append(f"    {unit} ({len(chosen)}): {listed}")
        return lines
    cells = [f"{i}. {o}" for i, o in entries]
    one_line = f"  {_count_label(kind, entries)}: " + "   ".join(cells)
    if len(one_line) <= LINE_WIDTH:
        return [one_line]
    return [f"  {_count_label(kind, entries)}:"] + _columns(cells, 4)


def destination_grid(entries: Sequence[Entry]) -> list[str]:
    """A picture of the squares named by grid orders (``move X Y``): ``o`` marks each one.

    Columns start at x = 0 and rows carry their y, numbered as on the map above it
    (:func:`warhost.render.maps.text_map`), one character a square. Empty when the orders are
    not all grid squares or the picture would be too large.
    """
    squares = {_square(o) for _, o in entries}
    if not squares or None in squares:
        return []
    cells = {s for s in squares if s is not None}
    xs = [x for x, _ in cells]
    ys = [y for _, y in cells]
    if min(xs) < 0 or min(ys) < 0 or max(xs) + 1 > GRID_LIMIT[0] or \
            max(ys) - min(ys) + 1 > GRID_LIMIT[1]:
        return []
    width = max(xs) + 1
    rows = []
    for y in range(max(ys), min(ys) - 1, -1):
        marks = "".join("o" if (x, y) in cells else "." for x in range(width))
        rows.append(f"{y:>3} {marks}")
    rows.append("    " + "".join(str(x % 10) for x in range(width)))
    return rows


# --------------------------------------------------------------------------- helpers


def _count_label(kind: str, entries: Sequence[Entry]) -> str:
    return f"{kind} ({len(entries)})"


def _columns(cells: Sequence[str], indent: int) -> list[str]:
    width = max(len(c) for c in cells) + 3
    per_line = max(1, (LINE_WIDTH - indent) // width)
    return [
        (" " * indent + "".join(c.ljust(width) for c in cells[start:start + per_line])).rstrip()
        for start in range(0, len(cells), per_line)
    ]


def _wrap(cells: Sequence[str], first: str, rest: str) -> list[str]:
    """``cells`` joined by three spaces into lines of about :data:`LINE_WIDTH`; the first
    line starts with ``first``, the others with ``rest``."""
    lines: list[str] = []
    line, empty = first, True
    for cell in cells:
        if not empty and len(line) + 3 + len(cell) > LINE_WIDTH:
            lines.append(line)
            line, empty = rest, True
        line += cell if empty else "   " + cell
        empty = False
    lines.append(line)
    return lines


def _square(order: Order) -> tuple[int, int] | None:
    """The grid square an order names by its first two arguments (whole numbers), if it does."""
    args = order.args
    if len(args) >= 2 and isinstance(args[0], int) and isinstance(args[1], int):
        return args[0], args[1]
    return None


def _point(order: Order) -> Point | None:
    """The place an order names: a grid square (``move 4 7``) or a table point written
    ``X,Y`` (``move 7.0,8.0 90``); None for orders that name no place."""
    square = _square(order)
    if square is not None:
        return float(square[0]), float(square[1])
    if order.args and isinstance(order.args[0], str):
        x, sep, y = order.args[0].partition(",")
        if sep:
            try:
                return float(x), float(y)
            except ValueError:
                return None
    return None


def _place_block(kind: str, entries: Sequence[Entry], points: Sequence[Point]) -> list[str]:
    """One summary line for many orders naming places, then a grid or a few samples."""
    grid = destination_grid(entries)
    first = entries[0][1]
    square = _square(first) is not None
    skip = 2 if square else 1
    form = [kind, "X Y" if square else "X,Y"]
    extras = []
    for position in range(skip, len(first.args)):
        values = sorted({_arg(o, position) for _, o in entries}, key=_sort_key)
        if len(values) == 1:
            form.append(str(values[0]))
        else:
            name = f"N{position - skip + 1}" if len(first.args) - skip > 1 else "N"
            form.append(name)
            extras.append(f"{name} {_spread(values)}")
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    ranges = f"x {_span(xs, square)}, y {_span(ys, square)}"
    if extras:
        ranges += ", " + ", ".join(extras)
    lines = [f"  {_count_label(kind, entries)}: {ranges}; type \"{' '.join(form)}\""]
    if grid:
        return lines + grid
    step = len(entries) / SAMPLES
    samples = [entries[int(k * step)] for k in range(SAMPLES)]
    cells = [f"{i}. {o}" for i, o in samples] + [f"(? {kind} lists all {len(entries)})"]
    return lines + _wrap(cells, "    e.g. ", " " * 9)


def _arg(order: Order, position: int) -> Arg:
    return order.args[position] if position < len(order.args) else ""


def _sort_key(value: Arg) -> tuple[int, int, str]:
    return (0, value, "") if isinstance(value, int) else (1, 0, str(value))


def _spread(values: Sequence[Arg]) -> str:
    """Few values listed, many whole numbers as a range."""
    if len(values) > 4 and all(isinstance(v, int) for v in values):
        return f"{values[0]}-{values[-1]}"
    shown = ", ".join(map(str, values[:4]))
    return f"in {shown}" + (f" ... ({len(values)} values)" if len(values) > 4 else "")


def _span(values: Sequence[float], whole: bool) -> str:
    low, high = min(values), max(values)
    if whole:
        return f"{int(low)}" if low == high else f"{int(low)}-{int(high)}"
    return f"{low:.1f}" if low == high else f"{low:.1f}-{high:.1f}"


def _by_unit(entries: Sequence[Entry], units: Collection[str]) -> dict[str, list[Entry]] | None:
    """The entries keyed by the first argument that is a unit id, when every entry names a
    unit and some unit is named more than once (else grouping would add nothing): None."""
    if not units:
        return None
    groups: dict[str, list[Entry]] = {}
    for entry in entries:
        unit = next((str(a) for a in entry[1].args if str(a) in units), None)
        if unit is None:
            return None
        groups.setdefault(unit, []).append(entry)
    if len(groups) == len(entries):
        return None
    return groups
