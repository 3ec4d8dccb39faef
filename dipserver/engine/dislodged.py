"""A unit dislodged in a movement phase, waiting to retreat or disband (``Position.dislodged``).

A module of its own, loaded by what makes one: the movement phase, the first time it dislodges a unit
(``movement.py``), the reading of a retreat phase's position (the command line's request, the server's
games) and the retreat phase itself. A phase that dislodges no unit never defines it (a one-request command
line run's start-up is mostly defining values).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dipserver.engine.types import Unit


@dataclass(frozen=True, slots=True)
class Dislodged:
    """A unit dislodged in a movement phase, waiting to retreat or disband."""

    unit: Unit
    attacker_from: str  # province the dislodging move came from (no retreat there)
    retreats: tuple[str, ...] = ()  # locations it may retreat to, computed on that phase's map
    stays_fleet: bool = False  # Sahara (E16): told to stay a fleet this season; the flag follows its retreat

    def __reduce__(self) -> tuple[Any, ...]:
        return (Dislodged, (self.unit, self.attacker_from, self.retreats, self.stays_fleet))  # as Phase's
