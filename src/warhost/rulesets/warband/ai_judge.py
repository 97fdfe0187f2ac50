"""What the `warband` AI knows about odds: expected wounds of an attack, how much a target is
worth, and the field "how far is the nearest enemy" it builds once per phase.

Every chance is worked out with the rules' own pieces: the modifiers come from
:func:`attacks.hit_mods`, :func:`attacks.damage_mods` and :func:`attacks.defense_mods`, the
targets from :func:`checks.target_of`, and the chance of passing from the core's
:func:`warhost.core.checks.chance_under`.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from functools import lru_cache

from warhost.core import metering
from warhost.core.checks import chance_under
from warhost.core.metering import GEOMETRY
from warhost.geometry.grid import DIRECTIONS8, Square, arc_of
from warhost.rulesets.warband.attacks import (
    AttackProfile,
    Circumstances,
    damage_mods,
    defense_mods,
    effective_armour,
    hit_mods,
    is_overkill,
)
from warhost.rulesets.warband.checks import Mod, target_of, worst_of_two
from warhost.rulesets.warband.state import (
    KNOCKED_DOWN,
    STUNNED,
    Character,
    WarbandState,
)

FAR = 10**6
"""Distance of a square no enemy can be measured from."""


@lru_cache(maxsize=512)
def _chance(target: int, zero: bool, worst: bool, ten_fails: bool) -> float:
    return float(chance_under(target, score_is_zero=zero, worst_of_two=worst,
                              natural_ten_fails=ten_fails))


def pass_chance(state: WarbandState, char: Character, score: str, mods: Sequence[Mod] = (),
                *, base: int | None = None, ward: bool = False) -> float:
    """The chance that ``char`` passes a test of ``score`` (or ``base``) with ``mods``."""
    value = char.score(score) if base is None else base
    target = target_of(char, score, mods, base, ward)
    return _chance(target, value <= 0, worst_of_two(char, score),
                   state.options.natural_ten_always_fails)


def expected_wounds(state: WarbandState, attacker: Character, target: Character,
                    profile: AttackProfile, circ: Circumstances) -> float:
    """Expected confirmed wounds of one attack (to-hit, damage, Defense, Ward), as
    :func:`attacks.resolve_attack` would roll it, leaving out Critical extras."""
    auto_wound = False
    if profile.auto_hit:
        hit = 1.0
    elif circ.mode == "melee" and circ.target_condition in (KNOCKED_DOWN, STUNNED):
        hit = 1.0
        auto_wound = circ.target_condition == STUNNED
    else:
        mods = hit_mods(attacker, target, circ, state.options.superior_skill_max_penalty)
        hit = pass_chance(state, attacker, profile.skill, mods)
    if hit == 0.0:
        return 0.0
    wound = 1.0 if auto_wound else pass_chance(
        state, attacker, "strength", damage_mods(circ), base=profile.strength)
    if is_overkill(profile.strength, target):
        saved = 0.0
    else:
        base = target.score("toughness") + effective_armour(target, profile.penetration)
        saved = pass_chance(state, target, "toughness", defense_mods(circ), base=base)
    warded = pass_chance(state, target, "ward", [], ward=True)
    return hit * wound * (1.0 - saved) * (1.0 - warded)


def worth(target: Character) -> float:
    """How much taking ``target`` out is worth: Captains and Heroes more, and more for what it
    can do in a fight."""
    value = 1.0 + 0.3 * target.score("attacks")
    if target.kind == "hero":
        value += 0.4
    if target.captain:
        value += 0.8
    if target.is_mage:
        value += 0.4
    return value


def kill_value(target: Character, wounds: float) -> float:
    """What ``wounds`` expected confirmed wounds on ``target`` are worth: wounds on a target
    with few left count for more, so fire and blows focus on the hurt."""
    return worth(target) * wounds / (target.wounds + 1)


def melee_circ(state: WarbandState, attacker: Character, at: Square, target: Character, *,
               charging: bool = False) -> Circumstances:
    """The circumstances of a melee attack ``attacker`` would make from ``at`` (it may not
    stand there yet): the same flags :func:`combat.melee_circumstances` reads off the map."""
    assert target.square is not None
    return Circumstances(
        mode="melee",
        charging=charging and not target.braced,
        high_ground=state.level(at) > state.level(target.square),
        attacker_lying=attacker.lying,
        target_lying=target.lying,
        target_condition=target.condition,
        flanking=arc_of(target.square, target.facing, at) == "rear",
    )


class EnemyField:
    """For one side: the Chebyshev distance from every square to the nearest enemy and that
    enemy's square, from one breadth-first search over the map (built once per phase)."""

    def __init__(self, state: WarbandState, side: str) -> None:
        grid = state.grid
        self.width = width = grid.width
        height = grid.height
        self.dist = [FAR] * (width * height)
        self.source: list[Square | None] = [None] * (width * height)
        self.levels = [grid.level((x, y)) for y in range(height) for x in range(width)]
        queue: deque[Square] = deque()
        for sq, cid in state.at.items():
            other = state.chars[cid]
            if other.side != side and other.active:
                i = sq[1] * width + sq[0]
                self.dist[i] = 0
                self.source[i] = sq
                queue.append(sq)
        while queue:
            sq = queue.popleft()
            i = sq[1] * width + sq[0]
            d = self.dist[i] + 1
            for dx, dy in DIRECTIONS8:
                x, y = sq[0] + dx, sq[1] + dy
                if 0 <= x < width and 0 <= y < height:
                    j = y * width + x
                    if self.dist[j] > d:
                        self.dist[j] = d
                        self.source[j] = self.source[i]
                        queue.append((x, y))
        metering.count(GEOMETRY, 2 * width * height)

    def distance(self, sq: Square) -> int:
        """Squares to the nearest enemy (as it stood when the field was built)."""
        return self.dist[sq[1] * self.width + sq[0]]

    def level(self, sq: Square) -> int:
        """Elevation of a square (read once per phase: the map does not change)."""
        return self.levels[sq[1] * self.width + sq[0]]

    def nearest(self, sq: Square) -> Square | None:
        """The square of the nearest enemy."""
        return self.source[sq[1] * self.width + sq[0]]
