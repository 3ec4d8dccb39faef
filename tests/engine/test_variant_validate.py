"""validate(): a sound map gives no problems; each kind of unsound map is named."""

from __future__ import annotations

import dataclasses

from dipserver.engine.board import MapState
from dipserver.engine.position import Position
from dipserver.engine.types import Terrain, Unit, UnitType
from dipserver.engine.validate import asymmetric_borders, notes, validate
from dipserver.engine.variant import Variant


def _state(variant: Variant, **changes: object) -> MapState:
    return dataclasses.replace(variant.map_state, **changes)


def _terrain(variant: Variant, **terrain: Terrain) -> dict[str, Terrain]:
    return {**variant.map_state.terrain, **terrain}


def test_the_standard_map_and_start_are_sound(standard: Variant) -> None:
    assert validate(standard, position=standard.start) == []


def test_asymmetric_borders_are_reported(standard: Variant) -> None:
    broken = dataclasses.replace(
        standard, borders={**standard.borders, "PAR": standard.borders["PAR"] | {"MUN"}}
    )
    assert asymmetric_borders(broken) == ["PAR borders MUN but MUN does not border PAR"]


def test_a_coast_with_no_water_is_reported(standard: Variant) -> None:
    dried = _terrain(standard, BAR=Terrain.LAND)
    assert "coast STP/NC touches no water" in validate(standard, _state(standard, terrain=dried))


def test_a_frozen_coast_is_still_a_coast(standard: Variant) -> None:
    frozen = _terrain(standard, BAR=Terrain.IMPASSABLE)
    assert validate(standard, _state(standard, terrain=frozen)) == []


def test_a_province_walled_in_during_play_is_a_note_not_a_problem(standard: Variant) -> None:
    # Syria's only neighbours closed: no unit can ever reach it. A timeline may do that on purpose (Wall
    # of Ice cuts Britain off), so on a changed map it is a note; on a start map it would be a problem.
    walls = _terrain(standard, ARM=Terrain.IMPASSABLE, SMY=Terrain.IMPASSABLE, EAS=Terrain.IMPASSABLE)
    walled = _state(standard, terrain=walls)
    assert "SYR (Syria) cannot be reached from the rest of the map" in notes(standard, walled)
    assert not [p for p in validate(standard, walled) if "cannot be reached" in p]


def test_centres_must_be_on_the_board(standard: Variant) -> None:
    gone = _terrain(standard, TUN=Terrain.ABSENT)
    assert "supply centre TUN is on absent terrain" in validate(standard, _state(standard, terrain=gone))


def test_homes_must_be_centres(standard: Variant) -> None:
    state = _state(standard, homes={**standard.map_state.homes, "PIC": "FRANCE"})
    assert "home centre PIC of FRANCE is not a supply centre" in validate(standard, state)


def test_units_on_closed_or_wrong_terrain_are_reported(standard: Variant) -> None:
    units = {
        **standard.start.units,
        "NTH": Unit("ENGLAND", UnitType.ARMY, "NTH"),
        "BOH": Unit("AUSTRIA", UnitType.FLEET, "BOH"),
        "SKA": Unit("GERMANY", UnitType.FLEET, "SKA"),
    }
    frozen = _state(standard, terrain=_terrain(standard, SKA=Terrain.IMPASSABLE))
    problems = validate(standard, frozen, Position(standard.start.phase, units, standard.start.owners))
    assert problems == [
        "F BOH of AUSTRIA: a fleet cannot stand at BOH",
        "A NTH of ENGLAND: an army cannot stand at NTH",
        "F SKA of GERMANY stands on impassable SKA",
    ]
