"""The drawing of a base map: province outlines and anchor points, read from variants/<base>/geometry.json.

One geometry file per base map (scripts/geometry/build_geometry.py generates it). A variant that extends
another uses its base's file, which includes the provinces such variants add (SWI, IRE, ICE, CAS).
Outlines are turned into SVG path data once, here, so rendering a phase only joins strings.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from dipserver.engine import VARIANTS_DIR, Variant, load_variant

Point = tuple[float, float]


class GeometryError(LookupError):
    """A variant has no drawing, or its drawing lacks a province."""


@dataclass(frozen=True, slots=True)
class Shape:
    code: str
    medium: str  # "land" or "sea": what the place is on the real map, whatever the game does to it
    path: str  # SVG path data of every polygon
    label: Point
    unit: Point
    sc: Point  # where the supply-centre marker goes
    coasts: dict[str, Point]  # coast -> anchor, for multi-coast provinces


@dataclass(frozen=True, slots=True)
class Geometry:
    source: Path
    width: int
    height: int
    shapes: dict[str, Shape]
    scenery: tuple[str, ...]  # path data of neutral land that is no province
    document: dict[str, Any]  # the file as read, for the API
    digest: str  # sha256 of the file: changes whenever the drawing does (an ETag for the API)
    tiles: dict[str, str] = field(default_factory=dict)  # province -> Ice Lords tile, for generated boards

    def anchor(self, location: str) -> Point:
        """Where a unit at ``location`` (``"STP/NC"`` or ``"MUN"``) is drawn."""
        province, _, coast = location.partition("/")
        shape = self.shape(province)
        return shape.coasts.get(coast, shape.unit) if coast else shape.unit

    def shape(self, province: str) -> Shape:
        try:
            return self.shapes[province]
        except KeyError:
            raise GeometryError(f"{self.source.name} has no outline for province {province!r}") from None


def _tenths(value: int) -> str:
    """A length in tenths of a unit as SVG text: ``-12.3``, ``.5``, ``7`` (no leading or trailing zero)."""
    whole, tenth = divmod(abs(value), 10)
    text = (str(whole) if whole else "") + (f".{tenth}" if tenth else "")
    return ("-" if value < 0 else "") + (text or "0")


def path_data(polygons: list[list[list[list[float]]]]) -> str:
    """GeoJSON MultiPolygon coordinates -> SVG path data, one subpath per ring: its first point absolute,
    then each step relative to the last (``l``), in the tenths of a unit the outlines are drawn in.

    The same shapes as absolute coordinates, point for point (the steps are summed in whole tenths, so
    nothing drifts), in 40% fewer bytes: the outlines are most of a map's bytes and of what a browser
    parses before it can draw it."""
    rings = []
    for polygon in polygons:
        for ring in polygon:
            points = [(round(x * 10), round(y * 10)) for x, y in (ring[:-1] if ring[0] == ring[-1] else ring)]
            x0, y0 = points[0]
            text: list[str] = []
            for x, y in points[1:]:
                for step in (x - x0, y - y0):
                    number = _tenths(step)
                    text.append(number if not text or number[0] == "-" else " " + number)
                x0, y0 = x, y
            rings.append(
                f"M{_tenths(points[0][0])} {_tenths(points[0][1])}"
                + ("l" if text else "")
                + "".join(text)
                + "z"
            )
    return "".join(rings)


def _point(value: list[float]) -> Point:
    return (float(value[0]), float(value[1]))


@lru_cache(maxsize=8)
def _read(path: Path) -> Geometry:
    raw = path.read_bytes()
    return _build(json.loads(raw), path, hashlib.sha256(raw).hexdigest())


def geometry_from_data(doc: dict[str, Any], name: str = "generated") -> Geometry:
    """A drawing built in memory in the geometry.json shape, e.g. ``icelords.geometry(board_map)`` for a
    generated board; a province's ``tile`` key (Ice Lords) chooses its texture. ``name`` is only for
    messages; the digest is that of the document's canonical JSON."""
    try:
        raw = json.dumps(doc, sort_keys=True, separators=(",", ":")).encode()
        return _build(doc, Path(f"{name}.json"), hashlib.sha256(raw).hexdigest())
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise GeometryError(f"{name}: not a geometry document ({type(exc).__name__}: {exc})") from None


def _build(doc: dict[str, Any], path: Path, digest: str) -> Geometry:
    shapes = {
        code: Shape(
            code=code,
            medium=data["medium"],
            path=path_data(data["polygons"]),
            label=_point(data["label"]),
            unit=_point(data["unit"]),
            sc=_point(data["sc"]),
            coasts={coast: _point(p) for coast, p in data.get("coasts", {}).items()},
        )
        for code, data in doc["provinces"].items()
    }
    scenery = tuple(path_data(polygons) for polygons in doc["scenery"])
    tiles = {code: str(data["tile"]) for code, data in doc["provinces"].items() if "tile" in data}
    return Geometry(path, int(doc["width"]), int(doc["height"]), shapes, scenery, doc, digest, tiles)


def geometry_file(variant: Variant) -> Path:
    """The geometry.json that draws ``variant``: its own, else the nearest base's."""
    current, looked = variant, []
    while True:
        candidate = VARIANTS_DIR / current.slug / "geometry.json"
        if candidate.exists():
            return candidate
        looked.append(current.slug)
        if current.base is None:
            raise GeometryError(
                f"variant {variant.slug!r} has no geometry.json (looked in {', '.join(looked)})"
            )
        current = load_variant(current.base)


def load_geometry(variant: Variant, drawing: Geometry | dict[str, Any] | None = None) -> Geometry:
    """The drawing of ``variant``, checked to cover every province it has; cached per file.

    ``drawing`` is a drawing built in memory instead of the variant's file: a ``Geometry`` or a document
    in the geometry.json shape (``icelords.geometry``), read with ``geometry_from_data``."""
    if drawing is None:
        geometry = _read(geometry_file(variant))
    elif isinstance(drawing, Geometry):
        geometry = drawing
    else:
        geometry = geometry_from_data(drawing, variant.slug)
    missing = sorted(set(variant.provinces) - set(geometry.shapes))
    if missing:
        raise GeometryError(f"{geometry.source} has no outline for {', '.join(missing)} of {variant.slug}")
    return geometry


def geometry_json(variant: Variant, drawing: Geometry | dict[str, Any] | None = None) -> dict[str, Any]:
    """The geometry document the API serves: outlines and anchors of every province of the variant.

    Provinces of the file that the variant does not have (e.g. SWI for standard) are left out of
    ``provinces`` and listed in ``off_board``, so a client draws them as scenery.
    """
    geometry = load_geometry(variant, drawing)
    doc = geometry.document
    return {
        "variant": variant.slug,
        "version": variant.version,
        "geometry_version": geometry.digest,
        "width": geometry.width,
        "height": geometry.height,
        "provinces": {c: d for c, d in doc["provinces"].items() if c in variant.provinces},
        "off_board": {c: d for c, d in doc["provinces"].items() if c not in variant.provinces},
        "scenery": doc["scenery"],
    }
