"""What the kinds' options read: one power's phase, and the options kept on the board for every phase.

``options.legal_options`` makes one ``Offering`` per call and asks each kind of the phase what it offers
a unit (``Kind.offer``). What the units may do does not depend on whose options are asked for, so every
power's ``Offering`` of a phase shares it (``for_power``; ``options.phase_options``).

An option is an order with its text. The order depends on the map alone; the text names units by their
words ("A PAR"), so it depends on the position only through the units it names. The kinds of a movement
phase therefore keep their options on the board (``keep``, ``table``, or a ``row`` per unit), under a key
that names every unit the texts name and whatever else decides the orders (the convoy routes open): a
later phase on the same map looks them up instead of building them again. The keys are small (a pair of
units, a unit and a destination) so that a position never met before is mostly made of options kept. The
board changes only between phases, with its map; where fleets could carry each army is kept on it too,
by the army and the fleets.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass, fields
from sys import intern
from typing import Any, Protocol, TypeVar

from dipserver.engine.board import Board
from dipserver.engine.convoys import joined_seas
from dipserver.engine.position import Position
from dipserver.engine.types import Unit, UnitType

_NONE: frozenset[str] = frozenset()
# What the board keeps besides the kinds' options (``Board.offers``, by kind), by name.
_CONVOY_LANDS = " convoy lands"  # (army, the seas of the fleets joined beside it) -> ``_carry_of``
# The seas of fleets joined -> the same seas, as the one set the board keeps, and where they land an army
# (``fleets_joined``, ``landings``).
_GROUPS = " groups"
# An army's location -> its words ("A PAR"), interned, and its province's number (``Board.numbers``).
_ARMY_WORDS = " army words"
_FLEET_WORDS = " fleet words"  # a fleet's the same way ("F STP/SC")
_KEPT_CAP = 65_536  # options kept per kind and board; the cap only guards a long-running process's memory
V = TypeVar("V")


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


@dataclass(frozen=True, slots=True)
class Carry:
    """Where fleets at sea could carry an army (``Offering._carries``): kept on the board by the army and the
    seas of the fleets carrying it."""

    carriers: frozenset[str]  # the seas of the fleets joined to those beside the army
    lands: tuple[str, ...]  # where they could land it, sorted
    by_sea: tuple[int, ...]  # the part of ``lands`` it cannot walk to, by number (``Board.numbers``)
    # Where the fleets but the one in a sea could land it, by that sea: filled as supports ask
    # (``Offering._landed_without``).
    landed_without: dict[str, frozenset[str]]


_NO_CARRY = Carry(_NONE, (), (), {})  # no fleet beside the army: nothing is ever added to its dict


class Writer(Protocol):
    """What ``keep`` asks of a kind: its name and its notation; the board keeps its options by the kind."""

    name: str

    def text(self, order: Any, position: Position) -> str: ...

    def __hash__(self) -> int: ...


class _Known:
    """What a phase's units may do, worked out on first use: the same for every power."""

    def __init__(self, board: Board, position: Position) -> None:
        fleet = UnitType.FLEET
        # "A PAR", "A/F NTH": ``unit_at``'s words, by province (``names``) and by location (``words``).
        # Interned: the keys of the tables kept on the board name units by them, and a phase then finds
        # its words there as the same strings. Kept on the board by location (an army's, a fleet's), with
        # the province's number, which a phase would otherwise look up for each unit.
        self.names: dict[str, str] = {}
        fleets: list[str] = []
        coasts: list[str] = []  # the provinces of the fleets on a coast (their location is not the province)
        self.armies: list[str] = []  # the armies' provinces
        armies_named, fleets_named = _kept(board, _ARMY_WORDS), _kept(board, _FLEET_WORDS)
        numbers = board.numbers()
        # ``names`` by the province's number (``Board.numbers``), None where no unit stands: what the
        # supports ask of every province near each unit.
        self.at: list[str | None] = [None] * len(numbers)
        self.units_at: list[Unit | None] = [None] * len(numbers)  # the units the same way (``own_units``)
        for province, unit in position.units.items():
            location = unit.location
            if unit.type is fleet:
                fleets.append(province)
                named = fleets_named
            else:
                self.armies.append(province)
                named = armies_named
            found: tuple[str, int] | None = None if unit.aboard else named.get(location)
            if found is None:
                words, number = intern(str(unit)), numbers[province]
                if not unit.aboard:
                    named[location] = (words, number)
            else:
                words, number = found
            if location != province:
                coasts.append(province)
            self.names[province] = self.at[number] = words
            self.units_at[number] = unit
        # By location: as by province but for the fleets on a coast, so copied whole and those moved.
        self.words = dict(self.names)
        for province in coasts:
            self.words[position.units[province].location] = self.words.pop(province)
        self.fleet_seas = board.seas.intersection(fleets)
        self.army_places = frozenset(self.armies)
        self.groups: dict[str, frozenset[str]] = {}  # a sea with a fleet -> the seas of the fleets joined
        # Each army beside a fleet at sea, by its province -> where fleets carry it (``_carries``: None until
        # worked out); by each province's number, the armies (their provinces' numbers) that reach it by
        # convoy alone (``_carried_into``: empty until worked out; ``carried_any``: whether any army does).
        self.carries: dict[str, Carry] | None = None
        self.carried_into: list[list[int] | None] = []
        self.carried_any = False
        # A fleet's sea -> its convoys, worked out for all the fleets joined to it at once (``ConvoyKind``).
        self.fleet_convoys: dict[str, list[Option]] = {}
        self.by_power: dict[str, list[Unit]] | None = None  # ``own_units``
        self.kinds: dict[str, list[Any]] = {}  # what offers each group's options (``options.py``)


