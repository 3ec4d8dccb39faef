"""The three unit-changing orders (E14, E15, E16): notation, clear errors, and their effect."""

from __future__ import annotations

from dataclasses import replace

import pytest

from dipserver.engine.board import Board, board_for
from dipserver.engine.conversions import check_conversion, parse_conversion
from dipserver.engine.kinds.conversion import ConvertToArmy, ConvertToFleet, StayFleet
from dipserver.engine.kinds.effects import Effect, Effects, Given, apply_all
from dipserver.engine.kinds.registry import kind_of
from dipserver.engine.orders import Hold, Move, OrderResult, Outcome
from dipserver.engine.parse import OrderError
from dipserver.engine.position import Position
from dipserver.engine.timeline import Hook
from dipserver.engine.types import Phase, Unit, UnitType
from dipserver.engine.variant import Variant

from .conftest import position_with, steps_of


def winter(position: Position) -> Position:
    return replace(position, phase=Phase.parse("W1901A"))


def applied(
    board: Board,
    phase: str,
    before: dict[str, Unit],
    after: dict[str, Unit],
    orders: dict[str, list[object]],
    outcomes: dict[int, Outcome] | None = None,
) -> tuple[Effects, list[Effect]]:
    """The kinds' effects of ``orders`` applied to the units the adjudicator left (``after``); each order
    handed on succeeded, unless ``outcomes`` (by the order's id) says otherwise."""
    given = [Given(power, o, kind_of(o)) for power, os in orders.items() for o in os]
    handed = {id(g.order): (g, kind_of(g.order).for_adjudication(g.order)) for g in given}
    results = {
        key: OrderResult(g.power, seen, (outcomes or {}).get(key, Outcome.SUCCESS))
        for key, (g, seen) in handed.items()
        if seen is not None
    }
    start = Position(Phase.parse(phase), before, {})
    effects = Effects(board, start, given, results, dict(after), {}, {}, board.map_state)
    return effects, [effect for _, effect in apply_all(effects)]


@pytest.fixture(scope="module")
def woi_board(wall_of_ice: Variant) -> Board:
    return board_for(wall_of_ice, wall_of_ice.map_state)


@pytest.fixture(scope="module")
def deluge_1902(deluge: Variant) -> Board:
    """Deluge in 1902: London, Holland, Belgium, Gascony, Venice and Livonia have sunk."""
    return board_for(deluge, steps_of(deluge)[(1901, Hook.AFTER_WINTER_ADJUSTMENTS)].map_state)


# --- Wall of Ice: fleet to army in Winter ---------------------------------------------------------


@pytest.mark.parametrize(
    "text", ["F BRE becomes army", "Brest converts to army", "f bre becomes an army", "F Brest becomes A"]
)
def test_e14_wall_of_ice_fleet_to_army_in_the_usual_notations(
    wall_of_ice: Variant, woi_board: Board, text: str
) -> None:

    pos = winter(position_with(wall_of_ice, "FRANCE F BRE"))
    assert parse_conversion(text, woi_board, pos, "FRANCE") == ConvertToArmy("BRE")


@pytest.mark.parametrize(
    ("units", "text", "power", "message"),
    [
        (("FRANCE F MAO",), "F MAO becomes army", "FRANCE", "The fleet in Mid-Atlantic Ocean is at sea"),
        (("FRANCE A PAR",), "A PAR becomes army", "FRANCE", "There is no fleet of yours in Paris"),
        (("FRANCE F BRE",), "F BRE becomes army", "ENGLAND", "There is no fleet of yours in Brest"),
        (("FRANCE F BRE",), "A BRE becomes army", "FRANCE", "The unit in Brest is a fleet, not an army"),
        (
            ("FRANCE F BRE",),
            "F Atlantis becomes army",
            "FRANCE",
            "'Atlantis' is not a province of Wall of Ice",
        ),
    ],
)
def test_e14_wall_of_ice_conversion_errors_say_why(
    wall_of_ice: Variant, woi_board: Board, units: tuple[str, ...], text: str, power: str, message: str
) -> None:

    with pytest.raises(OrderError, match=message):
        parse_conversion(text, woi_board, winter(position_with(wall_of_ice, *units)), power)


def test_e14_a_fleet_becomes_an_army_only_in_winter(wall_of_ice: Variant, woi_board: Board) -> None:

    with pytest.raises(OrderError, match="only in a Winter adjustment phase"):
        parse_conversion(
            "F BRE becomes army", woi_board, position_with(wall_of_ice, "FRANCE F BRE"), "FRANCE"
        )


def test_other_variants_refuse_orders_they_do_not_have(standard: Variant, sahara: Variant) -> None:

    board = board_for(standard, standard.map_state)
    with pytest.raises(OrderError, match="Standard has no order to turn a fleet into an army"):
        parse_conversion(
            "F BRE becomes army", board, winter(position_with(standard, "FRANCE F BRE")), "FRANCE"
        )
    board = board_for(sahara, sahara.map_state)
    with pytest.raises(OrderError, match="Sahara has no order to turn an army into a fleet"):
        parse_conversion("A BRE becomes fleet", board, position_with(sahara, "FRANCE A BRE"), "FRANCE")


def test_ordinary_orders_are_left_to_the_standard_parser(wall_of_ice: Variant, woi_board: Board) -> None:

    assert (
        parse_conversion("F BRE - MAO", woi_board, position_with(wall_of_ice, "FRANCE F BRE"), "FRANCE")
        is None
    )


