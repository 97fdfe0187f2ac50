"""Rounds, turns and phases of `fantasy-battle` (FB-ROUND-*, FB-SQUAD-03/04, FB-REINF-*)."""

from __future__ import annotations

from collections.abc import Callable

from warhost.core import metering
from warhost.core.decisions import Acceptor, Decision, Refusal
from warhost.core.engine import Battle, Outcome, UnitFate
from warhost.core.metering import GEOMETRY, OPTIONS
from warhost.core.orders import Order
from warhost.rulesets.fantasy_battle import combat, feats, movement, paths, scoring
from warhost.rulesets.fantasy_battle._ranks import RankSet, kth_of_union
from warhost.rulesets.fantasy_battle.setup import legal_deploy_squares, unit_size
from warhost.rulesets.fantasy_battle.state import (
    DEFEATED,
    FACINGS,
    IN_POOL,
    ON_MAP,
    FBState,
    Squad,
    Unit,
)

ROUND_CAP = 200  # safety net when no max_rounds is set (FB-AMB-44 leaves it open)
REINFORCE_LIMIT = {"standard": 4, "elite": 1, "champion": 1}  # FB-REINF-04
SQUAD_SIZE = {"infantry": 4, "cavalry": 2}  # FB-SQUAD-02
TRACK_FROM = 64
"""Armies of more units than this keep their turn choices up to date (:class:`Readiness`)."""

HOLD = Order("hold")
MOVE_ATTACK = Order("move-attack")
ATTACK_MOVE = Order("attack-move")
DOUBLE = Order("double")
MOBILITY = Order("mobility")
NO_ATTACK = Order("no-attack")
PASS = Order("pass")
DONE = Order("done")
NO_BURST = Order("no-burst")
BURST = Order("burst")
NEW_SQUAD = Order("new-squad")

_ORDERS: dict[tuple[str, str], Order] = {}


def _order(kind: str, arg: str) -> Order:
    """``Order.of(kind, arg)``, built once per kind and argument (orders are immutable values;
    the same few are offered every turn)."""
    found = _ORDERS.get((kind, arg))
    if found is None:
        found = _ORDERS[(kind, arg)] = Order(kind, (arg,))
    return found


def _ask_by_index(
    battle: Battle, side: str, kind: str, count: int, make: Callable[[int], Order],
    prompt: str, subject: str = "", default: int | None = None,
) -> Order:
    """``battle.ask`` with the options ``make(0) .. make(count - 1)``: a commander that picks by
    their number alone gets only the one it picks built (the options of a big army's turn are
    many); any other commander sees them all, built now (the state may change later)."""
    if count > 1 and battle.commanders[side].chooses_by_count:
        return battle.ask_lazy(side, kind, count, make, prompt, subject)
    options = tuple([make(i) for i in range(count)])
    return battle.ask(side, kind, options, prompt, subject,
                      default=None if default is None else options[default])


def play(state: FBState, battle: Battle) -> None:
    """Play rounds until a side wins or the round limit ends the battle."""
    while not state.over:
        if eliminated(state, battle):
            break
        play_round(state, battle)
        if state.over:
            break
        end_of_round(state, battle)
        battle.round_ended(state.round)
        limit = state.options.max_rounds
        if not state.over and (limit is not None and state.round >= limit
                               or state.round >= ROUND_CAP):
            finish_on_score(state, battle, f"round limit {state.round} reached")


def eliminated(state: FBState, battle: Battle) -> bool:
    """A side with nothing on the map and nothing that can return loses (FB-AMB-44)."""
    out = [s for s in state.sides if not state.friends(s) and not (
        state.options.reinforcements
        and any(u.side == s and u.status == IN_POOL for u in state.units.values()))]
    if not out:
        return False
    if len(out) == 2:
        scoring.end(state, battle, None, "both sides have no units left")
    else:
        other = state.other_side(out[0])
        scoring.end(state, battle, other, f"{out[0]} has no units left")
    return True


