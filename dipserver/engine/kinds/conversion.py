"""The three variant orders that change a unit's kind (rulings E14, E15, E16): reading, checking, writing.

- Wall of Ice, Winter: ``F BRE becomes army`` — a fleet on a coast becomes an army, free of counts.
- Deluge, movement: ``A POR becomes fleet`` (``... fleet NC`` where there are several coasts) — an army in
  a coastal supply centre becomes a fleet, unless a unit of another power is ordered to move into it.
- Sahara, movement: ``F NAO stays fleet`` — given beside the fleet's own order; if this season's drying
  strands the fleet, it is disbanded instead of becoming an army.

A variant enables them in ``timeline.toml`` (``[orders]``). The reader tries ``parse_conversion`` when the
standard notation does not read a line; ``conversions.py`` applies them after the phase.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from dipserver.engine.board import Board
from dipserver.engine.definition import Variant
from dipserver.engine.kinds.effects import DONE, Effect, Effects
from dipserver.engine.kinds.offering import Offering
from dipserver.engine.kinds.reading import Reading
from dipserver.engine.kinds.recording import Described, dislodged_at, held_at, place
from dipserver.engine.kinds.registry import Drawing, Kind, register
from dipserver.engine.orders import Hold, OrderError, Outcome
from dipserver.engine.position import Position
from dipserver.engine.timelinecache import variant_orders
from dipserver.engine.types import PhaseType, Unit, UnitType, coast_of, province_of

# The orders' values: plain values as every order's (``orders.py``), here with their kinds, since only a
# variant with conversions meets them. Each has a docstring: without one, ``dataclass`` writes one from the
# class's signature as the module loads.


@dataclass(frozen=True, slots=True)
class ConvertToArmy:
    """Winter, Wall of Ice (ruling E14): a fleet on a coast becomes an army. Not a build or removal."""

    unit: str


@dataclass(frozen=True, slots=True)
class ConvertToFleet:
    """Movement, Deluge (E15): an army in a coastal centre becomes a fleet unless another power moves in.

    The army holds meanwhile (it may be supported to hold). ``coast`` is named where there are several.
    """

    unit: str
    coast: str | None = None


@dataclass(frozen=True, slots=True)
class StayFleet:
    """Movement, Sahara (E16): given beside the fleet's order, it is disbanded rather than become an army
    if this season's drying strands it."""

    unit: str


# Kept out of ``orders.Order``: the standard phases see only the orders they know.
ConversionOrder = ConvertToArmy | ConvertToFleet | StayFleet

_KIND = {ConvertToArmy: "convert_to_army", ConvertToFleet: "convert_to_fleet", StayFleet: "stay_fleet"}
_WHAT = {
    "convert_to_army": "to turn a fleet into an army",
    "convert_to_fleet": "to turn an army into a fleet",
    "stay_fleet": "to keep a stranded fleet a fleet",
}

# Patterns, compiled by ``re`` at their first use (and kept in its cache): this module loads with the first
# line the grammar cannot read (``registry.text_readers``), few of which are conversions.
_UNIT = r"(?:(?P<kind>A|F|ARMY|FLEET)\s+)?(?P<place>[A-Z][A-Z .'-]*?)(?:\s*/\s*(?P<at>NC|SC|EC|WC))?"
_FORMS = [
    (
        ConvertToArmy,
        rf"^{_UNIT}\s+(?:BECOMES|CONVERTS(?:\s+(?:TO|INTO))?)\s+(?:AN\s+)?(?:ARMY|A)$",
    ),
    (
        ConvertToFleet,
        (
            rf"^{_UNIT}\s+(?:BECOMES|CONVERTS(?:\s+(?:TO|INTO))?)\s+(?:A\s+)?(?:FLEET|F)"
            r"(?:\s*/?\s*(?P<coast>NC|SC|EC|WC))?$"
        ),
    ),
    (StayFleet, rf"^{_UNIT}\s+(?:STAYS?|KEEPS?|REMAINS?)\s+(?:A\s+)?(?:FLEET|F)$"),
]
_KEYWORDS = r"\b(BECOMES|CONVERTS?|STAYS?|KEEPS?|REMAINS?)\b"


