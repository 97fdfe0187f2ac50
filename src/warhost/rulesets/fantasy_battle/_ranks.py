"""A set of positions that answers "how many before" and "which is the k-th" in O(log n).

The game loop keeps its choices in these (the groups still to activate this round, the units
that may reform and the squads they may join), so a decision's options need not be listed:
a commander that picks by index gets the k-th member, found without a scan.

Example:
    >>> s = RankSet(8, [1, 4, 6])
    >>> len(s), s.kth(1), s.rank(6)
    (3, 4, 2)
    >>> s.discard(4); s.kth(1)
    6
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import compress
from typing import TypeVar

T = TypeVar("T")


class RankSet:
    """Positions ``0 .. size - 1`` (a Fenwick tree of 0/1 flags)."""

    __slots__ = ("_flags", "_size", "_top", "_tree", "total")

    def __init__(self, size: int, members: Iterable[int] = ()) -> None:
        self._size = size
        flags = bytearray(size)
        for i in members:
            flags[i] = 1
        tree = [0] * (size + 1)
        total = 0
        for i in range(1, size + 1):  # linear build: each node passes its sum to its parent
            if flags[i - 1]:
                tree[i] += 1
                total += 1
            parent = i + (i & -i)
            if parent <= size:
                tree[parent] += tree[i]
        self._flags = flags
        self._tree = tree
        self.total = total
        top = 1
        while top * 2 <= size:
            top *= 2
        self._top = top

    def __len__(self) -> int:
        return self.total

    def __contains__(self, i: int) -> bool:
        return bool(self._flags[i])

    def select(self, items: Sequence[T]) -> list[T]:
        """The ``items`` at the members' positions, in order (``items`` has ``size`` entries):
        every member at once, without a search per member."""
        return list(compress(items, self._flags))

    def _change(self, i: int, delta: int) -> None:
        tree = self._tree
        size = self._size
        i += 1
        while i <= size:
            tree[i] += delta
            i += i & -i
        self.total += delta

    def add(self, i: int) -> None:
        """Put position ``i`` in the set (no change if it is in already)."""
        if not self._flags[i]:
            self._flags[i] = 1
            self._change(i, 1)

    def discard(self, i: int) -> None:
        """Take position ``i`` out of the set (no change if it is not in)."""
        if self._flags[i]:
            self._flags[i] = 0
            self._change(i, -1)

    def rank(self, i: int) -> int:
        """How many members lie before position ``i``."""
        tree = self._tree
        found = 0
        while i > 0:
            found += tree[i]
            i -= i & -i
        return found

    def kth(self, k: int) -> int:
        """The position of the member with ``k`` members before it (0 <= k < len)."""
        return kth_of_union((self,), k)


def kth_of_union(sets: Sequence[RankSet], k: int) -> int:
    """The ``k``-th position (from 0) of the union of disjoint sets of the same size."""
    if not 0 <= k < sum(s.total for s in sets):
        raise IndexError(f"member {k} of {sum(s.total for s in sets)}")
    first = sets[0]
    size = first._size
    step = first._top
    trees = [s._tree for s in sets]
    pos = 0
    while step:
        nxt = pos + step
        if nxt <= size:
            here = 0
            for tree in trees:
                here += tree[nxt]
            if here <= k:
                pos = nxt
                k -= here
        step >>= 1
    return pos
