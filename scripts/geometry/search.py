"""Comparing the drawing with the border graph, and the search that adds seeds until they agree."""

from __future__ import annotations

import json
import sys
import tomllib
from collections import defaultdict

import graph as graph_mod
import numpy as np
import projection
import shapely
import shapely.ops
from division import GENERATED_SEEDS, Board
from shapely.geometry import Point
from shapely.geometry.base import BaseGeometry

MIN_BORDER = 8.0  # px at 1440 wide: a border must be at least this long to be seen
CORNER = 1.0  # px: non-neighbours may share at most this much boundary (a corner)


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
