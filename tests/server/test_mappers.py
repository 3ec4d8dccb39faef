"""Snapshots: every engine value survives the trip to JSON and back."""

from __future__ import annotations

import json

from dipserver.engine.dislodged import Dislodged
from dipserver.engine.position import Position
from dipserver.engine.types import Phase, Unit, UnitType
from dipserver.engine.variant import load_variant
from dipserver.games.mappers import map_state_of, position_of, snapshot_from


def test_the_start_of_a_game_round_trips_through_json():
    variant = load_variant("standard")
    snapshot = json.loads(json.dumps(snapshot_from(variant.map_state, variant.start)))

    assert map_state_of(snapshot) == variant.map_state
    position = position_of(snapshot)
    assert position.phase == variant.start.phase
    assert dict(position.units) == dict(variant.start.units)
    assert dict(position.owners) == dict(variant.start.owners)


def test_snapshot_holds_the_whole_map_including_named_coasts():
    variant = load_variant("standard")
    snapshot = snapshot_from(variant.map_state, variant.start)

    assert snapshot["phase"] == "S1901M"
    assert len(snapshot["map"]["terrain"]) == len(variant.map_state.terrain)
    assert set(snapshot["map"]["coasts"]["STP"]) == {"NC", "SC"}
    assert len(snapshot["map"]["supply_centres"]) == 34
    assert {"power": "RUSSIA", "type": "F", "location": "STP/SC"} in snapshot["units"]


def test_dislodged_units_keep_their_retreat_options_and_attacker():
    variant = load_variant("standard")
    unit = Unit("FRANCE", UnitType.ARMY, "BUR")
    position = Position(
        Phase.parse("F1902R"),
        units={"BUR": Unit("GERMANY", UnitType.ARMY, "BUR")},
        owners={"PAR": "FRANCE"},
        dislodged={"BUR": Dislodged(unit, "MUN", ("GAS", "PAR"))},
        last_occupants={"HOL": "GERMANY"},
    )

    back = position_of(json.loads(json.dumps(snapshot_from(variant.map_state, position))))

    assert back.dislodged["BUR"] == Dislodged(unit, "MUN", ("GAS", "PAR"))
    assert dict(back.last_occupants) == {"HOL": "GERMANY"}
    assert back.phase == Phase.parse("F1902R")


def test_an_af_keeps_its_army_aboard_through_json():
    # Abstraction (Deluge's rule 7): a fleet with an army aboard is stored as such, also while dislodged.
    variant = load_variant("deluge")
    af = Unit("ENGLAND", UnitType.FLEET, "NTH", aboard=True)
    hit = Unit("FRANCE", UnitType.FLEET, "ENG", aboard=True)
    position = Position(
        Phase.parse("S1902R"), {"NTH": af}, {"EDI": "ENGLAND"}, {"ENG": Dislodged(hit, "WAL", ("MAO",))}
    )
    snapshot = json.loads(json.dumps(snapshot_from(variant.map_state, position)))
    assert snapshot["units"] == [{"power": "ENGLAND", "type": "F", "location": "NTH", "aboard": True}]
    back = position_of(snapshot)
    assert back.units["NTH"] == af and back.dislodged["ENG"].unit == hit
