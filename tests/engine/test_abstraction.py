"""The Abstraction A/F rules (variant-rulings 5.6, Agar's revision), Deluge's rule 7, DATC-style: one case
per rule and per interaction. The rules in words: docs/rules/deluge.md, "Convoys: the Abstraction A/F
rules". Every case is played through ``play_phase`` as a game is, on Deluge's map of the season."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from dipserver.engine.board import MapState, board_for
from dipserver.engine.modules import Modules, modules_for
from dipserver.engine.modules.phase import InPlay
from dipserver.engine.options import legal_options
from dipserver.engine.position import Position
from dipserver.engine.timeline import Hook, walk
from dipserver.engine.turn import Turn, play_phase, read_orders
from dipserver.engine.types import Phase, PhaseType, Unit, UnitType
from dipserver.engine.variant import Variant, load_variant

STANDARD = {"standard_convoys": True}


@pytest.fixture(scope="module")
def deluge() -> Variant:
    return load_variant("deluge")


def unit(spec: str) -> Unit:
    """``"ENGLAND A/F NTH"``, ``"FRANCE A BRE"``."""
    power, kind, loc = spec.split()
    return Unit(power, UnitType("F" if kind == "A/F" else kind), loc, kind == "A/F")


def position(phase: str, *units: str, owners: Mapping[str, str] | None = None) -> Position:
    placed = {u.province: u for u in map(unit, units)}
    return Position(Phase.parse(phase), placed, dict(owners or {"ENGLAND": "LON"}))


def play(
    variant: Variant,
    start: Position,
    orders: Mapping[str, list[str]],
    options: Mapping[str, Any] | None = None,
    state: MapState | None = None,
) -> Turn:
    return play_phase(variant, state or variant.map_state, start, orders, options=options)


def result(turn: Turn, text: str) -> dict[str, Any]:
    found = [r for r in turn.results if r["text"] == text]
    assert len(found) == 1, (text, turn.results)
    return found[0]


def after_winter_1901(variant: Variant) -> MapState:
    """Deluge's map in 1902: London, Holland, Belgium, Gascony, Venice and Livonia are seas."""
    state = variant.map_state
    for year, hook, step in walk(variant, {}):
        if (year, hook) == (1901, Hook.AFTER_WINTER_ADJUSTMENTS):
            return step.map_state
        state = step.map_state
    return state


# --- the module and its option ---------------------------------------------------------------------


def test_ABS_0_deluge_plays_the_af_rules_unless_standard_convoys_are_chosen(deluge: Variant) -> None:
    assert modules_for(deluge, {}).abstraction
    assert not modules_for(deluge, STANDARD).abstraction
    assert not modules_for(load_variant("standard"), {}).abstraction
    assert modules_for(load_variant("standard"), {"abstraction": True}).abstraction


def test_ABS_0b_with_standard_convoys_an_army_does_not_board(deluge: Variant) -> None:
    start = position("S1901M", "ENGLAND A YOR", "ENGLAND F NTH")
    turn = play(deluge, start, {"ENGLAND": ["A YOR boards F NTH"]}, STANDARD)
    refused = result(turn, "A YOR boards F NTH")
    assert refused["outcome"] == "invalid" and "standard convoys" in refused["reason"]
    assert turn.position.units["YOR"] == unit("ENGLAND A YOR")


# --- embarkation ----------------------------------------------------------------------------------


def test_ABS_1_army_boards_own_adjacent_fleet(deluge: Variant) -> None:
    start = position("S1901M", "ENGLAND A YOR", "ENGLAND F NTH")
    turn = play(deluge, start, {"ENGLAND": ["A YOR boards F NTH"]})
    assert result(turn, "A YOR boards F NTH")["outcome"] == "success"
    assert "YOR" not in turn.position.units
    assert turn.position.units["NTH"] == unit("ENGLAND A/F NTH")


def test_ABS_2_army_cannot_board_another_powers_fleet(deluge: Variant) -> None:
    start = position("S1901M", "ENGLAND A YOR", "GERMANY F NTH")
    turn = play(deluge, start, {"ENGLAND": ["A YOR boards F NTH"]})
    refused = result(turn, "A YOR boards F NTH")
    assert refused["outcome"] == "invalid" and "its own power's fleet" in refused["reason"]


