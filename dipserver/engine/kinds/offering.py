"""What the kinds' options read: one power's phase, with the moves of each unit worked out once.

``options.legal_options`` makes one ``Offering`` per call and asks each kind of the phase what it offers
a unit (``Kind.offer``); a support's options need the moves of the unit it supports, kept here. What the
units may do does not depend on whose options are asked for, so every power's ``Offering`` of a phase
shares it (``for_power``; ``options.phase_options``).
"""

from __future__ import annotations

from dipserver.engine.board import Board
from dipserver.engine.convoys import necessary_fleets
from dipserver.engine.orders import Move
from dipserver.engine.position import Position
from dipserver.engine.types import Unit, UnitType, province_of


class _Known:
    """What a phase's units may do, worked out on first use: the same for every power."""

    def __init__(self, board: Board, position: Position) -> None:
        self.fleet_seas = frozenset(
            p for p, u in position.units.items() if u.type is UnitType.FLEET and board.is_water(p)
        )
        self.moves: dict[str, list[Move]] = {}
        self.move_provinces: dict[tuple[str, str], frozenset[str]] = {}
        self.necessary: dict[tuple[str, str], set[str]] = {}
        self.units = sorted(position.units.items())  # by province: ``others`` of every unit
        self.movers: dict[str, list[Unit]] | None = None  # ``movers_into``


class Offering:
    def __init__(self, board: Board, position: Position, power: str, known: _Known | None = None) -> None:
        self.board, self.position, self.power = board, position, power
        self._known = _Known(board, position) if known is None else known
        self.fleet_seas = self._known.fleet_seas

    def for_power(self, power: str) -> Offering:
        """The same phase for ``power``, sharing what is known of the units' moves."""
        return Offering(self.board, self.position, power, self._known)

    def moves(self, unit: Unit) -> list[Move]:
        known = self._known.moves
        found = known.get(unit.location)
        if found is None:
            found = known[unit.location] = self.moves_with(unit, self.fleet_seas)
        return found

    def moves_with(self, unit: Unit, fleet_seas: frozenset[str]) -> list[Move]:
        """``unit``'s moves, by convoy too where the fleets in ``fleet_seas`` could carry it."""
        board = self.board
        if unit.type is UnitType.FLEET:
            return [Move(unit.location, d) for d in sorted(board.fleet_moves(unit.location))]
        moves = [Move(unit.province, d) for d in sorted(board.army_moves(unit.province))]
        start = board.water_neighbours(unit.province) & fleet_seas
        if not start:  # no fleet beside it: no convoy
            return moves
        convoyed = board.convoy_landings(start, fleet_seas) - {unit.province}
        return moves + [Move(unit.province, d, via_convoy=True) for d in sorted(convoyed)]

    def move_provinces(self, unit: Unit, without: str = "") -> frozenset[str]:
        """The provinces ``unit``'s moves lead into; by convoy only through fleets not in ``without`` (a sea).
        Worked out once per unit and sea: the supports of a phase ask for each unit's again and again."""
        known = self._known.move_provinces
        key = (unit.location, without)
        found = known.get(key)
        if found is None:
            moves = self.moves_with(unit, self.fleet_seas - {without}) if without else self.moves(unit)
            found = known[key] = frozenset(province_of(m.dest) for m in moves)
        return found

    def movers_into(self) -> dict[str, list[Unit]]:
        """Every unit on the board under each province its moves lead into (by convoy through any of the
        fleets), by province: a support's options look up the provinces it reaches instead of asking every
        other unit where it goes."""
        known = self._known
        if known.movers is None:
            movers: dict[str, list[Unit]] = {}
            for _, unit in known.units:
                for province in self.move_provinces(unit):
                    movers.setdefault(province, []).append(unit)
            known.movers = movers
        return known.movers

    def others(self, unit: Unit) -> list[Unit]:
        """The other units on the board, by province."""
        here = unit.province
        return [u for p, u in self._known.units if p != here]

    def needed(self, army: str, dest: str) -> set[str]:
        known = self._known.necessary
        key = (army, dest)
        found = known.get(key)
        if found is None:
            found = known[key] = necessary_fleets(self.board, army, dest, self.fleet_seas)
        return found
