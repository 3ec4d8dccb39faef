"""The legal orders of one power in one phase, as plain data a browser or a bot can offer.

Every option is an order the parser accepts, with its canonical text (``format_order``) so a client can
send the text back unchanged. Options are the orders that *could* succeed on this map and position:
supports and convoys of units that are there, and convoyed moves along chains of seas where fleets
stand now (a convoy needs its fleets in place this phase). The parser still accepts a few more legal
orders (support of an empty province, a move waiting for a fleet that is not there): those can only fail.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from dipserver.engine.board import Board
from dipserver.engine.convoys import necessary_fleets
from dipserver.engine.modules.blizzard import SnowStorm
from dipserver.engine.modules.supply import EstablishDepot
from dipserver.engine.orders import (
    Build,
    ConversionOrder,
    ConvertToArmy,
    ConvertToFleet,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Retreat,
    StayFleet,
    SupportHold,
    SupportMove,
    Waive,
)
from dipserver.engine.parse import BuildRule, OrderError, adjustment_due, build_rule_for, format_order
from dipserver.engine.position import Position
from dipserver.engine.types import PhaseType, Unit, UnitType, province_of

if TYPE_CHECKING:
    from dipserver.engine.modules.orders import InPlay

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
    ConvertToArmy: "convert_to_army",
    ConvertToFleet: "convert_to_fleet",
    StayFleet: "stay_fleet",
    EstablishDepot: "establish_depot",
    SnowStorm: "snow_storm",
}
OPTION_KINDS: tuple[str, ...] = tuple(_KINDS.values())  # an option's ``kind``: the API's enum


@dataclass(frozen=True, slots=True)
class Option:
    text: str  # canonical order text, e.g. "A MUN S A PAR - BUR"
    order: Order | ConversionOrder | EstablishDepot | SnowStorm

    @property
    def kind(self) -> str:
        return _KINDS[type(self.order)]

    def to_data(self) -> dict[str, Any]:
        """JSON-ready: the text, the kind, and the order's fields."""
        data: dict[str, Any] = {"text": self.text, "kind": self.kind}
        for name in self.order.__slots__:
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
    # The variant's conversion orders open to this power now (given beside the unit's own order, or in
    # Winter beside the builds): "F BRE becomes army", "A POR becomes fleet", "F NAO stays fleet".
    conversions: tuple[Option, ...] = ()
    # The rule modules' orders open to this power now, given beside the others: "establish depot PAR"
    # (supply lines, movement phases), "place blizzard MUN" / "remove blizzard MUN" (Snow Storm tokens).
    module_orders: tuple[Option, ...] = ()

    def all(self) -> list[Option]:
        units = [option for options in self.units.values() for option in options]
        return units + list(self.builds) + list(self.conversions) + list(self.module_orders)

    def to_data(self) -> dict[str, Any]:
        return {
            "power": self.power,
            "phase": self.phase,
            "adjustment": self.adjustment,
            "units": {loc: [o.to_data() for o in options] for loc, options in self.units.items()},
            "builds": [o.to_data() for o in self.builds],
            "conversions": [o.to_data() for o in self.conversions],
            "module_orders": [o.to_data() for o in self.module_orders],
        }


def legal_options(
    board: Board,
    position: Position,
    power: str,
    build_rule: BuildRule | None = None,
    modules: InPlay | None = None,
) -> PowerOptions:
    """Every order ``power`` may give in ``position``'s phase, grouped by unit.

    With ``modules`` (the game's rule modules and their state) the unit orders the modules forbid
    (``order_problem``: a snowed-in unit only holds, an unsupplied one gives no support) are left out,
    and the module orders open now are listed in ``module_orders``."""
    found = _legal_options(board, position, power.upper(), build_rule)
    if modules is None or not modules.modules.any:
        return found
    from dipserver.engine.modules.orders import module_options
    from dipserver.engine.modules.phase import Checker

    checker = Checker(board, position, modules.modules, modules.state)
    units = {
        loc: tuple(o for o in options if checker.problem(found.power, o.order) is None)  # type: ignore[arg-type]
        for loc, options in found.units.items()
    }
    extra = tuple(Option(str(o), o) for o in module_options(board, position, found.power, modules))
    return replace(found, units=units, module_orders=extra)


