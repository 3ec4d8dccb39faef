"""The rule modules and the conversion orders on the map, checked by element and style: blizzards, supply
lines, depots and marks, the Ice Lords grid from a geometry built in memory."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from dipserver.engine import icelords
from dipserver.engine.board import board_for
from dipserver.engine.kinds.conversion import ConvertToArmy, ConvertToFleet, StayFleet
from dipserver.engine.modules import Modules
from dipserver.engine.modules.blizzard import BlizzardOptions
from dipserver.engine.modules.dice import Dice
from dipserver.engine.modules.phase import ModuleState, open_phase, play
from dipserver.engine.modules.supply import Depot, SupplyOptions, SupplyState
from dipserver.engine.orders import Hold, Outcome
from dipserver.engine.position import Position
from dipserver.engine.records import order_record
from dipserver.engine.types import Phase, Unit, UnitType
from dipserver.engine.variant import load_variant
from dipserver.render import GeometryError, geometry_json, load_geometry, render_png, render_svg
from dipserver.render.geometry import geometry_from_data
from dipserver.render.picture import MIN_WIDTH

from .snapshots import SVG, classes, layer, provinces_by_id

STANDARD = load_variant("standard")
MAX_SVG_BYTES = 400 * 1024


def standard_position(units: dict[str, list[str]], phase: str = "S1902M") -> Position:
    placed = {}
    for power, rows in units.items():
        for row in rows:
            kind, where = row.split()
            placed[where] = Unit(power, UnitType(kind), where)
    return Position(Phase.parse(phase), placed, dict(STANDARD.start.owners))


def svg_of(position: Position, **kwargs) -> str:
    return render_svg(STANDARD, STANDARD.map_state, position, **kwargs)


def legend_words(svg: str) -> str:
    return " ".join(t.text or "" for t in layer(svg, "legend").iter(f"{SVG}text"))


def elements(svg: str, name: str, tag: str) -> list[ET.Element]:
    return list(layer(svg, name).iter(f"{SVG}{tag}"))


# --- blizzards --------------------------------------------------------------------------------------


def test_each_blizzard_is_snow_over_its_province_with_a_legend_entry() -> None:
    svg = svg_of(STANDARD.start, modules={"blizzards": ["MUN", "NTH"]})
    snow = elements(svg, "blizzards", "path")
    assert [p.get("data-province") for p in snow] == ["MUN", "NTH"]
    assert all(classes(p) == {"blizzard"} for p in snow)
    assert snow[0].get("d") == provinces_by_id(svg)["MUN"].get("d")
    assert "Munich: blizzard" in (snow[0].find(f"{SVG}title").text or "")  # type: ignore[union-attr]
    assert ".blizzard{fill:url(#p-snow)" in svg and 'id="p-snow"' in svg
    assert "Blizzard: units only hold" in legend_words(svg)


def test_without_modules_the_picture_has_no_module_marks() -> None:
    svg = svg_of(STANDARD.start)
    for name in ("blizzards", "supply", "supply-marks"):
        assert len(layer(svg, name)) == 0
    assert 'id="p-snow"' not in svg and "Blizzard" not in legend_words(svg)
    assert "Changes kind" not in legend_words(svg)
    assert ET.fromstring(svg).get("height") == str(1224 + 88)


def test_the_blizzards_announced_when_a_phase_opens_are_drawn() -> None:
    board = board_for(STANDARD, STANDARD.map_state)
    snow = Modules(blizzards=BlizzardOptions(Dice(0, 0, 3)))
    opened = open_phase(board, STANDARD.start, snow, ModuleState(), "render-test")
    drawn = [
        p.get("data-province")
        for p in elements(svg_of(STANDARD.start, modules=opened.to_data()), "blizzards", "path")
    ]
    assert drawn == sorted(opened.state.blizzards) and len(drawn) == 3


# --- supply lines -----------------------------------------------------------------------------------

SUPPLY_UNITS = {"FRANCE": ["A BUR", "A MUN", "A UKR", "A GAS"], "GERMANY": ["A SIL"]}


def opened_supply() -> dict:
    state = ModuleState(
        supply=SupplyState({"GAS": Depot("FRANCE", "F1901M"), "SIL": Depot("GERMANY", "F1901M")}, {"UKR": 1})
    )
    board = board_for(STANDARD, STANDARD.map_state)
    opened = open_phase(board, standard_position(SUPPLY_UNITS), Modules(supply=SupplyOptions()), state, "x")
    return opened.to_data()


def test_a_supplied_units_line_runs_from_it_to_its_source_in_its_powers_colour() -> None:
    data = opened_supply()
    svg = svg_of(standard_position(SUPPLY_UNITS), modules=data)
    lines = {p.get("data-unit"): p for p in elements(svg, "supply", "path") if "depot-line" not in classes(p)}
    assert data["lines"]["units"]["MUN"]["path"] == [
        "MUN",
        "BUR",
        "GAS",
    ]  # the depot, tied with Marseilles, first alphabetically
    mun = lines["MUN"]
    assert classes(mun) == {"supply-line"} and mun.get("data-source") == "GAS"
    assert mun.get("stroke") == STANDARD.powers["FRANCE"].colour
    assert (mun.get("d") or "").count("L") == 2  # three provinces: two segments
    assert "UKR" not in lines  # out of supply: no line
    assert "GAS" not in lines  # a unit on its own depot traces to itself: nothing to draw


def test_a_unit_out_of_supply_is_ringed_and_shows_its_failed_checks() -> None:
    svg = svg_of(standard_position(SUPPLY_UNITS), modules=opened_supply())
    rings = [c for c in elements(svg, "supply-marks", "circle") if "unsupplied" in classes(c)]
    assert [r.get("data-unit") for r in rings] == ["UKR"]
    badges = [g for g in elements(svg, "supply-marks", "g") if "supply-mark" in classes(g)]
    assert [(g.get("data-unit"), g.find(f"{SVG}text").text) for g in badges] == [("UKR", "1")]  # type: ignore[union-attr]
    words = legend_words(svg)
    assert "Supply line" in words and "Out of supply" in words and "Depot" in words


def test_depots_are_squares_in_their_owners_colour() -> None:
    svg = svg_of(standard_position(SUPPLY_UNITS), modules=opened_supply())
    squares = {r.get("data-province"): r for r in elements(svg, "supply", "rect")}
    assert set(squares) == {"GAS", "SIL"}
    assert squares["GAS"].get("fill") == STANDARD.powers["FRANCE"].colour
    assert squares["SIL"].get("fill") == STANDARD.powers["GERMANY"].colour
    assert "cut" not in classes(squares["GAS"])  # Gascony traces to Marseilles or Paris
    depot_lines = [p.get("data-unit") for p in elements(svg, "supply", "path") if "depot-line" in classes(p)]
    assert "GAS" in depot_lines


def test_the_data_after_a_phase_is_drawn_too() -> None:
    """``Played.to_data()``: the state kept and the check made after an Autumn."""
    units = {"FRANCE": ["A BUR", "A UKR"], "GERMANY": ["A MUN", "A SIL"]}
    position = standard_position(units, phase="F1902M")
    board = board_for(STANDARD, STANDARD.map_state)
    holds = {p: [Hold(u.location) for u in position.units_of(p)] for p in units}
    gentle = SupplyOptions(strikes=2, removal="winter")  # a first failed check marks the unit, and it stays
    played = play(board, position, holds, Modules(supply=gentle), ModuleState())
    data = played.to_data()
    assert data["check"] is not None
    svg = render_svg(STANDARD, STANDARD.map_state, played.result.position, modules=data)
    badges = [g.get("data-unit") for g in elements(svg, "supply-marks", "g") if "supply-mark" in classes(g)]
    assert badges == ["UKR"]


# --- conversions ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("order", "words"),
    [
        (ConvertToFleet("BRE"), "A→F"),
        (ConvertToFleet("STP", "NC"), "A→F NC"),
        (ConvertToArmy("BRE"), "F→A"),
        (StayFleet("BRE"), "stay F"),
    ],
)
def test_a_conversion_is_marked_at_its_unit_with_what_it_becomes(order, words: str) -> None:
    svg = svg_of(STANDARD.start, orders=[order])
    marks = [g for g in elements(svg, "orders", "g") if "conversion-mark" in classes(g)]
    assert len(marks) == 1 and type(order).__name__ in classes(marks[0])
    assert marks[0].get("data-location") == order.unit
    assert marks[0].find(f"{SVG}text").text == words  # type: ignore[union-attr]
    assert "Changes kind" in legend_words(svg)


def test_a_failed_conversion_is_shown_failed() -> None:
    # A conversion's result is a record, as the turn makes it (``turn._converted``: void when it failed).
    result = order_record("FRANCE", ConvertToFleet("BRE"), STANDARD.start, outcome=Outcome.VOID)
    svg = svg_of(STANDARD.start, results=[result])
    marks = [g for g in elements(svg, "orders", "g") if "conversion-mark" in classes(g)]
    assert "failed" in classes(marks[0])


# --- Ice Lords: a geometry built in memory ----------------------------------------------------------


@pytest.fixture(scope="module")
def ice_board() -> icelords.IceLordsMap:
    return icelords.generate("render-test", 4)


def test_a_generated_board_is_drawn_from_its_geometry_with_a_texture_per_tile(ice_board) -> None:
    variant = ice_board.variant
    svg = render_svg(variant, variant.map_state, variant.start, geometry=icelords.geometry(ice_board))
    paths = provinces_by_id(svg)
    assert set(paths) == set(variant.provinces)
    for code, tile in ice_board.tiles.items():
        expected = "sea" if tile == "sea" else f"tile-{tile}"
        assert expected in classes(paths[code]), code
    assert 'id="p-tundra"' in svg and ".province.tile-glacier{fill:url(#p-glacier)}" in svg
    words = legend_words(svg)
    for name in ("Tundra", "Glacier", "Water", "Village", "Forest", "Mountains", "Peaks", "Hills"):
        assert name in words
    root = ET.fromstring(svg)
    assert root.get("width") == str(MIN_WIDTH)  # the 720 px grid gets room for its legend
    assert len(svg.encode()) < MAX_SVG_BYTES


def test_a_drawing_built_in_memory_is_checked_like_a_file(ice_board) -> None:
    doc = icelords.geometry(ice_board)
    geometry = load_geometry(ice_board.variant, doc)
    assert geometry.tiles == dict(ice_board.tiles)
    assert geometry_from_data(doc).digest == geometry.digest
    served = geometry_json(ice_board.variant, doc)
    assert set(served["provinces"]) == set(ice_board.variant.provinces) and served["off_board"] == {}
    missing = {**doc, "provinces": {k: v for k, v in doc["provinces"].items() if k != "E5"}}
    with pytest.raises(GeometryError, match="E5"):
        load_geometry(ice_board.variant, missing)
    with pytest.raises(GeometryError, match="not a geometry document"):
        geometry_from_data({"width": 720})


def test_an_ice_lords_board_with_blizzards_renders_to_png(ice_board) -> None:
    variant = ice_board.variant
    board = board_for(variant, variant.map_state)
    opened = open_phase(
        board, variant.start, Modules.from_options(icelords.DEFAULT_OPTIONS), ModuleState(), "render-test"
    )
    png = render_png(
        variant,
        variant.map_state,
        variant.start,
        modules=opened.to_data(),
        geometry=icelords.geometry(ice_board),
    )
    assert png.startswith(b"\x89PNG")


def test_module_pictures_stay_under_the_size_limit() -> None:
    data = opened_supply()
    data["blizzards"] = sorted(STANDARD.provinces)[:12]
    svg = svg_of(standard_position(SUPPLY_UNITS), modules=data)
    assert len(svg.encode()) < MAX_SVG_BYTES


def test_a_game_snapshots_modules_are_drawn_with_the_phases_own_supply_report() -> None:
    """The server keeps ``{"state": ..., "supply": <report as the phase opened>, "check": ..., ...}``."""
    opened = opened_supply()
    snapshot = {
        "state": {k: opened[k] for k in ("blizzards", "storms", "tokens_used", "supply")},
        "events": [],
        "supply": opened["lines"],
        "check": None,
        "refused": [],
    }
    svg = svg_of(standard_position(SUPPLY_UNITS), modules=snapshot)
    lines = {p.get("data-unit") for p in elements(svg, "supply", "path") if "depot-line" not in classes(p)}
    assert lines == {"BUR", "MUN"}
    assert {r.get("data-province") for r in elements(svg, "supply", "rect")} == {"GAS", "SIL"}
    rings = [
        c.get("data-unit") for c in elements(svg, "supply-marks", "circle") if "unsupplied" in classes(c)
    ]
    assert rings == ["UKR"]
