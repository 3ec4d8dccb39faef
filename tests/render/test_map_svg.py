"""The SVG of known snapshots, checked by element and style (not by pixels)."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from dataclasses import replace

import pytest

from dipserver.engine.dislodged import Dislodged
from dipserver.engine.lateorders import Build, Disband, Retreat
from dipserver.engine.orders import Convoy, Hold, Move, OrderResult, Outcome, SupportHold, SupportMove
from dipserver.engine.position import Position
from dipserver.engine.timeline import Hook, apply_hook
from dipserver.engine.types import Phase, Unit, UnitType
from dipserver.engine.variant import load_variant
from dipserver.render import load_geometry, render_svg
from dipserver.render.picture import DISLODGED_OFFSET

from .snapshots import SVG, classes, layer, map_after, provinces_by_id

A, F = UnitType.ARMY, UnitType.FLEET


def start_svg(slug: str = "standard", **kwargs) -> str:
    variant = load_variant(slug)
    return render_svg(variant, variant.map_state, variant.start, **kwargs)


def legend_text(svg: str) -> str:
    return " ".join(t.text or "" for t in layer(svg, "legend").iter(f"{SVG}text"))


# --- the board -------------------------------------------------------------------------------------


def test_each_province_is_a_path_with_its_code_as_id() -> None:
    paths = provinces_by_id(start_svg())
    assert set(paths) == set(load_variant("standard").provinces)
    assert classes(paths["LON"]) >= {"province", "land"}
    assert classes(paths["NTH"]) == {"province", "sea"}
    assert paths["LON"].find(f"{SVG}title").text == "London"


def test_each_province_says_where_a_unit_there_stands() -> None:
    """The game page draws the orders being given from these anchors, before the server draws them."""
    paths = provinces_by_id(start_svg())
    drawing = load_geometry(load_variant("standard"))
    for code in ("PAR", "NTH", "SPA"):
        x, y = (float(v) for v in paths[code].get("data-anchor").split())
        assert math.hypot(x - drawing.anchor(code)[0], y - drawing.anchor(code)[1]) < 0.1


@pytest.mark.parametrize("slug", ["standard", "sahara", "deluge", "wall_of_ice"])
def test_every_power_stands_out_from_its_own_territory(slug: str) -> None:
    """Russia's near-white and Turkey's yellow units used to vanish on the land they own."""
    from dipserver.render.style import TERRITORY_CONTRAST, contrast, territory

    for name, power in load_variant(slug).powers.items():
        assert contrast(power.colour, territory(power.colour)) >= TERRITORY_CONTRAST, name


def test_provinces_off_the_standard_board_are_scenery_not_provinces() -> None:
    svg = start_svg()
    assert not {"SWI", "IRE", "ICE", "CAS"} & set(provinces_by_id(svg))
    assert len(layer(svg, "scenery")) > 4


def test_start_shows_every_unit_and_centre_coloured_by_owner() -> None:
    variant = load_variant("standard")
    svg = start_svg()
    units = layer(svg, "units").findall(f"{SVG}g")
    assert len(units) == 22
    assert {u.get("data-location") for u in units} >= {"STP/SC", "LON", "TRI"}
    centres = {c.get("id"): c for c in layer(svg, "supply-centres")}
    assert len(centres) == 34
    assert centres["LON-sc"].get("fill") == variant.powers["ENGLAND"].colour
    assert centres["BEL-sc"].get("fill") == "#ffffff"  # neutral
    assert "own-ENGLAND" in classes(provinces_by_id(svg)["LON"])
    assert "own-ENGLAND" not in classes(provinces_by_id(svg)["YOR"])  # not a centre


def test_a_fleet_on_a_named_coast_is_drawn_at_that_coast() -> None:
    geometry = load_geometry(load_variant("standard"))
    units = {g.get("data-location"): g for g in layer(start_svg(), "units")}
    letter = units["STP/SC"].find(f"{SVG}text")
    drawn_at = (float(letter.get("x")), float(letter.get("y")))
    south_coast = geometry.shape("STP").coasts["SC"]
    assert drawn_at == pytest.approx((south_coast[0], south_coast[1] + 0.5), abs=0.1)
    assert south_coast != geometry.shape("STP").unit
    assert units["STP/SC"].find(f"{SVG}path") is not None  # fleets are hulls ...
    assert units["MOS"].find(f"{SVG}circle") is not None  # ... armies are round


def test_each_unit_says_in_full_words_what_it_is_whose_and_where() -> None:
    """A pointer resting on a unit shows its title: the map's labels are only codes."""
    units = {g.get("data-location"): g for g in layer(start_svg(), "units")}
    assert units["VIE"].find(f"{SVG}title").text == "Army, Austria, in Vienna"
    assert units["STP/SC"].find(f"{SVG}title").text == "Fleet, Russia, in St Petersburg (SC)"
    assert all(g.find(f"{SVG}title") is not None for g in units.values())


