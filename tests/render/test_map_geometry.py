"""The drawing agrees with the border graph of every variant, covers the frame exactly, and has room for
a unit and a label in every province (variants/standard/geometry.json, scripts/geometry/)."""

from __future__ import annotations

from dataclasses import replace
from functools import cache

import pytest
import shapely
from shapely.geometry import MultiPolygon, Point, Polygon, box
from shapely.geometry.base import BaseGeometry

from dipserver.engine.variant import VARIANTS_DIR, ProvinceInfo, load_variant
from dipserver.render import GeometryError, geometry_json, load_geometry
from dipserver.render.geometry import geometry_file

VARIANTS = sorted(p.parent.name for p in VARIANTS_DIR.glob("*/variant.toml"))
MIN_BORDER = 8.0  # px at 1440 wide: a border players can see
CORNER = 1.0  # px: provinces that do not border may touch at a point, not along a line
UNIT_RADIUS = 9.0  # px: the renderer's unit symbol
SC_RADIUS = 4.5  # px: the renderer's supply-centre marker
LABEL_BOX = (24.0, 12.0)  # px: a three-letter label at the renderer's font size


def multipolygon(polygons: list) -> MultiPolygon:
    return MultiPolygon([Polygon(rings[0], rings[1:]) for rings in polygons])


@cache
def shapes(slug: str) -> dict[str, BaseGeometry]:
    doc = load_geometry(load_variant(slug)).document
    return {code: multipolygon(data["polygons"]) for code, data in doc["provinces"].items()}


def shared_border(a: BaseGeometry, b: BaseGeometry) -> float:
    return a.buffer(0.3).intersection(b.boundary).length


def test_every_variant_is_tested() -> None:
    assert {"standard", "sahara", "deluge", "wall_of_ice"} <= set(VARIANTS)


@pytest.mark.parametrize("slug", VARIANTS)
def test_every_province_of_every_variant_has_an_outline(slug: str) -> None:
    variant = load_variant(slug)
    geometry = load_geometry(variant)
    assert set(variant.provinces) <= set(geometry.shapes)
    for code in variant.provinces:
        assert not shapes(geometry_file(variant).parent.name)[code].is_empty, code


def test_variants_extending_standard_share_its_file() -> None:
    for slug in ("sahara", "deluge", "wall_of_ice"):
        assert geometry_file(load_variant(slug)) == VARIANTS_DIR / "standard" / "geometry.json"


@pytest.mark.parametrize("slug", VARIANTS)
def test_bordering_provinces_share_a_visible_border(slug: str) -> None:
    variant = load_variant(slug)
    drawn = shapes(geometry_file(variant).parent.name)
    short = {
        (a, b, round(shared_border(drawn[a], drawn[b]), 1))
        for a, neighbours in variant.borders.items()
        for b in neighbours
        if a < b and shared_border(drawn[a], drawn[b]) < MIN_BORDER
    }
    assert not short, f"borders drawn shorter than {MIN_BORDER} px: {sorted(short)}"


@pytest.mark.parametrize("slug", VARIANTS)
def test_other_provinces_touch_at_most_at_a_corner(slug: str) -> None:
    variant = load_variant(slug)
    drawn = shapes(geometry_file(variant).parent.name)
    codes = sorted(variant.provinces)
    tree = shapely.STRtree([drawn[c] for c in codes])
    touching = set()
    for code in codes:
        for j in tree.query(drawn[code].buffer(0.5)):
            other = codes[j]
            if code < other and other not in variant.borders[code]:
                length = shared_border(drawn[code], drawn[other])
                if length > CORNER:
                    touching.add((code, other, round(length, 1)))
    assert not touching, f"non-neighbours sharing a border: {sorted(touching)}"


