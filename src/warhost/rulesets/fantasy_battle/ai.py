"""A heuristic commander for `fantasy-battle`.

It advances in formation, picks targets it can beat (exact odds from :mod:`odds`), seeks
flanks, keeps archers at range and out of contact, faces pikes toward the nearest threat,
charges when the charge lands, and spends Fate Points and Feats when they change the result.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np

from warhost.core.commanders import Commander
from warhost.core.decisions import Decision
from warhost.core.orders import Order
from warhost.geometry.grid import Square, facing_arc, footprint, space_distance
from warhost.rulesets.fantasy_battle import combat, movement
from warhost.rulesets.fantasy_battle.ai_board import (
    AttackList,
    Board,
    count_geometry,
    sparse_pairwise_sum,
)
from warhost.rulesets.fantasy_battle.odds import success_float
from warhost.rulesets.fantasy_battle.state import FACINGS, RANK_DICE, FBState, Unit, _box_gap


def _distances(boxes: np.ndarray, others: np.ndarray) -> np.ndarray:
    """Chebyshev distances between every box of ``boxes`` (N×4) and of ``others`` (M×4)."""
    a = boxes[:, None, :]
    b = others[None, :, :]
    dx = np.maximum(0, np.maximum(b[..., 0] - a[..., 2], a[..., 0] - b[..., 2]))
    dy = np.maximum(0, np.maximum(b[..., 1] - a[..., 3], a[..., 1] - b[..., 3]))
    result: np.ndarray = np.maximum(dx, dy)
    return result


def _gaps(boxes: np.ndarray, others: np.ndarray) -> np.ndarray:
    """Chebyshev gaps of every box of ``others`` (M x 4) to the box ``boxes`` (4,)."""
    dx = np.maximum(others[:, 0] - boxes[2], boxes[0] - others[:, 2])
    dy = np.maximum(others[:, 1] - boxes[3], boxes[1] - others[:, 3])
    result: np.ndarray = np.maximum(np.maximum(dx, dy), 0)
    return result


class _Field:
    """Distances and threats around one unit, for scoring many destinations at once.

    Only the units that can matter to the destinations are looked at: for the nearest enemy
    (friend) those no farther from the destinations' bounding box than the nearest one plus
    the box's extent, for threats those whose reach touches the box, for Pike arcs those next
    to it. The scores are the same as over every unit (threats are summed in NumPy's own order,
    see :func:`sparse_pairwise_sum`).
    """

    def __init__(self, board: Board, unit: Unit) -> None:
        self.unit = unit
        self.board = board
        self.enemies, self.enemy_boxes = board.enemy_boxes(unit.side)
        self.reach = board.threat_reach(self.enemies)
        self.weight = board.weight[self.enemies]
        own = board.state.table_row(unit)
        friends = board.friend_rows(unit.side)
        self.friends = friends[friends != own]
        self.friend_boxes = board.boxes(self.friends) if len(self.friends) else None
        x0, y0, x1, y1 = board.boxes(np.array([own]))[0].tolist()
        self.own_box = (x0, y0, x1, y1)

    def score_anchors(self, anchors: np.ndarray | list[Square],
                      size: int) -> tuple[np.ndarray, np.ndarray]:
        """(rough score, distance to the nearest enemy) of the ``size`` spaces anchored at
        ``anchors`` (a list of squares or an N x 2 array): approach, danger and cohesion,
        without any dice."""
        corners = np.asarray(anchors, dtype=np.int64).reshape(-1, 2)
        boxes = np.concatenate([corners, corners + (size - 1)], axis=1)
        outer = (int(boxes[:, 0].min()), int(boxes[:, 1].min()),
                 int(boxes[:, 2].max()), int(boxes[:, 3].max()))
        extent = max(outer[2] - outer[0], outer[3] - outer[1])
        near_box = np.array(outer)
        # Pike arcs: only the squares next to a Pike can be in its arc.
        arcs: set[Square] = set()
        gaps = _gaps(near_box, self.enemy_boxes)
        pikes = self.enemies[gaps <= 2]
        for x, y, dx, dy in self.board.facings(pikes).tolist():
            arcs.update(facing_arc((x, y), (dx, dy)))
        in_arc: np.ndarray | None = None
        if arcs:
            if isinstance(anchors, np.ndarray):
                anchors = [(x, y) for x, y in corners.tolist()]
            if size == 1:
                in_arc = np.array([a in arcs for a in anchors], dtype=bool)
            else:
                in_arc = np.array([any(sq in arcs for sq in footprint(a, size))
                                   for a in anchors], dtype=bool)
        board = self.board
        side = board.side_of[self.unit.side]
        dense = board.small
        if dense:  # a small battle: every destination against every unit
            count_geometry(len(boxes) * len(self.enemies))
            dist = _distances(boxes, self.enemy_boxes)
            nearest = dist.min(axis=1)
            threat = ((dist <= self.reach[None, :]) * self.weight[None, :]).sum(axis=1)
        else:
            # The nearest enemy of every destination is at most this far.
            foe = board.side_of[board.state.other_side(self.unit.side)]
            low = int(gaps.min())
            nearest = board.nearest_gaps(boxes, foe, low, low + extent)
        threat_cols = None if dense else np.flatnonzero(gaps <= self.reach)
        if threat_cols is None:
            pass
        elif len(threat_cols):
            count_geometry(len(boxes) * len(threat_cols))
            dist = _distances(boxes, self.enemy_boxes[threat_cols])
            values = (dist <= self.reach[threat_cols][None, :]) * self.weight[threat_cols][None, :]
            threat = sparse_pairwise_sum(values, threat_cols.tolist(), len(self.enemies))
        else:
            threat = np.zeros(len(boxes))
        if in_arc is not None:
            threat = threat + 0.4 * in_arc
        if self.unit.is_archer:
            score = -1.5 * threat - 0.05 * np.maximum(0, nearest - 6) - 2.0 * (nearest == 1)
        else:
            score = -0.3 * threat - 0.2 * nearest
        if self.friend_boxes is not None and dense:
            count_geometry(len(boxes) * len(self.friend_boxes))
            gap = _distances(boxes, self.friend_boxes).min(axis=1)
            score = score - 0.1 * np.maximum(0, gap - 1)
        elif self.friend_boxes is not None:
            low = int(_gaps(near_box, self.friend_boxes).min())
            gap = board.nearest_gaps(boxes, side, low, low + extent, self.own_box)
            score = score - 0.1 * np.maximum(0, gap - 1)
        return score, nearest


def _box(space: tuple[Square, ...]) -> tuple[int, int, int, int]:
    xs = [sq[0] for sq in space]
    ys = [sq[1] for sq in space]
    return min(xs), min(ys), max(xs), max(ys)


def _enemy_boxes(state: FBState, side: str) -> np.ndarray:
    """Bounding boxes (x0, y0, x1, y1) of every enemy of ``side`` on the map."""
    boxes = [_box(state.squares_of(e)) for e in state.enemies(side)]
    return np.array(boxes) if boxes else np.zeros((0, 4), dtype=int)


class _PlainField:
    """Distances and threats around one unit, for scoring many destinations at once: every
    destination against every unit (the plain way, quicker in small battles; :class:`_Field`
    gives the same scores looking only at the units that can matter)."""

    def __init__(self, state: FBState, unit: Unit, enemies: list[Unit]) -> None:
        self.unit = unit
        self.enemy_boxes = np.array([_box(state.squares_of(e)) for e in enemies])
        self.reach = np.array([0 if e.is_archer else movement.allowance(e, False, False) + 1
                               for e in enemies])
        self.weight = np.array([0.15 * RANK_DICE[e.rank] for e in enemies])
        self.arcs: set[Square] = set()
        for e in enemies:
            if e.has_facing and e.facing is not None and e.anchor is not None:
                self.arcs.update(facing_arc(e.anchor, e.facing))
        friends = [_box(state.squares_of(f)) for f in state.friends(unit.side) if f.id != unit.id]
        self.friend_boxes = np.array(friends) if friends else None

    def score_anchors(
        self, anchors: np.ndarray | list[Square], size: int
    ) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`score` of the ``size`` spaces anchored at ``anchors`` (a list of squares or an
        N x 2 array; their boxes are computed in one go)."""
        corners = np.asarray(anchors, dtype=np.int64).reshape(-1, 2)
        boxes = np.concatenate([corners, corners + (size - 1)], axis=1)
        if not self.arcs:
            return self._score(boxes, None)
        arcs = self.arcs
        if isinstance(anchors, np.ndarray):
            anchors = [(x, y) for x, y in corners.tolist()]
        if size == 1:
            in_arc = [a in arcs for a in anchors]
        else:
            in_arc = [any(sq in arcs for sq in footprint(a, size)) for a in anchors]
        return self._score(boxes, np.array(in_arc, dtype=bool))

    def _score(
        self, boxes: np.ndarray, in_arc: np.ndarray | list[tuple[Square, ...]] | None
    ) -> tuple[np.ndarray, np.ndarray]:
        """``in_arc``: per box whether its space touches an enemy Pike's front arc, or the
        spaces themselves (checked here)."""
        dist = _distances(boxes, self.enemy_boxes)
        nearest = dist.min(axis=1)
        threat = ((dist <= self.reach[None, :]) * self.weight[None, :]).sum(axis=1)
        if self.arcs:
            if isinstance(in_arc, list):
                in_arc = np.array([any(sq in self.arcs for sq in space) for space in in_arc])
            assert in_arc is not None
            threat = threat + 0.4 * in_arc
        if self.unit.is_archer:
            score = -1.5 * threat - 0.05 * np.maximum(0, nearest - 6) - 2.0 * (nearest == 1)
        else:
            score = -0.3 * threat - 0.2 * nearest
        if self.friend_boxes is not None:
            gap = _distances(boxes, self.friend_boxes).min(axis=1)
            score = score - 0.1 * np.maximum(0, gap - 1)
        return score, nearest


