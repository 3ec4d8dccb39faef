"""A phase's order texts, every power's, read for the adjudicator: the orders it takes, and the texts refused.

Each text is read on its own by the parser (``parse.OrderReader``: the grammar, or its memo's answer);
an impossible order is refused with the parser's reason and its unit is left unordered (it holds, or in a
retreat it disbands). Orders read so have been checked on their own for the board and the position:
``adjudicate(..., checked=True)`` may skip those checks.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from dipserver.engine.parse import OrderReader

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
    sheet = OrderSheet({}, [], [])
    given = sheet.texts
    for power, texts in texts_by_power.items():
        orders = sheet.orders[power] = []
        reader = OrderReader(board, position, power, None, None)
        for raw in texts:
            order, why = reader.answer(raw.strip())[:2]
            if why is not None:
                sheet.rejected.append((power, raw, why))
                continue
            orders.append(order)
            given.append(raw)
    return sheet
