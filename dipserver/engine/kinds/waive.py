"""Waive: ``WAIVE``, a build the power chooses not to make (it uses up one build, DATC 4.D.6)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from dipserver.engine.kinds.registry import Kind, register
from dipserver.engine.lateorders import Waive
from dipserver.engine.types import PhaseType

if TYPE_CHECKING:
    from dipserver.engine.board import Board
    from dipserver.engine.kinds.offering import Offering
    from dipserver.engine.kinds.reading import Intent, Reading
    from dipserver.engine.kinds.recording import Described
    from dipserver.engine.position import Position


class WaiveKind(Kind):
    name = "waive"
    order_class = Waive
    reads = ((PhaseType.ADJUSTMENTS, "waive"),)

    def read(self, reading: Reading, intent: Intent) -> Waive:
        return Waive(reading.power)

    def offer(self, offering: Offering, unit: object) -> list[Waive]:
        return [Waive(offering.power)]  # offered after the builds, once (not a unit's order)

    def text(self, order: Waive, position: Position) -> str:
        return "WAIVE"

    def record(self, order: Waive, position: Position, board: Board | None) -> Described:
        return "waive", None, None, None, None  # a build not made: no unit, nowhere (and drawn as nothing)

    def unit_key(self, order: Waive) -> str | None:
        return None  # a waived build commands no unit


WAIVE = register(WaiveKind())
