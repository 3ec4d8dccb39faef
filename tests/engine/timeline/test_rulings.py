"""One test per ruling of docs/rules/mutating-maps.md that the timeline code decides (E1-E30).

Each test takes the map just before a hook from the variant's own timeline, puts units where the
ruling matters, fires the hook and checks the result.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import pytest

from dipserver.engine.board import board_for
from dipserver.engine.builds import build_problem
from dipserver.engine.coasts import canals
from dipserver.engine.parse import OrderError, parse_order
from dipserver.engine.position import Position
from dipserver.engine.timeline import (
    Hook,
    HookResult,
    TimelineError,
    apply_hook,
    hooks_between,
    load_timeline,
)
from dipserver.engine.turn import play_phase
from dipserver.engine.types import Phase, Season, Terrain, Unit, UnitType
from dipserver.engine.variant import Variant

from .conftest import before, position_with, steps_of

SPRING, AUTUMN = Hook.AFTER_SPRING_RETREATS, Hook.AFTER_FALL_RETREATS
PRE_WINTER, POST_WINTER = Hook.BEFORE_WINTER_ADJUSTMENTS, Hook.AFTER_WINTER_ADJUSTMENTS


def fire(
    variant: Variant,
    year: int,
    hook: Hook,
    *units: str,
    options: Mapping[str, Any] | None = None,
    flags: frozenset[str] = frozenset(),
    position: Position | None = None,
) -> HookResult:
    """Fire ``hook`` of ``year`` on the timeline's own map, with exactly ``units`` on the board."""
    map_state = before(steps_of(variant, options), year, hook)
    pos = position or position_with(variant, *units)
    return apply_hook(variant, options or {}, map_state, pos, hook, year, flags)


def unit_at(result: HookResult, prov: str) -> str | None:
    unit = result.position.units.get(prov)
    return f"{unit.power} {unit}" if unit else None


# --- E1, E30: when the map changes ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("done", "following", "hooks"),
    [
        ("S1902M", "F1902M", [(1902, SPRING)]),  # retreats skipped: the hook still runs (E30)
        ("S1902R", "F1902M", [(1902, SPRING)]),
        ("F1902R", "W1902A", [(1902, AUTUMN), (1902, PRE_WINTER)]),
        ("W1902A", "S1903M", [(1902, POST_WINTER)]),
        ("F1902M", "S1903M", [(1902, AUTUMN), (1902, PRE_WINTER), (1902, POST_WINTER)]),
        ("S1902M", "S1902R", []),  # never between a movement phase and its retreats
    ],
)
def test_e1_e9_e30_hooks_sit_between_phases_never_before_retreats_and_run_when_skipped(
    done: str, following: str, hooks: list[tuple[int, Hook]]
) -> None:
    assert list(hooks_between(Phase.parse(done), Phase.parse(following))) == hooks


# --- E2, E8, E10: impassable ------------------------------------------------------------------------


def test_e2_a_fleet_in_a_sea_that_freezes_is_removed_without_retreat(wall_of_ice: Variant) -> None:
    result = fire(wall_of_ice, 1903, AUTUMN, "RUSSIA F BAR", "ENGLAND F NTH")
    assert unit_at(result, "BAR") is None
    assert unit_at(result, "NTH") == "ENGLAND F NTH"  # NTH freezes only in 1904 in exact mode
    assert {
        "kind": "unit_removed",
        "power": "RUSSIA",
        "unit": "F BAR",
        "reason": "BAR became impassable",
    } in (result.events)


def test_e8_an_army_on_a_dried_sea_swallowed_by_the_desert_is_removed(sahara: Variant) -> None:
    result = fire(sahara, 1904, AUTUMN, "ITALY A ION", "TURKEY A AEG")
    assert unit_at(result, "ION") is None
    assert unit_at(result, "AEG") == "TURKEY A AEG"


def test_e10_a_province_that_becomes_impassable_stops_being_a_centre_at_once(sahara: Variant) -> None:
    # Aegean: gained A1903, impassable A1905, listed as lost only in S1906
    result = fire(sahara, 1905, AUTUMN, "TURKEY A BUD", position=None)
    assert "AEG" not in result.map_state.supply_centres
    assert any(
        e == {"kind": "centre_lost", "province": "AEG", "owner": None, "reason": "became impassable"}
        for e in result.events
    )


