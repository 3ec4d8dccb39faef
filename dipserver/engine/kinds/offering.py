"""What the kinds' options read: one power's phase, and the options kept on the board for every phase.

``options.legal_options`` makes one ``Offering`` per call and asks each kind of the phase what it offers
a unit (``Kind.offer``). What the units may do does not depend on whose options are asked for, so every
power's ``Offering`` of a phase shares it (``for_power``; ``options.phase_options``).

An option is an order with its text. The order depends on the map alone; the text names units by their
words ("A PAR"), so it depends on the position only through the units it names. The kinds of a movement
phase therefore keep their options on the board (``keep``, ``table``), under a key that names every unit
the texts name and whatever else decides the orders (the convoy routes open): a later phase on the same
map looks them up instead of building them again. The board changes only between phases, with its map.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass, fields
from typing import Any, Protocol

from dipserver.engine.board import Board
from dipserver.engine.position import Position
from dipserver.engine.types import Unit, UnitType

_NONE: frozenset[str] = frozenset()
_KEPT_CAP = 65_536  # options kept per kind and board; the cap only guards a long-running process's memory


@dataclass(frozen=True, slots=True)
class Option:
    """An order a power may give, with its canonical text (``Kind.text``), which the reader reads back."""

    text: str  # e.g. "A MUN S A PAR - BUR"
    order: Any  # an order, a conversion or a rule module's order
    kind: str  # its kind's name (``Kind.name``), the API's enum: "hold", "support_move"

    def to_data(self) -> dict[str, Any]:
        """JSON-ready: the text, the kind, and the order's fields (``options.option_data`` adds how the map
        draws it)."""
        order = self.order
        data: dict[str, Any] = {"text": self.text, "kind": self.kind}
        for name in _field_names(type(order)):
            value = getattr(order, name)
            data[name] = value.value if isinstance(value, UnitType) else value
        return data


def _field_names(order_class: type) -> tuple[str, ...]:
    """An order class's fields, by name: read with ``fields``, not ``__slots__`` (a compiled order's class
    has none), once per class."""
    found = _FIELDS.get(order_class)
    if found is None:
        found = _FIELDS[order_class] = tuple(each.name for each in fields(order_class))
    return found


_FIELDS: dict[type, tuple[str, ...]] = {}


class Writer(Protocol):
    """What ``keep`` asks of a kind: its name and its notation."""

    name: str

    def text(self, order: Any, position: Position) -> str: ...


class _Known:
    """What a phase's units may do, worked out on first use: the same for every power."""

    def __init__(self, board: Board, position: Position) -> None:
        units = position.units
        fleet = UnitType.FLEET
        self.fleet_seas = frozenset(p for p, u in units.items() if u.type is fleet and board.is_water(p))
        self.names = {p: str(u) for p, u in units.items()}  # "A PAR", "A/F NTH": ``unit_at``'s words
        self.units = sorted(units.items())  # by province: ``others`` of every unit
        self.landings: dict[str, frozenset[str]] = {}  # a sea with a fleet -> where the fleets joined land
        self.groups: dict[str, frozenset[str]] = {}  # a sea with a fleet -> the seas of the fleets joined
        self.convoyed: dict[str, tuple[str, ...]] = {}  # an army's province -> where fleets carry it
        self.convoyed_without: dict[tuple[str, str], tuple[str, ...]] = {}  # the same, but for one fleet
        self.movers: dict[str, list[str]] | None = None  # ``movers_into``
        self.carried: dict[str, tuple[str, ...]] = {}  # ``convoyed_armies``


