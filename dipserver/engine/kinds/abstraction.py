"""The Abstraction A/F rules (variant-rulings 5.6, Agar's revision): boarding and landing, and the limits
the module puts on convoys, fleets with an army aboard and their moves.

- ``A YOR boards F NTH`` (also ``embarks``, ``boards NTH``): the army goes aboard its own power's fleet at
  sea beside it before the moves are made, so it cannot fail; the two form an A/F, which takes the fleet's
  order. A fleet with an army aboard takes no second one.
- ``A/F NTH lands YOR`` (also ``disembarks``, ``A/F NTH disembarks to YOR``): during the moves the army
  aboard moves to a land province beside the A/F's sea; the fleet holds there meanwhile. An army boarding
  before the moves may land the same move (``A YOR boards F NTH; A/F NTH lands NWY``).
- A landing from a sea the A/F sails to this move (``A/F NTH - NWG; A/F NWG lands NWY``, Agar's
  ``A LON boards F ENG; A/F ENG - MAO; A/F MAO lands POR``): it is read while some fleet of the power could
  carry an army there (``chain_problem``); the movement phase lands it only if the sail arrives
  (``ferry.add_chained``), and it is void when no A/F of the power sails there.
- ``A/F NTH - ENG`` and any other order with ``A/F`` read as the fleet's order (``grammar.py``): the A/F
  moves, supports and is supported as a fleet. It stays at sea (it lands its army instead) and cannot convoy.
- Fast Ferry: a convoy crosses one sea space with one fleet.

The reader knows the module is on from the game's modules (``Reading.modules``, ``modules.phase.InPlay``);
the adjudicator from ``Standing.ferry``.

This module holds the rules' checks, which the standard kinds (moves, convoys), the reader's grammar, the
movement phase (``ferry.py``) and the options (``modules/abstraction.py``) ask in every game; the two
orders' own kinds are ``kinds/boarding.py``'s, loaded only when first needed (``kinds/standard.py``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING

from dipserver.engine.orders import Convoy, Move
from dipserver.engine.types import Unit, UnitType, province_of

if TYPE_CHECKING:
    from dipserver.engine.board import Board
    from dipserver.engine.kinds.reading import Reading

OFF = "This game plays with standard convoys: armies do not board fleets (the Abstraction A/F rules are off)"
NO_CONVOY = "cannot convoy: an A/F (a fleet with an army aboard) never convoys"
STAYS_AT_SEA = "stays at sea: an A/F lands its army instead (A/F {sea} lands {dest})"

# ``A/F NTH - ENG``: the grammar reads an A/F's own orders as the fleet's (``grammar.py``).
AS_FLEET = re.compile(r"(?<![A-Z])A/F\s+", re.IGNORECASE)


def ferry_on(reading: Reading) -> bool:
    """Whether the game plays the Abstraction A/F rules (its modules say so)."""
    return bool(getattr(getattr(reading.modules, "modules", None), "abstraction", False))


def embark_problem(
    board: Board, units: Mapping[str, Unit], power: str, unit: str, fleet_at: str
) -> str | None:
    """Why ``power``'s army at ``unit`` may not board the fleet at ``fleet_at`` (a boarding order's two
    places), on the units as they stand before the moves."""
    army, fleet = units.get(province_of(unit)), units.get(province_of(fleet_at))
    where, sea = board.location_name(unit), board.location_name(fleet_at)
    if army is None or army.power != power or army.type is not UnitType.ARMY:
        return f"There is no army of yours in {where}"
    if fleet is None or fleet.power != power or fleet.type is not UnitType.FLEET:
        return f"There is no fleet of yours in {sea}: an army boards only its own power's fleet"
    if not board.is_water(fleet.province):
        return f"The fleet in {sea} is not at sea: an army boards a fleet at sea"
    if fleet.aboard:
        return f"The fleet in {sea} has an army aboard already: an A/F cannot be boarded"
    if fleet.province not in board.water_neighbours(army.province):
        return f"The army in {where} is not beside {sea}"
    return None


def landing_problem(board: Board, unit: Unit, dest: str) -> str | None:
    """Why the army aboard ``unit`` cannot land in ``dest``."""
    sea, there = board.location_name(unit.location), board.location_name(dest)
    if not unit.aboard:
        return f"The fleet in {sea} has no army aboard to land"
    if not board.is_land(dest) or not board.terrain(dest).passable:
        return f"{there} is not land: an army lands only on land"
    if dest not in {province_of(loc) for loc in board.fleet_moves(unit.location)}:
        return f"{there} is not beside {sea}: the army lands only beside the A/F's sea"
    return None


def could_carry(board: Board, units: Mapping[str, Unit], power: str, fleet: Unit) -> bool:
    """Whether ``fleet`` (at sea) carries, or could take aboard before the moves, an army of ``power``."""
    if fleet.power != power or fleet.type is not UnitType.FLEET or not board.is_water(fleet.province):
        return False
    if fleet.aboard:
        return True
    return any(
        embark_problem(board, units, power, u.province, fleet.province) is None
        for u in units.values()
        if u.power == power
        and u.type is UnitType.ARMY
        and fleet.province in board.water_neighbours(u.province)
    )


def chain_problem(board: Board, units: Mapping[str, Unit], power: str, sea: str, dest: str) -> str | None:
    """Why no army of ``power`` could land in ``dest`` from ``sea`` after sailing there this move, on the
    units as they stand before the moves (an A/F of its own, or a fleet an army of its own could board,
    one sea away)."""
    where, there = board.location_name(sea), board.location_name(dest)
    if not board.is_water(sea):
        return f"There is no A/F of yours in {where}"
    if not board.is_land(dest) or not board.terrain(dest).passable:
        return f"{there} is not land: an army lands only on land"
    if dest not in {province_of(loc) for loc in board.fleet_moves(sea)}:
        return f"{there} is not beside {where}: the army lands only beside the A/F's sea"
    for fleet in units.values():
        if sea in {province_of(m) for m in board.fleet_moves(fleet.location)} and could_carry(
            board, units, power, fleet
        ):
            return None
    return f"There is no A/F of yours in {where}, and none could sail there this move"


def one_sea(board: Board, army: str, dest: str, seas: frozenset[str]) -> frozenset[str]:
    """Fast Ferry: the seas of ``seas`` that touch both ``army`` and ``dest`` (a convoy's one sea)."""
    return board.water_neighbours(army) & board.water_neighbours(dest) & seas


def ferry_seas(units: Mapping[str, Unit], board: Board) -> frozenset[str]:
    """The seas where a fleet that may convoy stands: no A/F among them."""
    return frozenset(
        p for p, u in units.items() if u.type is UnitType.FLEET and not u.aboard and board.is_water(p)
    )


def by_sea(board: Board, order: object) -> bool:
    """A convoy, or a move that goes by convoy: what the A/F rules read in full (Fast Ferry's one sea)."""
    if isinstance(order, Convoy):
        return True
    if not isinstance(order, Move):
        return False
    return order.via_convoy or (board.is_land(order.unit) and order.dest not in board.army_moves(order.unit))
