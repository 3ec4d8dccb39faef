"""Ruling E17/E18: each variant's end of game, judged from its data after a phase."""

from __future__ import annotations

from dataclasses import replace

import pytest

from dipserver.engine.board import MapState
from dipserver.engine.ending import Outcome, Result
from dipserver.engine.position import Position
from dipserver.engine.timeline import Hook
from dipserver.engine.types import Phase
from dipserver.engine.variant import Variant
from dipserver.engine.victory import game_outcome

from .conftest import position_with, steps_of

W = Phase.parse


def final_map(variant: Variant, year: int, hook: Hook = Hook.AFTER_WINTER_ADJUSTMENTS) -> MapState:
    return steps_of(variant)[(year, hook)].map_state


def at(position: Position, phase: str) -> Position:
    return replace(position, phase=W(phase))


# --- Wall of Ice ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def woi_end(wall_of_ice: Variant) -> MapState:
    return final_map(wall_of_ice, 1910)


def test_e17_e18_wall_of_ice_owner_of_tunis_and_north_africa_wins_once_they_are_the_last_centres(
    wall_of_ice: Variant, woi_end: MapState
) -> None:
    pos = position_with(wall_of_ice, "ITALY A TUN", owners={"TUN": "ITALY", "NAF": "ITALY"})
    outcome = game_outcome(wall_of_ice, woi_end, at(pos, "S1911M"), W("W1910A"))
    assert outcome == Outcome(Result.WIN, ("ITALY",), "ITALY controls TUN and NAF.")


def test_e17_e18_wall_of_ice_owning_both_earlier_does_not_win(wall_of_ice: Variant) -> None:
    pos = position_with(wall_of_ice, "ITALY A TUN", owners={"TUN": "ITALY", "NAF": "ITALY"})
    assert game_outcome(wall_of_ice, final_map(wall_of_ice, 1906), at(pos, "S1907M"), W("W1906A")) is None


def test_e17_e18_wall_of_ice_a_split_is_a_two_way_draw(wall_of_ice: Variant, woi_end: MapState) -> None:
    pos = position_with(wall_of_ice, "ITALY A TUN", "FRANCE A NAF", owners={"TUN": "ITALY", "NAF": "FRANCE"})
    outcome = game_outcome(wall_of_ice, woi_end, at(pos, "S1911M"), W("W1910A"))
    assert outcome is not None and (outcome.result, outcome.powers) == (Result.DRAW, ("FRANCE", "ITALY"))


def test_e17_e18_wall_of_ice_a_neutral_north_africa_keeps_the_game_going(
    wall_of_ice: Variant, woi_end: MapState
) -> None:
    pos = position_with(wall_of_ice, "ITALY A TUN", owners={"TUN": "ITALY"})
    assert game_outcome(wall_of_ice, woi_end, at(pos, "S1911M"), W("W1910A")) is None


def test_e17_e18_wall_of_ice_nobody_owning_either_is_no_winner(
    wall_of_ice: Variant, woi_end: MapState
) -> None:
    pos = position_with(wall_of_ice, "ITALY A ROM", owners={})
    outcome = game_outcome(wall_of_ice, woi_end, at(pos, "S1911M"), W("W1910A"))
    assert outcome is not None and outcome.result is Result.NO_WINNER


def test_e17_e18_wall_of_ice_ends_without_winner_after_the_house_limit_when_the_game_takes_it(
    wall_of_ice: Variant, woi_end: MapState
) -> None:
    pos = position_with(wall_of_ice, "ITALY A TUN", owners={"TUN": "ITALY"})
    limit = {"house_limit_1915": True}
    outcome = game_outcome(wall_of_ice, woi_end, at(pos, "S1916M"), W("F1915M"), options=limit)
    assert outcome is not None and outcome.result is Result.NO_WINNER


def test_e18_wall_of_ice_plays_on_past_1915_until_tunis_and_north_africa_decide_it(
    wall_of_ice: Variant, woi_end: MapState
) -> None:
    # The seed allows only a win or a two-way draw: the 1915 limit is a house rule, off by default.
    pos = position_with(wall_of_ice, "ITALY A TUN", owners={"TUN": "ITALY"})
    assert game_outcome(wall_of_ice, woi_end, at(pos, "S1916M"), W("F1915M")) is None
    won = position_with(wall_of_ice, "ITALY A TUN", owners={"TUN": "ITALY", "NAF": "ITALY"})
    outcome = game_outcome(wall_of_ice, woi_end, at(won, "S1917M"), W("W1916A"))
    assert outcome is not None and (outcome.result, outcome.powers) == (Result.WIN, ("ITALY",))


