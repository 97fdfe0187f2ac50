"""The class war rules (W4-CLASS-04 to 24, W4-AMB-84 to 86, W4-DEC-32): one small function
per rule, asked by the rule code at the narrowest point (courage, the AC a unit is hit
against, attack bonuses and dice), plus the two choices made in play (a druid's beast form,
a barbarian's Devastating Rampage).

A character's class rule concerns the unit he is part of: his own one-model unit while he
is alone, or the unit he has joined (:func:`members`). His class options come from his
scenario entry (``Character.options``, W4-DEC-32). Every function returns at once when the
battle has no characters, so battles without them cost what they did.

Where the rule code asks: :func:`courage_bonus_from`, :func:`courage_reroll` and
:func:`stubborn_from_bard` in psychology's courage bonus, courage test and panic DC;
:func:`causes_fear` in ``psychology.causes``; :func:`defense_bonus` wherever a unit is hit
(shooting, area bursts, close combat); :func:`attack_modifier` on the attack bonus of shots,
bursts and close combat blows; :func:`extra_attacks` and :func:`spirit_strike` on a lone
character's shots and blows (``melee.class_blows``), and :func:`rampage` after any blow made
by a character (``melee.Blow.who``). The attacks a joined character makes himself use the
same functions with ``character=`` given; :func:`reach_ignored` says whether a character may
be attacked out of reach.
"""

from __future__ import annotations

from collections.abc import Sequence

from warhost.core.battle import Battle
from warhost.core.errors import fail
from warhost.core.metering import GEOMETRY, count
from warhost.core.orders import Order
from warhost.geometry.table import Tray, tray_gap
from warhost.rulesets.dnd4e_war.model import CharacterSpec, Dnd4eWarScenario, Power, UnitSpec
from warhost.rulesets.dnd4e_war.setup import layout, profile_of
from warhost.rulesets.dnd4e_war.state import Character, Unit, WarState
from warhost.rulesets.dnd4e_war.tables import BARD_COURAGE, hits, needed_score

AURA = 6.0
"""W4-CLASS-08/19: the bard's and the sorcerer's 6-inch reach."""
MIGHTY_DEFENDER = 2
"""W4-CLASS-11/21: what a joined fighter or warden adds to the unit's AC."""
COMBAT_ADVANTAGE = 2
"""W4-AMB-86: combat advantage is +2 to attack rolls."""
DISRUPTION = 2
"""W4-CLASS-19: the penalty Magic Disruption puts on arcane attack rolls."""
CONTACT = 1e-6
"""Trays this close (inches) are in base-to-base contact."""

CLASS_SOURCE = {
    "avenger": "divine", "cleric": "divine", "invoker": "divine", "paladin": "divine",
    "barbarian": "primal", "druid": "primal", "shaman": "primal", "warden": "primal",
    "bard": "arcane", "sorcerer": "arcane", "swordmage": "arcane", "warlock": "arcane",
    "wizard": "arcane", "fighter": "martial", "ranger": "martial", "rogue": "martial",
}
"""The 4e power source of each class: a character's power without a source keyword has
his class's source (W4-CLASS-19/24)."""
SOURCES = frozenset({"arcane", "divine", "martial", "primal", "psionic", "shadow"})

ACTED = "class_acted"
"""``state.extra`` key: (turn, ids of the units that made charge or close combat attacks
in that turn) for First Strike (W4-CLASS-17)."""
RAMPAGED = "class_rampaged"
"""``state.extra`` key: character id -> the turn of his last Rampage (once a round)."""
DEVASTATED = "class_devastated"
"""``state.extra`` key: the barbarians who have used Devastating Rampage (once a battle)."""


# ---------------------------------------------------------------------- who and where
def members(state: WarState, unit: Unit) -> list[Character]:
    """The characters whose class rules work on ``unit``: the character himself when it is
    his own unit, and those who have joined it; the slain and those sent to the rear by a
    declined challenge give nothing (W4-CHAL-07)."""
    if not state.characters:
        return []
    found = [unit.character] if unit.character is not None else []
    found += state.characters_in(unit)
    return [c for c in found if not c.slain and not c.at_rear]


def _of_class(state: WarState, unit: Unit, *names: str) -> list[Character]:
    return [c for c in members(state, unit) if c.character_class in names]


