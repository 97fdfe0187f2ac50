"""Decisions: a question the rules put to one side, with the legal orders to choose from."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from warhost.core.orders import Order


_NO_INFO: Any = object()  # marks "no info given": each decision then gets its own dict


@dataclass(frozen=True)
class Decision:
    """A choice for ``side``. ``options`` holds every legal order; the engine enforces them.

    ``kind`` names the sort of choice (``activate``, ``move``, ``attack``, ``fate`` ...) and
    ``subject`` the unit it concerns, if any. ``info`` carries plain data a commander may use.
    ``default`` is what a script that does not address this decision gets.

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

    def __init__(
        self,
        side: str,
        kind: str,
        options: tuple[Order, ...],
        prompt: str = "",
        subject: str = "",
        default: Order | None = None,
        info: dict[str, Any] = _NO_INFO,
    ) -> None:
        # What the generated __init__ of a frozen dataclass does, writing the instance dict
        # directly (decisions are made hundreds of times a battle).
        fields = self.__dict__
        fields["side"] = side
        fields["kind"] = kind
        fields["options"] = options
        fields["prompt"] = prompt
        fields["subject"] = subject
        fields["default"] = default
        fields["info"] = {} if info is _NO_INFO else info

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

    Example:
        >>> d = LazyDecision("A", "move", 3, lambda i: Order.of("move", i, 0))
        >>> d.option_count, str(d.option(2))
        (3, 'move 2 0')
        >>> d.find("move 1 0") == Order.of("move", 1, 0), d.find("move 5 0")
        (True, None)
    """

    _count: int
    _make: Callable[[int], Order]
    _locate: Callable[[Order], int | None] | None
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
    ) -> None:
        self.__dict__.update(
            side=side, kind=kind, prompt=prompt, subject=subject, default=default,
            info={} if info is None else info, _count=count, _make=make, _locate=locate,
            _made={}, _all=None,
        )

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