def test_ABS_3_army_boards_only_a_fleet_at_sea_beside_it(deluge: Variant) -> None:
    start = position("S1901M", "ENGLAND A LVP", "ENGLAND F NTH", "ENGLAND A WAL", "ENGLAND F LON")
    turn = play(deluge, start, {"ENGLAND": ["A LVP boards F NTH", "A WAL boards F LON"]})
    assert "is not beside North Sea" in result(turn, "A LVP boards F NTH")["reason"]
    assert "not at sea" in result(turn, "A WAL boards F LON")["reason"]


def test_ABS_4_an_af_cannot_be_boarded(deluge: Variant) -> None:
    start = position("S1901M", "ENGLAND A YOR", "ENGLAND A/F NTH")
    turn = play(deluge, start, {"ENGLAND": ["A YOR boards F NTH"]})
    assert "an A/F cannot be boarded" in result(turn, "A YOR boards F NTH")["reason"]


def test_ABS_4b_of_two_armies_boarding_one_fleet_the_first_boards(deluge: Variant) -> None:
    start = position("S1901M", "ENGLAND A YOR", "ENGLAND A EDI", "ENGLAND F NTH")
    turn = play(deluge, start, {"ENGLAND": ["A YOR boards F NTH", "A EDI boards F NTH"]})
    assert result(turn, "A YOR boards F NTH")["outcome"] == "success"
    second = result(turn, "A EDI boards F NTH")
    assert second["outcome"] == "invalid" and "an A/F cannot be boarded" in second["reason"]
    assert turn.position.units["EDI"] == unit("ENGLAND A EDI")


def test_ABS_5_embarkation_comes_before_the_moves_and_cannot_fail(deluge: Variant) -> None:
    # The army is aboard before France moves in: it is not dislodged, and the A/F sails on at once.
    start = position("S1901M", "ENGLAND A YOR", "ENGLAND F NTH", "FRANCE A WAL", "FRANCE A LVP")
    orders = {
        "ENGLAND": ["A YOR boards F NTH", "F NTH - NWG"],
        "FRANCE": ["A WAL - YOR", "A LVP S A WAL - YOR"],
    }
    turn = play(deluge, start, orders)
    assert result(turn, "A YOR boards F NTH")["outcome"] == "success"
    assert turn.position.units["YOR"] == unit("FRANCE A YOR")
    assert turn.position.units["NWG"] == unit("ENGLAND A/F NWG")
    assert not turn.position.dislodged


# --- the A/F at sea -------------------------------------------------------------------------------


def test_ABS_6_af_moves_and_is_supported_like_a_fleet(deluge: Variant) -> None:
    start = position("S1901M", "ENGLAND A/F NTH", "ENGLAND F DEN", "GERMANY F HEL")
    turn = play(
        deluge, start, {"ENGLAND": ["A/F NTH - HEL", "F DEN S A/F NTH - HEL"], "GERMANY": ["F HEL H"]}
    )
    assert result(turn, "A/F NTH - HEL")["outcome"] == "success"
    assert turn.position.units["HEL"] == unit("ENGLAND A/F HEL")
    assert "HEL" in turn.position.dislodged


def test_ABS_7_af_supports_like_a_fleet_with_one_fleets_strength(deluge: Variant) -> None:
    start = position("S1901M", "ENGLAND A/F NTH", "ENGLAND A YOR", "FRANCE A EDI")
    turn = play(deluge, start, {"ENGLAND": ["A YOR - EDI", "A/F NTH S A YOR - EDI"], "FRANCE": ["A EDI H"]})
    assert result(turn, "A/F NTH S A YOR - EDI")["outcome"] == "success"
    assert turn.position.units["EDI"] == unit("ENGLAND A EDI")


def test_ABS_8_af_cannot_convoy(deluge: Variant) -> None:
    board = board_for(deluge, deluge.map_state)
    start = position("S1901M", "ENGLAND A/F NTH", "ENGLAND A YOR")
    [line] = read_orders(
        ["A/F NTH C A YOR - NWY"], board, start, "ENGLAND", modules=Modules(abstraction=True)
    )
    assert line.order is None and "never convoys" in (line.error or "")


def test_ABS_9_af_stays_at_sea_and_lands_its_army_instead(deluge: Variant) -> None:
    start = position("S1901M", "ENGLAND A/F NTH")
    turn = play(deluge, start, {"ENGLAND": ["A/F NTH - YOR"]})
    refused = result(turn, "A/F NTH - YOR")
    assert refused["outcome"] == "invalid" and "stays at sea" in refused["reason"]
    assert turn.position.units["NTH"] == unit("ENGLAND A/F NTH")


