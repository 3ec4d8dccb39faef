"""One phase of Sahara played end to end through ``turn.play_phase``: order texts in, results, map changes,
the next phase and the game's end out (the variant rulings' test matrix, §7, that the timeline tests check
hook by hook).
"""

from __future__ import annotations

from dipserver.adjudicator.jsonio import adjudicate_request
from dipserver.engine.timeline import Hook
from dipserver.engine.turn import play_phase
from dipserver.engine.types import Phase, Unit, UnitType
from dipserver.engine.variant import Variant
from tests.engine.turn_cases import map_before, position, result

# --- Sahara --------------------------------------------------------------------------------------------


def test_sahara_a_stranded_fleet_becomes_an_army_unless_told_to_stay(sahara: Variant) -> None:
    # The Aegean dries after the Spring 1903 retreats: the fleet on the dried Eastern Mediterranean has
    # no water left (E3); told to stay a fleet it is disbanded instead (E16).
    state = map_before(sahara, 1903, Hook.AFTER_SPRING_RETREATS)
    start = position("S1903M", "TURKEY F EAS", "TURKEY A CON", owners={"TURKEY": ["CON", "SMY", "ANK"]})
    plain = play_phase(sahara, state, start, {"TURKEY": ["F EAS H"]})
    assert plain.next_phase == Phase.parse("F1903M")
    assert plain.position.units["EAS"] == Unit("TURKEY", UnitType.ARMY, "EAS")
    stay = play_phase(sahara, state, start, {"TURKEY": ["F EAS H", "F EAS stays fleet"]})
    assert result(stay, "F EAS stays fleet")["outcome"] == "success"
    assert "EAS" not in stay.position.units
    assert any(e["kind"] == "unit_removed" and e["unit"] == "F EAS" for e in stay.events)


def test_sahara_a_fleet_on_a_dried_sea_that_still_touches_water_stays_a_fleet(sahara: Variant) -> None:
    state = map_before(sahara, 1902, Hook.AFTER_FALL_RETREATS)
    start = position("F1902M", "ITALY F ION", owners={"ITALY": ["ROM", "NAP", "VEN"]})
    turn = play_phase(sahara, state, start, {"ITALY": ["F ION H", "F ION stays fleet"]})
    assert turn.map_state.terrain["ION"].value == "land"
    assert turn.position.units["ION"] == Unit("ITALY", UnitType.FLEET, "ION")


def test_sahara_the_flag_waits_through_the_retreat_phase(sahara: Variant) -> None:
    # A retreat phase between the movement and the hook: the flag given in the movement phase still
    # decides the fleet's fate once the retreats are done.
    state = map_before(sahara, 1903, Hook.AFTER_SPRING_RETREATS)
    start = position(
        "S1903M",
        "TURKEY F EAS",
        "TURKEY A BUL",
        "RUSSIA A SER",
        "RUSSIA A RUM",
        owners={"TURKEY": ["CON", "SMY", "ANK"], "RUSSIA": ["MOS", "SEV", "WAR"]},
    )
    orders = {"TURKEY": ["F EAS H", "F EAS stays fleet"], "RUSSIA": ["A SER - BUL", "A RUM S A SER - BUL"]}
    movement = play_phase(sahara, state, start, orders)
    assert movement.next_phase == Phase.parse("S1903R")
    assert movement.stay_flags == frozenset({"EAS"})
    assert movement.events == []  # no change before the retreats (E1)
    retreats = play_phase(sahara, movement.map_state, movement.position, {}, stay_flags=movement.stay_flags)
    assert retreats.next_phase == Phase.parse("F1903M")
    assert "EAS" not in retreats.position.units
    assert retreats.stay_flags == frozenset()