def finish_on_score(state: FBState, battle: Battle, why: str) -> None:
    """End at the round limit: the higher score wins, equal scores draw (FB-AMB-44)."""
    a, b = state.sides
    if state.scores[a] == state.scores[b]:
        scoring.end(state, battle, None, f"{why}; scores level")
    else:
        winner = a if state.scores[a] > state.scores[b] else b
        scoring.end(state, battle, winner, f"{why}; {winner} leads on points")


def play_round(state: FBState, battle: Battle) -> None:
    """One round: T turns each, alternating, first player first (FB-ROUND-01..06, FB-AMB-10)."""
    state.round += 1
    for unit in state.units.values():
        unit.activated = False
    for squad in state.squads.values():
        squad.activated = False
    # In a big army, which groups are still to act is kept up to date from here on, instead of
    # a scan every turn (in a small one the scan is cheaper).
    readiness = state.start_readiness() if len(state.units) > TRACK_FROM else None
    try:
        groups = {side: readiness.count(side) if readiness is not None
                  else len(state.activation_groups(side)) for side in state.sides}
        turns = max(groups.values())
        battle.emit("round_start", round=state.round, turns=turns, activations=groups)
        order = [state.first_player, state.other_side(state.first_player)]
        for turn in range(turns):
            for side in order:
                if state.over:
                    return
                take_turn(state, battle, side, turns_left=turns - turn)
    finally:
        state.readiness = None


def take_turn(state: FBState, battle: Battle, side: str, turns_left: int) -> None:
    """One turn: activate one squad or unit, or pass (FB-ROUND-03, FB-ROUND-06)."""
    feats.new_turn(state)
    readiness = state.readiness
    if readiness is None:  # a small army (or a turn outside play_round): look at the army
        ready = state.activation_groups(side, ready=True)
        options = [_order("activate", gid) for gid in ready]
        if turns_left > len(ready) or not ready:
            options.append(PASS)
        metering.count(OPTIONS, len(options))
        order = battle.ask(side, "activate", tuple(options), "activate which?",
                           default=options[0])
    else:
        count = readiness.count(side)

        # Each ready group, then pass if allowed, built only when read.
        def option(i: int) -> Order:
            metering.count(OPTIONS)
            return _order("activate", readiness.group(side, i)) if i < count else PASS

        total = count + (turns_left > count or not count)
        if total > 1 and battle.commanders[side].chooses_by_count:
            order = _ask_by_index(battle, side, "activate", total, option, "activate which?",
                                  default=0)
        else:  # every option read: all ready groups at once, in order
            options = [_order("activate", gid) for gid in readiness.ready(side)]
            if total > count:
                options.append(PASS)
            metering.count(OPTIONS, len(options))
            order = battle.ask(side, "activate", tuple(options), "activate which?",
                               default=options[0])
    if order is PASS:
        battle.emit("pass", side=side, round=state.round)
        return
    gid = str(order.args[0])
    if readiness is not None:
        readiness.activated(side, gid)
    squad = state.squads.get(gid)
    battle.emit("activate", side=side, group=gid, round=state.round)
    if squad is None:
        unit_turn(state, battle, state.units[gid])
        return
    squad.activated = True
    waiting = [m for m in squad.members if state.units[m].on_map]
    for member in waiting:
        state.units[member].activated = True
    while waiting and not state.over:  # the owner orders the members (FB-AMB-50)
        pick = battle.ask(side, "member", tuple([_order("member", m) for m in waiting]),
                          "which squad member acts next?", subject=gid)
        member = str(pick.args[0])
        waiting.remove(member)
        if state.units[member].on_map:
            unit_turn(state, battle, state.units[member])


def plan_options(state: FBState, unit: Unit) -> list[Order]:
    """What a unit may do this turn (FB-ROUND-07, FB-ROUND-09, FB-MOVE-07, FB-PIKE-06)."""
    options = [MOVE_ATTACK]
    # A unit without Feat entries (all but Champions) never asks the Feat rules.
    throw = bool(unit.feats) and feats.can_use_feat(state, unit, "throw")
    if combat.has_attack_option(state, unit, allow_throw=throw):
        options.append(ATTACK_MOVE)
    options.append(DOUBLE)
    if unit.has_charge:
        budget = movement.allowance(unit, False, False)
        # Enemies in reach first: the search for a charge run is the costly part.
        near = [_order("charge", enemy.id) for enemy in state.enemies_within(unit, budget + 1)]
        if near and movement.has_charge_run(state, unit, budget):
            options += near
    if unit.feats and feats.can_use_feat(state, unit, "mobility"):
        options.append(MOBILITY)
        options += [_order("charge-mobility", str(o.args[0]))
                    for o in options if o.kind == "charge"]
    options.append(HOLD)
    return options


