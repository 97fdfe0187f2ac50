"""The Movement Phase (WB-MOVE): Move, Sprint, Charge, Climb, Jump, Prone, standing up, and
the Attacks of Opportunity a move provokes (WB-MOVE-04, WB-CIRC-13/14, WB-AMB-21). Climb and
Jump themselves live in :mod:`climbing`."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence

from warhost.core import metering
from warhost.core.battle import Battle
from warhost.core.metering import GEOMETRY, OPTIONS
from warhost.core.orders import Order
from warhost.geometry.grid import (
    Square,
    bresenham,
    chebyshev,
    flood_levels,
    flood_table,
    path_back,
)
from warhost.rulesets.warband import climbing
from warhost.rulesets.warband.option_list import OrderList
from warhost.rulesets.warband.state import (
    FACING_ORDER,
    KNOCKED_DOWN,
    STANDING,
    STUNNED,
    Character,
    WarbandState,
    order_word,
)

StepCost = Callable[[Square, Square], int | None]

STAY = Order("stay")
PRONE = Order("prone")
STAND = Order("stand")
STAY_DOWN = Order("stay-down")
NO_AOO = Order("no-opportunity")


def walk_levels(state: WarbandState) -> Sequence[int]:
    """The elevation of every square by ``y * width + x``, -1 where nobody may stand
    (impassable or blocking): built once a battle, since the map does not change."""
    table: Sequence[int] | None = state.walk_levels
    if table is None:
        grid = state.grid
        table = flood_table([grid.level(sq) if grid.terrain(sq) == "clear" else -1
                             for sq in grid.squares()])
        state.walk_levels = table
    return table


def step_cost(state: WarbandState, char: Character) -> StepCost:
    """The cost of one step for ``char`` (WB-AMB-03): 8 directions, diagonals cost the
    ``diagonal_cost`` option, no step up or down more than ``max_step_height``, allies may be
    passed through but not enemies, impassable and blocking squares are closed."""
    opts = state.options
    diagonal = opts.diagonal_cost
    max_step = opts.max_step_height
    width, height = state.grid.width, state.grid.height
    levels = walk_levels(state)
    at = state.at
    chars = state.chars
    side = char.side

    def cost(a: Square, b: Square) -> int | None:
        bx, by = b
        if not (0 <= bx < width and 0 <= by < height):
            return None
        to_level = levels[by * width + bx]
        if to_level < 0 or abs(levels[a[1] * width + a[0]] - to_level) > max_step:
            return None
        other = at.get(b)
        if other is not None and chars[other].side != side:
            return None
        return diagonal if a[0] != bx and a[1] != by else 1

    return cost


def move_budget(char: Character, times: int = 1) -> int:
    """Squares a Move (1x Agility) or Sprint (3x) may cover, less 1 after Disengage
    (WB-MOVE-17, WB-MOVE-23, WB-UTIL-11)."""
    return max(0, times * char.score("agility") - (1 if char.disengaged else 0))


class Reach(Mapping[Square, tuple[int, tuple[Square, ...]]]):
    """The free squares a character can reach, each with ``(cost, path)``; a path is worked
    out only when it is read."""

    def __init__(self, start: Square, costs: dict[Square, int], parents: dict[Square, Square],
                 free: list[Square]) -> None:
        self.start = start
        self.costs = {sq: costs[sq] for sq in free}
        self._parents = parents

    def __getitem__(self, sq: Square) -> tuple[int, tuple[Square, ...]]:
        return self.costs[sq], path_back(self._parents, self.start, sq)

    def __iter__(self) -> Iterator[Square]:
        return iter(self.costs)

    def __len__(self) -> int:
        return len(self.costs)

    def __contains__(self, sq: object) -> bool:
        return sq in self.costs


def destinations(state: WarbandState, char: Character, budget: int) -> Reach:
    """Free squares ``char`` can reach within ``budget`` (not its own square)."""
    assert char.square is not None
    at = state.at
    costs, parents = flood_levels(walk_levels(state), state.grid.width, char.square, budget,
                                  state.options.max_step_height, state.options.diagonal_cost,
                                  state.owners(), state.side_number[char.side])
    metering.count(GEOMETRY, len(costs))
    free = [sq for sq in costs if sq not in at]
    return Reach(char.square, costs, parents, free)


def charge_path(state: WarbandState, char: Character, target: Character) -> list[Square] | None:
    """The squares a Charge at ``target`` enters (WB-MOVE-06/07, WB-AMB-14): the grid line
    toward the target, stopping on the first square next to it; None if it is not legal."""
    if char.square is None or target.square is None:
        return None
    budget = move_budget(char)
    line = bresenham(char.square, target.square)[1:]
    cost = step_cost(state, char)
    path: list[Square] = []
    here = char.square
    for sq in line:
        if len(path) >= budget or sq == target.square:
            return None
        if cost(here, sq) is None or sq in state.at:
            return None
        path.append(sq)
        here = sq
        if chebyshev(sq, target.square) == 1:
            break
    metering.count(GEOMETRY, len(path) + 1)
    if len(path) < 2 or chebyshev(here, target.square) != 1:
        return None
    if abs(state.level(here) - state.level(target.square)) > 1:
        return None  # must end Engaged (WB-MOVE-08, WB-AMB-06)
    return path


def charge_targets(state: WarbandState, char: Character) -> list[tuple[Character, list[Square]]]:
    """Enemies ``char`` may Charge, with the path, nearest first."""
    assert char.square is not None
    reach = move_budget(char) + 1
    magic_blade = any(w.magic for w in char.melee_weapons(state.options.unarmed_attacks))
    out = []
    x, y = char.square
    for dy in range(-reach, reach + 1):
        for dx in range(-reach, reach + 1):
            cid = state.at.get((x + dx, y + dy))
            if cid is None:
                continue
            other = state.chars[cid]
            if other.side == char.side or not other.on_map:
                continue
            if "ethereal" in other.traits and not magic_blade:
                continue  # WB-AMB-38: only a Magic weapon can strike it
            path = charge_path(state, char, other)
            if path is not None:
                out.append((other, path))
    out.sort(key=lambda item: (len(item[1]), item[0].id))
    return out


def can_attack(char: Character) -> bool:
    """May make attacks at all now (not Stunned, Routing, gone, or after a Sprint)."""
    return char.on_map and char.condition != STUNNED and not char.routing and not char.sprinted


def opportunity(state: WarbandState, battle: Battle, mover: Character) -> bool:
    """Every enemy Engaged with ``mover`` may make one melee attack before it leaves
    (WB-CIRC-13, WB-AMB-21). Returns whether the mover can still go."""
    from warhost.rulesets.warband.combat import melee_batch

    enemies = state.engaged_enemies(mover)
    if not enemies:
        return True
    rank = {cid: i for i, cid in enumerate(state.order)}
    enemies.sort(key=lambda c: rank.get(c.id, len(rank)))
    for enemy in enemies:
        if not mover.on_map or mover.condition != STANDING:
            break
        if not can_attack(enemy) or not state.touching(enemy, mover):
            continue
        if state.options.aoo_consumes_attack and enemy.attacks_left <= 0:
            continue
        ethereal = "ethereal" in mover.traits  # only Magic attacks strike it (WB-AMB-38)
        weapons = [w for w in enemy.melee_weapons(state.options.unarmed_attacks)
                   if w.reach >= 1 and (w.magic or not ethereal)]
        if not weapons:
            continue
        options = tuple(Order.of("opportunity", mover.id, order_word(w.name)) for w in weapons)
        order = battle.ask(enemy.side, "opportunity", (*options, NO_AOO),
                           f"{mover.label} leaves {enemy.label}: attack of opportunity?",
                           enemy.id, default=options[0])
        if order == NO_AOO:
            continue
        weapon = next(w for w in weapons if order_word(w.name) == order.args[1])
        if state.options.aoo_consumes_attack:
            enemy.attacks_used += 1
        battle.emit("opportunity", who=enemy.id, target=mover.id, weapon=weapon.name)
        melee_batch(state, battle, enemy, mover, weapon, 1, opportunity=True)
    return mover.on_map and mover.condition == STANDING


def leave(state: WarbandState, battle: Battle, char: Character, how: str) -> bool:
    """``char`` is about to leave its square by a movement action: every Engaged enemy may
    strike first (WB-MOVE-04, WB-AMB-21). Returns whether it can still go."""
    if state.engaged(char) and not opportunity(state, battle, char):
        battle.emit("move_cancelled", who=char.id, how=how)
        return False
    return True


def walk(state: WarbandState, battle: Battle, char: Character, path: list[Square] | tuple[
        Square, ...], how: str) -> bool:
    """Carry out a move along ``path``: Attacks of Opportunity first if Engaged (a move that
    leaves the square provokes them); returns whether the character moved."""
    if not leave(state, battle, char, how):
        return False
    start = char.square
    state.place(char, path[-1])
    battle.emit("move", who=char.id, how=how, start=list(start) if start else None,
                to=list(path[-1]), squares=len(path))
    return True


def choose_facing(state: WarbandState, battle: Battle, char: Character) -> None:
    """The new facing after a move (WB-TURN-04, WB-AMB-05)."""
    if not char.on_map:
        return
    options = tuple(Order.of("face", f) for f in FACING_ORDER)
    default = options[FACING_ORDER.index(char.facing)]
    order = battle.ask(char.side, "facing", options, f"Which way does {char.label} face now?",
                       char.id, default=default)
    if order.args[0] != char.facing:
        char.facing = str(order.args[0])
        battle.emit("face", who=char.id, facing=char.facing)


def movement_choices(state: WarbandState, char: Character) -> tuple[OrderList, Reach | None]:
    """Every Movement Phase action open to ``char`` (WB-MOVE-02), ``stay`` first, and the
    paths of its moves (one search at Sprint distance serves Move and Sprint)."""
    if char.condition == KNOCKED_DOWN:
        return OrderList([STAND, STAY_DOWN]), None  # WB-INJURY-04, WB-AMB-41
    options = OrderList([STAY, PRONE])
    if char.braced:  # WB-UTIL-07: a Braced character cannot move
        return options, None
    paths = destinations(state, char, move_budget(char, 3))
    budget = move_budget(char)
    costs = paths.costs
    squares = sorted(costs)
    near = {sq for sq in squares if costs[sq] <= budget}
    options.add_squares("move", [sq for sq in squares if sq in near])
    # Sprints and Jumps to squares a Move reaches are legal but listed only when asked for
    # (see accept_movement): they would cost the turn's attacks for nothing.
    options.add_squares("sprint", [sq for sq in squares if sq not in near])
    options.extend(Order.of("charge", t.id) for t, _ in charge_targets(state, char))
    options.extend(climbing.climb_options(state, char))
    options.extend(climbing.jump_options(state, char, skip=near))
    metering.count(OPTIONS, len(options))
    return options, paths


def accept_movement(state: WarbandState, char: Character, paths: Reach | None
                    ) -> Callable[[Order], Order | None]:
    """Judges the legal Movement orders that are not listed: a Sprint to a square a Move
    reaches, a Jump to a square a Move reaches (see :func:`movement_choices`)."""

    def accept(order: Order) -> Order | None:
        if paths is None or order.kind not in ("sprint", "jump") or len(order.args) != 2:
            return None
        try:
            to = (int(order.args[0]), int(order.args[1]))
        except (TypeError, ValueError):
            return None
        if order.kind == "sprint":
            return Order.of("sprint", *to) if to in paths else None
        legal = climbing.jump_options(state, char, only=to)
        return legal[0] if legal else None

    return accept


def take_movement(
    state: WarbandState, battle: Battle, char: Character, order: Order,
    paths: Reach | None = None,
) -> None:
    """Carry out one Movement Phase action (``paths``: from :func:`movement_choices`)."""
    char.moved = True
    kind = order.kind
    if kind == "stay" or kind == "stay-down":
        return
    if kind == "stand":
        char.condition = STANDING
        battle.emit("stand_up", who=char.id)
        return
    if kind == "prone":
        char.prone = True  # WB-MOVE-18
        battle.emit("prone", who=char.id)
        return
    if kind in ("move", "sprint"):
        to = (int(order.args[0]), int(order.args[1]))
        path = (paths or destinations(state, char, move_budget(char, 3)))[to][1]
        if kind == "sprint":
            char.sprinted = True  # WB-MOVE-24
        turns = kind == "move" or state.options.facing_change == "after_any_move"
        if walk(state, battle, char, path, kind) and turns:
            choose_facing(state, battle, char)
        return
    if kind == "charge":
        charge(state, battle, char, state.chars[str(order.args[0])])
        return
    if kind in ("climb", "jump"):
        act = climbing.climb if kind == "climb" else climbing.jump
        if act(state, battle, char, order) and state.options.facing_change == "after_any_move":
            choose_facing(state, battle, char)
        return
    raise ValueError(f"not a movement order: {order}")


def charge(state: WarbandState, battle: Battle, char: Character, target: Character) -> None:
    """Charge ``target`` (WB-MOVE-06 to 09, WB-AMB-14/15/16, WB-UTIL-08)."""
    path = charge_path(state, char, target)
    assert path is not None
    if not walk(state, battle, char, path, "charge"):
        return
    char.charged = target.id
    char.charge_braced = target.braced
    if not target.moved:
        target.moved = True  # neither may move for the rest of the turn (WB-AMB-15)
        target.stand_and_shoot_ok = True
    target.chargers.append(char.id)
    battle.emit("charge", who=char.id, target=target.id, braced=target.braced)
    if "terror" in char.traits:
        from warhost.rulesets.warband.injury import note_trigger

        note_trigger(target, "terror")  # WB-MORALE-07/11/15: one trigger, not one per charger
    if state.options.facing_change == "after_any_move":
        choose_facing(state, battle, char)
