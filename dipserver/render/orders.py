"""Orders and their results drawn as arrows, rings and crosses: each result record as its kind's drawing
says (``Kind.drawing``); the shapes are drawn here."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from dipserver.engine import (
    ConversionOrder,
    Drawing,
    Order,
    OrderResult,
    Outcome,
    order_record,
    province_of,
    record_drawing,
    result_record,
)
from dipserver.render.picture import UNKNOWN_POWER, Picture, n

FAILED_OUTCOMES = frozenset(Outcome) - {Outcome.SUCCESS}
# The shapes of a unit's help to another (supports, convoys): drawn under the moves, crossed if they failed.
HELPING = frozenset({"line", "hold_line"})


@dataclass(frozen=True, slots=True)
class Entry:
    """One record as the map draws it: its kind's drawing (``Kind.drawing``), whose it is, how it went."""

    drawing: Drawing
    power: str
    at: str | None  # where the ordered unit stands (the record's ``from``)
    failed: bool
    dislodged: bool  # the ordered unit was driven out


def draw_order(p: Picture, entry: Entry, moves: Mapping[str, str]) -> list[str]:
    d, failed = entry.drawing, entry.failed
    state = " failed" if failed else ""
    colour = p.colours.get(entry.power, UNKNOWN_POWER)
    shape, start = d.shape, d.start
    out: list[str] = []
    if shape == "arrow" and start and d.end:
        begin = p.dislodged_point(start) if d.dislodged else p.from_point(start)
        end = p.to_point(d.end)
        out.append(p.arrow_path(begin, end, f"order {d.label}{state}", entry.power))
        if failed:
            out.append(p.cross(p.midpoint(begin, end)))
    elif shape == "hold_line" and start and d.via:
        begin, end = p.from_point(start), p.from_point(d.via)
        out.append(p.arrow_path(begin, end, f"order {d.label}{state}", entry.power, bend=0.0, head=False))
        x, y = end
        out.append(f'<circle class="hold" stroke="{colour}" cx="{n(x)}" cy="{n(y)}" r="13"/>')
    elif shape == "line" and start and d.via:
        target_from = p.from_point(d.via)
        target_to = p.to_point(moves.get(province_of(d.via), d.end or d.via))
        aim = p.midpoint(target_from, target_to)
        out.append(p.arrow_path(p.from_point(start), aim, f"order {d.label}{state}", entry.power, bend=0.0))
    elif shape == "ring" and start:
        x, y = p.from_point(start)
        out.append(f'<circle class="hold{state}" stroke="{colour}" cx="{n(x)}" cy="{n(y)}" r="13"/>')
    elif shape == "unit" and start and d.unit is not None:
        x, y = p.to_point(start)
        out.append(p.unit(d.unit, (x, y), " built"))
        out.append(f'<circle class="build" stroke="{colour}" cx="{n(x)}" cy="{n(y)}" r="14"/>')
    elif shape == "cross" and start:
        out.append(p.cross(p.dislodged_point(start) if d.dislodged else p.from_point(start), 9.0))
    elif shape == "mark" and start:
        out.extend(mark(p, d, colour, state))
    if failed and shape in HELPING and start:
        out.append(p.cross(p.from_point(start), 4.0))
    return out


def mark(p: Picture, d: Drawing, colour: str, state: str) -> list[str]:
    """A dashed square round the unit in its power's colour and the kind's words above it (a conversion's
    ``A→F``, ``F→A``, ``stay F``): the province's label is below."""
    x, y = p.from_point(d.start)
    return [
        f'<g class="conversion-mark {d.label}{state}" data-location="{d.start}">'
        f'<rect class="conversion" stroke="{colour}" x="{n(x - 14)}" y="{n(y - 13)}" width="28" height="26"'
        ' rx="4"/>'
        f'<text class="conversion-text" x="{n(x)}" y="{n(y - 19)}">{d.words}</text></g>'
    ]


def entry_of(record: Mapping[str, Any]) -> Entry | None:
    """The record as the map draws it; ``None`` for a line that read as no order."""
    drawing = record_drawing(record)
    if drawing is None:
        return None
    outcome = record.get("outcome")
    return Entry(
        drawing,
        record["power"],
        record.get("from"),
        outcome is not None and Outcome(outcome) in FAILED_OUTCOMES,
        bool(record.get("dislodged")) or outcome == Outcome.DISLODGED.value,
    )


def drawn_entries(
    p: Picture,
    orders: Iterable[Order | ConversionOrder] | None,
    results: Iterable[Mapping[str, Any] | OrderResult] | None,
) -> list[Entry]:
    """What to draw: the results' records (an engine ``OrderResult`` is made one first), else the orders
    as given, each in the colour of the power whose unit it names."""
    records: list[Mapping[str, Any]] = []
    if results is not None:
        records = [result_record(r, p.position) if isinstance(r, OrderResult) else r for r in results]
    else:
        for order in orders or ():
            power = getattr(order, "power", None) or p.power_of(order)
            records.append(order_record(power, order, p.position, outcome=None))
    return [entry for record in records if (entry := entry_of(record)) is not None]


def draw_orders(
    p: Picture,
    orders: Iterable[Order | ConversionOrder] | None,
    results: Iterable[Mapping[str, Any] | OrderResult] | None,
) -> list[str]:
    """Results are records (``dipserver.engine.records``); conversion orders may be among them."""
    entries = drawn_entries(p, orders, results)
    # a support or convoy points at the move it helps; find each mover's actual destination
    moves = {
        province_of(d.start): d.end
        for e in entries
        if (d := e.drawing).shape == "arrow" and not d.dislodged and d.start and d.end
    }
    out = []
    # supports and convoys first, so move arrows are drawn over them
    for entry in sorted(entries, key=lambda e: e.drawing.shape not in HELPING):
        out.extend(draw_order(p, entry, moves))
        if entry.at is not None and entry.dislodged:
            x, y = p.from_point(entry.at)  # ring the unit that was driven out
            out.append(f'<circle class="mark" cx="{n(x)}" cy="{n(y)}" r="15"/>')
    return out