class Offering:
    def __init__(self, board: Board, position: Position, power: str, known: _Known | None = None) -> None:
        self.board, self.position, self.power = board, position, power
        self._known = _Known(board, position) if known is None else known
        self.fleet_seas = self._known.fleet_seas
        self.army_places = self._known.army_places  # the provinces with an army
        # The words of the unit in each province in the texts of a movement phase's options ("A PAR"): what
        # a key of ``keep`` names the units by.
        self.names = self._known.names
        self.at = self._known.at  # ``names`` by the province's number (``Board.numbers``)
        self.words = self._known.words  # ``names`` by each unit's location: a kind's own unit's words
        self.kinds = self._known.kinds
        self.fleet_convoys = self._known.fleet_convoys  # a fleet's sea -> its convoys, its group's at once

    def for_power(self, power: str) -> Offering:
        """The same phase for ``power``, sharing what is known of the units' moves."""
        return Offering(self.board, self.position, power, self._known)

    def own_units(self) -> list[Unit]:
        """The power's units, by location (every power's sorted out at once, the first time one is asked).
        Taken in their provinces' order (``Board.numbers``, by name): a province's code is capitals and
        digits (``variantfiles``), which sort after the "/" before a coast, so that is their locations'."""
        by_power = self._known.by_power
        if by_power is None:
            by_power = self._known.by_power = {}
            for unit in self._known.units_at:
                if unit is None:
                    continue
                units = by_power.get(unit.power)
                if units is None:
                    by_power[unit.power] = [unit]
                else:
                    units.append(unit)
        return by_power.get(self.power, [])

    def table(self, kind: Writer) -> dict[Hashable, tuple[Option, ...]]:
        """The options of ``kind`` kept on this board by the phases before (``keep``), by key."""
        return _kept(self.board, kind)

    def row(self, kind: Writer, words: str) -> dict[Hashable, tuple[Option, ...]]:
        """The options of ``kind`` kept on this board for the unit with ``words`` ("A PAR"), by the rest of
        their key (a support's: the supported unit's words): ``keep``'s ``table`` for a kind that keeps its
        options unit by unit (its ``table`` is then these rows, by the unit's words)."""
        rows = _kept(self.board, kind)
        found = rows.get(words)
        return _kept_in(rows, words, {}) if found is None else found

    def _kept(self, name: str) -> dict[Any, Any]:
        return _kept(self.board, name)

    def keep(
        self,
        kind: Writer,
        key: Hashable,
        orders: Iterable[Any],
        table: dict[Hashable, tuple[Option, ...]] | None = None,
    ) -> tuple[Option, ...]:
        """``orders`` as options of ``kind``, each with its text, kept on the board under ``key`` for every
        later phase on this map: ``key`` names every unit the texts name (by ``names``) and whatever else
        decides the orders. In the kind's ``table``, or in ``table`` (a ``row``)."""
        position, name = self.position, kind.name
        found = tuple(Option(kind.text(order, position), order, name) for order in orders)
        return self.store(kind, key, found, table)

    def store(
        self,
        kind: Writer,
        key: Hashable,
        options: tuple[Option, ...],
        table: dict[Hashable, tuple[Option, ...]] | None = None,
    ) -> tuple[Option, ...]:
        """``options`` of ``kind`` kept on the board under ``key`` (as ``keep``), for options already made."""
        return _kept_in(self.table(kind) if table is None else table, key, options)

    def convoyed(self, unit: Unit) -> tuple[str, ...]:
        """Where fleets at sea could carry ``unit`` (an army, which stands on its province), sorted."""
        return self._carries().get(unit.location, _NO_CARRY).lands if unit.type is UnitType.ARMY else ()

    def _carries(self) -> dict[str, Carry]:
        """The carry of each army beside a fleet at sea, by its province: worked out for them all once a
        phase (the moves and the supports ask for each army's again and again)."""
        known = self._known
        found = known.carries
        if found is None:
            shores = self.board.water_shores()
            beside: set[str] = set()  # the provinces with a fleet at sea beside them
            for sea in self.fleet_seas:
                beside.update(shores.get(sea, _NONE))
            found = known.carries = {army: self._carry_of(army) for army in known.armies if army in beside}
        return found

    def _carry_of(self, army: str) -> Carry:
        """Where the fleets at sea beside the army in ``army``, and those joined to them, could carry it:
        kept on the board by the army and the seas of those fleets."""
        board = self.board
        groups = {self.fleets_joined(sea) for sea in board.water_neighbours(army) & self.fleet_seas}
        carriers = groups.pop() if len(groups) == 1 else frozenset().union(*groups)
        kept, key = self._kept(_CONVOY_LANDS), (army, carriers)
        found: Carry | None = kept.get(key)
        if found is None:
            lands: set[str] = set()
            for sea in carriers:
                lands.update(board.shore_lands(sea))
            lands.discard(army)
            numbers = board.numbers()
            by_sea = sorted(numbers[p] for p in lands - board.army_moves(army))
            found = _kept_in(kept, key, Carry(carriers, tuple(sorted(lands)), tuple(by_sea), {}))
        return found

    def supported_by_sea(self, unit: Unit) -> dict[int, list[str]] | None:
        """The armies whose moves ``unit`` may support into provinces they reach by convoy alone, by their
        province's number (``Board.numbers``), each with those provinces, sorted: the provinces ``unit``
        reaches that fleets could carry the army to and it cannot walk to. None when there are none."""
        carried_into = self._carried_into()
        if carried_into is None:
            return None
        # A unit in a sea or on a province without coasts stands on its location (``Unit.province`` would
        # work it out again): only a fleet has coasts, and no army is carried from a fleet's province.
        board, location = self.board, unit.location
        provinces, here = board.by_number, board.numbers().get(location, -1)
        found: dict[int, list[str]] = {}
        for number in board.reach_numbers(unit.type, location):
            armies = carried_into[number]
            if armies is not None:
                for army in armies:
                    if army != here:
                        into = found.get(army)
                        if into is None:
                            found[army] = [provinces[number]]
                        else:
                            into.append(provinces[number])
        if found and location in self.fleet_seas:  # a fleet at sea, which may be one of those carrying
            found = self._without_own_routes(found, location)
        return found if found else None

    def _without_own_routes(self, found: dict[int, list[str]], sea: str) -> dict[int, list[str]]:
        """``supported_by_sea``'s armies less the provinces only the fleet in ``sea`` could carry them to: a
        fleet cannot both support a convoyed move and be one of the fleets carrying it (DATC 6.D.31)."""
        provinces, carries = self.board.by_number, self._carries()
        kept: dict[int, list[str]] = {}
        for army, into in found.items():
            carry = carries[provinces[army]]
            if sea in carry.carriers:  # only the routes of the others count
                lands = self._landed_without(provinces[army], sea, carry)
                into = [p for p in into if p in lands]
                if not into:
                    continue
            kept[army] = into
        return kept

    def _landed_without(self, army: str, sea: str, carry: Carry) -> frozenset[str]:
        """Where the fleets of ``carry`` but the one in ``sea`` could land the army in ``army``: the
        provinces beside the seas through which they carry it. Kept in the army's carry, by the sea."""
        kept = carry.landed_without
        found = kept.get(sea)
        if found is None:
            board, others = self.board, carry.carriers - {sea}
            seas = joined_seas(board, board.water_neighbours(army) & others, others)
            shores = board.water_shores()
            lands: set[str] = set()
            for each in seas:
                lands.update(shores.get(each, _NONE))
            found = kept[sea] = frozenset(lands)
        return found

    def _carried_into(self) -> list[list[int] | None] | None:
        """By each province's number, the armies (by their provinces' numbers) that reach it by convoy
        alone; None when none does."""
        known = self._known
        if not known.carried_into:
            numbers = self.board.numbers()
            into: list[list[int] | None] = [None] * len(numbers)
            for here, carry in self._carries().items():
                army = numbers[here]
                for number in carry.by_sea:
                    known.carried_any = True
                    armies = into[number]
                    if armies is None:
                        into[number] = [army]
                    else:
                        armies.append(army)
            known.carried_into = into
        return known.carried_into if known.carried_any else None

    def landings(self, sea: str) -> frozenset[str]:
        """The land provinces the fleet in ``sea`` and the fleets at sea joined to it reach: kept on the
        board by the seas of those fleets, which every fleet of them asks for."""
        return self._group(self.fleets_joined(sea))[1]

    def fleets_joined(self, sea: str) -> frozenset[str]:
        """The seas of the fleets joined to the one in ``sea`` through seas with fleets, itself included:
        every sea a convoy through it may pass (a chain of fleets is connected). The set the board keeps
        for them, the same in every phase they meet in: the keys that name it are then found without
        comparing its seas."""
        known = self._known.groups
        found = known.get(sea)
        if found is None:
            found = self._group(frozenset(joined_seas(self.board, (sea,), self.fleet_seas)))[0]
            for each in found:
                known[each] = found
        return found

    def _group(self, fleets: frozenset[str]) -> tuple[frozenset[str], frozenset[str]]:
        """The board's own set of the seas ``fleets`` and where those fleets land an army, kept by them."""
        kept = self._kept(_GROUPS)
        found: tuple[frozenset[str], frozenset[str]] | None = kept.get(fleets)
        if found is None:
            board = self.board
            lands = frozenset().union(*[board.shore_lands(s) for s in fleets])
            found = _kept_in(kept, fleets, (fleets, lands))
        return found


def _kept(board: Board, name: Hashable) -> dict[Any, Any]:
    """The table the board keeps for the options under ``name`` (``Board.offers``): a kind's, or one of
    the tables named above."""
    found = board.offers.get(name)
    if found is None:
        found = board.offers[name] = {}
    return found


def _kept_in(table: dict[Any, Any], key: Hashable, value: V) -> V:
    """``value``, kept in ``table`` (one the board keeps) under ``key`` unless the table is full."""
    if len(table) < _KEPT_CAP:
        table[key] = value
    return value
