"""Whether this process compiles its hot loops with numba.

numba is a dependency, but a process may do without it (``WARHOST_NO_NUMBA=1`` saves the
~100 MB that numba and LLVM take in each process, and an environment without numba still
works): every compiled kernel of a ruleset has a plain Python or NumPy version that gives the
same answers. Kernel modules ask here once, at import.
"""

from __future__ import annotations

import os


def numba_wanted() -> bool:
    """False when the environment turns compiled kernels off (``WARHOST_NO_NUMBA=1``)."""
    return os.environ.get("WARHOST_NO_NUMBA", "") in ("", "0")


def numba_available() -> bool:
    """Whether kernels are compiled in this process: wanted, and numba imports."""
    if not numba_wanted():
        return False
    try:  # pragma: no cover - depends on the environment
        import numba  # noqa: F401
    except ImportError:  # pragma: no cover
        return False
    return True
