"""The documented wiring (docs/rules/mutating-maps.md, "In the engine") through the one phase pipeline,
``play_phase``: the conversions applied by their kinds around the real adjudicator, the flags handed on
to the timeline's hooks."""

from __future__ import annotations

from dataclasses import replace

from dipserver.engine.timeline import Hook
from dipserver.engine.turn import play_phase
from dipserver.engine.types import Phase, Unit, UnitType
from dipserver.engine.validate import validate
from dipserver.engine.variant import Variant

from .conftest import position_with, steps_of


def test_deluge_army_becomes_a_fleet_unless_a_bounced_attack_came(deluge: Variant) -> None:
    map_state = steps_of(deluge)[(1901, Hook.AFTER_WINTER_ADJUSTMENTS)].map_state
    position = replace(position_with(deluge, "GERMANY A KIE", "FRANCE F HOL"), phase=Phase.parse("S1902M"))
    for french, expected in (("F HOL H", UnitType.FLEET), ("F HOL - KIE", UnitType.ARMY)):
        orders = {"GERMANY": ["A KIE becomes fleet"], "FRANCE": [french]}
        turn = play_phase(deluge, map_state, position, orders)
        assert turn.position.units["KIE"].type is expected, french


def test_wall_of_ice_fleet_becomes_an_army_after_the_winter_builds(wall_of_ice: Variant) -> None:
    position = replace(
        position_with(wall_of_ice, "FRANCE F BRE", owners={"BRE": "FRANCE", "PAR": "FRANCE"}),
        phase=Phase.parse("W1903A"),
    )
    orders = {"FRANCE": ["F BRE becomes army", "Build A PAR"]}
    turn = play_phase(wall_of_ice, wall_of_ice.map_state, position, orders)
    assert turn.position.units == {
        "BRE": Unit("FRANCE", UnitType.ARMY, "BRE"),
        "PAR": Unit("FRANCE", UnitType.ARMY, "PAR"),
    }


def test_sahara_a_fleet_told_to_stay_is_disbanded_where_it_ends_up_stranded(sahara: Variant) -> None:
    position = replace(position_with(sahara, "TURKEY F EAS"), phase=Phase.parse("F1902M"))
    orders = {"TURKEY": ["F EAS - SYR", "F EAS stays fleet"]}
    turn = play_phase(sahara, sahara.map_state, position, orders)
    assert [(r["kind"], r["outcome"]) for r in turn.results] == [
        ("move", "success"),
        ("stay_fleet", "success"),
    ]
    assert "SYR" not in turn.position.units  # the flag went with it to Syria, which the Autumn stranded


def test_deluge_an_enemy_army_landing_from_an_a_f_stops_the_conversion(deluge: Variant) -> None:
    # Rule 1: an army becomes a fleet only if not attacked; a landing is an attack, as a move is.
    map_state = steps_of(deluge)[(1901, Hook.AFTER_WINTER_ADJUSTMENTS)].map_state
    units = {
        "KIE": Unit("GERMANY", UnitType.ARMY, "KIE"),
        "HEL": Unit("ENGLAND", UnitType.FLEET, "HEL", aboard=True),
        "BER": Unit("GERMANY", UnitType.ARMY, "BER"),
    }
    position = replace(position_with(deluge), units=units, phase=Phase.parse("S1902M"))
    orders = {"GERMANY": ["A KIE becomes fleet", "A BER S A KIE"], "ENGLAND": ["A/F HEL lands KIE"]}
    turn = play_phase(deluge, map_state, position, orders)
    [conversion] = [r for r in turn.results if r["kind"] == "convert_to_fleet"]
    assert (conversion["outcome"], conversion["reason"]) == ("void", "ENGLAND ordered a move into KIE")
    assert turn.position.units["KIE"] == Unit("GERMANY", UnitType.ARMY, "KIE")


def test_sahara_with_the_a_f_rules_an_a_f_whose_sea_dries_lands_its_army(sahara: Variant) -> None:
    # The Eastern Mediterranean dries after the Autumn 1902 retreats but stays on the coast: the army
    # aboard lands and the A/F ends as one army, so the next position is one the game can go on from.
    fleet = Unit("TURKEY", UnitType.FLEET, "EAS", aboard=True)
    position = replace(position_with(sahara), units={"EAS": fleet}, phase=Phase.parse("F1902M"))
    options = {"abstraction": True}
    turn = play_phase(sahara, sahara.map_state, position, {"TURKEY": ["A/F EAS H"]}, options=options)
    assert turn.position.units["EAS"] == Unit("TURKEY", UnitType.ARMY, "EAS")
    [landed] = [e for e in turn.events if e["kind"] == "unit_converted"]
    assert landed["reason"] == "its sea dried: the army aboard lands"
    assert not validate(sahara, turn.map_state, turn.position)
