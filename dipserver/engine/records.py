"""A phase's results as records: plain JSON a server stores and serves and a picture draws, so that
nothing ever reads a result's text back.

A record keeps the fields results always had (``power``, ``order``: the order in short notation for
display, ``outcome``, ``reason``, ``dislodged``) and adds what the order was:

- ``kind``: one of ``RECORD_KINDS`` (``kinds/catalogue.py``); ``None`` for a line that did not read as
  any order (it is ``invalid``);
- ``unit``: the ordered unit, ``{"type": "A" | "F", "location": "STP/SC"}`` (the unit built, for a
  build); ``None`` for a waive, a blizzard token, or a unit not on the board;
- ``from``: where the ordered unit stands (``None`` for a build, a waive, a blizzard token);
- ``to``: where the unit goes if the order succeeds (a move's or retreat's destination, a build's
  site, a conversion's new location, a blizzard token's province); ``None`` when it stays;
- ``via``: how: ``{"convoy", "unit", "from", "to"}``. For a move that asks for a convoy or needs one
  (its destination is not adjacent) ``convoy`` is true; for a support or a convoy, ``unit``/``from``
  name the supported or convoyed unit and ``to`` its destination (``None`` for a support to hold).
  ``None`` for every other order.

What an order's record says is its kind's (``Kind.record`` in ``kinds/``), and so is how the map draws a
record (``Kind.drawing``, found by ``drawing``): this module only assembles records and knows no kind.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from dipserver.engine.kinds import standard as _standard  # noqa: F401  (registers the Diplomacy kinds)
from dipserver.engine.kinds.registry import Drawing as Drawing
from dipserver.engine.kinds.registry import drawing_of, kind_of
from dipserver.engine.orders import OrderResult, Outcome
from dipserver.engine.position import Position

if TYPE_CHECKING:
    from dipserver.engine.board import Board

Record = dict[str, Any]

# The fields results had before records; kept in every record so that older clients read on.
PLAIN_FIELDS = ("power", "order", "outcome", "reason", "dislodged")
FIELDS = (*PLAIN_FIELDS, "kind", "unit", "from", "to", "via")


def order_record(
    power: str,
    order: object,
    position: Position,
    *,
    outcome: Outcome | str | None,
    reason: str = "",
    dislodged: bool = False,
    text: str | None = None,
    board: Board | None = None,
) -> Record:
    """The record of ``order``, given by ``power`` in ``position``'s phase. ``text`` is what to display
    (by default the short notation); ``board`` (the phase's) tells a move that needs a convoy."""
    of = kind_of(order)
    kind, unit, start, end, via = of.record(order, position, board)
    if unit is not None and unit.power != power:
        # Not the ordered unit: a unit the supply rules remove after it moved stood elsewhere at the
        # phase's start, and another power's may have stood where it ended.
        unit = None
    return {
        "power": power,
        "order": of.text(order, position) if text is None else text,
        "outcome": None if outcome is None else Outcome(outcome).value,
        "reason": reason,
        "dislodged": dislodged,
        "kind": kind,
        "unit": None if unit is None else unit.to_json(),
        "from": start,
        "to": end,
        "via": via,
    }


def result_record(
    result: OrderResult, position: Position, *, text: str | None = None, board: Board | None = None
) -> Record:
    """The record of one adjudicated order."""
    return order_record(
        result.power,
        result.order,
        position,
        outcome=result.outcome,
        reason=result.reason,
        dislodged=result.dislodged,
        text=text,
        board=board,
    )


def unread_record(power: str, text: str, reason: str) -> Record:
    """The record of a line that read as no order at all: ``invalid``, and nothing known of what it was."""
    return {
        "power": power,
        "order": text,
        "outcome": Outcome.INVALID.value,
        "reason": reason,
        "dislodged": False,
        **dict.fromkeys(("kind", "unit", "from", "to", "via")),
    }


def drawing(record: Mapping[str, Any]) -> Drawing | None:
    """How the map draws ``record``, as its kind says; ``None`` for a line that read as no order."""
    return None if record.get("kind") is None else drawing_of(record)


def order_drawing(
    power: str, order: object, position: Position, board: Board | None = None, text: str = ""
) -> Drawing:
    """How the map draws ``order``, ``power``'s, given in ``position``'s phase and not yet adjudicated: its
    record's drawing, as the history maps draw the record once the phase is played. ``text`` is only the
    record's (the drawing never reads it): a caller that has the short notation saves writing it again."""
    record = order_record(power, order, position, outcome=None, board=board, text=text)
    return drawing_of(record)


def shown(order: Any, text: str, position: Position) -> str:
    """The text to show for an order played (``played.Played``'s fields): as typed, or the short notation
    of an order the engine made up (``text`` empty)."""
    return text or kind_of(order).text(order, position)
