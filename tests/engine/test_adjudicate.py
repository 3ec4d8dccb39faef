"""The phase pipeline: which phase comes next, when centres change hands, what every order is told.

The DATC suite (tests/engine/datc) covers the rules of resolution; these tests cover what wraps them:
skipping phases with nothing to decide, ownership after Fall, the build rule, and the results and reasons
a player sees.
"""

from __future__ import annotations

import pytest

from dipserver.engine.adjudicate import adjudicate
from dipserver.engine.board import Board
from dipserver.engine.lateorders import Build, Disband, Retreat, Waive
from dipserver.engine.orders import Convoy, Hold, Move, OrderResult, Outcome, SupportHold, SupportMove
from dipserver.engine.position import Position
from dipserver.engine.types import Phase, Unit, UnitType


def units(text: str) -> dict[str, Unit]:
    """``"ENGLAND: F LON, A YOR; FRANCE: A PAR"`` -> units keyed by province."""
    out: dict[str, Unit] = {}
    for block in text.split(";"):
        power, _, rest = block.partition(":")
        for item in rest.split(","):
            kind, loc = item.split()
            unit = Unit(power.strip(), UnitType(kind), loc)
            out[unit.province] = unit
    return out


def at(phase: str, where: str, owners: dict[str, str] | None = None) -> Position:
    return Position(Phase.parse(phase), units(where), owners or {})


def result_of(results: tuple[OrderResult, ...], order: object) -> OrderResult:
    (found,) = [r for r in results if r.order == order]
    return found


# --- which phase comes next ------------------------------------------------------------------------


def test_spring_without_dislodgement_skips_the_retreats(board: Board) -> None:
    done = adjudicate(board, at("S1901M", "FRANCE: A PAR"), {"FRANCE": [Move("PAR", "BUR")]})
    assert str(done.next_phase) == "F1901M"
    assert [str(p) for p in done.skipped] == ["S1901R"]
    assert done.position.units["BUR"] == Unit("FRANCE", UnitType.ARMY, "BUR")


def test_a_dislodged_unit_with_somewhere_to_go_opens_the_retreat_phase(board: Board) -> None:
    start = at("S1901M", "GERMANY: A MUN, A RUH; FRANCE: A BUR, A PAR")
    orders = {"GERMANY": [Move("MUN", "BUR"), SupportMove("RUH", "MUN", "BUR")], "FRANCE": [Hold("BUR")]}
    done = adjudicate(board, start, orders)
    assert str(done.next_phase) == "S1901R"
    waiting = done.position.dislodged["BUR"]
    assert waiting.attacker_from == "MUN"
    # Not Munich, where the attack came from, nor the occupied Ruhr and Paris.
    assert waiting.retreats == ("BEL", "GAS", "MAR", "PIC")
    assert result_of(done.results, Hold("BUR")) == OrderResult(
        "FRANCE", Hold("BUR"), Outcome.DISLODGED, "", dislodged=True
    )


def test_a_dislodged_unit_with_nowhere_to_go_is_disbanded_at_once(board: Board) -> None:
    start = at("S1901M", "TURKEY: F BLA, F CON, A ARM, A SMY; RUSSIA: F ANK")
    orders = {"TURKEY": [Move("BLA", "ANK"), SupportMove("CON", "BLA", "ANK"), Hold("ARM"), Hold("SMY")]}
    done = adjudicate(board, start, orders)
    assert str(done.next_phase) == "F1901M"
    assert not done.position.dislodged
    assert "ANK" in done.position.units and done.position.units["ANK"].power == "TURKEY"
    auto = result_of(done.results, Disband("ANK"))
    assert (auto.power, auto.outcome, auto.reason) == (
        "RUSSIA",
        Outcome.SUCCESS,
        "Dislodged with nowhere to retreat to",
    )


def test_centres_change_hands_after_fall_not_after_spring(board: Board) -> None:
    owners = {"BEL": "FRANCE", "PAR": "FRANCE"}
    spring = adjudicate(board, at("S1901M", "GERMANY: A RUH", owners), {"GERMANY": [Move("RUH", "BEL")]})
    assert spring.position.owners["BEL"] == "FRANCE"
    fall = adjudicate(board, spring.position, {})
    assert fall.position.owners["BEL"] == "GERMANY"
    assert fall.position.owners["PAR"] == "FRANCE"  # vacant centres keep their owner


