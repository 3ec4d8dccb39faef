"""Generate variants/<base>/geometry.json: a polygon per province, drawn from Natural Earth land.

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
import tomllib
from collections import defaultdict
from pathlib import Path

import numpy as np
import shapely
import shapely.ops
from shapely.geometry import MultiPoint, Point, Polygon, box
from shapely.geometry.base import BaseGeometry
from shapely.ops import unary_union

sys.path.insert(0, str(Path(__file__).resolve().parent))

import graph as graph_mod
import projection
from topojson import Topology

HERE = Path(__file__).resolve().parent
ATLAS = HERE / "node_modules" / "world-atlas" / "countries-50m.json"
SEEDS = HERE / "seeds.toml"
GENERATED_SEEDS = HERE / "generated_seeds.toml"

MIN_BORDER = 8.0  # px at 1440 wide: a border must be at least this long to be seen
CORNER = 1.0  # px: non-neighbours may share at most this much boundary (a corner)
ISLET = 40.0  # px²: land smaller than this is dropped into the sea
LAKE = 4000.0  # px²: enclosed water smaller than this becomes land
SIMPLIFY = 0.7  # px: coverage simplification tolerance
PRECISION = 0.1  # px: grid of the stored coordinates
SCENERY = "~"  # seed key prefix of neutral land

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


def load_sources() -> tuple[BaseGeometry, BaseGeometry]:
    """(land, Switzerland) in board pixels."""
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
    switzerland = project_geometry(shapely.make_valid(countries["Switzerland"])).intersection(land)
    return land, switzerland


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


class Board:
    """The division of the frame into provinces and scenery, rebuilt whenever seeds change."""

    def __init__(self, land: BaseGeometry, switzerland: BaseGeometry, seeds: dict, graph: dict) -> None:
        self.frame = box(0, 0, projection.WIDTH, projection.HEIGHT)
        self.seeds = seeds
        self.graph = graph
        self._media(land, switzerland)

    def _media(self, land: BaseGeometry, switzerland: BaseGeometry) -> None:
        land_seeds = [Point(p) for pts in self.seeds["land"].values() for p in pts]
        sea = self.frame.difference(land)
        caspian_seed = Point(self.seeds["sea"]["CAS"][0])
        whole: dict[str, BaseGeometry] = {}
        lakes = []
        for water in parts(sea):
            if water.contains(caspian_seed):  # its islets are Caspian water, not stray bits of sea
                big = [h for h in water.interiors if Polygon(h).area >= ISLET]
                whole["CAS"] = Polygon(water.exterior, big)
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
        for code in ("IRE", "ICE"):
            seed = Point(self.seeds["land"][code][0])
            whole[code] = next(p for p in mainland if p.contains(seed))
        whole["SWI"] = switzerland.intersection(mainland_union)
        self.whole = whole
        self.islands = scenery
        self.land = mainland_union.difference(unary_union(list(whole.values())))
        self.sea = self.frame.difference(unary_union([mainland_union, *scenery, whole["CAS"]]))

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


def shared_lengths(regions: dict[str, BaseGeometry], codes: list[str]) -> dict[frozenset[str], float]:
    """Length of boundary shared by every pair of the given regions that touch."""
    geoms = [regions[c] for c in codes]
    tree = shapely.STRtree(geoms)
    out: dict[frozenset[str], float] = {}
    for i, code in enumerate(codes):
        grown = geoms[i].buffer(0.3)
        for j in tree.query(grown):
            if j <= i:
                continue
            length = grown.intersection(geoms[j].boundary).length
            if length > 0:
                out[frozenset((code, codes[j]))] = length
    return out


def compare(regions: dict[str, BaseGeometry], graph: dict) -> tuple[list, list]:
    """(missing borders, extra borders) of the drawing against the graph."""
    codes = sorted(graph)
    lengths = shared_lengths(regions, codes)
    wanted = graph_mod.edges(graph)
    missing = sorted(
        (tuple(sorted(e)), round(lengths.get(e, 0.0), 1)) for e in wanted if lengths.get(e, 0.0) < MIN_BORDER
    )
    extra = sorted(
        (tuple(sorted(e)), round(v, 1)) for e, v in lengths.items() if e not in wanted and v > CORNER
    )
    return missing, extra


def _medium_of(board: Board, code: str) -> str:
    return "sea" if code in board.seeds["sea"] else "land"


def _step_into(region: BaseGeometry, point: Point, towards: Point, distance: float = 5.0) -> Point:
    """A point of ``region`` about ``distance`` px from ``point``, in the direction of ``towards``."""
    vx, vy = towards.x - point.x, towards.y - point.y
    norm = max((vx * vx + vy * vy) ** 0.5, 1e-9)
    for d in (distance, distance / 2, distance / 4):
        candidate = Point(point.x + vx / norm * d, point.y + vy / norm * d)
        if region.contains(candidate):
            return candidate
    return point


def propose_seeds(board: Board, regions: dict, missing: list, extra: list) -> list[tuple[str, str, Point]]:
    """New (medium, province, point) seeds that should move the drawing towards the graph.

    A missing border A-B: A gets a seed just inside the part of its medium nearest to B, carving a
    contact out of whoever holds it now. An extra border A-B: a province that should border both
    gets a seed where they touch, keeping them apart.
    """
    media = {"land": board.land, "sea": board.sea}
    added = []
    for (a, b), _ in missing:
        for x, y in ((a, b), (b, a)):
            if x in board.whole:
                continue
            medium = _medium_of(board, x)
            target = regions[y]
            reachable = media[medium].intersection(target.buffer(6)) or media[medium]
            near_target, _ = shapely.ops.nearest_points(reachable, regions[x])
            seed = _step_into(media[medium], near_target, Point(target.centroid))
            added.append((medium, x, seed))
            break
    for (a, b), _ in extra:
        contact = regions[a].buffer(0.3).intersection(regions[b].boundary)
        middle = contact.interpolate(0.5, normalized=True) if contact.length else contact.centroid
        common = sorted(board.graph[a].borders & board.graph[b].borders - set(board.whole))
        for c in common:
            medium = _medium_of(board, c)
            side = a if _medium_of(board, a) == medium else b
            if _medium_of(board, side) != medium or side in board.whole:
                continue
            seed = _step_into(regions[side], middle, Point(regions[side].centroid), 3.0)
            added.append((medium, c, seed))
            break
    return added


def search(board: Board, rounds: int) -> tuple[dict[str, BaseGeometry], dict[str, list]]:
    """Divide, compare, add seeds; repeat until the drawing matches the graph or rounds run out."""
    generated: dict[str, list] = defaultdict(list)
    for attempt in range(rounds + 1):
        regions = board.divide()
        missing, extra = compare(regions, board.graph)
        print(f"round {attempt}: {len(missing)} missing, {len(extra)} extra borders", file=sys.stderr)
        if not (missing or extra) or attempt == rounds:
            if missing or extra:
                print(f"  missing {missing}\n  extra {extra}", file=sys.stderr)
            return regions, generated
        for medium, code, point in propose_seeds(board, regions, missing, extra):
            board.seeds[medium].setdefault(code, []).append((point.x, point.y))
            generated[f"{medium}.{code}"].append((point.x, point.y))
    raise AssertionError("unreachable")


def save_generated(generated: dict[str, list]) -> None:
    if not generated:
        return
    lines = ["# Seeds added by build_geometry.py's search (lon, lat); delete this file to search afresh.", ""]
    by_medium: dict[str, dict[str, list]] = defaultdict(dict)
    for key, pts in generated.items():
        medium, code = key.split(".")
        by_medium[medium][code] = projection.unproject(np.array(pts)).round(3).tolist()
    old = tomllib.loads(GENERATED_SEEDS.read_text()) if GENERATED_SEEDS.exists() else {}
    for medium in ("land", "sea"):
        merged = dict(old.get(medium, {}))
        for code, pts in by_medium.get(medium, {}).items():
            merged[code] = merged.get(code, []) + pts
        if merged:
            lines.append(f"[{medium}]")
            lines.extend(f"{code} = {json.dumps(pts)}" for code, pts in sorted(merged.items()))
            lines.append("")
    GENERATED_SEEDS.write_text("\n".join(lines))


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
    land, switzerland = load_sources()
    board = Board(land, switzerland, load_seeds(), graph)
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
