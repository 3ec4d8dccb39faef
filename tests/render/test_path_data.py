"""The outlines' SVG path data: each ring from its first point, then in relative steps, draws exactly the
points of the drawing (to the tenth of a unit it is drawn in), in fewer bytes than absolute points."""

from __future__ import annotations

import re

from dipserver.engine.variant import load_variant
from dipserver.render import load_geometry
from dipserver.render.geometry import path_data

NUMBER = re.compile(r"-?(?:\d+\.?\d*|\.\d+)")


def points_of(data: str) -> list[list[tuple[float, float]]]:
    """The rings a path of ``M x y l dx dy ... z`` subpaths draws, as absolute points."""
    rings = []
    for subpath in re.findall(r"M[^M]*", data):
        numbers = [float(n) for n in NUMBER.findall(subpath)]
        x, y = numbers[0], numbers[1]
        ring = [(x, y)]
        for dx, dy in zip(numbers[2::2], numbers[3::2], strict=True):
            x, y = x + dx, y + dy
            ring.append((round(x, 1), round(y, 1)))
        rings.append(ring)
    return rings


def test_relative_steps_draw_every_point_of_every_outline_exactly() -> None:
    doc = load_geometry(load_variant("standard")).document
    for code, province in doc["provinces"].items():
        expected = [
            [(round(x, 1), round(y, 1)) for x, y in (ring[:-1] if ring[0] == ring[-1] else ring)]
            for polygon in province["polygons"]
            for ring in polygon
        ]
        assert points_of(path_data(province["polygons"])) == expected, code


def test_numbers_are_written_short_and_signs_separate_them() -> None:
    square = [[[[10, 20.5], [10.5, 20.5], [10.5, 19.5], [10, 20.5]]]]
    assert path_data(square) == "M10 20.5l.5 0 0-1z"
