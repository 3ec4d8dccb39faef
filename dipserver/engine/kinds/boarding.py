"""The kinds of the Abstraction A/F orders (variant-rulings 5.6; the rules themselves: ``abstraction.py``):
boarding (``A YOR boards F NTH``) and landing (``A/F NTH lands YOR``), each in a notation of its own.

Loaded by the registry when it first needs them (``kinds/standard.py``): their notations are read after
the first readers', and a game without the rules gives neither order.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from dipserver.engine.ferryorders import Disembark, Embark
from dipserver.engine.kinds.abstraction import (
    OFF,
    chain_problem,
    could_carry,
    embark_problem,
    ferry_on,
    landing_problem,
)
from dipserver.engine.kinds.recording import Described, held_at, place, via
from dipserver.engine.kinds.registry import Drawing, Kind, register
from dipserver.engine.orders import OrderError
from dipserver.engine.types import PhaseType, Unit, UnitType, province_of

if TYPE_CHECKING:
    from dipserver.engine.board import Board
    from dipserver.engine.kinds.reading import Reading
    from dipserver.engine.kinds.standing import Standing
    from dipserver.engine.position import Position

# Patterns, compiled by ``re`` at their first use.
_PLACE = r"([A-Z][A-Z .'-]*?)"
_EMBARK = (
    rf"^(?:A|ARMY)?\s*{_PLACE}\s+(?:BOARDS?|EMBARKS?)(?:\s+(?:ON|ONTO|IN))?\s+(?:(?:F|FLEET)\s+)?{_PLACE}$"
)
_LAND = (
    rf"^(?:A/F|AF|A|F)\s+{_PLACE}\s+(?:LANDS?|DISEMBARKS?)(?:\s+(?:TO|IN|INTO|AT|ON))?\s+(?:-\s*)?{_PLACE}$"
)


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
        why = embark_problem(board, reading.position.units, reading.power, order.unit, order.fleet)
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