def test_named_coasts_are_clickable_targets() -> None:
    targets = {c.get("id"): c.get("data-location") for c in layer(start_svg(), "coasts")}
    assert targets == {
        "BUL-EC": "BUL/EC",
        "BUL-SC": "BUL/SC",
        "SPA-NC": "SPA/NC",
        "SPA-SC": "SPA/SC",
        "STP-NC": "STP/NC",
        "STP-SC": "STP/SC",
    }
    titles = {c.get("id"): c.find(f"{SVG}title").text for c in layer(start_svg(), "coasts")}
    assert titles["STP-NC"] == "St Petersburg (NC)"  # a pointer on the ring names it


def test_every_province_is_labelled_and_seas_in_italics() -> None:
    labels = {t.text: t for t in layer(start_svg(), "labels")}
    assert set(labels) == set(load_variant("standard").provinces)
    assert "water" in classes(labels["NAO"])
    assert "water" not in classes(labels["PAR"])


def test_legend_names_the_phase_the_terrains_shown_and_centre_counts() -> None:
    text = legend_text(start_svg())
    assert "Spring 1901 Movement" in text
    assert "Land" in text and "Sea" in text and "desert" not in text
    assert "Russia 4" in text and "England 3" in text


# --- the map as the timeline changes it ------------------------------------------------------------


def test_sahara_after_autumn_1902_shows_eas_and_ion_as_land() -> None:
    variant = load_variant("sahara")
    map_state, position = map_after(variant, 1902, Hook.AFTER_FALL_RETREATS)
    svg = render_svg(variant, map_state, position)
    paths = provinces_by_id(svg)
    assert "dried" in classes(paths["EAS"]) and "dried" in classes(paths["ION"])
    assert "sea" in classes(paths["AEG"])  # dries a season later
    assert "Dried sea bed (land)" in legend_text(svg)


def test_sahara_names_its_seasons_summers_from_1905() -> None:
    variant = load_variant("sahara")
    map_state, position = map_after(variant, 1905, Hook.AFTER_FALL_RETREATS)
    svg = render_svg(variant, map_state, replace(position, phase=Phase.parse("W1905A")))
    assert "Sahara - Between Summers 1905 Adjustments" in legend_text(svg)
    assert "Spring 1901 Movement" in legend_text(start_svg("sahara"))


def test_sahara_starts_with_the_caspian_off_the_board_and_the_islands_closed() -> None:
    paths = provinces_by_id(start_svg("sahara"))
    assert "absent" in classes(paths["CAS"])
    assert "closed" in classes(paths["IRE"]) and "closed" in classes(paths["ICE"])
    assert "Not yet on the board" in legend_text(start_svg("sahara"))


def test_sahara_desert_swallows_north_africa_after_autumn_1904() -> None:
    variant = load_variant("sahara")
    map_state, position = map_after(variant, 1904, Hook.AFTER_FALL_RETREATS)
    svg = render_svg(variant, map_state, position)
    paths = provinces_by_id(svg)
    assert "desert" in classes(paths["NAF"])
    assert "desert" in classes(paths["ION"])  # dried in 1902, desert now: still desert, not ice
    assert "Sahara desert (impassable)" in legend_text(svg)


def test_deluge_after_winter_1901_shows_london_as_sea() -> None:
    variant = load_variant("deluge")
    map_state, position = map_after(variant, 1901, Hook.AFTER_WINTER_ADJUSTMENTS)
    svg = render_svg(variant, map_state, position)
    paths = provinces_by_id(svg)
    assert "drowned" in classes(paths["LON"])
    assert "land" in classes(paths["YOR"])
    assert next(t for t in layer(svg, "labels") if t.text == "LON").get("class") == "label water"
    assert "Drowned land (sea)" in legend_text(svg)


