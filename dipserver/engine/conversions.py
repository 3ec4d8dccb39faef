"""The three variant orders that change a unit's kind (rulings E14, E15, E16): applying them.

- Wall of Ice, Winter: ``F BRE becomes army`` — a fleet on a coast becomes an army, free of counts.
- Deluge, movement: ``A POR becomes fleet`` — an army in a coastal supply centre becomes a fleet, unless a
  unit of another power is ordered to move into it.
- Sahara, movement: ``F NAO stays fleet`` — if this season's drying strands the fleet, it is disbanded
  instead of becoming an army.

Their reading, checking and notation are their order kinds' (``kinds/conversion.py``, named again here);
the phase pipeline applies them with ``fleet_conversions`` (after movement), ``stay_flags`` (for
``timeline.apply_hook``) and ``army_conversions`` (after Winter adjustments).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace

from dipserver.engine.board import Board
from dipserver.engine.kinds.conversion import check_conversion as check_conversion
from dipserver.engine.kinds.conversion import conversion_text as conversion_text
from dipserver.engine.kinds.conversion import parse_conversion as parse_conversion
from dipserver.engine.kinds.registry import kinds
from dipserver.engine.orders import (
    ConversionOrder,
    ConvertToArmy,
    ConvertToFleet,
    Move,
    Order,
    Retreat,
    StayFleet,
)
from dipserver.engine.position import Dislodged
from dipserver.engine.timeline import load_timeline
from dipserver.engine.types import Unit, UnitType, province_of

# --- applying them -------------------------------------------------------------------------------------


def for_adjudication(
    orders_by_power: Mapping[str, Iterable[Order | ConversionOrder]],
) -> dict[str, list[Order]]:
    """The orders the standard adjudicator sees, as each order's kind says (``Kind.for_adjudication``): a
    converting army holds; flags and Winter conversions are not its business."""
    return handed_on(orders_by_power)[0]


def handed_on(
    orders_by_power: Mapping[str, Iterable[Order | ConversionOrder]],
) -> tuple[dict[str, list[Order]], frozenset[int]]:
    """``for_adjudication``'s orders, and the ids of those among them that only stand in for an order
    (``Kind.stand_in``): the phase reports the results of all the others."""
    plain: dict[str, list[Order]] = {}
    stand_ins: set[int] = set()
    known = kinds()
    for power, orders in orders_by_power.items():
        for order in orders:
            kind = known.get(type(order))
            seen: Order | None = order if kind is None else kind.for_adjudication(order)  # type: ignore[assignment]
            if seen is None:
                continue
            plain.setdefault(power, []).append(seen)
            if kind is not None and kind.stand_in:
                stand_ins.add(id(seen))
    return plain, frozenset(stand_ins)


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
