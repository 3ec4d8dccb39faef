"""The Abstraction A/F rules on the map (Deluge's rule 7): an A/F is a marker of its own, and boarding and
landing are drawn as arrows."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from dipserver.engine.ferryorders import Disembark, Embark
from dipserver.engine.orders import OrderResult, Outcome
from dipserver.engine.position import Position
from dipserver.engine.types import Phase, Unit, UnitType
from dipserver.engine.variant import load_variant
from dipserver.render import render_svg

from .snapshots import SVG

F = UnitType.FLEET


def deluge_svg(*units: Unit, results: list[OrderResult] | None = None) -> ET.Element:
    variant = load_variant("deluge")
    position = Position(Phase.parse("S1901M"), {u.province: u for u in units}, {"LON": "ENGLAND"})
    return ET.fromstring(render_svg(variant, variant.map_state, position, results=results))


def unit_group(root: ET.Element, location: str) -> ET.Element:
    [group] = [
        g
        for g in root.iter(f"{SVG}g")
        if g.get("data-location") == location and "unit-group" in g.get("class", "")
    ]
    return group


def test_an_af_is_a_hull_with_its_army_on_deck_lettered_af() -> None:
    root = deluge_svg(Unit("ENGLAND", F, "NTH", aboard=True), Unit("ENGLAND", F, "ENG"))
    af, fleet = unit_group(root, "NTH"), unit_group(root, "ENG")
    assert "unit-af" in af.get("class", "") and "unit-af" not in fleet.get("class", "")
    assert [c.get("class") for c in af.iter(f"{SVG}circle")] == ["unit unit-aboard"]
    assert [t.text for t in af.iter(f"{SVG}text")] == ["A/F"]
    assert "army aboard" in (af.find(f"{SVG}title").text or "")  # type: ignore[union-attr]


def test_boarding_and_landing_are_drawn_as_arrows() -> None:
    results = [
        OrderResult("ENGLAND", Embark("YOR", "NTH"), Outcome.SUCCESS),
        OrderResult("ENGLAND", Disembark("ENG", "BRE"), Outcome.BOUNCE),
    ]
    root = deluge_svg(
        Unit("ENGLAND", UnitType.ARMY, "YOR"),
        Unit("ENGLAND", F, "NTH"),
        Unit("ENGLAND", F, "ENG", aboard=True),
        results=results,
    )
    drawn = [p.get("class", "") for p in root.iter(f"{SVG}path") if "order" in p.get("class", "").split()]
    assert "order embark" in drawn and "order disembark failed" in drawn
