"""The `dnd35-wars` AI's war machines: where towers and rams go, what a breach is worth.

A besieger wants a way in: the wall sections its enemy holds block its units until breached
(W35-AMB-45). So structure HP count toward a breach: the gate, and otherwise the section with
the least HP left, are worth most (a section's HP count by how near it is to the weakest one's).
A ram heads for the gate (else the weakest section) and strikes once beside it; a siege tower
heads for the nearest free square beside a wall the enemy holds, then lowers its bridge. Of
equal moves, the one out of the enemy's missile reach wins (cover). A siege weapon with
something to shoot at stays where it is (moving spoils its loading and firing, W35-SWU-08).

Cost: one pass over the sections, and over the nearby enemy shooters, per decision.
"""

from __future__ import annotations

from warhost.geometry.grid import DIRECTIONS4, Square
from warhost.rulesets.dnd35_wars import combat, tables
from warhost.rulesets.dnd35_wars.ai_judge import Box, box_gap
from warhost.rulesets.dnd35_wars.state import Unit, WarState

GATE_WORTH = 1.5
"""A gate's HP count this much more than the weakest wall's: breached, it opens the way
where the defenders mean to pass."""
MACHINE_APPROACH = 6.0
"""HP-equivalent worth of each square a tower or ram comes nearer its goal (its work is to
get there; a tower crawls half a square a round)."""
COVER = 0.5
"""Cost of standing in reach of each enemy shooter (decides between equal moves)."""
SIEGE_MOVE = -20.0
"""A siege weapon that has a target where it stands loses this much by moving."""


def breach_sections(state: WarState, side: str) -> list[str]:
    """The intact wall and gate sections ``side``'s enemy holds."""
    return [sid for sid, holder in state.barrier_holder.items()
            if holder is not None and holder != side and state.structure_hp.get(sid, 0) > 0]


def breach_weight(state: WarState, side: str, sid: str) -> float:
    """How much each HP taken from section ``sid`` is worth to ``side``: a section the enemy
    holds counts by the weakest such section's HP over its own (a gate more); any other
    structure (a keep, an open ruin) little."""
    sections = breach_sections(state, side)
    if sid not in sections:
        return 0.1
    weakest = min(state.structure_hp[s] for s in sections)
    weight = weakest / max(1, state.structure_hp[sid])
    return weight * (GATE_WORTH if sid in state.gates else 1.0)


def ram_goal(state: WarState, side: str) -> str | None:
    """The section a ram should strike: the enemy's gate with the least HP left, else its
    weakest wall section (None: nothing left to breach)."""
    sections = breach_sections(state, side)
    if not sections:
        return None
    gates = [s for s in sections if s in state.gates]
    return min(gates or sections, key=lambda s: (state.structure_hp[s], s))


def _beside(state: WarState, squares: frozenset[Square] | set[Square]) -> set[Square]:
    """The squares sharing a side with ``squares`` that are not wall squares themselves."""
    out = set()
    for x, y in squares:
        for dx, dy in DIRECTIONS4:
            sq = (x + dx, y + dy)
            if sq not in state.barrier_at and state.inside(sq):
                out.add(sq)
    return out


def goal_squares(state: WarState, unit: Unit) -> set[Square]:
    """Where a ram or tower unit wants to stand: beside its ram goal, or (a tower) beside any
    wall square its enemy holds; empty for any other unit or when nothing is left."""
    if unit.machine == "ram":
        sid = ram_goal(state, unit.side)
        return _beside(state, state.structures[sid].squares) if sid is not None else set()
    if unit.machine == "tower" and unit.closed_tower:
        walls: set[Square] = set()
        for sid in breach_sections(state, unit.side):
            walls |= state.structures[sid].squares
        return _beside(state, walls)
    return set()


def goal_gap(where: Box, goals: set[Square]) -> int:
    """Squares from the box ``where`` to the nearest goal square (0: on one)."""
    return min((box_gap(where, (x, y, x, y)) for x, y in goals), default=0)


def shooters_reaching(state: WarState, foes: list[Unit], boxes: dict[str, Box],
                      where: Box) -> int:
    """How many of ``foes`` could shoot at a unit standing on ``where``."""
    count = 0
    for foe in foes:
        attack = foe.ranged
        if attack is None or not foe.can_fight:
            continue
        increment = combat.range_increment(foe)
        if increment is None:
            continue
        feet = tables.distance_feet(max(1, box_gap(where, boxes[foe.id])), state.scale)
        if tables.in_range(feet, increment, attack.thrown):
            count += 1
    return count


def machine_position(state: WarState, unit: Unit, goals: set[Square], foes: list[Unit],
                     boxes: dict[str, Box], where: Box) -> float:
    """What standing on ``where`` is worth to a ram or tower unit: nearer its goal, out of
    the enemy's missiles."""
    return (-MACHINE_APPROACH * goal_gap(where, goals)
            - COVER * shooters_reaching(state, foes, boxes, where))
