"""Orders and their results drawn as arrows, rings and crosses."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from dipserver.engine.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    OrderResult,
    Outcome,
    Retreat,
    SupportHold,
    SupportMove,
    Waive,
)
from dipserver.engine.types import Unit, province_of
from dipserver.render.picture import UNKNOWN_POWER, Picture, n

FAILED_OUTCOMES = frozenset(Outcome) - {Outcome.SUCCESS}


def draw_order(
    p: Picture, power: str, order: Order, outcome: Outcome | None, moves: Mapping[str, str]
) -> list[str]:
    failed = outcome in FAILED_OUTCOMES
    state = " failed" if failed else ""
    colour = p.colours.get(power, UNKNOWN_POWER)
    out: list[str] = []
    if isinstance(order, Move | Retreat):
        kind = "retreat" if isinstance(order, Retreat) else "move"
        start = p.dislodged_point(order.unit) if kind == "retreat" else p.from_point(order.unit)
        end = p.to_point(order.dest)
        out.append(p.arrow_path(start, end, f"order {kind}{state}", power))
        if failed:
            out.append(p.cross(p.midpoint(start, end)))
    elif isinstance(order, SupportHold):
        start, end = p.from_point(order.unit), p.from_point(order.target)
        out.append(p.arrow_path(start, end, f"order support{state}", power, bend=0.0, head=False))
        x, y = end
        out.append(f'<circle class="hold" stroke="{colour}" cx="{n(x)}" cy="{n(y)}" r="13"/>')
    elif isinstance(order, SupportMove | Convoy):
        kind = "support" if isinstance(order, SupportMove) else "convoy"
        target_from = p.from_point(order.target)
        target_to = p.to_point(moves.get(province_of(order.target), order.dest))
        aim = p.midpoint(target_from, target_to)
        out.append(p.arrow_path(p.from_point(order.unit), aim, f"order {kind}{state}", power, bend=0.0))
    elif isinstance(order, Hold):
        x, y = p.from_point(order.unit)
        out.append(f'<circle class="hold{state}" stroke="{colour}" cx="{n(x)}" cy="{n(y)}" r="13"/>')
    elif isinstance(order, Build):
        x, y = p.to_point(order.location)
        unit = Unit(order.power, order.unit_type, order.location)
        out.append(p.unit(unit, (x, y), " built"))
        out.append(f'<circle class="build" stroke="{colour}" cx="{n(x)}" cy="{n(y)}" r="14"/>')
    elif isinstance(order, Disband):  # in a retreat phase, of the dislodged unit
        out.append(p.cross(p.dislodged_point(order.unit), 9.0))
    elif isinstance(order, Waive):
        pass  # nothing on the map: a waived build is a line in the order list
    if failed and isinstance(order, SupportHold | SupportMove | Convoy):
        out.append(p.cross(p.from_point(order.unit), 4.0))
    return out


def draw_orders(
    p: Picture, orders: Iterable[Order] | None, results: Iterable[OrderResult] | None
) -> list[str]:
    entries: list[tuple[str, Order, Outcome | None, bool]] = []
    if results is not None:
        entries = [(r.power, r.order, r.outcome, r.dislodged) for r in results]
    else:
        for order in orders or ():
            power = getattr(order, "power", None) or p.power_of(order)
            entries.append((power, order, None, False))
    # a support or convoy points at the move it helps; find each mover's actual destination
    moves = {province_of(o.unit): o.dest for _, o, _, _ in entries if isinstance(o, Move)}
    out = []
    # supports and convoys first, so move arrows are drawn over them
    ordered = sorted(entries, key=lambda e: not isinstance(e[1], SupportHold | SupportMove | Convoy))
    for power, order, outcome, dislodged in ordered:
        out.extend(draw_order(p, power, order, outcome, moves))
        location = getattr(order, "unit", None)
        if location is not None and (dislodged or outcome is Outcome.DISLODGED):
            x, y = p.from_point(location)  # ring the unit that was driven out
            out.append(f'<circle class="mark" cx="{n(x)}" cy="{n(y)}" r="15"/>')
    return out