def test_fall_goes_to_winter_when_someone_can_build(board: Board) -> None:
    owners = {"BER": "GERMANY", "KIE": "GERMANY", "MUN": "GERMANY", "HOL": "FRANCE"}
    done = adjudicate(board, at("F1901M", "GERMANY: A RUH", owners), {"GERMANY": [Move("RUH", "HOL")]})
    assert str(done.next_phase) == "W1901A"
    assert done.position.owners["HOL"] == "GERMANY"


def test_fall_skips_winter_when_nobody_can_adjust(board: Board) -> None:
    # Germany may build but has no vacant home centre: nothing to decide.
    owners = {"BER": "GERMANY", "KIE": "GERMANY", "HOL": "GERMANY"}
    start = at("F1901M", "GERMANY: A BER, F KIE", owners)
    done = adjudicate(board, start, {})
    assert str(done.next_phase) == "S1902M"
    assert [str(p) for p in done.skipped] == ["F1901R", "W1901A"]


def test_a_fall_retreat_onto_a_centre_takes_it(board: Board) -> None:
    start = at("F1901M", "GERMANY: A MUN, A RUH; FRANCE: A BUR", {"BEL": "ENGLAND", "BUR": "FRANCE"})
    start = adjudicate(
        board,
        start,
        {"GERMANY": [Move("MUN", "BUR"), SupportMove("RUH", "MUN", "BUR")], "FRANCE": [Hold("BUR")]},
    ).position
    assert str(start.phase) == "F1901R"
    done = adjudicate(board, start, {"FRANCE": [Retreat("BUR", "BEL")]})
    assert done.position.owners["BEL"] == "FRANCE"
    assert str(done.next_phase) == "W1901A"  # France lost nothing but gained Belgium: one build


def test_winter_leads_to_next_spring(board: Board) -> None:
    start = at("W1901A", "RUSSIA: A MOS", {"MOS": "RUSSIA", "WAR": "RUSSIA"})
    done = adjudicate(board, start, {"RUSSIA": [Build("RUSSIA", UnitType.ARMY, "WAR")]})
    assert str(done.next_phase) == "S1902M"
    assert done.position.units["WAR"] == Unit("RUSSIA", UnitType.ARMY, "WAR")


def test_fields_the_pipeline_does_not_know_are_carried_over(board: Board) -> None:
    start = at("S1901M", "FRANCE: A PAR")
    start = Position(start.phase, start.units, start.owners, last_occupants={"BUR": "GERMANY"})
    done = adjudicate(board, start, {})
    assert done.position.last_occupants == {"BUR": "GERMANY"}


# --- movement results ---------------------------------------------------------------------------


def test_every_order_gets_a_result_in_the_order_given(board: Board) -> None:
    orders = [Move("PAR", "MUN"), Hold("BRE"), Move("MAR", "SPA"), Move("LON", "WAL")]
    done = adjudicate(board, at("S1901M", "FRANCE: A PAR, F BRE, A MAR"), {"FRANCE": orders})
    assert [r.order for r in done.results] == orders
    assert [r.outcome for r in done.results] == [
        Outcome.INVALID,
        Outcome.SUCCESS,
        Outcome.SUCCESS,
        Outcome.INVALID,
    ]
    assert done.results[0].reason == "The army in Paris cannot reach Munich"
    assert done.results[3].reason == "There is no unit in London"


def test_ordering_another_powers_unit_is_invalid(board: Board) -> None:
    done = adjudicate(board, at("S1901M", "ENGLAND: F LON"), {"FRANCE": [Move("LON", "ENG")]})
    assert done.results[0].outcome is Outcome.INVALID
    assert done.results[0].reason == "The unit in London belongs to ENGLAND, not FRANCE"
    assert "LON" in done.position.units


