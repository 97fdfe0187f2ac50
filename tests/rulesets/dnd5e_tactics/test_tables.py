"""The reference tables as the rules read them: the Tactics Track cells, the divisor table,
the stance cards, and that the rules keep one copy of each (tables.py, state.py)."""

from __future__ import annotations

import inspect

import pytest

from warhost.rulesets.dnd5e_tactics import combat, odds, tables
from warhost.rulesets.dnd5e_tactics.tables import (
    RANKS,
    STANCE_AC,
    STANCE_ATTACKERS,
    STANCE_MORALE,
    TACTICS,
    TRACKS,
    divisor,
    track_cell,
)

from .c_helpers import ctx_of, duo
from .helpers import unit

# The seed's table, transcribed row by row from the main text (ranks -3..+3).
SEED_TRACK = {
    "defensive": ["+2 AC, -2 Atk, -2 Dmg", "+2 AC, -2 Atk, -1 Dmg", "+ 2AC, -2 Atk",
                  "+2 AC, -2 Atk", "+2 AC, -2 Atk", "+2 AC, -1 Atk", "+2 AC"],
    "aggressive": ["+2 Atk, -2 AC, -2 Morale", "+2 Atk, -2 AC, -1 Morale", "+2 Atk, -2 AC",
                   "+2 Atk, -2 AC", "+2 Atk, -2 AC", "+2 Atk, -1 AC", "+2 Atk"],
    "supporting": ["+2 Morale, -1 Atk, -2 Dmg", "+2 Morale, -1 Atk, -1 Dmg",
                   "+2 Morale, -1 Atk", "+2 Morale, -1 Atk", "+2 Morale, -1 Atk",
                   "+4 Morale, -1 Atk", "+4 Morale"],
    "vicious": ["+2 Dmg, -1 AC, -2 Morale", "+2 Dmg, -1 AC, -1 Morale", "+2 Dmg, -1 AC",
                "+2 Dmg, -1 AC", "+2 Dmg, -1 AC", "+4 Dmg, -1 AC", "+4 Dmg"],
}

SEED_DIVISORS = [
    ("1-5", (2, 1, 1, 1, 1, 1)), ("6-12", (3, 2, 2, 2, 2, 1)), ("13-14", (5, 4, 3, 3, 2, 2)),
    ("15-16", (6, 5, 4, 4, 3, 2)), ("17-18", (7, 6, 5, 5, 4, 3)),
    ("19", (15, 10, 8, 8, 7, 6)), ("20", (20, 20, 20, 20, 15, 10)),
]


def parse_cell(text: str) -> dict[str, int]:
    """'+2 AC, -2 Atk' -> {'ac': 2, 'atk': -2}; the seed's '+ 2AC' slip reads as +2 AC."""
    out = {"ac": 0, "atk": 0, "dmg": 0, "morale": 0}
    for part in text.split(","):
        words = part.replace("+ 2AC", "+2 AC").split()
        out[words[1].lower()] = int(words[0])
    return out


@pytest.mark.rule("T5-TACTICS-01")
def test_four_tracks_of_seven_ranks() -> None:
    assert TRACKS == ("defensive", "aggressive", "supporting", "vicious")
    assert RANKS == (-3, -2, -1, 0, 1, 2, 3)
    assert all(len(TACTICS[t]) == 7 for t in TRACKS)


@pytest.mark.rule("T5-TACTICS-02", "T5-TACTICS-03", "T5-TACTICS-04", "T5-TACTICS-05",
                  "T5-TACTICS-06", "T5-AMB-01", "T5-REF-01")
@pytest.mark.parametrize("track", list(SEED_TRACK))
def test_every_cell_matches_the_seed(track: str) -> None:
    """Statistics a cell does not name are 0; Defensive -1 '+ 2AC' is +2 AC."""
    for rank, text in zip(RANKS, SEED_TRACK[track]):
        cell = track_cell(track, rank)
        assert {"ac": cell.ac, "atk": cell.atk, "dmg": cell.dmg, "morale": cell.morale} == \
            parse_cell(text), (track, rank)


