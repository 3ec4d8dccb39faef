"""The pieces of the geometry generator that need no downloaded data: the TopoJSON decoder and the warp."""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType, SimpleNamespace

import numpy as np
import pytest
from shapely.geometry import box

GENERATOR = Path(__file__).resolve().parents[2] / "scripts" / "geometry"


def load_script(name: str) -> ModuleType:
    """Import a generator module by path, without putting scripts/ on sys.path for every other test."""
    spec = importlib.util.spec_from_file_location(f"geometry_{name}", GENERATOR / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses and annotations look their module up here
    spec.loader.exec_module(module)
    return module


projection = load_script("projection")
Topology = load_script("topojson").Topology


def square_topology() -> Topology:
    """Two unit squares side by side sharing one arc, quantized on a 0.5-degree grid."""
    return Topology(
        {
            "type": "Topology",
            "transform": {"scale": [0.5, 0.5], "translate": [10, 40]},
            "arcs": [
                [[2, 0], [0, 2]],  # the shared edge, going up: (11,40) -> (11,41)
                [[2, 2], [-2, 0], [0, -2], [2, 0]],  # left square's other three sides
                [[2, 0], [2, 0], [0, 2], [-2, 0]],  # right square's other three sides
            ],
            "objects": {
                "land": {
                    "type": "GeometryCollection",
                    "geometries": [
                        {"type": "Polygon", "arcs": [[0, 1]], "properties": {"name": "West"}},
                        {"type": "MultiPolygon", "arcs": [[[2, ~0]]], "properties": {"name": "East"}},
                        {"type": "LineString", "arcs": [0]},
                    ],
                }
            },
        }
    )


def test_topojson_decodes_delta_encoded_arcs_and_reversed_arcs() -> None:
    features = {props["name"]: geom for props, geom in square_topology().features("land")}
    assert set(features) == {"West", "East"}  # the line is not a polygon and is skipped
    assert features["West"].bounds == (10.0, 40.0, 11.0, 41.0)
    assert features["East"].bounds == (11.0, 40.0, 12.0, 41.0)
    assert features["West"].area == pytest.approx(1.0) and features["East"].area == pytest.approx(1.0)
    assert features["West"].intersection(features["East"]).length == pytest.approx(1.0)  # the shared arc


def test_topojson_rejects_geometry_it_cannot_draw() -> None:
    with pytest.raises(ValueError, match="unsupported TopoJSON geometry type 'Point'"):
        square_topology().geometry({"type": "Point", "coordinates": [0, 0]})


def test_the_warp_fills_the_frame_and_keeps_order() -> None:
    (lon0, lon1), (lat0, lat1) = projection.LON_RANGE, projection.LAT_RANGE
    corners = projection.project(np.array([[lon0, lat1], [lon1, lat0]]))
    assert corners.ravel().tolist() == pytest.approx([0.0, 0.0, projection.WIDTH, projection.HEIGHT], abs=0.5)
    lons = np.linspace(lon0, lon1, 200)
    xs = projection.project(np.column_stack([lons, np.full(200, 50.0)]))[:, 0]
    assert np.all(np.diff(xs) > 0)  # monotone: coastlines stretch, never fold


def test_the_warp_enlarges_the_west_and_centre() -> None:
    def width_of_a_degree(lon: float) -> float:
        xs = projection.project(np.array([[lon, 50.0], [lon + 1, 50.0]]))[:, 0]
        return float(xs[1] - xs[0])

    assert width_of_a_degree(5.0) > 2 * width_of_a_degree(45.0)  # Belgium against the Urals
    assert width_of_a_degree(5.0) > 2 * width_of_a_degree(-20.0)  # against the open Atlantic


def test_unproject_inverts_project() -> None:
    points = np.array([[-0.1, 51.5], [30.3, 59.9], [51.0, 42.0], [-19.0, 64.9]])
    assert projection.unproject(projection.project(points)) == pytest.approx(points)


@pytest.fixture
def generator() -> Iterator[SimpleNamespace]:
    """The generator's division, search and graph modules, imported as the script imports them and
    removed again afterwards, so their plain names ("graph", "search") shadow nothing elsewhere."""
    names = ("projection", "topojson", "graph", "division", "search")
    saved = {name: sys.modules.pop(name) for name in names if name in sys.modules}
    sys.path.insert(0, str(GENERATOR))
    try:
        yield SimpleNamespace(**{name: importlib.import_module(name) for name in names})
    finally:
        sys.path.remove(str(GENERATOR))
        for name in names:
            sys.modules.pop(name, None)
        sys.modules.update(saved)


def island_world(generator: SimpleNamespace, land_seeds: dict) -> tuple:
    """A square island in an ocean: land provinces A and B side by side, seas N above and S below."""
    graph = {code: generator.graph.Province(code, "land") for code in ("A", "B", "N", "S")}
    for a, b in (("A", "B"), ("A", "N"), ("A", "S"), ("B", "N"), ("B", "S"), ("N", "S")):
        graph[a].borders.add(b)
        graph[b].borders.add(a)
    seeds = {"land": land_seeds, "sea": {"N": [(700.0, 150.0)], "S": [(700.0, 1100.0)]}}
    board = generator.division.Board(box(400, 400, 1000, 800), {}, seeds, graph, whole={})
    return board, graph


def test_the_division_follows_the_seeds_and_the_coast(generator: SimpleNamespace) -> None:
    board, graph = island_world(generator, {"A": [(500.0, 600.0)], "B": [(900.0, 600.0)]})
    regions = board.divide()
    assert regions["A"].union(regions["B"]).equals(box(400, 400, 1000, 800))  # land stays land
    assert generator.search.compare(regions, graph) == ([], [])


def test_the_search_adds_seeds_until_the_drawing_matches_the_graph(generator: SimpleNamespace) -> None:
    # B's only seed sits in the island's bottom-right corner: B reaches the southern sea only
    crowded = {"A": [(500.0, 600.0), (800.0, 450.0), (850.0, 700.0)], "B": [(990.0, 790.0)]}
    board, graph = island_world(generator, crowded)
    missing, extra = generator.search.compare(board.divide(), graph)
    assert [pair for pair, _ in missing] == [("B", "N")] and not extra
    regions, added = generator.search.search(board, rounds=5)
    assert generator.search.compare(regions, graph) == ([], [])
    assert set(added) == {"land.B"}  # only added, and only where needed
    assert board.seeds["land"]["A"] == crowded["A"]  # hand seeds untouched
