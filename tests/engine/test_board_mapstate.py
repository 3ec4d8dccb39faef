"""The board follows the per-phase MapState: the same derivation rules on a changed map.

These are the three kinds of change the mutating variants make: a sea freezes (Wall of Ice), a sea dries
into land (Sahara), a land province sinks and new coasts appear (Deluge).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path

import pytest

from dipserver.engine.board import Board, MapState, board_for
from dipserver.engine.types import Terrain, UnitType
from dipserver.engine.variant import Variant, VariantError, load_variant


def _changed(variant: Variant, coasts: dict | None = None, **terrain: Terrain) -> MapState:
    state = variant.map_state
    new_terrain = {**state.terrain, **terrain}
    new_coasts = dict(state.coasts) if coasts is None else coasts
    return dataclasses.replace(state, terrain=new_terrain, coasts=new_coasts)


def test_map_states_compare_and_hash_by_value(standard: Variant) -> None:
    a = _changed(standard, BAR=Terrain.IMPASSABLE)
    b = _changed(standard, BAR=Terrain.IMPASSABLE)
    assert a == b and hash(a) == hash(b)
    assert a != standard.map_state


def test_board_for_is_memoised_per_map_state(standard: Variant) -> None:
    frozen = _changed(standard, BAR=Terrain.IMPASSABLE)
    assert board_for(standard, frozen) is board_for(standard, _changed(standard, BAR=Terrain.IMPASSABLE))
    assert board_for(standard, frozen) is not board_for(standard, standard.map_state)


def test_a_frozen_sea_is_never_entered_but_keeps_its_coastline(standard: Variant) -> None:
    board = board_for(standard, _changed(standard, BAR=Terrain.IMPASSABLE, NWG=Terrain.IMPASSABLE))
    assert board.fleet_moves("BAR") == frozenset()  # nothing can stand there
    assert "BAR" not in board.fleet_moves("STP/NC")
    assert "NWG" not in board.fleet_moves("NTH")
    # Wall of Ice ruling E4/E21: a fleet on the north coast still sails along it to Norway.
    assert board.fleet_moves("STP/NC") == {"NWY"}
    # ...but only open water makes a place coastal for builds (E13/E25).
    assert board.coast_waters("STP/NC") == frozenset()
    assert board.is_coastal("STP")  # the south coast is still open


def test_sahara_desert_over_a_dried_sea_is_no_coastline() -> None:
    # The same frozen Barents Sea in Sahara is desert (variant.toml: impassable_seas = "closed"): the
    # fleet on St Petersburg's north coast has no water left to sail along to Norway (E21).
    sahara = load_variant("sahara")
    assert sahara.impassable_seas == "closed"
    board = board_for(sahara, _changed(sahara, BAR=Terrain.IMPASSABLE, NWG=Terrain.IMPASSABLE))
    assert board.fleet_moves("STP/NC") == frozenset()
    assert "NWY" not in board.fleet_moves("STP/NC")
    assert "BAR" not in board.fleet_moves("NWY")


def test_the_coast_setting_is_checked_when_the_variant_loads(variant_copy: Callable[..., Path]) -> None:
    folder = variant_copy("sahara", {"variant.toml": lambda t: t.replace('"closed"', '"desert"')})
    variant_copy("standard")
    with pytest.raises(VariantError, match="impassable_seas' must be one of"):
        load_variant("sahara", root=folder.parent)


def test_a_dried_sea_becomes_land_for_armies(standard: Variant) -> None:
    board = board_for(standard, _changed(standard, IRI=Terrain.LAND))
    assert board.army_moves("IRI") == {"LVP", "WAL"}
    assert "IRI" in board.army_moves("WAL")
    # It is a coastal province now: fleets enter it from the seas it touches, and along the coast.
    assert board.fleet_moves("IRI") == {"ENG", "MAO", "NAO", "LVP", "WAL"}
    assert board.is_coastal("IRI")
    # Liverpool and Wales no longer share the Irish Sea, but Liverpool still reaches NAO.
    assert "WAL" not in board.fleet_moves("LVP")
    assert "IRI" in board.fleet_moves("LVP")


def test_land_locked_by_drying_loses_its_fleet_moves(standard: Variant) -> None:
    board = board_for(standard, _changed(standard, SKA=Terrain.LAND, BAL=Terrain.LAND, BOT=Terrain.LAND))
    assert not board.is_coastal("SWE")  # every sea Sweden touched is now land
    assert board.fleet_locations("SWE") == ()
    assert board.army_moves("SWE") == {"BAL", "BOT", "DEN", "FIN", "NWY", "SKA"}


def test_a_sunk_province_is_a_sea_with_new_coasts(standard: Variant) -> None:
    # Deluge: Venice sinks; Rome, Tuscany and Piedmont now touch two separate waters (ruling E5).
    coasts = {
        **standard.map_state.coasts,
        "ROM": {"WC": frozenset({"TYS"}), "EC": frozenset({"VEN"})},
        "PIE": {"WC": frozenset({"LYO"}), "EC": frozenset({"VEN"})},
    }
    board = board_for(standard, _changed(standard, coasts=coasts, VEN=Terrain.SEA))
    assert board.is_water("VEN")
    assert board.coasts("ROM") == ("EC", "WC")
    # Tyrolia, single-coast, gains a coastline on the new sea.
    assert board.fleet_moves("VEN") == {"ADR", "APU", "PIE/EC", "ROM/EC", "TRI", "TUS", "TYR"}
    assert board.fleet_moves("ROM/EC") == {"APU", "TUS", "VEN"}
    assert board.fleet_moves("ROM/WC") == {"NAP", "TUS", "TYS"}
    assert board.fleet_reachable_coasts("TUS", "ROM") == ("ROM/EC", "ROM/WC")
    assert "VEN" not in board.army_moves("ROM")
    assert not board.can_occupy(UnitType.ARMY, "VEN")


def test_absent_provinces_are_not_on_the_board(standard: Variant) -> None:
    board = board_for(standard, _changed(standard, SYR=Terrain.ABSENT))
    assert "SYR" not in board.provinces
    assert "SYR" not in board.army_moves("ARM")
    assert board.terrain("SYR") is Terrain.ABSENT


def test_fleets_are_built_only_on_open_water(standard: Variant, board: Board) -> None:
    assert board.fleet_build_locations("STP") == ("STP/NC", "STP/SC")
    assert board.fleet_build_locations("LON") == ("LON",)
    assert board.fleet_build_locations("MOS") == ()
    frozen = board_for(standard, _changed(standard, BAR=Terrain.IMPASSABLE))
    assert frozen.fleet_build_locations("STP") == ("STP/SC",)
    icebound = board_for(standard, _changed(standard, BAR=Terrain.IMPASSABLE, BOT=Terrain.IMPASSABLE))
    assert icebound.fleet_build_locations("STP") == ()
