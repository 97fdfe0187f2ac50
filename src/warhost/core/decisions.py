"""Decisions: a question the rules put to one side, with the legal orders to choose from."""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from warhost.core.orders import Order


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why an order is not a legal answer: a short reason and, where one applies, the ID of
    the catalog rule it breaks. Its text is ``reason (RULE-ID)``.

    Example:
        >>> str(Refusal("7 squares, an Infantry unit moves at most 6", "FB-MOVE-01"))
        '7 squares, an Infantry unit moves at most 6 (FB-MOVE-01)'
    """

    reason: str
    rule: str | None = None

    def __str__(self) -> str:
        return f"{self.reason} ({self.rule})" if self.rule else self.reason


Acceptor = Callable[[Order], "Order | Refusal | None"]
"""Judges an order that is not among a decision's listed options (an *open* decision, such as a
move to any point): the legal order it stands for, a :class:`Refusal`, or None (no opinion:
the ruleset's explanation hook then says why)."""

_NO_INFO: Any = object()  # marks "no info given": each decision then gets its own dict
_UNSET: Any = object()  # a lazy default not worked out yet


@dataclass(frozen=True)
class Decision:
    """A choice for ``side``. ``options`` holds every legal order; the engine enforces them.

    ``kind`` names the sort of choice (``activate``, ``move``, ``attack``, ``fate`` ...) and
    ``subject`` the unit it concerns, if any. ``info`` carries plain data a commander may use.
    ``default`` is what a script that does not address this decision gets.
    ``accept``, when given, makes the decision *open*: orders beyond the listed options (a move
    to any point, say) are judged by it (see :data:`Acceptor`).

    Commanders that need only one option (or only their number) can use :attr:`option_count`
    and :meth:`option`: with a :class:`LazyDecision` these build no other option.
    """

    side: str
    kind: str
    options: tuple[Order, ...]
    prompt: str = ""
    subject: str = ""
    default: Order | None = None
    info: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)
    accept: Acceptor | None = field(default=None, compare=False, hash=False)

    def __init__(
        self,
        side: str,
        kind: str,
        options: tuple[Order, ...],
        prompt: str = "",
        subject: str = "",
        default: Order | None = None,
        info: dict[str, Any] = _NO_INFO,
        accept: Acceptor | None = None,
    ) -> None:
        # What the generated __init__ of a frozen dataclass does, written straight into the
        # instance dict (decisions are made hundreds of times a battle).
        fields = self.__dict__
        fields["side"] = side
        fields["kind"] = kind
        fields["options"] = options
        fields["prompt"] = prompt
        fields["subject"] = subject
        fields["default"] = default
        fields["info"] = {} if info is _NO_INFO else info
        fields["accept"] = accept

    @property
    def option_count(self) -> int:
        """How many legal options there are."""
        return len(self.options)

    def option(self, index: int) -> Order:
        """The option at ``index`` (in the order of :attr:`options`)."""
        return self.options[index]

    def offers(self, order: Order) -> bool:
        """Whether ``order`` is one of the option objects themselves (an identity check)."""
        return any(o is order for o in self.options)

    def find(self, order: Order | str) -> Order | None:
        """The legal option equal to ``order`` (given as an Order or its text), or None."""
        wanted = Order.parse(order) if isinstance(order, str) else order
        for option in self.options:
            if option == wanted:
                return option
        return None