def test_the_drawing_covers_the_frame_without_gaps_or_overlaps() -> None:
    doc = load_geometry(load_variant("standard")).document
    pieces = [multipolygon(p["polygons"]) for p in doc["provinces"].values()]
    pieces += [multipolygon(polygons) for polygons in doc["scenery"]]
    frame = doc["width"] * doc["height"]
    assert all(p.is_valid for p in pieces)
    assert shapely.coverage_is_valid(pieces)  # neighbours share identical edges
    assert sum(p.area for p in pieces) == pytest.approx(frame, abs=1.0)  # no overlaps ...
    assert shapely.unary_union(pieces).area == pytest.approx(frame, abs=1.0)  # ... and no gaps


def test_every_unit_label_and_centre_fits_inside_its_province_without_overlapping() -> None:
    doc = load_geometry(load_variant("standard")).document
    cramped = []
    for code, data in doc["provinces"].items():
        outline = multipolygon(data["polygons"])
        unit = Point(data["unit"]).buffer(UNIT_RADIUS)
        x, y = data["label"]
        label = box(x - LABEL_BOX[0] / 2, y - LABEL_BOX[1] / 2, x + LABEL_BOX[0] / 2, y + LABEL_BOX[1] / 2)
        centre = Point(data["sc"]).buffer(SC_RADIUS)
        for what, shape in (("unit", unit), ("label", label), ("centre", centre)):
            if not outline.contains(shape):
                cramped.append((code, f"{what} crosses the border"))
        if label.intersects(unit) or centre.intersects(label) or centre.intersects(unit):
            cramped.append((code, "symbols overlap"))
    assert not cramped


def test_every_coast_has_an_anchor_beside_its_own_waters() -> None:
    variant = load_variant("standard")
    drawn = shapes("standard")
    doc = load_geometry(variant).document
    assert {p: set(c) for p, c in variant.coast_waters.items()} == {
        "BUL": {"EC", "SC"},
        "SPA": {"NC", "SC"},
        "STP": {"NC", "SC"},
    }
    for province, coasts in variant.coast_waters.items():
        anchors = doc["provinces"][province]["coasts"]
        for coast, waters in coasts.items():
            anchor = Point(anchors[coast])
            assert drawn[province].contains(anchor), (province, coast)
            own = min(drawn[w].distance(anchor) for w in waters)
            assert own < 30, f"{province}/{coast} is drawn {own:.0f} px from its waters"


def test_geometry_json_lists_the_variants_provinces_and_the_rest_as_off_board() -> None:
    standard = geometry_json(load_variant("standard"))
    assert set(standard["provinces"]) == set(load_variant("standard").provinces)
    assert set(standard["off_board"]) == {"SWI", "IRE", "ICE", "CAS"}
    sahara = geometry_json(load_variant("sahara"))
    assert {"IRE", "ICE", "CAS"} <= set(sahara["provinces"])
    assert set(sahara["off_board"]) == {"SWI"}
    assert standard["width"] == 1440 and standard["version"] == load_variant("standard").version
    assert standard["geometry_version"] == sahara["geometry_version"]  # one drawing for both
    assert len(standard["geometry_version"]) == 64


def test_a_variant_whose_provinces_the_drawing_lacks_is_refused_by_name() -> None:
    standard = load_variant("standard")
    atlantis = ProvinceInfo("ATL", "Atlantis")
    with pytest.raises(GeometryError, match=r"no outline for ATL of standard"):
        load_geometry(replace(standard, provinces={**standard.provinces, "ATL": atlantis}))


def test_a_variant_without_any_drawing_says_where_it_looked() -> None:
    nowhere = replace(load_variant("standard"), slug="nowhere", base=None)
    with pytest.raises(GeometryError, match=r"'nowhere' has no geometry.json \(looked in nowhere\)"):
        load_geometry(nowhere)


def test_a_province_without_an_outline_is_named_in_the_error() -> None:
    geometry = load_geometry(load_variant("standard"))
    with pytest.raises(GeometryError, match="no outline for province 'XYZ'"):
        geometry.shape("XYZ")