def test_two_different_orders_make_the_unit_hold_and_it_can_be_supported(board: Board) -> None:
    start = at("S1901M", "GERMANY: A MUN, A BER; FRANCE: A BUR, A PAR")
    orders = {
        "GERMANY": [Move("MUN", "BUR"), SupportMove("BER", "MUN", "BUR")],
        "FRANCE": [Move("BUR", "BEL"), Move("BUR", "PIC"), SupportHold("PAR", "BUR")],
    }
    done = adjudicate(board, start, orders)
    assert result_of(done.results, Move("BUR", "BEL")).outcome is Outcome.INVALID
    assert "given different orders" in result_of(done.results, Move("BUR", "PIC")).reason
    assert result_of(done.results, SupportHold("PAR", "BUR")).outcome is Outcome.SUCCESS
    assert done.position.units["BUR"].power == "FRANCE"


def test_a_repeated_order_counts_once(board: Board) -> None:
    done = adjudicate(
        board, at("S1901M", "FRANCE: A PAR"), {"FRANCE": [Move("PAR", "BUR"), Move("PAR", "BUR")]}
    )
    assert [r.outcome for r in done.results] == [Outcome.SUCCESS, Outcome.VOID]
    assert done.results[1].reason == "Repeated order"


def test_bounce_cut_and_void_are_told_apart(board: Board) -> None:
    start = at("S1901M", "AUSTRIA: A VIE, A BUD, A BOH; RUSSIA: A GAL, A WAR, A RUM")
    orders = {
        "AUSTRIA": [Move("VIE", "GAL"), SupportMove("BUD", "VIE", "GAL"), SupportMove("BOH", "BUD", "GAL")],
        "RUSSIA": [Move("WAR", "GAL"), Move("RUM", "BUD"), Hold("GAL")],
    }
    done = adjudicate(board, start, orders)
    assert result_of(done.results, Move("VIE", "GAL")).outcome is Outcome.BOUNCE
    assert result_of(done.results, SupportMove("BUD", "VIE", "GAL")).outcome is Outcome.CUT
    void = result_of(done.results, SupportMove("BOH", "BUD", "GAL"))
    assert (void.outcome, void.reason) == (Outcome.VOID, "The army in Budapest did not move to Galicia")
    assert result_of(done.results, Move("WAR", "GAL")).outcome is Outcome.BOUNCE


def test_a_fleet_must_name_the_coast_when_two_are_reachable(board: Board) -> None:
    done = adjudicate(board, at("S1901M", "FRANCE: F MAO"), {"FRANCE": [Move("MAO", "SPA")]})
    assert done.results[0].outcome is Outcome.INVALID
    assert done.results[0].reason == (
        "The fleet in Mid-Atlantic Ocean can reach Spain (north coast) or Spain (south coast): name the coast"
    )


def test_a_convoy_with_two_routes_survives_losing_one(board: Board) -> None:
    start = at("S1901M", "ENGLAND: A LON, F ENG, F NTH; FRANCE: F BRE, F MAO; GERMANY: F HEL, F DEN")
    orders = {
        "ENGLAND": [Move("LON", "BEL"), Convoy("ENG", "LON", "BEL"), Convoy("NTH", "LON", "BEL")],
        "FRANCE": [Move("BRE", "ENG"), SupportMove("MAO", "BRE", "ENG")],
    }
    done = adjudicate(board, start, orders)
    assert done.position.units["BEL"] == Unit("ENGLAND", UnitType.ARMY, "BEL")
    assert result_of(done.results, Convoy("ENG", "LON", "BEL")).outcome is Outcome.DISLODGED


def test_a_move_by_convoy_without_fleets_ordered_is_no_convoy(board: Board) -> None:
    done = adjudicate(board, at("S1901M", "ENGLAND: A LON, F NTH"), {"ENGLAND": [Move("LON", "NWY")]})
    assert done.results[0].outcome is Outcome.NO_CONVOY
    assert done.results[0].reason == "No fleets were ordered to convoy it to Norway"


def test_an_army_may_not_be_convoyed_where_no_fleet_could_carry_it(board: Board) -> None:
    done = adjudicate(board, at("S1901M", "ENGLAND: A LON"), {"ENGLAND": [Move("LON", "NWY")]})
    assert (done.results[0].outcome, done.results[0].reason) == (
        Outcome.INVALID,
        "The army in London cannot reach Norway",
    )


# --- retreats -----------------------------------------------------------------------------------


