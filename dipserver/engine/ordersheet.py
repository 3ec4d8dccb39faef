"""A phase's order texts, every power's, read for the adjudicator: the orders it takes, and the texts refused.

Each text is read on its own by the parser (``parse.parse_order``, with the board's readings in front);
an impossible order is refused with the parser's reason and its unit is left unordered (it holds, or in a
retreat it disbands). Orders read so have been checked on their own for the board and the position:
``adjudicate(..., checked=True)`` may skip those checks.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from dipserver.engine.readings import MAX_ORDER_TEXT, sheet_order, too_long
from dipserver.engine.types import PhaseType

if TYPE_CHECKING:
    from dipserver.engine.board import Board
    from dipserver.engine.orders import Order
    from dipserver.engine.position import Position


class OrderSheet:
    """The orders as the adjudicator takes them, and the texts it could not accept."""

    __slots__ = ("orders", "rejected", "texts")

    def __init__(
        self,
        orders: dict[str, list[Order]],  # power -> orders, in the order given
        texts: list[str],  # the text of each order above, in the same order (powers in turn)
        rejected: list[tuple[str, str, str]],  # (power, text, reason): unreadable or impossible orders
    ) -> None:
        self.orders, self.texts, self.rejected = orders, texts, rejected


def read_sheet(board: Board, position: Position, texts_by_power: Mapping[str, Sequence[str]]) -> OrderSheet:
    """Every text read for ``position``'s phase, each power's in the order given (texts as given are kept;
    the parser reads them without the white space around them)."""
    units = position.units if isinstance(position.units, dict) else dict(position.units)
    movement = position.phase.type is PhaseType.MOVEMENT
    sheet = OrderSheet({}, [], [])
    given = sheet.texts
    for power, texts in texts_by_power.items():
        orders = sheet.orders[power] = []
        for raw in texts:
            text = raw.strip()
            if len(text) > MAX_ORDER_TEXT:  # refused unread (``readings.too_long``)
                sheet.rejected.append((power, raw, too_long(text) or ""))
                continue
            # parse_order's own front, called here directly: most texts of a batch are read so.
            order = sheet_order(text, board, units, power) if movement else None
            if order is None:
                # The full parser, imported only now: a batch of canonical texts never needs it (nor
                # the order kinds' readers it loads, a large part of start-up).
                from dipserver.engine.parse import OrderError, parse_order

                try:
                    order = parse_order(text, board, position, power)
                except OrderError as exc:
                    sheet.rejected.append((power, raw, exc.reason))
                    continue
            orders.append(order)
            given.append(raw)
    return sheet
