"""The `warband` AI commander.

It plays the way a careful player would. In the Movement Phase each option is weighed: a
Charge by the blows it lands first (charge bonus, high ground, a rear-arc flank) less what the
enemies around the end square strike back with; a move next to an enemy by the same sums
without the charge; any other square by how close it brings the fight, with high ground and
cover counted. Shooters keep their distance, look for a square in range with sight of the
nearest enemy, high ground and cover, and stay out of charge reach. The Captain counts the
blows it would take more heavily while its warband still has others to fight. Shots and blows
go where the expected confirmed wounds are worth most, which favours hurt targets (focus
fire), Captains, Heroes and Mages. Spells are cast when the odds pay, at Surge when the test
is still likely to pass; an enemy Spell is always dispelled by the best Mage offered.

Cost: the distance to the nearest enemy comes from one search over the map per side and
phase (:class:`EnemyField`); everything else looks at the options offered and the 8 squares
around a square (``state.at``), never at the whole army.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from warhost.core.commanders import Commander
from warhost.core.decisions import Decision
from warhost.core.orders import Order
from warhost.geometry.grid import DIRECTIONS8, Square, facing_toward, wave_squares
from warhost.rulesets.warband.ai_judge import (
    EnemyField,
    expected_wounds,
    kill_value,
    melee_circ,
    pass_chance,
    worth,
)
from warhost.rulesets.warband.attacks import AttackProfile, Circumstances
from warhost.rulesets.warband.checks import Mod
from warhost.rulesets.warband.combat import (
    can_fight,
    can_see,
    melee_circumstances,
    melee_profile,
    ranged_circumstances,
)
from warhost.rulesets.warband.model import Spell, Weapon
from warhost.rulesets.warband.movement import charge_path
from warhost.rulesets.warband.state import Character, WarbandState

LEVELS = ("base", "surge", "surge-plain")
"""The casting levels a ``cast`` order may end with."""
SHOOTER_CHECKS = 10
"""Best move squares of a shooter whose sight of the nearest enemy is checked."""
UTILITY_TRIES = 4
"""Utility actions one character takes a turn before the AI says ``done``."""
CHARGE_REACH = 6
"""Squares within which a typical enemy could charge next turn (a shooter keeps beyond)."""


class WarbandAI(Commander):
    """Weighs every option by expected wounds and position (see the module docstring)."""

    kind = "ai"

    def __init__(self) -> None:
        self._state: WarbandState | None = None
        self._key: tuple[int, str] = (-1, "")
        self._fields: dict[str, EnemyField] = {}
        self._standing: dict[str, int] = {}
        self._utility: dict[tuple[int, str], int] = {}
        self._enemy_centre: dict[str, tuple[float, float]] = {}
        self._handlers: dict[str, Callable[[Decision, WarbandState], Order | None]] = {
            "movement": self._movement,
            "ranged": self._ranged,
            "melee": self._melee,
            "opportunity": self._opportunity,
            "facing": self._facing,
            "deploy": self._deploy,
            "utility": self._utility_action,
            "dispel": self._dispel,
            "fate": self._fate,
        }

    # -- entry --------------------------------------------------------------------------------

    def choose(self, decision: Decision, state: Any) -> Order:
        handler = self._handlers.get(decision.kind)
        order = None
        if handler is not None and isinstance(state, WarbandState):
            self._refresh(state)
            order = handler(decision, state)
        if order is not None:
            return order
        default = decision.default
        return default if default is not None else decision.option(0)

    def _refresh(self, state: WarbandState) -> None:
        """Forget what was worked out for an earlier phase (or another battle)."""
        key = (state.turn, state.phase)
        if state is not self._state or key != self._key:
            if state is not self._state:
                self._enemy_centre = {}
                self._utility = {}
            self._state = state
            self._key = key
            self._fields = {}
            self._standing = {}

    def field(self, state: WarbandState, side: str) -> EnemyField:
        """The nearest-enemy field of ``side`` for this phase."""
        found = self._fields.get(side)
        if found is None:
            found = self._fields[side] = EnemyField(state, side)
        return found

    def careful(self, state: WarbandState, char: Character) -> bool:
        """A Captain keeps out of harm while at least two others of its side still fight."""
        if not char.captain:
            return False
        left = self._standing.get(char.side)
        if left is None:
            left = self._standing[char.side] = state.standing_count(char.side)
        return left >= 3

    # -- attacks --------------------------------------------------------------------------------

    def _best_blow(self, state: WarbandState, char: Character, at: Square, target: Character,
                   *, charging: bool = False) -> float:
        """Expected confirmed wounds of one blow of ``char``'s best melee weapon from ``at``."""
        circ = melee_circ(state, char, at, target, charging=charging)
        best = 0.0
        for weapon in char.melee_weapons(state.options.unarmed_attacks):
            best = max(best, expected_wounds(state, char, target, melee_profile(char, weapon),
                                             circ))
        return best

    def _threat(self, state: WarbandState, enemy: Character, char: Character, at: Square,
                careful: bool) -> float:
        """What the blows of ``enemy`` on ``char`` standing at ``at`` are worth to the enemy."""
        if not can_fight(enemy) or enemy.square is None:
            return 0.0
        circ = Circumstances(mode="melee",
                             high_ground=state.level(enemy.square) > state.level(at),
                             attacker_lying=enemy.lying)
        best = 0.0
        for weapon in enemy.melee_weapons(state.options.unarmed_attacks):
            best = max(best, expected_wounds(state, enemy, char, melee_profile(enemy, weapon),
                                             circ))
        weight = 2.5 if careful else 1.0
        return weight * kill_value(char, best * enemy.score("attacks"))

    def _foes_at(self, state: WarbandState, char: Character, at: Square) -> list[Character]:
        """Enemies that would be Engaged with ``char`` standing at ``at`` (8 squares looked at)."""
        out = []
        x, y = at
        level = state.level(at)
        for dx, dy in DIRECTIONS8:
            sq = (x + dx, y + dy)
            cid = state.at.get(sq)
            if cid is None:
                continue
            other = state.chars[cid]
            if other.side != char.side and other.on_map and abs(state.level(sq) - level) <= 1:
                out.append(other)
        return out

    def _fight_value(self, state: WarbandState, char: Character, at: Square,
                     foes: list[Character], careful: bool, *, can_strike: bool = True) -> float:
        """Standing at ``at`` next to ``foes``: the best target's worth of our blows less the
        worth of theirs."""
        danger = sum(self._threat(state, foe, char, at, careful) for foe in foes)
        if not can_strike:
            return -1.0 - 2.0 * danger
        blows = max(1, char.attacks_left)
        attack = max(kill_value(foe, blows * self._best_blow(state, char, at, foe))
                     for foe in foes)
        return (0.3 if careful else 1.0) + attack - danger

    # -- movement -------------------------------------------------------------------------------

    def _movement(self, decision: Decision, state: WarbandState) -> Order | None:
        char = state.chars.get(decision.subject)
        if char is None or char.square is None:
            return None
        options = decision.options
        for option in options:
            if option.kind == "stand":
                return option  # up at once: lying down only invites blows
        here = char.square
        careful = self.careful(state, char)
        shooter = is_shooter(char)
        field = self.field(state, char.side)
        engaged_now = bool(self._foes_at(state, char, here))
        scored: list[tuple[float, int]] = []
        for i, option in enumerate(options):
            kind = option.kind
            if kind == "stay":
                value = self._square_value(state, char, here, "stay", field, shooter, careful)
                value += 0.05
            elif kind in ("move", "sprint"):
                sq = (int(option.args[0]), int(option.args[1]))
                value = self._square_value(state, char, sq, kind, field, shooter, careful)
                if engaged_now:
                    value -= 1.5  # Attacks of Opportunity on the way out
            elif kind == "charge":
                value = self._charge_value(state, char, option, careful)
                if shooter:
                    value -= 0.5
            elif kind == "cast":
                value = self._spell_value(state, char, option) * 2.0 - 0.2
            elif kind == "stay-down":
                value = -0.5
            else:
                value = -5.0  # prone, and any order the AI does not know
            scored.append((value, i))
        if shooter:
            scored = self._check_sight(state, char, options, scored, field)
        best = max(scored, key=lambda item: (item[0], -item[1]))
        return options[best[1]]

    def _square_value(self, state: WarbandState, char: Character, sq: Square, kind: str,
                      field: EnemyField, shooter: bool, careful: bool) -> float:
        """How good it is to end the move on ``sq`` (``kind``: stay, move or sprint).

        Only squares the phase's field puts within 2 of an enemy are searched for Engaged
        enemies: the rest of the squares cost three look-ups each."""
        d = min(field.distance(sq), 60)
        foes = self._foes_at(state, char, sq) if d <= 2 or kind == "stay" else []
        if foes:
            if shooter and kind != "stay":
                return -1.5
            return self._fight_value(state, char, sq, foes, careful,
                                     can_strike=kind != "sprint")
        level = field.level(sq)
        cover = sq in state.cover
        if shooter:
            reach = max((w.range or 0) for w in char.ranged_weapons())
            value = (1.0 if d <= reach else -0.1 * (d - reach)) if kind != "sprint" else -0.6
            value -= 0.8 if d <= 2 else 0.12 * max(0, CHARGE_REACH - d)
            value += 0.3 * level + (0.25 if cover else 0.0)
        else:
            value = -0.1 * d + 0.15 * level + (0.05 if cover else 0.0)
            if d == 2:
                value -= 0.15  # too close to charge next turn
            if kind == "sprint":
                value -= 0.25
        if careful:
            value -= 0.3 * max(0, 5 - d)
        return value

    def _check_sight(self, state: WarbandState, char: Character, options: tuple[Order, ...],
                     scored: list[tuple[float, int]], field: EnemyField
                     ) -> list[tuple[float, int]]:
        """For a shooter's best few squares: a square without sight of the nearest enemy in
        range is worth much less."""
        assert char.square is not None
        reach = max((w.range or 0) for w in char.ranged_weapons())
        top = sorted(scored, key=lambda item: -item[0])[:SHOOTER_CHECKS]
        changed = {i: v for v, i in scored}
        for value, i in top:
            option = options[i]
            if option.kind == "stay":
                sq = char.square
            elif option.kind == "move":
                sq = (int(option.args[0]), int(option.args[1]))
            else:
                continue
            enemy = field.nearest(sq)
            if enemy is None or field.distance(sq) > reach or enemy == sq:
                continue
            if not can_see(state, sq, enemy):
                changed[i] = value - 0.8
        return [(v, i) for i, v in changed.items()]

    def _charge_value(self, state: WarbandState, char: Character, option: Order,
                      careful: bool) -> float:
        """Blows struck first with the charge bonuses, less the blows taken at the end."""
        target = state.chars.get(str(option.args[0]))
        if target is None:
            return -5.0
        path = charge_path(state, char, target)
        if not path:
            return -5.0
        end = path[-1]
        blows = max(1, char.attacks_left)
        attack = kill_value(target, blows * self._best_blow(state, char, end, target,
                                                            charging=True))
        foes = self._foes_at(state, char, end)
        danger = sum(self._threat(state, foe, char, end, careful) for foe in foes)
        first = 0.3 if not target.braced else 0.0  # chargers strike first (WB-MELEE-02)
        return (0.3 if careful else 1.0) + first + attack - 0.8 * danger

    # -- ranged and melee ---------------------------------------------------------------------

    def _ranged(self, decision: Decision, state: WarbandState) -> Order | None:
        char = state.chars.get(decision.subject)
        if char is None or char.square is None:
            return None
        cache: dict[tuple[str, str, str], float] = {}
        best: tuple[float, int] = (0.0, -1)
        for i, option in enumerate(decision.options):
            kind = option.kind
            if kind in ("shoot", "volley", "stand-shoot"):
                value = self._shot_value(state, char, option, cache)
            elif kind == "wave":
                value = self._wave_value(state, char, option)
            elif kind == "cast":
                value = self._spell_value(state, char, option)
            else:
                continue
            if value > best[0]:
                best = (value, i)
        return None if best[1] < 0 else decision.options[best[1]]

    def _shot_value(self, state: WarbandState, char: Character, option: Order,
                    cache: dict[tuple[str, str, str], float]) -> float:
        target = state.chars.get(str(option.args[0]))
        if target is None or target.square is None:
            return 0.0
        total = 0.0
        for name, n in zip(option.args[1::2], option.args[2::2]):
            key = (option.kind, target.id, str(name))
            each = cache.get(key)
            if each is None:
                weapon = _weapon(char, str(name))
                if weapon is None:
                    return 0.0
                circ = ranged_circumstances(state, char, target, volley=option.kind == "volley",
                                            stand_and_shoot=option.kind == "stand-shoot")
                profile = AttackProfile(weapon.name, weapon.strength or 0, weapon.penetration,
                                        weapon.poisoned, weapon.magic, skill="ranged")
                each = cache[key] = expected_wounds(state, char, target, profile, circ)
            total += int(n) * each
        return kill_value(target, total)

    def _wave_value(self, state: WarbandState, char: Character, option: Order) -> float:
        """Enemies caught in the arc count for, allies against."""
        weapon = _weapon(char, str(option.args[2]))
        if weapon is None or char.square is None:
            return 0.0
        aim = (int(option.args[0]), int(option.args[1]))
        profile = AttackProfile(weapon.name, weapon.strength or 0, weapon.penetration,
                                weapon.poisoned, weapon.magic, auto_hit=True, skill="ranged")
        value = 0.0
        grid = state.grid
        for sq in wave_squares(char.square, aim, weapon.range or 0, grid.width, grid.height):
            other = state.occupant(sq)
            if other is None or other is char or not other.on_map:
                continue
            if not can_see(state, char.square, sq):
                continue
            hurt = kill_value(other, expected_wounds(
                state, char, other, profile, ranged_circumstances(state, char, other)))
            value += -1.5 * hurt if other.side == char.side else hurt
        return value

    def _melee(self, decision: Decision, state: WarbandState) -> Order | None:
        char = state.chars.get(decision.subject)
        if char is None or char.square is None:
            return None
        cache: dict[tuple[str, str], float] = {}
        best: tuple[float, int] = (0.0, -1)
        for i, option in enumerate(decision.options):
            if option.kind == "attack":
                target = state.chars.get(str(option.args[0]))
                weapon = next((w for w in char.melee_weapons(state.options.unarmed_attacks)
                               if w.name == option.args[1]), None)
                if target is None or weapon is None or target.square is None:
                    continue
                key = (target.id, weapon.name)
                each = cache.get(key)
                if each is None:
                    circ = melee_circumstances(state, char, target)
                    each = cache[key] = expected_wounds(state, char, target,
                                                        melee_profile(char, weapon), circ)
                value = kill_value(target, int(option.args[2]) * each)
            elif option.kind == "cast":
                value = self._spell_value(state, char, option)
            else:
                continue
            if value > best[0]:
                best = (value, i)
        return None if best[1] < 0 else decision.options[best[1]]

    def _opportunity(self, decision: Decision, state: WarbandState) -> Order | None:
        char = state.chars.get(decision.subject)
        best: tuple[float, int] = (-1.0, -1)
        for i, option in enumerate(decision.options):
            if option.kind != "opportunity" or char is None:
                continue
            mover = state.chars.get(str(option.args[0]))
            weapon = next((w for w in char.melee_weapons(state.options.unarmed_attacks)
                           if w.name == option.args[1]), None)
            if mover is None or weapon is None or mover.square is None:
                continue
            circ = melee_circumstances(state, char, mover, opportunity=True)
            value = expected_wounds(state, char, mover, melee_profile(char, weapon), circ)
            if value > best[0]:
                best = (value, i)
        return None if best[1] < 0 else decision.options[best[1]]

    # -- facing and deployment ----------------------------------------------------------------

    def _facing(self, decision: Decision, state: WarbandState) -> Order | None:
        """Face the nearest enemy that is Engaged with it, else the nearest enemy."""
        char = state.chars.get(decision.subject)
        if char is None or char.square is None:
            return None
        foes = self._foes_at(state, char, char.square)
        if foes:
            foe = max(foes, key=lambda f: (f.score("attacks") * f.score("melee"), f.id))
            toward = foe.square
        else:
            toward = self.field(state, char.side).nearest(char.square)
        if toward is None or toward == char.square:
            return None
        wanted = facing_toward(char.square, toward)
        return next((o for o in decision.options if o.args and o.args[0] == wanted), None)

    def _deploy(self, decision: Decision, state: WarbandState) -> Order | None:
        """High ground and cover; fighters towards the enemy, shooters and Captains back."""
        char = state.chars.get(decision.subject)
        if char is None:
            return None
        ex, ey = self._centre_of_enemies(state, char.side)
        forward = not (is_shooter(char) or char.captain)
        best: tuple[float, int] = (-1e9, -1)
        for i in range(decision.option_count):
            option = decision.option(i)
            if option.kind != "deploy":
                continue
            sq = (int(option.args[0]), int(option.args[1]))
            gap = max(abs(sq[0] - ex), abs(sq[1] - ey))
            value = 1.0 * state.level(sq) + (0.5 if sq in state.cover else 0.0)
            value += -0.2 * gap if forward else 0.1 * gap
            if value > best[0]:
                best = (value, i)
        return None if best[1] < 0 else decision.option(best[1])

    def _centre_of_enemies(self, state: WarbandState, side: str) -> tuple[float, float]:
        """Middle of the other sides' deployment zones (else of the map), once a battle."""
        found = self._enemy_centre.get(side)
        if found is not None:
            return found
        xs: list[float] = []
        ys: list[float] = []
        for spec in state.scenario.sides:
            if spec.name != side and spec.zone is not None:
                (x0, y0), (x1, y1) = spec.zone.origin, spec.zone.to
                xs.append((x0 + x1) / 2)
                ys.append((y0 + y1) / 2)
        if not xs:
            xs, ys = [(state.grid.width - 1) / 2], [(state.grid.height - 1) / 2]
        found = self._enemy_centre[side] = (sum(xs) / len(xs), sum(ys) / len(ys))
        return found

    # -- utility, magic, fate -------------------------------------------------------------------

    def _utility_action(self, decision: Decision, state: WarbandState) -> Order | None:
        """Rally when offered, heal or strengthen with items and spells, else ``done``."""
        char = state.chars.get(decision.subject)
        done = next((o for o in decision.options if o.kind == "done"), None)
        if char is None:
            return done
        key = (state.turn, char.id)
        tries = self._utility[key] = self._utility.get(key, 0) + 1
        if tries > UTILITY_TRIES:
            return done
        best: tuple[float, Order | None] = (0.15, done)
        for option in decision.options:
            if option.kind == "rally":
                return option
            if option.kind == "use":
                value = self._item_value(state, char, option)
            elif option.kind == "cast":
                value = self._spell_value(state, char, option)
            else:
                continue
            if value > best[0]:
                best = (value, option)
        return best[1]

    def _item_value(self, state: WarbandState, char: Character, option: Order) -> float:
        item = next((it for it in char.items if it.name == str(option.args[0])), None)
        if item is None:
            return 0.0
        target = state.chars.get(str(option.args[1])) if len(option.args) > 1 else char
        target = target or char
        if item.heal:
            missing = target.max_wounds - target.wounds
            return 0.3 * min(item.heal, missing) * worth(target)
        if item.score and item.by > 0 and char.square is not None:
            return 0.2 if self._foes_at(state, char, char.square) else 0.0
        return 0.0

    def _spell_value(self, state: WarbandState, char: Character, option: Order) -> float:
        """Chance the Magic test passes times what the spell does (``cast SPELL ... LEVEL``)."""
        if not option.args:
            return 0.0
        spell = state.spells.get(str(option.args[0]))
        if spell is None:
            return 0.0
        level = str(option.args[-1]) if str(option.args[-1]) in LEVELS else "base"
        surge = level != "base"
        mods = [Mod("spell", spell.modifier, "WB-MAGIC-06")]
        if surge:
            mods.append(Mod("surge", -1, "WB-MAGIC-12"))
        chance = pass_chance(state, char, "magic", mods)
        target = None
        if len(option.args) > 2:
            target = state.chars.get(str(option.args[1]))
        effect = _effect_value(state, char, spell, target, level == "surge")
        if surge:
            effect -= 0.05 * max(0, char.attacks_left - 1)  # the lock stops further casts
            if level == "surge-plain":
                effect *= 0.9
        return chance * effect

    def _dispel(self, decision: Decision, state: WarbandState) -> Order | None:
        """Always stop an enemy spell, with the strongest Mage offered."""
        best: tuple[int, Order | None] = (-1, None)
        for option in decision.options:
            if option.kind != "dispel" or not option.args:
                continue
            mage = state.chars.get(str(option.args[0]))
            magic = mage.score("magic") if mage is not None else 0
            if magic > best[0]:
                best = (magic, option)
        return best[1]

    def _fate(self, decision: Decision, state: WarbandState) -> Order | None:
        """Fate Points serve only this battle: burn one whenever asked."""
        return next((o for o in decision.options if o.kind == "burn-fate"), None)


