"""What the rule modules remember from phase to phase: the parts of ``ModuleState`` (``phase.py``), and
the module orders a phase plays beside the Diplomacy orders (``ModuleOrders``). Plain values, loaded when a
game first has modules; the module orders themselves are ``orders.py``'s.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from dipserver.engine.modules.orders import EstablishDepot, SnowStorm
from dipserver.engine.types import Phase

if TYPE_CHECKING:
    from dipserver.engine.orders import Order


@dataclass(frozen=True, slots=True)
class Depot:
    """A supply depot: its owner and the phase it was founded in."""

    power: str
    since: str  # phase id it was established in; operative in every later phase

    def operative(self, phase: Phase) -> bool:
        return Phase.parse(self.since).sort_key() < phase.sort_key()


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


def split_orders(orders: Iterable[object]) -> tuple[list[Order], ModuleOrders]:
    """A power's parsed orders as (the unit and conversion orders, the module orders for ``play``'s
    ``extra``), each kept in the order given."""
    rest: list[Order] = []
    depots: list[EstablishDepot] = []
    storms: list[SnowStorm] = []
    for order in orders:
        if isinstance(order, EstablishDepot):
            depots.append(order)
        elif isinstance(order, SnowStorm):
            storms.append(order)
        else:
            rest.append(order)  # type: ignore[arg-type]
    return rest, ModuleOrders(tuple(depots), tuple(storms))
