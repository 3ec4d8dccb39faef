"""What the rule modules remember from phase to phase, and the orders they take: the parts of
``ModuleState`` (``__init__.py``) and the values a game without modules still names (the modules' order
kinds are registered in every process, ``orders.py``). Plain values, so that they load without the rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from dipserver.engine.types import Phase


@dataclass(frozen=True, slots=True)
class Depot:
    """A supply depot: its owner and the phase it was founded in."""

    power: str
    since: str  # phase id it was established in; operative in every later phase

    def operative(self, phase: Phase) -> bool:
        return Phase.parse(self.since).sort_key() < phase.sort_key()


@dataclass(frozen=True, slots=True)
class EstablishDepot:
    """A module order given with the movement orders: the unit in ``province`` founds a depot there."""

    power: str
    province: str

    def __str__(self) -> str:
        return f"establish depot {self.province}"


@dataclass(frozen=True, slots=True)
class SupplyState:
    """The supply lines' memory: the depots and each unit's consecutive failed checks."""

    depots: Mapping[str, Depot] = field(default_factory=dict)  # province -> depot
    marks: Mapping[str, int] = field(default_factory=dict)  # unit's province -> consecutive failed checks
    dislodged_marks: Mapping[str, int] = field(default_factory=dict)  # the same, for dislodged units

    def to_data(self) -> dict[str, Any]:
        return {
            "depots": {p: {"power": d.power, "since": d.since} for p, d in sorted(self.depots.items())},
            "marks": dict(sorted(self.marks.items())),
            "dislodged_marks": dict(sorted(self.dislodged_marks.items())),
        }

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> SupplyState:
        return cls(
            {p: Depot(d["power"], d["since"]) for p, d in data.get("depots", {}).items()},
            dict(data.get("marks", {})),
            dict(data.get("dislodged_marks", {})),
        )


@dataclass(frozen=True, slots=True)
class SnowStorm:
    """A Snow Storm token: ``place`` a blizzard on ``province``, or remove the one there (``place=False``)."""

    power: str
    province: str
    place: bool = True

    def __str__(self) -> str:
        return f"{'place' if self.place else 'remove'} blizzard {self.province}"


@dataclass(frozen=True, slots=True)
class Aboard:
    """How many moves in a row each army has ended aboard: by its A/F's province (``units``), and for the
    A/Fs dislodged and still to retreat (``dislodged``)."""

    units: Mapping[str, int]
    dislodged: Mapping[str, int]


@dataclass(frozen=True, slots=True)
class ModuleOrders:
    """Orders for the modules, given beside a phase's Diplomacy orders."""

    depots: tuple[EstablishDepot, ...] = ()  # movement phases, supply lines on
    storms: tuple[SnowStorm, ...] = ()  # any phase before a movement phase, Snow Storm tokens on