def _effect_value(state: WarbandState, char: Character, spell: Spell, target: Character | None,
                  surge: bool) -> float:
    """What a cast that passes does, on the worth scale of :func:`kill_value`."""
    if spell.attack is not None:
        strength = spell.attack.strength
        hits = spell.attack.hits
        if surge and spell.surge is not None:
            strength += spell.surge.strength
            hits += spell.surge.hits
        if target is None:
            return 0.3 * hits
        if target.side == char.side or target.square is None or char.square is None:
            return -1.0
        profile = AttackProfile(spell.name, strength, spell.attack.penetration, magic=True,
                                auto_hit=True, skill="magic")
        spell_type = spell.attack.type
        if spell_type == "melee":
            circ = melee_circumstances(state, char, target, spell=spell_type)
        else:
            circ = ranged_circumstances(state, char, target, spell=spell_type)
        return kill_value(target, hits * expected_wounds(state, char, target, profile, circ))
    effect = spell.effect
    friend = target is None or target.side == char.side
    whom = target or char
    value = 0.0
    if effect.heal and friend:
        value += 0.3 * min(effect.heal, whom.max_wounds - whom.wounds) * worth(whom)
    if effect.score and effect.by:
        value += 0.15 if (effect.by > 0) == friend else -0.15
    if effect.teleport:
        value += 0.05
    return value


def is_shooter(char: Character) -> bool:
    """A character that does more with its ranged weapons than in melee."""
    if char.routing:
        return False
    ranged = [w for w in char.ranged_weapons() if w.range]
    return bool(ranged) and char.score("ranged") >= char.score("melee") - 1


def _weapon(char: Character, name: str) -> Weapon | None:
    return next((w for w in char.weapons if w.name == name), None)


__all__ = ["WarbandAI", "is_shooter"]
