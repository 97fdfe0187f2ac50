"""The campaign record of `warband`: warbands, their characters' lasting effects and every
battle fought, kept in one SQLite file (WB-AMB-50, WB-INCIDENT, WB-SEVERE).

A character's roster entry is its scenario entry as it was recruited (no square or facing) plus
what happened to it since: Fate, a status (``ready``, ``dead``, ``captured``, ``retired``), the
Cycle it sits out until after being Incapacitated, and a list of lasting effects. An effect is
plain data: its name, the Cycles it is active in (``from``..``until``, ``until`` None for good),
score changes, flags the engine reads from the ``lasting`` block of a character (Frightened,
Humiliated, totally blind, Major Wound) and traits gained. :func:`fielded` turns an entry into
the character a battle fields; :func:`apply_incidents` turns a battle's ``incident`` events into
new effects and statuses. A fight changes the file in ONE transaction (:func:`save_battle`).
"""

from __future__ import annotations

import copy
import json
import sqlite3
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from warhost.core.errors import WarhostError

FORMAT = "warhost-campaign"
VERSION = 1
READY = "ready"
DEAD = "dead"
CAPTURED = "captured"
RETIRED = "retired"
FLAGS = ("worse_resolve", "resolve_dos_cut", "worse_agility", "start_wounds_zero",
         "one_hand", "scarred")
"""Flags of the scenario's ``lasting`` block (see :class:`~.model.Lasting`)."""
DEFAULTS = {"attacks": 1}
"""Scores a stat line may leave out that are not 0 then (see :class:`~.model.Stats`)."""

SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE warbands (name TEXT PRIMARY KEY, position INTEGER NOT NULL, stash TEXT NOT NULL);
CREATE TABLE characters (
    id TEXT PRIMARY KEY, warband TEXT NOT NULL REFERENCES warbands(name),
    position INTEGER NOT NULL, spec TEXT NOT NULL, fate INTEGER NOT NULL,
    status TEXT NOT NULL, out_until INTEGER NOT NULL, effects TEXT NOT NULL, lost TEXT NOT NULL
);
CREATE TABLE battles (
    number INTEGER PRIMARY KEY, cycle INTEGER NOT NULL, scenario_file TEXT NOT NULL,
    scenario_text TEXT NOT NULL, seed INTEGER NOT NULL, commanders TEXT NOT NULL,
    decisions TEXT NOT NULL, winner TEXT, replay TEXT NOT NULL
);
CREATE TABLE incidents (
    battle INTEGER NOT NULL REFERENCES battles(number), position INTEGER NOT NULL,
    who TEXT NOT NULL, result TEXT NOT NULL
);
"""


@dataclass
class Member:
    """One character on a warband's roster."""

    id: str
    warband: str
    spec: dict[str, Any]
    fate: int
    status: str = READY
    out_until: int = 0
    effects: list[dict[str, Any]] = field(default_factory=list)
    lost: list[dict[str, Any]] = field(default_factory=list)

    @property
    def kind(self) -> str:
        """``hero`` or ``minion``."""
        return str(self.spec["kind"])

    def available(self, cycle: int) -> bool:
        """Whether it can fight in an encounter of ``cycle``."""
        return self.status == READY and self.out_until < cycle


@dataclass
class Record:
    """A whole campaign, as read from its file."""

    path: str
    cycle: int = 0
    battles: int = 0
    warbands: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    members: dict[str, Member] = field(default_factory=dict)

    def roster(self, warband: str) -> list[Member]:
        """A warband's characters, in recruiting order."""
        return [m for m in self.members.values() if m.warband == warband]


# ------------------------------------------------------------------------------ effects


def active(effect: Mapping[str, Any], cycle: int) -> bool:
    """Whether an effect holds in an encounter of ``cycle``."""
    until = effect.get("until")
    return int(effect["from"]) <= cycle and (until is None or cycle <= int(until))