# --- E3, E4, E16: fleets and vanishing water --------------------------------------------------------


def test_e3_a_fleet_on_a_dried_sea_that_still_touches_water_stays_a_fleet(sahara: Variant) -> None:
    result = fire(sahara, 1902, AUTUMN, "ITALY F ION", "TURKEY F EAS")
    assert unit_at(result, "ION") == "ITALY F ION"
    assert unit_at(result, "EAS") == "TURKEY F EAS"
    assert result.map_state.terrain["ION"] is Terrain.LAND
    assert board_for(sahara, result.map_state).can_occupy(UnitType.FLEET, "ION")


def test_e3_a_fleet_left_without_water_becomes_an_army_of_the_same_power(sahara: Variant) -> None:
    result = fire(sahara, 1902, AUTUMN, "TURKEY F SYR")
    assert unit_at(result, "SYR") == "TURKEY A SYR"


def test_e16_a_stranded_fleet_told_to_stay_a_fleet_is_disbanded(sahara: Variant) -> None:
    result = fire(sahara, 1902, AUTUMN, "TURKEY F SYR", "TURKEY F SMY", flags=frozenset({"SYR", "SMY"}))
    assert unit_at(result, "SYR") is None
    assert unit_at(result, "SMY") == "TURKEY F SMY"  # the flag matters only for a stranded fleet


def test_e4_e21_wall_of_ice_a_fleet_beside_frozen_seas_stays_and_may_still_sail_the_coast(
    wall_of_ice: Variant,
) -> None:
    result = fire(wall_of_ice, 1903, AUTUMN, "RUSSIA F STP/NC")
    assert unit_at(result, "STP") == "RUSSIA F STP/NC"
    board = board_for(wall_of_ice, result.map_state)
    assert board.fleet_moves("STP/NC") == {"NWY"}  # past the frozen Barents Sea (E21), not into it
    assert board.coast_waters("STP/NC") == set()  # no open water on that coast: no fleet may be built there
    assert not board.can_move(UnitType.FLEET, "STP/NC", "BAR")


# --- E5: coasts ----------------------------------------------------------------------------------


def test_e5a_a_fleet_on_a_dried_coast_moves_to_the_wet_coast(sahara: Variant) -> None:
    result = fire(sahara, 1903, SPRING, "RUSSIA F BUL/SC")
    assert unit_at(result, "BUL") == "RUSSIA F BUL/EC"
    assert dict(result.map_state.coasts["BUL"]) == {"EC": {"BLA"}}


def test_e5d_sinking_venice_gives_tuscany_two_coasts_and_its_fleet_keeps_its_side(deluge: Variant) -> None:
    result = fire(deluge, 1901, POST_WINTER, "ITALY F TUS", "ITALY F ROM", "FRANCE A PIE")
    assert {c: set(w) for c, w in result.map_state.coasts["TUS"].items()} == {
        "EC": {"VEN"},
        "WC": {"LYO", "TYS"},
    }
    assert unit_at(result, "TUS") == "ITALY F TUS/WC"
    assert unit_at(result, "ROM") == "ITALY F ROM/WC"
    board = board_for(deluge, result.map_state)
    assert "APU" in board.fleet_moves("ROM/EC") or "VEN" in board.fleet_moves("ROM/EC")


def test_e5c_a_sunk_neighbour_joins_the_coast_a_fleet_could_sail_from(deluge: Variant) -> None:
    coasts = fire(deluge, 1901, POST_WINTER).map_state.coasts
    assert "GAS" in coasts["SPA"]["NC"] and "GAS" not in coasts["SPA"]["SC"]  # GAS-SPA/SC is an exception
    assert "LVN" in coasts["STP"]["SC"]
    coasts = fire(deluge, 1904, POST_WINTER).map_state.coasts
    assert "POR" in coasts["SPA"]["NC"] and "POR" in coasts["SPA"]["SC"]
    assert "MAR" in coasts["SPA"]["SC"]