# --- disembarkation --------------------------------------------------------------------------------


def test_ABS_10_army_lands_in_a_land_province_beside_the_sea(deluge: Variant) -> None:
    start = position("S1901M", "ENGLAND A/F NTH")
    turn = play(deluge, start, {"ENGLAND": ["A/F NTH lands YOR"]})
    assert result(turn, "A/F NTH lands YOR")["outcome"] == "success"
    assert turn.position.units["YOR"] == unit("ENGLAND A YOR")
    assert turn.position.units["NTH"] == unit("ENGLAND F NTH")


def test_ABS_11_army_lands_only_beside_the_afs_sea(deluge: Variant) -> None:
    start = position("S1901M", "ENGLAND A/F NTH", "ENGLAND F ENG")
    turn = play(deluge, start, {"ENGLAND": ["A/F NTH lands WAL", "F ENG lands BRE"]})
    assert "not beside North Sea" in result(turn, "A/F NTH lands WAL")["reason"]
    assert "no army aboard" in result(turn, "F ENG lands BRE")["reason"]


def test_ABS_12_landing_is_part_of_the_moves_a_bounced_army_stays_aboard(deluge: Variant) -> None:
    start = position("S1901M", "ENGLAND A/F NTH", "FRANCE A BEL")
    turn = play(deluge, start, {"ENGLAND": ["A/F NTH lands BEL"], "FRANCE": ["A BEL H"]})
    assert result(turn, "A/F NTH lands BEL")["outcome"] == "bounce"
    assert turn.position.units["NTH"] == unit("ENGLAND A/F NTH")
    assert turn.position.units["BEL"] == unit("FRANCE A BEL")


def test_ABS_13_a_landing_may_be_supported(deluge: Variant) -> None:
    start = position("S1901M", "ENGLAND A/F NTH", "ENGLAND F ENG", "FRANCE A BEL")
    orders = {"ENGLAND": ["A/F NTH lands BEL", "F ENG S A/F NTH - BEL"], "FRANCE": ["A BEL H"]}
    turn = play(deluge, start, orders)
    supported = result(turn, "F ENG S A/F NTH - BEL")
    assert supported["outcome"] == "success" and supported["order"] == "F ENG S A/F NTH - BEL"
    assert turn.position.units["BEL"] == unit("ENGLAND A BEL")
    assert turn.position.dislodged["BEL"].unit == unit("FRANCE A BEL")


def test_ABS_14_the_fleet_holds_while_its_army_lands_and_may_be_dislodged_alone(deluge: Variant) -> None:
    start = position("S1901M", "ENGLAND A/F NTH", "GERMANY F HEL", "GERMANY F DEN")
    orders = {"ENGLAND": ["A/F NTH lands YOR"], "GERMANY": ["F HEL - NTH", "F DEN S F HEL - NTH"]}
    turn = play(deluge, start, orders)
    landed = result(turn, "A/F NTH lands YOR")
    assert landed["outcome"] == "success" and landed["dislodged"]
    assert turn.position.units["YOR"] == unit("ENGLAND A YOR")
    assert turn.position.dislodged["NTH"].unit == unit("ENGLAND F NTH")


# --- interactions ---------------------------------------------------------------------------------


def test_ABS_15_a_dislodged_af_retreats_with_its_army_and_only_to_sea(deluge: Variant) -> None:
    start = position("S1901M", "ENGLAND A/F NTH", "GERMANY F HEL", "GERMANY F DEN")
    turn = play(deluge, start, {"ENGLAND": ["A/F NTH H"], "GERMANY": ["F HEL - NTH", "F DEN S F HEL - NTH"]})
    waiting = turn.position.dislodged["NTH"]
    assert waiting.unit == unit("ENGLAND A/F NTH")
    assert set(waiting.retreats) == {"NWG", "SKA", "ENG"}  # no land: not EDI, YOR, LON, NWY, BEL
    retreat = play(deluge, turn.position, {"ENGLAND": ["A/F NTH - NWG"]})
    assert retreat.position.units["NWG"] == unit("ENGLAND A/F NWG")


