"""The Abstraction A/F orders (variant-rulings 5.6, Agar's revision): boarding and landing, and the limits
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
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from dipserver.engine.kinds.recording import Described, held_at, place, via
from dipserver.engine.kinds.registry import Drawing, Kind, register
from dipserver.engine.orders import Convoy, Disembark, Embark, Move, OrderError
from dipserver.engine.types import PhaseType, Unit, UnitType, province_of

if TYPE_CHECKING:
    from dipserver.engine.board import Board
    from dipserver.engine.kinds.reading import Reading
    from dipserver.engine.kinds.standing import Standing
    from dipserver.engine.position import Position

OFF = "This game plays with standard convoys: armies do not board fleets (the Abstraction A/F rules are off)"
NO_CONVOY = "cannot convoy: an A/F (a fleet with an army aboard) never convoys"
STAYS_AT_SEA = "stays at sea: an A/F lands its army instead (A/F {sea} lands {dest})"

# Patterns, compiled by ``re`` at their first use: every reader loads this module, few meet such an order.
_PLACE = r"([A-Z][A-Z .'-]*?)"
_EMBARK = (
    rf"^(?:A|ARMY)?\s*{_PLACE}\s+(?:BOARDS?|EMBARKS?)(?:\s+(?:ON|ONTO|IN))?\s+(?:(?:F|FLEET)\s+)?{_PLACE}$"
)
_LAND = (
    rf"^(?:A/F|AF|A|F)\s+{_PLACE}\s+(?:LANDS?|DISEMBARKS?)(?:\s+(?:TO|IN|INTO|AT|ON))?\s+(?:-\s*)?{_PLACE}$"
)
# ``A/F NTH - ENG``: the grammar reads an A/F's own orders as the fleet's (``grammar.py``).
AS_FLEET = re.compile(r"(?<![A-Z])A/F\s+", re.IGNORECASE)


def ferry_on(reading: Reading) -> bool:
    """Whether the game plays the Abstraction A/F rules (its modules say so)."""
    return bool(getattr(getattr(reading.modules, "modules", None), "abstraction", False))


def embark_problem(board: Board, units: Mapping[str, Unit], power: str, order: Embark) -> str | None:
    """Why ``power``'s army may not board the fleet it names, on the units as they stand before the moves."""
    army, fleet = units.get(province_of(order.unit)), units.get(province_of(order.fleet))
    where, sea = board.location_name(order.unit), board.location_name(order.fleet)
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
        embark_problem(board, units, power, Embark(u.province, fleet.province)) is None
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


def _read_pair(reading: Reading, pattern: str, text: str, doing: str) -> tuple[str, str] | None:
    """The two provinces a boarding or landing order names, or ``None`` when ``text`` is not one; refused
    with the reason when the rules are off, out of a movement phase, or a name is not a province."""
    m = re.match(pattern, " ".join(text.upper().split()))
    if m is None:
        return None
    if not ferry_on(reading):
        raise OrderError(OFF)
    if reading.phase is not PhaseType.MOVEMENT:
        raise OrderError(f"{doing} with the movement orders of a Spring or Autumn")
    variant = reading.board.variant
    first, second = (variant.lookup(g) for g in m.groups())
    for named, prov in zip(m.groups(), (first, second), strict=True):
        if prov is None:
            raise OrderError(f"'{named.title()}' is not a province of {variant.name}")
    assert first is not None and second is not None
    return first, second


class EmbarkKind(Kind):
    name = "embark"
    order_class = Embark
    rank = 15  # after the rule modules' depots and storms, before the conversions

    def read_text(self, reading: Reading, text: str) -> Embark | None:
        provinces = _read_pair(reading, _EMBARK, text, "An army boards a fleet")
        if provinces is None:
            return None
        board = reading.board
        order = Embark(*provinces)
        why = embark_problem(board, reading.position.units, reading.power, order)
        if why is not None:
            raise OrderError(why)
        return order

    def text(self, order: Embark, position: Position) -> str:
        return f"A {order.unit} boards F {order.fleet}"

    def record(self, order: Embark, position: Position, board: Board | None) -> Described:
        fleet = via(position, order.fleet, None)
        return "embark", held_at(position, order.unit), order.unit, order.fleet, fleet

    def drawing(self, record: Mapping[str, Any]) -> Drawing:
        return Drawing("arrow", place(record, "from"), place(record, "to"), label="embark")


class DisembarkKind(Kind):
    name = "disembark"
    order_class = Disembark
    rank = 16

    def read_text(self, reading: Reading, text: str) -> Disembark | None:
        provinces = _read_pair(reading, _LAND, text, "An army lands")
        if provinces is None:
            return None
        board, (sea, dest), units, power = reading.board, provinces, reading.position.units, reading.power
        unit = units.get(sea)
        if unit is None or unit.power != power:  # an A/F sailing there this move lands from it
            why = chain_problem(board, units, power, sea, dest)
        elif unit.type is not UnitType.FLEET:
            why = f"There is no A/F of yours in {board.location_name(sea)}"
        elif not unit.aboard and could_carry(board, units, power, unit):  # an army boards it first
            why = landing_problem(board, replace(unit, aboard=True), dest)
        else:
            why = landing_problem(board, unit, dest)
        if why is not None:
            raise OrderError(why)
        return Disembark(sea if unit is None or unit.power != power else unit.location, dest)

    def legal(self, standing: Standing, here: str, unit: Unit, order: Disembark) -> tuple[str | None, str]:
        if not standing.ferry:
            return OFF, ""
        dest = province_of(order.dest)
        why = landing_problem(standing.board, unit, dest)
        return (why, "") if why is not None else (None, dest)

    def chained(self, before: Mapping[str, Unit], board: Board, power: str, order: Disembark) -> str | None:
        """The adjudicator's check of a landing from a sea the power has no unit in: one of its fleets
        could carry an army there this move (on the units before the boarding, as the reader saw them)."""
        return chain_problem(board, before, power, province_of(order.unit), province_of(order.dest))

    def attacks(self, order: Disembark) -> str | None:
        return province_of(order.dest)  # the army lands as a move does: an attack (Deluge's rule 1)

    def text(self, order: Disembark, position: Position) -> str:
        return f"A/F {order.unit} lands {order.dest}"

    def record(self, order: Disembark, position: Position, board: Board | None) -> Described:
        """The A/F landing its army; no unit where no A/F stood when the orders were given (the army lands
        from the sea its A/F sails to, or boards first): the unit there, if any, may be another's."""
        here = position.units.get(province_of(order.unit))
        return (
            "disembark",
            held_at(position, order.unit) if here and here.aboard else None,
            order.unit,
            order.dest,
            None,
        )

    def drawing(self, record: Mapping[str, Any]) -> Drawing:
        return Drawing("arrow", place(record, "from"), place(record, "to"), label="disembark")


EMBARK = register(EmbarkKind())
DISEMBARK = register(DisembarkKind())