def test_e5_canals_of_the_standard_board_never_split(deluge: Variant) -> None:
    assert canals(deluge) == {"CON", "DEN", "KIE", "SWE"}


def test_e5_joined_waters_merge_their_coasts(deluge: Variant) -> None:
    steps = steps_of(deluge)
    assert set(steps[(1902, POST_WINTER)].map_state.coasts["BUR"]) == {"NC", "WC"}
    assert "BUR" not in steps[(1903, POST_WINTER)].map_state.coasts  # Paris sinks and joins them


# --- E7: land that sinks ----------------------------------------------------------------------------


def test_e7_an_army_on_land_that_sinks_becomes_a_fleet(deluge: Variant) -> None:
    result = fire(deluge, 1901, POST_WINTER, "ENGLAND A LON", "ENGLAND F LVP")
    assert unit_at(result, "LON") == "ENGLAND F LON"
    assert unit_at(result, "LVP") == "ENGLAND F LVP"


def test_e7_with_drowning_armies_it_is_destroyed(deluge: Variant) -> None:
    result = fire(deluge, 1901, POST_WINTER, "ENGLAND A LON", options={"drowning_armies": True})
    assert unit_at(result, "LON") is None
    assert result.events[-1]["kind"] != "unit_converted"


# --- E11, E12: centres appearing and disappearing ------------------------------------------------------


def test_e11_wall_of_ice_a_new_centre_belongs_to_its_occupant_else_nobody(wall_of_ice: Variant) -> None:
    result = fire(wall_of_ice, 1904, AUTUMN, "AUSTRIA A ALB", "FRANCE F GAS")
    assert {p: result.position.owners.get(p) for p in ("ALB", "GAS", "ARM", "TUS")} == {
        "ALB": "AUSTRIA",
        "GAS": "FRANCE",
        "ARM": None,
        "TUS": None,
    }


def test_e11_sahara_a_spring_centre_is_owned_at_once(sahara: Variant) -> None:
    result = fire(sahara, 1904, SPRING, "TURKEY A ALB")
    assert result.position.owners["ALB"] == "TURKEY"


def test_e11_deluge_chain_occupant_last_occupant_home_territory_nobody(deluge: Variant) -> None:
    pos = position_with(deluge, "FRANCE A WAL")
    pos = Position(pos.phase, pos.units, pos.owners, last_occupants={"RUH": "RUSSIA", "WAL": "GERMANY"})
    result = fire(deluge, 1902, PRE_WINTER, position=pos)
    owners = result.position.owners
    assert (owners["WAL"], owners["RUH"], owners["TYR"]) == ("FRANCE", "RUSSIA", "AUSTRIA")
    assert "NAF" not in fire(deluge, 1907, PRE_WINTER).position.owners


def test_e11_deluge_remembers_who_stood_there_at_the_end_of_spring(deluge: Variant) -> None:
    pos = position_with(deluge, "GERMANY A RUH")
    after_spring = apply_hook(deluge, {}, deluge.map_state, pos, SPRING, 1902)
    assert after_spring.position.last_occupants["RUH"] == "GERMANY"


def test_e12_a_lost_centre_takes_its_owner_and_home_status_with_it(wall_of_ice: Variant) -> None:
    result = fire(wall_of_ice, 1903, AUTUMN, position=wall_of_ice.start)
    assert "STP" not in result.position.owners and "STP" not in result.map_state.homes
    assert "STP" not in result.map_state.supply_centres


# --- E19 in exact mode is in test_wall_of_ice_table.py; E22, E23 --------------------------------------


def test_e22_off_board_provinces_exist_from_the_start_and_open_on_time(sahara: Variant) -> None:
    start = sahara.map_state.terrain
    assert (start["CAS"], start["IRE"], start["ICE"]) == (
        Terrain.ABSENT,
        Terrain.IMPASSABLE,
        Terrain.IMPASSABLE,
    )
    steps = steps_of(sahara)
    assert steps[(1904, SPRING)].map_state.terrain["CAS"] is Terrain.LAND
    assert steps[(1905, AUTUMN)].map_state.terrain["IRE"] is Terrain.LAND
    assert steps[(1906, SPRING)].map_state.terrain["ICE"] is Terrain.LAND