def located(state: WarState, character: Character) -> Unit | None:
    """The unit on the table that ``character`` is part of (his host, or his own unit)."""
    if character.slain:
        return None
    unit = state.units[character.host] if character.host else state.units.get(character.id)
    return unit if unit is not None and unit.alive else None


def standing(state: WarState, character: Character) -> list[Tray]:
    """Where ``character`` stands: his own base, or inside a unit the tray of its command
    company, where joined characters stand (W4-CHAR-04), else the whole unit."""
    unit = located(state, character)
    if unit is None:
        return []
    trays = unit.trays()
    slot = unit.command_slot
    if character.host and not unit.skirmish and slot is not None and slot < len(trays):
        return [trays[slot]]
    return trays


def _within(state: WarState, character: Character, unit: Unit, reach: float) -> bool:
    mine, theirs = standing(state, character), unit.trays()
    if not mine or not theirs:
        return False
    count(GEOMETRY, len(mine) * len(theirs))
    return min(tray_gap(a, b) for a in mine for b in theirs) <= reach + 1e-9


def _alive_of(state: WarState, side: str | None, name: str) -> list[Character]:
    return [c for c in state.characters.values() if c.character_class == name
            and not c.slain and not c.at_rear and (side is None or c.side == side)]


# ---------------------------------------------------------------------- courage
def courage_bonus_from(state: WarState, unit: Unit) -> int:
    """W4-CLASS-07, W4-AMB-41: +2 to courage checks while a bard is in the unit (or is the
    unit); a unit that already has the bard or songweaver +2 does not add it again."""
    if not state.characters or unit.rule("bard") or unit.rule("songweaver"):
        return 0
    return BARD_COURAGE if _of_class(state, unit, "bard") else 0


def stubborn_from_bard(state: WarState, unit: Unit) -> bool:
    """W4-CLASS-08: the bard and every ally within 6" of him are stubborn."""
    if not state.characters:
        return False
    return any(_within(state, bard, unit, AURA) for bard in _alive_of(state, unit.side, "bard"))


def courage_reroll(state: WarState, unit: Unit) -> tuple[Character, str] | None:
    """W4-CLASS-09/12: the cleric or invoker (and the rule) whose presence lets ``unit``
    re-roll a failed courage check, or None."""
    for c in _of_class(state, unit, "cleric", "invoker"):
        return c, "W4-CLASS-09" if c.character_class == "cleric" else "W4-CLASS-12"
    return None


def causes_fear(state: WarState, unit: Unit) -> bool:
    """W4-CLASS-10, W4-CHAR-22: a druid in beast form causes fear, and so does the unit he
    is in (the form is a marker, W4-AMB-86)."""
    return any(c.options.get("beast_form") for c in _of_class(state, unit, "druid"))


# ---------------------------------------------------------------------- defense
def ac_bonus(state: WarState, unit: Unit, exclude: Character | None = None) -> int:
    """W4-CLASS-11/21: +2 to the AC of a unit a fighter or warden has joined (once, however
    many), W4-CLASS-20, W4-AMB-86: plus the best Swordmage Warding among joined swordmages.
    A lone character's own unit gains nothing (his sheet's AC has his own feature);
    ``exclude``: a character in the unit whose own contribution does not count (for his
    own AC)."""
    if not state.characters or not unit.joined:
        return 0
    joined = [c for c in members(state, unit) if c.host == unit.id and c is not exclude]
    bonus = MIGHTY_DEFENDER if any(c.character_class in ("fighter", "warden")
                                   for c in joined) else 0
    return bonus + max((int(c.options.get("warding_ac", 0)) for c in joined
                        if c.character_class == "swordmage"), default=0)


def defense_bonus(state: WarState, unit: Unit, vs: str) -> int:
    """What class rules add to the defense ``vs`` of ``unit`` (only AC, see
    :func:`ac_bonus`)."""
    return ac_bonus(state, unit) if vs == "ac" and state.characters else 0


# ---------------------------------------------------------------------- attack rolls
def is_arcane(power: Power, character: Character | None = None) -> bool:
    """A power is arcane when it has the arcane keyword, or when it names no power source
    and belongs to a character of an arcane class (W4-CLASS-19/24)."""
    keys = {k.lower() for k in power.keywords}
    if "arcane" in keys:
        return True
    if keys & SOURCES or character is None:
        return False
    return CLASS_SOURCE.get(character.character_class or "") == "arcane"