def unit_turn(state: FBState, battle: Battle, unit: Unit) -> None:
    """One unit's turn: a movement phase and an attack phase in the chosen order."""
    unit.activated = True
    plan = battle.ask(unit.side, "plan", tuple(plan_options(state, unit)),
                      f"what does {unit.id} do?", subject=unit.id, default=MOVE_ATTACK)
    battle.emit("plan", unit=unit.id, plan=str(plan))
    state.last_plan[unit.side] = (unit.id, plan.kind)
    if plan is HOLD:
        return
    if plan is ATTACK_MOVE:
        attack_phase(state, battle, unit, None)
        if not state.over and unit.on_map:
            movement_phase(state, battle, unit, double=False)
    elif plan is DOUBLE:
        movement_phase(state, battle, unit, double=True)
    elif plan.kind == "charge":
        target = str(plan.args[0])
        movement_phase(state, battle, unit, double=False, charge=target)
        if not state.over and unit.on_map:
            attack_phase(state, battle, unit, target)
    elif plan is MOBILITY:
        mobility_turn(state, battle, unit)
    elif plan.kind == "charge-mobility":
        mobility_turn(state, battle, unit, charge=str(plan.args[0]))
    else:
        movement_phase(state, battle, unit, double=False)
        if not state.over and unit.on_map:
            attack_phase(state, battle, unit, None)


def ask_burst(state: FBState, battle: Battle, unit: Unit) -> bool:
    """Burst of Speed is declared at the start of the move (FB-FEAT-05, FB-AMB-42)."""
    if not unit.feats or not feats.can_use_feat(state, unit, "burst_of_speed"):
        return False
    use = BURST
    pick = battle.ask(unit.side, "burst", (NO_BURST, use), "use Burst of Speed?",
                      subject=unit.id, default=NO_BURST)
    if pick is use:
        feats.use_feat(state, battle, unit, "burst_of_speed")
        return True
    return False


def movement_phase(
    state: FBState, battle: Battle, unit: Unit, *, double: bool, charge: str | None = None,
    budget: int | None = None, turn_pike: bool = True,
) -> int:
    """Move the unit (and let a Pike turn); return the movement cost spent."""
    burst = False
    if budget is None:
        burst = ask_burst(state, battle, unit)
        budget = movement.allowance(unit, double, burst)
    vault = False
    if charge is not None:
        table = movement.charge_table(state, unit, budget)
        battle.emit("charge", unit=unit.id, target=charge)
    else:
        vault = bool(unit.feats) and feats.can_use_feat(state, unit, "vault")
        table = movement.destination_table(state, unit, budget, vault=vault)
    cost = 0
    count = len(table)
    if count:
        # A person may give the path (``move x y via ...``) where there is more than one end
        # (with one end, no path could change anything but its cost).
        accept: Acceptor | None = None
        if count > 1:
            charging = charge is not None

            def accept_path(order: Order) -> Order | Refusal | None:
                return paths.accept_path(state, unit, order, budget, double, vault, charging)

            accept = accept_path
        # Options are the end anchors in row-major order, built only when read (a random
        # commander reads one of them); the default (staying put) too.
        pick = battle.ask_lazy(unit.side, "move", count, table.move_order,
                               f"where does {unit.id} move?", subject=unit.id,
                               info={"double": double, "charge": charge, "budget": budget,
                                     "vault": vault, "destinations": table},
                               locate=table.locate, default_of=table.stay_order,
                               accept=accept)
        given = len(pick.args) > 2
        if given:  # a path the player gave, accepted above: its own squares and cost
            found = paths.judge_path(state, unit, pick, budget, double=double, vault=vault,
                                     charge=charge is not None)
            assert isinstance(found, movement.MovePlan), found
            plan = found
        else:
            # The path is only logged: left out when the log keeps no fields.
            plan = table.plan((int(pick.args[0]), int(pick.args[1])),
                              with_path=battle.records_fields)
        if plan.vaulted is not None:
            feats.use_feat(state, battle, unit, "vault")
        if plan.dest != unit.anchor:  # every end but staying put has a non-empty path
            movement.apply_move(state, battle, unit, plan, given=given)
        cost = plan.cost
    if turn_pike and unit.has_facing and unit.on_map:
        choose_facing(state, battle, unit)
    return cost


