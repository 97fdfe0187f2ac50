"""Grouped option lists for a person (:mod:`warhost.render.options`)."""

from __future__ import annotations

from warhost.core.decisions import Decision, LazyDecision
from warhost.core.orders import Order
from warhost.render.options import GROUP_ABOVE, LINE_WIDTH, option_listing


def grid_moves(width: int = 15, height: int = 10) -> Decision:
    """``hold`` and a move to every square of a ``width`` x ``height`` grid but (2, 3)."""
    moves = [Order.of("move", x, y) for y in range(height) for x in range(width)
             if (x, y) != (2, 3)]
    return Decision("A", "move", (Order.of("hold"), *moves), subject="a-1",
                    default=Order.of("hold"))


def text(decision: Decision, query: str | None = None, units: frozenset[str] = frozenset()) -> str:
    listed = option_listing(decision, query, units)
    assert listed is not None
    return listed


def test_a_short_decision_is_numbered_in_full() -> None:
    d = Decision("A", "attack", (Order.of("attack", "b1"), Order.of("no-attack")))
    assert text(d) == "  1. attack b1\n  2. no-attack"
    assert GROUP_ABOVE == 12


def test_150_grid_moves_are_one_summary_and_a_picture() -> None:
    d = grid_moves()
    assert d.option_count == 150
    lines = text(d).splitlines()
    assert len(lines) < 20
    assert lines[0].startswith("150 orders for a-1, by kind")
    assert lines[1] == "  1. hold"
    assert lines[2] == '  move (149): x 0-14, y 0-9; type "move X Y"'
    # rows north first, labelled like the text map so the columns line up with it
    assert lines[3] == "  9 " + "o" * 15
    assert "  3 oo.oooooooooooo" in lines
    assert lines[-2] == "    " + "012345678901234"
    assert lines[-1] == "  (Enter = hold)"


def test_question_mark_lists_everything_and_a_kind_or_a_unit() -> None:
    d = grid_moves()
    full = text(d, "")
    assert "1. hold" in full and "150. move 14 9" in full
    assert all(len(line) <= LINE_WIDTH for line in full.splitlines())
    moves = text(d, "move")
    assert moves.startswith("  move (149):")
    assert "1. hold" not in moves and "2. move 0 0" in moves
    assert option_listing(d, "charge") is None
    attacks = Decision("A", "attack", (Order.of("attack", "b1"), Order.of("attack", "b2"),
                                       Order.of("no-attack")))
    assert text(attacks, "b2") == "  b2 (1):\n    2. attack b2"


def test_table_destinations_are_summarised_with_numbered_samples() -> None:
    moves = [Order.of("move", f"{10 + i * 0.5:.1f},{5 + i % 3:.1f}", 90) for i in range(20)]
    dashes = [Order.of("dash", f"{20 + i:.1f},8.0", 90) for i in range(9)]
    d = Decision("Humans", "move", (Order.of("hold"), *moves, *dashes))
    lines = text(d).splitlines()
    assert '  move (20): x 10.0-19.5, y 5.0-7.0; type "move X,Y 90"' in lines
    assert '  dash (9): x 20.0-28.0, y 8.0; type "dash X,Y 90"' in lines
    samples = lines[lines.index('  move (20): x 10.0-19.5, y 5.0-7.0; type "move X,Y 90"') + 1]
    assert samples.startswith("    e.g. 2. move 10.0,5.0 90   ")
    assert all(len(line) <= LINE_WIDTH + 30 for line in lines)
    assert any("(? move lists all 20)" in line for line in lines)


def test_varying_extra_arguments_are_named() -> None:
    moves = [Order.of("move", f"{i}.0,1.0", facing) for i in range(5) for facing in (0, 90, 180)]
    d = Decision("A", "move", tuple(moves))
    assert '  move (15): x 0.0-4.0, y 1.0, N in 0, 90, 180; type "move X,Y N"' in text(d)


def test_orders_naming_units_are_grouped_by_that_unit() -> None:
    attacks = [Order.of("attack", weapon, target) for target in ("orcs", "goblins", "trolls")
               for weapon in ("melee", "ranged", "spear", "bow", "axe")]
    d = Decision("A", "unit_action", (Order.of("none"), *attacks))
    grouped = text(d, units=frozenset({"orcs", "goblins", "trolls", "mine"}))
    assert "  attack (15), by the unit named:" in grouped
    assert "    goblins (5): 7. attack melee goblins   8. attack ranged goblins" in grouped
    # without the unit ids the same orders are listed in columns
    plain = text(d)
    assert "by the unit named" not in plain
    assert "  attack (15):" in plain


def test_many_named_orders_fall_into_columns() -> None:
    targets = [Order.of("attack", f"u-skel-{i}") for i in range(1, 19)]
    d = Decision("A", "attack", (*targets, Order.of("no-attack")), subject="g-bow-4")
    lines = text(d).splitlines()
    assert lines[1] == "  attack (18):"
    assert lines[2].startswith("    1. attack u-skel-1 ")
    assert "19. no-attack" in lines[-1]
    assert len(lines) <= 10


def test_lazy_decisions_are_listed_too() -> None:
    d = LazyDecision("A", "move", 30, lambda i: Order.of("move", i % 6, i // 6))
    assert '  move (30): x 0-5, y 0-4; type "move X Y"' in text(d)
