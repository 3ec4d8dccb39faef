"""The provinces of a sanitised SVG map: each shape whose id is a province code (``LON``, ``NAO``) is a
province, drawn as the geometry.json the pictures read; adjacencies are detected from shared borders.

Shapes are read with ``svgelements`` (transforms applied; curves followed closely enough for borders) and
compared with ``shapely``: two provinces border when their outlines, each widened by a tolerance, overlap
along a stretch at least ``MIN_SHARED`` tolerances long. The tolerance absorbs the small gaps and overlaps
of a hand-drawn map; the minimum length keeps provinces that only meet at a corner apart.
"""

from __future__ import annotations

import io
import math
import re
from dataclasses import dataclass
from typing import Any

import svgelements as se
from shapely import STRtree, make_valid
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry
from shapely.ops import unary_union

from dipserver.studio.errors import StudioError

CODE = re.compile(r"[A-Z][A-Z0-9]{1,3}")  # the engine's province codes (variants/README.md)
TERRAINS = ("land", "sea", "impassable", "absent")
MAX_SHAPES = 400
MAX_SIZE = 20_000  # width and height, in the drawing's units
TOLERANCE = 0.002  # of the drawing's diagonal
MIN_SHARED = 4.0  # tolerances of shared border: two provinces meeting at a corner share about two
CURVE_STEPS = 8
_STEPS = [k / CURVE_STEPS for k in range(1, CURVE_STEPS + 1)]
MAX_SEGMENTS = 20_000  # lines and curves of every shape together: reading them is the import's cost


@dataclass(frozen=True, slots=True)
class Mistake:
    message: str
    provinces: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Imported:
    """An SVG map read: its provinces as map.toml tables (name, terrain, detected borders), its drawing in
    the geometry.json shape, and the shapes it could not use, each said in a warning."""

    provinces: dict[str, dict[str, Any]]
    geometry: dict[str, Any]
    warnings: tuple[str, ...]


def imported(svg_text: str) -> Imported:
    """The map drawn in ``svg_text`` (already sanitised); ``StudioError`` listing every mistake found."""
    try:
        document = se.SVG.parse(io.StringIO(svg_text), reify=True)
    except Exception as exc:  # svgelements raises many kinds on malformed numbers and paths
        raise StudioError(f"The SVG could not be read: {exc}", code="invalid_svg") from None
    width, height = float(document.width or 0), float(document.height or 0)
    if not (0 < width <= MAX_SIZE and 0 < height <= MAX_SIZE):
        raise StudioError(
            f"An SVG map is 1 to {MAX_SIZE} units wide and high, not {width} x {height}", code="invalid_svg"
        )
    shapes, scenery, warnings, mistakes = _shapes(document)
    if not shapes and not mistakes:
        mistakes.append(
            Mistake("no shape has a province code as its id (2-4 upper-case letters or digits)", ())
        )
    if mistakes:
        raise _refusal(mistakes)
    borders = adjacencies(shapes, math.hypot(width, height) * TOLERANCE)
    provinces = {
        code: {"name": name, "terrain": terrain, "borders": sorted(borders[code])}
        for code, (_, name, terrain) in sorted(shapes.items())
    }
    geometry = {
        "about": "Imported from an SVG map in the variant studio",
        "width": round(width),
        "height": round(height),
        "provinces": {
            code: _drawn(polygon, terrain, height) for code, (polygon, _, terrain) in sorted(shapes.items())
        },
        "scenery": [_coordinates(polygon) for polygon in scenery],
    }
    return Imported(provinces, geometry, tuple(warnings))


def adjacencies(shapes: dict[str, tuple[BaseGeometry, str, str]], tolerance: float) -> dict[str, set[str]]:
    """Province -> the provinces it shares a border with, both ways."""
    codes = sorted(shapes)
    widened = [shapes[code][0].buffer(tolerance) for code in codes]
    tree = STRtree(widened)
    borders: dict[str, set[str]] = {code: set() for code in codes}
    for i, j in zip(*tree.query(widened, predicate="intersects"), strict=True):
        if i < j and widened[i].intersection(widened[j]).area / (2 * tolerance) >= MIN_SHARED * tolerance:
            borders[codes[i]].add(codes[j])
            borders[codes[j]].add(codes[i])
    return borders