def test_e23_sahara_seasons_are_renamed_from_1905(sahara: Variant, wall_of_ice: Variant) -> None:
    timeline = load_timeline(sahara)
    assert timeline.season_label(Season.SPRING, 1904) is None
    assert [timeline.season_label(s, 1905) for s in Season] == [
        "Early Summer",
        "Late Summer",
        "Between Summers",
    ]
    assert load_timeline(wall_of_ice).season_label(Season.SPRING, 1905) is None


# --- E26, E27 and swap_sil_swi: Deluge's Switzerland and North Africa --------------------------------


def test_e26_switzerland_opens_in_winter_1904_already_coastal(deluge: Variant) -> None:
    steps = steps_of(deluge)
    assert before(steps, 1904, POST_WINTER).terrain["SWI"] is Terrain.IMPASSABLE
    board = board_for(deluge, steps[(1904, POST_WINTER)].map_state)
    assert board.is_land("SWI") and board.is_coastal("SWI")
    assert board.army_moves("SWI") == {"BUR", "MUN", "PIE", "TYR"}
    assert "SWI" in steps[(1906, PRE_WINTER)].map_state.supply_centres
    assert "SWI" not in steps[(1905, PRE_WINTER)].map_state.supply_centres


def test_swap_sil_swi_switches_the_two_new_centres_years(deluge: Variant) -> None:
    steps = steps_of(deluge, {"swap_sil_swi": True})
    assert "SWI" in steps[(1905, PRE_WINTER)].map_state.supply_centres
    assert "SIL" not in steps[(1905, PRE_WINTER)].map_state.supply_centres
    assert "SIL" in steps[(1906, PRE_WINTER)].map_state.supply_centres


def test_e27_north_africa_counts_in_winter_1907_then_sinks(deluge: Variant) -> None:
    steps = steps_of(deluge)
    assert "NAF" in steps[(1907, PRE_WINTER)].map_state.supply_centres
    after = steps[(1907, POST_WINTER)].map_state
    assert "NAF" not in after.supply_centres and after.terrain["NAF"] is Terrain.SEA


# --- E28: Sahara literal against errata -----------------------------------------------------------


def test_e28_errata_reads_amy_as_smyrna_and_tri_as_tyrolia(sahara: Variant) -> None:
    steps = steps_of(sahara)
    assert steps[(1905, AUTUMN)].map_state.terrain["SMY"] is Terrain.IMPASSABLE
    assert "TYR" in steps[(1906, SPRING)].map_state.supply_centres
    assert "TYR" not in steps[(1910, SPRING)].map_state.supply_centres


def test_e28_literal_amy_and_tri_change_nothing(sahara: Variant) -> None:
    steps = steps_of(sahara, {"errata": False})
    assert steps[(1905, AUTUMN)].map_state.terrain["SMY"] is Terrain.LAND
    assert "TYR" not in steps[(1906, SPRING)].map_state.supply_centres
    assert steps[(1906, SPRING)].map_state.supply_centres == before(steps, 1906, SPRING).supply_centres - {
        "AEG",
        "ALB",
        "SER",
    } | {"UKR", "BOH"}


def test_e28_repeated_rows_are_no_ops(sahara: Variant) -> None:
    steps = steps_of(sahara)
    assert not [e for e in steps[(1906, AUTUMN)].events if e.get("province") == "NAP"]  # NAP again
    assert not [e for e in steps[(1905, SPRING)].events if e.get("province") == "LYO"]  # LYO gained again


# --- E29: counts after the change -------------------------------------------------------------------


def test_e29_adjustments_see_the_units_left_after_the_change(wall_of_ice: Variant) -> None:
    pos = wall_of_ice.start
    pos = Position(pos.phase, {**pos.units, "BAR": Unit("RUSSIA", UnitType.FLEET, "BAR")}, pos.owners)
    result = fire(wall_of_ice, 1903, AUTUMN, position=pos)
    russia = result.position
    assert (
        len(russia.units_of("RUSSIA")) == 4 and len(russia.centres_of("RUSSIA")) == 3
    )  # STP lost, F BAR gone


