"""One phase from snapshot and order texts to the next snapshot, without a database."""

from __future__ import annotations

from dipserver.engine.board import board_for
from dipserver.engine.variant import load_variant
from dipserver.games.mappers import map_state_of, position_of, snapshot_from
from dipserver.games.turn import orders_read, powers_to_act, turn_play


def play(variant, snapshot, orders=None, **kwargs):
    return turn_play(
        variant=variant, options={}, secret="0" * 64, snapshot=snapshot, order_texts=orders or {}, **kwargs
    )


def test_orders_are_adjudicated_and_the_empty_retreat_phase_is_skipped():
    standard = load_variant("standard")
    start = snapshot_from(standard.map_state, standard.start)

    turn = play(standard, start, {"ENGLAND": ["F LON - NTH", "A LVP - YOR"], "FRANCE": ["A PAR - BUR"]})

    assert turn.next_snapshot["phase"] == "F1901M"
    assert turn.skipped == ["S1901R"]
    assert turn.orders == {"ENGLAND": ["F LON - NTH", "A LVP - YOR"], "FRANCE": ["A PAR - BUR"]}
    assert {"power": "ENGLAND", "type": "F", "location": "NTH"} in turn.next_snapshot["units"]
    assert all(r["outcome"] == "success" for r in turn.results)
    assert not turn.over


def test_a_stored_order_that_no_longer_reads_is_recorded_as_invalid_and_the_unit_holds():
    standard = load_variant("standard")
    start = snapshot_from(standard.map_state, standard.start)

    turn = play(standard, start, {"ENGLAND": ["F LON - MOS"]})

    [result] = turn.results
    assert result["outcome"] == "invalid" and result["reason"]
    assert {"power": "ENGLAND", "type": "F", "location": "LON"} in turn.next_snapshot["units"]


def test_powers_to_act_follows_the_phase_type():
    standard = load_variant("standard")
    start = snapshot_from(standard.map_state, standard.start)
    assert len(powers_to_act(start)) == 7
    assert powers_to_act({**start, "phase": "F1901R"}) == set()
    winter = {**start, "phase": "W1901A", "owners": {**start["owners"], "BEL": "FRANCE"}}
    assert powers_to_act(winter) == {"FRANCE"}


def test_a_power_reaching_the_victory_count_after_fall_wins_and_the_game_is_over():
    standard = load_variant("standard")
    start = snapshot_from(standard.map_state, standard.start)
    turkish = [u for u in start["units"] if u["power"] == "TURKEY"]
    centres = start["map"]["supply_centres"][:18]
    fall = {**start, "phase": "F1905M", "units": turkish, "owners": dict.fromkeys(centres, "TURKEY")}

    turn = play(standard, fall)

    assert (turn.over, turn.result, turn.winners) == (True, "win", ("TURKEY",))


def test_the_last_year_ends_the_game_with_no_winner():
    standard = load_variant("standard")
    start = snapshot_from(standard.map_state, standard.start)

    spring = play(standard, start, end_year=1901)
    fall = play(standard, spring.next_snapshot, end_year=1901)

    assert not spring.over
    assert (fall.over, fall.result, fall.winners) == (True, "no_winner", ())


def test_a_timeline_changes_the_map_between_phases_and_records_the_events():
    wall = load_variant("wall_of_ice")
    snapshot = snapshot_from(wall.map_state, wall.start)
    seen = []
    for _ in range(12):
        turn = play(wall, snapshot)
        seen.extend(turn.events)
        snapshot = turn.next_snapshot
        if seen:
            break

    terrain_changes = [e for e in seen if e["kind"] == "terrain"]
    assert terrain_changes, "Wall of Ice freezes a sea within the first years"
    change = terrain_changes[0]
    assert snapshot["map"]["terrain"][change["province"]] == change["to"]


def test_wall_of_ice_fleets_become_armies_after_the_winter():
    wall = load_variant("wall_of_ice")
    start = snapshot_from(wall.map_state, wall.start)
    winter = {**start, "phase": "W1901A"}
    turn = play(wall, winter, {"FRANCE": ["F BRE becomes army"]})

    assert turn.orders == {"FRANCE": ["F BRE becomes army"]}
    assert {"power": "FRANCE", "type": "A", "location": "BRE"} in turn.next_snapshot["units"]
    assert turn.results[-1]["outcome"] == "success"


def test_conversion_orders_are_checked_with_reasons():
    wall, standard = load_variant("wall_of_ice"), load_variant("standard")
    wall_start = snapshot_from(wall.map_state, wall.start)
    board = board_for(wall, map_state_of(wall_start))

    [line] = orders_read("F BRE becomes army", board, position_of(wall_start), "FRANCE")
    assert line.error == "A fleet becomes an army only in a Winter adjustment phase"

    standard_start = snapshot_from(standard.map_state, standard.start)
    standard_board = board_for(standard, map_state_of(standard_start))
    [line] = orders_read("F LON becomes army", standard_board, position_of(standard_start), "ENGLAND")
    assert "has no order to turn a fleet into an army" in line.error


def test_a_sahara_fleet_told_to_stay_a_fleet_keeps_the_instruction_through_its_stored_retreat():
    # E16: Austria's fleet in Greece, dislodged in Spring 1903, retreats to the Aegean, which dries after the
    # retreats; the instruction given with the movement orders is kept in the stored retreat phase.
    from dipserver.adjudicator.turnio import map_state
    from dipserver.engine.chronicle import map_at
    from dipserver.engine.position import Position
    from dipserver.engine.types import Phase, Unit, UnitType

    sahara = load_variant("sahara")
    spring_map = map_state(sahara, map_at(sahara, "S1903M", {"mode": "exact", "errata": True}))
    units = [Unit("AUSTRIA", UnitType.FLEET, "GRE"), Unit("TURKEY", UnitType.ARMY, "BUL")]
    units += [Unit("TURKEY", UnitType.ARMY, "ALB"), Unit("ITALY", UnitType.ARMY, "ION")]
    spring = snapshot_from(spring_map, Position(Phase.parse("S1903M"), {u.province: u for u in units}, {}))
    orders = {"TURKEY": ["A BUL - GRE", "A ALB S A BUL - GRE"], "AUSTRIA": ["F GRE H", "F GRE stays fleet"]}

    moved = play(sahara, spring, orders)
    assert moved.next_snapshot["dislodged"][0]["stays_fleet"] is True
    retreated = play(sahara, moved.next_snapshot, {"AUSTRIA": ["F GRE - AEG"]})

    assert not [u for u in retreated.next_snapshot["units"] if u["power"] == "AUSTRIA"]