@pytest.fixture
def retreating(board: Board) -> Position:
    """Spring 1901 retreats: the French army in Burgundy was dislodged from Munich."""
    start = at("S1901M", "GERMANY: A MUN, A RUH; FRANCE: A BUR, A PAR")
    orders = {"GERMANY": [Move("MUN", "BUR"), SupportMove("RUH", "MUN", "BUR")], "FRANCE": [Hold("BUR")]}
    return adjudicate(board, start, orders).position


def test_a_valid_retreat_moves_the_unit(board: Board, retreating: Position) -> None:
    done = adjudicate(board, retreating, {"FRANCE": [Retreat("BUR", "GAS")]})
    assert done.position.units["GAS"] == Unit("FRANCE", UnitType.ARMY, "GAS")
    assert str(done.next_phase) == "F1901M"


def test_a_retreat_to_the_attackers_origin_is_invalid_and_the_unit_disbanded(
    board: Board, retreating: Position
) -> None:
    done = adjudicate(board, retreating, {"FRANCE": [Retreat("BUR", "MUN")]})
    assert done.results[0].outcome is Outcome.INVALID
    assert done.results[0].reason.startswith("The dislodged army in Burgundy cannot retreat to Munich")
    assert done.results[1] == OrderResult(
        "FRANCE", Disband("BUR"), Outcome.SUCCESS, "No valid retreat was ordered"
    )
    assert len(done.position.units) == 3


def test_an_unordered_dislodged_unit_is_disbanded(board: Board, retreating: Position) -> None:
    done = adjudicate(board, retreating, {})
    assert "BUR" not in {u.province for u in done.position.units.values() if u.power == "FRANCE"}
    assert done.results == (
        OrderResult("FRANCE", Disband("BUR"), Outcome.SUCCESS, "No valid retreat was ordered"),
    )


def test_movement_orders_are_not_retreat_orders(board: Board, retreating: Position) -> None:
    done = adjudicate(board, retreating, {"FRANCE": [Move("PAR", "GAS")]})
    assert done.results[0].reason == "Move orders are not given in a retreat phase"


# --- adjustments --------------------------------------------------------------------------------


def test_builds_only_on_vacant_owned_home_centres_by_default(board: Board) -> None:
    owners = {"BER": "GERMANY", "KIE": "GERMANY", "MUN": "GERMANY", "HOL": "GERMANY", "DEN": "GERMANY"}
    start = at("W1901A", "GERMANY: A BER", owners)
    orders = [
        Build("GERMANY", UnitType.ARMY, "HOL"),
        Build("GERMANY", UnitType.ARMY, "BER"),
        Build("GERMANY", UnitType.FLEET, "MUN"),
        Build("GERMANY", UnitType.FLEET, "KIE"),
        Build("GERMANY", UnitType.ARMY, "MUN"),
    ]
    done = adjudicate(board, start, {"GERMANY": orders})
    assert [r.outcome for r in done.results] == [
        Outcome.INVALID,
        Outcome.INVALID,
        Outcome.INVALID,
        Outcome.SUCCESS,
        Outcome.SUCCESS,
    ]
    assert [r.reason for r in done.results[:3]] == [
        "Holland is not a vacant supply centre where GERMANY may build",
        "Berlin is already occupied",
        "A fleet cannot be built in Munich: it is not on the coast",
    ]


def test_the_build_rule_can_allow_any_owned_centre(board: Board) -> None:
    start = at("W1901A", "GERMANY: A BER", {"BER": "GERMANY", "HOL": "GERMANY"})
    done = adjudicate(board, start, {"GERMANY": [Build("GERMANY", UnitType.ARMY, "HOL")]}, build_rule="owned")
    assert done.results[0].outcome is Outcome.SUCCESS
    assert done.position.units["HOL"].power == "GERMANY"


def test_a_waive_uses_up_a_build(board: Board) -> None:
    start = at("W1901A", "RUSSIA: A MOS", {"MOS": "RUSSIA", "WAR": "RUSSIA"})
    done = adjudicate(board, start, {"RUSSIA": [Waive("RUSSIA"), Build("RUSSIA", UnitType.ARMY, "WAR")]})
    assert [r.outcome for r in done.results] == [Outcome.SUCCESS, Outcome.INVALID]
    assert done.results[1].reason == "RUSSIA has no builds left"


