"""The pieces of the geometry generator that need no downloaded data: the TopoJSON decoder and the warp."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

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