def test_e14_winter_conversion_is_free_and_a_removed_fleet_does_not_convert(woi_board: Board) -> None:

    units = {"BRE": Unit("FRANCE", UnitType.FLEET, "BRE")}  # F MAR was removed in the same Winter
    orders: dict[str, list[object]] = {"FRANCE": [ConvertToArmy("BRE"), ConvertToArmy("MAR")]}
    effects, outcomes = applied(woi_board, "W1901A", units, units, orders)
    assert effects.units == {"BRE": Unit("FRANCE", UnitType.ARMY, "BRE")}
    assert [e.outcome for e in outcomes] == [Outcome.SUCCESS, Outcome.VOID]


# --- Deluge: army to fleet during movement --------------------------------------------------------


def test_e15_deluge_army_in_a_coastal_centre_may_become_a_fleet(deluge: Variant, deluge_1902: Board) -> None:

    pos = position_with(deluge, "GERMANY A KIE", "FRANCE A PAR", "FRANCE A BUR", "AUSTRIA A VIE")
    assert parse_conversion("A KIE becomes fleet", deluge_1902, pos, "GERMANY") == ConvertToFleet("KIE")
    assert parse_conversion("A PAR becomes fleet", deluge_1902, pos, "FRANCE") == ConvertToFleet(
        "PAR"
    )  # GAS sank
    with pytest.raises(OrderError, match="Burgundy is not a supply centre"):
        parse_conversion("A BUR becomes fleet", deluge_1902, pos, "FRANCE")
    with pytest.raises(OrderError, match="Vienna touches no open sea"):
        parse_conversion("A VIE becomes fleet", deluge_1902, pos, "AUSTRIA")
    with pytest.raises(OrderError, match="movement orders of a Spring or Autumn"):
        parse_conversion("A KIE becomes fleet", deluge_1902, winter(pos), "GERMANY")


def test_e15_deluge_a_split_coast_must_be_named(deluge: Variant, deluge_1902: Board) -> None:

    pos = position_with(deluge, "ITALY A ROM")
    with pytest.raises(OrderError, match="Say which coast of Rome the fleet is to stand on: EC or WC"):
        check_conversion(deluge_1902, pos, "ITALY", ConvertToFleet("ROM"))
    assert check_conversion(deluge_1902, pos, "ITALY", ConvertToFleet("ROM", "EC")) == ConvertToFleet(
        "ROM", "EC"
    )


def test_e15_deluge_conversion_fails_when_another_power_moves_in_even_if_it_bounces(
    deluge_1902: Board,
) -> None:

    army = Unit("GERMANY", UnitType.ARMY, "KIE")
    units = {
        "KIE": army,
        "BER": Unit("GERMANY", UnitType.ARMY, "BER"),
        "HOL": Unit("FRANCE", UnitType.ARMY, "HOL"),
    }
    move = Move("HOL", "KIE")
    orders: dict[str, list[object]] = {"GERMANY": [ConvertToFleet("KIE")], "FRANCE": [move]}
    effects, [outcome] = applied(deluge_1902, "S1902M", units, units, orders, {id(move): Outcome.BOUNCE})
    assert effects.units["KIE"] == army
    assert outcome == Effect(Outcome.VOID, "FRANCE ordered a move into KIE")


def test_e15_the_converting_army_holds_meanwhile() -> None:
    assert kind_of(ConvertToFleet("KIE")).for_adjudication(ConvertToFleet("KIE")) == Hold("KIE")


def test_e15_deluge_conversion_succeeds_when_only_its_own_power_moves_in(deluge_1902: Board) -> None:

    units = {"KIE": Unit("GERMANY", UnitType.ARMY, "KIE"), "BER": Unit("GERMANY", UnitType.ARMY, "BER")}
    move = Move("BER", "KIE")
    orders: dict[str, list[object]] = {"GERMANY": [ConvertToFleet("KIE"), move]}
    effects, [outcome] = applied(deluge_1902, "S1902M", units, units, orders, {id(move): Outcome.BOUNCE})
    assert effects.units["KIE"] == Unit("GERMANY", UnitType.FLEET, "KIE")
    assert outcome.outcome is Outcome.SUCCESS


def test_e15_a_convoyed_move_with_a_broken_route_does_not_count(deluge_1902: Board) -> None:

    units = {"KIE": Unit("GERMANY", UnitType.ARMY, "KIE")}
    move = Move("YOR", "KIE", via_convoy=True)
    orders: dict[str, list[object]] = {"GERMANY": [ConvertToFleet("KIE")], "ENGLAND": [move]}
    effects, _ = applied(deluge_1902, "S1902M", units, units, orders, {id(move): Outcome.NO_CONVOY})
    assert effects.units["KIE"].type is UnitType.FLEET


# --- Sahara: stay a fleet --------------------------------------------------------------------------


def test_e16_sahara_stay_fleet_is_parsed_in_movement(sahara: Variant) -> None:

    board = board_for(sahara, sahara.map_state)
    pos = position_with(sahara, "TURKEY F SYR", "TURKEY A SMY")
    assert parse_conversion("F SYR stays fleet", board, pos, "TURKEY") == StayFleet("SYR")
    with pytest.raises(OrderError, match="There is no fleet of yours in Smyrna"):
        parse_conversion("A SMY stays fleet", board, pos, "TURKEY")


def test_e16_sahara_flags_follow_the_fleet_to_where_it_ends_the_season(sahara: Variant) -> None:

    board = board_for(sahara, sahara.map_state)
    before = {"EAS": Unit("TURKEY", UnitType.FLEET, "EAS"), "SMY": Unit("TURKEY", UnitType.FLEET, "SMY")}
    after = {"SYR": Unit("TURKEY", UnitType.FLEET, "SYR"), "SMY": before["SMY"]}
    orders: dict[str, list[object]] = {
        "TURKEY": [Move("EAS", "SYR"), StayFleet("EAS"), Hold("SMY"), StayFleet("SMY")]
    }
    effects, _ = applied(board, "F1902M", before, after, orders)
    assert effects.flags == {"SYR", "SMY"}