def unit_value(unit: Unit) -> float:
    """How much defeating ``unit`` is worth; a wounded Champion is one hit from it."""
    value = float(unit.point_value())
    if unit.rank == "champion" and not unit.wounded and not unit.is_cavalry:
        value *= 0.5
    if unit.is_cavalry and unit.rank != "standard":
        value *= 0.6
    return value


def attack_chance(state: FBState, attacker: Unit, target: Unit, kind: str,
                  charging: bool = False) -> float:
    """Exact chance that ``attacker`` beats ``target`` now."""
    att_mod, def_mod = combat.modifier_values(state, attacker, target, kind, charging)
    return success_float(RANK_DICE[attacker.rank], RANK_DICE[target.rank], att_mod, def_mod)


class FantasyBattleAI(Commander):
    """Answers every `fantasy-battle` decision with a short look at the board."""

    kind = "ai"

    def choose(self, decision: Decision, state: Any) -> Order:
        handler = getattr(self, "_" + decision.kind.replace("-", "_"), None)
        if handler is not None:
            choice: Order | None = handler(decision, state)
            if choice is not None and decision.find(choice) is not None:
                return choice
        return decision.default if decision.default is not None else decision.options[0]

    # --- what the AI remembers about the board ---------------------------------------------
    def _board_for(self, state: FBState) -> Board:
        """The :class:`Board` of ``state``, brought up to date (a new one for a new state)."""
        board: Board | None = getattr(self, "_board", None)
        if board is None or not board.fresh(state):
            board = self._board = Board(state)
        else:
            board.update()
        return board

    def _nearest(self, state: FBState, unit: Unit) -> int | None:
        """Distance from ``unit`` to its nearest enemy (None when no enemy is on the map)."""
        board = self._board_for(state)
        if board.small:
            return min((state.distance(unit, e) for e in state.enemies(unit.side)), default=None)
        return board.nearest_of([unit])[0]

    # --- attacks from where the units stand, remembered while the board is unchanged ----------
    def _attacks_now(self, state: FBState, unit: Unit, board: Board | None = None,
                     nearest: int | None = -1) -> AttackList:
        """(kind, target, chance) of every attack ``unit`` could make now (no Throw).

        The answers are kept until a change of the board can touch them (see :class:`Board`):
        choosing whom to activate, which member acts and its plan ask the same questions of
        the same position one after another. ``board``: the up-to-date board, and
        ``nearest``: the distance to the unit's nearest enemy, if at hand.
        """
        if board is None:
            board = self._board_for(state)
        found = board.attacks.get(unit.id)
        if found is None:
            if nearest == -1:
                nearest = board.nearest_of([unit])[0]
            # Melee needs an enemy next to it, shooting one in range: else no attack at all.
            if nearest is None or nearest > (state.options.max_range if unit.is_archer else 1):
                found = []
            else:
                count_geometry()
                found = []
                for c in combat.attack_options(state, unit, allow_throw=False):
                    target = state.units[c.target]
                    chance = board.chance_of(unit, target, c.kind, partial(
                        attack_chance, state, unit, target, c.kind))
                    found.append((c.kind, c.target, chance))
            board.keep_attacks(unit, found)
        return found

    def _activate(self, decision: Decision, state: FBState) -> Order | None:
        best, best_score = None, -1e9
        board = self._board_for(state)
        scores = board.group_score
        todo: list[tuple[str, list[Unit]]] = []
        for option in decision.options:
            if option.kind != "activate":
                continue
            gid = str(option.args[0])
            if gid not in scores:
                squad = state.squads.get(gid)
                members = [state.units[m] for m in squad.members] if squad else [state.units[gid]]
                todo.append((gid, [m for m in members if m.on_map]))
        if todo:
            urgency = self._urgencies(state, board, [m for _, ms in todo for m in ms])
            for gid, members in todo:
                squad = state.squads.get(gid)
                board.keep_group_score(gid, squad.members if squad else [gid],
                                       max((urgency[m.id] for m in members), default=-1e9))
        for option in decision.options:
            if option.kind != "activate":
                continue
            score = scores[str(option.args[0])]
            if score > best_score:
                best, best_score = option, score
        return best

    def _urgencies(self, state: FBState, board: Board, units: list[Unit]) -> dict[str, float]:
        """:meth:`_urgency` of each unit (on the map), kept on the board."""
        kept = board.urgency
        missing = [u for u in units if u.id not in kept]
        if missing:
            for unit, nearest in zip(missing, board.nearest_of(missing)):
                board.keep_urgency(unit, self._urgency(state, unit, nearest, board))
        return kept

    def _urgency(self, state: FBState, unit: Unit, nearest: int | None, board: Board) -> float:
        """How much acting now matters: a good attack first, else threats and closeness
        (``nearest``: the distance to the nearest enemy, None without enemies)."""
        best = 0.0
        for _, target_id, chance in self._attacks_now(state, unit, board, nearest):
            best = max(best, chance * unit_value(state.units[target_id]))
        if best:
            return 10 + best
        if nearest is None:
            return 5 - 0.1 * 99
        threat = 0
        if nearest == 1:
            space = state.squares_of(unit)
            (x0, y0), (x1, y1) = space[0], space[-1]
            seen: set[str] = set()
            count_geometry((x1 - x0 + 3) * (y1 - y0 + 3))
            for y in range(y0 - 1, y1 + 2):
                for x in range(x0 - 1, x1 + 2):
                    uid = state.occupied.get((x, y))
                    if uid is not None and uid not in seen:
                        seen.add(uid)
                        other = state.units[uid]
                        if other.side != unit.side and state.adjacent(unit, other):
                            threat += 1
        return 5 - 0.1 * nearest + threat

    def _member(self, decision: Decision, state: FBState) -> Order | None:
        members = [state.units[str(o.args[0])] for o in decision.options]
        urgency = self._urgencies(state, self._board_for(state), members)
        scores = [urgency[m.id] for m in members]
        return decision.options[scores.index(max(scores))]

    # --- a unit's plan -----------------------------------------------------------------------
    def _plan(self, decision: Decision, state: FBState) -> Order | None:
        unit = state.units[decision.subject]
        kinds = {o.kind: o for o in decision.options}
        now = self._attacks_now(state, unit)
        if unit.is_archer:
            if now and "attack-move" in kinds:
                return kinds["attack-move"]  # shoot, then step back out of reach
            return kinds.get("move-attack")
        if now:
            best = max(chance for _, _, chance in now)
            if best >= 0.4 and "attack-move" in kinds and not unit.has_charge:
                return kinds["attack-move"]
        charge = self._best_charge(decision, state, unit)
        if charge is not None:
            return charge
        closest = self._nearest(state, unit)
        if "mobility" in kinds and not now:
            nearest = 99 if closest is None else closest
            if nearest <= movement.allowance(unit, False, False) // 2:
                return kinds["mobility"]  # reach, strike and still have legs to spare
        nearest = 0 if closest is None else closest
        reach = movement.allowance(unit, False, False) + 1
        if nearest > reach + 2 and "double" in kinds and not now:
            return kinds["double"]
        return kinds.get("move-attack")

    def _best_charge(self, decision: Decision, state: FBState, unit: Unit) -> Order | None:
        charges = [o for o in decision.options if o.kind == "charge"]
        if not charges:
            return None
        plans = movement.charge_destinations(state, unit, movement.allowance(unit, False, False))
        best, best_value = None, 0.25
        for option in charges:
            target = state.units[str(option.args[0])]
            for dest in plans:
                space = footprint(dest, unit.size)
                if space_distance(space, state.squares_of(target)) != 1:
                    continue
                value = self._with_unit_at(state, unit, dest, lambda: attack_chance(
                    state, unit, target, "melee", charging=True)) * unit_value(target)
                if value > best_value:
                    best, best_value = option, value
        return best

    @staticmethod
    def _with_unit_at(state: FBState, unit: Unit, anchor: Square, fn: Any) -> Any:
        old = unit.anchor
        state.place(unit, anchor)
        try:
            return fn()
        finally:
            state.place(unit, old)

    # --- movement --------------------------------------------------------------------------
    def _move(self, decision: Decision, state: FBState) -> Order | None:
        """Score every destination cheaply, then look closely only at the promising ones."""
        unit = state.units[decision.subject]
        board = self._board_for(state)
        field: _Field | _PlainField
        if board.small:
            # The enemies, for _attack_value too (they stay where they are meanwhile).
            enemies = self._enemies = state.enemies(unit.side)
            if not enemies:
                return decision.default
            field = _PlainField(state, unit, enemies)
        else:
            if not len(board.enemy_rows(unit.side)):
                return decision.default
            field = _Field(board, unit)
        charge = decision.info.get("charge")
        # The options are "move x y" in the order of the destination table, when there is one:
        # read the squares from it rather than build every option.
        table = decision.info.get("destinations")
        if isinstance(table, movement.DestinationTable) and len(table) == decision.option_count:
            anchors: np.ndarray | list[Square] = table.anchor_array()
            square: Callable[[int], Square] = table.square
        else:
            dests = [(int(o.args[0]), int(o.args[1])) for o in decision.options]
            anchors = dests
            square = dests.__getitem__  # type: ignore[assignment]
        if not len(anchors):
            return None
        rough, nearest = field.score_anchors(anchors, unit.size)
        values = rough.tolist()
        # The first destination with the best rough score (ties: the earliest option) ...
        best = int(np.argmax(rough))
        best_score = values[best]
        # ... unless a closer look at the promising ones finds an attack worth more: for
        # Archers the 8 best-scored at range 2-12 (best first, ties in option order), for the
        # others every destination next to an enemy (in option order).
        if unit.is_archer:
            ranked = np.argsort(-rough, kind="stable")
            near = nearest[ranked]
            close = ranked[(near >= 2) & (near <= 12)][:8].tolist()
        else:
            close = np.flatnonzero(nearest == 1).tolist()
        for i in close:
            value = values[i]
            bonus = self._with_unit_at(state, unit, square(i),
                                       lambda: self._attack_value(state, unit, charge))
            if value + bonus > best_score:
                best, best_score = i, value + bonus
        return decision.option(best)

    def _attack_value(self, state: FBState, unit: Unit, charge: str | None) -> float:
        """What the unit could win by attacking from where it stands now."""
        best = 0.0
        if unit.is_archer:
            # Only the six nearest enemies: farther ones pay more range penalty, and exact
            # lines of fire are the costly part of judging a firing position.
            anchor = unit.anchor
            assert anchor is not None
            board = self._board  # brought up to date by _move (the unit stands elsewhere now)
            if board.small:
                enemies = self._enemies
                size = unit.size
                count_geometry(len(enemies))
                nearest_first = sorted(enemies, key=lambda e: _box_gap(
                    anchor, size, e.anchor, e.size))  # type: ignore[arg-type]
                far = frozenset(e.id for e in nearest_first[6:])
                for choice in combat.attack_options(state, unit, allow_throw=False, exclude=far):
                    target = state.units[choice.target]
                    best = max(best, attack_chance(state, unit, target, "ranged")
                               * unit_value(target))
                return 3 * best
            rows, boxes = board.enemy_boxes(unit.side)
            own = np.array([anchor[0], anchor[1], anchor[0] + unit.size - 1,
                            anchor[1] + unit.size - 1])
            by_distance = rows[np.argsort(_gaps(own, boxes), kind="stable")]
            uids = board.uids
            far = frozenset([uids[row] for row in by_distance[6:].tolist()])
            for choice in combat.attack_options(state, unit, allow_throw=False, exclude=far):
                target = state.units[choice.target]
                chance = board.chance_of(unit, target, "ranged", partial(
                    attack_chance, state, unit, target, "ranged"))
                best = max(best, chance * unit_value(target))
            return 3 * best
        # In a small battle, every enemy (cheaper than a look around the unit).
        near = self._enemies if self._board.small else self._adjacent_enemies(state, unit)
        for enemy in near:
            if state.adjacent(unit, enemy):
                charging = charge == enemy.id
                if unit.has_facing:
                    chance = self._pike_chance(state, unit, enemy, charging)
                else:
                    chance = attack_chance(state, unit, enemy, "melee", charging)
                best = max(best, chance * unit_value(enemy))
        return 3 * best

    @staticmethod
    def _adjacent_enemies(state: FBState, unit: Unit) -> list[Unit]:
        """The enemies whose space touches ``unit``'s (any level), in army order."""
        anchor = unit.anchor
        assert anchor is not None
        x0, y0 = anchor
        size = unit.size
        occupied = state.occupied
        units = state.units
        found: set[str] = set()
        count_geometry((size + 2) * (size + 2))
        for y in range(y0 - 1, y0 + size + 1):
            for x in range(x0 - 1, x0 + size + 1):
                uid = occupied.get((x, y))
                if uid is not None and units[uid].side != unit.side:
                    found.add(uid)
        order = state.unit_order()
        return [units[uid] for uid in sorted(found, key=order.__getitem__)]

    @staticmethod
    def _pike_chance(state: FBState, pike: Unit, enemy: Unit, charging: bool) -> float:
        old = pike.facing
        best = 0.0
        for facing in ((0, 1), (1, 0), (0, -1), (-1, 0)):
            state.set_facing(pike, facing)
            if state.in_front_arc(pike, state.squares_of(enemy)):
                best = max(best, attack_chance(state, pike, enemy, "melee", charging))
        state.set_facing(pike, old)
        return best

    def _facing(self, decision: Decision, state: FBState) -> Order | None:
        unit = state.units[decision.subject]
        enemies = state.enemies(unit.side)
        if not enemies or unit.anchor is None:
            return None
        target = min(enemies, key=lambda e: (state.distance(unit, e), e.id))
        assert target.anchor is not None
        dx = target.anchor[0] - unit.anchor[0]
        dy = target.anchor[1] - unit.anchor[1]
        return max(decision.options, key=lambda o: FACINGS[str(o.args[0])][0] * dx
                   + FACINGS[str(o.args[0])][1] * dy)

    # --- attacks -----------------------------------------------------------------------------
    def _attack(self, decision: Decision, state: FBState) -> Order | None:
        unit = state.units[decision.subject]
        charge = decision.info.get("charge")
        best, best_value = None, 0.0
        for option in decision.options:
            if option.kind not in ("attack", "throw"):
                continue
            target = state.units[str(option.args[0])]
            kind = "throw" if option.kind == "throw" else (
                "ranged" if unit.is_archer else "melee")
            value = attack_chance(state, unit, target, kind, charge == target.id) * unit_value(target)
            if option.kind == "throw":
                value *= 0.7  # a Feat is worth a point when the champion falls
            if value > best_value:
                best, best_value = option, value
        return best

    def _frenzy(self, decision: Decision, state: FBState) -> Order | None:
        options = [o for o in decision.options if o.kind == "frenzy"]
        return options[0] if options else None

    def _protect(self, decision: Decision, state: FBState) -> Order | None:
        options = [o for o in decision.options if o.kind == "protect"]
        return options[0] if options else None

    def _burst(self, decision: Decision, state: FBState) -> Order | None:
        unit = state.units[decision.subject]
        closest = self._nearest(state, unit)
        nearest = 0 if closest is None else closest
        reach = movement.allowance(unit, False, False) + 1
        if reach < nearest <= reach + 2:
            return Order("burst")
        return Order("no-burst")

    def _fate(self, decision: Decision, state: FBState) -> Order | None:
        """Spend a Fate Point on the reroll that most raises the chance of winning this roll."""
        info = decision.info
        own, foe = list(info.get("own", [])), list(info.get("foe", []))
        role, purpose = info.get("role"), info.get("purpose")

        def wins(own_dice: list[int], foe_dice: list[int]) -> bool:
            if purpose == "dismount":  # the target wants 4-6, the attacker 1-3
                die = (own_dice or foe_dice)[0]
                return die >= 4 if role == "defender" else die <= 3
            att, dfn = (own_dice, foe_dice) if role == "attacker" else (foe_dice, own_dice)
            success = max(att) + int(info.get("attack_mod", 0)) > max(dfn) + int(
                info.get("defense_mod", 0))
            return success if role == "attacker" else not success

        if wins(own, foe):
            return Order("fate-pass")
        best, best_gain = Order("fate-pass"), 0.2
        for option in decision.options:
            if option.kind not in ("reroll-own", "reroll-foe"):
                continue
            index = int(option.args[0])
            gain = 0.0
            for face in range(1, 7):
                o, f = list(own), list(foe)
                (o if option.kind == "reroll-own" else f)[index] = face
                gain += wins(o, f) / 6
            if gain > best_gain:
                best, best_gain = option, gain
        return best

    def _reinforce(self, decision: Decision, state: FBState) -> Order | None:
        rank_order = {"champion": 0, "elite": 1, "standard": 2}
        options = [o for o in decision.options if o.kind == "reinforce"]
        if not options:
            return None
        return min(options, key=lambda o: rank_order[state.units[str(o.args[0])].rank])

    def _deploy(self, decision: Decision, state: FBState) -> Order | None:
        centre = state.grid.width / 2
        return min(decision.options, key=lambda o: (abs(int(o.args[0]) - centre),
                                                     -abs(int(o.args[1]) - state.grid.height / 2)))

    def _dismount(self, decision: Decision, state: FBState) -> Order | None:
        unit = state.units[decision.subject] if decision.subject in state.units else None
        if unit is None:
            return None
        enemies = state.enemies(unit.side)

        def safety(o: Order) -> int:
            sq = (int(o.args[1]), int(o.args[2])) if len(o.args) == 3 else (
                int(o.args[0]), int(o.args[1]))
            return min((space_distance((sq,), state.squares_of(e)) for e in enemies), default=0)
        return max(decision.options, key=safety)
