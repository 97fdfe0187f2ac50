"""Building a `warband` battle: the map, the characters, deployment and initiative
(WB-DEPLOY, WB-INIT)."""

from __future__ import annotations

from collections.abc import Collection

from warhost.core import metering
from warhost.core.battle import Battle
from warhost.core.metering import GEOMETRY, OPTIONS
from warhost.core.orders import Order
from warhost.geometry.grid import Grid, Square
from warhost.rulesets.warband.model import CharacterSpec, WarbandScenario, Zone
from warhost.rulesets.warband.state import FACING_ORDER, SCORES, Character, WarbandState


def build_grid(scenario: WarbandScenario) -> tuple[Grid, frozenset[Square], frozenset[Square],
                                                  dict[Square, tuple[str, int]]]:
    """The grid with terrain and elevation, the cover and edge squares, and climb surfaces."""
    m = scenario.map
    grid = Grid(m.width, m.height)
    cover: set[Square] = set()
    edges: set[Square] = set()
    climbs: dict[Square, tuple[str, int]] = {}
    for f in m.features:
        (x0, y0), (x1, y1) = f.origin, f.to or f.origin
        for y in range(min(y0, y1), max(y0, y1) + 1):
            for x in range(min(x0, x1), max(x0, x1) + 1):
                sq = (x, y)
                level = grid.level(sq) if f.elevation is None else f.elevation
                grid.set_terrain(sq, f.terrain, level)
                if f.cover:
                    cover.add(sq)
                if f.edge:
                    edges.add(sq)
                if f.climb is not None:
                    climbs[sq] = (f.climb, f.climb_modifier)
    return grid, frozenset(cover), frozenset(edges), climbs


def make_character(spec: CharacterSpec, side: str, spells: dict[str, object]) -> Character:
    """A character at full Wounds from its scenario entry."""
    stats = spec.stats
    base = {name: int(getattr(stats, name)) for name in SCORES}
    for circuit in spec.circuits:  # always on, no action, no test (WB-MAGIC-03)
        for name, by in circuit.scores.items():
            base[name] = max(0, base[name] + by)
    char = Character(
        id=spec.id, side=side, name=spec.name or spec.id, kind=spec.kind,
        captain=spec.captain, base=base, weapons=list(spec.weapons),
        armour=list(spec.armour), items=list(spec.items), talents=frozenset(spec.talents),
        traits=frozenset(spec.traits),
        spells=[spells[name] for name in spec.spells],  # type: ignore[misc]
        fate=stats.fate, facing=spec.facing or "N",
        circuits=tuple(c.name for c in spec.circuits),
    )
    char.wounds = char.max_wounds
    if spec.lasting is not None:  # campaign effects (WB-AMB-50)
        char.worse_resolve = spec.lasting.worse_resolve
        char.resolve_dos_cut = spec.lasting.resolve_dos_cut
        char.worse_agility = spec.lasting.worse_agility
        if spec.lasting.start_wounds_zero:
            char.wounds = 0  # Major Wound (WB-SEVERE-04)
    char.uses = {item.name: item.uses for item in spec.items}
    return char


def zone_squares(zone: Zone) -> list[Square]:
    """Every square of a zone."""
    (x0, y0), (x1, y1) = zone.origin, zone.to
    return [(x, y) for y in range(min(y0, y1), max(y0, y1) + 1)
            for x in range(min(x0, x1), max(x0, x1) + 1)]


def new_state(scenario: WarbandScenario, battle: Battle) -> WarbandState:
    """The battle after deployment and initiative."""
    state = initial_state(scenario)
    battle.state = state
    deploy(state, battle)
    roll_initiative(state, battle)
    return state