# --- options ---------------------------------------------------------------------------------------


def test_unknown_options_and_modes_are_refused_with_what_is_known(deluge: Variant) -> None:
    timeline = load_timeline(deluge)
    with pytest.raises(TimelineError, match=r"unknown option.*'errata'.*swap_sil_swi"):
        timeline.game_options({"errata": True})
    with pytest.raises(TimelineError, match="mode must be 'exact' or 'random'"):
        timeline.game_options({"mode": "sometimes"})
    with pytest.raises(TimelineError, match="true or false"):
        timeline.game_options({"swap_sil_swi": "yes"})


# --- E13: Deluge builds home first, then at most three elsewhere -----------------------------------


@pytest.mark.parametrize(
    ("sites", "problem"),
    [
        (["BER", "KIE"], None),
        (["BER", "KIE", "HOL", "DEN", "SWE"], None),
        (["HOL"], "build in your home centres first (BER, KIE still free)"),
        (
            ["BER", "KIE", "HOL", "DEN", "SWE", "NWY"],
            "at most 3 builds outside your home centres each Winter",
        ),
        (["BER", "KIE", "WAR"], "WAR: not a vacant supply centre you own"),
    ],
)
def test_e13_deluge_builds_go_home_first_then_three_elsewhere(
    deluge: Variant, sites: list[str], problem: str | None
) -> None:
    found = build_problem(
        load_timeline(deluge), frozenset({"BER", "KIE"}), frozenset({"HOL", "DEN", "SWE", "NWY"}), sites
    )
    assert found == problem or (problem is not None and found is not None and found.startswith(problem))


def test_e13_variants_without_the_limit_accept_any_owned_centre(wall_of_ice: Variant) -> None:
    assert build_problem(load_timeline(wall_of_ice), frozenset(), frozenset({"HOL"}), ["HOL"]) is None


# --- E6, E20, E25: what a changed map means for orders and builds ----------------------------------


def test_e6_a_fleet_on_a_dried_sea_cannot_convoy(sahara: Variant) -> None:
    result = fire(sahara, 1902, AUTUMN, "ITALY F ION", "ITALY A TUN")
    board = board_for(sahara, result.map_state)
    position = replace(result.position, phase=Phase.parse("S1903M"))
    with pytest.raises(OrderError, match="at sea"):
        parse_order("F ION C A TUN - GRE", board, position, "ITALY")


def test_e20_an_order_entered_before_a_change_is_refused_after_it_with_a_reason(wall_of_ice: Variant) -> None:
    prior = before(steps_of(wall_of_ice), 1903, AUTUMN)
    pos = replace(position_with(wall_of_ice, "ENGLAND F NTH"), phase=Phase.parse("S1904M"))
    parse_order("F NTH - NWG", board_for(wall_of_ice, prior), pos, "ENGLAND")  # fine before the ice
    after = fire(wall_of_ice, 1903, AUTUMN).map_state
    with pytest.raises(OrderError, match="impassable"):
        parse_order("F NTH - NWG", board_for(wall_of_ice, after), pos, "ENGLAND")


def test_e25_a_province_beside_frozen_seas_only_is_no_place_to_build_a_fleet(wall_of_ice: Variant) -> None:
    final = steps_of(wall_of_ice)[(1910, AUTUMN)].map_state
    board = board_for(wall_of_ice, final)
    assert not board.is_coastal("CON")  # Black Sea and Aegean both frozen
    assert board.is_coastal("TUN")  # Tunis still on the open Western Mediterranean


# --- E24: missing orders ------------------------------------------------------------------------------


def test_e24_without_orders_a_stranded_fleet_becomes_an_army_and_no_army_converts(sahara: Variant) -> None:
    assert unit_at(fire(sahara, 1903, SPRING, "ITALY F NAP"), "NAP") == "ITALY A NAP"
    position = replace(position_with(sahara, "ITALY A NAP"), phase=Phase.parse("S1903M"))
    turn = play_phase(sahara, before(steps_of(sahara), 1903, SPRING), position, {})
    assert turn.position.units["NAP"] == Unit("ITALY", UnitType.ARMY, "NAP")
