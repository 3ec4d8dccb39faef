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
from typing import TYPE_CHECKING, Any

from dipserver.engine.types import ARMY, FLEET, Unit, UnitType

if TYPE_CHECKING:
    from dipserver.engine.board import Board
    from dipserver.engine.orders import Order

LOC = r"([A-Z0-9]{2,4}(?:/[NSEW]C)?)"
PROV = r"([A-Z0-9]{2,4})"  # a convoy names provinces: armies have no coasts
_CANONICAL_RE = re.compile(
    rf"^([AF]) {LOC} (?:(H)|- {LOC}( VIA)?|S [AF] {LOC}(?: - {LOC})?|C A {PROV} - {PROV})$"
)
TYPES = {"A": ARMY, "F": FLEET}

Reading = tuple["Order | None", UnitType | None, str, str, str | None]
# The same before the order is made: the name of its class in orders.py and its arguments, such as
# ("Move", "PAR", "BUR", False): ``read`` makes the order from it.
Plain = tuple[tuple[Any, ...] | None, UnitType | None, str, str, str | None]
_NOT_SIMPLE: Plain = (None, None, "", "", None)
MAX_READINGS = 200_000  # canonical texts on a map are finite; the cap only guards against odd input


def movement_order(text: str, board: Board, units: Mapping[str, Unit], power: str) -> Order | None:
    """The order a canonical text gives ``power``'s unit in a movement phase, or None (the parser's)."""
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
        if army is not None and army.type is not ARMY:
            return None
    return order


def read(text: str, board: Board) -> Reading:
    """The text's reading on ``board``, kept there for the next time."""
    plain, unit_type, loc, prov, carried = read_plain(text, board)
    order = None
    if plain is not None:
        order = (_CLASSES or _order_classes())[plain[0]](*plain[1:])  # e.g. Hold(loc)
    reading: Reading = (order, unit_type, loc, prov, carried)
    if len(board.readings) < MAX_READINGS:
        board.readings[text] = reading
    return reading


# The order classes by name, imported once a text is read: a batch's lane needs no orders.py at all.
_CLASSES: dict[str, Any] = {}


def _order_classes() -> dict[str, Any]:
    from dipserver.engine import orders

    _CLASSES.update((name, getattr(orders, name)) for name in _KINDS)
    return _CLASSES


_KINDS = ("Hold", "Move", "SupportHold", "SupportMove", "Convoy")


def read_plain(text: str, board: Board) -> Plain:
    """Every check of a canonical text that does not depend on the position, the order not made yet."""
    m = _CANONICAL_RE.match(text)
    if m is None:
        return _NOT_SIMPLE
    kind, loc, hold, move_to, via, target, support_to, carried, carry_to = m.groups()
    # Where a unit may stand (``Board.can_occupy``'s sets), every such place a named one.
    if kind == "A":
        unit_type, standing = ARMY, board.army_locations
    else:
        unit_type, standing = FLEET, board.fleet_positions
    if loc not in standing:
        return _NOT_SIMPLE
    prov = board.place_provinces[loc]
    if hold:
        return ("Hold", loc), unit_type, loc, prov, None
    if move_to is not None:
        return _move(board, unit_type, loc, move_to, bool(via)), unit_type, loc, prov, None
    if target is not None:
        return _support(board, unit_type, loc, prov, target, support_to), unit_type, loc, prov, None
    if (
        unit_type is FLEET
        and board.is_water(prov)
        and board.is_land(carried)
        and board.is_land(carry_to)
        and carried != carry_to
    ):
        return ("Convoy", loc, carried, carry_to), unit_type, loc, prov, carried
    return _NOT_SIMPLE


def _move(board: Board, unit_type: UnitType, loc: str, dest: str, via: bool) -> tuple[Any, ...] | None:
    if unit_type is FLEET:
        return ("Move", loc, dest, False) if not via and dest in board.fleet_moves(loc) else None
    if not via and dest in board.army_moves(loc):
        return ("Move", loc, dest, False)
    # Not adjacent, or a convoy asked for: legal if some chain of seas leads there.
    return ("Move", loc, dest, via) if dest in board.convoy_destinations(loc) else None


def _support(
    board: Board, unit_type: UnitType, loc: str, prov: str, target: str, dest: str | None
) -> tuple[Any, ...] | None:
    # Both places must be on the board, any coast named one of the province's.
    places = board.place_provinces
    target_prov = places.get(target)
    if target_prov is None or target_prov == prov:
        return None
    if dest is None:
        reach = board.can_reach_province(unit_type, loc, target_prov)
        return ("SupportHold", loc, target_prov) if reach else None
    dest_prov = places.get(dest)
    if dest_prov is None or dest_prov == target_prov:
        return None
    reach = board.can_reach_province(unit_type, loc, dest_prov)
    return ("SupportMove", loc, target_prov, dest) if reach else None