def test_a_fleet_on_a_coast_made_during_play_is_drawn_towards_its_waters() -> None:
    variant = load_variant("deluge")
    map_state, position = map_after(variant, 1901, Hook.AFTER_WINTER_ADJUSTMENTS)
    assert map_state.coasts["ROM"]["EC"] == {"VEN"}  # Venice sank: Rome has an east coast now
    units = {"ROM": Unit("ITALY", F, "ROM/EC")}
    svg = render_svg(variant, map_state, Position(Phase.parse("S1902M"), units, position.owners))
    letter = next(iter(layer(svg, "units"))).find(f"{SVG}text")
    drawn = (float(letter.get("x")), float(letter.get("y")))
    geometry = load_geometry(variant)
    rome, venice = geometry.shape("ROM").unit, geometry.shape("VEN").unit
    assert math.dist(drawn, venice) < math.dist(rome, venice)
    assert 10 < math.dist(drawn, rome) < 20


def test_wall_of_ice_after_1903_shows_the_barents_sea_as_ice() -> None:
    variant = load_variant("wall_of_ice")
    map_state, position = map_after(variant, 1903, Hook.AFTER_FALL_RETREATS)
    svg = render_svg(variant, map_state, position)
    paths = provinces_by_id(svg)
    assert "ice" in classes(paths["BAR"])
    assert "sea" in classes(paths["NTH"])
    assert "Ice (impassable)" in legend_text(svg)


def test_changes_due_next_are_outlined_from_the_timelines_events() -> None:
    variant = load_variant("deluge")
    result = apply_hook(
        variant, {"mode": "exact"}, variant.map_state, variant.start, Hook.AFTER_WINTER_ADJUSTMENTS, 1901
    )
    svg = render_svg(variant, variant.map_state, variant.start, next_changes=result.events)
    outlined = {(p.find(f"{SVG}title").text, p.get("class")) for p in layer(svg, "changes")}
    assert ("London sinks", "change change-sea") in outlined
    assert len([c for _, c in outlined if c == "change change-sea"]) == 6
    assert "Next: sinks" in legend_text(svg)


def test_changes_may_be_given_as_a_mapping() -> None:
    svg = start_svg(next_changes={"EAS": "land", "HOL": "sc_loss"})
    kinds = sorted(p.get("class") for p in layer(svg, "changes"))
    assert kinds == ["change change-land", "change change-sc_loss"]


# --- orders and results ----------------------------------------------------------------------------


def spring_orders() -> list:
    return [
        Move("PAR", "BUR"),
        SupportMove("MAR", "PAR", "BUR"),
        Hold("BRE"),
        SupportHold("VIE", "BUD"),
        Move("STP/SC", "BOT"),
    ]


def english_convoy() -> tuple[Position, list]:
    """England's fleet in the North Sea carries the army in Yorkshire to Norway."""
    variant = load_variant("standard")
    units = {p: u for p, u in variant.start.units.items() if p not in ("LON", "LVP")}
    units["NTH"] = Unit("ENGLAND", F, "NTH")
    units["YOR"] = Unit("ENGLAND", A, "YOR")
    position = Position(Phase.parse("F1901M"), units, variant.start.owners)
    return position, [Convoy("NTH", "YOR", "NWY"), Move("YOR", "NWY", via_convoy=True), Move("EDI", "NWG")]


def test_orders_are_arrows_in_the_power_colour() -> None:
    variant = load_variant("standard")
    svg = start_svg(orders=spring_orders())
    drawn = list(layer(svg, "orders"))
    moves = [e for e in drawn if "move" in classes(e)]
    assert len(moves) == 2
    assert all(m.get("marker-end") for m in moves)
    assert {m.get("stroke") for m in moves} == {
        variant.powers["FRANCE"].colour,
        variant.powers["RUSSIA"].colour,
    }
    assert len([e for e in drawn if "support" in classes(e)]) == 2
    assert len([e for e in drawn if "hold" in classes(e)]) == 2  # the hold and the supported unit's ring
    root = ET.fromstring(svg)
    assert {m.get("id") for m in root.iter(f"{SVG}marker")} == {"arrow-FRANCE", "arrow-RUSSIA"}


def test_a_convoy_points_at_the_middle_of_the_convoyed_move() -> None:
    variant = load_variant("standard")
    position, orders = english_convoy()
    drawn = list(layer(render_svg(variant, variant.map_state, position, orders=orders), "orders"))
    convoy = next(e for e in drawn if "convoy" in classes(e))
    carried = next(e for e in drawn if "move" in classes(e) and e.get("d") != convoy.get("d"))
    assert convoy.get("stroke") == carried.get("stroke") == variant.powers["ENGLAND"].colour
    assert len([e for e in drawn if "move" in classes(e)]) == 2


def test_an_order_for_a_missing_unit_is_drawn_without_a_power() -> None:
    svg = start_svg(orders=[Move("NTH", "NWY")])  # nobody stands in the North Sea at the start
    arrow = next(iter(layer(svg, "orders")))
    assert arrow.get("stroke") == "#444" and arrow.get("marker-end") is None