def initial_state(scenario: WarbandScenario) -> WarbandState:
    """The map and the characters at full Wounds, none placed yet (no dice, no decisions)."""
    grid, cover, edges, climbs = build_grid(scenario)
    spells = {s.name: s for s in scenario.spells}
    chars: dict[str, Character] = {}
    for side in scenario.sides:
        for spec in side.characters:
            chars[spec.id] = make_character(spec, side.name, spells)  # type: ignore[arg-type]
    state = WarbandState(
        scenario=scenario, options=scenario.options, grid=grid,
        sides=[s.name for s in scenario.sides], chars=chars, cover=cover, edges=edges,
        climbs=climbs, spells=spells, advantage=scenario.advantage,
    )
    state.heroes_at_start = {
        s: sum(1 for c in chars.values() if c.side == s and c.kind == "hero")
        for s in state.sides
    }
    return state


def deploy_order(state: WarbandState) -> list[str]:
    """Sides in the order they deploy: under Advantage the others first (WB-DEPLOY-04)."""
    if state.advantage is None:
        return list(state.sides)
    return [s for s in state.sides if s != state.advantage] + [state.advantage]


def deploy_groups(state: WarbandState) -> list[list[str]]:
    """Sides that submit their placements blind, together, one group after the other: all
    sides at once, or under Advantage the others first and the advantaged side after the
    reveal (WB-DEPLOY-02, WB-DEPLOY-04, WB-AMB-07)."""
    if state.advantage is None:
        return [list(state.sides)]
    return [[s for s in state.sides if s != state.advantage], [state.advantage]]


def deploy_squares(state: WarbandState, side: str,
                   own: Collection[Square] = ()) -> list[Square]:
    """Where ``side`` may place a character now (WB-DEPLOY-05/06, WB-AMB-07).

    Only placements already revealed (``state.at``) and the side's own earlier choices
    (``own``) are excluded, so the answer never depends on another side's secret choices."""
    spec = next(s for s in state.scenario.sides if s.name == side)
    free = [sq for sq in _side_area(state, side, spec.zone) if sq not in state.at
            and sq not in own and state.passable(sq)]
    if side == state.advantage:
        enemy_at = {sq for sq, cid in state.at.items() if state.chars[cid].side != side}
        free = [sq for sq in free if not _near(enemy_at, sq)]
    metering.count(OPTIONS, len(free))
    return free


def _near(squares: set[Square], sq: Square) -> list[Square]:
    x, y = sq
    return [(x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)
            if (x + dx, y + dy) in squares]


def _side_area(state: WarbandState, side: str, zone: Zone | None) -> list[Square]:
    """The squares a side may deploy on before the rule on enemies is applied: its zone (the
    whole map without one), or under Advantage every square within
    ``advantage_deploy_distance`` of a disadvantaged side's zone, the zone included."""
    if side != state.advantage:
        if zone is None:
            return list(state.grid.squares())
        return zone_squares(zone)
    reach = state.options.advantage_deploy_distance
    zones = [s.zone for s in state.scenario.sides if s.name != side and s.zone is not None]
    if not zones:
        return list(state.grid.squares())
    out = [sq for sq in state.grid.squares()
           if min(zone_distance(z, sq) for z in zones) <= reach]
    metering.count(GEOMETRY, state.grid.width * state.grid.height * len(zones))
    return out


def zone_distance(zone: Zone, sq: Square) -> int:
    """Chebyshev distance from ``sq`` to the nearest square of a (rectangular) zone."""
    (x0, y0), (x1, y1) = zone.origin, zone.to
    x, y = sq
    dx = max(min(x0, x1) - x, 0, x - max(x0, x1))
    dy = max(min(y0, y1) - y, 0, y - max(y0, y1))
    return max(dx, dy)


def deploy(state: WarbandState, battle: Battle) -> None:
    """Place every character (WB-DEPLOY-01 to 06). Scenario squares come first. Then each
    group of sides (:func:`deploy_groups`) chooses blind: a side is offered squares that
    do not depend on the other sides' unrevealed choices, and nothing is placed until the
    whole group has chosen (WB-AMB-07). A square chosen by two sides goes to the side listed
    first; the other re-places that character after the reveal (docs/rulings/warband.md, T2)."""
    specs = _specs(state)
    for char in state.chars.values():
        spec_at = specs[char.id].at
        if spec_at is not None:
            state.place(char, (spec_at[0], spec_at[1]))
    for group in deploy_groups(state):
        chosen = {side: _choose_side(state, battle, side, specs) for side in group}
        for side in group:
            mine = {sq for _, sq in chosen[side]}
            for char, sq in chosen[side]:
                if sq in state.at:
                    battle.emit("deploy_clash", who=char.id, side=side, at=list(sq),
                                taken_by=state.at[sq])
                    sq = _ask_square(state, battle, char, mine)
                    mine.add(sq)
                state.place(char, sq)
        for side in group:
            for char in state.side_chars(side):
                assert char.square is not None
                battle.emit("deploy", who=char.id, side=side, at=list(char.square),
                            facing=char.facing)


