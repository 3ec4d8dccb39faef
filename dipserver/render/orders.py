"""Orders and their results drawn as arrows, rings and crosses."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from dipserver.engine import (
    Build,
    ConversionOrder,
    ConvertToArmy,
    ConvertToFleet,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    OrderResult,
    Outcome,
    Retreat,
    StayFleet,
    SupportHold,
    SupportMove,
    Unit,
    Waive,
    province_of,
)
from dipserver.render.picture import UNKNOWN_POWER, Picture, n

FAILED_OUTCOMES = frozenset(Outcome) - {Outcome.SUCCESS}


# What each conversion order shows at its unit: Deluge's army to fleet, Wall of Ice's fleet to army, and
# Sahara's "stays fleet" (kept a fleet if the drying strands it).
CONVERSION_MARKS = {ConvertToFleet: "A→F", ConvertToArmy: "F→A", StayFleet: "stay F"}


def draw_order(
    p: Picture, power: str, order: Order | ConversionOrder, outcome: Outcome | None, moves: Mapping[str, str]
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
    elif isinstance(order, ConvertToArmy | ConvertToFleet | StayFleet):
        out.extend(conversion(p, order, colour, state))
    if failed and isinstance(order, SupportHold | SupportMove | Convoy):
        out.append(p.cross(p.from_point(order.unit), 4.0))
    return out


def conversion(p: Picture, order: ConversionOrder, colour: str, state: str) -> list[str]:
    """A dashed square round the unit in its power's colour and the change written above it (``A→F``,
    ``F→A``, ``stay F``): the province's label is below."""
    x, y = p.from_point(order.unit)
    kind = type(order).__name__
    words = CONVERSION_MARKS[type(order)]
    if isinstance(order, ConvertToFleet) and order.coast:
        words += f" {order.coast}"
    return [
        f'<g class="conversion-mark {kind}{state}" data-location="{order.unit}">'
        f'<rect class="conversion" stroke="{colour}" x="{n(x - 14)}" y="{n(y - 13)}" width="28" height="26"'
        ' rx="4"/>'
        f'<text class="conversion-text" x="{n(x)}" y="{n(y - 19)}">{words}</text></g>'
    ]


def draw_orders(
    p: Picture,
    orders: Iterable[Order | ConversionOrder] | None,
    results: Iterable[OrderResult] | None,
) -> list[str]:
    """Conversion orders (``ConvertToArmy`` etc.) may be among the orders or the results' orders."""
    entries: list[tuple[str, Order | ConversionOrder, Outcome | None, bool]] = []
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