def test_ABS_16_a_landing_army_cannot_cut_a_support_into_its_own_sea(deluge: Variant) -> None:
    start = position("S1901M", "ENGLAND A/F NTH", "GERMANY F HEL", "GERMANY F DEN")
    orders = {"ENGLAND": ["A/F NTH lands DEN"], "GERMANY": ["F HEL - NTH", "F DEN S F HEL - NTH"]}
    turn = play(deluge, start, orders)
    assert result(turn, "F DEN S F HEL - NTH")["outcome"] == "success"
    assert result(turn, "A/F NTH lands DEN")["outcome"] == "bounce"
    assert turn.position.dislodged["NTH"].unit == unit("ENGLAND A/F NTH")


def test_ABS_17_the_convoy_paradox_of_datc_6f14_is_gone(deluge: Variant) -> None:
    # DATC 6.F.14 with the French army aboard F ENG: its landing cannot cut the support into ENG.
    start = position("S1901M", "ENGLAND F LON", "ENGLAND F WAL", "FRANCE A/F ENG")
    orders = {"ENGLAND": ["F LON S F WAL - ENG", "F WAL - ENG"], "FRANCE": ["A/F ENG lands LON"]}
    turn = play(deluge, start, orders)
    assert not any("paradox" in r["reason"] for r in turn.results)
    assert result(turn, "F WAL - ENG")["outcome"] == "success"
    assert result(turn, "A/F ENG lands LON")["outcome"] == "bounce"
    assert turn.position.dislodged["ENG"].unit == unit("FRANCE A/F ENG")


def test_ABS_17b_with_standard_convoys_the_same_convoy_is_a_paradox(deluge: Variant) -> None:
    start = position("S1901M", "ENGLAND F LON", "ENGLAND F WAL", "FRANCE F ENG", "FRANCE A BRE")
    orders = {
        "ENGLAND": ["F LON S F WAL - ENG", "F WAL - ENG"],
        "FRANCE": ["A BRE - LON", "F ENG C A BRE - LON"],
    }
    turn = play(deluge, start, orders, STANDARD)
    assert "paradox" in result(turn, "F ENG C A BRE - LON")["reason"]


def test_ABS_18_a_fast_ferry_crosses_one_sea_with_one_fleet(deluge: Variant) -> None:
    start = position("S1901M", "ENGLAND A LON", "ENGLAND F NTH", "ENGLAND F SKA")
    orders = {"ENGLAND": ["A LON - SWE", "F NTH C A LON - SWE", "F SKA C A LON - SWE"]}
    turn = play(deluge, start, orders)
    assert "Fast Ferry" in result(turn, "A LON - SWE")["reason"]
    assert "Fast Ferry" in result(turn, "F NTH C A LON - SWE")["reason"]
    assert turn.position.units["LON"] == unit("ENGLAND A LON")
    standard = play(deluge, start, orders, STANDARD)
    assert standard.position.units["SWE"] == unit("ENGLAND A SWE")


def test_ABS_19_a_fast_ferry_may_carry_another_powers_army(deluge: Variant) -> None:
    start = position("S1901M", "ENGLAND A LON", "FRANCE F ENG")
    turn = play(deluge, start, {"ENGLAND": ["A LON - BRE"], "FRANCE": ["F ENG C A LON - BRE"]})
    assert turn.position.units["BRE"] == unit("ENGLAND A BRE")


def test_ABS_20_a_fast_ferry_that_cannot_land_leaves_its_own_army_aboard(deluge: Variant) -> None:
    start = position("S1901M", "ENGLAND A LON", "ENGLAND F ENG", "FRANCE A BRE")
    orders = {"ENGLAND": ["A LON - BRE", "F ENG C A LON - BRE"], "FRANCE": ["A BRE H"]}
    turn = play(deluge, start, orders)
    bounced = result(turn, "A LON - BRE")
    assert bounced["outcome"] == "bounce" and "stays aboard" in bounced["reason"]
    assert "LON" not in turn.position.units
    assert turn.position.units["ENG"] == unit("ENGLAND A/F ENG")


def test_ABS_21_a_fast_ferry_that_cannot_land_returns_another_powers_army(deluge: Variant) -> None:
    start = position("S1901M", "ENGLAND A LON", "FRANCE F ENG", "FRANCE A BRE")
    orders = {"ENGLAND": ["A LON - BRE"], "FRANCE": ["F ENG C A LON - BRE", "A BRE H"]}
    turn = play(deluge, start, orders)
    assert result(turn, "A LON - BRE")["outcome"] == "bounce"
    assert turn.position.units["LON"] == unit("ENGLAND A LON")
    assert turn.position.units["ENG"] == unit("FRANCE F ENG")


