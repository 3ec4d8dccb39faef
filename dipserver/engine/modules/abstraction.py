"""The Abstraction A/F rules in a power's options (variant-rulings 5.6): what the rulebook's options become.

Each army beside a fleet of its power at sea may board it; each A/F may land its army beside its sea and
offers no convoy and no move ashore; a convoy, and a convoyed move, cross one sea (Fast Ferry). Beside the
units' own orders, a power may land an army from a sea one of its A/Fs may sail to this move
(``chain_landings``). The rules
themselves are the kinds' (``kinds/abstraction.py``, ``kinds/boarding.py``) and the movement phase's
(``ferry.py``). Loaded with the rule modules (``modules/__init__.py``): only a game with the rules on asks.
"""

from __future__ import annotations

from collections.abc import Sequence

from dipserver.engine.board import Board
from dipserver.engine.ferryorders import Disembark, Embark
from dipserver.engine.kinds.abstraction import chain_problem, could_carry, embark_problem, ferry_seas, one_sea
from dipserver.engine.orders import Convoy, Move, Order
from dipserver.engine.position import Position
from dipserver.engine.types import Unit, UnitType, province_of


def ferry_orders(board: Board, position: Position, unit: Unit, orders: Sequence[Order]) -> list[Order]:
    """``unit``'s movement options (``orders``, the rulebook's) under the A/F rules."""
    seas = ferry_seas(position.units, board)
    kept = [o for o in orders if _allowed(board, o, unit, seas)]
    if unit.type is UnitType.ARMY:
        for sea in sorted(board.water_neighbours(unit.province)):
            boarding = Embark(unit.province, sea)
            if embark_problem(board, position.units, unit.power, boarding.unit, boarding.fleet) is None:
                kept.append(boarding)
    elif unit.aboard:
        shores = sorted({province_of(m) for m in board.fleet_moves(unit.location)})
        kept += [
            Disembark(unit.location, d) for d in shores if board.is_land(d) and board.terrain(d).passable
        ]
    return kept


def _allowed(board: Board, order: Order, unit: Unit, seas: frozenset[str]) -> bool:
    """Whether a rulebook option stands: an A/F neither convoys nor goes ashore; Fast Ferry's one sea."""
    if isinstance(order, Convoy):
        return not unit.aboard and bool(one_sea(board, order.target, order.dest, frozenset({unit.province})))
    if not isinstance(order, Move):
        return True
    dest = province_of(order.dest)
    if unit.type is UnitType.FLEET:
        return not (unit.aboard and board.is_land(dest))
    if order.via_convoy or dest not in board.army_moves(unit.province):
        return bool(one_sea(board, unit.province, dest, seas))
    return True


def chain_landings(board: Board, position: Position, power: str) -> list[Disembark]:
    """The landings ``power`` may order from a sea it has no unit in, that one of its fleets carrying an
    army (or that an army of its own may board first) may sail to this move; by sea, then shore."""
    units = position.units
    carriers = [u for u in units.values() if could_carry(board, units, power, u)]
    seas = {province_of(m) for u in carriers for m in board.fleet_moves(u.location)}
    found = []
    for sea in sorted(seas):
        here = units.get(sea)
        if not board.is_water(sea) or (here is not None and here.power == power):
            continue
        shores = sorted({province_of(m) for m in board.fleet_moves(sea)})
        found += [Disembark(sea, d) for d in shores if chain_problem(board, units, power, sea, d) is None]
    return found