def lasting_effect(result: Mapping[str, Any], cycle: int,
                   prior: Sequence[Mapping[str, Any]] = ()) -> dict[str, Any] | None:
    """The lasting effect of one ``incident`` result in an encounter of ``cycle``, given the
    character's earlier effects (Blinded twice); None for a result that leaves nothing.

    Incident results last to the end of Cycle c+1, c+2 after Long Term (WB-INCIDENT-07/09,
    WB-AMB-50); Severe ones for good, except Major Wound: the next 1d3 Cycles (WB-SEVERE-02/04).
    """
    name = str(result["result"])
    if result["table"] in ("minion", "fate") or name == "minor_injury":
        return None
    if result["table"] == "incident":
        effect = _effect(name, cycle, cycle + int(result["cycles"]))
        scores, flags, traits = effect["scores"], effect["flags"], effect["traits"]
        if name == "weakened":
            scores["strength"] = -1
        elif name == "disorientated":
            scores.update(melee=-1, ranged=-1)
        elif name == "hobbled":
            scores["agility"] = -1
        elif name == "frightened":
            flags["worse_resolve"] = True
        elif name == "fatigued":
            scores.update(toughness=-1, wounds=-1)
            effect["floor"] = 1
        elif name == "confused":
            scores["insight"] = -1
            traits.append("stupidity")
        elif name == "humiliated":
            scores["resolve"] = -1
            flags["resolve_dos_cut"] = 2
        return effect
    effect = _effect(name, cycle, None)
    scores, flags, traits = effect["scores"], effect["flags"], effect["traits"]
    if name == "enmity":
        traits.append("hatred")
        effect["hatred_of"] = [t for t in (result.get("target"), result.get("warband")) if t]
    elif name == "hardened":
        traits.append("fearless")
    elif name == "scarred":
        traits.append("fear")
        flags["scarred"] = True
    elif name == "major_wound":
        cycles = int(result["major_cycles"])
        effect.update({"from": cycle + 1, "until": cycle + cycles, "cycles": cycles})
        flags["start_wounds_zero"] = True
    elif name == "limb_injury":
        limb = result["limb"]
        effect["limb"] = limb
        scores["agility" if limb == "leg" else "melee"] = -1
        if limb == "amputation":
            flags["one_hand"] = True
    elif name == "blinded":  # WB-SEVERE-06, WB-AMB-53
        before = [e for e in prior if e["name"] in ("blinded", "totally_blind")]
        if any(e["name"] == "totally_blind" for e in before):
            pass  # no further effect
        elif before:
            effect["name"] = "totally_blind"
            effect["set"] = {"ranged": 0}
            scores["melee"] = -1
            flags["worse_agility"] = True
        else:
            scores["ranged"] = -1
    return effect


def _effect(name: str, start: int, until: int | None) -> dict[str, Any]:
    return {"name": name, "from": start, "until": until, "scores": {}, "flags": {},
            "traits": []}


def current_stats(member: Member, cycle: int) -> dict[str, int]:
    """Its stat line in an encounter of ``cycle``: the recruited one with every active
    effect (Fatigued never takes a score below 1; scores stay within 0..20, Wounds >= 1)."""
    stats = {k: int(v) for k, v in member.spec["stats"].items()}
    fixed: dict[str, int] = {}
    for effect in member.effects:
        if not active(effect, cycle):
            continue
        floor = effect.get("floor")
        for score, by in effect["scores"].items():
            old = stats.get(score, DEFAULTS.get(score, 0))
            new = old + int(by)
            if floor is not None:
                new = max(new, min(old, int(floor)))
            stats[score] = new
        fixed.update(effect.get("set", {}))
    stats.update(fixed)
    for score, value in stats.items():
        low = 1 if score in ("wounds", "attacks") else 0
        stats[score] = min(20 if score != "fate" else 10, max(low, value))
    stats["fate"] = member.fate
    return stats


def current_flags(member: Member, cycle: int) -> dict[str, Any]:
    """The ``lasting`` block of a character in an encounter of ``cycle`` (empty: none)."""
    flags: dict[str, Any] = {}
    hatred: list[str] = []
    for effect in member.effects:
        if not active(effect, cycle):
            continue
        for key, value in effect["flags"].items():
            flags[key] = max(flags[key], value) if key in flags else value
        hatred.extend(t for t in effect.get("hatred_of", []) if t not in hatred)
    if hatred:
        flags["hatred_of"] = hatred
    return flags


def current_traits(member: Member, cycle: int) -> list[str]:
    """Its traits: recruited ones plus those its active effects give."""
    traits = list(member.spec.get("traits", []))
    for effect in member.effects:
        if active(effect, cycle):
            traits.extend(t for t in effect["traits"] if t not in traits)
    return traits


