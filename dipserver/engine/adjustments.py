"""The adjustment phase: builds and disbands bring each power's units in line with its centres.

Orders are taken one by one in the order given (DATC 4.D.4 to 4.D.6): builds beyond what the power may build,
a second build in one province, and disbands beyond what it must remove all fail. A waive uses up one
build. A power that removes too few units has the rest removed by the civil-disorder rule of the 2023
rulebook (6.J): the unit farthest from its nearest owned supply centre, counting steps over land and sea
for armies and fleets alike; on equal distance a fleet before an army, then by the province's English name.

An A/F (Abstraction, a fleet with an army aboard) is two units: it counts twice, and a removal there
removes the army aboard first, leaving the fleet.

Who may build and whether a Winter is played at all are ``buildsites.py``'s: every phase asks them, and
only an adjustment phase loads this module (``adjudicate.py``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from dipserver.engine.buildsites import adjustment_counts, build_sites
from dipserver.engine.distances import distances_from
from dipserver.engine.lateorders import Build, Disband, Waive
from dipserver.engine.orders import Order, OrderResult, Outcome
from dipserver.engine.types import HOME, Unit, UnitType, coast_of, province_of

if TYPE_CHECKING:
    from dipserver.engine.board import Board


@dataclass(frozen=True, slots=True)
class AdjustmentOutcome:
    results: tuple[OrderResult, ...]  # one per order given, then one per civil-disorder removal
    units: dict[str, Unit]  # keyed by province


def resolve_adjustments(
    board: Board,
    units: Mapping[str, Unit],
    owners: Mapping[str, str],
    orders_by_power: Mapping[str, Iterable[Order]],
    build_rule: str = HOME,
) -> AdjustmentOutcome:
    """Adjudicate one adjustment phase; ``owners`` maps each owned centre to its power."""
    counts = adjustment_counts(units, owners)
    new_units = dict(units)
    results: list[OrderResult] = []
    for power, orders in orders_by_power.items():
        delta = counts.get(power, 0)
        if delta >= 0:
            sites = set(build_sites(board, units, owners, power, build_rule))
            left = delta
            for order in orders:
                problem = _illegal_build(board, power, order, left, sites, new_units)
                if problem:
                    results.append(OrderResult(power, order, Outcome.INVALID, problem))
                    continue
                left -= 1
                if isinstance(order, Build):
                    new_units[province_of(order.location)] = Unit(power, order.unit_type, order.location)
                results.append(OrderResult(power, order, Outcome.SUCCESS))
        else:
            left = -delta
            for order in orders:
                problem = _illegal_disband(board, power, order, left, units, new_units)
                if problem:
                    results.append(OrderResult(power, order, Outcome.INVALID, problem))
                    continue
                left -= 1
                _remove(new_units, province_of(order.unit))  # type: ignore[union-attr]
                results.append(OrderResult(power, order, Outcome.SUCCESS))
            counts[power] = -left
    for power, delta in counts.items():
        if delta < 0:
            for unit in civil_disorder_removals(board, new_units, owners, power, -delta):
                _remove(new_units, unit.province)
                why = "Civil disorder: too few units were removed"
                results.append(OrderResult(power, Disband(unit.location), Outcome.SUCCESS, why))
    return AdjustmentOutcome(tuple(results), new_units)


def civil_disorder_removals(
    board: Board, units: Mapping[str, Unit], owners: Mapping[str, str], power: str, count: int
) -> list[Unit]:
    """The ``count`` units ``power`` loses in civil disorder, first to go first (DATC 6.J)."""
    distance = distances_from(board, [p for p, o in owners.items() if o == power])
    far = len(board.provinces) + 1  # cut off from every owned centre (or none owned): farthest of all

    def removal_order(unit: Unit) -> tuple[int, int, str, str]:
        fleet_first = 0 if unit.type is UnitType.FLEET else 1
        return (
            -distance.get(unit.province, far),
            fleet_first,
            board.province_name(unit.province),
            unit.location,
        )

    mine = [u for u in units.values() if u.power == power]
    mine += [u for u in mine if u.aboard]  # an A/F is two units: its army goes first, then the fleet
    return sorted(mine, key=removal_order)[:count]


def _remove(units: dict[str, Unit], prov: str) -> None:
    """One unit removed from ``prov``: the army aboard an A/F, else the unit there."""
    unit = units[prov]
    if unit.aboard:
        units[prov] = Unit(unit.power, unit.type, unit.location)
    else:
        del units[prov]


def _illegal_build(
    board: Board, power: str, order: Order, left: int, sites: set[str], new_units: Mapping[str, Unit]
) -> str:
    if isinstance(order, Disband):
        return f"{power} has no units to remove"
    if isinstance(order, Waive):
        return f"{power} has no build left to waive" if left <= 0 else ""
    if not isinstance(order, Build):
        return f"{type(order).__name__} orders are not given in an adjustment phase"
    if order.power != power:
        return f"{power} cannot build for {order.power}"
    prov = province_of(order.location)
    name = board.province_name(prov)
    if left <= 0:
        return f"{power} has no builds left"
    if prov in new_units:
        return f"{name} is already occupied"  # by a unit, or by this phase's first build there (4.D.5)
    if prov not in sites:
        return f"{name} is not a vacant supply centre where {power} may build"
    if order.unit_type is UnitType.ARMY:
        if not board.is_land(prov):
            return f"An army cannot be built in {name}"
        return ""
    if not board.is_coastal(prov):
        return f"A fleet cannot be built in {name}: it is not on the coast"
    coasts = board.coasts(prov)
    if coasts and coast_of(order.location) not in coasts:
        named = " or ".join(board.location_name(f"{prov}/{c}") for c in coasts)
        return f"Name the coast to build a fleet in {name}: {named}"
    return ""


def _illegal_disband(
    board: Board,
    power: str,
    order: Order,
    left: int,
    units: Mapping[str, Unit],
    new_units: Mapping[str, Unit],
) -> str:
    if isinstance(order, Build | Waive):
        return f"{power} has no builds: it must remove units"
    if not isinstance(order, Disband):
        return f"{type(order).__name__} orders are not given in an adjustment phase"
    prov = province_of(order.unit)
    name = board.province_name(prov)
    unit = units.get(prov)
    if unit is None:
        return f"There is no unit in {name}"
    if unit.power != power:
        return f"The unit in {name} belongs to {unit.power}, not {power}"
    if prov not in new_units:
        return f"The unit in {name} is already removed"
    if left <= 0:
        return f"{power} has no more units to remove"
    return ""