def test_ABS_22_an_af_whose_sea_submerges_a_neighbour_sails_on_and_lands_beside_it(deluge: Variant) -> None:
    # After Winter 1901 London is a sea: the A/F sails in; the army lands in Wales, beside the new sea.
    state = after_winter_1901(deluge)
    start = position("S1902M", "ENGLAND A/F NTH")
    sunk = play(deluge, start, {"ENGLAND": ["A/F NTH lands LON"]}, state=state)
    assert "London is not land" in result(sunk, "A/F NTH lands LON")["reason"]
    sailed = play(deluge, start, {"ENGLAND": ["A/F NTH - LON"]}, state=state)
    assert sailed.position.units["LON"] == unit("ENGLAND A/F LON")
    landed = play(deluge, sailed.position, {"ENGLAND": ["A/F LON lands WAL"]}, state=sailed.map_state)
    assert landed.position.units["WAL"] == unit("ENGLAND A WAL")


def test_ABS_23_an_af_is_two_units_at_the_adjustments(deluge: Variant) -> None:
    # Two centres, three units (the A/F is two): one removal, which takes the army aboard.
    start = position("W1901A", "ENGLAND A/F NTH", "ENGLAND A EDI", owners={"ENGLAND": "EDI", "X": "LVP"})
    start = Position(start.phase, start.units, {"EDI": "ENGLAND", "LVP": "ENGLAND"})
    board = board_for(deluge, deluge.map_state)
    abstraction = InPlay(Modules(abstraction=True))
    assert legal_options(board, start, "ENGLAND", modules=abstraction).adjustment.due == -1
    turn = play(deluge, start, {"ENGLAND": ["A/F NTH D"]})
    assert turn.position.units["NTH"] == unit("ENGLAND F NTH")
    assert turn.position.units["EDI"] == unit("ENGLAND A EDI")


def test_ABS_24_options_offer_boarding_and_landing_and_keep_to_the_af_rules(deluge: Variant) -> None:
    board = board_for(deluge, deluge.map_state)
    start = position(
        "S1901M", "ENGLAND A YOR", "ENGLAND F NTH", "ENGLAND A/F ENG", "ENGLAND A LON", "ENGLAND F SKA"
    )
    offered = legal_options(board, start, "ENGLAND", modules=InPlay(Modules(abstraction=True)))
    texts = {o.text for o in offered.all()}
    assert {"A YOR boards F NTH", "A LON boards F NTH", "A/F ENG lands BRE", "A/F ENG lands LON"} <= texts
    assert "A LON boards F ENG" not in texts  # an A/F cannot be boarded
    assert not {t for t in texts if t.startswith("A/F ENG C")}  # an A/F never convoys
    assert "A/F ENG - BRE" not in texts and "A/F ENG - MAO" in texts  # it stays at sea
    assert "F NTH C A LON - NWY" in texts and "A LON - SWE VIA" not in texts  # Fast Ferry: one sea
    assert not {t for t in texts if "boards" in t} & {
        o.text for o in legal_options(board, start, "ENGLAND").all()
    }


def test_ABS_25_the_canonical_notation_is_held_to_the_af_rules_at_entry(deluge: Variant) -> None:
    # The reader's short cut for texts as the options write them must not let an A/F ashore or a convoy
    # cross two seas: the reasons are the full reading's.
    board = board_for(deluge, deluge.map_state)
    start = position("S1901M", "ENGLAND A/F NTH", "ENGLAND A LON", "ENGLAND F SKA", "ENGLAND F ENG")
    texts = ["F NTH - YOR", "F NTH C A LON - NWY", "A LON - SWE VIA", "F SKA C A LON - SWE"]
    lines = read_orders(texts, board, start, "ENGLAND", modules=Modules(abstraction=True))
    errors = [line.error or "" for line in lines]
    assert "stays at sea" in errors[0] and "never convoys" in errors[1]
    assert "Fast Ferry" in errors[2] and "Fast Ferry" in errors[3]
    plain = read_orders(texts[2:], board, start, "ENGLAND")
    assert all(line.error is None for line in plain)  # standard convoys: both are orders