def parse_conversion(text: str, board: Board, position: Position, power: str) -> ConversionOrder | None:
    """The conversion order ``text`` gives, checked; ``None`` if it is not a conversion at all."""
    upper = " ".join(text.upper().replace("(", " ").replace(")", " ").split())
    if not re.search(_KEYWORDS, upper):
        return None
    for kind, form in _FORMS:
        m = re.match(form, upper)
        if m is None:
            continue
        province = board.variant.lookup(m.group("place"))
        if province is None:
            raise OrderError(f"'{m.group('place').title()}' is not a province of {board.variant.name}")
        unit = position.units.get(province)
        waiting = position.dislodged.get(province)
        if kind is StayFleet and waiting is not None and waiting.unit.power == power:
            unit = waiting.unit  # a retreat phase: the owner's dislodged fleet, not the unit that came in
        location = unit.location if unit is not None else province
        order = ConvertToFleet(location, m.group("coast")) if kind is ConvertToFleet else kind(location)
        named = m.group("kind")
        if unit is not None and named and named[0] != unit.type.value:
            where = board.province_name(province)
            raise OrderError(f"The unit in {where} is {_a(unit.type)}, not {_a(UnitType(named[0]))}")
        return check_conversion(board, position, power, order)
    raise OrderError(
        "Conversions read like 'F BRE becomes army', 'A POR becomes fleet' (with a coast, 'A SPA becomes "
        "fleet NC') or 'F NAO stays fleet'"
    )


def check_conversion(board: Board, position: Position, power: str, order: ConversionOrder) -> ConversionOrder:
    """``order`` completed (the coast filled in where only one will do), or ``OrderError`` saying why not."""
    variant = board.variant
    kind = _KIND[type(order)]
    if kind not in variant_orders(variant):
        raise OrderError(f"{variant.name} has no order {_WHAT[kind]}")
    prov = province_of(order.unit)
    name = board.province_name(prov)
    unit = position.units.get(prov)
    dislodged = position.dislodged.get(prov)
    if kind == "stay_fleet" and dislodged is not None and dislodged.unit.power == power:
        unit = dislodged.unit  # in a retreat phase, the owner's dislodged fleet (not the unit that came in)
    wanted = UnitType.FLEET if kind != "convert_to_fleet" else UnitType.ARMY
    if unit is None or unit.power != power or unit.type is not wanted:
        raise OrderError(f"There is no {_kind(wanted)} of yours in {name}")
    phase = position.phase.type
    if kind == "convert_to_army":
        if phase is not PhaseType.ADJUSTMENTS:
            raise OrderError("A fleet becomes an army only in a Winter adjustment phase")
        if not board.is_land(prov):
            raise OrderError(f"The fleet in {name} is at sea: only a fleet on a coast can become an army")
        return ConvertToArmy(unit.location)
    if kind == "stay_fleet":
        if phase is PhaseType.ADJUSTMENTS:
            raise OrderError(
                f"A fleet is told to stay a fleet in a Spring or Autumn, not in {position.phase}"
            )
        return StayFleet(unit.location)  # with the movement orders, or with the retreats (E16)
    if phase is not PhaseType.MOVEMENT:
        raise OrderError(
            f"This order is given with the movement orders of a Spring or Autumn, not in {position.phase}"
        )
    assert isinstance(order, ConvertToFleet)
    if prov not in board.supply_centres:
        raise OrderError(f"{name} is not a supply centre: an army becomes a fleet only in a coastal centre")
    if not board.is_coastal(prov):
        raise OrderError(f"{name} touches no open sea: a fleet could not stand there")
    return ConvertToFleet(unit.location, _fleet_coast(board, prov, order.coast))


