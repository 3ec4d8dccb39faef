"""A minimal TopoJSON decoder: enough to read world-atlas's quantized land and country files.

TopoJSON stores shared borders once as *arcs*; polygons list arc indices (a negative index ``~i``
means arc ``i`` reversed). Quantized files delta-encode each arc's points on an integer grid.
Spec: https://github.com/topojson/topojson-specification
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from shapely.geometry import MultiPolygon, Polygon
from shapely.geometry.base import BaseGeometry

Point = tuple[float, float]


class Topology:
    def __init__(self, data: dict[str, Any]) -> None:
        transform = data.get("transform")
        self.objects: dict[str, Any] = data["objects"]
        self.arcs: list[list[Point]] = [self._decode_arc(arc, transform) for arc in data["arcs"]]

    @classmethod
    def load(cls, path: Path) -> Topology:
        return cls(json.loads(path.read_text()))

    @staticmethod
    def _decode_arc(arc: list[list[int]], transform: dict[str, Any] | None) -> list[Point]:
        if transform is None:
            return [(float(x), float(y)) for x, y, *_ in arc]
        (sx, sy), (tx, ty) = transform["scale"], transform["translate"]
        points, x, y = [], 0, 0
        for dx, dy, *_ in arc:
            x, y = x + dx, y + dy  # quantized arcs are delta-encoded
            points.append((x * sx + tx, y * sy + ty))
        return points

    def _ring(self, indices: list[int]) -> list[Point]:
        ring: list[Point] = []
        for index in indices:
            arc = self.arcs[index] if index >= 0 else self.arcs[~index][::-1]
            # consecutive arcs share their joining point; keep it once
            ring.extend(arc if not ring else arc[1:])
        return ring

    def _polygon(self, rings: list[list[int]]) -> Polygon:
        exterior, *holes = (self._ring(r) for r in rings)
        return Polygon(exterior, holes)

    def geometry(self, geom: dict[str, Any]) -> BaseGeometry:
        if geom["type"] == "Polygon":
            return self._polygon(geom["arcs"])
        if geom["type"] == "MultiPolygon":
            return MultiPolygon([self._polygon(p) for p in geom["arcs"]])
        raise ValueError(f"unsupported TopoJSON geometry type {geom['type']!r}")

    def features(self, name: str) -> list[tuple[dict[str, Any], BaseGeometry]]:
        """(properties, geometry) for every polygonal geometry of one object collection."""
        collection = self.objects[name]
        return [
            (g.get("properties", {}), self.geometry(g))
            for g in collection["geometries"]
            if g["type"] in ("Polygon", "MultiPolygon")
        ]