def fielded(member: Member, cycle: int, placed: Mapping[str, Any]) -> dict[str, Any]:
    """The scenario entry of ``member`` for an encounter of ``cycle``: its roster entry with
    lasting effects applied, standing where the fight's scenario ``placed`` it."""
    entry = copy.deepcopy(member.spec)
    entry["stats"] = current_stats(member, cycle)
    entry["traits"] = current_traits(member, cycle)
    for key in ("at", "facing"):
        if placed.get(key) is not None:
            entry[key] = placed[key]
    flags = current_flags(member, cycle)
    if flags:
        entry["lasting"] = flags
    return entry


def recruit(spec: Mapping[str, Any], warband: str) -> Member:
    """A roster entry from a scenario's character entry."""
    kept = {k: copy.deepcopy(v) for k, v in spec.items()
            if k not in ("at", "facing", "lasting")}
    fate = int(kept.get("stats", {}).get("fate", 0))
    return Member(str(spec["id"]), warband, kept, fate)


# ------------------------------------------------------------------------------ results


def apply_incidents(record: Record, results: Sequence[Mapping[str, Any]], cycle: int,
                    winner: str | None) -> None:
    """Write one battle's ``incident`` results into ``record`` (in memory)."""
    for result in results:
        member = record.members[str(result["who"])]
        name = str(result["result"])
        if name == "fate_burned":
            member.fate = int(result["fate_left"])  # WB-INCIDENT-05: no other effect
            continue
        member.out_until = max(member.out_until, cycle)  # ready at the next Cycle
        effect = lasting_effect(result, cycle, member.effects)
        if effect is not None:
            member.effects.append(effect)
        elif name not in ("recovers", "retired"):
            member.effects.append(_effect(name, cycle, cycle + int(result["cycles"])))
        if name == "from_the_fires":
            member.fate += 1
        elif name == "retired":  # WB-INCIDENT-03
            member.status = RETIRED
            _lose(member, result["lost"])
        elif name == "robbed":
            _lose(member, result["lost"])
        elif name in ("captured", "dead"):
            member.status = CAPTURED if name == "captured" else DEAD
            pieces = _equipment(member)
            if result["won"]:  # WB-SEVERE-07/08: the warband keeps or salvages it
                _lose(member, pieces, to="stash")
                record.warbands[member.warband].extend(
                    {**p, "from": member.id} for p in pieces)
            else:
                _lose(member, pieces, to=winner or "nobody (a draw)")


def _equipment(member: Member) -> list[dict[str, Any]]:
    spec = member.spec
    return ([{"type": "weapon", "name": w["name"]} for w in spec.get("weapons", [])]
            + [{"type": "armour", "name": a["name"]} for a in spec.get("armour", [])]
            + [{"type": "item", "name": i["name"]} for i in spec.get("items", [])])


def _lose(member: Member, pieces: Sequence[Mapping[str, Any]], to: str = "lost") -> None:
    """Take pieces of equipment off the roster entry; lost armour takes its value off the
    Armour score, which includes what is worn (WB-AMB-28)."""
    lists = {"weapon": "weapons", "armour": "armour", "item": "items"}
    for piece in pieces:
        held = member.spec.get(lists[str(piece["type"])], [])
        for index, entry in enumerate(held):
            if entry["name"] == piece["name"]:
                del held[index]
                if piece["type"] == "armour":
                    stats = member.spec["stats"]
                    stats["armour"] = max(0, int(stats.get("armour", 0)) -
                                          int(entry.get("value", 0)))
                member.lost.append({**piece, "to": to})
                break


# ------------------------------------------------------------------------------ the file


def _fail(path: str, message: str) -> WarhostError:
    return WarhostError(message, file=path)


@contextmanager
def connect(path: str | Path) -> Iterator[sqlite3.Connection]:
    """An open campaign file (it must exist); every SQLite failure is a one-line error."""
    source = str(path)
    if not Path(path).is_file():
        raise _fail(source, "no such campaign file")
    try:
        conn = sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=rw", uri=True,
                               isolation_level=None)
    except sqlite3.Error as exc:
        raise _fail(source, f"cannot open the campaign file: {exc}") from None
    try:
        yield conn
    except sqlite3.DatabaseError as exc:
        raise _fail(source, f"not a warhost campaign file ({exc})") from None
    finally:
        conn.close()


