"""Orders and their results drawn as arrows, rings and crosses."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from dipserver.engine import (
    SUPPORTING_KINDS,
    ConversionOrder,
    Drawable,
    Order,
    OrderResult,
    Outcome,
    Unit,
    UnitType,
    coast_of,
    drawable,
    order_record,
    province_of,
    result_record,
)
from dipserver.render.picture import UNKNOWN_POWER, Picture, n

FAILED_OUTCOMES = frozenset(Outcome) - {Outcome.SUCCESS}


# What each conversion shows at its unit (the mark's class, then its words): Deluge's army to fleet,
# Wall of Ice's fleet to army, and Sahara's "stays fleet" (kept a fleet if the drying strands it).
CONVERSION_MARKS = {
    "convert_to_fleet": ("ConvertToFleet", "A→F"),
    "convert_to_army": ("ConvertToArmy", "F→A"),
    "stay_fleet": ("StayFleet", "stay F"),
}


def draw_order(p: Picture, entry: Drawable, moves: Mapping[str, str]) -> list[str]:
    failed = entry.outcome in FAILED_OUTCOMES
    state = " failed" if failed else ""
    colour = p.colours.get(entry.power, UNKNOWN_POWER)
    kind, at = entry.kind, entry.at
    out: list[str] = []
    # Abstraction: an army boarding its fleet, and an A/F landing its army, are arrows like a move's.
    if kind in ("move", "retreat", "embark", "disembark") and at is not None and entry.to is not None:
        start = p.dislodged_point(at) if kind == "retreat" else p.from_point(at)
        end = p.to_point(entry.to)
        out.append(p.arrow_path(start, end, f"order {kind}{state}", entry.power))
        if failed:
            out.append(p.cross(p.midpoint(start, end)))
    elif kind == "support_hold" and at is not None and entry.target is not None:
        start, end = p.from_point(at), p.from_point(entry.target)
        out.append(p.arrow_path(start, end, f"order support{state}", entry.power, bend=0.0, head=False))
        x, y = end
        out.append(f'<circle class="hold" stroke="{colour}" cx="{n(x)}" cy="{n(y)}" r="13"/>')
    elif kind in ("support_move", "convoy") and at is not None and entry.target is not None:
        name = "support" if kind == "support_move" else "convoy"
        target_from = p.from_point(entry.target)
        target_to = p.to_point(moves.get(province_of(entry.target), entry.target_to or entry.target))
        aim = p.midpoint(target_from, target_to)
        out.append(p.arrow_path(p.from_point(at), aim, f"order {name}{state}", entry.power, bend=0.0))
    elif kind == "hold" and at is not None:
        x, y = p.from_point(at)
        out.append(f'<circle class="hold{state}" stroke="{colour}" cx="{n(x)}" cy="{n(y)}" r="13"/>')
    elif kind == "build" and entry.to is not None and entry.unit_type is not None:
        x, y = p.to_point(entry.to)
        out.append(p.unit(Unit(entry.power, UnitType(entry.unit_type), entry.to), (x, y), " built"))
        out.append(f'<circle class="build" stroke="{colour}" cx="{n(x)}" cy="{n(y)}" r="14"/>')
    elif kind == "disband" and at is not None:  # in a retreat phase, of the dislodged unit
        out.append(p.cross(p.dislodged_point(at), 9.0))
    elif kind in CONVERSION_MARKS and at is not None:
        out.extend(conversion(p, entry, colour, state))
    # A waive, and the rule modules' depots and blizzard tokens, are lines in the order list only.
    if failed and kind in SUPPORTING_KINDS and at is not None:
        out.append(p.cross(p.from_point(at), 4.0))
    return out


def conversion(p: Picture, entry: Drawable, colour: str, state: str) -> list[str]:
    """A dashed square round the unit in its power's colour and the change written above it (``A→F``,
    ``F→A``, ``stay F``): the province's label is below."""
    assert entry.at is not None
    x, y = p.from_point(entry.at)
    name, words = CONVERSION_MARKS[entry.kind]
    if entry.kind == "convert_to_fleet" and entry.to and (coast := coast_of(entry.to)):
        words += f" {coast}"
    return [
        f'<g class="conversion-mark {name}{state}" data-location="{entry.at}">'
        f'<rect class="conversion" stroke="{colour}" x="{n(x - 14)}" y="{n(y - 13)}" width="28" height="26"'
        ' rx="4"/>'
        f'<text class="conversion-text" x="{n(x)}" y="{n(y - 19)}">{words}</text></g>'
    ]


def drawn_entries(
    p: Picture,
    orders: Iterable[Order | ConversionOrder] | None,
    results: Iterable[Mapping[str, Any] | OrderResult] | None,
) -> list[Drawable]:
    """What to draw: the results' records (an engine ``OrderResult`` is made one first), else the orders
    as given, each in the colour of the power whose unit it names."""
    records: list[Mapping[str, Any]] = []
    if results is not None:
        records = [result_record(r, p.position) if isinstance(r, OrderResult) else r for r in results]
    else:
        for order in orders or ():
            power = getattr(order, "power", None) or p.power_of(order)
            records.append(order_record(power, order, p.position, outcome=None))
    return [entry for record in records if (entry := drawable(record)) is not None]


def draw_orders(
    p: Picture,
    orders: Iterable[Order | ConversionOrder] | None,
    results: Iterable[Mapping[str, Any] | OrderResult] | None,
) -> list[str]:
    """Results are records (``dipserver.engine.records``); conversion orders may be among them."""
    entries = drawn_entries(p, orders, results)
    # a support or convoy points at the move it helps; find each mover's actual destination
    moves = {province_of(e.at): e.to for e in entries if e.kind == "move" and e.at and e.to}
    out = []
    # supports and convoys first, so move arrows are drawn over them
    for entry in sorted(entries, key=lambda e: e.kind not in SUPPORTING_KINDS):
        out.extend(draw_order(p, entry, moves))
        if entry.at is not None and entry.dislodged:
            x, y = p.from_point(entry.at)  # ring the unit that was driven out
            out.append(f'<circle class="mark" cx="{n(x)}" cy="{n(y)}" r="15"/>')
    return out
