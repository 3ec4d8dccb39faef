"""What the kinds' options read: one power's phase, with the moves of each unit worked out once.

``options.legal_options`` makes one ``Offering`` per call and asks each kind of the phase what it offers
a unit (``Kind.offer``); a support's options need the moves of the unit it supports, kept here.
"""

from __future__ import annotations

from dipserver.engine.board import Board
from dipserver.engine.convoys import necessary_fleets
from dipserver.engine.orders import Move
from dipserver.engine.position import Position
from dipserver.engine.types import FLEET, Unit


class Offering:
    def __init__(self, board: Board, position: Position, power: str) -> None:
        self.board, self.position, self.power = board, position, power
        self.fleet_seas = frozenset(
            p for p, u in position.units.items() if u.type is FLEET and board.is_water(p)
        )
        self._moves: dict[str, list[Move]] = {}
        self._necessary: dict[tuple[str, str], set[str]] = {}

    def moves(self, unit: Unit) -> list[Move]:
        if unit.location not in self._moves:
            self._moves[unit.location] = self.moves_with(unit, self.fleet_seas)
        return self._moves[unit.location]

    def moves_with(self, unit: Unit, fleet_seas: frozenset[str]) -> list[Move]:
        """``unit``'s moves, by convoy too where the fleets in ``fleet_seas`` could carry it."""
        board = self.board
        if unit.type is FLEET:
            return [Move(unit.location, d) for d in sorted(board.fleet_moves(unit.location))]
        moves = [Move(unit.province, d) for d in sorted(board.army_moves(unit.province))]
        start = board.water_neighbours(unit.province) & fleet_seas
        convoyed = board.convoy_landings(start, fleet_seas) - {unit.province}
        return moves + [Move(unit.province, d, via_convoy=True) for d in sorted(convoyed)]

    def others(self, unit: Unit) -> list[Unit]:
        """The other units on the board, by province."""
        return [u for p, u in sorted(self.position.units.items()) if p != unit.province]

    def needed(self, army: str, dest: str) -> set[str]:
        key = (army, dest)
        if key not in self._necessary:
            self._necessary[key] = necessary_fleets(self.board, army, dest, self.fleet_seas)
        return self._necessary[key]