def test_results_show_bounces_cut_supports_and_dislodgements() -> None:
    results = [
        OrderResult("FRANCE", Move("PAR", "BUR"), Outcome.BOUNCE, "bounced with Munich"),
        OrderResult("GERMANY", Move("MUN", "BUR"), Outcome.BOUNCE, "bounced with Paris"),
        OrderResult("FRANCE", SupportMove("MAR", "PAR", "BUR"), Outcome.CUT, "cut"),
        OrderResult("AUSTRIA", Hold("VIE"), Outcome.DISLODGED, dislodged=True),
        OrderResult("ENGLAND", Move("LON", "NTH"), Outcome.SUCCESS),
        OrderResult("ITALY", Move("ROM", "APU"), Outcome.BOUNCE, dislodged=True),  # bounced, then driven out
    ]
    drawn = list(layer(start_svg(results=results), "orders"))
    failed = [e for e in drawn if "failed" in classes(e)]
    assert len(failed) == 5  # three bounced moves, the cut support, the dislodged hold
    crosses = [e for e in drawn if e.tag == f"{SVG}path" and "mark" in classes(e)]
    assert len(crosses) == 4  # one on each bounced arrow, one on the cut supporter
    rings = [e for e in drawn if e.tag == f"{SVG}circle" and "mark" in classes(e)]
    assert len(rings) == 2  # one around each dislodged unit, however its order is reported
    english = load_variant("standard").powers["ENGLAND"].colour
    assert [classes(e) for e in drawn if e.get("stroke") == english] == [{"order", "move"}]


def test_dislodged_units_are_drawn_with_their_retreat_options() -> None:
    variant = load_variant("standard")
    units = dict(variant.start.units)
    units["VIE"] = Unit("ITALY", A, "VIE")
    position = Position(
        Phase.parse("S1901R"),
        units,
        variant.start.owners,
        {"VIE": Dislodged(Unit("AUSTRIA", A, "VIE"), "TYR", ("BOH", "GAL"))},
    )
    svg = render_svg(variant, variant.map_state, position)
    groups = layer(svg, "units").findall(f"{SVG}g")
    dislodged = [g for g in groups if "dislodged" in classes(g)]
    assert [g.get("data-location") for g in dislodged] == ["VIE"]
    options = [p for p in layer(svg, "units").iter(f"{SVG}path") if "retreat-option" in classes(p)]
    assert len(options) == 2


def test_a_retreat_starts_at_the_dislodged_unit_not_at_the_victor() -> None:
    variant = load_variant("standard")
    units = dict(variant.start.units)
    units["VIE"] = Unit("ITALY", A, "VIE")
    dislodged = {"VIE": Dislodged(Unit("AUSTRIA", A, "VIE"), "TYR", ("BOH", "GAL"))}
    position = Position(Phase.parse("S1901R"), units, variant.start.owners, dislodged)
    svg = render_svg(variant, variant.map_state, position, orders=[Retreat("VIE", "GAL")])
    retreat = next(e for e in layer(svg, "orders") if "retreat" in classes(e))
    assert retreat.get("stroke") == variant.powers["AUSTRIA"].colour
    start = tuple(float(v) for v in retreat.get("d")[1:].split("Q")[0].split())
    victor = load_geometry(variant).shape("VIE").unit
    dislodged_at = (victor[0] + DISLODGED_OFFSET[0], victor[1] + DISLODGED_OFFSET[1])
    assert math.dist(start, dislodged_at) < math.dist(start, victor)


def test_adjustment_orders_show_builds_and_disbands() -> None:
    svg = start_svg(orders=[Build("RUSSIA", F, "STP/NC"), Disband("TRI")])
    drawn = list(layer(svg, "orders"))
    assert len([e for e in drawn if e.tag == f"{SVG}g" and "built" in classes(e)]) == 1
    assert len([e for e in drawn if "build" in classes(e)]) == 1
    assert len([e for e in drawn if "mark" in classes(e)]) == 1


# --- size ----------------------------------------------------------------------------------------------


def test_the_svg_is_small_enough_to_serve() -> None:
    svg = start_svg(orders=spring_orders())
    assert len(svg.encode()) < 400 * 1024


@pytest.mark.parametrize("slug", ["standard", "sahara", "deluge", "wall_of_ice"])
def test_every_variant_renders_at_its_start(slug: str) -> None:
    svg = start_svg(slug)
    assert set(provinces_by_id(svg)) == set(load_variant(slug).provinces)