def facing_names(state: FBState) -> list[str]:
    """The facings a Pike may take (FB-AMB-23)."""
    names = ["north", "east", "south", "west"]
    if state.options.pike_facings == 8:
        names += ["northeast", "southeast", "southwest", "northwest"]
    return names


_FACING_OPTIONS: dict[bool, tuple[tuple[Order, ...], dict[tuple[int, int], Order]]] = {}


def _facing_options(state: FBState) -> tuple[tuple[Order, ...], dict[tuple[int, int], Order]]:
    """The ``face`` orders of :func:`facing_names`, and the one for each of those facings,
    built once per facing rule."""
    eight = state.options.pike_facings == 8
    found = _FACING_OPTIONS.get(eight)
    if found is None:
        names = facing_names(state)
        found = _FACING_OPTIONS[eight] = (tuple([_order("face", n) for n in names]),
                                          {FACINGS[n]: _order("face", n) for n in names})
    return found


def choose_facing(state: FBState, battle: Battle, unit: Unit) -> None:
    """A Pike turns during its own movement phase only (FB-PIKE-04)."""
    assert unit.facing is not None
    options, by_facing = _facing_options(state)
    # The default keeps the current facing, if it is one of the options.
    pick = battle.ask(unit.side, "facing", options, f"facing of {unit.id}?",
                      subject=unit.id, default=by_facing.get(unit.facing))
    name = str(pick.args[0])
    new = FACINGS[name]
    if new != unit.facing:
        state.set_facing(unit, new)
        battle.emit("facing", unit=unit.id, facing=name)


def attack_phase(state: FBState, battle: Battle, unit: Unit, charge: str | None) -> None:
    """Attack one legal enemy, or none (FB-ROUND-08)."""
    can_throw = bool(unit.feats) and feats.can_use_feat(state, unit, "throw")
    choices = combat.attack_options(state, unit, allow_throw=can_throw)
    if not choices:
        return
    options = tuple([_order("throw" if c.kind == "throw" else "attack", c.target) for c in choices])
    pick = battle.ask(unit.side, "attack", (*options, NO_ATTACK), f"whom does {unit.id} attack?",
                      subject=unit.id, default=NO_ATTACK, info={"charge": charge})
    if pick is NO_ATTACK:
        return
    chosen = choices[options.index(pick)]
    if chosen.kind == "throw":
        feats.use_feat(state, battle, unit, "throw")
    target = state.units[chosen.target]
    charging = charge is not None and chosen.kind == "melee" and chosen.target == charge
    combat.resolve_attack(state, battle, unit, target, chosen.kind, charging=charging)


def mobility_turn(state: FBState, battle: Battle, unit: Unit, charge: str | None = None) -> None:
    """Move, attack, then keep moving within one normal allowance (FB-FEAT-07, FB-AMB-39).

    The first part may be a charge (FB-AMB-25): straight, and +1 against the declared target;
    the movement after the attack need not be straight. A front-arc stop during the first part
    ends all movement for the turn.
    """
    feats.use_feat(state, battle, unit, "mobility")
    budget = movement.allowance(unit, False, False)
    start = unit.anchor
    spent = movement_phase(state, battle, unit, double=False, charge=charge, budget=budget)
    if state.over or not unit.on_map:
        return
    moved = unit.anchor != start
    halted = moved and any(
        state.in_front_arc(e, state.squares_of(unit)) for e in state.enemies(unit.side)
        if e.has_facing and state.level_of(e) == state.level_of(unit))
    attack_phase(state, battle, unit, charge)
    if state.over or not unit.on_map or halted:
        return
    movement_phase(state, battle, unit, double=False, budget=budget - spent)


