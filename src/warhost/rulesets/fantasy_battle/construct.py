"""Constructed battlefields: the players take turns placing the terrain pieces they brought.

Rules: FB-SETUP-03 to FB-SETUP-10, FB-AMB-18 to FB-AMB-21.

* The map starts clear (FB-SETUP-05).
* Each player brings exactly ``terrain_pieces_per_player`` pieces (FB-SETUP-04, FB-AMB-19;
  the count is checked by :func:`warhost.rulesets.fantasy_battle.validate.check_scenario`).
* The players alternate, one piece at a time, starting with the attacker (the first player)
  unless ``first_terrain_placer`` says ``defender`` or ``random`` (FB-SETUP-07, FB-AMB-19).
* On his turn a player chooses which of his remaining pieces to place and where. Every square
  of the piece must satisfy ``2 <= x <= W-3`` and ``2 <= y <= H-3`` (FB-SETUP-09), lie in his
  own half (FB-SETUP-08; the middle row of an odd height belongs to nobody) and be at Chebyshev
  distance >= 3 from every square of the pieces already placed (FB-SETUP-10, FB-AMB-18).
* A piece that fits nowhere when its owner's turn comes is discarded (FB-AMB-19).

A piece's position is the lowest corner of its bounding box: the order ``place 1 4 3`` puts
piece 1 of the player's list with its lowest square column at x = 4 and lowest row at y = 3.
A hill piece of ``hill_size`` (w, h) covers (w + 2) × (h + 2) squares: a w × h elevated top with
one square of slope all round (:func:`warhost.rulesets.fantasy_battle.setup.hill_squares`).
"""

from __future__ import annotations

from typing import Any

from warhost.core.decisions import Decision
from warhost.core.engine import Battle
from warhost.core.orders import Order
from warhost.geometry.grid import Square
from warhost.rulesets.fantasy_battle.model import FantasyBattleScenario, HillSpec, TerrainPiece
from warhost.rulesets.fantasy_battle.setup import hill_squares
from warhost.rulesets.fantasy_battle.state import FBState

EDGE_GAP = 2
"""Terrain stays this many squares clear of every map edge (FB-SETUP-09, FB-AMB-18)."""

PIECE_GAP = 3
"""Smallest Chebyshev distance between squares of two different pieces (FB-SETUP-10)."""


def piece_squares(piece: TerrainPiece) -> list[tuple[Square, str]]:
    """The squares of a piece with their terrain, shifted so the lowest x and y are 0.

    Duplicated shape squares are kept once. A hill is its elevated top plus its slope edging.
    """
    if piece.type == "hill":
        w, h = piece.hill_size or (1, 1)
        hill = HillSpec(top=((1, 1), (w, h)))
        return sorted(hill_squares(hill).items(), key=lambda item: (item[0][1], item[0][0]))
    if not piece.shape:
        return []
    x0 = min(sq[0] for sq in piece.shape)
    y0 = min(sq[1] for sq in piece.shape)
    squares = sorted({(sq[0] - x0, sq[1] - y0) for sq in piece.shape}, key=lambda s: (s[1], s[0]))
    return [(sq, piece.type) for sq in squares]


def half_rows(index: int, height: int) -> range:
    """Rows where side ``index`` (scenario order) may place terrain: its own half of the map,
    at least 2 rows from either edge. The middle row of an odd height is nobody's."""
    half = height // 2
    if index == 0:
        return range(EDGE_GAP, min(half, height - EDGE_GAP))
    return range(max(height - half, EDGE_GAP), height - EDGE_GAP)


def legal_offsets(
    squares: list[tuple[Square, str]],
    width: int,
    rows: range,
    near_placed: set[Square],
) -> list[Square]:
    """Every position (lowest corner) where the piece obeys the edge, half and gap limits."""
    if not squares or not rows:
        return []
    span_x = max(sq[0] for sq, _ in squares)
    span_y = max(sq[1] for sq, _ in squares)
    out: list[Square] = []
    for oy in range(rows.start, rows.stop - span_y):
        for ox in range(EDGE_GAP, width - EDGE_GAP - span_x):
            if all((ox + sx, oy + sy) not in near_placed for (sx, sy), _ in squares):
                out.append((ox, oy))
    return out