def conversion_text(order: ConversionOrder, position: Position) -> str:
    """A conversion order in its stored notation: ``F BRE becomes army``, ``A SPA becomes fleet NC``."""
    if isinstance(order, StayFleet):  # in a retreat phase the unit may be the dislodged one
        return f"F {order.unit} stays fleet"
    unit = position.units.get(province_of(order.unit))
    kind = unit.type.value if unit is not None else ("A" if isinstance(order, ConvertToFleet) else "F")
    if isinstance(order, ConvertToArmy):
        return f"{kind} {order.unit} becomes army"
    return f"{kind} {order.unit} becomes fleet" + (f" {order.coast}" if order.coast else "")


def _fleet_coast(board: Board, prov: str, coast: str | None) -> str | None:
    name = board.province_name(prov)
    if not board.coasts(prov):
        if coast is not None:
            raise OrderError(f"{name} has no named coasts: leave out '{coast}'")
        return None
    wet = [c for c in board.coasts(prov) if board.coast_waters(f"{prov}/{c}")]
    if coast is None:
        if len(wet) > 1:
            raise OrderError(f"Say which coast of {name} the fleet is to stand on: {' or '.join(wet)}")
        return wet[0]
    if coast not in wet:
        raise OrderError(f"The {coast} coast of {name} touches no open sea; choose {' or '.join(wet)}")
    return coast


def _kind(unit_type: UnitType) -> str:
    return "army" if unit_type is UnitType.ARMY else "fleet"


def _a(unit_type: UnitType) -> str:
    return "an army" if unit_type is UnitType.ARMY else "a fleet"


class _ConversionKind(Kind):
    offered_in = (PhaseType.MOVEMENT, PhaseType.RETREATS, PhaseType.ADJUSTMENTS)
    group = "conversions"

    def candidates(self, board: Board, unit: Unit) -> list[ConversionOrder]:
        return [self.order_class(unit.location)] if unit.type is UnitType.FLEET else []

    def offers_in(self, variant: Variant) -> bool:
        return self.name in variant_orders(variant)

    def offer(self, offering: Offering, unit: Unit) -> list[ConversionOrder]:
        """The order for ``unit`` if ``check_conversion`` lets it through (in a variant that has it)."""
        board, found = offering.board, []
        for order in self.candidates(board, unit):
            try:
                found.append(check_conversion(board, offering.position, offering.power, order))
            except OrderError:
                continue
        return found

    def text(self, order: ConversionOrder, position: Position) -> str:
        return conversion_text(order, position)

    mark = ""  # what the map writes at the unit

    def record(self, order: ConversionOrder, position: Position, board: Board | None) -> Described:
        """The converting unit, and where it stands once converted (an army on the coast it takes)."""
        return self.name, held_at(position, order.unit), order.unit, province_of(order.unit), None

    def drawing(self, record: Mapping[str, Any]) -> Drawing:
        return Drawing("mark", place(record, "from"), label=self.order_class.__name__, words=self.mark)

    def for_adjudication(self, order: ConversionOrder) -> Hold | None:
        return None  # flags and Winter conversions are not the standard adjudicator's business


class ConvertToArmyKind(_ConversionKind):
    name = "convert_to_army"
    order_class = ConvertToArmy
    position = 0
    mark = "F→A"
    rank = 20  # after the rule modules' orders: the one reader of all three notations

    def read_text(self, reading: Reading, text: str) -> ConversionOrder | None:
        return parse_conversion(text, reading.board, reading.position, reading.power)

    def apply(self, effects: Effects, power: str, order: ConvertToArmy) -> Effect:
        """After the Winter's adjustments the fleet, if still there, becomes an army; a fleet removed this
        Winter is simply gone (E14)."""
        prov = province_of(order.unit)
        unit = effects.units.get(prov)
        if unit is None or unit.power != power or unit.type is not UnitType.FLEET:
            return Effect(Outcome.VOID, "the fleet was removed this Winter")
        effects.units[prov] = Unit(power, UnitType.ARMY, prov)
        return DONE