# --- end of round -------------------------------------------------------------------------
def end_of_round(state: FBState, battle: Battle) -> None:
    """Victory areas, then reinforcements, then reforming (FB-AMB-44, FB-AMB-49)."""
    score_victory_areas(state, battle)
    if state.over:
        return
    order = [state.first_player, state.other_side(state.first_player)]
    if state.options.reinforcements:
        for side in order:
            reinforce(state, battle, side)
    for side in order:
        reform(state, battle, side)
    battle.emit("round_end", round=state.round, scores=dict(state.scores))


def score_victory_areas(state: FBState, battle: Battle) -> None:
    """A side that alone stands on a victory area at round end scores its points (FB-WIN-07)."""
    for area in state.victory_areas:
        holders = {state.units[state.occupied[tuple(sq)]].side  # type: ignore[index]
                   for sq in area["squares"] if tuple(sq) in state.occupied}
        if len(holders) == 1:
            side = holders.pop()
            scoring.add_score(state, battle, side, int(area["points"]), f"holds {area['name']}")
            if state.over:
                return


def reinforce(state: FBState, battle: Battle, side: str) -> None:
    """Bring units back from the pool into the start area (FB-REINF-03..05, FB-AMB-49)."""
    taken = {"standard": 0, "elite": 0, "champion": 0}
    while True:
        pool = [u for u in state.units.values() if u.side == side and u.status == IN_POOL
                and not u.unique and taken[u.rank] < REINFORCE_LIMIT[u.rank]]
        fits = []
        for u in pool:
            restore(u, state)
            if legal_deploy_squares(state, u, first=True):
                fits.append(u)
        if not fits:
            return
        options = (DONE, *(Order.of("reinforce", u.id) for u in fits))
        pick = battle.decide(Decision(side, "reinforce", options, "bring back which unit?",
                                      default=options[1]))
        if pick == DONE:
            return
        unit = state.units[str(pick.args[0])]
        squares = legal_deploy_squares(state, unit)
        where = battle.decide(Decision(side, "deploy", tuple(Order.of("deploy", *sq) for sq in squares),
                                       f"where does {unit.id} return?", subject=unit.id))
        state.set_status(unit, ON_MAP)
        state.place(unit, (int(where.args[0]), int(where.args[1])))
        taken[unit.rank] += 1
        battle.emit("reinforced", unit=unit.id, side=side, at=list(unit.anchor or ()))
        if unit.has_facing:
            choose_facing(state, battle, unit)


def restore(unit: Unit, state: FBState) -> None:
    """A returning unit comes back in its original form (FB-AMB-49)."""
    unit.cls = unit.original_cls
    unit.type = unit.original_type
    unit.size = unit_size(unit.type, state.options)
    unit.wounded = False
    unit.dismounted = False
    unit.feats_used_since_entry = 0
    if unit.cls == "pike" and unit.facing is None:
        unit.facing = (0, 1) if side_index(state, unit.side) == 0 else (0, -1)
    if unit.cls != "pike":
        unit.facing = None
    state.sync(unit)


def side_index(state: FBState, side: str) -> int:
    """0 for the first listed side, 1 for the second."""
    return state.sides.index(side)


