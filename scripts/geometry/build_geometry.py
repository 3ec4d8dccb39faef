"""Generate variants/<base>/geometry.json: a polygon per province, drawn from Natural Earth land.

Modules: projection.py (the warp), topojson.py (reading the data), graph.py (the border graph from the
variant files), division.py (media and Voronoi division), search.py (comparison with the graph and
the seed search), anchors.py (unit, label, centre and coast points); this file ties them together.

Run ``npm install`` here once (fetches world-atlas into node_modules/), then
``python3 scripts/geometry/build_geometry.py``. Steps:

1. Land from world-atlas's countries-50m TopoJSON, clipped to the board's frame and warped by
   projection.py. Straits the board treats as land (Danish straits, Sea of Marmara) are filled,
   lakes become land, islets vanish, and seedless islands become neutral scenery.
2. Media: the main land, the main sea, and provinces that are a whole natural feature (Switzerland,
   Ireland, Iceland, the Caspian). Each medium is divided on its own by the Voronoi cells of the
   seeds in seeds.toml, so borders follow the coast exactly.
3. Pieces of a cell cut off from their province's seeds go to the neighbour they share most border with.
4. A search compares the drawing with the border graph of the variant files and *adds* seeds
   (saved in generated_seeds.toml) until every border is drawn and no other border is.
5. Coverage simplification (shared borders stay shared), anchors, and the JSON file.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np
import shapely
import shapely.ops
from shapely.geometry import Polygon, box
from shapely.geometry.base import BaseGeometry
from shapely.ops import unary_union

sys.path.insert(0, str(Path(__file__).resolve().parent))

import graph as graph_mod
import projection
from anchors import anchors
from division import HERE, SCENERY, WHOLE, Board, load_seeds, parts
from search import compare, save_generated, search
from topojson import Topology

ATLAS = HERE / "node_modules" / "world-atlas" / "countries-50m.json"
SIMPLIFY = 0.7  # px: coverage simplification tolerance
PRECISION = 0.1  # px: grid of the stored coordinates

# Water the board treats as land: (lon, lat) rings, filled before the division.
STRAITS = {
    "Danish straits": [
        (9.5, 55.0),
        (9.6, 55.6),
        (10.3, 55.75),
        (11.0, 55.95),
        (12.0, 56.1),
        (12.6, 56.2),
        (13.0, 55.95),
        (12.95, 55.3),
        (12.4, 55.0),
        (11.2, 54.55),
        (10.0, 54.6),
    ],
    "Sea of Marmara": [
        (26.1, 40.0),
        (26.55, 40.5),
        (26.9, 40.85),
        (28.0, 41.05),
        (29.0, 41.3),
        (29.2, 41.25),
        (29.35, 40.7),
        (28.0, 40.25),
        (27.0, 40.0),
        (26.4, 39.9),
    ],
}


def project_geometry(geom: BaseGeometry) -> BaseGeometry:
    return shapely.transform(geom, projection.project)


def _unwrap(polygon: Polygon) -> Polygon:
    """Shift the western-hemisphere end of a polygon that spans the antimeridian east of 180°."""
    lon0, _, lon1, _ = polygon.bounds
    if lon1 - lon0 < 180:
        return polygon

    def shift(c: np.ndarray) -> np.ndarray:
        return np.column_stack([np.where(c[:, 0] < 0, c[:, 0] + 360, c[:, 0]), c[:, 1]])

    return shapely.transform(polygon, shift)


def load_sources() -> tuple[BaseGeometry, dict[str, BaseGeometry]]:
    """(land, the countries whole provinces are drawn from) in board pixels."""
    if not ATLAS.exists():
        sys.exit(f"{ATLAS} is missing: run `npm install` in {HERE} first")
    topo = Topology.load(ATLAS)
    (lon0, lon1), (lat0, lat1) = projection.LON_RANGE, projection.LAT_RANGE
    window = box(lon0, lat0, lon1, lat1)  # the warp clamps outside its range
    countries = {props.get("name"): g for props, g in topo.features("countries")}
    # Built from countries, not the merged land: Eurasia's ring crosses the antimeridian, and in the
    # plane that jump is a line across the Arctic. Russia is unwrapped (east of 180° kept east).
    land = unary_union(
        [shapely.make_valid(_unwrap(p)).intersection(window) for g in countries.values() for p in parts(g)]
    )
    land = unary_union([land, *(Polygon(ring) for ring in STRAITS.values())])
    frame = box(0, 0, projection.WIDTH, projection.HEIGHT)
    land = shapely.make_valid(project_geometry(land)).intersection(frame)
    wanted = {name for kind, name in WHOLE.values() if kind == "country"}
    outlines = {
        name: project_geometry(shapely.make_valid(countries[name])).intersection(land) for name in wanted
    }
    return land, outlines


# --- output -------------------------------------------------------------------------------------


def node(geoms: list[BaseGeometry]) -> list[BaseGeometry]:
    """Rebuild the regions from one noded set of faces, so neighbours share every vertex.

    Land and sea are cut by different Voronoi cells, so a coast has vertices on one side that the
    other lacks, and floating-point cuts leave slivers; coverage simplification needs neither.
    """
    # Snap-rounded noding puts every vertex on the PRECISION grid; simplification only drops vertices,
    # so the stored coordinates are exact and neighbours stay identical.
    lines = shapely.unary_union([g.boundary for g in geoms], grid_size=PRECISION)
    faces = list(shapely.polygonize(lines.geoms).geoms)
    tree = shapely.STRtree(geoms)
    owned: list[list[BaseGeometry]] = [[] for _ in geoms]
    for face in faces:
        candidates = tree.query(face)
        best = max(candidates, key=lambda i: geoms[i].intersection(face).area)
        owned[best].append(face)
    return [unary_union(f) for f in owned]


def simplify(regions: dict[str, BaseGeometry], scenery: list[BaseGeometry]) -> tuple[dict, list]:
    """Coverage-simplify provinces and scenery together, so shared borders stay shared."""
    keys = list(regions)
    geoms = node([regions[k] for k in keys] + scenery)
    if not shapely.coverage_is_valid(geoms):
        raise AssertionError("the regions are not a coverage even after noding")
    simplified = shapely.coverage_simplify(np.array(geoms, dtype=object), SIMPLIFY, simplify_boundary=False)
    invalid = [k for k, g in zip(keys, simplified, strict=False) if not g.is_valid]
    if invalid or not shapely.coverage_is_valid(simplified):
        raise AssertionError(f"simplification broke the coverage (invalid: {invalid})")
    return dict(zip(keys, simplified[: len(keys)], strict=True)), simplified[len(keys) :]


def rings(geom: BaseGeometry) -> list[list[list[list[float]]]]:
    """GeoJSON MultiPolygon coordinates at PRECISION."""
    out = []
    for polygon in parts(geom):
        polygon = shapely.geometry.polygon.orient(polygon)
        out.append(
            [
                [[round(x, 1), round(y, 1)] for x, y in ring.coords]
                for ring in (polygon.exterior, *polygon.interiors)
            ]
        )
    return out


def write(path: Path, board: Board, regions: dict, scenery: list, seconds: float) -> None:
    provinces = {}
    for code in sorted(board.graph):
        provinces[code] = {
            "medium": "sea" if code in board.seeds["sea"] else "land",
            "polygons": rings(regions[code]),
            **anchors(code, regions[code], regions, board.graph, set(board.seeds["sea"])),
        }
    doc = {
        "about": "Generated by scripts/geometry/build_geometry.py from Natural Earth 1:50m land "
        "(public domain, via the world-atlas npm package); do not edit by hand.",
        "width": int(projection.WIDTH),
        "height": int(projection.HEIGHT),
        "provinces": provinces,
        "scenery": [rings(g) for g in scenery],
    }
    path.write_text(json.dumps(doc, separators=(",", ":")) + "\n")
    print(f"wrote {path} ({path.stat().st_size // 1024} KB) in {seconds:.1f} s", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--base", default="standard", help="base map whose geometry to build")
    parser.add_argument("--rounds", type=int, default=25, help="seed-search rounds before giving up")
    args = parser.parse_args(argv)
    started = time.monotonic()
    graph = graph_mod.load_graph(args.base)
    land, countries = load_sources()
    board = Board(land, countries, load_seeds(), graph)
    regions, generated = search(board, args.rounds)
    missing, extra = compare(regions, graph)
    save_generated(generated)
    if missing or extra:
        print("the drawing does not match the border graph; tune seeds.toml", file=sys.stderr)
        return 1
    scenery_keys = [k for k in regions if k.startswith(SCENERY)]
    scenery = [regions.pop(k) for k in scenery_keys] + board.islands
    regions, scenery = simplify(regions, scenery)
    missing, extra = compare(regions, graph)
    if missing or extra:
        print(f"simplification broke borders: missing {missing}, extra {extra}", file=sys.stderr)
        return 1
    target = graph_mod.VARIANTS / args.base / "geometry.json"
    write(target, board, regions, scenery, time.monotonic() - started)
    return 0


if __name__ == "__main__":
    sys.exit(main())