class StayFleetKind(_ConversionKind):
    name = "stay_fleet"
    order_class = StayFleet
    position = 1
    mark = "stay F"  # kept a fleet if the drying strands it

    def record(self, order: ConversionOrder, position: Position, board: Board | None) -> Described:
        # In a retreat phase the flag is the dislodged fleet's; it stays where it is either way.
        return self.name, dislodged_at(position, order.unit), order.unit, None, None

    def apply(self, effects: Effects, power: str, order: StayFleet) -> Effect:
        """Flag where the fleet stands once the season's moves or retreats are done, for the timeline's
        hook that may strand it (E16); a dislodged fleet keeps its flag while it waits to retreat."""
        prov = province_of(order.unit)
        if effects.phase is PhaseType.RETREATS:
            waiting = effects.before.dislodged.get(prov)
            if waiting is None or waiting.unit.power != power:
                effects.flags.add(prov)  # a fleet of its own standing there
            else:
                effects.flags.update(_arrived(effects, power, prov))
            return DONE
        fleet = effects.before.units.get(prov)
        moved = _arrived(effects, power, prov)
        if moved and _is_own_fleet(effects.units.get(moved[0]), power, effects.before.units.get(moved[0])):
            effects.flags.add(moved[0])  # it moved there
        elif fleet is not None and effects.units.get(prov) == fleet:
            effects.flags.add(prov)  # it stayed (a dislodged fleet's flag does not follow its retreat)
        waiting = effects.dislodged.get(prov)
        if waiting is not None and waiting.unit.power == power:
            effects.dislodged[prov] = replace(waiting, stays_fleet=True)
        return DONE


class ConvertToFleetKind(_ConversionKind):
    name = "convert_to_fleet"
    order_class = ConvertToFleet
    position = 2
    mark = "A→F"

    def record(self, order: ConversionOrder, position: Position, board: Board | None) -> Described:
        assert isinstance(order, ConvertToFleet)
        to = f"{province_of(order.unit)}/{order.coast}" if order.coast else province_of(order.unit)
        return self.name, held_at(position, order.unit), order.unit, to, None

    def drawing(self, record: Mapping[str, Any]) -> Drawing:
        coast = coast_of(record["to"]) if record.get("to") else None
        words = self.mark + (f" {coast}" if coast else "")
        return Drawing("mark", place(record, "from"), label=self.order_class.__name__, words=words)

    def for_adjudication(self, order: ConversionOrder) -> Hold | None:
        return Hold(order.unit)  # the converting army holds meanwhile (it may be supported to hold)

    def apply(self, effects: Effects, power: str, order: ConvertToFleet) -> Effect:
        """After the moves the army, if still in place, becomes a fleet, unless a unit of another power
        attacked its province (E15; an army landing from an A/F attacks as a move does)."""
        prov = province_of(order.unit)
        others = sorted(effects.attackers(prov) - {power})
        if others:
            return Effect(Outcome.VOID, f"{' and '.join(others)} ordered a move into {prov}")
        unit = effects.units.get(prov)
        if unit is None or unit != effects.before.units.get(prov):
            return Effect(Outcome.VOID, "the army is no longer there")
        effects.units[prov] = Unit(power, UnitType.FLEET, f"{prov}/{order.coast}" if order.coast else prov)
        return DONE

    def candidates(self, board: Board, unit: Unit) -> list[ConversionOrder]:
        if unit.type is UnitType.FLEET:
            return []
        coasts = board.coasts(unit.province)
        return (
            [ConvertToFleet(unit.location, c) for c in coasts] if coasts else [ConvertToFleet(unit.location)]
        )


def _arrived(effects: Effects, power: str, prov: str) -> list[str]:
    """Where ``power``'s unit that began the phase in ``prov`` moved or retreated to (``[]``: nowhere)."""
    own = effects.own_order(power, prov)
    dest = effects.destination(own) if own is not None and effects.succeeded(own) else None
    return [dest] if dest is not None else []


def _is_own_fleet(unit: Unit | None, power: str, before: Unit | None) -> bool:
    """``unit`` is a fleet of ``power``'s that came into its province this phase."""
    return unit is not None and unit != before and unit == Unit(power, UnitType.FLEET, unit.location)


CONVERT_TO_ARMY = register(ConvertToArmyKind())
STAY_FLEET = register(StayFleetKind())
CONVERT_TO_FLEET = register(ConvertToFleetKind())
