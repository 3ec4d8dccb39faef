"""The retreat phase: each dislodged unit retreats to one of its listed options or is disbanded.

Only retreat and disband orders exist here; a support, convoy or move of a unit that was not dislodged is
invalid (DATC 6.H.1 to 6.H.4). Two or more units retreating to one province are all disbanded (6.H.7, 6.H.8),
and a dislodged unit without a valid order is disbanded.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from dipserver.engine.dislodged import Dislodged
from dipserver.engine.lateorders import Disband, Retreat
from dipserver.engine.orders import Order, OrderResult, Outcome
from dipserver.engine.types import Unit, UnitType, coast_of, province_of

if TYPE_CHECKING:
    from dipserver.engine.board import Board


@dataclass(frozen=True, slots=True)
class RetreatOutcome:
    results: tuple[OrderResult, ...]  # one per order given, then one per unit disbanded for want of one
    units: dict[str, Unit]  # the units on the board after the retreats, keyed by province
    disbanded: tuple[Unit, ...]


def resolve_retreats(
    board: Board,
    units: Mapping[str, Unit],
    dislodged: Mapping[str, Dislodged],
    orders_by_power: Mapping[str, Iterable[Order]],
) -> RetreatOutcome:
    """Adjudicate one retreat phase: ``units`` are those not dislodged, ``dislodged`` keyed by province."""
    results: list[OrderResult | None] = []
    chosen: dict[str, tuple[int, str, Order, str]] = {}  # province -> (result slot, power, order, target)
    conflicted: set[str] = set()
    for power, orders in orders_by_power.items():
        for order in orders:
            problem, target = _illegal(board, dislodged, power, order)
            prov = province_of(getattr(order, "unit", ""))
            if not problem and prov in conflicted:
                problem = f"{_describe(board, dislodged[prov].unit)} was given different orders"
            elif not problem and prov in chosen:
                if chosen[prov][2] == order:
                    results.append(OrderResult(power, order, Outcome.VOID, "Repeated order"))
                    continue
                # Different orders for one unit: none is followed, so it is disbanded (DATC 4.D.3).
                problem = f"{_describe(board, dislodged[prov].unit)} was given different orders"
                slot, p, first, _ = chosen.pop(prov)
                conflicted.add(prov)
                results[slot] = OrderResult(p, first, Outcome.INVALID, problem)
            if problem:
                results.append(OrderResult(power, order, Outcome.INVALID, problem))
            else:
                chosen[prov] = (len(results), power, order, target)
                results.append(None)

    arrivals: dict[str, list[str]] = {}
    for prov, (_, _, _, target) in chosen.items():
        if target:
            arrivals.setdefault(province_of(target), []).append(prov)

    new_units = dict(units)
    disbanded: list[Unit] = []
    for prov, (slot, power, order, target) in chosen.items():
        unit = dislodged[prov].unit
        if not target:
            results[slot] = OrderResult(power, order, Outcome.SUCCESS)
            disbanded.append(unit)
        elif len(arrivals[province_of(target)]) > 1:
            why = f"Several units retreated to {board.province_name(target)}: all are disbanded"
            results[slot] = OrderResult(power, order, Outcome.BOUNCE, why)
            disbanded.append(unit)
        else:
            results[slot] = OrderResult(power, order, Outcome.SUCCESS)
            new_units[province_of(target)] = Unit(unit.power, unit.type, target, unit.aboard)  # an A/F too

    final = [r for r in results if r is not None]
    for prov, d in dislodged.items():
        if prov not in chosen:
            # No valid order: the unit is disbanded; reported as a result so the history shows it.
            why = "No valid retreat was ordered" if d.retreats else "There was nowhere to retreat to"
            final.append(OrderResult(d.unit.power, Disband(d.unit.location), Outcome.SUCCESS, why))
            disbanded.append(d.unit)
    return RetreatOutcome(tuple(final), new_units, tuple(disbanded))


def _describe(board: Board, unit: Unit) -> str:
    kind = "army" if unit.type is UnitType.ARMY else "fleet"
    return f"The dislodged {kind} in {board.location_name(unit.location)}"


def _illegal(board: Board, dislodged: Mapping[str, Dislodged], power: str, order: Order) -> tuple[str, str]:
    """The reason ``order`` cannot be followed (empty when it can) and the retreat's target location."""
    if not isinstance(order, Retreat | Disband):
        return f"{type(order).__name__} orders are not given in a retreat phase", ""
    prov = province_of(order.unit)
    d = dislodged.get(prov)
    if d is None:
        return f"There is no dislodged unit in {board.province_name(prov)}", ""
    if d.unit.power != power:
        return f"The dislodged unit in {board.province_name(prov)} belongs to {d.unit.power}, not {power}", ""
    if isinstance(order, Disband):
        return "", ""
    target = _settle(d, order.dest)
    if target is None:
        options = ", ".join(board.location_name(o) for o in d.retreats) or "nowhere"
        where = board.location_name(order.dest)
        return f"{_describe(board, d.unit)} cannot retreat to {where}; it may retreat to {options}", ""
    return "", target


def _settle(d: Dislodged, dest: str) -> str | None:
    """The retreat option ``dest`` names: exact, or its province when the coast is left out or irrelevant."""
    if dest in d.retreats:
        return dest
    prov = province_of(dest)
    matching = [o for o in d.retreats if province_of(o) == prov]
    if len(matching) == 1 and (coast_of(dest) is None or coast_of(matching[0]) is None):
        return matching[0]
    return None
