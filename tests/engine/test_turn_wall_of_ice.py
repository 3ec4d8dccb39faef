"""One phase of Wall of Ice played end to end through ``turn.play_phase``: order texts in, results, map
changes, the next phase out (the variant rulings' test matrix, §7, that the timeline tests check hook by
hook), and the Winter with nothing to adjust that Wall of Ice plays and the other variants skip. Sahara's and
Deluge's cases are test_turn_sahara.py and test_turn_deluge.py; whole games, test_turn_across_variants.py.
"""

from __future__ import annotations

from dipserver.engine.timeline import Hook, walk
from dipserver.engine.turn import play_phase
from dipserver.engine.types import Phase, Unit, UnitType
from dipserver.engine.variant import Variant, load_variant
from tests.engine.turn_cases import map_before, position, result

# --- Wall of Ice ---------------------------------------------------------------------------------------


def test_woi_an_iceberg_removes_a_fleet_and_the_winter_it_frees_a_build_is_played(
    wall_of_ice: Variant,
) -> None:
    # Before the Autumn 1903 change Russia has four centres and four units: no Winter. The Barents Sea
    # freezes after the Autumn retreats, the fleet in it is removed (E2) and the Winter is played (E30).
    start = position(
        "F1903M",
        "RUSSIA F BAR",
        "RUSSIA A MOS",
        "RUSSIA A WAR",
        "RUSSIA A SEV",
        owners={"RUSSIA": ["MOS", "WAR", "SEV", "RUM"]},
    )
    state = map_before(wall_of_ice, 1903, Hook.AFTER_FALL_RETREATS)
    turn = play_phase(wall_of_ice, state, start, {"RUSSIA": ["F BAR H"]})
    assert result(turn, "F BAR H")["outcome"] == "success"
    assert turn.next_phase == Phase.parse("W1903A")
    assert turn.skipped == ["F1903R"]
    assert "BAR" not in turn.position.units
    assert {"kind": "terrain", "province": "BAR", "to": "impassable"}.items() <= turn.events[0].items()
    assert any(e["kind"] == "unit_removed" and e["unit"] == "F BAR" for e in turn.events)
    assert turn.map_state.terrain["BAR"].value == "impassable"
    assert turn.outcome is None
    build = play_phase(wall_of_ice, turn.map_state, turn.position, {"RUSSIA": ["A SEV B"]})
    assert result(build, "A SEV B")["outcome"] == "invalid"  # the army in SEV stands there
    assert build.next_phase == Phase.parse("S1904M")


def test_woi_without_the_iceberg_the_same_autumn_skips_the_winter(wall_of_ice: Variant) -> None:
    start = position(
        "F1902M",
        "RUSSIA F BAR",
        "RUSSIA A MOS",
        "RUSSIA A WAR",
        "RUSSIA A SEV",
        owners={"RUSSIA": ["MOS", "WAR", "SEV", "RUM"]},
    )
    turn = play_phase(wall_of_ice, wall_of_ice.map_state, start, {})
    assert turn.skipped == ["F1902R", "W1902A"]
    assert turn.next_phase == Phase.parse("S1903M")
    assert turn.events == []


def test_woi_a_fleet_becomes_an_army_in_winter_beside_a_build(wall_of_ice: Variant) -> None:
    start = position("W1901A", "ENGLAND F EDI", "ENGLAND F NTH", owners={"ENGLAND": ["EDI", "LON", "LVP"]})
    orders = {"ENGLAND": ["F EDI becomes army", "A LVP B", "F NTH becomes army"]}
    turn = play_phase(wall_of_ice, wall_of_ice.map_state, start, orders)
    assert result(turn, "F EDI becomes army")["outcome"] == "success"
    assert result(turn, "A LVP B")["outcome"] == "success"
    refused = result(turn, "F NTH becomes army")
    assert refused["outcome"] == "invalid" and "at sea" in refused["reason"]
    assert turn.position.units["EDI"] == Unit("ENGLAND", UnitType.ARMY, "EDI")
    assert turn.position.units["LVP"] == Unit("ENGLAND", UnitType.ARMY, "LVP")
    assert turn.orders["ENGLAND"] == ["F EDI becomes army", "A LVP B", "F NTH becomes army"]


def test_woi_conversion_in_a_movement_phase_is_refused_with_the_reason(wall_of_ice: Variant) -> None:
    start = position("S1901M", "ENGLAND F EDI", owners={"ENGLAND": ["EDI"]})
    turn = play_phase(wall_of_ice, wall_of_ice.map_state, start, {"ENGLAND": ["F EDI becomes army"]})
    refused = result(turn, "F EDI becomes army")
    assert refused["outcome"] == "invalid" and "only in a Winter" in refused["reason"]
    assert turn.position.units["EDI"].type is UnitType.FLEET


# --- more of the matrix, end to end ----------------------------------------------------------------------


def test_woi_a_new_centre_belongs_to_the_unit_standing_on_it(wall_of_ice: Variant) -> None:
    year = next(y for y, _, step in walk(wall_of_ice, {}) for e in step.events if e.get("province") == "ALB")
    state = map_before(wall_of_ice, year, Hook.AFTER_FALL_RETREATS)
    start = position(
        f"F{year}M", "AUSTRIA A ALB", "TURKEY A ARM", owners={"AUSTRIA": ["VIE"], "TURKEY": ["CON"]}
    )
    turn = play_phase(wall_of_ice, state, start, {"AUSTRIA": ["A ALB H"], "TURKEY": ["A ARM - SYR"]})
    assert {"ALB", "ARM"} <= turn.map_state.supply_centres
    assert turn.position.owners["ALB"] == "AUSTRIA"  # stood there when it appeared (E11)
    assert "ARM" not in turn.position.owners  # the Turkish army had left: neutral


def test_woi_rule4_a_winter_in_which_a_fleet_on_a_coast_could_become_an_army_is_played(
    wall_of_ice: Variant,
) -> None:
    # England has as many units as centres, so nobody builds or removes: the Winter is played all the same,
    # for the fleet in Edinburgh may become an army in any Winter (rule 4, E14).
    start = position(
        "F1901M", "ENGLAND F EDI", "ENGLAND A LON", "ENGLAND A LVP", owners={"ENGLAND": ["EDI", "LON", "LVP"]}
    )
    turn = play_phase(wall_of_ice, wall_of_ice.map_state, start, {})
    assert turn.skipped == ["F1901R"]
    assert turn.next_phase == Phase.parse("W1901A")
    winter = play_phase(wall_of_ice, turn.map_state, turn.position, {"ENGLAND": ["F EDI becomes army"]})
    assert result(winter, "F EDI becomes army")["outcome"] == "success"
    assert winter.position.units["EDI"] == Unit("ENGLAND", UnitType.ARMY, "EDI")


def test_other_variants_skip_a_winter_with_fleets_on_coasts_and_nothing_to_adjust() -> None:
    sahara = load_variant("sahara")
    start = position("F1901M", "ENGLAND F EDI", "ENGLAND A LON", owners={"ENGLAND": ["EDI", "LON"]})
    turn = play_phase(sahara, sahara.map_state, start, {})
    assert turn.skipped == ["F1901R", "W1901A"]
