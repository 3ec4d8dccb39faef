"""What a phase decided of each line or order, as a value (``Played``): the one pipeline keeps them as rows
and makes these when a caller first reads ``Turn.played`` (``turn.py``, ``results.Built``); a kind that
applies its order itself makes one (``applying.py``). A module of its own, loaded by what makes them, so
that the command line, which answers from the rows, never defines it (a one-request run's start-up is
mostly defining values).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from dipserver.engine.kinds.registry import kind_of
from dipserver.engine.records import Record, order_record, shown, unread_record

if TYPE_CHECKING:
    from dipserver.engine.board import Board
    from dipserver.engine.orders import Outcome
    from dipserver.engine.position import Position


@dataclass(frozen=True, slots=True)
class Played:
    """What a phase decided of one line or order, as data: its record is made from it when asked
    (``record``), so a caller that needs only the outcomes (the command line) makes none."""

    power: str
    order: Any | None  # the order given (or refused as it read); None: the line read as no order
    text: str  # as typed; "" for an order the engine made up (written in short notation)
    outcome: Outcome
    reason: str = ""
    dislodged: bool = False
    refused: bool = False  # refused when read: its record's ``order`` is the text as typed

    def shown(self, position: Position) -> str:
        """The text to show for it: as typed, or the short notation of an order the engine made up."""
        return shown(self.order, self.text, position)

    def record(self, position: Position, board: Board | None = None) -> Record:
        """Its record (the module's docstring), ``position`` being the phase's, with ``text`` as shown."""
        if self.order is None:
            return {**unread_record(self.power, self.text, self.reason), "text": self.text}
        short = self.text if self.refused else kind_of(self.order).text(self.order, position)
        record = order_record(
            self.power,
            self.order,
            position,
            outcome=self.outcome,
            reason=self.reason,
            dislodged=self.dislodged,
            text=short,
            board=board,
        )
        return {**record, "text": self.text or short}