def central_option(
    options: list[Order], shapes: dict[int, list[tuple[Square, str]]], width: int, rows: range
) -> Order:
    """The default answer: the first listed piece, placed nearest the middle of the half."""
    index = int(options[0].args[0])
    squares = shapes[index]
    span_x = max(sq[0] for sq, _ in squares)
    span_y = max(sq[1] for sq, _ in squares)
    mid_x2, mid_y2 = width, rows.start + rows.stop - 1  # doubled centre of the band

    def off_centre(order: Order) -> tuple[int, int, int]:
        _, x, y = (int(arg) for arg in order.args)
        dx, dy = abs(2 * x + span_x - mid_x2), abs(2 * y + span_y - mid_y2)
        return (max(dx, dy), y, x)

    return min((o for o in options if o.args[0] == index), key=off_centre)


def first_placer(state: FBState, model: FantasyBattleScenario, battle: Battle) -> str:
    """Who places the first piece (FB-AMB-19): the attacker by default."""
    attacker = state.first_player
    defender = state.other_side(attacker)
    how = model.options.first_terrain_placer
    if how == "defender":
        return defender
    if how == "random":
        face = battle.dice.pool(1, 6, "first terrain placer (1-3: attacker)")[0]
        return attacker if face <= 3 else defender
    return attacker


def place_terrain(state: FBState, model: FantasyBattleScenario, battle: Battle) -> None:
    """Let the players build the battlefield piece by piece (FB-SETUP-04 to FB-SETUP-10)."""
    if battle.state is None:
        battle.state = state  # commanders may look at the map while choosing
    grid = state.grid
    names = [side.name for side in model.sides]
    rows = {name: half_rows(i, grid.height) for i, name in enumerate(names)}
    remaining: dict[str, list[tuple[int, TerrainPiece]]] = {
        side.name: list(enumerate(side.terrain_pieces)) for side in model.sides
    }
    turn = first_placer(state, model, battle)
    battle.emit(
        "terrain_setup", first=turn, pieces={name: len(remaining[name]) for name in names}
    )
    near_placed: set[Square] = set()
    while any(remaining.values()):
        mine = remaining[turn]
        options: list[Order] = []
        shapes: dict[int, list[tuple[Square, str]]] = {}
        for index, piece in list(mine):
            squares = piece_squares(piece)
            offsets = legal_offsets(squares, grid.width, rows[turn], near_placed)
            if not offsets:
                mine.remove((index, piece))
                battle.emit("terrain_discarded", side=turn, piece=index, terrain=piece.type,
                            reason="fits nowhere")
                continue
            shapes[index] = squares
            options.extend(Order("place", (index, x, y)) for x, y in offsets)
        if options:
            info: dict[str, Any] = {
                "pieces": {i: {"type": p.type, "squares": [list(sq) for sq, _ in shapes[i]]}
                           for i, p in mine},
            }
            order = battle.decide(Decision(
                side=turn, kind="terrain", options=tuple(options),
                prompt=f"where does {turn} place a terrain piece?", info=info,
                default=central_option(options, shapes, grid.width, rows[turn]),
            ))
            index, ox, oy = (int(arg) for arg in order.args)
            piece = next(p for i, p in mine if i == index)
            mine.remove((index, piece))
            placed: list[list[Any]] = []
            for (sx, sy), name in shapes[index]:
                sq = (ox + sx, oy + sy)
                grid.set_terrain(sq, name, 1 if name == "elevated" else 0)
                placed.append([sq[0], sq[1], name])
                for dy in range(-(PIECE_GAP - 1), PIECE_GAP):
                    for dx in range(-(PIECE_GAP - 1), PIECE_GAP):
                        near_placed.add((sq[0] + dx, sq[1] + dy))
            battle.emit("terrain_placed", side=turn, piece=index, terrain=piece.type,
                        at=[ox, oy], squares=placed)
        turn = state.other_side(turn)
