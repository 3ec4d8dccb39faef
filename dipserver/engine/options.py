"""The legal orders of one power in one phase, as plain data a browser or a bot can offer.

Every option is an order the parser accepts, with its canonical text (``format_order``) so a client can
send the text back unchanged. Options are the orders that *could* succeed on this map and position:
supports and convoys of units that are there, and convoyed moves along chains of seas where fleets
stand now (a convoy needs its fleets in place this phase). The parser still accepts a few more legal
orders (support of an empty province, a move waiting for a fleet that is not there): those can only fail.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from dipserver.engine.board import Board
from dipserver.engine.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Retreat,
    SupportHold,
    SupportMove,
    Waive,
)
from dipserver.engine.parse import BuildRule, adjustment_due, build_rule_for, format_order
from dipserver.engine.position import Position
from dipserver.engine.types import PhaseType, Unit, UnitType, province_of

_KINDS = {
    Hold: "hold",
    Move: "move",
    SupportHold: "support_hold",
    SupportMove: "support_move",
    Convoy: "convoy",
    Retreat: "retreat",
    Disband: "disband",
    Build: "build",
    Waive: "waive",
}


@dataclass(frozen=True, slots=True)
class Option:
    text: str  # canonical order text, e.g. "A MUN S A PAR - BUR"
    order: Order

    @property
    def kind(self) -> str:
        return _KINDS[type(self.order)]

    def to_data(self) -> dict[str, Any]:
        """JSON-ready: the text, the kind, and the order's fields."""
        data: dict[str, Any] = {"text": self.text, "kind": self.kind}
        for name in self.order.__slots__:  # type: ignore[union-attr]
            value = getattr(self.order, name)
            data[name] = value.value if isinstance(value, UnitType) else value
        return data


@dataclass(frozen=True, slots=True)
class PowerOptions:
    power: str
    phase: str
    units: Mapping[str, tuple[Option, ...]] = field(default_factory=dict)  # unit location -> its orders
    builds: tuple[Option, ...] = ()  # adjustment phase: each possible build, then waive
    adjustment: int = 0  # builds due (positive) or disbands due (negative); 0 outside adjustments

    def all(self) -> list[Option]:
        return [option for options in self.units.values() for option in options] + list(self.builds)

    def to_data(self) -> dict[str, Any]:
        return {
            "power": self.power,
            "phase": self.phase,
            "adjustment": self.adjustment,
            "units": {loc: [o.to_data() for o in options] for loc, options in self.units.items()},
            "builds": [o.to_data() for o in self.builds],
        }


def legal_options(
    board: Board, position: Position, power: str, build_rule: BuildRule | None = None
) -> PowerOptions:
    """Every order ``power`` may give in ``position``'s phase, grouped by unit."""
    power = power.upper()
    phase = position.phase.type
    if phase is PhaseType.MOVEMENT:
        finder = _Movement(board, position)
        units = {u.location: finder.options(u) for u in sorted(position.units_of(power), key=_by_location)}
        return PowerOptions(power, str(position.phase), units)
    if phase is PhaseType.RETREATS:
        units = {
            d.unit.location: _retreat_options(position, d.unit, d.retreats)
            for d in sorted(position.dislodged.values(), key=lambda d: d.unit.location)
            if d.unit.power == power
        }
        return PowerOptions(power, str(position.phase), units)
    return _adjustment_options(board, position, power, build_rule or build_rule_for(board.variant))


def _by_location(unit: Unit) -> str:
    return unit.location


def _options(position: Position, orders: list[Order]) -> tuple[Option, ...]:
    return tuple(Option(format_order(order, position), order) for order in orders)


class _Movement:
    def __init__(self, board: Board, position: Position) -> None:
        self.board, self.position = board, position
        self.fleet_seas = frozenset(
            p for p, u in position.units.items() if u.type is UnitType.FLEET and board.is_water(p)
        )
        self._moves: dict[str, list[Move]] = {}

    def moves(self, unit: Unit) -> list[Move]:
        if unit.location not in self._moves:
            board = self.board
            if unit.type is UnitType.FLEET:
                moves = [Move(unit.location, d) for d in sorted(board.fleet_moves(unit.location))]
            else:
                moves = [Move(unit.province, d) for d in sorted(board.army_moves(unit.province))]
                start = board.water_neighbours(unit.province) & self.fleet_seas
                convoyed = board.convoy_landings(start, self.fleet_seas) - {unit.province}
                moves += [Move(unit.province, d, via_convoy=True) for d in sorted(convoyed)]
            self._moves[unit.location] = moves
        return self._moves[unit.location]

    def options(self, unit: Unit) -> tuple[Option, ...]:
        board, here = self.board, unit.province
        orders: list[Order] = [Hold(unit.location), *self.moves(unit)]
        others = [u for p, u in sorted(self.position.units.items()) if p != here]
        orders += [
            SupportHold(unit.location, other.province)
            for other in others
            if board.can_reach_province(unit.type, unit.location, other.province)
        ]
        for other in others:
            dests = sorted({province_of(m.dest) for m in self.moves(other)} - {here})
            orders += [
                SupportMove(unit.location, other.province, d)
                for d in dests
                if board.can_reach_province(unit.type, unit.location, d)
            ]
        if unit.type is UnitType.FLEET and board.is_water(here):
            orders += self._convoys(unit)
        return _options(self.position, orders)

    def _convoys(self, fleet: Unit) -> list[Convoy]:
        reach = self.board.convoy_landings({fleet.province}, self.fleet_seas)
        armies = [u for p, u in sorted(self.position.units.items()) if u.type is UnitType.ARMY and p in reach]
        return [Convoy(fleet.province, a.province, d) for a in armies for d in sorted(reach - {a.province})]


def _retreat_options(position: Position, unit: Unit, retreats: tuple[str, ...]) -> tuple[Option, ...]:
    orders: list[Order] = [Retreat(unit.location, r) for r in sorted(retreats)]
    orders.append(Disband(unit.location))
    return _options(position, orders)


def _adjustment_options(board: Board, position: Position, power: str, build_rule: BuildRule) -> PowerOptions:
    balance = adjustment_due(position, power)
    phase = str(position.phase)
    if balance < 0:
        units = {
            u.location: _options(position, [Disband(u.location)])
            for u in sorted(position.units_of(power), key=_by_location)
        }
        return PowerOptions(power, phase, units, adjustment=balance)
    if balance == 0:
        return PowerOptions(power, phase)
    builds: list[Order] = []
    for site in sorted(build_rule(board, position, power)):
        if board.is_land(site):
            builds.append(Build(power, UnitType.ARMY, site))
        builds += [Build(power, UnitType.FLEET, loc) for loc in board.fleet_build_locations(site)]
    builds.append(Waive(power))
    return PowerOptions(power, phase, builds=_options(position, builds), adjustment=balance)
