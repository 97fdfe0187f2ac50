"""Units that arrive late (W35-PLACE-08, W35-AMB-95) and what the armies recover after the
battle (W35-RECOV-01..08, W35-AMB-60, W35-AMB-99)."""

from __future__ import annotations

from warhost.core.battle import Battle
from warhost.geometry.grid import Square, facing_step, translate
from warhost.rulesets.dnd35_wars import recovery, tables
from warhost.rulesets.dnd35_wars.setup import INWARD, roll_initiative
from warhost.rulesets.dnd35_wars.state import (
    FLED,
    ROUTED,
    SCATTERED,
    VANQUISHED,
    Single,
    Unit,
    WarState,
)

HEAL_RANKS = 4
"""W35-RECOV-06: ranks of Heal a character needs to help."""

WITHDRAWN = (ROUTED, FLED, SCATTERED)
"""Statuses that cost a unit 20% of its recovery (W35-RECOV-07, W35-AMB-60)."""


def reinforcements(state: WarState, battle: Battle) -> None:
    """At the start of a round, put each unit due by now on its entry edge (a block touching
    the edge on free squares, as near as possible to where the scenario wanted it; with no
    room it waits a round) and roll its initiative, so it acts this round (W35-AMB-95)."""
    arrived: list[str] = []
    for uid, (wanted, placed) in list(state.arrivals.items()):
        unit = state.units[uid]
        if unit.enters_round is None or unit.enters_round > state.round:
            continue
        edge = unit.enters_edge or "south"
        squares = entry_squares(state, wanted, edge, centred=not placed, side=unit.side)
        if squares is None:
            unit.enters_round = state.round + 1  # still to come: the side is not yet beaten
            battle.emit("reinforcement_delayed", unit=uid, edge=edge)
            continue
        del state.arrivals[uid]
        if not placed:
            unit.heading = facing_step(INWARD[edge])
        state.place(unit, set(squares))
        battle.emit("reinforcement", unit=uid, edge=edge, counters=len(squares))
        arrived.append(uid)
    if arrived:
        roll_initiative(state, battle, arrived)


def _to_edge(squares: list[Square], edge: str, width: int, height: int) -> list[Square]:
    """``squares`` moved straight across so that they touch ``edge``."""
    xs = [x for x, _ in squares]
    ys = [y for _, y in squares]
    dx = dy = 0
    if edge == "south":
        dy = -min(ys)
    elif edge == "north":
        dy = height - 1 - max(ys)
    elif edge == "west":
        dx = -min(xs)
    else:
        dx = width - 1 - max(xs)
    return sorted(translate(squares, dx, dy))


def entry_squares(state: WarState, wanted: list[Square], edge: str, centred: bool,
                  side: str | None = None) -> list[Square] | None:
    """Free squares on the map for ``wanted`` touching ``edge``: slid along the edge by the
    smallest shift that fits (from the middle of the edge when ``centred``), or None. With
    ``side``, never on an intact wall or gate the other side holds (W35-AMB-45)."""
    shape = _to_edge(wanted, edge, state.width, state.height)
    along_x = edge in ("north", "south")
    length = state.width if along_x else state.height
    if centred:
        coords = [sq[0] if along_x else sq[1] for sq in shape]
        mid = length // 2 - (min(coords) + max(coords)) // 2
        shape = sorted(translate(shape, mid, 0) if along_x else translate(shape, 0, mid))
    for k in range(length + 1):
        for shift in ((k, -k) if k else (0,)):
            moved = translate(shape, shift, 0) if along_x else translate(shape, 0, shift)
            if all(state.inside(sq) and sq not in state.at and not _walled(state, side, sq)
                   for sq in moved):
                return sorted(moved)
    return None


def _walled(state: WarState, side: str | None, sq: Square) -> bool:
    """An intact wall or gate of the other side stands on ``sq`` (W35-AMB-45)."""
    return side is not None and sq in state.barrier_at and state.barred(side, sq)


def _present(state: WarState, unit: Unit) -> list[Single]:
    """The living characters who help the unit recover: those embedded in it, or with the
    `army` scope every living singular creature of its side (W35-AMB-60)."""
    if state.options.recovery_healer_scope == "army":
        return [s for s in state.singles.values() if s.side == unit.side and s.alive]
    return [s for s in state.singles.values() if s.host == unit.id and s.alive]


def recovery_for(state: WarState, unit: Unit) -> int:
    """The percentage of its lost HP ``unit`` recovers (table W35-RECOV-08, W35-AMB-60/99):
    ranged-only battles 50% for all; otherwise winners 50%, losers 25% (a drawn battle: both
    lose); cleric and Heal bonuses; -20% for a unit that routed, fled or scattered."""
    present = _present(state, unit)
    return recovery.recovery_percent(
        ranged_only=not state.melee_happened,
        won=state.winner is not None and state.winner == unit.side,
        cleric_levels=[s.creature.cleric_level for s in present if s.creature.cleric_level],
        healers=sum(1 for s in present if s.creature.heal_ranks >= HEAL_RANKS),
        withdrew=unit.status in WITHDRAWN,
    )


def after_battle(state: WarState, battle: Battle) -> None:
    """Every unit that lost HP, vanquished, fled and scattered ones included, gets back its
    share of them (W35-RECOV-01..08, W35-AMB-60); one `recovery` event a unit."""
    for unit in state.units.values():
        if unit.id in state.arrivals:
            continue  # never came
        end_hp = 0 if unit.status == VANQUISHED else max(0, unit.hp)
        lost = unit.start_hp - end_hp
        if lost <= 0:
            continue
        percent = recovery_for(state, unit)
        back = recovery.recovered_hp(lost, percent)
        hp = min(unit.start_hp, end_hp + back)
        state.recovered[unit.id] = hp
        battle.emit("recovery", unit=unit.id, lost=lost, percent=percent, recovered=back,
                    hp=hp, counters=tables.counters_left(hp, unit.counter_hp))