# --- an A/F on another variant's closing seas (the abstraction option) -------------------------------

ON = {"abstraction": True}


def _map_before(variant: Variant, year: int, before: Hook) -> MapState:
    state = variant.map_state
    for when, hook, step in walk(variant, {}):
        if (when, hook) == (year, before):
            return state
        state = step.map_state
    raise AssertionError(f"no {before} in {year}")


def test_ABS_26_an_af_on_a_sea_that_freezes_is_removed_with_its_army() -> None:
    wall = load_variant("wall_of_ice")
    start = Position(Phase.parse("F1903M"), {"BAR": unit("RUSSIA A/F BAR")}, {})
    turn = play(wall, start, {}, ON, _map_before(wall, 1903, Hook.AFTER_FALL_RETREATS))
    assert "BAR" not in turn.position.units
    removed = [e for e in turn.events if e["kind"] == "unit_removed"]
    assert removed == [
        {"kind": "unit_removed", "power": "RUSSIA", "unit": "A/F BAR", "reason": "BAR became impassable"}
    ]


def test_ABS_27_an_af_on_a_sea_that_dries_but_touches_water_lands_its_army() -> None:
    # An A/F is always at sea, and a province holds one unit: on a sea that dried but stays on the coast
    # the army aboard lands and the A/F ends as one army, as a stranded one does (issue 31).
    sahara = load_variant("sahara")
    start = Position(Phase.parse("F1902M"), {"ION": unit("ITALY A/F ION")}, {})
    turn = play(sahara, start, {}, ON, _map_before(sahara, 1902, Hook.AFTER_FALL_RETREATS))
    assert turn.position.units["ION"] == unit("ITALY A ION")


def test_ABS_28_a_stranded_af_becomes_one_army() -> None:
    # The Aegean dries in the Spring of 1903 and touches no water: there is room for one army there.
    sahara = load_variant("sahara")
    start = Position(Phase.parse("S1903M"), {"AEG": unit("TURKEY A/F AEG")}, {})
    turn = play(sahara, start, {}, ON, _map_before(sahara, 1903, Hook.AFTER_SPRING_RETREATS))
    assert turn.position.units["AEG"] == unit("TURKEY A AEG")


# --- boarding, sailing and landing in one move (issue 31) ---------------------------------------------


def test_ABS_29_an_army_boards_the_af_sails_and_the_army_lands_in_one_move(deluge: Variant) -> None:
    # Agar's own example: an army in Portugal in the first Spring.
    start = position("S1901M", "ENGLAND A LON", "ENGLAND F ENG")
    orders = {"ENGLAND": ["A LON boards F ENG", "A/F ENG - MAO", "A/F MAO lands POR"]}
    turn = play(deluge, start, orders)
    assert [result(turn, t)["outcome"] for t in orders["ENGLAND"]] == ["success"] * 3
    assert turn.position.units["POR"] == unit("ENGLAND A POR")
    assert turn.position.units["MAO"] == unit("ENGLAND F MAO")
    assert "LON" not in turn.position.units and "ENG" not in turn.position.units


def test_ABS_30_an_af_sails_and_lands_its_army_in_one_move(deluge: Variant) -> None:
    start = position("S1901M", "ENGLAND A/F NTH")
    turn = play(deluge, start, {"ENGLAND": ["A/F NTH - NWG", "A/F NWG lands NWY"]})
    assert result(turn, "A/F NWG lands NWY")["outcome"] == "success"
    assert turn.position.units["NWY"] == unit("ENGLAND A NWY")
    assert turn.position.units["NWG"] == unit("ENGLAND F NWG")


def test_ABS_31_a_sail_that_bounces_lands_nothing_from_the_new_sea(deluge: Variant) -> None:
    start = position("S1901M", "ENGLAND A/F NTH", "RUSSIA F NWG")
    orders = {"ENGLAND": ["A/F NTH - NWG", "A/F NWG lands NWY"], "RUSSIA": ["F NWG H"]}
    turn = play(deluge, start, orders)
    assert result(turn, "A/F NTH - NWG")["outcome"] == "bounce"
    landing = result(turn, "A/F NWG lands NWY")
    assert landing["outcome"] == "no_convoy" and "did not reach" in landing["reason"]
    assert turn.position.units["NTH"] == unit("ENGLAND A/F NTH")
    assert "NWY" not in turn.position.units


