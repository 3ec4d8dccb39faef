"""Orders and their results drawn as arrows, rings and crosses."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

# Every order is drawn as its kind says (``Kind.drawing``): the kinds are loaded here, so that each one
# registers its drawing, and the picture knows shapes, not order classes.
from dipserver.engine.kinds import conversion as _conversion  # noqa: F401  (registers its kinds)
from dipserver.engine.kinds import standard as _standard  # noqa: F401  (registers its kinds)
from dipserver.engine.kinds.registry import Drawing, drawing_of
from dipserver.engine.orders import ConversionOrder, Order, OrderResult, Outcome
from dipserver.engine.types import province_of
from dipserver.render.picture import UNKNOWN_POWER, Picture, n

FAILED_OUTCOMES = frozenset(Outcome) - {Outcome.SUCCESS}
_HELPING = ("line", "hold_line")  # supports and convoys: drawn first, so move arrows are drawn over them


def draw_order(
    p: Picture, power: str, order: Order | ConversionOrder, outcome: Outcome | None, moves: Mapping[str, str]
) -> list[str]:
    failed = outcome in FAILED_OUTCOMES
    state = " failed" if failed else ""
    colour = p.colours.get(power, UNKNOWN_POWER)
    hint = drawing_of(order)
    shape = hint.shape
    out: list[str] = []
    if shape == "arrow":
        start = p.dislodged_point(hint.start) if hint.dislodged else p.from_point(hint.start)
        end = p.to_point(hint.end)
        out.append(p.arrow_path(start, end, f"order {hint.label}{state}", power))
        if failed:
            out.append(p.cross(p.midpoint(start, end)))
    elif shape == "hold_line":
        start, end = p.from_point(hint.start), p.from_point(hint.end)
        out.append(p.arrow_path(start, end, f"order {hint.label}{state}", power, bend=0.0, head=False))
        x, y = end
        out.append(f'<circle class="hold" stroke="{colour}" cx="{n(x)}" cy="{n(y)}" r="13"/>')
    elif shape == "line":
        target_from = p.from_point(hint.via)
        target_to = p.to_point(moves.get(province_of(hint.via), hint.end))
        aim = p.midpoint(target_from, target_to)
        out.append(p.arrow_path(p.from_point(hint.start), aim, f"order {hint.label}{state}", power, bend=0.0))
    elif shape == "ring":
        x, y = p.from_point(hint.start)
        out.append(f'<circle class="hold{state}" stroke="{colour}" cx="{n(x)}" cy="{n(y)}" r="13"/>')
    elif shape == "unit" and hint.unit is not None:
        x, y = p.to_point(hint.start)
        out.append(p.unit(hint.unit, (x, y), " built"))
        out.append(f'<circle class="build" stroke="{colour}" cx="{n(x)}" cy="{n(y)}" r="14"/>')
    elif shape == "cross":  # a disband, in a retreat phase of the dislodged unit
        out.append(
            p.cross(p.dislodged_point(hint.start) if hint.dislodged else p.from_point(hint.start), 9.0)
        )
    elif shape == "mark":
        out.extend(conversion(p, order, hint, colour, state))
    if failed and shape in _HELPING:
        out.append(p.cross(p.from_point(hint.start), 4.0))
    return out


def conversion(p: Picture, order: object, hint: Drawing, colour: str, state: str) -> list[str]:
    """A dashed square round the unit in its power's colour and the change written above it (``A→F``,
    ``F→A``, ``stay F``): the province's label is below."""
    x, y = p.from_point(hint.start)
    kind = type(order).__name__
    return [
        f'<g class="conversion-mark {kind}{state}" data-location="{hint.start}">'
        f'<rect class="conversion" stroke="{colour}" x="{n(x - 14)}" y="{n(y - 13)}" width="28" height="26"'
        ' rx="4"/>'
        f'<text class="conversion-text" x="{n(x)}" y="{n(y - 19)}">{hint.label}</text></g>'
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
    hints = [drawing_of(o) for _, o, _, _ in entries]
    moves = {province_of(h.start): h.end for h in hints if h.shape == "arrow" and h.label == "move"}
    out = []
    # supports and convoys first, so move arrows are drawn over them
    ordered = [e for e, h in zip(entries, hints, strict=True) if h.shape in _HELPING]
    ordered += [e for e, h in zip(entries, hints, strict=True) if h.shape not in _HELPING]
    for power, order, outcome, dislodged in ordered:
        out.extend(draw_order(p, power, order, outcome, moves))
        location = getattr(order, "unit", None)
        if location is not None and (dislodged or outcome is Outcome.DISLODGED):
            x, y = p.from_point(location)  # ring the unit that was driven out
            out.append(f'<circle class="mark" cx="{n(x)}" cy="{n(y)}" r="15"/>')
    return out
