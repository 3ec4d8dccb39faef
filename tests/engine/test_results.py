"""A movement phase's results, and a turn's played lines: read as the tuple of values they stand for, built
once; the one pipeline and the command line read them as rows without building a value."""

from __future__ import annotations

from dipserver.engine.adjudicate import adjudicate
from dipserver.engine.board import Board
from dipserver.engine.lateorders import Disband
from dipserver.engine.orders import Hold, Move, OrderResult, Outcome
from dipserver.engine.played import Played
from dipserver.engine.position import Position
from dipserver.engine.results import Results, rows_of
from dipserver.engine.turn import play_phase
from dipserver.engine.types import Phase, Unit, UnitType
from dipserver.engine.variant import Variant

HOLD = Hold("PAR")
MOVE = Move("MUN", "BUR")


def _phase(board: Board) -> Results:
    units = {
        "PAR": Unit("FRANCE", UnitType.ARMY, "PAR"),
        "MUN": Unit("GERMANY", UnitType.ARMY, "MUN"),
    }
    done = adjudicate(
        board, Position(Phase.parse("S1901M"), units, {}), {"FRANCE": [HOLD], "GERMANY": [MOVE]}
    )
    assert isinstance(done.results, Results)
    return done.results


def test_results_equal_the_tuple_of_their_values(board: Board) -> None:
    expected = (
        OrderResult("FRANCE", HOLD, Outcome.SUCCESS),
        OrderResult("GERMANY", MOVE, Outcome.SUCCESS),
    )
    results = _phase(board)
    assert results == expected
    assert expected == results
    assert tuple(results) == expected
    assert len(results) == 2
    assert results[1] == expected[1]
    assert results[-1:] == expected[-1:]
    assert hash(results) == hash(expected)


def test_each_value_is_built_once(board: Board) -> None:
    results = _phase(board)
    assert results[0] is next(iter(results))


def test_rows_are_the_values_fields_in_order(board: Board) -> None:
    results = _phase(board)
    assert rows_of(results) == [
        ("FRANCE", HOLD, Outcome.SUCCESS, "", False),
        ("GERMANY", MOVE, Outcome.SUCCESS, "", False),
    ]
    assert rows_of(tuple(results)) == rows_of(results)


def test_more_results_come_after(board: Board) -> None:
    results = _phase(board)
    disband = OrderResult("FRANCE", Disband("PAR"), Outcome.SUCCESS, "No valid retreat was ordered")
    more = results.plus([disband])
    assert more == (*results, disband)
    assert len(results) == 2


def test_a_turns_played_lines_are_rows_until_read(standard: Variant) -> None:
    turn = play_phase(standard, standard.map_state, standard.start, {"FRANCE": ["A PAR - BUR", "A MAR H X"]})
    rows = rows_of(turn.played)
    assert rows[0] == ("FRANCE", Move("PAR", "BUR"), "A PAR - BUR", Outcome.SUCCESS, "", False, False)
    assert rows[-1][2:4] == ("A MAR H X", Outcome.INVALID) and rows[-1][6] is True
    assert tuple(turn.played) == tuple(Played(*row) for row in rows)
    assert rows_of(tuple(turn.played)) == rows
