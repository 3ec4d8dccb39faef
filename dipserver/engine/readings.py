"""What an order text in the notation ``parse.format_order`` writes means on one board: the parser's
front, kept with the board.

Tools and the order options send thousands of texts such as ``A MUN S A PAR - BUR``; the parser's names,
aliases and messages would cost more than adjudicating them. A text's *reading* depends on the board alone
(the map's geometry), never on the position, so each board keeps the readings of the texts it met
(``Board.readings``: the board is cached per variant and map, and so are they). Against a position only
the ordered unit, and a convoy's army, remain to be looked at (``movement_order``).

A reading is ``(order or None, the ordered unit's type, its location, its province, a convoyed army's
province or None)``. ``None`` as the order means "not that simple": the full parser reads the text, infers
coasts and explains illegal orders. Whenever ``movement_order`` returns an order, it is the one the full
parser would return (``tests/adjudicator/test_cli_orders.py`` holds it to that).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import ModuleType
from typing import TYPE_CHECKING

from dipserver.engine.types import Unit, UnitType

if TYPE_CHECKING:
    from dipserver.engine.board import Board
    from dipserver.engine.orders import Order

# The notation, word by word: ``A MUN H``, ``A MUN - BUR`` (``VIA``), ``A MUN S A PAR`` (``- BUR``),
# ``F NTH C A LON - NWY``. A name the board knows is read by looking it up (every board name has this
# shape: variantfiles.py checks codes and coasts); only a name it does not know is matched against the
# shape, to tell an impossible order (read as such) from a text in another notation.
_NAME_RE = re.compile(r"[A-Z0-9]{2,4}(?:/[NSEW]C)?\Z")
_UNIT_KINDS = ("A", "F")

Reading = tuple["Order | None", UnitType | None, str, str, str | None]
_NOT_SIMPLE: Reading = (None, None, "", "", None)
MAX_READINGS = 200_000  # canonical texts on a map are finite; the cap only guards against odd input
# The longest order text read, white space around it apart: the API's limit too. The longest order in
# words on our maps (a convoy with every name in full) is under 120 characters; a longer text is refused
# before it is read or kept (a megabyte of text used to cost seconds of reading and its copy here).
MAX_ORDER_TEXT = 200


def too_long(text: str) -> str | None:
    """Why ``text`` is refused for its length alone, or None."""
    if len(text) <= MAX_ORDER_TEXT:
        return None
    n = len(text.strip())
    if n <= MAX_ORDER_TEXT:
        return None
    return f"An order is at most {MAX_ORDER_TEXT} characters long; this text has {n:,}"


def movement_order(text: str, board: Board, units: Mapping[str, Unit], power: str) -> Order | None:
    """The order a canonical text gives ``power``'s unit in a movement phase, or None (the parser's)."""
    return sheet_order(text, board, units if isinstance(units, dict) else dict(units), power)


def sheet_order(text: str, board: Board, units: dict[str, Unit], power: str) -> Order | None:
    """``movement_order`` for units in a dict (``ordersheet.read_sheet``'s, once per phase): compiled, a
    dict's lookups are C calls, a Mapping's method calls."""
    reading = board.readings.get(text) or read(text, board)
    order: Order | None = reading[0]
    if order is None:
        return None
    _, unit_type, loc, prov, carried = reading
    unit = units.get(prov)
    if unit is None or unit.power != power or unit.type is not unit_type or unit.location != loc:
        return None
    if unit.aboard:
        return None  # an A/F's orders are read in full: it stays at sea and never convoys (5.6)
    if carried is not None:
        army = units.get(carried)
        if army is not None and army.type is not UnitType.ARMY:
            return None
    return order


def read(text: str, board: Board) -> Reading:
    """The text's reading on ``board``, kept there for the next time."""
    # One newline may end a text, as ``$`` allowed when a pattern read them.
    reading = _reading(text[:-1] if text[-1:] == "\n" else text, board)
    if len(board.readings) < MAX_READINGS:
        board.readings[text] = reading
    return reading


# orders.py, imported when the first text is read, not when this module is (start-up stays short).
_ORDERS: ModuleType | None = None


def _orders() -> ModuleType:
    global _ORDERS
    if _ORDERS is None:
        from dipserver.engine import orders

        _ORDERS = orders
    return _ORDERS


def _reading(text: str, board: Board) -> Reading:
    words = text.split(" ")
    n = len(words)
    kind = words[0]
    if kind == "A":
        unit_type, standing = UnitType.ARMY, board.army_locations  # where ``Board.can_occupy`` lets it stand
    elif kind == "F":
        unit_type, standing = UnitType.FLEET, board.fleet_positions
    else:
        return _NOT_SIMPLE
    if n < 3 or words[1] not in standing:
        return _NOT_SIMPLE
    loc = words[1]
    prov = board.place_provinces[loc]
    word = words[2]
    if word == "S" and (n == 5 or n == 7) and words[3] in _UNIT_KINDS:
        if n == 5:
            order = _support_hold(board, unit_type, loc, prov, words[4])
        elif words[5] == "-":
            order = _support_move(board, unit_type, loc, prov, words[4], words[6])
        else:
            return _NOT_SIMPLE
        if order is None and not all(_NAME_RE.match(w) for w in words[4:n:2]):
            return _NOT_SIMPLE
        return order, unit_type, loc, prov, None
    if word == "-" and (n == 4 or (n == 5 and words[4] == "VIA")):
        order = _move(board, unit_type, loc, words[3], n == 5)
        if order is None and not _NAME_RE.match(words[3]):
            return _NOT_SIMPLE
        return order, unit_type, loc, prov, None
    if word == "H" and n == 3:
        return _orders().Hold(loc), unit_type, loc, prov, None
    if word == "C" and n == 7 and words[3] == "A" and words[5] == "-":
        return _convoy(board, unit_type, loc, prov, words[4], words[6])
    return _NOT_SIMPLE


def _move(board: Board, unit_type: UnitType, loc: str, dest: str, via: bool) -> Order | None:
    if unit_type is UnitType.FLEET:
        ok = not via and dest in board.fleet_moves(loc)
    else:
        # Not adjacent, or a convoy asked for: legal if some chain of seas leads there.
        ok = (not via and dest in board.army_moves(loc)) or dest in board.convoy_destinations(loc)
    return _orders().Move(loc, dest, via) if ok else None


def _support_hold(board: Board, unit_type: UnitType, loc: str, prov: str, target: str) -> Order | None:
    target_prov = board.place_provinces.get(target)  # on the board, any coast named one of its own
    if target_prov is None or target_prov == prov:
        return None
    if not board.can_reach_province(unit_type, loc, target_prov):
        return None
    order: Order = _orders().SupportHold(loc, target_prov)
    return order


def _support_move(
    board: Board, unit_type: UnitType, loc: str, prov: str, target: str, dest: str
) -> Order | None:
    places = board.place_provinces
    target_prov, dest_prov = places.get(target), places.get(dest)
    if target_prov is None or dest_prov is None or target_prov == prov or dest_prov == target_prov:
        return None
    if not board.can_reach_province(unit_type, loc, dest_prov):
        return None
    order: Order = _orders().SupportMove(loc, target_prov, dest)
    return order


def _convoy(board: Board, unit_type: UnitType, loc: str, prov: str, army: str, dest: str) -> Reading:
    if (
        unit_type is UnitType.FLEET
        and board.is_water(prov)
        and "/" not in army  # a convoy names provinces: armies stand on no coast
        and "/" not in dest
        and board.is_land(army)
        and board.is_land(dest)
        and army != dest
    ):
        return _orders().Convoy(loc, army, dest), unit_type, loc, prov, army
    return _NOT_SIMPLE