def test_ABS_32_a_landing_that_bounces_leaves_the_army_aboard_in_the_new_sea(deluge: Variant) -> None:
    start = position("S1901M", "ENGLAND A/F NTH", "RUSSIA A NWY")
    orders = {"ENGLAND": ["A/F NTH - NWG", "A/F NWG lands NWY"], "RUSSIA": ["A NWY H"]}
    turn = play(deluge, start, orders)
    assert result(turn, "A/F NTH - NWG")["outcome"] == "success"
    assert result(turn, "A/F NWG lands NWY")["outcome"] == "bounce"
    assert turn.position.units["NWG"] == unit("ENGLAND A/F NWG")
    assert turn.position.units["NWY"] == unit("RUSSIA A NWY")


def test_ABS_33_a_landing_from_a_sea_no_af_sails_to_is_not_made(deluge: Variant) -> None:
    # Readable while an A/F could sail there; not made when none does (it never lands from nowhere).
    start = position("S1901M", "ENGLAND A/F NTH")
    turn = play(deluge, start, {"ENGLAND": ["A/F NTH H", "A/F NWG lands NWY"]})
    assert result(turn, "A/F NWG lands NWY")["outcome"] == "no_convoy"  # no attack, as Deluge's rule 1 reads
    assert "NWY" not in turn.position.units
    far = play(deluge, start, {"ENGLAND": ["A/F MAO lands POR"]})
    refused = result(far, "A/F MAO lands POR")
    assert refused["outcome"] == "invalid" and "could sail there" in refused["reason"]


def test_ABS_34_an_army_boards_and_lands_from_the_same_sea(deluge: Variant) -> None:
    start = position("S1901M", "ENGLAND A YOR", "ENGLAND F NTH")
    turn = play(deluge, start, {"ENGLAND": ["A YOR boards F NTH", "A/F NTH lands NWY"]})
    assert result(turn, "A/F NTH lands NWY")["outcome"] == "success"
    assert turn.position.units["NWY"] == unit("ENGLAND A NWY")


def test_ABS_35_a_landing_from_the_sea_sailed_to_cannot_cut_a_support_into_that_sea(deluge: Variant) -> None:
    # As from its own sea (ABS_16): Russia's support into the Norwegian Sea stands, the sail bounces, and
    # no landing follows, with no paradox.
    start = position("S1901M", "ENGLAND A/F NTH", "RUSSIA F NWY", "RUSSIA F BAR")
    orders = {
        "ENGLAND": ["A/F NTH - NWG", "A/F NWG lands NWY"],
        "RUSSIA": ["F BAR - NWG", "F NWY S F BAR - NWG"],
    }
    turn = play(deluge, start, orders)
    assert result(turn, "F NWY S F BAR - NWG")["outcome"] == "success"
    assert turn.position.units["NWG"] == unit("RUSSIA F NWG")
    assert result(turn, "A/F NWG lands NWY")["outcome"] == "no_convoy"
    assert not any("paradox" in r["reason"] for r in turn.results)


def test_ABS_36_options_offer_the_landing_from_a_sea_an_af_may_sail_to(deluge: Variant) -> None:
    board = board_for(deluge, deluge.map_state)
    start = position("S1901M", "ENGLAND A LON", "ENGLAND F ENG", "ENGLAND A/F NTH")
    offered = legal_options(board, start, "ENGLAND", modules=InPlay(Modules(abstraction=True)))
    beside = {o.text for o in offered.module_orders}
    assert {"A/F MAO lands POR", "A/F NWG lands NWY", "A/F HEL lands KIE"} <= beside
    assert not {t for t in beside if t.startswith(("A/F NTH ", "A/F ENG "))}  # their own orders
    [line] = read_orders(["A/F MAO lands POR"], board, start, "ENGLAND", modules=Modules(abstraction=True))
    assert line.error is None


