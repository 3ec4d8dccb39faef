"""An SVG map's provinces are its shapes with province codes as ids; their borders are detected from the
outlines they share, and every mistake names the province it concerns."""

from __future__ import annotations

import pytest

from dipserver.studio.borders import MAX_SHAPES, imported
from dipserver.studio.drawing import sanitised
from dipserver.studio.errors import StudioError
from tests.studio.conftest import small_map


@pytest.fixture(scope="module")
def drawn():
    return imported(sanitised(small_map()).text)


def svg(body: str) -> str:
    return sanitised(
        f'<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">{body}</svg>'.encode()
    ).text


def test_every_shape_with_a_province_code_is_a_province(drawn):
    assert sorted(drawn.provinces) == ["ALP", "BRE", "COR", "DAL", "ESS", "FAR", "NTH"]


def test_shared_borders_are_detected_both_ways(drawn):
    assert drawn.provinces["ALP"]["borders"] == ["BRE", "DAL", "NTH"]
    assert drawn.provinces["NTH"]["borders"] == ["ALP", "BRE", "COR"]


def test_provinces_meeting_at_a_corner_do_not_border(drawn):
    assert "ESS" not in drawn.provinces["ALP"]["borders"]
    assert "BRE" not in drawn.provinces["DAL"]["borders"]


def test_a_small_gap_between_hand_drawn_shapes_is_still_a_border(drawn):
    assert set(drawn.provinces["ESS"]["borders"]) == {"BRE", "DAL", "FAR"}


def test_curves_and_transforms_are_followed(drawn):
    assert drawn.provinces["FAR"]["borders"] == ["COR", "ESS"]


def test_names_and_terrain_come_from_the_shapes(drawn):
    assert drawn.provinces["NTH"] == {"name": "North Sea", "terrain": "sea", "borders": ["ALP", "BRE", "COR"]}
    assert drawn.provinces["ALP"]["terrain"] == "land"


def test_the_drawing_is_a_geometry_document_the_pictures_read(drawn):
    from dipserver.render.geometry import geometry_from_data

    geometry = geometry_from_data(drawn.geometry, "small")
    assert geometry.width == 300 and geometry.height == 200
    assert geometry.shapes["NTH"].medium == "sea"
    assert len(drawn.geometry["scenery"]) == 1


def test_a_shape_without_a_province_code_is_scenery_with_a_warning(drawn):
    assert drawn.warnings == ("shape 'path42' is drawn as scenery: its id is not a province code",)


def test_two_shapes_with_one_id_are_refused_on_that_province():
    with pytest.raises(StudioError) as refused:
        imported(
            svg(
                '<rect id="AB" width="10" height="10"/><rect id="CD" x="10" width="10" height="10"/>'
                '<rect id="AB" x="20" width="10" height="10"/>'
            )
        )
    assert refused.value.provinces == ("AB",)
    assert "two shapes" in str(refused.value)


def test_every_mistake_is_reported_each_on_its_province():
    body = (
        '<rect id="AB" width="10" height="10"/><rect id="AB" x="10" width="10" height="10"/>'
        '<rect id="CD" x="30" width="10" height="10" data-terrain="lava"/>'
        '<path id="EF" d="M 50,50 L 60,60 Z"/>'
    )
    with pytest.raises(StudioError) as refused:
        imported(svg(body))
    assert [p["provinces"] for p in refused.value.problems] == [["AB"], ["CD"], ["EF"]]


def test_a_map_without_any_province_is_refused():
    with pytest.raises(StudioError) as refused:
        imported(svg('<rect id="lowercase" width="10" height="10"/>'))
    assert refused.value.code == "invalid_svg"


def test_too_many_shapes_are_refused():
    shapes = "".join(f'<rect x="{i % 100}" width="1" height="1"/>' for i in range(MAX_SHAPES + 1))
    with pytest.raises(StudioError) as refused:
        imported(svg(shapes))
    assert refused.value.code == "too_large"


def test_a_drawing_too_large_is_refused():
    with pytest.raises(StudioError) as refused:
        imported(
            sanitised(
                b'<svg xmlns="http://www.w3.org/2000/svg" width="50000" height="10">'
                b'<rect id="AB" width="5" height="5"/></svg>'
            ).text
        )
    assert refused.value.code == "invalid_svg"


def test_shapes_with_too_many_segments_in_all_are_refused():
    from dipserver.studio.borders import MAX_SEGMENTS

    d = "M 0,0 " + " ".join(f"L {i % 90},{(i * 7) % 90}" for i in range(MAX_SEGMENTS)) + " Z"
    with pytest.raises(StudioError) as refused:
        imported(svg(f'<path id="AB" d="{d}"/>'))
    assert refused.value.code == "too_large" and "segments" in str(refused.value)