def _shapes(
    document: se.SVG,
) -> tuple[dict[str, tuple[BaseGeometry, str, str]], list[BaseGeometry], list[str], list[Mistake]]:
    shapes: dict[str, tuple[BaseGeometry, str, str]] = {}
    scenery: list[BaseGeometry] = []
    warnings: list[str] = []
    mistakes: list[Mistake] = []
    elements = [e for e in document.elements() if isinstance(e, se.Shape)]
    if len(elements) > MAX_SHAPES:
        raise StudioError(
            f"An SVG map has at most {MAX_SHAPES} shapes; this one has {len(elements)}", code="too_large"
        )
    paths = [se.Path(element) for element in elements]
    segments = sum(len(path) for path in paths)
    if segments > MAX_SEGMENTS:
        raise StudioError(
            f"An SVG map's shapes have at most {MAX_SEGMENTS} segments in all; this one has {segments}",
            code="too_large",
        )
    for element, path in zip(elements, paths, strict=True):
        ident = str(element.id or "")
        polygon = _polygon(path)
        if not CODE.fullmatch(ident):
            if polygon is not None:
                scenery.append(polygon)
            if ident:
                warnings.append(f"shape {ident!r} is drawn as scenery: its id is not a province code")
            continue
        terrain = str(element.values.get("data-terrain", "land"))
        name = str(element.values.get("data-name") or ident)
        if ident in shapes:
            mistakes.append(Mistake(f"province {ident}: two shapes have this id", (ident,)))
        elif polygon is None:
            mistakes.append(Mistake(f"province {ident}: its shape has no area", (ident,)))
        elif terrain not in TERRAINS:
            mistakes.append(
                Mistake(
                    f"province {ident}: data-terrain {terrain!r} is not one of {', '.join(TERRAINS)}",
                    (ident,),
                )
            )
        else:
            shapes[ident] = (polygon, name[:100], terrain)
    return shapes, scenery, warnings, mistakes


def _polygon(path: se.Path) -> BaseGeometry | None:
    """The area a shape encloses (its closed subpaths joined), or ``None`` if it encloses none."""
    rings = []
    for subpath in path.as_subpaths():
        points: list[tuple[float, float]] = []
        for segment in subpath:
            if isinstance(segment, se.Move | se.Line | se.Close):
                if segment.end is not None:
                    points.append(_xy(segment.end))
            else:  # a curve: points along it, all worked out in one call
                points += [(float(x), float(y)) for x, y in segment.npoint(_STEPS)]
        if len(points) >= 3:
            ring = Polygon(points)
            ring = ring if ring.is_valid else make_valid(ring)
            if ring.area > 0:
                rings.append(ring)
    area = unary_union(rings) if rings else None
    return area if area is not None and area.area > 0 else None


def _xy(point: Any) -> tuple[float, float]:
    return (float(point.x), float(point.y))


def _coordinates(area: BaseGeometry) -> list[list[list[list[float]]]]:
    """GeoJSON MultiPolygon coordinates, to a tenth of a unit (as geometry.json holds them)."""
    parts = [area] if isinstance(area, Polygon) else list(getattr(area, "geoms", []))
    polygons = [p for p in parts if isinstance(p, Polygon)]
    return [
        [[[round(x, 1), round(y, 1)] for x, y in ring.coords] for ring in (p.exterior, *p.interiors)]
        for p in polygons
    ]


def _drawn(area: BaseGeometry, terrain: str, height: float) -> dict[str, Any]:
    label = area.representative_point()
    x, y = round(label.x, 1), round(label.y, 1)
    return {
        "medium": "sea" if terrain == "sea" else "land",
        "polygons": _coordinates(area),
        "label": [x, y],
        "unit": [x, y],
        "sc": [x, round(y + height * 0.02, 1)],
    }


def _refusal(mistakes: list[Mistake]) -> StudioError:
    return StudioError(
        "; ".join(m.message for m in mistakes),
        code="invalid_svg",
        provinces=tuple(dict.fromkeys(p for m in mistakes for p in m.provinces)),
        problems=tuple({"message": m.message, "provinces": list(m.provinces)} for m in mistakes),
    )