class Offering:
    def __init__(self, board: Board, position: Position, power: str, known: _Known | None = None) -> None:
        self.board, self.position, self.power = board, position, power
        self._known = _Known(board, position) if known is None else known
        self.fleet_seas = self._known.fleet_seas
        # The words of the unit in each province in the texts of a movement phase's options ("A PAR"): what
        # a key of ``keep`` names the units by.
        self.names = self._known.names

    def for_power(self, power: str) -> Offering:
        """The same phase for ``power``, sharing what is known of the units' moves."""
        return Offering(self.board, self.position, power, self._known)

    def table(self, kind: Writer) -> dict[Hashable, tuple[Option, ...]]:
        """The options of ``kind`` kept on this board by the phases before (``keep``), by key."""
        found = self.board.offers.get(kind.name)
        if found is None:
            found = self.board.offers[kind.name] = {}
        return found

    def keep(self, kind: Writer, key: Hashable, orders: Iterable[Any]) -> tuple[Option, ...]:
        """``orders`` as options of ``kind``, each with its text, kept on the board under ``key`` for every
        later phase on this map: ``key`` names every unit the texts name (by ``names``) and whatever else
        decides the orders."""
        position, name = self.position, kind.name
        found = tuple(Option(kind.text(order, position), order, name) for order in orders)
        table = self.table(kind)
        if len(table) < _KEPT_CAP:
            table[key] = found
        return found

    def convoyed(self, unit: Unit) -> tuple[str, ...]:
        """Where fleets at sea could carry ``unit`` (an army), sorted. Once per unit: the supports of a phase
        ask for each unit's again and again."""
        known = self._known.convoyed
        found = known.get(unit.province)
        if found is None:
            found = known[unit.province] = self._carried(unit, self.fleet_seas)
        return found

    def convoyed_armies(self) -> dict[str, tuple[str, ...]]:
        """``convoyed`` of every army fleets could carry now, by its province (``movers_into`` fills it)."""
        self.movers_into()
        return self._known.carried

    def convoyed_without(self, unit: Unit, sea: str) -> tuple[str, ...]:
        """Where fleets at sea but the one in ``sea`` could carry ``unit`` (an army), sorted."""
        known, key = self._known.convoyed_without, (unit.province, sea)
        found = known.get(key)
        if found is None:
            found = known[key] = self._carried(unit, self.fleet_seas - {sea})
        return found

    def _carried(self, unit: Unit, fleets: frozenset[str]) -> tuple[str, ...]:
        here = unit.province
        if unit.type is not UnitType.ARMY:
            return ()
        start = self.board.water_neighbours(here) & fleets
        if not start:  # no fleet beside it: no convoy
            return ()
        if fleets is self.fleet_seas:
            lands = set().union(*[self.landings(sea) for sea in start])
        else:
            lands = set().union(*[self.board.shore_lands(sea) for sea in _joined(self.board, start, fleets)])
        lands.discard(here)
        return tuple(sorted(lands))

    def landings(self, sea: str) -> frozenset[str]:
        """The land provinces the fleet in ``sea`` and the fleets at sea joined to it reach."""
        known = self._known.landings
        found = known.get(sea)
        if found is None:
            board = self.board
            found = frozenset().union(*[board.shore_lands(s) for s in self.fleets_joined(sea)])
            known[sea] = found
        return found

    def fleets_joined(self, sea: str) -> frozenset[str]:
        """The seas of the fleets joined to the one in ``sea`` through seas with fleets, itself included:
        every sea a convoy through it may pass (a chain of fleets is connected)."""
        known = self._known.groups
        found = known.get(sea)
        if found is None:
            found = _joined(self.board, (sea,), self.fleet_seas)
            for each in found:
                known[each] = found
        return found

    def move_provinces(self, unit: Unit) -> frozenset[str]:
        """The provinces ``unit``'s moves lead into: by land or along the coasts, and by convoy."""
        reach = self.board.reach_provinces(unit.type, unit.location)
        convoyed = self.convoyed(unit)
        return reach.union(convoyed) if convoyed else reach

    def movers_into(self) -> dict[str, list[str]]:
        """The provinces of the units whose moves lead into each province (by convoy through any of the
        fleets), by province: a support's options look up the provinces it reaches instead of asking every
        other unit where it goes."""
        known = self._known
        if known.movers is None:
            movers: dict[str, list[str]] = {}
            for here, unit in known.units:
                for province in self.move_provinces(unit):
                    movers.setdefault(province, []).append(here)
            known.carried = {p: found for p, found in known.convoyed.items() if found}
            known.movers = movers
        return known.movers

    def others(self, unit: Unit) -> list[Unit]:
        """The other units on the board, by province."""
        here = unit.province
        return [u for p, u in self._known.units if p != here]


def _joined(board: Board, start: Iterable[str], fleets: frozenset[str]) -> frozenset[str]:
    """The seas of ``fleets`` joined to those of ``start`` through seas of ``fleets``."""
    near = board.water_table
    reached = set(start)
    frontier = list(reached)
    while frontier:
        for nxt in near.get(frontier.pop(), _NONE) & fleets:
            if nxt not in reached:
                reached.add(nxt)
                frontier.append(nxt)
    return frozenset(reached)
