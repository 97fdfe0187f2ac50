"""Number types shared by every ruleset's scenario model.

A scenario's numbers are *strict* (``true`` is not the number 1, ``3.0`` is not a whole
number), *finite* (``.nan`` and ``.inf`` are refused) and *bounded*: each field states the
least and the most it takes, so the JSON Schema shows the range and nothing read from a file
can make the engine build a list or roll a pool larger than a real game needs. Rulesets put
their own bounds on top, for example ``Annotated[Whole, Field(ge=1, le=1000)]``.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, Strict

Whole = Annotated[int, Strict()]
"""A whole number; a boolean or a float is refused."""

Finite = Annotated[float, Strict(), Field(allow_inf_nan=False)]
"""A finite number (whole numbers are taken as floats); a boolean, NaN or infinity is refused."""

MAX_ROUNDS = 1000
"""The most rounds a scenario may ask for (the rulesets' safety caps are lower)."""

Rounds = Annotated[Whole, Field(ge=1, le=MAX_ROUNDS)]
"""A number of rounds."""

MAX_DICE = 100
"""The most dice of one group in a dice expression (``100d6``)."""

MAX_SIDES = 1000
"""The most faces of a die in a dice expression (``1d1000``)."""

MAX_FLAT = 10_000
"""The largest whole number added to or taken from dice (``1d6+10000``)."""

MAX_DICE_TERMS = 20
"""The most dice groups and numbers in one expression (``1d8+1d6+2`` has three)."""
