"""One picture being drawn: the snapshot it shows, where things go on it, and its drawing primitives.

The layers (layers.py), the orders (orders.py) and the legend (legend.py) are drawn through it.
"""

from __future__ import annotations

import math
from html import escape

from dipserver.engine import (
    ConversionOrder,
    Disband,
    MapState,
    Order,
    Position,
    Retreat,
    Unit,
    UnitType,
    Variant,
    province_of,
)
from dipserver.render.geometry import Geometry, Point
from dipserver.render.style import ink

UNIT_RADIUS = 9.0
UNKNOWN_POWER = "#444"  # an order whose unit is not on the board
DISLODGED_OFFSET = (12.0, -10.0)  # up and right: labels sit below their unit
MIN_WIDTH = 1000  # px: the legend's rows need this much
COAST_STEP = 16.0  # px from the unit anchor towards the waters of a coast created during play


def n(value: float) -> str:
    """A coordinate as SVG text: one decimal, none when whole."""
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


class Picture:
    """One render call's snapshot, with where each location is drawn and how a symbol or line looks."""

    def __init__(self, variant: Variant, geometry: Geometry, map_state: MapState, position: Position):
        self.variant = variant
        self.geometry = geometry
        self.map_state = map_state
        self.position = position
        self.colours = {p: power.colour for p, power in variant.powers.items()}
        self.markers: set[str] = set()  # powers whose arrowhead marker is used
        # A small board (Ice Lords' 720 px grid) gets a wider canvas so the legend band fits beside it.
        self.width = max(geometry.width, MIN_WIDTH)

    def anchor(self, location: str) -> Point:
        """Where a unit at ``location`` is drawn, also on coasts the timeline created during play.

        A coast the geometry file does not know (Deluge gives Rome two coasts when Venice sinks) is
        drawn a little way from the province's unit anchor towards the waters it touches.
        """
        province, _, coast = location.partition("/")
        shape = self.geometry.shape(province)
        if not coast or coast in shape.coasts:
            return self.geometry.anchor(location)
        waters = [self.geometry.shape(w).unit for w in self.map_state.coasts.get(province, {}).get(coast, ())]
        if not waters:
            return shape.unit
        x, y = shape.unit
        wx, wy = sum(w[0] for w in waters) / len(waters), sum(w[1] for w in waters) / len(waters)
        distance = math.hypot(wx - x, wy - y) or 1.0
        step = min(COAST_STEP, distance / 2)
        return (x + (wx - x) / distance * step, y + (wy - y) / distance * step)

    def unit(self, unit: Unit, at: Point, extra_class: str = "") -> str:
        """A unit symbol in its power's colour: armies round, fleets a hull."""
        x, y = at
        fill = self.colours.get(unit.power, "#888888")
        if unit.type is UnitType.ARMY:
            body = f'<circle class="unit" cx="{n(x)}" cy="{n(y)}" r="{UNIT_RADIUS}" fill="{fill}"/>'
        else:  # a hull: flat deck, pointed bow and stern
            r = UNIT_RADIUS
            body = (
                f'<path class="unit" fill="{fill}" d="M{n(x - r - 3)} {n(y - 5)}H{n(x + r + 3)}'
                f'L{n(x + r - 1)} {n(y + 6)}H{n(x - r + 1)}Z"/>'
            )
            if unit.aboard:  # an A/F (Abstraction): the army rides on deck, a disc above the hull
                body += f'<circle class="unit unit-aboard" cx="{n(x)}" cy="{n(y - 9)}" r="5" fill="{fill}"/>'
                extra_class += " unit-af"
        letter = f'<text class="unit-letter" fill="{ink(fill)}" x="{n(x)}" y="{n(y + 0.5)}">'
        letter += f"{unit.letters}</text>"
        title = f"<title>{escape(self.unit_words(unit))}</title>"  # what a pointer resting on it shows
        return f'<g class="unit-group{extra_class}" data-location="{unit.location}">{title}{body}{letter}</g>'

    def unit_words(self, unit: Unit) -> str:
        """A unit in full words: "Fleet, Russia, in St Petersburg (NC)"."""
        province, _, coast = unit.location.partition("/")
        power = self.variant.powers.get(unit.power)
        spec = self.variant.provinces.get(province)
        where = (spec.name if spec else province) + (f" ({coast})" if coast else "")
        kind = "Army" if unit.type is UnitType.ARMY else "Fleet"
        if unit.aboard:
            kind = "Fleet with an army aboard (A/F)"
        return f"{kind}, {power.name if power else unit.power.title()}, in {where}"

    def unit_at(self, location: str) -> Unit | None:
        province = province_of(location)
        unit = self.position.units.get(province)
        if unit is None and province in self.position.dislodged:
            unit = self.position.dislodged[province].unit
        return unit

    def power_of(self, order: Order | ConversionOrder) -> str:
        """Whose order this is, from the unit it names: in a retreat phase a retreat or disband names
        the dislodged unit, not the one that took its place."""
        location = getattr(order, "unit", None)
        if location is None:
            return ""
        dislodged = self.position.dislodged.get(province_of(location))
        if dislodged is not None and isinstance(order, Retreat | Disband):
            return dislodged.unit.power
        unit = self.unit_at(location)
        return unit.power if unit else ""

    def dislodged_point(self, location: str) -> Point:
        """Where a dislodged unit is drawn: beside the unit that took its place. Else the unit's spot."""
        dislodged = self.position.dislodged.get(province_of(location))
        if dislodged is None:
            return self.from_point(location)
        x, y = self.anchor(dislodged.unit.location)
        return (x + DISLODGED_OFFSET[0], y + DISLODGED_OFFSET[1])

    def from_point(self, location: str) -> Point:
        unit = self.unit_at(location)
        return self.anchor(unit.location if unit else location)

    def to_point(self, location: str) -> Point:
        return self.anchor(location)

    def arrow_path(
        self,
        start: Point,
        end: Point,
        css: str,
        power: str | None,
        bend: float = 0.12,
        head: bool = True,
    ) -> str:
        """A gently curved line from ``start`` to ``end`` in ``power``'s colour, clear of the units.

        Without a power the line takes its colour from its CSS class (retreat options).
        """
        (x0, y0), (x1, y1) = start, end
        length = math.hypot(x1 - x0, y1 - y0) or 1.0
        ux, uy = (x1 - x0) / length, (y1 - y0) / length
        cut = min(11.0, length / 3)
        x0, y0, x1, y1 = x0 + ux * cut, y0 + uy * cut, x1 - ux * cut, y1 - uy * cut
        # bend to the left of travel: two units swapping places get two separate arrows
        cx, cy = (x0 + x1) / 2 + uy * length * bend, (y0 + y1) / 2 - ux * length * bend
        attributes = ""
        if power is not None:
            attributes = f' stroke="{self.colours.get(power, UNKNOWN_POWER)}"'
            if head and power in self.colours:  # no arrowhead colour for an order nobody could give
                self.markers.add(power)
                attributes += f' marker-end="url(#arrow-{power})"'
        d = f"M{n(x0)} {n(y0)}Q{n(cx)} {n(cy)} {n(x1)} {n(y1)}"
        line = f'<path class="{css}"{attributes} d="{d}"/>'
        if power in self.colours and ink(self.colours[power]) == "#111":
            # a pale power's line vanishes on pale land: lay it on a dark casing
            casing = " ".join(f"casing-{c}" for c in css.split() if c != "order")
            line = f'<path class="casing {casing}" d="{d}"/>' + line
        return line

    @staticmethod
    def midpoint(start: Point, end: Point, bend: float = 0.12) -> Point:
        """The middle of the curve arrow_path draws between two unit anchors."""
        (x0, y0), (x1, y1) = start, end
        length = math.hypot(x1 - x0, y1 - y0) or 1.0
        ux, uy = (x1 - x0) / length, (y1 - y0) / length
        return (x0 + x1) / 2 + uy * length * bend / 2, (y0 + y1) / 2 - ux * length * bend / 2

    def cross(self, at: Point, size: float = 6.0) -> str:
        x, y = at
        return (
            f'<path class="mark" d="M{n(x - size)} {n(y - size)}L{n(x + size)} {n(y + size)}'
            f'M{n(x - size)} {n(y + size)}L{n(x + size)} {n(y - size)}"/>'
        )

    def arrow_markers(self) -> str:
        return "".join(
            f'<marker id="arrow-{p}" viewBox="0 0 10 10" refX="7" refY="5" markerWidth="4.2"'
            f' markerHeight="4.2" orient="auto">'
            f'<path d="M0 0L10 5L0 10Z" fill="{self.colours[p]}"/></marker>'
            for p in sorted(self.markers)
        )
