"""Battle seeds: battle ``i`` of a run with master seed ``m`` always gets the same seed.

The seed depends only on ``(m, i)``, never on how many workers ran the battles, how the
battles were cut into batches, or whether the run was interrupted and resumed.
"""

from __future__ import annotations

import numpy as np

_MASK = (1 << 63) - 1


def battle_seed(master: int, index: int) -> int:
    """Battle ``index``'s seed: the first 63 bits drawn from
    ``numpy.random.SeedSequence(master, spawn_key=(index,))`` (a non-negative int < 2**63).

    Example:
        >>> battle_seed(0, 0) == battle_seed(0, 0) != battle_seed(0, 1)
        True
    """
    if master < 0 or index < 0:
        raise ValueError("the master seed and the battle index must not be negative")
    state = np.random.SeedSequence(master, spawn_key=(index,)).generate_state(1, np.uint64)
    return int(state[0]) & _MASK


def battle_seeds(master: int, indices: list[int]) -> list[int]:
    """The seeds of several battles (as :func:`battle_seed` for each index)."""
    return [battle_seed(master, i) for i in indices]
