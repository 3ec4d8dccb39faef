"""Reading a request's orders: the reader's memo never disagrees with the grammar.

``parse.parse_order`` (and ``ordersheet.read_sheet``) answer a text met before from the board's memo
(``readings.py``) when the units it looked at are the same; the answer, an order or a refusal's reason,
must be exactly what the grammar (``parse.parse_in_full``) answers for the same text, power and position.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

import pytest

from dipserver.adjudicator.jsonio import RequestError, read_request
from dipserver.engine.adjudicate import adjudicate
from dipserver.engine.board import Board
from dipserver.engine.options import legal_options
from dipserver.engine.orders import Hold, Move, Order, SupportMove
from dipserver.engine.ordersheet import read_sheet
from dipserver.engine.parse import OrderError, parse_in_full, parse_order
from dipserver.engine.position import Position
from dipserver.engine.types import PhaseType, UnitType
from dipserver.engine.variant import Variant


def played_positions(board: Board, start: Position, seed: int, phases: int) -> Iterator[Position]:
    """Movement positions of a seeded random game: every unit picks any legal order."""
    rng = random.Random(seed)
    position = start
    for _ in range(phases):
        orders: dict[str, list[Order]] = {}
        for power in sorted({u.power for u in position.units.values()} | set(position.owners.values())):
            options = legal_options(board, position, power)
            picks = [rng.choice(choices) for choices in options.units.values()]
            if options.adjustment.builds:
                picks.append(options.adjustment.builds[0])
            orders[power] = [option.order for option in picks]
        if position.phase.type is PhaseType.MOVEMENT:
            yield position
        position = adjudicate(board, position, orders).position


def texts_for(board: Board, position: Position) -> Iterator[tuple[str, str]]:
    """(power, text): every legal option, and many canonical texts that are illegal in some way."""
    places = sorted(
        loc for prov in board.provinces for loc in (prov, *(f"{prov}/{c}" for c in board.coasts(prov)))
    )
    units = sorted(position.units.values(), key=lambda u: u.location)
    for power in sorted({u.power for u in units}):
        for option in legal_options(board, position, power).all():
            yield power, option.text
    for unit in units:
        me = f"{unit.type.value} {unit.location}"
        other_power = "ENGLAND" if unit.power != "ENGLAND" else "FRANCE"
        for power in (unit.power, other_power):
            yield power, f"{me} H"
            yield power, f"A {unit.location} H"  # the wrong unit type, for fleets
            for place in places:
                yield power, f"{me} - {place}"
                yield power, f"{me} - {place} VIA"
                yield power, f"{me} S A {place}"
                yield power, f"{me} S F {place}"
                yield power, f"{me} C A {place} - {unit.location}"
            for target in units[:6]:
                for place in places[::7]:
                    yield power, f"{me} S {target.type.value} {target.location} - {place}"
                    yield power, f"{me} C A {target.province} - {place}"


def _answer(text: str, board: Board, position: Position, power: str, read: Callable[..., Order]) -> object:
    try:
        return read(text, board, position, power)
    except OrderError as exc:
        return exc.reason


@pytest.mark.parametrize("seed", [1, 2])
def test_the_memo_answers_what_the_grammar_answers(standard: Variant, board: Board, seed: int) -> None:
    given = refused = 0
    for position in [standard.start, *list(played_positions(board, standard.start, seed, 9))[2::3]]:
        for power, text in texts_for(board, position):
            for _ in range(2):  # read, then (the units the same) answered from the memo
                answer = _answer(text, board, position, power, parse_order)
                assert answer == _answer(text, board, position, power, parse_in_full), (power, text)
            given += not isinstance(answer, str)
            refused += isinstance(answer, str)
    assert given > 1000 and refused > 1000  # both sides of the line were tried


def test_every_option_the_engine_offers_is_read_as_its_order(standard: Variant, board: Board) -> None:
    for position in played_positions(board, standard.start, 3, 8):
        for power in sorted({u.power for u in position.units.values()}):
            for option in legal_options(board, position, power).all():
                assert parse_order(option.text, board, position, power) == option.order, option.text


def test_orders_outside_the_canonical_notation_are_read_too(board: Board, standard: Variant) -> None:
    request = read_request(
        {
            "variant": "standard",
            "phase": "S1901M",
            "units": {"FRANCE": ["A PAR", "A MAR"], "RUSSIA": ["F STP/SC"]},
            "centers": {},
            "orders": {
                "FRANCE": ["a par - bur", "Army Marseilles supports Paris to Burgundy"],
                "RUSSIA": ["F STP/NC H", "F STP/SC - BAR"],
            },
        }
    )
    read = read_sheet(request.board, request.position, request.orders)
    assert read.orders["FRANCE"] == [Move("PAR", "BUR"), SupportMove("MAR", "PAR", "BUR")]
    # A wrong coast on the ordered unit is ignored (DATC 6.B.10); a move the fleet cannot make is refused.
    assert read.orders["RUSSIA"] == [Hold("STP/SC")]
    assert [(power, text) for power, text, _ in read.rejected] == [("RUSSIA", "F STP/SC - BAR")]


def test_a_request_keeps_the_unit_type_and_coast_it_was_given(standard: Variant) -> None:
    request = read_request(
        {"variant": "standard", "phase": "F1905M", "units": {"RUSSIA": ["F STP/NC", "A MOS"]}, "centers": {}}
    )
    assert request.position.units["STP"].location == "STP/NC"
    assert request.position.units["MOS"].type is UnitType.ARMY
    assert str(request.position.phase) == "F1905M"
    assert request.orders == {}


@pytest.mark.parametrize(
    ("retreats", "message"),
    [
        (["KIE"], "cannot retreat to KIE: it is not adjacent"),
        (["BUD"], "cannot retreat to BUD: A BUD is there"),
        ("SER", "must be a list of strings"),
    ],
)
def test_retreat_options_must_be_places_the_unit_could_go(retreats: object, message: str) -> None:
    data = {
        "variant": "standard",
        "phase": "S1901R",
        "units": {"RUSSIA": ["A RUM"], "AUSTRIA": ["A BUD"]},
        "centers": {},
        "dislodged": {"AUSTRIA": [{"unit": "A RUM", "retreats": retreats}]},
    }
    with pytest.raises(RequestError) as caught:
        read_request(data)
    assert message in str(caught.value)


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("units", {"FRANCE": "A PAR"}, '"units" of FRANCE must be a list of strings'),
        ("units", {"FRANCE": ["A  PAR"]}, 'is not a unit like "A PAR"'),
        ("units", {"FRANCE": ["A XYZ"]}, "XYZ is not a province"),
        ("units", {"FRANCE": ["A STP/NC"]}, "not on a coast: write STP"),
        ("units", {"FRANCE": ["A NTH"]}, "a sea"),
        ("units", {"FRANCE": ["F SPA/EC"]}, "has no EC coast"),
        ("centers", {"FRANCE": ["PAR"], "GERMANY": ["PAR"]}, "owned by both FRANCE and GERMANY"),
        ("homes", {"FRANCE": ["BUR"]}, "BUR is not a supply centre"),
        ("orders", {"FRANCE": "A PAR H"}, '"orders" of FRANCE must be a list of strings'),
        ("extra", 1, "unknown field(s) ['extra']"),
        ("dislodged", {"FRANCE": [{"unit": "A PAR", "retreats": ["BUR"]}]}, "only in a retreat phase"),
    ],
)
def test_bad_fields_are_named_in_the_error(field: str, value: object, message: str) -> None:
    data = {"variant": "standard", "phase": "S1901M", "units": {}, "centers": {}, field: value}
    with pytest.raises(RequestError) as caught:
        read_request(data)
    assert message in str(caught.value)
