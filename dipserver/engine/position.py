"""The units and centre ownership of one phase: what changes every phase besides the map."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from dipserver.engine.types import Phase, Unit

if TYPE_CHECKING:
    from dipserver.engine.dislodged import Dislodged


@dataclass(frozen=True, slots=True)
class Position:
    """The units, centre owners and dislodged units of one phase."""

    phase: Phase
    units: Mapping[str, Unit]  # keyed by province
    owners: Mapping[str, str]  # supply-centre province -> owning power
    dislodged: Mapping[str, Dislodged] = field(default_factory=dict)  # keyed by province
    # province -> power whose unit stood there at the end of the last Spring or Autumn it was occupied;
    # kept by the timeline hooks for Deluge's new-centre ownership chain (ruling E11)
    last_occupants: Mapping[str, str] = field(default_factory=dict)

    def units_of(self, power: str) -> list[Unit]:
        return [u for u in self.units.values() if u.power == power]

    def centres_of(self, power: str) -> list[str]:
        return sorted(p for p, owner in self.owners.items() if owner == power)

    def __reduce__(self) -> tuple[Any, ...]:  # as Phase's
        return (Position, (self.phase, self.units, self.owners, self.dislodged, self.last_occupants))