def test_e17_e18_wall_of_ice_has_no_centre_majority_win(wall_of_ice: Variant) -> None:
    owners = dict.fromkeys(wall_of_ice.map_state.supply_centres, "FRANCE")
    pos = position_with(wall_of_ice, "FRANCE A PAR", "ITALY A ROM", owners=owners)
    assert game_outcome(wall_of_ice, wall_of_ice.map_state, at(pos, "S1902M"), W("W1901A")) is None


# --- Sahara --------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def sahara_end(sahara: Variant) -> MapState:
    return final_map(sahara, 1911, Hook.AFTER_FALL_RETREATS)


def test_e17_sahara_the_owner_with_a_unit_in_iceland_after_winter_1911_wins(
    sahara: Variant, sahara_end: MapState
) -> None:
    pos = position_with(sahara, "ENGLAND A ICE", owners={"ICE": "ENGLAND"})
    outcome = game_outcome(sahara, sahara_end, at(pos, "S1912M"), W("W1911A"))
    assert outcome == Outcome(Result.WIN, ("ENGLAND",), "ENGLAND holds ICE with a unit at the end.")


def test_e17_sahara_is_not_decided_before_winter_1911(sahara: Variant, sahara_end: MapState) -> None:
    pos = position_with(sahara, "ENGLAND A ICE", "RUSSIA A STP", owners={"ICE": "ENGLAND"})
    assert game_outcome(sahara, sahara_end, at(pos, "S1911M"), W("W1910A")) is None


@pytest.mark.parametrize(
    ("units", "owners"),
    [(("ENGLAND A NWY",), {"ICE": "ENGLAND"}), (("RUSSIA A ICE",), {"ICE": "ENGLAND"})],
    ids=["owner-elsewhere", "unit-not-owner"],
)
def test_e17_sahara_otherwise_nobody_wins(
    sahara: Variant, sahara_end: MapState, units: tuple[str, ...], owners: dict[str, str]
) -> None:
    pos = position_with(sahara, *units, owners=owners)
    outcome = game_outcome(sahara, sahara_end, at(pos, "S1912M"), W("W1911A"))
    assert outcome is not None and outcome.result is Result.NO_WINNER


# --- Deluge --------------------------------------------------------------------------------------


def test_e17_deluge_a_lone_survivor_before_the_end_is_not_yet_the_winner(deluge: Variant) -> None:
    # The others have no unit and no centre left to build on, but the sea rises on until 1908: Austria
    # may yet drown, and then nobody wins (seed 004: "the winner is the survivor after W 1908").
    pos = position_with(deluge, "AUSTRIA F ADR", "AUSTRIA A TYR", owners={"VIE": "AUSTRIA"})
    assert game_outcome(deluge, deluge.map_state, at(pos, "F1905M"), W("S1905M")) is None


def test_e17_deluge_the_survivor_after_winter_1908_wins_and_drowning_everyone_is_no_winner(
    deluge: Variant,
) -> None:
    final = final_map(deluge, 1907)
    pos = position_with(deluge, "ITALY A SWI", owners={"SWI": "ITALY"})
    assert game_outcome(deluge, final, at(pos, "S1909M"), W("W1908A")) == Outcome(
        Result.WIN, ("ITALY",), "ITALY is the only power left in play."
    )
    empty = position_with(deluge, owners={})
    outcome = game_outcome(deluge, final, at(empty, "S1909M"), W("W1908A"))
    assert outcome is not None and outcome.result is Result.NO_WINNER


def test_e17_deluge_two_survivors_before_1908_play_on(deluge: Variant) -> None:
    pos = position_with(deluge, "ITALY A SWI", "FRANCE F MAO")
    assert game_outcome(deluge, deluge.map_state, at(pos, "S1906M"), W("W1905A")) is None


def test_e17_deluge_a_lone_survivor_wins_early_once_the_sea_has_no_change_left(deluge: Variant) -> None:
    # The last change comes before the Winter 1907 adjustments: alone after them, Italy can no longer
    # drown, so it is the survivor after W1908 already.
    final = final_map(deluge, 1907)
    pos = position_with(deluge, "ITALY A SWI", owners={"SWI": "ITALY"})
    assert game_outcome(deluge, final, at(pos, "W1907A"), W("F1907M")) is None
    assert game_outcome(deluge, final, at(pos, "S1908M"), W("W1907A")) == Outcome(
        Result.WIN, ("ITALY",), "ITALY is the only power left in play."
    )