def test_a_fleet_in_st_petersburg_needs_its_coast(board: Board) -> None:
    start = at("W1901A", "RUSSIA: A MOS", {"MOS": "RUSSIA", "STP": "RUSSIA"})
    done = adjudicate(board, start, {"RUSSIA": [Build("RUSSIA", UnitType.FLEET, "STP")]})
    assert done.results[0].reason == (
        "Name the coast to build a fleet in St Petersburg: St Petersburg (north coast) or "
        "St Petersburg (south coast)"
    )
    done = adjudicate(board, start, {"RUSSIA": [Build("RUSSIA", UnitType.FLEET, "STP/NC")]})
    assert done.position.units["STP"] == Unit("RUSSIA", UnitType.FLEET, "STP/NC")


def test_too_few_disbands_are_completed_by_civil_disorder(board: Board) -> None:
    start = at("W1901A", "FRANCE: A PAR, A PIC, A BUR, F MAO", {"PAR": "FRANCE"})
    done = adjudicate(board, start, {"FRANCE": [Disband("PIC")]})
    assert [(r.order, r.outcome) for r in done.results] == [
        (Disband("PIC"), Outcome.SUCCESS),
        (Disband("MAO"), Outcome.SUCCESS),  # distance 3 to Paris, the farthest
        (Disband("BUR"), Outcome.SUCCESS),  # distance 1, like none left but Paris itself
    ]
    assert done.results[1].reason == "Civil disorder: too few units were removed"
    assert list(done.position.units) == ["PAR"]


def test_a_power_cannot_help_a_convoyed_foreign_army_dislodge_its_own_unit(board: Board) -> None:
    # DATC 6.D.12 with the attacker convoyed from next door (found where the diplomacy package differs).
    start = at("S1903M", "RUSSIA: A SEV, F BLA; TURKEY: F ANK, A ARM, A SMY")
    orders = {
        "RUSSIA": [Move("SEV", "ANK", via_convoy=True), Convoy("BLA", "SEV", "ANK")],
        "TURKEY": [SupportMove("ANK", "SMY", "CON"), SupportMove("ARM", "SEV", "ANK"), Move("SMY", "CON")],
    }
    done = adjudicate(board, start, orders)
    assert result_of(done.results, Move("SEV", "ANK", via_convoy=True)).outcome is Outcome.BOUNCE
    assert done.position.units["ANK"] == Unit("TURKEY", UnitType.FLEET, "ANK")
    assert result_of(done.results, SupportMove("ANK", "SMY", "CON")).outcome is Outcome.CUT


def test_only_the_first_build_in_a_province_counts(board: Board) -> None:
    # DATC 6.I.7 and 4.D.5: orders are taken one by one; the second build finds Moscow occupied.
    start = at("W1901A", "RUSSIA: A UKR", {"MOS": "RUSSIA", "WAR": "RUSSIA", "SEV": "RUSSIA"})
    orders = [
        Build("RUSSIA", UnitType.ARMY, "MOS"),
        Build("RUSSIA", UnitType.FLEET, "MOS"),
        Build("RUSSIA", UnitType.ARMY, "MOS"),
    ]
    done = adjudicate(board, start, {"RUSSIA": orders})
    assert [r.outcome for r in done.results] == [Outcome.SUCCESS, Outcome.INVALID, Outcome.INVALID]
    assert done.results[2].reason == "Moscow is already occupied"
    assert done.position.units["MOS"] == Unit("RUSSIA", UnitType.ARMY, "MOS")


def test_a_coast_spain_does_not_have_is_ignored_in_a_support(board: Board) -> None:
    # DATC 4.B.6: garbage coasts are ignored, as if none were named.
    start = at("S1901M", "FRANCE: F MAO, F POR; ITALY: F WES, F LYO")
    orders = {
        "FRANCE": [Move("MAO", "SPA/NC"), SupportMove("POR", "MAO", "SPA/WC")],
        "ITALY": [Move("WES", "SPA/SC"), SupportMove("LYO", "WES", "SPA/SC")],
    }
    done = adjudicate(board, start, orders)
    assert result_of(done.results, SupportMove("POR", "MAO", "SPA/WC")).outcome is Outcome.SUCCESS
    assert result_of(done.results, Move("WES", "SPA/SC")).outcome is Outcome.BOUNCE