def _legal_options(
    board: Board, position: Position, power: str, build_rule: BuildRule | None
) -> PowerOptions:
    phase = position.phase.type
    if phase is PhaseType.MOVEMENT:
        finder = _Movement(board, position)
        units = {u.location: finder.options(u) for u in sorted(position.units_of(power), key=_by_location)}
        return PowerOptions(
            power, str(position.phase), units, conversions=_conversions(board, position, power)
        )
    if phase is PhaseType.RETREATS:
        units = {
            d.unit.location: _retreat_options(position, d.unit, d.retreats)
            for d in sorted(position.dislodged.values(), key=lambda d: d.unit.location)
            if d.unit.power == power
        }
        return PowerOptions(
            power, str(position.phase), units, conversions=_conversions(board, position, power)
        )
    found = _adjustment_options(board, position, power, build_rule or build_rule_for(board.variant))
    conversions = _conversions(board, position, power)
    return replace(found, conversions=conversions) if conversions else found


def _conversions(board: Board, position: Position, power: str) -> tuple[Option, ...]:
    """Each conversion order the variant allows a unit of ``power`` in this phase and place."""
    from dipserver.engine.conversions import check_conversion, conversion_text
    from dipserver.engine.timeline import load_timeline

    kinds = load_timeline(board.variant).orders
    if not kinds:
        return ()
    found = []
    waiting = [d.unit for d in position.dislodged.values() if d.unit.power == power]  # a retreat phase
    for unit in sorted([*position.units_of(power), *waiting], key=_by_location):
        candidates: list[ConversionOrder] = []
        if unit.type is UnitType.FLEET:
            candidates += [ConvertToArmy(unit.location), StayFleet(unit.location)]
        elif board.coasts(unit.province):
            candidates += [ConvertToFleet(unit.location, c) for c in board.coasts(unit.province)]
        else:
            candidates.append(ConvertToFleet(unit.location))
        for order in candidates:
            try:
                checked = check_conversion(board, position, power, order)
            except OrderError:
                continue
            found.append(Option(conversion_text(checked, position), checked))
    return tuple(found)


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
        self._necessary: dict[tuple[str, str], set[str]] = {}

    def moves(self, unit: Unit) -> list[Move]:
        if unit.location not in self._moves:
            self._moves[unit.location] = self._moves_with(unit, self.fleet_seas)
        return self._moves[unit.location]

    def _moves_with(self, unit: Unit, fleet_seas: frozenset[str]) -> list[Move]:
        board = self.board
        if unit.type is UnitType.FLEET:
            return [Move(unit.location, d) for d in sorted(board.fleet_moves(unit.location))]
        moves = [Move(unit.province, d) for d in sorted(board.army_moves(unit.province))]
        start = board.water_neighbours(unit.province) & fleet_seas
        convoyed = board.convoy_landings(start, fleet_seas) - {unit.province}
        return moves + [Move(unit.province, d, via_convoy=True) for d in sorted(convoyed)]

    def supportable_moves(self, supporter: Unit, other: Unit) -> list[Move]:
        """The moves of ``other`` that ``supporter`` could back: a fleet cannot both support a convoyed
        move and be one of the fleets carrying it, so routes through the supporter's own sea don't count."""
        if supporter.province in self.fleet_seas and other.type is UnitType.ARMY:
            return self._moves_with(other, self.fleet_seas - {supporter.province})
        return self.moves(other)

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
            dests = sorted({province_of(m.dest) for m in self.supportable_moves(unit, other)} - {here})
            orders += [
                SupportMove(unit.location, other.province, d)
                for d in dests
                if board.can_reach_province(unit.type, unit.location, d)
            ]
        if unit.type is UnitType.FLEET and board.is_water(here):
            orders += self._convoys(unit)
        return _options(self.position, orders)

    def _convoys(self, fleet: Unit) -> list[Convoy]:
        """Convoys this fleet is needed for: it lies on a minimal route of seas where fleets stand now, from
        the army to the landing (DATC 6.G.19: a fleet no route needs is not convoying; the adjudicator
        calls such an order illegal, so it is never offered)."""
        reach = self.board.convoy_landings({fleet.province}, self.fleet_seas)
        armies = [u for p, u in sorted(self.position.units.items()) if u.type is UnitType.ARMY and p in reach]
        return [
            Convoy(fleet.province, a.province, d)
            for a in armies
            for d in sorted(reach - {a.province})
            if fleet.province in self._needed(a.province, d)
        ]

    def _needed(self, army: str, dest: str) -> set[str]:
        key = (army, dest)
        if key not in self._necessary:
            self._necessary[key] = necessary_fleets(self.board, army, dest, self.fleet_seas)
        return self._necessary[key]


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
