"""A list of legal orders built only when read (a Movement decision offers hundreds of
squares; a commander that picks by number needs one of them)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import overload

from warhost.core.orders import Order
from warhost.geometry.grid import Square


class OrderList(Sequence[Order]):
    """Orders in runs: plain orders, and ``KIND X Y`` over a list of squares."""

    def __init__(self, orders: Iterable[Order] = ()) -> None:
        self._runs: list[tuple[str | None, list[Order] | list[Square]]] = []
        self._starts: list[int] = []
        self._length = 0
        self.extend(orders)

    def extend(self, orders: Iterable[Order]) -> None:
        """Append plain orders."""
        items = list(orders)
        if items:
            self._add(None, items)

    def add_squares(self, kind: str, squares: list[Square]) -> None:
        """Append ``KIND X Y`` for each square, in order."""
        if squares:
            self._add(kind, squares)

    def _add(self, kind: str | None, items: list[Order] | list[Square]) -> None:
        self._runs.append((kind, items))
        self._starts.append(self._length)
        self._length += len(items)

    def __len__(self) -> int:
        return self._length

    @overload
    def __getitem__(self, index: int) -> Order: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Order]: ...

    def __getitem__(self, index: int | slice) -> Order | Sequence[Order]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._length))]
        if index < 0:
            index += self._length
        if not 0 <= index < self._length:
            raise IndexError(index)
        run = _bisect(self._starts, index)
        kind, items = self._runs[run]
        item = items[index - self._starts[run]]
        if kind is None:
            assert isinstance(item, Order)
            return item
        assert isinstance(item, tuple)
        return Order.of(kind, item[0], item[1])

    def __iter__(self) -> Iterator[Order]:
        for i in range(self._length):
            yield self[i]

    def locate(self, order: Order) -> int | None:
        """The index of the option equal to ``order``, or None."""
        for (kind, items), start in zip(self._runs, self._starts):
            if kind is None:
                for i, item in enumerate(items):
                    if item == order:
                        return start + i
            elif order.kind == kind and len(order.args) == 2:
                try:
                    sq = (int(order.args[0]), int(order.args[1]))
                except (TypeError, ValueError):
                    continue
                if Order.of(kind, *sq) != order:
                    continue
                squares: list[Square] = items  # type: ignore[assignment]
                try:
                    return start + squares.index(sq)
                except ValueError:
                    continue
        return None


def _bisect(starts: list[int], index: int) -> int:
    lo, hi = 0, len(starts) - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if starts[mid] <= index:
            lo = mid
        else:
            hi = mid - 1
    return lo