class _Reforming:
    """What :func:`reform` asks about one side, kept up to date move by move instead of worked
    out again for every question: the side's squads in order (new ones at the end) with their
    members on the map, the open ones of each type (a member on the map and room left,
    FB-SQUAD-02), and the units that may still move, per type, in army order."""

    def __init__(self, state: FBState, side: str) -> None:
        self.state = state
        units = [u for u in state.units.values() if u.side == side]
        self.units = units
        self.spot = {u.id: i for i, u in enumerate(units)}
        squads = [sq for sq in state.squads.values() if sq.side == side]
        room = len(squads) + len(units)  # every unit could found a new squad
        self.ids = [sq.id for sq in squads]
        self.order = {sid: i for i, sid in enumerate(self.ids)}
        self.type = {sq.id: sq.type for sq in squads}
        self.present = {sq.id: sum(1 for m in sq.members if state.units[m].on_map)
                        for sq in squads}
        self.squad_count = len(squads)
        self.open = {kind: RankSet(room, [i for i, sq in enumerate(squads) if sq.type == kind
                                          and 0 < self.present[sq.id] < size])
                     for kind, size in SQUAD_SIZE.items()}
        kinds = {u.type for u in units} | set(SQUAD_SIZE)
        self.movable = {kind: RankSet(len(units), [
            i for i, u in enumerate(units)
            if u.type == kind and u.squad is not None and u.on_map]) for kind in kinds}
        metering.count(GEOMETRY, len(units) + len(squads))

    def open_count(self) -> int:
        """How many squads of the side are open."""
        return sum(s.total for s in self.open.values())

    def _shut(self, kind: str, allow_new: bool) -> list[int]:
        """Movable units of type ``kind`` that have nowhere to go: without new squads, the
        members of the only open squad of their type."""
        found = self.open.get(kind)
        if allow_new or found is None or found.total != 1:
            return []
        sid = self.ids[found.kth(0)]
        movable = self.movable[kind]
        return [i for i in (self.spot[m] for m in self.state.squads[sid].members)
                if i in movable]

    def mover_sets(self, allow_new: bool) -> tuple[list[RankSet], list[tuple[RankSet, int]]]:
        """The sets of movable units that may move now, and the units to leave out of them."""
        sets = []
        shut: list[tuple[RankSet, int]] = []
        for kind, movable in self.movable.items():
            if not movable.total:
                continue
            if not allow_new:
                found = self.open.get(kind)
                if found is None or not found.total:
                    continue
            sets.append(movable)
            shut += [(movable, i) for i in self._shut(kind, allow_new)]
        return sets, shut

    def targets(self, unit: Unit, allow_new: bool) -> tuple[int, Callable[[int], Order]]:
        """How many squads ``unit`` may join (then ``new-squad`` if allowed), and the k-th
        of those orders."""
        found = self.open.get(unit.type)
        joins = 0 if found is None else found.total
        own = self.order.get(unit.squad) if unit.squad is not None else None
        skip = -1
        if found is not None and own is not None and own in found:
            joins -= 1
            skip = found.rank(own)
        ids = self.ids

        def make(i: int) -> Order:
            metering.count(OPTIONS)
            if i >= joins:
                return NEW_SQUAD
            assert found is not None
            return _order("join", ids[found.kth(i if skip < 0 or i < skip else i + 1)])

        return joins + allow_new, make

    def _update(self, sid: str) -> None:
        sets = self.open.get(self.type[sid])
        if sets is None:
            return
        place = self.order[sid]
        present = self.present[sid]
        if sid in self.state.squads and 0 < present < SQUAD_SIZE[self.type[sid]]:
            sets.add(place)
        else:
            sets.discard(place)

    def moved(self, unit: Unit, old: str, new: str, founded: bool, replaced: bool) -> None:
        """``unit`` (on the map) went from squad ``old`` to ``new`` (a new squad if
        ``founded``, put in the place of a squad of that name if ``replaced``); ``old`` may be
        gone."""
        if founded:
            if not replaced:  # a new name goes to the end of the squads
                self.order[new] = len(self.ids)
                self.ids.append(new)
                self.squad_count += 1
            else:
                for sets in self.open.values():
                    sets.discard(self.order[new])
            self.type[new] = unit.type
            self.present[new] = 0
        self.present[old] -= 1
        self.present[new] += 1
        if old not in self.state.squads:
            self.squad_count -= 1
        self._update(old)
        self._update(new)
        self.movable[unit.type].discard(self.spot[unit.id])


