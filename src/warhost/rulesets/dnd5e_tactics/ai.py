"""A heuristic commander for `dnd5e-tactics`.

It weighs every choice by expected damage from the divisor table: picks the stance and track
that deal the most for what they cost, charges melee units into the target it hurts most,
keeps shooters at range and out of contact, uses area effects where they catch most members,
duels only when its commander is the stronger, encourages when the check is likely to pass,
and takes every free attack.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
import shapely

from warhost.core.commanders import Commander
from warhost.core.damage_dice import DamageDice
from warhost.core.decisions import Decision
from warhost.core.metering import GEOMETRY, count
from warhost.core.orders import Order
from warhost.geometry.table import formation_outline, gap
from warhost.rulesets.dnd5e_tactics.model import AttackSpec, StatBlock
from warhost.rulesets.dnd5e_tactics.setup import parse_point
from warhost.rulesets.dnd5e_tactics.spatial import CELL, TOLERANCE, rect_gaps
from warhost.rulesets.dnd5e_tactics.state import (
    Body,
    Single,
    T5State,
    Unit,
    feet,
)
from warhost.rulesets.dnd5e_tactics.tables import (
    STANCE_ATTACKERS,
    TRACKS,
    clamp_attack_roll,
    divisor,
    successes,
    track_cell,
)
from warhost.rulesets.dnd5e_tactics.turns import dims, rect_coords


@functools.lru_cache(maxsize=4096)
def expected_hits(eligible: int, needed: int) -> float:
    """Mean hits of one unit attack resolution over the d6 (T5-ATTACK-06..08)."""
    row = clamp_attack_roll(needed)
    return sum(successes(eligible, divisor(row, d6)) for d6 in range(1, 7)) / 6.0


def hit_chance(needed: int) -> float:
    """Chance a single d20 attack roll hits (a natural 1 misses, a 20 hits)."""
    return min(19, max(1, 21 - needed)) / 20.0


def routine(stats: StatBlock, kind: str) -> list[AttackSpec]:
    """The attacks of one Attack action of that kind (ranged: one attack)."""
    own = [a for a in stats.attacks if a.kind == kind]
    if not own:
        return []
    if kind == "melee" and stats.multiattack:
        by_name = {a.name: a for a in own}
        return [by_name[n] for n in stats.multiattack if n in by_name] or own[:1]
    return [max(own, key=lambda a: a.bonus + DamageDice.parse(a.damage).maximum)]


def target_ac(target: Body, ranged: bool) -> int:
    """The AC one attacker needs to beat (cover from terrain is left out of the estimate)."""
    if isinstance(target, Unit):
        return target.member_ac_base
    return target.stats.ac + (2 if ranged else 0)


def unit_damage(attacker: Unit, target: Body, kind: str, *, track: str | None = None,
                rank: int | None = None, stance: str | None = None,
                extra_needed: int = 0) -> float:
    """Expected damage of the unit's Attack action of ``kind`` on ``target``."""
    cell = track_cell(track or attacker.track, attacker.rank if rank is None else rank)
    eligible = min(STANCE_ATTACKERS[stance or attacker.stance], attacker.members)
    ranged = kind == "ranged"
    total = 0.0
    attacks = routine(attacker.member, kind)
    if attacker.member.mount is not None and attacker.member.mount.control == "independent":
        attacks = attacks + ([] if ranged else routine_of_mount(attacker))
    for attack in attacks:
        needed = target_ac(target, ranged) - (attack.bonus + cell.atk) + extra_needed
        if isinstance(target, Single):
            needed += 5 if ranged else -5
        per_hit = max(0, DamageDice.parse(attack.damage).maximum + cell.dmg)
        if isinstance(target, Single):
            per_hit = max(0, per_hit - target.stats.ac // 2)
        total += expected_hits(eligible, needed) * per_hit
    return total


def routine_of_mount(unit: Unit) -> list[AttackSpec]:
    """Melee attacks of independent mounts."""
    mount = unit.member.mount
    if mount is None:
        return []
    melee = [a for a in mount.attacks if a.kind == "melee"]
    if mount.multiattack:
        return [a for n in mount.multiattack for a in melee if a.name == n]
    return melee[:1]


def character_damage(stats: StatBlock, target_ac_value: int) -> float:
    """Expected maximum-damage output of one character's melee Attack action."""
    best = 0.0
    for kind in ("melee", "ranged"):
        value = sum(hit_chance(target_ac_value - a.bonus) * DamageDice.parse(a.damage).maximum
                    for a in routine(stats, kind))
        best = max(best, value)
    return best


def duel_edge(mine: StatBlock, my_hp: int, theirs: StatBlock, their_hp: int) -> float:
    """Rounds the enemy needs to drop mine over rounds I need to drop theirs (> 1: I win)."""
    my_rate = max(0.1, character_damage(mine, theirs.ac))
    their_rate = max(0.1, character_damage(theirs, mine.ac))
    return (my_hp / their_rate) / (their_hp / my_rate)


class _DamageBook:
    """:func:`unit_damage` of one attacker, worked out once per kind of target: the result
    depends on the target only through its AC and whether it is a Single Character."""

    def __init__(self, attacker: Unit) -> None:
        self.attacker = attacker
        self.known: dict[tuple[Any, ...], float] = {}

    def of(self, target: Body, kind: str, extra_needed: int = 0) -> float:
        """``unit_damage(attacker, target, kind, extra_needed=extra_needed)``."""
        single = target.stats.ac if isinstance(target, Single) else None
        key = (kind, extra_needed, target_ac(target, kind == "ranged"), single)
        value = self.known.get(key)
        if value is None:
            value = unit_damage(self.attacker, target, kind, extra_needed=extra_needed)
            self.known[key] = value
        return value


def skill_chance(stats: StatBlock, dc: int) -> float:
    """Chance of the commander's best encouragement check meeting ``dc`` (no auto results)."""
    best = max(stats.skills.values(), default=0)
    return min(20, max(0, 21 - (dc - best))) / 20.0


class TacticsAI(Commander):
    """The `ai` commander of `dnd5e-tactics`."""

    kind = "ai"

    def choose(self, decision: Decision, state: Any) -> Order:
        handler: Callable[[Decision, T5State], Order | None] | None = getattr(
            self, "_" + decision.kind, None)
        order = handler(decision, state) if handler is not None else None
        if order is None:
            order = decision.default if decision.default is not None else decision.options[0]
        return order

    # --- helpers ---------------------------------------------------------------------------

    @staticmethod
    def _pick(decision: Decision, kind: str, *args: object) -> Order | None:
        for option in decision.options:
            if option.kind == kind and (not args or option.args[: len(args)] == args):
                return option
        return None

    @staticmethod
    def _subject(decision: Decision, state: T5State) -> Body | None:
        return state.bodies.get(decision.subject) if decision.subject else None

    def _enemies(self, state: T5State) -> list[Body]:
        return state.active(state.enemy_of(self.side))

    @staticmethod
    def _is_shooter(unit: Unit) -> bool:
        ranged = routine(unit.member, "ranged")
        melee = routine(unit.member, "melee") + (routine_of_mount(unit) if unit.member.mount
                                                  else [])
        if not ranged:
            return False
        value_r = sum(DamageDice.parse(a.damage).maximum + a.bonus for a in ranged)
        value_m = sum(DamageDice.parse(a.damage).maximum + a.bonus for a in melee)
        return value_r >= 0.8 * value_m

    # --- setup and round steps -------------------------------------------------------------

    def _stance(self, decision: Decision, state: T5State) -> Order | None:
        unit = self._subject(decision, state)
        if not isinstance(unit, Unit):
            return None
        enemy_areas = any(isinstance(e, Unit) and e.commander.alive and e.commander.stats.areas
                          or isinstance(e, Unit) and e.member.areas
                          for e in self._enemies(state))
        # Open spreads the members out (fewer caught by an area) and lets 30 attack.
        spread = enemy_areas or unit.members >= 26
        return self._pick(decision, "stance", "open" if spread else "close")

    def _track(self, decision: Decision, state: T5State) -> Order | None:
        unit = self._subject(decision, state)
        if not isinstance(unit, Unit):
            return None
        return self._pick(decision, "track", self._best_track(unit, state, 0))

    def _best_track(self, unit: Unit, state: T5State, rank: int) -> str:
        enemies = [e for e in self._enemies(state)]
        if not enemies:
            return unit.track
        kind = "ranged" if self._is_shooter(unit) else "melee"

        def value(track: str) -> float:
            cell = track_cell(track, rank)
            dealt = sum(unit_damage(unit, e, kind, track=track, rank=rank) for e in enemies)
            # Each point of AC changes the damage taken by roughly a tenth; morale counts too.
            return dealt * (1 + 0.08 * cell.ac) * (1 + 0.03 * cell.morale)

        return max(TRACKS, key=value)

    def _tactics(self, decision: Decision, state: T5State) -> Order | None:
        return self._pick(decision, "advance")

    # --- commanders ------------------------------------------------------------------------

    def _callout(self, decision: Decision, state: T5State) -> Order | None:
        owner = self._subject(decision, state)
        if owner is None:
            return self._pick(decision, "none")
        mine = owner.commander if isinstance(owner, Unit) else owner.character
        best: tuple[float, Order] | None = None
        for option in decision.options:
            if option.kind != "callout":
                continue
            target = state.bodies.get(str(option.args[0]))
            if target is None:
                continue
            theirs = target.commander if isinstance(target, Unit) else target.character
            edge = duel_edge(mine.stats, mine.hp, theirs.stats, theirs.hp)
            if edge > 1.25 and (best is None or edge > best[0]):
                best = (edge, option)
        return best[1] if best else self._pick(decision, "none")

    def _duel(self, decision: Decision, state: T5State) -> Order | None:
        owner = self._subject(decision, state)
        caller = state.bodies.get(str(decision.info.get("caller", "")))
        if owner is None or caller is None:
            return self._pick(decision, "accept")
        mine = owner.commander if isinstance(owner, Unit) else owner.character
        theirs = caller.commander if isinstance(caller, Unit) else caller.character
        edge = duel_edge(mine.stats, mine.hp, theirs.stats, theirs.hp)
        return self._pick(decision, "accept" if edge >= 0.8 else "decline")

    def _commander_bonus(self, decision: Decision, state: T5State) -> Order | None:
        owner = self._subject(decision, state)
        cover = self._pick(decision, "cover")
        if cover is not None:
            return cover
        heal = self._heal_choice(decision, state)
        if heal is not None:
            return heal
        area = self._area_choice(decision, state)
        if area is not None:
            return area
        encourage = [o for o in decision.options if o.kind == "encourage"]
        if (encourage and isinstance(owner, Unit) and owner.rank < 3
                and skill_chance(owner.commander.stats, 15) >= 0.55):
            return self._best_skill(encourage, owner.commander.stats)
        return self._pick(decision, "none")

    @staticmethod
    def _best_skill(options: list[Order], stats: StatBlock) -> Order:
        skills: dict[str, int] = {str(k): v for k, v in stats.skills.items()}
        return max(options, key=lambda o: skills.get(str(o.args[0]), 0))

    def _heal_choice(self, decision: Decision, state: T5State) -> Order | None:
        for option in decision.options:
            if option.kind != "heal":
                continue
            target = state.bodies.get(str(option.args[1]))
            if isinstance(target, Unit) and target.tdr >= target.member_hp // 2:
                return option
            if isinstance(target, Single) and target.character.hp < target.stats.hp // 2:
                return option
        return None

    def _area_choice(self, decision: Decision, state: T5State) -> Order | None:
        best: tuple[float, Order] | None = None
        for option in decision.options:
            if option.kind != "area":
                continue
            target = state.bodies.get(str(option.args[1]))
            if target is None:
                continue
            weight = float(target.members) if isinstance(target, Unit) else 1.0
            if best is None or weight > best[0]:
                best = (weight, option)
        if best is None or best[0] < 6:
            return None
        return best[1]

    def _commander_action(self, decision: Decision, state: T5State) -> Order | None:
        owner = self._subject(decision, state)
        area = self._area_choice(decision, state)
        if area is not None:
            return area
        heal = self._heal_choice(decision, state)
        if heal is not None:
            return heal
        if owner is None:
            return None
        me = owner.commander if isinstance(owner, Unit) else owner.character
        attacks = [o for o in decision.options if o.kind == "attack"]

        def value(option: Order) -> float:
            attack = next((a for a in me.stats.attacks if a.name == option.args[0]), None)
            target = state.bodies.get(str(option.args[1]))
            if attack is None or target is None:
                return 0.0
            if isinstance(target, Unit) and me.duel == target.id:
                ac = target.commander.stats.ac
            else:
                ac = target_ac(target, attack.kind == "ranged")
            swings = sum(1 for a in routine(me.stats, attack.kind) if a.name == attack.name)
            return hit_chance(ac - attack.bonus) * DamageDice.parse(attack.damage).maximum * max(
                1, swings)

        if attacks:
            return max(attacks, key=value)
        encourage = [o for o in decision.options if o.kind == "encourage"]
        if encourage and isinstance(owner, Unit) and owner.rank < 3:
            return self._best_skill(encourage, owner.commander.stats)
        return self._pick(decision, "dodge") or self._pick(decision, "none")

    # --- units -----------------------------------------------------------------------------

    def _move(self, decision: Decision, state: T5State) -> Order | None:
        body = self._subject(decision, state)
        if body is None:
            return None
        enemies = self._enemies(state)
        if not enemies:
            return self._pick(decision, "hold")
        shooter = isinstance(body, Unit) and self._is_shooter(body)
        charges = [o for o in decision.options if o.kind == "charge"]
        if charges and not shooter and isinstance(body, Unit):
            return max(charges, key=lambda o: self._melee_value(body, state, str(o.args[0])))
        engaged = state.in_melee(body)
        if engaged and not shooter:
            return self._pick(decision, "hold")
        scored: list[tuple[float, int, Order]] = []
        scores = self._destination_scores(body, state, decision.options, shooter, engaged)
        for index, (option, score) in enumerate(zip(decision.options, scores)):
            if score is not None:
                scored.append((score, -index, option))
        if not scored:
            return None
        return max(scored)[2]

    def _melee_value(self, unit: Unit, state: T5State, target_id: str) -> float:
        target = state.bodies.get(target_id)
        return unit_damage(unit, target, "melee") if target is not None else 0.0

    def _shape_at(self, body: Body, point: tuple[float, float], facing: float) -> Any:
        if isinstance(body, Unit):
            return body.outline_at(point, facing)
        return formation_outline(1, 1, 0.5, point, facing)

    def _destination_scores(self, body: Body, state: T5State, options: Sequence[Order],
                            shooter: bool, engaged: bool) -> list[float | None]:
        """The score of each move option (None: not a move): expected damage it lets the
        body deal, less (for shooters) the melee damage enemies could bring on it, less the
        distance to the nearest enemy.

        Only the enemies near the moves are looked at (:meth:`Placement.near_box`, widening
        until every move's nearest enemy is among them); distances come from
        :func:`rect_gaps`, and every comparison or value they decide that is closer than its
        tolerance is settled with shapely's exact distance."""
        places: list[tuple[tuple[float, float], float] | None] = []
        for option in options:
            if option.kind == "hold":
                places.append((body.centre, body.facing))
            elif option.kind in ("move", "dash", "disengage"):
                point = parse_point(option.args[0])
                places.append((point, float(option.args[1]) if len(option.args) > 1
                               else body.facing))
            else:
                places.append(None)
        live = [(i, p) for i, p in enumerate(places) if p is not None]
        out: list[float | None] = [None] * len(options)
        if not live:
            return out
        width, depth = dims(body)
        mine = rect_coords(np.array([p[0] for _, p in live], dtype=np.float64),
                           [p[1] for _, p in live], width, depth)
        foes, gaps = self._near_foes(body, state, mine, shooter)
        if not foes:  # pragma: no cover - the caller checks there are enemies
            return out
        shapes: dict[int, Any] = {}
        exact: dict[tuple[int, int], float] = {}

        def true_gap(row: int, k: int) -> float:
            if (row, k) not in exact:
                if row not in shapes:
                    point, facing = live[row][1]
                    shapes[row] = self._shape_at(body, point, facing)
                count(GEOMETRY)
                exact[row, k] = gap(shapes[row], foes[k].footprint)
            return exact[row, k]

        def within(threshold: float) -> npt.NDArray[np.bool_]:
            """``gap <= threshold`` for every move and foe, exactly."""
            sure = gaps <= threshold - TOLERANCE
            for row, k in zip(*np.nonzero(np.abs(gaps - threshold) <= TOLERANCE)):
                sure[row, k] = true_gap(int(row), int(k)) <= threshold
            return sure

        is_unit = isinstance(body, Unit)
        values = np.zeros(gaps.shape)
        if is_unit:
            assert isinstance(body, Unit)
            damage = _DamageBook(body)
            in_reach = within(body.reach + 1e-9)
            melee = np.array([damage.of(foe, "melee") for foe in foes])
            values = np.where(in_reach, melee[None, :], 0.0)
            attacks = routine(body.member, "ranged")
            if attacks:
                attack = attacks[0]
                short = within(feet(attack.range))
                long = within(feet(attack.long_range or attack.range))
                near = np.array([damage.of(foe, "ranged") for foe in foes])
                far = np.array([damage.of(foe, "ranged", 5) for foe in foes])
                shot = np.where(short, near[None, :], np.where(long, far[None, :], 0.0))
                # Whether a foe is free of melee matters only where some move would shoot it.
                asked = np.any((short | long) & ~in_reach, axis=0)
                free = np.array([bool(asked[k]) and not state.in_melee(foe)
                                 for k, foe in enumerate(foes)])
                values = np.where(in_reach, values, np.where(free[None, :], shot, 0.0))
        best = np.maximum(values.max(axis=1), 0.0)
        threats: npt.NDArray[np.bool_] | None = None
        threat_values: list[float] = []
        if shooter:
            reaches = np.array([feet(f.speed) * 2 + f.reach if isinstance(f, Unit)
                                and routine(f.member, "melee") else -1.0 for f in foes])
            threats = gaps <= (reaches - TOLERANCE)[None, :]
            for row, k in zip(*np.nonzero(np.abs(gaps - reaches[None, :]) <= TOLERANCE)):
                if reaches[k] >= 0:
                    threats[row, k] = true_gap(int(row), int(k)) <= reaches[k]
            threat_values = [unit_damage(f, body, "melee") if isinstance(f, Unit)
                             and reaches[k] >= 0 else 0.0 for k, f in enumerate(foes)]
        # Each move's nearest enemy: the exact distances of the few closest, in one call.
        rows, ks = np.nonzero(gaps <= gaps.min(axis=1, keepdims=True) + 2 * TOLERANCE)
        wanted = [(int(r), int(k)) for r, k in zip(rows, ks) if (int(r), int(k)) not in exact]
        if wanted:
            missing = sorted({r for r, _ in wanted} - set(shapes))
            if all(live[r][1][1] % 360.0 < 360.0 for r in missing):
                # The corners rect_coords gives are those formation draws (same arithmetic),
                # so these are the same polygons as _shape_at's, made in one call.
                shapes.update(zip(missing, shapely.polygons(mine[missing])))
            for row in missing:
                if row not in shapes:
                    point, facing = live[row][1]
                    shapes[row] = self._shape_at(body, point, facing)
            count(GEOMETRY, len(wanted))
            found = shapely.distance([shapes[r] for r, _ in wanted],
                                     [foes[k].footprint for _, k in wanted])
            exact.update(zip(wanted, (float(g) for g in found)))
        closest: dict[int, float] = {}
        for r, k in zip(rows, ks):
            value = exact[int(r), int(k)]
            closest[int(r)] = min(closest.get(int(r), value), value)
        for row, (index, _) in enumerate(live):
            nearest = closest[row]
            acts = options[index].kind in ("hold", "move")  # Dash and Disengage spend the action
            attack_value = float(best[row]) if acts and is_unit else 0.0
            if shooter:
                assert threats is not None
                threat = 0.0
                for k in np.nonzero(threats[row])[0]:
                    threat += threat_values[int(k)]
                bonus = 8.0 if engaged and options[index].kind == "disengage" else 0.0
                out[index] = attack_value - 0.6 * threat + bonus - 0.01 * nearest
            else:
                # A melee body closes in, and prefers a move after which it can still attack.
                out[index] = attack_value - 3.0 * nearest
        return out

    def _near_foes(self, body: Body, state: T5State, mine: npt.NDArray[np.float64],
                   shooter: bool) -> tuple[list[Body], npt.NDArray[np.float64]]:
        """The enemies that can matter to moves whose footprint corners are ``mine``, in turn
        order, and the distances of each move to each of them (:func:`rect_gaps`): every enemy
        within the longest distance a score compares with, and each move's nearest."""
        index = state.placement
        side = state.enemy_of(self.side)
        lo, hi = mine.min(axis=(0, 1)), mine.max(axis=(0, 1))
        box = (float(lo[0]), float(lo[1]), float(hi[0]), float(hi[1]))
        limit = body.reach
        if isinstance(body, Unit):
            attacks = routine(body.member, "ranged")
            if attacks:
                limit = max(limit, feet(attacks[0].long_range or attacks[0].range))
        if shooter:
            limit = max(limit, index.charge_reach)
        radius = max(limit + 1.0, CELL)
        widest = math.hypot(state.board.width, state.board.height) + CELL
        while True:
            foes = index.near_box(box, radius, side) if radius < widest \
                else state.active(side)
            if foes:
                theirs = np.array([index.corners(f) for f in foes])
                gaps = rect_gaps(mine, theirs)
                if radius >= widest or float(gaps.min(axis=1).max()) <= radius:
                    return foes, gaps
            elif radius >= widest:
                return [], np.zeros((len(mine), 0))
            radius *= 2

    def _unit_bonus(self, decision: Decision, state: T5State) -> Order | None:
        return self._pick(decision, "cover") or self._pick(decision, "none")

    def _unit_action(self, decision: Decision, state: T5State) -> Order | None:
        unit = self._subject(decision, state)
        if not isinstance(unit, Unit):
            return self._commander_action(decision, state)
        area = self._area_choice(decision, state)
        best: tuple[float, Order] | None = None
        for option in decision.options:
            if option.kind != "attack":
                continue
            target = state.bodies.get(str(option.args[1]))
            if target is None:
                continue
            value = unit_damage(unit, target, str(option.args[0]))
            if best is None or value > best[0]:
                best = (value, option)
        if area is not None and (best is None or best[0] < 30):
            return area
        if best is not None:
            return best[1]
        return self._pick(decision, "dodge") if state.in_melee(unit) else self._pick(
            decision, "none")

    def _mount(self, decision: Decision, state: T5State) -> Order | None:
        body = self._subject(decision, state)
        if body is not None and state.in_melee(body):
            return self._pick(decision, "dodge") or self._pick(decision, "none")
        return self._pick(decision, "dash") or self._pick(decision, "none")

    def _reaction(self, decision: Decision, state: T5State) -> Order | None:
        return next((o for o in decision.options if o.kind == "opportunity"), None)

    def _flee_attack(self, decision: Decision, state: T5State) -> Order | None:
        return next((o for o in decision.options if o.kind == "attack"), None)

    def _remainder(self, decision: Decision, state: T5State) -> Order | None:
        unit = self._subject(decision, state)
        if isinstance(unit, Unit) and unit.commander.alive and unit.commander.hp <= 14:
            return self._pick(decision, "commander")
        return self._pick(decision, "casualty")

    def _rally(self, decision: Decision, state: T5State) -> Order | None:
        return self._pick(decision, "attempt")

    def _follow_through(self, decision: Decision, state: T5State) -> Order | None:
        return self._pick(decision, "stay")

    def _engage(self, decision: Decision, state: T5State) -> Order | None:
        body = self._subject(decision, state)
        if isinstance(body, Unit) and self._is_shooter(body):
            return self._pick(decision, "none")
        return next((o for o in decision.options if o.kind == "engage"), None)