def _choose_side(state: WarbandState, battle: Battle, side: str,
                 specs: dict[str, CharacterSpec]) -> list[tuple[Character, Square]]:
    """One side's secret placements and facings (WB-ASK-02, WB-DEPLOY-03); nothing placed."""
    chosen: list[tuple[Character, Square]] = []
    own: set[Square] = set()
    for char in state.side_chars(side):
        spec = specs[char.id]
        if spec.at is None:
            sq = _ask_square(state, battle, char, own)
            own.add(sq)
            chosen.append((char, sq))
        if spec.facing is None:
            order = battle.ask(side, "facing",
                               tuple(Order.of("face", f) for f in FACING_ORDER),
                               f"Which way does {char.label} face?", char.id)
            char.facing = str(order.args[0])
    return chosen


def _ask_square(state: WarbandState, battle: Battle, char: Character,
                own: Collection[Square]) -> Square:
    squares = deploy_squares(state, char.side, own)
    if not squares:
        raise ValueError(f"no square left for {char.id} to deploy on (WB-DEPLOY-01)")

    def make(i: int) -> Order:
        return Order.of("deploy", squares[i][0], squares[i][1])

    def locate(o: Order) -> int | None:
        return _locate_square(squares, o)

    order = battle.ask_lazy(char.side, "deploy", len(squares), make,
                            f"Where does {char.label} start?", char.id, locate=locate)
    return (int(order.args[0]), int(order.args[1]))


def _locate_square(squares: list[Square], order: Order) -> int | None:
    if len(order.args) != 2:
        return None
    try:
        return squares.index((int(order.args[0]), int(order.args[1])))
    except (ValueError, TypeError):
        return None


def _specs(state: WarbandState) -> dict[str, CharacterSpec]:
    """Each character's scenario entry by id."""
    return {spec.id: spec for side in state.scenario.sides for spec in side.characters}


def roll_initiative(state: WarbandState, battle: Battle) -> None:
    """1d10 + Agility each, Advantage keeps the better of two, ties by Agility then roll-offs
    (WB-INIT-01 to 05)."""
    for char in state.chars.values():
        if char.square is None:
            continue
        two = char.side == state.advantage
        faces = battle.dice.pool(2 if two else 1, 10, f"initiative ({char.id})", who=char.id)
        char.initiative = max(faces) + char.score("agility")
    groups: dict[tuple[int, int], list[Character]] = {}
    for char in state.chars.values():
        if char.square is not None:
            groups.setdefault((char.initiative, char.score("agility")), []).append(char)
    order: list[str] = []
    for key in sorted(groups, reverse=True):
        order.extend(c.id for c in roll_off(battle, groups[key]))
    state.order = order
    battle.emit("initiative", order=order,
                scores={cid: state.chars[cid].initiative for cid in order})


def roll_off(battle: Battle, tied: list[Character]) -> list[Character]:
    """Order tied characters by repeated roll-offs (higher first; WB-INIT-05)."""
    if len(tied) <= 1:
        return tied
    faces = battle.dice.pool(len(tied), 10, "initiative roll-off", who=[c.id for c in tied])
    by_face: dict[int, list[Character]] = {}
    for char, face in zip(tied, faces):
        by_face.setdefault(face, []).append(char)
    out: list[Character] = []
    for face in sorted(by_face, reverse=True):
        out.extend(roll_off(battle, by_face[face]))
    return out