def user_of(unit: Unit, character: Character | None) -> Character | None:
    """The character using a power: the one named, or the unit's own character."""
    return character if character is not None else unit.character


def disruption(state: WarState, unit: Unit, power: Power,
               character: Character | None = None) -> int:
    """W4-CLASS-19, W4-AMB-85: -2 to an arcane power used within 6" of a sorcerer, friend or
    foe, unless it is that sorcerer's own (several sorcerers: once)."""
    if not state.characters:
        return 0
    user = user_of(unit, character)
    if not is_arcane(power, user):
        return 0
    for sorcerer in _alive_of(state, None, "sorcerer"):
        if sorcerer is not user and _within(state, sorcerer, unit, AURA):
            return -DISRUPTION
    return 0


def acted(state: WarState) -> set[str]:
    """The units that have made charge or close combat attacks this turn (W4-CLASS-17)."""
    entry = state.extra.get(ACTED)
    if not isinstance(entry, tuple) or entry[0] != state.turn:
        entry = (state.turn, set())
        state.extra[ACTED] = entry
    found: set[str] = entry[1]
    return found


def mark_acted(state: WarState, uid: str) -> None:
    """``uid`` has made its attacks in this turn's round of combat."""
    if state.characters:
        acted(state).add(uid)


def first_strike(state: WarState, unit: Unit, target: Unit,
                 character: Character | None = None) -> int:
    """W4-CLASS-17, W4-AMB-86: a rogue has combat advantage (+2) against a unit that has not
    yet made its attacks in this turn's round of combat."""
    user = user_of(unit, character)
    if user is None or user.character_class != "rogue":
        return 0
    return 0 if target.id in acted(state) else COMBAT_ADVANTAGE


def attack_modifier(state: WarState, unit: Unit, power: Power, target: Unit, *,
                    character: Character | None = None, melee: bool = False) -> int:
    """What class rules add to the attack rolls of ``unit`` (or of ``character`` in it)
    using ``power`` on ``target``: Magic Disruption, and in close combat First Strike."""
    if not state.characters:
        return 0
    modifier = disruption(state, unit, power, character)
    if melee:
        modifier += first_strike(state, unit, target, character)
    return modifier


# ---------------------------------------------------------------------- extra attacks
def weapon_power(power: Power) -> bool:
    """A weapon attack: the weapon keyword, or [W] damage."""
    return "weapon" in {k.lower() for k in power.keywords} or "[W]" in power.damage.upper()


def extra_attacks(state: WarState, battle: Battle, character: Character, unit: Unit,
                  power: Power, target: Unit, *, shooting: bool, multiattack: bool) -> int:
    """The extra attacks ``character``'s class gives him with ``power`` on ``target``:
    Rapid Shot (W4-CLASS-14, W4-AMB-84) and Dance of Blades (W4-CLASS-15) by fighting style,
    Quickspell with a ranged arcane multiattack (W4-CLASS-24), Mass Curse in a multiattack on
    the cursed unit (W4-CLASS-23). Each one used is told as a ``class_extra_attack``."""
    found = []
    name = character.character_class
    style = character.options.get("fighting_style")
    if name == "ranger" and weapon_power(power):
        if shooting and style == "archer" and power.kind == "ranged":
            found.append(("Rapid Shot", "W4-CLASS-14"))
        if not shooting and style == "two_blade" and power.kind == "melee":
            found.append(("Dance of Blades", "W4-CLASS-15"))
    if (name == "wizard" and multiattack and power.kind == "ranged"
            and is_arcane(power, character)):
        found.append(("Quickspell", "W4-CLASS-24"))
    if name == "warlock" and multiattack and character.options.get("cursed_unit") == target.id:
        found.append(("Mass Curse", "W4-CLASS-23"))
    for feature, rule in found:
        battle.emit("class_extra_attack", character=character.id, unit=unit.id,
                    target=target.id, feature=feature, attacks=1, rule=rule)
    return len(found)