@pytest.mark.rule("T5-TACTICS-03")
def test_defensive_row_in_words() -> None:
    row = TACTICS["defensive"]
    assert [c.ac for c in row] == [2] * 7
    assert [c.atk for c in row] == [-2, -2, -2, -2, -2, -1, 0]
    assert [c.dmg for c in row] == [-2, -1, 0, 0, 0, 0, 0]


@pytest.mark.rule("T5-TACTICS-04")
def test_aggressive_row_in_words() -> None:
    row = TACTICS["aggressive"]
    assert [c.atk for c in row] == [2] * 7
    assert [c.ac for c in row] == [-2, -2, -2, -2, -2, -1, 0]
    assert [c.morale for c in row] == [-2, -1, 0, 0, 0, 0, 0]


@pytest.mark.rule("T5-TACTICS-05")
def test_supporting_row_in_words() -> None:
    row = TACTICS["supporting"]
    assert [c.morale for c in row] == [2, 2, 2, 2, 2, 4, 4]
    assert [c.atk for c in row] == [-1, -1, -1, -1, -1, -1, 0]
    assert [c.dmg for c in row] == [-2, -1, 0, 0, 0, 0, 0]


@pytest.mark.rule("T5-TACTICS-06")
def test_vicious_row_in_words() -> None:
    row = TACTICS["vicious"]
    assert [c.dmg for c in row] == [2, 2, 2, 2, 2, 4, 4]
    assert [c.ac for c in row] == [-1, -1, -1, -1, -1, -1, 0]
    assert [c.morale for c in row] == [-2, -1, 0, 0, 0, 0, 0]


@pytest.mark.rule("T5-TACTICS-11", "T5-TACTICS-02")
@pytest.mark.parametrize(("track", "rank", "stance", "morale"), [
    ("supporting", 2, "close", 4 + 2), ("aggressive", -3, "open", -2 - 2),
    ("vicious", -2, "close", -1 + 2), ("defensive", 0, "open", 0 - 2),
])
def test_track_morale_modifier_reaches_the_unit(track: str, rank: int, stance: str,
                                                morale: int) -> None:
    ctx = ctx_of(duo({"track": track, "stance": stance}))
    a = unit(ctx, "a")
    a.rank = rank
    assert a.morale_modifier == morale


@pytest.mark.rule("T5-ATTACK-07", "T5-REF-01", "T5-AMB-01")
def test_divisor_table_matches_the_seed_in_every_cell() -> None:
    for label, row in SEED_DIVISORS:
        low, _, high = label.partition("-")
        for needed in range(int(low), int(high or low) + 1):
            assert tuple(divisor(needed, face) for face in range(1, 7)) == row


@pytest.mark.rule("T5-REF-01")
def test_rules_modules_hold_no_copy_of_the_tables() -> None:
    """Combat and odds read ``tables``; neither spells out a divisor row or a track cell."""
    for module in (combat, odds):
        source = inspect.getsource(module)
        assert "(15, 10, 8, 8, 7, 6)" not in source
        assert "(20, 20, 20, 20, 15, 10)" not in source
        assert "TrackCell(" not in source
    assert combat.divisor is tables.divisor


@pytest.mark.rule("T5-REF-03", "T5-STANCE-01", "T5-STANCE-04")
def test_stance_cards() -> None:
    """Close: +1 AC, +2 Morale (and Follow-through); Open: -2 Morale, +10 max attacks."""
    assert STANCE_AC == {"close": 1, "open": 0}
    assert STANCE_MORALE == {"close": 2, "open": -2}
    assert STANCE_ATTACKERS["open"] - STANCE_ATTACKERS["close"] == 10
    assert STANCE_ATTACKERS["close"] == 20


@pytest.mark.rule("T5-AMB-01")
def test_typos_change_nothing() -> None:
    """The divisor table is read as "D20 Roll Needed"; the Defensive -1 cell as +2 AC."""
    assert track_cell("defensive", -1) == track_cell("defensive", 0)
