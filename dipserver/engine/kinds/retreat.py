"""Retreat: ``A RUM R SER`` (or ``A RUM - SER``), to one of the dislodged unit's listed options only."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from dipserver.engine.kinds.recording import Described, dislodged_at, place
from dipserver.engine.kinds.registry import Drawing, Kind, register
from dipserver.engine.kinds.words import unit_at, unit_phrase
from dipserver.engine.lateorders import Retreat
from dipserver.engine.orders import OrderError
from dipserver.engine.types import PhaseType, Unit, UnitType, province_of

if TYPE_CHECKING:
    from dipserver.engine.board import Board
    from dipserver.engine.kinds.effects import Effects
    from dipserver.engine.kinds.offering import Offering
    from dipserver.engine.kinds.reading import Intent, Reading
    from dipserver.engine.position import Position


def dislodged_unit(reading: Reading, intent: Intent) -> Unit:
    """The power's own dislodged unit the order is for."""
    assert intent.unit is not None
    dislodged = {p: d.unit for p, d in reading.position.dislodged.items()}
    return reading.own_unit(dislodged, intent.unit_type, intent.unit, where="dislodged ")


class RetreatKind(Kind):
    name = "retreat"
    order_class = Retreat
    reads = ((PhaseType.RETREATS, "retreat"), (PhaseType.RETREATS, "move"))
    offered_in = (PhaseType.RETREATS,)
    position = 0

    def destination(self, order: Retreat) -> str | None:
        return province_of(order.dest)

    def apply(self, effects: Effects, power: str, order: Retreat) -> None:
        """A fleet told to stay a fleet (Sahara, E16) takes its flag where it retreats, if it gets there."""
        waiting = effects.before.dislodged.get(province_of(order.unit))
        if waiting is not None and waiting.stays_fleet and effects.succeeded(order):
            effects.flags.add(province_of(order.dest))

    def read(self, reading: Reading, intent: Intent) -> Retreat:
        unit = dislodged_unit(reading, intent)
        assert intent.dest is not None
        options = reading.position.dislodged[unit.province].retreats
        reading.known_place(intent.dest)
        name = reading.name
        wanted = intent.dest.location if unit.type is UnitType.FLEET else intent.dest.province
        if intent.dest.coast is None and unit.type is UnitType.FLEET:
            matches = [o for o in options if province_of(o) == intent.dest.province]
            if len(matches) > 1:
                raise OrderError(f"Say which coast of {name(intent.dest.province)}: {' or '.join(matches)}")
            wanted = matches[0] if matches else wanted
        if wanted not in options:
            allowed = ", ".join(name(o) for o in options) or "nowhere: it can only disband"
            raise OrderError(
                f"{unit_phrase(reading.board, unit)} cannot retreat to {name(wanted)}; "
                f"it may retreat to {allowed}"
            )
        return Retreat(unit.location, wanted)

    def offer(self, offering: Offering, unit: Unit) -> list[Retreat]:
        retreats = offering.position.dislodged[unit.province].retreats
        return [Retreat(unit.location, r) for r in sorted(retreats)]

    def text(self, order: Retreat, position: Position) -> str:
        return f"{unit_at(position, order.unit)} R {order.dest}"

    def record(self, order: Retreat, position: Position, board: Board | None) -> Described:
        return "retreat", dislodged_at(position, order.unit), order.unit, order.dest, None

    def drawing(self, record: Mapping[str, Any]) -> Drawing:
        start, end = place(record, "from"), place(record, "to")
        return Drawing("arrow", start, end, label="retreat", dislodged=True)


RETREAT = register(RetreatKind())