def spirit_power(character: Character, powers: Sequence[Power], kind: str) -> Power | None:
    """W4-CLASS-18, W4-DEC-32: the shaman's chosen at-will spirit power of ``kind`` among
    ``powers`` (None: none chosen, or not one he may use so)."""
    wanted = character.options.get("spirit_power")
    for p in powers:
        if (p.name == wanted and p.kind == kind and p.usage == "at-will"
                and "spirit" in {k.lower() for k in p.keywords}):
            return p
    return None


def spirit_strike(state: WarState, character: Character, unit: Unit, power: Power,
                  multiattack: bool, kind: str) -> Power | None:
    """W4-CLASS-18: the spirit power a shaman uses once besides a multiattack made with a
    power that lacks the spirit keyword (``kind``: melee in close combat, ranged when
    shooting), or None."""
    if character.character_class != "shaman" or not multiattack:
        return None
    if "spirit" in {k.lower() for k in power.keywords}:
        return None
    return spirit_power(character, unit.profile.powers if unit.character is character
                        else state.units[character.id].profile.powers, kind)


def strike_with_spirit(state: WarState, battle: Battle, character: Character, unit: Unit,
                       power: Power, target: Unit, ac: int, bonus: int) -> int:
    """Roll the shaman's one spirit power attack (``bonus``: the class and situation
    modifiers besides the power's own); returns its hits."""
    faces = list(battle.dice.pool(1, 20, f"{character.id} spirit strike"))
    needed = needed_score(ac, power.bonus + bonus, True)
    scored = hits(faces, needed)
    battle.emit("class_spirit_strike", character=character.id, unit=unit.id,
                target=target.id, power=power.name, needed=needed, faces=list(faces),
                hits=scored, rule="W4-CLASS-18")
    return scored


# ---------------------------------------------------------------------- reach
def reach_ignored(state: WarState, attacker: Character, target: Character) -> bool:
    """W4-CLASS-05/16: the avenger against his Oath of Enmity target, or the rogue against
    any character, may attack him in melee out of reach while the attacker's unit is in
    base-to-base contact with the enemy unit that contains him."""
    if target.host is None or attacker.side == target.side or target.slain:
        return False
    name = attacker.character_class
    if not (name == "rogue" or (name == "avenger"
                                and attacker.options.get("oath_target") == target.id)):
        return False
    mine, host = located(state, attacker), state.units[target.host]
    if mine is None or not host.alive:
        return False
    count(GEOMETRY)
    return state.gap(mine, host) <= CONTACT


# ---------------------------------------------------------------------- rampage
def basic_attack(powers: Sequence[Power]) -> Power | None:
    """W4-CLASS-06: the barbarian's melee basic attack: the melee power with the basic
    keyword, else his first at-will melee power."""
    melee = [p for p in powers if p.kind == "melee"]
    for p in melee:
        if "basic" in {k.lower() for k in p.keywords}:
            return p
    return next((p for p in melee if p.usage == "at-will"), None)


def rampage(state: WarState, battle: Battle, character: Character, unit: Unit,
            target: Unit, faces: Sequence[int], ac: int, bonus: int,
            multiattack_dice: int) -> tuple[int, Power | None]:
    """Rampage (W4-CLASS-04): once a round, a natural 20 among the barbarian's own melee
    attack dice earns a free melee basic attack; once a battle, Devastating Rampage
    (W4-CLASS-06) makes it a multiattack of ``multiattack_dice`` basic attacks (asked as
    ``class_rampage`` when it is available). ``bonus``: the modifiers besides the power's.
    Returns the hits and the basic attack used."""
    if character.character_class != "barbarian" or 20 not in faces or not target.alive:
        return 0, None
    done: dict[str, int] = state.extra.setdefault(RAMPAGED, {})
    power = basic_attack(state.units[character.id].profile.powers)
    if done.get(character.id) == state.turn or power is None:
        return 0, None
    done[character.id] = state.turn
    used: list[str] = state.extra.setdefault(DEVASTATED, [])
    dice, devastating = 1, False
    if character.id not in used and multiattack_dice > 1:
        options = (Order.of("rampage", character.id, "multiattack"),
                   Order.of("rampage", character.id, "basic"))
        order = battle.ask(character.side, "class_rampage", options,
                           f"{character.name} rampages: a multiattack of basic attacks "
                           "(Devastating Rampage, once a battle) or a single basic attack?",
                           subject=character.id, default=options[0])
        if order == options[0]:
            dice, devastating = multiattack_dice, True
            used.append(character.id)
    rolled = list(battle.dice.pool(dice, 20, f"{character.id} rampage"))
    needed = needed_score(ac, power.bonus + bonus, True)
    scored = hits(rolled, needed)
    battle.emit("class_rampage", character=character.id, unit=unit.id, target=target.id,
                devastating=devastating, dice=dice, needed=needed, faces=list(rolled),
                hits=scored, rule="W4-CLASS-06" if devastating else "W4-CLASS-04")
    return scored, power


