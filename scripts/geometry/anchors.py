"""Where a province's unit, label, supply-centre marker and coasts are drawn."""

from __future__ import annotations

import numpy as np
import shapely
import shapely.ops
from division import parts
from shapely.geometry import Point, Polygon, box
from shapely.geometry.base import BaseGeometry
from shapely.ops import unary_union


def _xy(point: Point) -> list[float]:
    return [round(point.x, 1), round(point.y, 1)]


UNIT_CLEARANCE = 16.0  # px: radius kept free around a unit for its label


LABEL_BOX = (26.0, 13.0)  # px: a three-letter label at the renderer's font size, with a margin
# Where a label may go relative to its unit, best first: below, above, then the sides.
LABEL_OFFSETS = [
    (0, 19),
    (0, -19),
    (0, 23),
    (0, -23),
    (24, 0),
    (-24, 0),
    (20, 15),
    (-20, 15),
    (20, -15),
    (-20, -15),
]


def _label_spot(polygon: Polygon, unit: Point, reach: float = 48.0) -> Point | None:
    """Beside the unit, so the eye joins them; else the nearest spot within ``reach`` where it fits."""
    inside = polygon.buffer(-1.5)
    shapely.prepare(inside)
    half_w, half_h = LABEL_BOX[0] / 2, LABEL_BOX[1] / 2
    clear_of_unit = unit.buffer(UNIT_CLEARANCE - 6)

    def fits(spot: Point) -> bool:
        label = box(spot.x - half_w, spot.y - half_h, spot.x + half_w, spot.y + half_h)
        return inside.contains(label) and not label.intersects(clear_of_unit)

    steps = np.arange(-reach, reach + 1, 3.0)
    nearest = sorted(((dx, dy) for dx in steps for dy in steps), key=lambda d: np.hypot(*d))
    for dx, dy in [*LABEL_OFFSETS, *nearest]:
        spot = Point(unit.x + dx, unit.y + dy)
        if fits(spot):
            return spot
    return None


def _unit_and_label(polygon: Polygon, preferred: Point) -> tuple[Point, Point]:
    """The preferred unit spot and a label beside it; if no label fits there, the nearest unit spot
    that has room for both (small provinces: Naples, Clyde)."""
    label = _label_spot(polygon, preferred, reach=30.0)
    if label is not None:
        return preferred, label
    room = polygon.buffer(-(UNIT_CLEARANCE - 5))
    x0, y0, x1, y1 = room.bounds if not room.is_empty else (0, 0, 0, 0)
    grid = [Point(x, y) for x in np.arange(x0, x1, 3.0) for y in np.arange(y0, y1, 3.0)]
    for spot in sorted((p for p in grid if room.contains(p)), key=preferred.distance):
        label = _label_spot(polygon, spot, reach=30.0)
        if label is not None:
            return spot, label
    return preferred, _label_spot(polygon, preferred) or _free_spot(
        polygon, [preferred.buffer(UNIT_CLEARANCE)]
    ) or preferred


# Where the supply-centre marker may go relative to the label, best first: right, left, below, above.
SC_OFFSETS = [(20, 0), (-20, 0), (0, 13), (0, -13), (24, 8), (-24, 8), (24, -8), (-24, -8), (0, 18), (30, 0)]


def _beside(polygon: Polygon, label: Point, unit: Point) -> Point:
    """A spot next to the label for the supply-centre marker, clear of the label text and the unit."""
    inside = polygon.buffer(-1.5)
    half_w, half_h = LABEL_BOX[0] / 2, LABEL_BOX[1] / 2
    text = box(label.x - half_w, label.y - half_h, label.x + half_w, label.y + half_h)
    taken = unary_union([text, unit.buffer(UNIT_CLEARANCE - 4)])
    for dx, dy in SC_OFFSETS:
        marker = Point(label.x + dx, label.y + dy).buffer(5.5)
        if inside.contains(marker) and not marker.intersects(taken):
            return marker.centroid
    return _free_spot(polygon, [unit.buffer(UNIT_CLEARANCE), text.buffer(6)]) or label


def _free_spot(polygon: Polygon, taken: list[BaseGeometry]) -> Point | None:
    """The point of ``polygon`` farthest from its edges once the ``taken`` discs are cut out."""
    rest = polygon.difference(unary_union(taken))
    if rest.is_empty:
        return None
    return shapely.ops.polylabel(max(parts(rest), key=lambda p: p.area), 0.5)


COAST_BAND = 55.0  # px: a coastal province's unit stands within this of its coast


def _unit_spot(code: str, main: Polygon, regions: dict, graph: dict, seas: set[str]) -> Point:
    """The pole of inaccessibility; for a coastal province with one coast, of the band along its coast.

    A fleet in Sevastopol belongs by the Black Sea, not in the steppe; an army there is drawn at the
    same spot, as on the classic board.
    """
    waters = [regions[w] for w in graph[code].borders if w in seas]
    if waters and code not in seas and not graph[code].coasts:
        shore = main.buffer(0.3).intersection(unary_union(waters).boundary)
        band = main.intersection(shore.buffer(COAST_BAND))
        if not band.is_empty:
            spot = shapely.ops.polylabel(max(parts(band), key=lambda p: p.area), 0.5)
            if main.exterior.distance(spot) >= UNIT_CLEARANCE - 4:
                return spot
    return shapely.ops.polylabel(main, 0.5)


def anchors(code: str, geom: BaseGeometry, regions: dict, graph: dict, seas: set[str]) -> dict:
    """Unit anchor, label and centre marker beside it, one anchor per named coast."""
    main = max(parts(geom), key=lambda p: p.area)
    unit, label = _unit_and_label(main, _unit_spot(code, main, regions, graph, seas))
    centre = _beside(main, label, unit)
    coasts = {}
    for coast, waters in sorted(graph[code].coasts.items()):
        water = unary_union([regions[w] for w in waters])
        shore = geom.buffer(0.3).intersection(water.boundary)
        pieces = [g for g in getattr(shore, "geoms", [shore]) if g.length > 0]
        longest = max(pieces, key=lambda g: g.length)
        middle = longest.interpolate(0.5, normalized=True)
        coasts[coast] = _xy(
            shapely.ops.polylabel(max(parts(geom.intersection(middle.buffer(28))), key=lambda p: p.area), 0.5)
        )
    return {"label": _xy(label), "unit": _xy(unit), "sc": _xy(centre), "coasts": coasts}
