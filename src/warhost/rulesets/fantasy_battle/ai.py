"""A heuristic commander for `fantasy-battle`.

It advances in formation, picks targets it can beat (exact odds from :mod:`odds`), seeks
flanks, keeps archers at range and out of contact, faces pikes toward the nearest threat,
charges when the charge lands, and spends Fate Points and Feats when they change the result.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from warhost.core.commanders import Commander
from warhost.core.decisions import Decision
from warhost.core.orders import Order
from warhost.geometry.grid import Square, facing_arc, footprint, space_distance
from warhost.rulesets.fantasy_battle import combat, movement
from warhost.rulesets.fantasy_battle.odds import success_float
from warhost.rulesets.fantasy_battle.state import FACINGS, RANK_DICE, FBState, Unit, _box_gap


def _box(space: tuple[Square, ...]) -> tuple[int, int, int, int]:
    xs = [sq[0] for sq in space]
    ys = [sq[1] for sq in space]
    return min(xs), min(ys), max(xs), max(ys)


def _distances(boxes: np.ndarray, others: np.ndarray) -> np.ndarray:
    """Chebyshev distances between every box of ``boxes`` (N×4) and of ``others`` (M×4)."""
    a = boxes[:, None, :]
    b = others[None, :, :]
    dx = np.maximum(0, np.maximum(b[..., 0] - a[..., 2], a[..., 0] - b[..., 2]))
    dy = np.maximum(0, np.maximum(b[..., 1] - a[..., 3], a[..., 1] - b[..., 3]))
    result: np.ndarray = np.maximum(dx, dy)
    return result


def _enemy_boxes(state: FBState, side: str) -> np.ndarray:
    """Bounding boxes (x0, y0, x1, y1) of every enemy of ``side`` on the map."""
    boxes = [_box(state.squares_of(e)) for e in state.enemies(side)]
    return np.array(boxes) if boxes else np.zeros((0, 4), dtype=int)


class _Field:
    """Distances and threats around one unit, for scoring many destinations at once."""

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

    def score(self, spaces: list[tuple[Square, ...]]) -> tuple[np.ndarray, np.ndarray]:
        """(rough score, distance to the nearest enemy) of each candidate space:
        approach, danger and cohesion, without any dice."""
        return self._score(np.array([_box(space) for space in spaces]), spaces)

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
    att_mod, def_mod, _ = combat.modifiers(state, attacker, target, kind, charging)
    return success_float(RANK_DICE[attacker.rank], RANK_DICE[target.rank], att_mod, def_mod)


def _snapshot(state: FBState) -> list[tuple[Any, ...]]:
    """Everything about the units that attack options and their odds depend on: two equal
    snapshots of the same battle state give the same answers."""
    return [(u.anchor, u.status, u.facing, u.wounded, u.dismounted, u.cls, u.type, u.size,
             u.fate_spent, u.feats_used_since_entry, u.rank) for u in state.units.values()]


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

    # --- turn order ------------------------------------------------------------------------
    # --- attacks from where the units stand, remembered while the board is unchanged ----------
    def _attacks_now(self, state: FBState, unit: Unit) -> list[tuple[str, str, float]]:
        """(kind, target, chance) of every attack ``unit`` could make now (no Throw).

        The answers are kept for as long as the board looks the same (see :func:`_snapshot`):
        choosing whom to activate, which member acts and its plan ask the same questions of
        the same position one after another.
        """
        snap = _snapshot(state)
        memo: dict[str, list[tuple[str, str, float]]] | None = None
        kept = getattr(self, "_memo", None)
        if kept is not None and kept[0] is state and kept[1] == snap:
            memo = kept[2]
        else:
            memo = {}
            self._memo = (state, snap, memo)
        found = memo.get(unit.id)
        if found is None:
            found = [(c.kind, c.target, attack_chance(state, unit, state.units[c.target], c.kind))
                     for c in combat.attack_options(state, unit, allow_throw=False)]
            memo[unit.id] = found
        return found

    def _activate(self, decision: Decision, state: FBState) -> Order | None:
        best, best_score = None, -1e9
        side = decision.side
        enemy_boxes = _enemy_boxes(state, side)
        for option in decision.options:
            if option.kind != "activate":
                continue
            gid = str(option.args[0])
            squad = state.squads.get(gid)
            members = [state.units[m] for m in squad.members] if squad else [state.units[gid]]
            score = max((self._urgency(state, m, enemy_boxes) for m in members if m.on_map),
                        default=-1e9)
            if score > best_score:
                best, best_score = option, score
        return best

    def _urgency(self, state: FBState, unit: Unit, enemy_boxes: np.ndarray | None = None) -> float:
        """How much acting now matters: a good attack first, else threats and closeness."""
        best = 0.0
        for _, target_id, chance in self._attacks_now(state, unit):
            best = max(best, chance * unit_value(state.units[target_id]))
        if best:
            return 10 + best
        if enemy_boxes is None:
            enemy_boxes = _enemy_boxes(state, unit.side)
        if not len(enemy_boxes):
            return 5 - 0.1 * 99
        space = state.squares_of(unit)
        nearest = int(_distances(np.array([_box(space)]), enemy_boxes).min())
        threat = 0
        if nearest == 1:
            (x0, y0), (x1, y1) = space[0], space[-1]
            seen: set[str] = set()
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
        enemy_boxes = _enemy_boxes(state, decision.side)
        return max(decision.options,
                   key=lambda o: self._urgency(state, state.units[str(o.args[0])], enemy_boxes))

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
        if "mobility" in kinds and not now:
            nearest = min((state.distance(unit, e) for e in state.enemies(unit.side)), default=99)
            if nearest <= movement.allowance(unit, False, False) // 2:
                return kinds["mobility"]  # reach, strike and still have legs to spare
        nearest = min((state.distance(unit, e) for e in state.enemies(unit.side)), default=0)
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
        enemies = state.enemies(unit.side)
        if not enemies:
            return decision.default
        charge = decision.info.get("charge")
        field = _Field(state, unit, enemies)
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
                                       lambda: self._attack_value(state, unit, enemies, charge))
            if value + bonus > best_score:
                best, best_score = i, value + bonus
        return decision.option(best)

    def _attack_value(self, state: FBState, unit: Unit, enemies: list[Unit],
                      charge: str | None) -> float:
        """What the unit could win by attacking from where it stands now."""
        best = 0.0
        if unit.is_archer:
            # Only the six nearest enemies: farther ones pay more range penalty, and exact
            # lines of fire are the costly part of judging a firing position.
            anchor = unit.anchor
            assert anchor is not None
            size = unit.size
            by_distance = sorted(enemies, key=lambda e: state.distance(e, unit)
                                 if e.anchor is None else _box_gap(anchor, size, e.anchor, e.size))
            far = frozenset(e.id for e in by_distance[6:])
            for choice in combat.attack_options(state, unit, allow_throw=False, exclude=far):
                target = state.units[choice.target]
                best = max(best, attack_chance(state, unit, target, "ranged") * unit_value(target))
            return 3 * best
        for enemy in enemies:
            if state.adjacent(unit, enemy):
                charging = charge == enemy.id
                if unit.has_facing:
                    chance = self._pike_chance(state, unit, enemy, charging)
                else:
                    chance = attack_chance(state, unit, enemy, "melee", charging)
                best = max(best, chance * unit_value(enemy))
        return 3 * best

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
        nearest = min((state.distance(unit, e) for e in state.enemies(unit.side)), default=0)
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
