"""The engine's own checks of a position and its order texts, whoever calls it (the server, the command
line, the options): a dislodged unit where its own power stands is a problem of the position; an order text
over ``MAX_ORDER_TEXT`` characters is refused unread, and never kept with the board's readings."""

from __future__ import annotations

import pytest

from dipserver.engine.board import Board
from dipserver.engine.dislodged import Dislodged
from dipserver.engine.orders import Move, OrderError
from dipserver.engine.ordersheet import read_sheet
from dipserver.engine.parse import parse_in_full, parse_order
from dipserver.engine.position import Position
from dipserver.engine.readings import MAX_ORDER_TEXT
from dipserver.engine.types import Phase, Unit, UnitType
from dipserver.engine.validate import validate
from dipserver.engine.variant import Variant

SER = Unit("AUSTRIA", UnitType.ARMY, "SER")


def retreat(units: list[Unit], dislodged: Unit) -> Position:
    return Position(
        Phase.parse("S1901R"),
        {u.province: u for u in units},
        {},
        {dislodged.province: Dislodged(dislodged, "BUD", ("ALB",))},
    )


def test_a_unit_both_standing_and_dislodged_is_a_problem(standard: Variant) -> None:
    assert validate(standard, position=retreat([SER], SER)) == [
        "A SER of AUSTRIA both stands in SER and is dislodged from it"
    ]


def test_a_unit_dislodged_where_its_own_power_stands_is_a_problem(standard: Variant) -> None:
    fleet = Unit("AUSTRIA", UnitType.FLEET, "TRI")
    problems = validate(standard, position=retreat([fleet], Unit("AUSTRIA", UnitType.ARMY, "TRI")))
    assert problems == ["A TRI of AUSTRIA is dislodged from TRI, where its own F TRI stands"]


def test_a_unit_dislodged_by_another_power_is_sound(standard: Variant) -> None:
    assert validate(standard, position=retreat([Unit("TURKEY", UnitType.ARMY, "SER")], SER)) == []


def test_a_dislodged_unit_that_could_not_have_stood_there_is_a_problem(standard: Variant) -> None:
    sunk = Unit("AUSTRIA", UnitType.ARMY, "ADR")
    assert validate(standard, position=retreat([], sunk)) == [
        "dislodged A ADR of AUSTRIA could not have stood at ADR"
    ]


@pytest.mark.parametrize("read", [parse_order, parse_in_full])
def test_an_order_text_over_the_limit_is_refused_unread(read, standard: Variant, board: Board) -> None:
    text = "A PAR - " + "BUR " * 250_000
    kept = len(board.readings)
    with pytest.raises(OrderError, match=f"An order is at most {MAX_ORDER_TEXT} characters long"):
        read(text, board, standard.start, "FRANCE")
    assert len(board.readings) == kept


def test_white_space_around_an_order_does_not_count(standard: Variant, board: Board) -> None:
    assert parse_order(" A PAR - BUR ".center(1000), board, standard.start, "FRANCE") == Move("PAR", "BUR")


def test_a_phase_sheet_refuses_an_over_long_text_and_reads_the_rest(standard: Variant, board: Board) -> None:
    long = "A PAR - BUR " + "x" * MAX_ORDER_TEXT
    sheet = read_sheet(board, standard.start, {"FRANCE": [long, "A MAR - GAS"]})
    assert sheet.orders["FRANCE"] == [Move("MAR", "GAS")]
    assert sheet.rejected == [
        ("FRANCE", long, f"An order is at most {MAX_ORDER_TEXT} characters long; this text has 212")
    ]