def test_sahara_a_typed_order_beside_a_stays_fleet_of_the_same_unit_gets_its_own_result(
    sahara: Variant,
) -> None:
    # Unlike Deluge's conversion, "stays fleet" is given beside the fleet's order (rules page): each line
    # is adjudicated and shown on its own, whichever comes first, and a bounce stays a bounce.
    state = map_before(sahara, 1903, Hook.AFTER_SPRING_RETREATS)
    start = position("S1903M", "TURKEY F EAS", "TURKEY A CON", owners={"TURKEY": ["CON", "SMY", "ANK"]})
    for orders in (["F EAS H", "F EAS stays fleet"], ["F EAS stays fleet", "F EAS H"]):
        turn = play_phase(sahara, state, start, {"TURKEY": orders})
        assert sorted((r["text"], r["outcome"]) for r in turn.results) == [
            ("F EAS H", "success"),
            ("F EAS stays fleet", "success"),
        ]
        answer = adjudicate_request(
            {
                "variant": "sahara",
                "phase": "S1901M",
                "units": {"TURKEY": ["F EAS"]},
                "centers": {},
                "orders": {"TURKEY": orders},
            }
        )
        assert answer["results"] == {"TURKEY": {"F EAS H": "success", "F EAS stays fleet": "success"}}
    bounced = play_phase(
        sahara, state, start, {"TURKEY": ["F EAS stays fleet", "F EAS - SMY", "A CON - SMY"]}
    )
    assert result(bounced, "F EAS - SMY")["outcome"] == "bounce"
    assert result(bounced, "F EAS stays fleet")["outcome"] == "success"
    assert "EAS" not in bounced.position.units  # stranded where it bounced, and kept its instruction


def test_sahara_conversion_orders_of_other_variants_are_refused(sahara: Variant) -> None:
    start = position("S1901M", "TURKEY A CON", owners={"TURKEY": ["CON"]})
    turn = play_phase(sahara, sahara.map_state, start, {"TURKEY": ["A CON becomes fleet"]})
    refused = result(turn, "A CON becomes fleet")
    assert (
        refused["outcome"] == "invalid"
        and "Sahara has no order to turn an army into a fleet" in refused["reason"]
    )


def test_sahara_rule4_builds_in_any_vacant_owned_centre_but_no_fleet_where_no_water_is_left(
    sahara: Variant,
) -> None:
    # By the Winter 1903 adjustments the Black Sea and the Aegean have dried: Constantinople is still
    # a centre but touches no water. Sevastopol and Bulgaria are owned, not home, and take builds.
    state = map_before(sahara, 1903, Hook.AFTER_WINTER_ADJUSTMENTS)
    start = position("W1903A", "TURKEY A ANK", owners={"TURKEY": ["CON", "SMY", "ANK", "SEV", "BUL"]})
    orders = ["A SEV B", "A BUL B", "F CON B", "A ANK B"]
    turn = play_phase(sahara, state, start, {"TURKEY": orders})
    assert [result(turn, o)["outcome"] for o in orders] == ["success", "success", "invalid", "invalid"]
    assert "Constantinople: it does not touch open sea" in result(turn, "F CON B")["reason"]
    assert "only in vacant centres" in result(turn, "A ANK B")["reason"]
    assert turn.position.units["SEV"] == Unit("TURKEY", UnitType.ARMY, "SEV")
    assert turn.position.units["BUL"] == Unit("TURKEY", UnitType.ARMY, "BUL")
    assert "CON" not in turn.position.units


def test_sahara_the_power_in_iceland_after_winter_1911_wins(sahara: Variant) -> None:
    state = map_before(sahara, 1911, Hook.AFTER_WINTER_ADJUSTMENTS)
    start = position(
        "W1911A", "ENGLAND A ICE", "FRANCE A PAR", owners={"ENGLAND": ["ICE", "LON"], "FRANCE": ["PAR"]}
    )
    turn = play_phase(sahara, state, start, {"ENGLAND": ["A LON B"]})
    assert turn.outcome is not None
    assert (turn.outcome.result, turn.outcome.powers) == ("win", ("ENGLAND",))


# --- more of the matrix, end to end ----------------------------------------------------------------------


def test_sahara_a_fleet_on_a_dried_coast_moves_to_the_wet_one(sahara: Variant) -> None:
    state = map_before(sahara, 1903, Hook.AFTER_SPRING_RETREATS)
    start = position("S1903M", "TURKEY F BUL/SC", owners={"TURKEY": ["BUL"]})
    turn = play_phase(sahara, state, start, {"TURKEY": ["F BUL/SC H"]})
    assert turn.position.units["BUL"] == Unit("TURKEY", UnitType.FLEET, "BUL/EC")  # E5a
    assert any(e["kind"] == "fleet_moved" for e in turn.events)
