"""Dividing the board among provinces: land and sea each split by the Voronoi cells of their seeds."""

from __future__ import annotations

import tomllib
from collections import defaultdict
from pathlib import Path

import numpy as np
import projection
import shapely
from shapely.geometry import MultiPoint, Point, Polygon, box
from shapely.geometry.base import BaseGeometry
from shapely.ops import unary_union

HERE = Path(__file__).resolve().parent
SEEDS = HERE / "seeds.toml"
GENERATED_SEEDS = HERE / "generated_seeds.toml"
ISLET = 40.0  # px²: land smaller than this is dropped into the sea
LAKE = 4000.0  # px²: enclosed water smaller than this becomes land
SCENERY = "~"  # seed key prefix of neutral land


def parts(geom: BaseGeometry) -> list[Polygon]:
    return [g for g in getattr(geom, "geoms", [geom]) if isinstance(g, Polygon) and not g.is_empty]


def load_seeds() -> dict[str, dict[str, list[tuple[float, float]]]]:
    """medium -> key -> seed points in pixels; generated seeds are appended to the hand-placed ones."""
    media: dict[str, dict[str, list[tuple[float, float]]]] = {}
    for path in (SEEDS, GENERATED_SEEDS):
        if not path.exists():
            continue
        data = tomllib.loads(path.read_text())
        for medium, table in data.items():
            for key, points in table.items():
                name = SCENERY + key if medium == "scenery" else key
                into = media.setdefault("land" if medium == "scenery" else medium, {})
                xy = projection.project(np.array(points, dtype=float))
                into.setdefault(name, []).extend(tuple(map(float, p)) for p in xy)
    return media


# Provinces that are a whole natural feature rather than Voronoi cells: a country's own outline, the
# island holding the province's seed, or the enclosed water holding it.
WHOLE = {
    "SWI": ("country", "Switzerland"),
    "IRE": ("island", ""),
    "ICE": ("island", ""),
    "CAS": ("water", ""),
}


class Board:
    """The division of the frame into provinces and scenery, rebuilt whenever seeds change.

    ``land`` and ``countries`` are in board pixels; ``seeds`` maps medium -> province -> points.
    """

    def __init__(
        self,
        land: BaseGeometry,
        countries: dict[str, BaseGeometry],
        seeds: dict,
        graph: dict,
        whole: dict[str, tuple[str, str]] = WHOLE,
    ) -> None:
        self.frame = box(0, 0, projection.WIDTH, projection.HEIGHT)
        self.seeds = seeds
        self.graph = graph
        self._media(land, countries, {code: kind for code, kind in whole.items() if code in graph})

    def _seed(self, code: str) -> Point:
        medium = "sea" if code in self.seeds["sea"] else "land"
        return Point(self.seeds[medium][code][0])

    def _media(self, land: BaseGeometry, countries: dict, whole_kinds: dict[str, tuple[str, str]]) -> None:
        land_seeds = [Point(p) for pts in self.seeds["land"].values() for p in pts]
        waters = {code: self._seed(code) for code, (kind, _) in whole_kinds.items() if kind == "water"}
        whole: dict[str, BaseGeometry] = {}
        lakes = []
        for water in parts(self.frame.difference(land)):
            code = next((c for c, seed in waters.items() if water.contains(seed)), None)
            if code is not None:  # its islets are part of it, not stray bits of sea
                big = [h for h in water.interiors if Polygon(h).area >= ISLET]
                whole[code] = Polygon(water.exterior, big)
            elif water.area < LAKE:
                lakes.append(water)
        land = unary_union([land, *lakes])
        mainland, scenery = [], []
        for piece in parts(land):
            if any(piece.contains(s) for s in land_seeds):
                mainland.append(piece)
            elif piece.area >= ISLET:
                scenery.append(piece)
        mainland_union = unary_union(mainland)
        for code, (kind, name) in whole_kinds.items():
            if kind == "island":
                whole[code] = next(p for p in mainland if p.contains(self._seed(code)))
            elif kind == "country":
                whole[code] = countries[name].intersection(mainland_union)
        self.whole = whole
        self.islands = scenery
        self.land = mainland_union.difference(unary_union([g for c, g in whole.items() if c not in waters]))
        self.sea = self.frame.difference(unary_union([mainland_union, *scenery, *(whole[c] for c in waters)]))

    def divide(self) -> dict[str, BaseGeometry]:
        """Province code (or scenery key) -> geometry."""
        regions: dict[str, BaseGeometry] = {}
        for medium, area in (("land", self.land), ("sea", self.sea)):
            keys = [k for k, pts in self.seeds[medium].items() if k not in self.whole for _ in pts]
            points = [p for k, pts in self.seeds[medium].items() if k not in self.whole for p in pts]
            cells = shapely.voronoi_polygons(MultiPoint(points), extend_to=self.frame, ordered=True)
            grouped: dict[str, list] = defaultdict(list)
            for key, cell in zip(keys, cells.geoms, strict=True):
                grouped[key].append(cell)
            divided = {k: unary_union(c).intersection(area) for k, c in grouped.items()}
            regions.update(self._reattach(divided, medium))
        regions.update(self.whole)
        return regions

    def _reattach(self, divided: dict[str, BaseGeometry], medium: str) -> dict[str, BaseGeometry]:
        """Give every piece cut off from its own seeds to the neighbour it shares most border with."""
        seeds = {k: [Point(p) for p in self.seeds[medium][k]] for k in divided}
        pieces: list[tuple[str, Polygon]] = []
        for key, geom in divided.items():
            pieces.extend((key, p) for p in parts(geom))
        owner = {i: key for i, (key, _) in enumerate(pieces)}
        anchored = {i for i, (key, p) in enumerate(pieces) if any(p.intersects(s) for s in seeds[key])}
        tree = shapely.STRtree([p for _, p in pieces])
        pending = [i for i in owner if i not in anchored]
        for _ in range(len(pending) + 1):
            if not pending:
                break
            still = []
            for i in pending:
                piece = pieces[i][1]
                best, best_len = None, 0.0
                for j in tree.query(piece.buffer(0.5)):
                    if j == i or (j not in anchored and owner[j] == owner[i]):
                        continue
                    shared = piece.buffer(0.3).intersection(pieces[j][1].boundary).length
                    if shared > best_len:
                        best, best_len = j, shared
                if best is None or best not in anchored:
                    still.append(i)
                    continue
                owner[i] = owner[best]
                anchored.add(i)
            if len(still) == len(pending):
                break  # islands nobody touches stay with their Voronoi owner
            pending = still
        merged: dict[str, list[Polygon]] = defaultdict(list)
        for i, (_, p) in enumerate(pieces):
            merged[owner[i]].append(p)
        return {k: unary_union(v) for k, v in merged.items()}
