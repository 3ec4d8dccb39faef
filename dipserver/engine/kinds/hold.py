"""Hold: ``A PAR H`` (or the unit alone). Always legal for a unit of one's own."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from dipserver.engine.kinds.recording import place
from dipserver.engine.kinds.registry import Drawing, Kind, register
from dipserver.engine.kinds.words import unit_at
from dipserver.engine.orders import Hold
from dipserver.engine.types import PhaseType, Unit

if TYPE_CHECKING:
    from dipserver.engine.kinds.offering import Offering, Option
    from dipserver.engine.kinds.reading import Intent, Reading
    from dipserver.engine.kinds.standing import Standing
    from dipserver.engine.position import Position


class HoldKind(Kind):
    name = "hold"
    order_class = Hold
    reads = ((PhaseType.MOVEMENT, "hold"),)
    offered_in = (PhaseType.MOVEMENT,)
    position = 0

    def read(self, reading: Reading, intent: Intent) -> Hold:
        return Hold(reading.ordered_unit(intent).location)

    def legal(self, standing: Standing, here: str, unit: Unit, order: Hold) -> tuple[str | None, str]:
        return None, ""

    def offer(self, offering: Offering, unit: Unit) -> tuple[Option, ...]:
        name = offering.words[unit.location]
        found = offering.table(self).get(name)
        return offering.keep(self, name, [Hold(unit.location)]) if found is None else found

    def text(self, order: Hold, position: Position) -> str:
        return f"{unit_at(position, order.unit)} H"

    # its record is the default one: the unit, where it stands, going nowhere

    def drawing(self, record: Mapping[str, Any]) -> Drawing:
        return Drawing("ring", place(record, "from"))


HOLD = register(HoldKind())
