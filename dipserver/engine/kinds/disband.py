"""Disband: ``A RUM D``. In a retreat phase, of one's own dislodged unit; in Winter, of one's own unit
when the power has more units than centres."""

from __future__ import annotations

from typing import TYPE_CHECKING

from dipserver.engine.kinds.registry import Drawing, Kind, register
from dipserver.engine.kinds.retreat import dislodged_unit
from dipserver.engine.kinds.words import unit_at
from dipserver.engine.orders import Disband, OrderError
from dipserver.engine.types import PhaseType, Unit

if TYPE_CHECKING:
    from dipserver.engine.kinds.offering import Offering
    from dipserver.engine.kinds.reading import Intent, Reading
    from dipserver.engine.position import Position


class DisbandKind(Kind):
    name = "disband"
    order_class = Disband
    reads = ((PhaseType.RETREATS, "disband"), (PhaseType.ADJUSTMENTS, "disband"))
    offered_in = (PhaseType.RETREATS,)
    position = 1  # after the retreats

    def read(self, reading: Reading, intent: Intent) -> Disband:
        if reading.phase is PhaseType.RETREATS:
            return Disband(dislodged_unit(reading, intent).location)
        unit = reading.ordered_unit(intent)
        if reading.balance() >= 0:
            raise OrderError(f"{reading.power_name(reading.power)} has no units to disband this winter")
        return Disband(unit.location)

    def offer(self, offering: Offering, unit: Unit) -> list[Disband]:
        return [Disband(unit.location)]

    def text(self, order: Disband, position: Position) -> str:
        return f"{unit_at(position, order.unit)} D"

    def drawing(self, order: Disband) -> Drawing:
        return Drawing("cross", order.unit, dislodged=True)  # drawn for a retreat phase's dislodged unit


DISBAND = register(DisbandKind())