def reform(state: FBState, battle: Battle, side: str) -> None:
    """Standard units may switch squads at round end (FB-SQUAD-04, FB-AMB-09).

    Two questions a time, so large armies stay quick: which unit (``reform UNIT``, or
    ``done``), then which squad it joins (``join SQUAD``, or ``new-squad`` when allowed).
    The options are built only when read, from :class:`_Reforming`, kept up to date.
    """
    allow_new = state.options.reform_allow_new_squads
    if not allow_new:
        everyone = state.units
        mine = [sq for sq in state.squads.values() if sq.side == side]
        if len(mine) < 2:
            return  # a unit may only join another squad of its side, and there is none
        if not any(0 < sum(1 for m in sq.members if everyone[m].on_map) < SQUAD_SIZE[sq.type]
                   for sq in mine):
            return  # no squad to join: nobody can move
    board = _Reforming(state, side)
    units = board.units
    while True:
        if board.squad_count < 2 and not allow_new:
            return
        if not board.open_count() and not allow_new:
            return  # no squad to join: nobody can move
        sets, shut = board.mover_sets(allow_new)
        movers = sum(s.total for s in sets) - len(shut)
        if movers <= 0:
            return

        def mover(i: int, sets: list[RankSet] = sets,
                  shut: list[tuple[RankSet, int]] = shut) -> Order:
            if not i:
                return DONE
            metering.count(OPTIONS)
            for flags, spot in shut:  # left out while the k-th is found
                flags.discard(spot)
            try:
                return _order("reform", units[kth_of_union(sets, i - 1)].id)
            finally:
                for flags, spot in shut:
                    flags.add(spot)

        pick = _ask_by_index(battle, side, "reform", 1 + movers, mover, "reform squads?",
                             default=0)
        if pick == DONE:
            return
        unit = state.units[str(pick.args[0])]
        count, target_of = board.targets(unit, allow_new)
        where = _ask_by_index(battle, side, "reform-to", count, target_of,
                              f"which squad does {unit.id} join?", unit.id)
        old = state.squads[unit.squad]  # type: ignore[index]
        founded = where.kind == "new-squad"
        replaced = False
        if founded:
            new_id = f"{old.id}+{unit.id}"
            replaced = new_id in state.squads
            state.squads[new_id] = Squad(new_id, side, unit.type, [], new_id, activated=True)
            target = state.squads[new_id]
        else:
            target = state.squads[str(where.args[0])]
        old.members.remove(unit.id)
        target.members.append(unit.id)
        unit.squad = target.id
        battle.emit("reformed", unit=unit.id, from_squad=old.id, to_squad=target.id)
        if not old.members:
            del state.squads[old.id]
        board.moved(unit, old.id, target.id, founded, replaced)


def outcome(state: FBState) -> Outcome:
    """Winner, scores, rounds and each unit's fate."""
    fates = []
    for unit in state.units.values():
        if unit.on_map:
            fate = "wounded" if unit.wounded else ("dismounted" if unit.dismounted else "alive")
        else:
            fate = "defeated" if unit.status in (DEFEATED, IN_POOL) else unit.status
        fates.append(UnitFate(unit.id, unit.side, unit.name, 1, 1 if unit.on_map else 0, fate))
    return Outcome(state.winner, dict(state.scores), state.round, fates, state.reason)


def check_invariants(state: FBState, events: list[dict[str, object]]) -> list[str]:
    """Conformance checks: one activation per unit per round, map and pool consistent."""
    problems = []
    seen: set[tuple[object, object]] = set()
    current = 0
    for event in events:
        if event["type"] == "round_start":
            current = int(event["round"])  # type: ignore[call-overload]
        elif event["type"] == "plan":
            key = (current, event["unit"])
            if key in seen:
                problems.append(f"{event['unit']} acted twice in round {current}")
            seen.add(key)
    for sq, uid in state.occupied.items():
        unit = state.units[uid]
        if not unit.on_map or sq not in state.squares_of(unit):
            problems.append(f"square {sq} says {uid} but the unit is elsewhere")
    for unit in state.units.values():
        if unit.fate_spent > unit.fate or unit.fate_spent < 0:
            problems.append(f"{unit.id} spent {unit.fate_spent} of {unit.fate} Fate Points")
        for sq in state.squares_of(unit):
            if state.occupied.get(sq) != unit.id:
                problems.append(f"{unit.id} stands on {sq} but the map does not know it")
    return problems
