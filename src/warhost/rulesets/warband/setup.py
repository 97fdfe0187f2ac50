"""Building a `warband` battle: the map, the characters, deployment and initiative
(WB-DEPLOY, WB-INIT)."""

from __future__ import annotations

from warhost.core import metering
from warhost.core.battle import Battle
from warhost.core.metering import OPTIONS
from warhost.core.orders import Order
from warhost.geometry.grid import Grid, Square, chebyshev
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
    char = Character(
        id=spec.id, side=side, name=spec.name or spec.id, kind=spec.kind,
        captain=spec.captain, base=base, weapons=list(spec.weapons),
        armour=list(spec.armour), items=list(spec.items), talents=frozenset(spec.talents),
        traits=frozenset(spec.traits),
        spells=[spells[name] for name in spec.spells],  # type: ignore[misc]
        fate=stats.fate, facing=spec.facing or "N",
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


def deploy_squares(state: WarbandState, side: str) -> list[Square]:
    """Where ``side`` may place a character now (WB-DEPLOY-05/06, WB-AMB-07)."""
    spec = next(s for s in state.scenario.sides if s.name == side)
    free = [sq for sq in _side_area(state, side, spec.zone) if sq not in state.at
            and state.passable(sq)]
    if side == state.advantage:
        enemy_at = {sq for sq, cid in state.at.items() if state.chars[cid].side != side}
        free = [sq for sq in free
                if all(chebyshev(sq, e) > 1 for e in _near(enemy_at, sq))]
    metering.count(OPTIONS, len(free))
    return free


def _near(squares: set[Square], sq: Square) -> list[Square]:
    x, y = sq
    return [(x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)
            if (x + dx, y + dy) in squares]


def _side_area(state: WarbandState, side: str, zone: Zone | None) -> list[Square]:
    """The squares a side may deploy on before the rule on enemies is applied."""
    if side != state.advantage:
        if zone is None:
            return list(state.grid.squares())
        return zone_squares(zone)
    reach = state.options.advantage_deploy_distance
    others = [s for s in state.scenario.sides if s.name != side]
    targets: list[Square] = []
    for other in others:
        if other.zone is not None:
            targets.extend(zone_squares(other.zone))
    if not targets:
        return list(state.grid.squares())
    xs = [x for x, _ in targets]
    ys = [y for _, y in targets]
    x0, x1, y0, y1 = min(xs) - reach, max(xs) + reach, min(ys) - reach, max(ys) + reach
    target_set = set(targets)
    out = []
    for y in range(max(0, y0), min(state.grid.height - 1, y1) + 1):
        for x in range(max(0, x0), min(state.grid.width - 1, x1) + 1):
            if (x, y) in target_set or _within(target_set, (x, y), reach):
                out.append((x, y))
    return out


def _within(targets: set[Square], sq: Square, reach: int) -> bool:
    return any(chebyshev(sq, t) <= reach for t in targets)


def deploy(state: WarbandState, battle: Battle) -> None:
    """Place every character (WB-DEPLOY-01 to 06): scenario squares first, then the sides
    that must choose, each without seeing the others' choices (WB-AMB-07)."""
    for char in state.chars.values():
        spec_at = _spec(state, char.id).at
        if spec_at is not None:
            state.place(char, (spec_at[0], spec_at[1]))
    for side in deploy_order(state):
        for char in state.side_chars(side):
            spec = _spec(state, char.id)
            if spec.at is None:
                squares = deploy_squares(state, side)

                def make(i: int, sq: list[Square] = squares) -> Order:
                    return Order.of("deploy", sq[i][0], sq[i][1])

                def locate(o: Order, sq: list[Square] = squares) -> int | None:
                    return _locate_square(sq, o)

                order = battle.ask_lazy(side, "deploy", len(squares), make,
                                        f"Where does {char.label} start?", char.id,
                                        locate=locate)
                state.place(char, (int(order.args[0]), int(order.args[1])))
            if spec.facing is None:
                order = battle.ask(side, "facing",
                                   tuple(Order.of("face", f) for f in FACING_ORDER),
                                   f"Which way does {char.label} face?", char.id)
                char.facing = str(order.args[0])
            assert char.square is not None
            battle.emit("deploy", who=char.id, side=side, at=list(char.square),
                        facing=char.facing)


def _locate_square(squares: list[Square], order: Order) -> int | None:
    if len(order.args) != 2:
        return None
    try:
        return squares.index((int(order.args[0]), int(order.args[1])))
    except (ValueError, TypeError):
        return None


def _spec(state: WarbandState, cid: str) -> CharacterSpec:
    for side in state.scenario.sides:
        for spec in side.characters:
            if spec.id == cid:
                return spec
    raise KeyError(cid)


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
