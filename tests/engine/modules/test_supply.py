"""Supply lines and depots, DATC style: a position, the supply it traces, the orders, the result."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from dipserver.engine.board import Board, board_for
from dipserver.engine.modules import Modules
from dipserver.engine.modules.blizzard import BlizzardOptions
from dipserver.engine.modules.dice import Dice
from dipserver.engine.modules.phase import ModuleOrders, ModuleState, open_phase
from dipserver.engine.modules.supply import (
    Depot,
    EstablishDepot,
    Line,
    SupplyOptions,
    SupplyState,
    after_phase,
    trace,
)
from dipserver.engine.orders import Outcome
from dipserver.engine.position import Position
from dipserver.engine.timeline import Hook, walk
from dipserver.engine.types import Phase, Season
from dipserver.engine.variant import load_variant

from .conftest import outcomes, position, run, where

# The gentler settings the module played by default before issue 31 (range 3 for all, two strikes, Autumn
# checks, removal at Winter, free depots), options still: most cases below are written on them.
GENTLE = SupplyOptions(
    range=3, strikes=2, check_seasons=frozenset({Season.FALL}), removal="winter", depot_cost="free"
)
SUPPLY = Modules(supply=GENTLE)


def lines(
    board: Board, pos: Position, options: SupplyOptions | None = None, state: SupplyState | None = None
):
    return trace(board, pos, state or SupplyState(), options or GENTLE).units


# --- tracing ----------------------------------------------------------------------------------------


def test_a_unit_on_its_own_centre_is_in_supply_where_it_stands(board: Board) -> None:
    assert lines(board, position({"FRANCE": ["A PAR"]}))["PAR"].path == ("PAR",)


def test_a_path_is_at_most_n_steps_long(board: Board) -> None:
    """French A MUN: two steps to Marseilles through Burgundy."""
    pos = position({"FRANCE": ["A MUN"]})
    line = lines(board, pos)["MUN"]
    assert line.supplied and line.path == ("MUN", "BUR", "MAR")
    assert not lines(board, pos, SupplyOptions(range=1))["MUN"].supplied


def test_8_1_each_power_traces_with_its_own_range(board: Board) -> None:
    """Seed 8.1 (Prussia 5, the Coalition 4): French A MUN and German A GAS are both two steps from their
    only centre; the power whose own range reaches two is in supply, the other is not."""
    pos = position(
        {"FRANCE": ["A MUN"], "GERMANY": ["A GAS"]}, owners={"FRANCE": ["MAR"], "GERMANY": ["POR"]}
    )
    french_long = SupplyOptions.from_data({"range": 1, "range_by_power": {"france": 2}})
    traced = lines(board, pos, french_long)
    assert traced["MUN"].supplied and traced["MUN"].path == ("MUN", "BUR", "MAR")
    assert not traced["GAS"].supplied
    german_long = lines(board, pos, SupplyOptions(range=1, range_by_power={"GERMANY": 2}))
    assert not german_long["MUN"].supplied
    assert german_long["GAS"].supplied and german_long["GAS"].path == ("GAS", "SPA", "POR")


def test_another_powers_unit_blocks_the_path(board: Board) -> None:
    pos = position({"FRANCE": ["A MUN"], "GERMANY": ["A BUR"]})
    assert not lines(board, pos, SupplyOptions(range=2))["MUN"].supplied
    assert lines(board, pos, SupplyOptions(range=3))["MUN"].path == ("MUN", "TYR", "PIE", "MAR")


def test_a_centre_occupied_by_another_power_is_no_source(board: Board) -> None:
    pos = position({"FRANCE": ["A BUR"], "GERMANY": ["A PAR", "A MAR"]})
    assert not lines(board, pos, SupplyOptions(range=1))["BUR"].supplied
    assert lines(board, position({"FRANCE": ["A BUR"]}), SupplyOptions(range=1))["BUR"].supplied


def test_armies_cross_a_sea_only_where_their_own_fleet_stands(board: Board) -> None:
    alone = position({"ENGLAND": ["A NWY"]})
    bridged = position({"ENGLAND": ["A NWY", "F NTH"]})
    foreign = position({"ENGLAND": ["A NWY"], "FRANCE": ["F NTH"]})
    assert not lines(board, alone)["NWY"].supplied
    assert lines(board, bridged)["NWY"].path == ("NWY", "NTH", "EDI")
    assert not lines(board, foreign)["NWY"].supplied


def test_fleets_trace_over_water_and_coasts_armies_over_land(board: Board) -> None:
    pos = position({"ENGLAND": ["F HOL"]})
    assert lines(board, pos)["HOL"].path == ("HOL", "NTH", "EDI")
    assert not lines(board, position({"ENGLAND": ["A HOL"]}))["HOL"].supplied


def test_foreign_centres_block_paths_only_when_the_option_says_so(board: Board) -> None:
    pos = position({"FRANCE": ["A RUH"]})
    assert lines(board, pos, SupplyOptions(range=2))["RUH"].path == ("RUH", "BUR", "MAR")
    silesia = position({"FRANCE": ["A SIL"]})  # the short way runs through German Munich
    assert lines(board, silesia)["SIL"].path == ("SIL", "MUN", "BUR", "MAR")
    assert not lines(board, silesia, replace(GENTLE, block_foreign_sc=True))["SIL"].supplied


def test_the_report_is_plain_data_for_the_map(board: Board) -> None:
    report = trace(
        board, position({"FRANCE": ["A MUN"], "ENGLAND": ["A NWY"]}), SupplyState(), SupplyOptions()
    )
    data = json.loads(json.dumps(report.to_data(SupplyState(marks={"NWY": 1}))))
    assert data["units"]["MUN"] == {
        "power": "FRANCE",
        "supplied": True,
        "path": ["MUN", "BUR", "MAR"],
        "source": "MAR",
        "marks": 0,
    }
    assert data["units"]["NWY"] == {
        "power": "ENGLAND",
        "supplied": False,
        "path": [],
        "source": None,
        "marks": 1,
    }


# --- effects ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("modules", "sweden"), [(Modules(), "ENGLAND F"), (SUPPLY, "RUSSIA A")])
def test_a_unit_out_of_supply_cannot_support(board: Board, modules: Modules, sweden: str) -> None:
    """F SKA - SWE supported by A NWY (out of supply: no English fleet between it and a centre)."""
    pos = position({"ENGLAND": ["F SKA", "A NWY"], "RUSSIA": ["A SWE"]})
    block = {"ENGLAND": ["F SKA - SWE", "A NWY S F SKA - SWE"], "RUSSIA": ["A SWE H"]}
    played = run(board, pos, block, modules)
    assert where(played)["SWE"] == sweden
    if modules.supply:
        assert outcomes(played)[1] == ("SupportMove NWY", Outcome.INVALID)
        assert (
            played.result.results[1].reason == "The unit in Norway is out of supply: it cannot give support"
        )


def test_unsupplied_units_are_removed_at_winter_after_k_checks_in_a_row(board: Board) -> None:
    pos = position({"ENGLAND": ["A FIN", "A LON"]}, phase="F1901M")
    first = run(board, pos, {}, SUPPLY)
    assert first.state.supply.marks == {"FIN": 1}
    assert set(where(first)) == {"FIN", "LON"}  # one strike only
    assert first.check is not None and first.check.unsupplied() == {"FIN"}

    again = run(board, Position(Phase.parse("F1902M"), pos.units, pos.owners), {}, SUPPLY, first.state)
    assert set(where(again)) == {"LON"}
    removal = again.result.results[-1]
    assert removal.outcome is Outcome.SUCCESS and "Out of supply at 2 checks in a row" in removal.reason
    assert again.state.supply.marks == {}


def test_a_supplied_check_clears_the_marks_and_spring_is_not_checked_by_default(board: Board) -> None:
    marked = ModuleState(supply=SupplyState(marks={"NWY": 1}))
    spring = run(board, position({"ENGLAND": ["A NWY", "F NTH"]}), {}, SUPPLY, marked)
    assert spring.check is None and spring.state.supply.marks == {"NWY": 1}
    fall = run(board, position({"ENGLAND": ["A NWY", "F NTH"]}, phase="F1901M"), {}, SUPPLY, marked)
    assert fall.state.supply.marks == {}


def test_spring_checks_are_an_option(board: Board) -> None:
    modules = Modules(supply=replace(GENTLE, check_seasons=frozenset({Season.SPRING, Season.FALL})))
    spring = run(board, position({"ENGLAND": ["A NWY"]}), {}, modules)
    assert spring.state.supply.marks == {"NWY": 1}


def test_marks_follow_the_unit_that_moves(board: Board) -> None:
    marked = ModuleState(supply=SupplyState(marks={"NWY": 1}))
    played = run(board, position({"ENGLAND": ["A NWY"]}), {"ENGLAND": ["A NWY - SWE"]}, SUPPLY, marked)
    assert played.state.supply.marks == {"SWE": 1}


def test_a_removal_that_gives_a_build_brings_back_a_skipped_winter(board: Board) -> None:
    """England: two centres, two units, nothing to adjust; A FIN is removed at its second strike, so
    England may build in Edinburgh after all."""
    pos = position({"ENGLAND": ["A FIN", "A LON"]}, phase="F1902M", owners={"ENGLAND": ["LON", "EDI"]})
    marked = ModuleState(supply=SupplyState(marks={"FIN": 1}))
    assert run(board, pos, {}, Modules()).result.position.phase == Phase.parse("S1903M")
    played = run(board, pos, {}, SUPPLY, marked)
    assert played.result.position.phase == Phase.parse("W1902A")
    assert Phase.parse("W1902A") not in played.result.skipped


# --- depots -----------------------------------------------------------------------------------------


def test_a_depot_is_founded_by_a_unit_that_stays_and_is_operative_from_the_next_phase(board: Board) -> None:
    short = Modules(supply=SupplyOptions(range=1))
    pos = position({"FRANCE": ["A BUR", "A RUH"]})
    assert not lines(board, pos, SupplyOptions(range=1))["RUH"].supplied
    played = run(
        board,
        pos,
        {"FRANCE": ["A BUR H"]},
        short,
        extra=ModuleOrders(depots=(EstablishDepot("FRANCE", "BUR"),)),
    )
    assert played.state.supply.depots == {"BUR": Depot("FRANCE", "S1901M")}
    fall = played.result.position
    opened = open_phase(board, fall, short, played.state, "secret")
    assert opened.supply is not None
    assert opened.supply.units["RUH"].path == ("RUH", "BUR")
    assert opened.supply.depots["BUR"].path == ("BUR", "MAR")


def test_a_unit_that_moves_founds_no_depot(board: Board) -> None:
    pos = position({"FRANCE": ["A BUR"]})
    played = run(
        board,
        pos,
        {"FRANCE": ["A BUR - MUN"]},
        SUPPLY,
        extra=ModuleOrders(depots=(EstablishDepot("FRANCE", "BUR"),)),
    )
    assert played.state.supply.depots == {}


def test_depots_chain_into_networks(board: Board) -> None:
    depots = {"BUR": Depot("FRANCE", "S1901M"), "RUH": Depot("FRANCE", "S1901M")}
    pos = position({"FRANCE": ["A HOL"]}, phase="F1902M")
    report = trace(board, pos, SupplyState(depots), SupplyOptions(range=1))
    assert report.units["HOL"].path == ("HOL", "RUH")
    assert report.depots["RUH"].path == ("RUH", "BUR")
    assert report.depots["BUR"].path == ("BUR", "MAR")
    cut = position({"FRANCE": ["A HOL"], "GERMANY": ["A BUR"]}, phase="F1902M")
    report = trace(board, cut, SupplyState(depots), SupplyOptions(range=1))
    assert not report.units["HOL"].supplied and not report.depots["RUH"].supplied


@pytest.mark.parametrize(("capture", "after"), [(False, {}), (True, {"BUR": Depot("GERMANY", "S1902M")})])
def test_a_depot_entered_by_another_power_is_destroyed_or_captured(
    board: Board, capture: bool, after: dict[str, Depot]
) -> None:
    options = SupplyOptions(capture=capture)
    state = ModuleState(supply=SupplyState({"BUR": Depot("FRANCE", "S1901M")}))
    pos = position({"GERMANY": ["A MUN"]}, phase="S1902M")
    played = run(board, pos, {"GERMANY": ["A MUN - BUR"]}, Modules(supply=options), state)
    assert played.state.supply.depots == after


def test_a_depot_alone_with_an_enemy_unit_is_captured(board: Board) -> None:
    """Seed 003 rule 8.22: depots "are captured if they ever are alone in a hex with an enemy unit"."""
    state = ModuleState(supply=SupplyState({"BUR": Depot("FRANCE", "S1901M")}))
    pos = position({"GERMANY": ["A MUN"]}, phase="S1902M")
    default = Modules.from_options({"supply_lines": True})
    played = run(board, pos, {"GERMANY": ["A MUN - BUR"]}, default, state)
    assert played.state.supply.depots == {"BUR": Depot("GERMANY", "S1902M")}


def test_a_depot_is_not_captured_while_its_owners_dislodged_unit_is_still_there(board: Board) -> None:
    """The owner's unit dislodged from its depot stands there until it retreats: the depot is not alone
    with the enemy yet. Once it has retreated, it is, and is captured."""
    modules = Modules.from_options({"supply_lines": True})
    state = ModuleState(supply=SupplyState({"BUR": Depot("FRANCE", "S1901M")}))
    pos = position({"FRANCE": ["A BUR"], "GERMANY": ["A MUN", "A RUH"]}, phase="S1902M")
    played = run(board, pos, {"GERMANY": ["A MUN - BUR", "A RUH S A MUN - BUR"]}, modules, state)
    assert played.result.position.phase == Phase.parse("S1902R")
    assert played.state.supply.depots == {"BUR": Depot("FRANCE", "S1901M")}
    retreats = played.result.position
    after = run(board, retreats, {"FRANCE": ["A BUR R PIC"]}, modules, played.state)
    assert where(after)["PIC"] == "FRANCE A"
    assert after.state.supply.depots == {"BUR": Depot("GERMANY", "S1902R")}


def test_destroying_a_depot_alone_with_an_enemy_unit_stays_an_option(board: Board) -> None:
    modules = Modules.from_options({"supply_lines": {"capture": False}})
    state = ModuleState(supply=SupplyState({"BUR": Depot("FRANCE", "S1901M")}))
    pos = position({"GERMANY": ["A MUN"]}, phase="S1902M")
    played = run(board, pos, {"GERMANY": ["A MUN - BUR"]}, modules, state)
    assert played.state.supply.depots == {}


def test_a_captured_depot_supplies_its_captor_from_the_next_phase(board: Board) -> None:
    """Germany takes France's depot in Burgundy in Spring; its army in Picardy, one step from Burgundy and
    out of reach of its own centres, is supplied through the depot from the Autumn on."""
    modules = Modules(supply=SupplyOptions(range=1))
    state = ModuleState(supply=SupplyState({"BUR": Depot("FRANCE", "S1901M")}))
    pos = position({"GERMANY": ["A MUN", "A PIC"]}, phase="S1902M")
    opened = open_phase(board, pos, modules, state, "secret")
    assert opened.supply is not None and not opened.supply.units["PIC"].supplied
    played = run(board, pos, {"GERMANY": ["A MUN - BUR"]}, modules, state)
    fall = played.result.position
    assert fall.phase == Phase.parse("F1902M")
    opened = open_phase(board, fall, modules, played.state, "secret")
    assert opened.supply is not None
    assert opened.supply.units["PIC"].path == ("PIC", "BUR")
    assert opened.supply.depots["BUR"] == Line("BUR", "GERMANY", True, ("BUR", "MUN"))


@pytest.mark.parametrize(
    ("units", "province", "problem"),
    [
        ({"FRANCE": ["A PAR"]}, "PAR", "Paris: depots are founded on land that is not a supply centre"),
        ({"GERMANY": ["A BUR"]}, "BUR", "FRANCE has no unit in Burgundy to found a depot"),
        (
            {"FRANCE": ["A PRU"]},
            "PRU",
            "Prussia is out of supply: a depot is founded only where supply reaches",
        ),
        (
            {"FRANCE": ["F ENG"]},
            "ENG",
            "English Channel: depots are founded on land that is not a supply centre",
        ),
    ],
)
def test_depot_orders_that_cannot_be_followed_are_refused_with_the_reason(
    board: Board, units: dict[str, list[str]], province: str, problem: str
) -> None:
    played = run(
        board, position(units), {}, SUPPLY, extra=ModuleOrders(depots=(EstablishDepot("FRANCE", province),))
    )
    assert [why for _, why in played.refused] == [problem]


def test_at_most_max_depots_per_power(board: Board) -> None:
    pos = position({"FRANCE": ["A BUR", "A PIC", "A GAS"]})
    wanted = tuple(EstablishDepot("FRANCE", p) for p in ("BUR", "PIC", "GAS"))
    played = run(board, pos, {}, SUPPLY, extra=ModuleOrders(depots=wanted))
    assert sorted(played.state.supply.depots) == ["BUR", "PIC"]
    assert [why for _, why in played.refused] == ["FRANCE already has 2 depots (at most 2)"]


def test_after_phase_keeps_marks_of_a_dislodged_unit_until_it_retreats(board: Board) -> None:
    pos = position({"RUSSIA": ["A GAL", "A BOH"], "AUSTRIA": ["A VIE"]})
    block = {"RUSSIA": ["A GAL - VIE", "A BOH S A GAL - VIE"], "AUSTRIA": ["A VIE H"]}
    marked = ModuleState(supply=SupplyState(marks={"VIE": 1, "GAL": 1}))
    played = run(board, pos, block, SUPPLY, marked)
    assert played.state.supply.marks == {"VIE": 1}  # the Russian army moved in with its mark
    assert played.state.supply.dislodged_marks == {"VIE": 1}
    retreated = run(board, played.result.position, {"AUSTRIA": ["A VIE R BUD"]}, SUPPLY, played.state)
    assert retreated.state.supply.marks == {"VIE": 1, "BUD": 1}
    assert after_phase(SupplyState(), pos, pos, ()) == SupplyState()


# --- with the mutating variants and blizzards --------------------------------------------------------


def test_an_iceberg_cuts_a_supply_line() -> None:
    """Wall of Ice: F NWY traces to Edinburgh across the North Sea until the North Sea freezes (1904)."""
    wall = load_variant("wall_of_ice")
    steps = {(year, hook): step for year, hook, step in walk(wall, {})}
    pos = position({"ENGLAND": ["F NWY"]}, phase="S1904M")
    before = board_for(wall, steps[(1903, Hook.AFTER_FALL_RETREATS)].map_state)
    after = board_for(wall, steps[(1904, Hook.AFTER_FALL_RETREATS)].map_state)
    assert lines(before, pos)["NWY"].path == ("NWY", "NTH", "EDI")
    assert not lines(after, Position(Phase.parse("S1905M"), pos.units, pos.owners))["NWY"].supplied


def test_a_blizzard_blocks_a_supply_line(board: Board) -> None:
    """A NWY traces across the North Sea by its own fleet; a blizzard there cuts the line for the phase,
    so its support is refused."""
    both = Modules(blizzards=BlizzardOptions(count=Dice.parse("0")), supply=SupplyOptions())
    pos = position({"ENGLAND": ["A NWY", "F NTH", "F SKA"], "RUSSIA": ["A SWE"]})
    opened = open_phase(board, pos, both, ModuleState(), "secret")
    assert opened.supply is not None and opened.supply.units["NWY"].supplied
    snowed = ModuleState(blizzards=frozenset({"NTH"}))
    block = {"ENGLAND": ["F SKA - SWE", "A NWY S F SKA - SWE"], "RUSSIA": ["A SWE H"]}
    played = run(board, pos, block, both, snowed)
    assert played.result.results[1].reason == "The unit in Norway is out of supply: it cannot give support"
    assert where(played)["SWE"] == "RUSSIA A"
    assert where(run(board, pos, block, both, ModuleState()))["SWE"] == "ENGLAND F"


@pytest.mark.parametrize(
    ("options", "problem"),
    [
        ({"range": 0}, "'range' must be a whole number, 1 or more"),
        ({"strikes": "two"}, "'strikes' must be a whole number"),
        ({"check_seasons": ["W"]}, "'check_seasons' must list"),
        ({"depots": "yes"}, "'depots' must be true or false"),
        ({"ranges": 3}, "unknown option ranges"),
        ({"prussia": "GERMANY"}, "'prussia' must list the powers on the Prussian side"),
        ({"removal": "spring"}, "'removal' must be one of 'check', 'winter'"),
        ({"depot_cost": 1}, "'depot_cost' must be one of 'unit', 'free'"),
    ],
)
def test_bad_supply_options_say_what_is_wrong(options: dict[str, object], problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        Modules.from_options({"supply_lines": options})


def test_options_round_trip_through_plain_data() -> None:
    modules = Modules.from_options(
        {"blizzards": {"count": "1d6-1"}, "supply_lines": {"range": 4, "range_by_power": {"prussia": 5}}}
    )
    assert Modules.from_options(modules.to_options()) == modules
    assert modules.supply is not None and modules.supply.range_of("PRUSSIA") == 5
    state = ModuleState(
        frozenset({"BUR"}), supply=SupplyState({"BUR": Depot("FRANCE", "S1901M")}, {"NWY": 1})
    )
    assert ModuleState.from_data(json.loads(json.dumps(state.to_data()))) == state


def test_the_module_answer_is_plain_data(board: Board) -> None:
    pos = position({"ENGLAND": ["A FIN"]}, phase="F1901M")
    played = run(board, pos, {}, SUPPLY, extra=ModuleOrders(depots=(EstablishDepot("ENGLAND", "FIN"),)))
    data = json.loads(json.dumps(played.to_data()))
    assert data["refused"] == [
        {
            "power": "ENGLAND",
            "order": "establish depot FIN",
            "reason": "Finland is out of supply: a depot is founded only where supply reaches",
        }
    ]
    assert data["check"]["units"]["FIN"]["marks"] == 1
    assert data["state"]["supply"]["marks"] == {"FIN": 1}


# --- the seed's numbers are the defaults (issue 31) ------------------------------------------------

SEED = Modules.from_options({"supply_lines": True})


def test_8_1_a_prussian_supply_path_is_five_long_a_coalition_path_four() -> None:
    # Which powers are Prussian is chosen with the game (``prussia``); every other power is the Coalition.
    options = SupplyOptions.from_data({"prussia": ["germany"]})
    assert (options.range_of("GERMANY"), options.range_of("FRANCE")) == (5, 4)
    assert SupplyOptions.from_data(True).range_of("GERMANY") == 4  # none chosen: all Coalition


def test_8_1_the_sides_ranges_decide_who_is_in_supply(board: Board) -> None:
    # An army in Constantinople is five steps over land from Munich (BUL, RUM, GAL, BOH): in supply for
    # a Prussian power, out of it for a Coalition one.
    prussian = SupplyOptions.from_data({"prussia": ["GERMANY"]})
    for power, supplied in (("GERMANY", True), ("FRANCE", False)):
        pos = position({power: ["A CON"]}, owners={power: ["MUN"]})
        assert lines(board, pos, prussian)["CON"].supplied is supplied


def test_8_31_attrition_removes_a_one_strength_unit_at_its_first_unsupplied_supply_phase(
    board: Board,
) -> None:
    # "5 % casualties, fractions rounded up": at least one strength point, all a Diplomacy unit has; and
    # there is a supply phase every turn, so a Spring removes it too.
    played = run(board, position({"ENGLAND": ["A FIN", "A LON"]}), {}, SEED)
    assert set(where(played)) == {"LON"}
    removal = played.result.results[-1]
    assert removal.outcome is Outcome.SUCCESS and "attrition (5 %, rounded up)" in removal.reason
    assert played.check is not None and played.check.unsupplied() == {"FIN"}


def test_8_21_a_depot_costs_the_strength_point_of_its_garrison_the_unit_that_founds_it(board: Board) -> None:
    pos = position({"FRANCE": ["A BUR", "A PAR"]})
    depot = ModuleOrders(depots=(EstablishDepot("FRANCE", "BUR"),))
    played = run(board, pos, {"FRANCE": ["A BUR H"]}, SEED, extra=depot)
    assert played.state.supply.depots == {"BUR": Depot("FRANCE", "S1901M")}
    assert set(where(played)) == {"PAR"}
    assert "Garrisons the depot" in played.result.results[-1].reason
    free = run(board, pos, {"FRANCE": ["A BUR H"]}, Modules(supply=GENTLE), extra=depot)
    assert set(where(free)) == {"BUR", "PAR"}


def test_the_gentler_settings_stay_options() -> None:
    old = {"range": 3, "strikes": 2, "check_seasons": ["F"], "removal": "winter", "depot_cost": "free"}
    assert SupplyOptions.from_data(old) == GENTLE
    assert SupplyOptions.from_data(SupplyOptions.from_data({"prussia": ["PRUSSIA"]}).to_data()).prussia == {
        "PRUSSIA"
    }
