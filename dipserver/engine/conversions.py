"""The three variant orders that change a unit's kind (rulings E14, E15, E16): parse, check, apply.

- Wall of Ice, Winter: ``F BRE becomes army`` — a fleet on a coast becomes an army, free of counts.
- Deluge, movement: ``A POR becomes fleet`` (``... fleet NC`` where there are several coasts) — an army in
  a coastal supply centre becomes a fleet, unless a unit of another power is ordered to move into it.
- Sahara, movement: ``F NAO stays fleet`` — given beside the fleet's own order; if this season's drying
  strands the fleet, it is disbanded instead of becoming an army.

A variant enables them in ``timeline.toml`` (``[orders]``). The parser asks ``parse_conversion`` first
and falls back to the standard notation when it returns ``None``; the phase pipeline applies them with
``fleet_conversions`` (after movement), ``stay_flags`` (for ``timeline.apply_hook``) and
``army_conversions`` (after Winter adjustments).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace

from dipserver.engine.board import Board
from dipserver.engine.orders import (
    ConversionOrder,
    ConvertToArmy,
    ConvertToFleet,
    Hold,
    Move,
    Order,
    Retreat,
    StayFleet,
)
from dipserver.engine.parse import OrderError
from dipserver.engine.position import Dislodged, Position
from dipserver.engine.timeline import load_timeline
from dipserver.engine.types import PhaseType, Unit, UnitType, province_of

_KIND = {ConvertToArmy: "convert_to_army", ConvertToFleet: "convert_to_fleet", StayFleet: "stay_fleet"}
_WHAT = {
    "convert_to_army": "to turn a fleet into an army",
    "convert_to_fleet": "to turn an army into a fleet",
    "stay_fleet": "to keep a stranded fleet a fleet",
}

_UNIT = r"(?:(?P<kind>A|F|ARMY|FLEET)\s+)?(?P<place>[A-Z][A-Z .'-]*?)(?:\s*/\s*(?P<at>NC|SC|EC|WC))?"
_FORMS = [
    (
        ConvertToArmy,
        re.compile(rf"^{_UNIT}\s+(?:BECOMES|CONVERTS(?:\s+(?:TO|INTO))?)\s+(?:AN\s+)?(?:ARMY|A)$"),
    ),
    (
        ConvertToFleet,
        re.compile(
            rf"^{_UNIT}\s+(?:BECOMES|CONVERTS(?:\s+(?:TO|INTO))?)\s+(?:A\s+)?(?:FLEET|F)"
            r"(?:\s*/?\s*(?P<coast>NC|SC|EC|WC))?$"
        ),
    ),
    (StayFleet, re.compile(rf"^{_UNIT}\s+(?:STAYS?|KEEPS?|REMAINS?)\s+(?:A\s+)?(?:FLEET|F)$")),
]
_KEYWORDS = re.compile(r"\b(BECOMES|CONVERTS?|STAYS?|KEEPS?|REMAINS?)\b")


def parse_conversion(text: str, board: Board, position: Position, power: str) -> ConversionOrder | None:
    """The conversion order ``text`` gives, checked; ``None`` if it is not a conversion at all."""
    upper = " ".join(text.upper().replace("(", " ").replace(")", " ").split())
    if not _KEYWORDS.search(upper):
        return None
    for kind, form in _FORMS:
        m = form.match(upper)
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
    if kind not in load_timeline(variant).orders:
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


# --- applying them -------------------------------------------------------------------------------------


def for_adjudication(
    orders_by_power: Mapping[str, Iterable[Order | ConversionOrder]],
) -> dict[str, list[Order]]:
    """The orders the standard adjudicator sees: a converting army holds; flags and Winter conversions
    are not its business."""
    plain: dict[str, list[Order]] = {}
    for power, orders in orders_by_power.items():
        for order in orders:
            if isinstance(order, ConvertToFleet):
                plain.setdefault(power, []).append(Hold(order.unit))
            elif not isinstance(order, ConvertToArmy | StayFleet):
                plain.setdefault(power, []).append(order)
    return plain


def fleet_conversions(
    before: Mapping[str, Unit],
    after: Mapping[str, Unit],
    orders_by_power: Mapping[str, Iterable[Order | ConversionOrder]],
    move_counts: Callable[[str, Move], bool] = lambda power, move: True,
) -> tuple[dict[str, Unit], list[tuple[str, ConvertToFleet, bool, str]]]:
    """Deluge, after the movement phase: each ordered army that is still in place becomes a fleet unless a
    unit of another power was ordered to move into its province (E15).

    ``move_counts(power, move)`` says whether a move order counts as an attack (the adjudicator answers
    False for a convoyed move whose convoy route was broken). Returns the units and, per conversion,
    ``(power, order, succeeded, reason)``.
    """
    units = dict(after)
    attacked: dict[str, set[str]] = {}
    for power, orders in orders_by_power.items():
        for order in orders:
            if isinstance(order, Move) and move_counts(power, order):
                attacked.setdefault(province_of(order.dest), set()).add(power)
    results = []
    for power, orders in orders_by_power.items():
        for order in orders:
            if not isinstance(order, ConvertToFleet):
                continue
            prov = province_of(order.unit)
            others = sorted(attacked.get(prov, set()) - {power})
            unit = units.get(prov)
            if others:
                results.append((power, order, False, f"{' and '.join(others)} ordered a move into {prov}"))
            elif unit is None or unit != before.get(prov):
                results.append((power, order, False, "the army is no longer there"))
            else:
                location = f"{prov}/{order.coast}" if order.coast else prov
                units[prov] = Unit(power, UnitType.FLEET, location)
                results.append((power, order, True, ""))
    return units, results


def stay_flags(
    before: Mapping[str, Unit],
    after: Mapping[str, Unit],
    orders_by_power: Mapping[str, Iterable[Order | ConversionOrder]],
) -> frozenset[str]:
    """Sahara: where the fleets told to stay fleets stand once the season's moves are done (the ``flags``
    of ``timeline.apply_hook``)."""
    flags: set[str] = set()
    for power, orders in orders_by_power.items():
        orders = list(orders)
        for flag in (o for o in orders if isinstance(o, StayFleet)):
            prov = province_of(flag.unit)
            fleet = before.get(prov)
            move = next((o for o in orders if isinstance(o, Move) and province_of(o.unit) == prov), None)
            dest = province_of(move.dest) if move is not None else ""
            arrived = after.get(dest)
            if (
                arrived is not None
                and arrived != before.get(dest)
                and arrived == Unit(power, UnitType.FLEET, arrived.location)
            ):
                flags.add(dest)  # it moved there
            elif fleet is not None and after.get(prov) == fleet:
                flags.add(prov)  # it stayed (a dislodged fleet's flag does not follow its retreat)
    return frozenset(flags)


def winter_converters(board: Board, units: Mapping[str, Unit]) -> frozenset[str]:
    """Wall of Ice (rule 4, E14): the powers with a fleet on a coast that could become an army this Winter,
    when the variant has the order. A Winter in which some power could convert is played, not skipped."""
    if "convert_to_army" not in load_timeline(board.variant).orders:
        return frozenset()
    return frozenset(u.power for p, u in units.items() if u.type is UnitType.FLEET and board.is_land(p))


def flag_dislodged(
    dislodged: Mapping[str, Dislodged], orders_by_power: Mapping[str, Iterable[Order | ConversionOrder]]
) -> dict[str, Dislodged]:
    """Sahara, after a movement phase: a fleet told to stay a fleet and dislodged keeps its flag while it
    waits to retreat (``Dislodged.stays_fleet``); the flag goes where the retreat takes it."""
    flagged = {
        (power, province_of(o.unit))
        for power, orders in orders_by_power.items()
        for o in orders
        if isinstance(o, StayFleet)
    }
    return {
        prov: replace(d, stays_fleet=True) if (d.unit.power, prov) in flagged else d
        for prov, d in dislodged.items()
    }


def retreat_flags(
    pending: frozenset[str],
    dislodged: Mapping[str, Dislodged],
    orders_by_power: Mapping[str, Iterable[Order | ConversionOrder]],
    arrived: Callable[[str, Retreat], bool],
) -> frozenset[str]:
    """Sahara, after a retreat phase: where the fleets told to stay fleets stand for the hook that follows.
    The flags of units that did not retreat stay put (``pending``); a flagged dislodged fleet's flag (given
    with the movement orders, or with its retreat) goes to where it retreated, if ``arrived`` says it got
    there. Standing fleets may be flagged in the retreat phase too."""
    flags = set(pending)
    for power, orders in orders_by_power.items():
        orders = list(orders)
        told = {province_of(o.unit) for o in orders if isinstance(o, StayFleet)}
        for prov in told:
            if prov not in dislodged or dislodged[prov].unit.power != power:
                flags.add(prov)  # a fleet of its own standing there
        for retreat in (o for o in orders if isinstance(o, Retreat)):
            prov = province_of(retreat.unit)
            d = dislodged.get(prov)
            keeps = d is not None and d.unit.power == power and (d.stays_fleet or prov in told)
            if keeps and arrived(power, retreat):
                flags.add(province_of(retreat.dest))
    return frozenset(flags)


def army_conversions(
    units: Mapping[str, Unit], orders_by_power: Mapping[str, Iterable[Order | ConversionOrder]]
) -> tuple[dict[str, Unit], list[tuple[str, ConvertToArmy, bool, str]]]:
    """Wall of Ice, after the Winter adjustments: ordered fleets that are still there become armies; a
    fleet removed this Winter is simply gone (E14)."""
    result = dict(units)
    outcomes = []
    for power, orders in orders_by_power.items():
        for order in orders:
            if not isinstance(order, ConvertToArmy):
                continue
            prov = province_of(order.unit)
            unit = result.get(prov)
            if unit is None or unit.power != power or unit.type is not UnitType.FLEET:
                outcomes.append((power, order, False, "the fleet was removed this Winter"))
                continue
            result[prov] = Unit(power, UnitType.ARMY, prov)
            outcomes.append((power, order, True, ""))
    return result, outcomes


def _kind(unit_type: UnitType) -> str:
    return "army" if unit_type is UnitType.ARMY else "fleet"


def _a(unit_type: UnitType) -> str:
    return "an army" if unit_type is UnitType.ARMY else "a fleet"
