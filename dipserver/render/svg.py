"""A phase snapshot as an SVG picture: terrain, centres, units, orders, results and coming changes.

Layers, bottom to top (each a ``<g>`` with this id): ``provinces`` (one path per province, its code as
the id, so a browser can make it clickable), ``scenery``, ``changes``, ``supply-centres``, ``labels``,
``orders``, ``units``, ``coasts`` (an invisible disc per named coast, id ``STP-NC``, ``data-location``
``STP/NC``, clickable too), ``legend``. Everything is built by joining strings over precomputed path data:
the cost is the number of elements, not the map's detail.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from html import escape
from typing import Any

from dipserver.engine.board import MapState
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
from dipserver.engine.position import Position
from dipserver.engine.timeline import load_timeline
from dipserver.engine.types import Season, Unit, UnitType, province_of
from dipserver.engine.variant import Variant
from dipserver.render.geometry import Geometry, Point, load_geometry
from dipserver.render.style import CHANGE_WORDS, PATTERNS, TERRAIN_STYLES, ink, stylesheet, terrain_style

LEGEND_HEIGHT = 88
UNIT_RADIUS = 9.0
NEUTRAL_SC = "#ffffff"
UNKNOWN_POWER = "#444"  # an order whose unit is not on the board
COAST_STEP = 16.0  # px from the unit anchor towards the waters of a coast created during play
FAILED_OUTCOMES = frozenset(Outcome) - {Outcome.SUCCESS}
SEASON_WORDS = {Season.SPRING: "Spring", Season.FALL: "Autumn", Season.WINTER: "Winter"}

Changes = Mapping[str, str] | Iterable[tuple[str, str] | Mapping[str, Any]]
EVENT_CHANGES = {"centre_gained": "sc_gain", "centre_lost": "sc_loss"}


def _change_items(changes: Changes | None) -> list[tuple[str, str]]:
    """(province, change) pairs from a mapping, pairs, or the timeline's event dicts.

    Event dicts are what ``timeline.apply_hook`` reports ({"kind": "terrain", "province": ..., "to":
    ...}, {"kind": "centre_gained", ...}); kinds that change no province's look are skipped.
    """
    if changes is None:
        return []
    if isinstance(changes, Mapping):
        return sorted(changes.items())
    pairs = set()
    for item in changes:
        if not isinstance(item, Mapping):
            province, change = item
            pairs.add((str(province), str(change)))
        elif item.get("kind") == "terrain":
            pairs.add((item["province"], str(getattr(item["to"], "value", item["to"]))))
        elif item.get("kind") in EVENT_CHANGES:
            pairs.add((item["province"], EVENT_CHANGES[item["kind"]]))
    return sorted(pairs)


def _n(value: float) -> str:
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


class _Picture:
    """Collects the elements of one picture; one instance per render call."""

    def __init__(self, variant: Variant, geometry: Geometry, map_state: MapState, position: Position):
        self.variant = variant
        self.geometry = geometry
        self.map_state = map_state
        self.position = position
        self.colours = {p: power.colour for p, power in variant.powers.items()}
        self.markers: set[str] = set()  # powers whose arrowhead marker is used

    # --- map -------------------------------------------------------------------------------------

    def provinces(self) -> tuple[list[str], list[str], set[str]]:
        """(province paths, off-board paths, terrain styles used)."""
        owners = self.position.owners
        paths, off_board, used = [], [], set()
        for code, shape in self.geometry.shapes.items():
            if code not in self.variant.provinces:  # e.g. Switzerland on the standard board
                css = "offboard-sea" if shape.medium == "sea" else "scenery"
                off_board.append(f'<path class="{css}" d="{shape.path}"/>')
                continue
            style = terrain_style(self.variant, self.map_state, code, shape.medium)
            used.add(style)
            classes = f"province {style}"
            owner = owners.get(code)
            if owner in self.colours and code in self.map_state.supply_centres and style in ("land", "dried"):
                classes += f" own-{owner}"
            name = escape(self.variant.provinces[code].name)
            paths.append(f'<path id="{code}" class="{classes}" d="{shape.path}"><title>{name}</title></path>')
        return paths, off_board, used

    def scenery(self) -> list[str]:
        return [f'<path class="scenery" d="{d}"/>' for d in self.geometry.scenery]

    def labels(self) -> list[str]:
        out = []
        for code in self.variant.provinces:
            shape = self.geometry.shape(code)
            water = " water" if self.map_state.terrain[code].value == "sea" else ""
            x, y = shape.label
            out.append(f'<text class="label{water}" x="{_n(x)}" y="{_n(y)}">{code}</text>')
        return out

    def supply_centres(self) -> list[str]:
        out = []
        for code in sorted(self.map_state.supply_centres):
            x, y = self.geometry.shape(code).sc
            fill = self.colours.get(self.position.owners.get(code, ""), NEUTRAL_SC)
            out.append(f'<circle id="{code}-sc" class="sc" cx="{_n(x)}" cy="{_n(y)}" r="4.5" fill="{fill}"/>')
        return out

    def changes(self, changes: Changes | None) -> tuple[list[str], list[str]]:
        """(outlines, legend lines) of the changes due before the next phase."""
        items = _change_items(changes)
        out = []
        for code, change in items:
            shape = self.geometry.shape(code)
            name = self.variant.provinces[code].name if code in self.variant.provinces else code
            title = escape(f"{name} {CHANGE_WORDS.get(change, change)}")
            out.append(
                f'<path class="change change-{escape(change)}" d="{shape.path}"><title>{title}</title></path>'
            )
        return out, sorted({change for _, change in items})

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

    def coast_targets(self) -> list[str]:
        """An invisible disc per named coast, so a browser can let a player click "STP/NC"."""
        out = []
        for province, coasts in sorted(self.map_state.coasts.items()):
            for coast in sorted(coasts):
                x, y = self.anchor(f"{province}/{coast}")
                out.append(
                    f'<circle id="{province}-{coast}" class="coast-target" data-location="{province}/{coast}"'
                    f' cx="{_n(x)}" cy="{_n(y)}" r="9"/>'
                )
        return out

    # --- units -----------------------------------------------------------------------------------

    def unit(self, unit: Unit, at: Point, extra_class: str = "") -> str:
        x, y = at
        fill = self.colours.get(unit.power, "#888888")
        if unit.type is UnitType.ARMY:
            body = f'<circle class="unit" cx="{_n(x)}" cy="{_n(y)}" r="{UNIT_RADIUS}" fill="{fill}"/>'
        else:  # a hull: flat deck, pointed bow and stern
            r = UNIT_RADIUS
            body = (
                f'<path class="unit" fill="{fill}" d="M{_n(x - r - 3)} {_n(y - 5)}H{_n(x + r + 3)}'
                f'L{_n(x + r - 1)} {_n(y + 6)}H{_n(x - r + 1)}Z"/>'
            )
        letter = f'<text class="unit-letter" fill="{ink(fill)}" x="{_n(x)}" y="{_n(y + 0.5)}">'
        letter += f"{unit.type.value}</text>"
        return f'<g class="unit-group{extra_class}" data-location="{unit.location}">{body}{letter}</g>'

    def units(self) -> list[str]:
        out = [self.unit(u, self.anchor(u.location)) for u in self.position.units.values()]
        for dislodged in self.position.dislodged.values():
            at = self.dislodged_point(dislodged.unit.location)
            out.append(self.unit(dislodged.unit, at, " dislodged"))
            out.extend(
                self.arrow_path(at, self.anchor(option), "retreat-option", None, bend=0.0)
                for option in dislodged.retreats
            )
        return out

    # --- orders ----------------------------------------------------------------------------------

    def unit_at(self, location: str) -> Unit | None:
        province = province_of(location)
        unit = self.position.units.get(province)
        if unit is None and province in self.position.dislodged:
            unit = self.position.dislodged[province].unit
        return unit

    def power_of(self, order: Order) -> str:
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
        return (x + 11, y + 9)

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
        d = f"M{_n(x0)} {_n(y0)}Q{_n(cx)} {_n(cy)} {_n(x1)} {_n(y1)}"
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
            f'<path class="mark" d="M{_n(x - size)} {_n(y - size)}L{_n(x + size)} {_n(y + size)}'
            f'M{_n(x - size)} {_n(y + size)}L{_n(x + size)} {_n(y - size)}"/>'
        )

    def order(self, power: str, order: Order, outcome: Outcome | None, moves: Mapping[str, str]) -> list[str]:
        failed = outcome in FAILED_OUTCOMES
        state = " failed" if failed else ""
        colour = self.colours.get(power, UNKNOWN_POWER)
        out: list[str] = []
        if isinstance(order, Move | Retreat):
            kind = "retreat" if isinstance(order, Retreat) else "move"
            start = self.dislodged_point(order.unit) if kind == "retreat" else self.from_point(order.unit)
            end = self.to_point(order.dest)
            out.append(self.arrow_path(start, end, f"order {kind}{state}", power))
            if failed:
                out.append(self.cross(self.midpoint(start, end)))
        elif isinstance(order, SupportHold):
            start, end = self.from_point(order.unit), self.from_point(order.target)
            out.append(self.arrow_path(start, end, f"order support{state}", power, bend=0.0, head=False))
            x, y = end
            out.append(f'<circle class="hold" stroke="{colour}" cx="{_n(x)}" cy="{_n(y)}" r="13"/>')
        elif isinstance(order, SupportMove | Convoy):
            kind = "support" if isinstance(order, SupportMove) else "convoy"
            target_from = self.from_point(order.target)
            target_to = self.to_point(moves.get(province_of(order.target), order.dest))
            aim = self.midpoint(target_from, target_to)
            out.append(
                self.arrow_path(self.from_point(order.unit), aim, f"order {kind}{state}", power, bend=0.0)
            )
        elif isinstance(order, Hold):
            x, y = self.from_point(order.unit)
            out.append(f'<circle class="hold{state}" stroke="{colour}" cx="{_n(x)}" cy="{_n(y)}" r="13"/>')
        elif isinstance(order, Build):
            x, y = self.to_point(order.location)
            unit = Unit(order.power, order.unit_type, order.location)
            out.append(self.unit(unit, (x, y), " built"))
            out.append(f'<circle class="build" stroke="{colour}" cx="{_n(x)}" cy="{_n(y)}" r="14"/>')
        elif isinstance(order, Disband):  # in a retreat phase, of the dislodged unit
            out.append(self.cross(self.dislodged_point(order.unit), 9.0))
        elif isinstance(order, Waive):
            pass  # nothing on the map: a waived build is a line in the order list
        if failed and isinstance(order, SupportHold | SupportMove | Convoy):
            out.append(self.cross(self.from_point(order.unit), 4.0))
        if outcome is Outcome.DISLODGED:
            x, y = self.from_point(order.unit)
            out.append(f'<circle class="mark" cx="{_n(x)}" cy="{_n(y)}" r="15"/>')
        return out

    def orders(self, orders: Iterable[Order] | None, results: Iterable[OrderResult] | None) -> list[str]:
        entries: list[tuple[str, Order, Outcome | None, bool]] = []
        if results is not None:
            entries = [(r.power, r.order, r.outcome, r.dislodged) for r in results]
        else:
            for order in orders or ():
                power = getattr(order, "power", None) or self.power_of(order)
                entries.append((power, order, None, False))
        # a support or convoy points at the move it helps; find each mover's actual destination
        moves = {province_of(o.unit): o.dest for _, o, _, _ in entries if isinstance(o, Move)}
        out = []
        # supports and convoys first, so move arrows are drawn over them
        ordered = sorted(entries, key=lambda e: not isinstance(e[1], SupportHold | SupportMove | Convoy))
        for power, order, outcome, dislodged in ordered:
            out.extend(self.order(power, order, outcome, moves))
            if dislodged and outcome is not Outcome.DISLODGED:
                x, y = self.from_point(order.unit)  # type: ignore[union-attr]
                out.append(f'<circle class="mark" cx="{_n(x)}" cy="{_n(y)}" r="15"/>')
        return out

    def arrow_markers(self) -> str:
        return "".join(
            f'<marker id="arrow-{p}" viewBox="0 0 10 10" refX="7" refY="5" markerWidth="4.2"'
            f' markerHeight="4.2" orient="auto">'
            f'<path d="M0 0L10 5L0 10Z" fill="{self.colours[p]}"/></marker>'
            for p in sorted(self.markers)
        )

    # --- legend ----------------------------------------------------------------------------------

    def legend(self, styles: set[str], change_kinds: list[str]) -> list[str]:
        top = self.geometry.height
        phase = self.position.phase
        season = load_timeline(self.variant).season_label(phase.season, phase.year)  # Sahara's summers
        title = f"{season or SEASON_WORDS[phase.season]} {phase.year} {phase.type.name.title()}"
        out = [
            f'<rect x="0" y="{top}" width="{self.geometry.width}" height="{LEGEND_HEIGHT}" fill="#faf8f2"/>',
            f'<text class="legend-title" x="12" y="{top + 18}">{escape(self.variant.name)} - {title}</text>',
        ]
        x = 12.0
        for name in TERRAIN_STYLES:
            if name not in styles:
                continue
            style = TERRAIN_STYLES[name]
            out.append(
                f'<rect class="province {name}" x="{_n(x)}" y="{top + 36}" width="22" height="16"/>'
                f'<text class="legend-text" x="{_n(x + 28)}" y="{top + 44}">{escape(style.legend)}</text>'
            )
            x += 40 + 6.4 * len(style.legend)
        for change in change_kinds:
            words = "Next: " + CHANGE_WORDS.get(change, change)
            out.append(
                f'<rect class="change change-{escape(change)}" x="{_n(x)}" y="{top + 37}"'
                ' width="20" height="14"/>'
                f'<text class="legend-text" x="{_n(x + 26)}" y="{top + 44}">{escape(words)}</text>'
            )
            x += 38 + 6.4 * len(words)
        out.extend(self.centre_counts(top + 18))
        out.extend(self.order_key(top + 70))
        return out

    def centre_counts(self, y: float) -> list[str]:
        """Centres per power, right-aligned on the title line."""
        counts = dict.fromkeys(self.variant.powers, 0)
        for code, owner in self.position.owners.items():
            if owner in counts and code in self.map_state.supply_centres:
                counts[owner] += 1
        out = []
        x = self.geometry.width - 12.0 - 98 * len(counts)
        for power, count in counts.items():
            name = escape(self.variant.powers[power].name)
            out.append(
                f'<circle cx="{_n(x + 6)}" cy="{y}" r="5.5" fill="{self.colours[power]}" stroke="#222"/>'
                f'<text class="legend-text" x="{_n(x + 15)}" y="{y}">{name} {count}</text>'
            )
            x += 98
        return out

    def order_key(self, y: float) -> list[str]:
        """What the unit symbols and order lines mean."""
        grey = Unit("", UnitType.ARMY, "")
        out = [
            self.unit(grey, (20, y)),
            f'<text class="legend-text" x="34" y="{y}">Army</text>',
            self.unit(Unit("", UnitType.FLEET, ""), (88, y)),
            f'<text class="legend-text" x="104" y="{y}">Fleet</text>',
        ]
        x = 150.0
        for css, words in (
            ("order move", "Move"),
            ("order support", "Support"),
            ("order convoy", "Convoy"),
            ("order retreat", "Retreat"),
            ("order move failed", "Failed"),
            ("retreat-option", "Retreat option"),
        ):
            out.append(f'<path class="{css} key" d="M{_n(x)} {y}H{_n(x + 30)}"/>')
            if words == "Failed":
                out.append(self.cross((x + 15, y), 4.0))
            out.append(f'<text class="legend-text" x="{_n(x + 36)}" y="{y}">{words}</text>')
            x += 50 + 6.4 * len(words)
        out.append(f'<circle class="hold key" cx="{_n(x + 10)}" cy="{y}" r="8"/>')
        out.append(f'<text class="legend-text" x="{_n(x + 24)}" y="{y}">Hold / supported</text>')
        x += 140
        out.append(self.unit(grey, (x + 10, y), " dislodged"))
        out.append(f'<text class="legend-text" x="{_n(x + 24)}" y="{y}">Dislodged</text>')
        return out


def render_svg(
    variant: Variant,
    map_state: MapState,
    position: Position,
    orders: Iterable[Order] | None = None,
    results: Iterable[OrderResult] | None = None,
    next_changes: Changes | None = None,
) -> str:
    """The picture of one phase as an SVG document.

    ``orders`` are drawn as given (each power's colour taken from its unit); ``results`` (the
    adjudicated orders, ``OrderResult``) replace them and also show what failed: a failed move is faded
    with a cross, a cut support crossed at its unit, a dislodged unit ringed. Units in
    ``position.dislodged`` are drawn beside their province with dotted arrows to their retreat options.
    ``next_changes`` maps province -> change ("land", "sea", "impassable", "sc_gain", "sc_loss") for
    the map changes due before the next phase; those provinces are outlined.
    """
    geometry = load_geometry(variant)
    picture = _Picture(variant, geometry, map_state, position)
    provinces, off_board, styles = picture.provinces()
    changes, change_kinds = picture.changes(next_changes)
    order_elements = picture.orders(orders, results)
    units = picture.units()
    width, height = geometry.width, geometry.height + LEGEND_HEIGHT
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" data-variant="{variant.slug}" data-phase="{position.phase}">',
        f"<defs><style>{stylesheet(variant)}</style>{PATTERNS}{picture.arrow_markers()}</defs>",
        '<g id="provinces">',
        *provinces,
        "</g>",
        '<g id="scenery">',
        *off_board,
        *picture.scenery(),
        "</g>",
        '<g id="changes">',
        *changes,
        "</g>",
        '<g id="supply-centres">',
        *picture.supply_centres(),
        "</g>",
        '<g id="labels">',
        *picture.labels(),
        "</g>",
        '<g id="orders">',
        *order_elements,
        "</g>",
        '<g id="units">',
        *units,
        "</g>",
        '<g id="coasts">',
        *picture.coast_targets(),
        "</g>",
        '<g id="legend">',
        *picture.legend(styles, change_kinds),
        "</g>",
        "</svg>",
    ]
    return "".join(parts)