# ---------------------------------------------------------------------- the turn
def start_of_turn(state: WarState, battle: Battle) -> None:
    """W4-CLASS-10, W4-DEC-32, W4-AMB-86: each living druid's owner says whether he is in
    beast form this turn (the side with the initiative first)."""
    if not state.characters:
        return
    for side in state.order_of_sides():
        for druid in _alive_of(state, side, "druid"):
            if located(state, druid) is None:
                continue
            on = Order.of("beast_form", druid.id, "on")
            off = Order.of("beast_form", druid.id, "off")
            was = bool(druid.options.get("beast_form"))
            order = battle.ask(side, "class_beast_form", (on, off),
                               f"Is {druid.name} in beast form this turn?", subject=druid.id,
                               default=on if was else off)
            now = order == on
            if now != was:
                druid.options["beast_form"] = now
                battle.emit("class_beast_form", character=druid.id, on=now,
                            rule="W4-CLASS-10")


# ---------------------------------------------------------------------- scenario checks
OPTION_CLASS = {"fighting_style": "ranger", "oath_target": "avenger",
                "cursed_unit": "warlock", "beast_form": "druid", "spirit_power": "shaman",
                "warding_ac": "swordmage"}
"""W4-DEC-32: the class whose war rule each scenario option sets."""


def check_options(model: Dnd4eWarScenario) -> None:
    """W4-DEC-32: each class option belongs to its class and names something real: the
    oath target an enemy character, the cursed unit an enemy unit of 2 or more models
    (W4-CLASS-22), the spirit power one of the shaman's at-will spirit powers
    (W4-CLASS-18)."""
    for s, side in enumerate(model.sides):
        enemy = model.sides[1 - s]
        for c, spec in enumerate(side.characters):
            where = ("sides", s, "characters", c)
            for field, owner in OPTION_CLASS.items():
                if getattr(spec, field) and spec.character_class != owner:
                    fail(f"{field} is the {owner}'s war rule, and {spec.id} is "
                         f"{'a ' + spec.character_class if spec.character_class else 'classless'}"
                         " (W4-DEC-32)", *where, field)
            if spec.oath_target and spec.oath_target not in {e.id for e in enemy.characters}:
                fail(f"the oath target {spec.oath_target!r} is not a character of "
                     f"{enemy.name} (W4-CLASS-05)", *where, "oath_target")
            if spec.cursed_unit:
                _check_curse(model, enemy.units, spec.cursed_unit, (*where, "cursed_unit"))
            if spec.spirit_power and spirit_of(spec) is None:
                fail(f"{spec.spirit_power!r} is not an at-will power of {spec.id} with the "
                     "spirit keyword (W4-CLASS-18)", *where, "spirit_power")


def _check_curse(model: Dnd4eWarScenario, units: Sequence[UnitSpec], uid: str,
                 where: tuple[str | int, ...]) -> None:
    spec = next((u for u in units if u.id == uid), None)
    if spec is None:
        fail(f"the cursed unit {uid!r} is not an enemy unit (W4-CLASS-22)", *where)
    profile = profile_of(model, spec)
    columns, rows = layout(profile)
    full = spec.companies * (1 if profile.formation == "skirmish" else columns * rows)
    if (spec.models or full) < 2:
        fail(f"Mass Curse needs a unit of 2 or more models; {uid} has 1 (W4-CLASS-22)",
             *where)


def spirit_of(spec: CharacterSpec) -> Power | None:
    """The shaman's named spirit power, if it is an at-will power with the spirit keyword."""
    for p in spec.powers:
        if (p.name == spec.spirit_power and p.usage == "at-will"
                and "spirit" in {k.lower() for k in p.keywords}):
            return p
    return None
