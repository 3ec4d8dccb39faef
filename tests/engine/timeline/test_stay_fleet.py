"""Sahara rule 2 (ruling E16): "stays a fleet" is an instruction for the season. It holds for the fleet
wherever the season leaves it — after a retreat too — and the owner may give it with the retreat.

The case: in Spring 1903 Austria's fleet in Greece is dislodged and can retreat only to the Aegean, which
dries after the Spring retreats and strands it. Without the instruction it becomes an army; with it, it is
disbanded (the owner chose that it not change).
"""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from dipserver.adjudicator.jsonio import adjudicate_request
from dipserver.engine.board import MapState
from dipserver.engine.position import Position
from dipserver.engine.timeline import Hook, walk
from dipserver.engine.turn import Turn, play_phase
from dipserver.engine.types import Phase, Unit, UnitType
from dipserver.engine.variant import Variant, load_variant

ATTACK = {"TURKEY": ["A BUL - GRE", "A ALB S A BUL - GRE"], "ITALY": ["A ION H"]}


@pytest.fixture(scope="module")
def sahara() -> Variant:
    return load_variant("sahara")


@pytest.fixture(scope="module")
def spring_1903(sahara: Variant) -> MapState:
    """The map of Spring 1903: the Ionian Sea is land since the Autumn 1902 change, the Aegean still sea."""
    steps = {(year, hook): step for year, hook, step in walk(sahara, {"mode": "exact", "errata": True})}
    return steps[(1902, Hook.AFTER_WINTER_ADJUSTMENTS)].map_state


def spring(*units: str) -> Position:
    placed = {}
    for spec in units:
        power, kind, loc = spec.split()
        unit = Unit(power, UnitType(kind), loc)
        placed[unit.province] = unit
    return Position(Phase.parse("S1903M"), placed, {})


START = spring("AUSTRIA F GRE", "TURKEY A BUL", "TURKEY A ALB", "ITALY A ION")


def play_season(
    sahara: Variant, state: MapState, movement: Mapping[str, list[str]], retreats: Mapping[str, list[str]]
) -> tuple[Turn, Turn]:
    moved = play_phase(sahara, state, START, movement)
    assert str(moved.next_phase) == "S1903R"
    assert [d.retreats for d in moved.position.dislodged.values()] == [("AEG",)]
    retreated = play_phase(
        sahara,
        moved.map_state,
        moved.position,
        retreats,
        options={"errata": True},
        stay_flags=moved.stay_flags,
    )
    return moved, retreated


def test_e16_without_the_instruction_a_fleet_stranded_after_its_retreat_becomes_an_army(
    sahara: Variant, spring_1903: MapState
) -> None:
    _, retreated = play_season(
        sahara, spring_1903, {**ATTACK, "AUSTRIA": ["F GRE H"]}, {"AUSTRIA": ["F GRE - AEG"]}
    )
    assert retreated.position.units.get("AEG") == Unit("AUSTRIA", UnitType.ARMY, "AEG")


def test_e16_the_instruction_given_with_the_movement_follows_the_fleets_retreat(
    sahara: Variant, spring_1903: MapState
) -> None:
    movement = {**ATTACK, "AUSTRIA": ["F GRE H", "F GRE stays fleet"]}
    moved, retreated = play_season(sahara, spring_1903, movement, {"AUSTRIA": ["F GRE - AEG"]})

    assert moved.position.dislodged["GRE"].stays_fleet
    assert "AEG" not in retreated.position.units  # stranded and told not to change: disbanded
    assert retreated.position.units["GRE"] == Unit("TURKEY", UnitType.ARMY, "GRE")  # not the newcomer's flag


def test_e16_the_owner_may_give_the_instruction_with_the_retreat(
    sahara: Variant, spring_1903: MapState
) -> None:
    retreats = {"AUSTRIA": ["F GRE - AEG", "F GRE stays fleet"]}
    _, retreated = play_season(sahara, spring_1903, {**ATTACK, "AUSTRIA": ["F GRE H"]}, retreats)

    assert [r["outcome"] for r in retreated.results if r["power"] == "AUSTRIA"] == ["success", "success"]
    assert {r["order"] for r in retreated.results if r["power"] == "AUSTRIA"} == {
        "F GRE R AEG",
        "F GRE stays fleet",
    }
    assert "AEG" not in retreated.position.units


def test_e16_the_instruction_is_carried_by_the_command_lines_next_request(spring_1903: MapState) -> None:
    from dipserver.engine.chronicle import map_at

    printed = map_at(load_variant("sahara"), "S1903M", {"mode": "exact", "errata": True})
    request = {
        "variant": "sahara",
        "phase": "S1903M",
        "units": {"AUSTRIA": ["F GRE"], "TURKEY": ["A BUL", "A ALB"], "ITALY": ["A ION"]},
        "centers": {},
        "map": printed,
        "orders": {**ATTACK, "AUSTRIA": ["F GRE H", "F GRE stays fleet"]},
    }
    moved = adjudicate_request(request)
    assert moved["next"]["dislodged"]["AUSTRIA"] == [
        {"unit": "F GRE", "retreats": ["AEG"], "stays_fleet": True}
    ]

    retreated = adjudicate_request({**moved["next"], "orders": {"AUSTRIA": ["F GRE - AEG"]}})
    assert "error" not in retreated, retreated
    assert retreated["next"]["units"]["AUSTRIA"] == []


def test_e16_the_retreat_phase_offers_the_instruction_for_the_dislodged_fleet(
    sahara: Variant, spring_1903: MapState
) -> None:
    from dipserver.engine.board import board_for
    from dipserver.engine.options import legal_options

    moved = play_phase(sahara, spring_1903, START, {**ATTACK, "AUSTRIA": ["F GRE H"]})
    offered = legal_options(board_for(sahara, moved.map_state), moved.position, "AUSTRIA")

    assert [o.text for o in offered.conversions] == ["F GRE stays fleet"]
    assert [o.text for o in offered.units["GRE"]] == ["F GRE R AEG", "F GRE D"]