def create(path: str | Path, warbands: Mapping[str, Sequence[Mapping[str, Any]]]) -> None:
    """Write a new campaign file at ``path`` (which must not exist) with these rosters."""
    conn = sqlite3.connect(str(path), isolation_level=None)
    try:
        conn.executescript(SCHEMA)
        record = Record(str(path), warbands={name: [] for name in warbands})
        for name, specs in warbands.items():
            for spec in specs:
                record.members[str(spec["id"])] = recruit(spec, name)
        conn.execute("BEGIN")
        conn.executemany("INSERT INTO meta VALUES (?, ?)", [
            ("format", FORMAT), ("version", str(VERSION)), ("cycle", "0")])
        _write_rosters(conn, record)
        conn.execute("COMMIT")
    finally:
        conn.close()


def load(conn: sqlite3.Connection, path: str) -> Record:
    """The record in an open campaign file; a file that is not one is a clear error."""
    try:
        meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
    except sqlite3.DatabaseError as exc:
        raise _fail(path, f"not a warhost campaign file ({exc})") from None
    if meta.get("format") != FORMAT:
        raise _fail(path, f"not a warhost campaign file (no format {FORMAT!r})")
    if meta.get("version") != str(VERSION):
        raise _fail(path, f"campaign file version {meta.get('version')!r}; this warhost "
                          f"reads version {VERSION}")
    record = Record(path, cycle=int(meta["cycle"]))
    record.battles = int(conn.execute("SELECT COUNT(*) FROM battles").fetchone()[0])
    for name, stash in conn.execute("SELECT name, stash FROM warbands ORDER BY position"):
        record.warbands[name] = json.loads(stash)
    rows = conn.execute("SELECT id, warband, spec, fate, status, out_until, effects, lost "
                        "FROM characters ORDER BY position")
    for cid, warband, spec, fate, status, out_until, effects, lost in rows:
        record.members[cid] = Member(cid, warband, json.loads(spec), fate, status, out_until,
                                     json.loads(effects), json.loads(lost))
    return record


def _write_rosters(conn: sqlite3.Connection, record: Record) -> None:
    conn.execute("DELETE FROM characters")
    conn.execute("DELETE FROM warbands")
    conn.executemany("INSERT INTO warbands VALUES (?, ?, ?)", [
        (name, i, json.dumps(stash)) for i, (name, stash) in enumerate(record.warbands.items())])
    conn.executemany("INSERT INTO characters VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", [
        (m.id, m.warband, i, json.dumps(m.spec), m.fate, m.status, m.out_until,
         json.dumps(m.effects), json.dumps(m.lost))
        for i, m in enumerate(record.members.values())])


@dataclass
class Fought:
    """What one fight adds to the file."""

    cycle: int
    scenario_file: str
    scenario_text: str
    seed: int
    commanders: dict[str, str]
    decisions: list[dict[str, Any]]
    winner: str | None
    replay: str
    incidents: list[dict[str, Any]]


def save_battle(conn: sqlite3.Connection, record: Record, fought: Fought) -> int:
    """Store a battle and the rosters after it in ONE transaction: if anything fails, the
    file is left exactly as it was. Returns the battle's number."""
    number = record.battles + 1
    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.execute("INSERT INTO battles VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", (
            number, fought.cycle, fought.scenario_file, fought.scenario_text, fought.seed,
            json.dumps(fought.commanders), json.dumps(fought.decisions), fought.winner,
            fought.replay))
        _write_incidents(conn, number, fought.incidents)
        _write_rosters(conn, record)
        conn.execute("UPDATE meta SET value = ? WHERE key = 'cycle'", (str(fought.cycle),))
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    record.battles = number
    record.cycle = fought.cycle
    return number


def _write_incidents(conn: sqlite3.Connection, number: int,
                     incidents: Sequence[Mapping[str, Any]]) -> None:
    conn.executemany("INSERT INTO incidents VALUES (?, ?, ?, ?)", [
        (number, i, str(r["who"]), json.dumps(r)) for i, r in enumerate(incidents)])


def stored_replay(conn: sqlite3.Connection, path: str, number: int) -> str:
    """The replay text of battle ``number``."""
    row = conn.execute("SELECT replay FROM battles WHERE number = ?", (number,)).fetchone()
    if row is None:
        count = conn.execute("SELECT COUNT(*) FROM battles").fetchone()[0]
        raise WarhostError(f"no battle {number} in this campaign (it has {count})", file=path,
                           field="battle")
    return str(row[0])


def battle_rows(conn: sqlite3.Connection) -> list[tuple[int, int, str, int, str | None]]:
    """(number, cycle, scenario file, seed, winner) of every battle."""
    return [tuple(r) for r in conn.execute(  # type: ignore[misc]
        "SELECT number, cycle, scenario_file, seed, winner FROM battles ORDER BY number")]