class LazyDecision(Decision):
    """A :class:`Decision` whose options are built only when asked for.

    ``make(i)`` builds option ``i`` of ``count``; each is built once and then kept, so the same
    index always gives the same object. Reading :attr:`options` builds them all (anything written
    against plain decisions keeps working); :attr:`option_count`, :meth:`option` and
    :meth:`find` do not. ``locate(order)``, if given, names the only index where an option equal
    to ``order`` could be (None: look through all of them), so :meth:`find` stays cheap.
    ``default_of()``, if given instead of ``default``, works out the default when it is first
    read (many commanders never read it).

    Example:
        >>> d = LazyDecision("A", "move", 3, lambda i: Order.of("move", i, 0))
        >>> d.option_count, str(d.option(2))
        (3, 'move 2 0')
        >>> d.find("move 1 0") == Order.of("move", 1, 0), d.find("move 5 0")
        (True, None)
        >>> LazyDecision("A", "move", 3, lambda i: Order.of("move", i, 0),
        ...              default_of=lambda: Order.of("move", 0, 0)).default
        Order(kind='move', args=(0, 0))
    """

    _count: int
    _make: Callable[[int], Order]
    _locate: Callable[[Order], int | None] | None
    _default: Order | None
    _default_of: Callable[[], Order | None] | None
    _made: dict[int, Order]
    _all: tuple[Order, ...] | None

    def __init__(
        self,
        side: str,
        kind: str,
        count: int,
        make: Callable[[int], Order],
        prompt: str = "",
        subject: str = "",
        default: Order | None = None,
        info: dict[str, Any] | None = None,
        locate: Callable[[Order], int | None] | None = None,
        default_of: Callable[[], Order | None] | None = None,
        accept: Acceptor | None = None,
    ) -> None:
        fields = self.__dict__  # as in Decision.__init__
        fields["side"] = side
        fields["kind"] = kind
        fields["prompt"] = prompt
        fields["subject"] = subject
        fields["_default"] = _UNSET if default_of is not None else default
        fields["_default_of"] = default_of
        fields["info"] = {} if info is None else info
        fields["accept"] = accept
        fields["_count"] = count
        fields["_make"] = make
        fields["_locate"] = locate
        fields["_made"] = {}
        fields["_all"] = None

    @property  # type: ignore[misc]
    def default(self) -> Order | None:  # type: ignore[override]
        """The default order (worked out now if ``default_of`` was given and it is not yet)."""
        found: Order | None = self.__dict__["_default"]
        if found is _UNSET:
            make = self._default_of
            assert make is not None
            found = make()
            object.__setattr__(self, "_default", found)
        return found

    @property  # type: ignore[misc]
    def options(self) -> tuple[Order, ...]:  # type: ignore[override]
        """Every option, built now if not yet."""
        every: tuple[Order, ...] | None = self.__dict__["_all"]
        if every is None:
            option = self.option
            every = tuple(option(i) for i in range(self._count))
            object.__setattr__(self, "_all", every)
        return every

    @property
    def option_count(self) -> int:
        return self._count

    def option(self, index: int) -> Order:
        count = self._count
        if index < 0:
            index += count
        if not 0 <= index < count:
            raise IndexError(f"option {index} of {count}")
        made: dict[int, Order] = self._made
        found = made.get(index)
        if found is None:
            found = made[index] = self._make(index)
        return found

    def offers(self, order: Order) -> bool:
        return any(o is order for o in self._made.values())

    def find(self, order: Order | str) -> Order | None:
        wanted = Order.parse(order) if isinstance(order, str) else order
        if self._locate is not None:
            index = self._locate(wanted)
            if index is not None:
                if 0 <= index < self._count:
                    option = self.option(index)
                    if option == wanted:
                        return option
                return super().find(wanted)
        return super().find(wanted)


def describe_decision(decision: Decision) -> str:
    """The decision in a few words, for messages: ``move of g-spear-1 (Good)``."""
    about = f" of {decision.subject}" if decision.subject else ""
    return f"{decision.kind}{about} ({decision.side})"


def generic_refusal(decision: Decision, order: Order) -> Refusal:
    """Why ``order`` is not legal, when the ruleset has nothing more precise to say."""
    options = decision.options
    kinds = sorted({option.kind for option in options})
    if order.kind not in kinds:
        article = "an" if order.kind[:1].lower() in ("a", "e", "i", "o", "u") else "a"
        return Refusal(f"{article} {order.kind!r} order does not answer this decision, which takes "
                       f"{' or '.join(repr(k) for k in kinds)}")
    same = [str(option) for option in options if option.kind == order.kind]
    shown = ", ".join(same[:6]) + (f" and {len(same) - 6} more" if len(same) > 6 else "")
    return Refusal(f"not one of the legal {order.kind} orders here ({shown})")


def not_offered(decision: Decision, order: Order, rule: str | None) -> Refusal:
    """The refusal of an order of an offered kind that is not among the options: the first
    few legal orders of that kind are shown (none offered: says so)."""
    same = [str(o) for o in decision.options if o.kind == order.kind]
    if not same:
        return Refusal(f"no {order.kind} order is open here", rule)
    shown = ", ".join(same[:6]) + (f" and {len(same) - 6} more" if len(same) > 6 else "")
    return Refusal(f"'{order}' is not one of the legal {order.kind} orders here ({shown})", rule)


def did_you_mean(name: str, candidates: Iterable[str]) -> str:
    """``; did you mean X?`` for the candidate closest to a mistyped ``name`` (or nothing)."""
    close = difflib.get_close_matches(name, sorted(set(candidates)), n=1, cutoff=0.5)
    return f"; did you mean {close[0]}?" if close else ""