def test_ABS_37_a_landing_that_would_turn_back_its_own_sail_is_not_made(deluge: Variant) -> None:
    # The support lets Russia leave the Norwegian Sea, so the A/F arrives; its army landing in Norway
    # would cut that support and so turn the A/F back: a paradox. The sail is decided first; the landing
    # that would undo it is not made, and the army stays aboard in the sea reached.
    start = position("S1901M", "ENGLAND A/F NTH", "RUSSIA F NWG", "RUSSIA F NWY", "GERMANY F BAR")
    orders = {
        "ENGLAND": ["A/F NTH - NWG", "A/F NWG lands NWY"],
        "RUSSIA": ["F NWG - BAR", "F NWY S F NWG - BAR"],
        "GERMANY": ["F BAR H"],
    }
    turn = play(deluge, start, orders)
    landing = result(turn, "A/F NWG lands NWY")
    assert landing["outcome"] == "no_convoy" and "turned back" in landing["reason"]
    assert result(turn, "F NWY S F NWG - BAR")["outcome"] == "success"
    assert turn.position.units["NWG"] == unit("ENGLAND A/F NWG")
    assert turn.position.units["BAR"] == unit("RUSSIA F BAR")


# --- Davis's reading: an A/F lasts three moves (the davis_af_limit option, issue 31) --------------------

DAVIS = {"davis_af_limit": True}


def sail_on(variant: Variant, start: Position, moves: list[str], options: Mapping[str, Any]) -> list[Turn]:
    """England's orders, one a movement phase (no builds in Winter), the module state carried along."""
    turns: list[Turn] = []
    position, state, where = start, None, variant.map_state
    for order in moves:
        turn = play_phase(variant, where, position, {"ENGLAND": [order]}, options=options, module_state=state)
        turns.append(turn)
        while True:
            position, where = turn.position, turn.map_state
            state = turn.opened.state if turn.opened else None
            if position.phase.type is not PhaseType.ADJUSTMENTS:
                break
            turn = play_phase(variant, where, position, {}, options=options, module_state=state)  # no builds
    return turns


HOMES = {"EDI": "ENGLAND", "LVP": "ENGLAND", "SWE": "ENGLAND", "DEN": "ENGLAND"}  # room for all the units


def test_ABS_38_agars_reading_is_the_default_an_army_may_stay_aboard_any_number_of_moves(
    deluge: Variant,
) -> None:
    start = position("S1901M", "ENGLAND A/F NTH", owners=HOMES)
    turns = sail_on(deluge, start, ["A/F NTH - NWG", "A/F NWG - NTH", "A/F NTH - NWG", "A/F NWG - NTH"], {})
    assert turns[-1].position.units["NTH"] == unit("ENGLAND A/F NTH")


def test_ABS_39_davis_an_af_lasts_three_moves_and_its_army_starves_on_the_fourth(deluge: Variant) -> None:
    start = position("S1901M", "ENGLAND A YOR", "ENGLAND F NTH", owners=HOMES)
    orders = ["A YOR boards F NTH", "A/F NTH - NWG", "A/F NWG - NTH", "A/F NTH - NWG"]
    turns = sail_on(deluge, start, orders, DAVIS)
    assert turns[2].position.units["NTH"] == unit("ENGLAND A/F NTH")  # three moves ended aboard
    assert turns[3].position.units["NWG"] == unit("ENGLAND F NWG")  # the fourth: the army starved
    starved = [r for r in turns[3].results if "starved" in r["reason"]]
    assert len(starved) == 1 and starved[0]["power"] == "ENGLAND"


def test_ABS_40_davis_an_army_that_lands_in_its_fourth_move_lives(deluge: Variant) -> None:
    start = position("S1901M", "ENGLAND A/F NTH", owners=HOMES)
    turns = sail_on(
        deluge, start, ["A/F NTH - NWG", "A/F NWG - NTH", "A/F NTH - NWG", "A/F NWG lands NWY"], DAVIS
    )
    assert turns[2].position.units["NWG"] == unit("ENGLAND A/F NWG")
    assert turns[3].position.units["NWY"] == unit("ENGLAND A NWY")
    assert not [r for t in turns for r in t.results if "starved" in r["reason"]]


def test_ABS_41_davis_the_count_starts_again_when_an_army_boards_afresh(deluge: Variant) -> None:
    start = position("S1901M", "ENGLAND A/F NTH", "ENGLAND A YOR", owners=HOMES)
    orders = ["A/F NTH - NWG", "A/F NWG - NTH", "A/F NTH lands EDI", "A YOR boards F NTH", "A/F NTH - NWG"]
    turns = sail_on(deluge, start, orders, DAVIS)
    assert turns[-1].position.units["NWG"] == unit("ENGLAND A/F NWG")
