"""Disband: ``A RUM D``. In a retreat phase, of one's own dislodged unit; in Winter, of one's own unit
when the power has more units than centres."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from dipserver.engine.kinds.recording import Described, dislodged_at, place
from dipserver.engine.kinds.registry import Drawing, Kind, register
from dipserver.engine.kinds.retreat import dislodged_unit
from dipserver.engine.kinds.words import unit_at
from dipserver.engine.lateorders import Disband
from dipserver.engine.orders import OrderError
from dipserver.engine.types import PhaseType, Unit

if TYPE_CHECKING:
    from dipserver.engine.board import Board
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

    def record(self, order: Disband, position: Position, board: Board | None) -> Described:
        return "disband", dislodged_at(position, order.unit), order.unit, None, None

    def drawing(self, record: Mapping[str, Any]) -> Drawing:
        # Drawn where a retreat phase's dislodged unit stands (a Winter disband's unit stands alone).
        return Drawing("cross", place(record, "from"), dislodged=True)


DISBAND = register(DisbandKind())
