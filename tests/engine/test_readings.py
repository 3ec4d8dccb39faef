"""The board's readings of order texts (``readings.py``), the one reader every path starts from, on every
variant's start board: each reading the full parser agrees with, the common texts all read.

A batch of positions meets thousands of order texts once each, and the server and the options the same
texts again and again: each board keeps what its texts mean. Wherever a reading gives an order, it must be
the order the full parser (``parse.parse_in_full``) gives for the unit standing there; it may leave any
text to the parser, and must not leave the common ones (holds, moves to a neighbour, supports, convoys),
or it would save nothing.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from dipserver.engine.board import Board, board_for
from dipserver.engine.orders import Move, OrderError
from dipserver.engine.parse import parse_in_full
from dipserver.engine.position import Position
from dipserver.engine.readings import _NAME_RE, movement_order, read
from dipserver.engine.types import Phase, Unit, UnitType, province_of
from dipserver.engine.variant import VARIANTS_DIR, VariantError, load_variant


def _boards() -> list[Board]:
    boards = []
    for path in sorted(VARIANTS_DIR.iterdir()):
        try:
            variant = load_variant(path.name)
        except VariantError:  # a generated board's folder (no map of its own)
            continue
        boards.append(board_for(variant, variant.map_state))
    return boards


BOARDS = _boards()
NOT_NAMES = ["XYZ", "par", "STP/XC", "PAR/NC", "ST", "STPX", "LON/", "", "A", "H"]
SPRING = Phase.parse("S1901M")


def _places(board: Board) -> list[str]:
    return sorted(loc for p in board.provinces for loc in (p, *(f"{p}/{c}" for c in board.coasts(p))))


def _unit_texts(board: Board) -> list[str]:
    texts = [f"A {loc}" for loc in sorted(board.army_locations)]
    return texts + [f"F {loc}" for loc in sorted(board.fleet_positions)]


def _texts(board: Board, rng: random.Random) -> Iterator[str]:
    """Texts of every canonical shape for a sample of the board's unit texts (and some that are not units),
    to its locations (and some that are not locations), then the same texts slightly broken."""
    names = _places(board)
    places = [*names, *NOT_NAMES]
    lands = sorted(p for p in board.provinces if board.is_land(p))
    seas = sorted(p for p in board.provinces if board.is_water(p))
    units = [*rng.sample(_unit_texts(board), 12), "A NTH", "F PAR", "A STP/NC", "X PAR", "a PAR", "A  PAR"]
    for unit in units:
        yield f"{unit} H"
        yield f"{unit} D"
        for place in rng.sample(places, 20):
            yield f"{unit} - {place}"
            yield f"{unit} - {place} VIA"
            yield f"{unit} S A {place}"
            yield f"{unit} S F {place}"
            yield f"{unit} S X {place}"
            for dest in rng.sample(places, 5):
                yield f"{unit} S {rng.choice('AF')} {place} - {dest}"
        for army in rng.sample([*lands, *seas, *NOT_NAMES], 8):
            for dest in rng.sample([*lands, *seas, *NOT_NAMES], 8):
                yield f"{unit} C A {army} - {dest}"
                yield f"{unit} C F {army} - {dest}"


def _broken(text: str, rng: random.Random) -> str:
    words = text.split(" ")
    pick = rng.randrange(6)
    if pick == 0:
        return " " + text
    if pick == 1:
        return text + " "
    if pick == 2:
        return text.lower()
    if pick == 3:
        return text.replace(" ", "  ", 1)
    if pick == 4:
        return text.replace(" ", "\t", 1)
    return " ".join(words[:-1])


def _standing(board: Board, text: str) -> Position:
    """The position with the unit the text orders (if it names one of the board's) of the first power."""
    power = next(iter(board.variant.powers))
    units: dict[str, Unit] = {}
    kind, _, rest = text.partition(" ")
    loc = rest.partition(" ")[0]
    if kind in ("A", "F") and f"{kind} {loc}" in set(_unit_texts(board)):
        units[province_of(loc)] = Unit(power, UnitType(kind), loc)
    return Position(SPRING, units, {}, {})


def _parsed(board: Board, text: str, position: Position) -> object:
    power = next(iter(board.variant.powers))
    try:
        return parse_in_full(text, board, position, power)
    except OrderError as exc:
        return exc.reason


@pytest.mark.parametrize("board", BOARDS, ids=[b.variant.slug for b in BOARDS])
def test_every_order_the_readings_give_is_the_full_parsers(board: Board) -> None:
    rng = random.Random(3)
    power = next(iter(board.variant.powers))
    read_so = left = 0
    for text in _texts(board, rng):
        for candidate in (text, _broken(text, rng)):
            position = _standing(board, candidate)
            order = movement_order(candidate, board, position.units, power)
            if order is None:
                left += 1
                continue
            read_so += 1
            assert order == _parsed(board, candidate, position), candidate
    assert read_so > 100 and left > 3_000, (read_so, left)


@pytest.mark.parametrize("board", BOARDS, ids=[b.variant.slug for b in BOARDS])
def test_every_hold_move_to_a_neighbour_support_and_convoy_is_read(board: Board) -> None:
    read_so = 0
    lands = sorted(p for p in board.provinces if board.is_land(p))
    units = _unit_texts(board)
    for unit in units:
        loc = unit[2:]
        prov = province_of(loc)
        reach = board.army_moves(loc) if unit[0] == "A" else board.fleet_moves(loc)
        texts = [f"{unit} H", *(f"{unit} - {dest}" for dest in sorted(reach))]
        for other in units[:: max(1, len(units) // 15)]:
            there = province_of(other[2:])
            if there != prov and board.can_reach_province(UnitType(unit[0]), loc, there):
                texts.append(f"{unit} S {other}")
        if unit[0] == "F" and board.is_water(prov):
            coasts = sorted(p for p in board.neighbours(prov) if board.is_land(p))
            texts += [f"{unit} C A {a} - {b}" for a in coasts for b in lands[::7] if a != b]
        for text in texts:
            order = read(text, board)[0]
            assert order is not None, text
            assert order == _parsed(board, text, _standing(board, text)), text
            read_so += 1
    assert read_so > 500


def test_moves_by_sea_are_read_as_moves_with_the_convoy_asked_for_as_written() -> None:
    board = next(b for b in BOARDS if b.variant.slug == "standard")
    for text, via in (("A LON - NWY", False), ("A LON - NWY VIA", True), ("A LON - BEL VIA", True)):
        assert read(text, board)[0] == Move("LON", text.split(" ")[3], via), text


@pytest.mark.parametrize("board", BOARDS, ids=[b.variant.slug for b in BOARDS])
def test_the_places_a_reading_looks_up_are_the_boards_own(board: Board) -> None:
    """A reading looks names up in the board's tables: for any name written as the notation writes a place
    they answer as ``can_occupy`` and the board's provinces and coasts do, and every name in them is so
    written."""
    places = _places(board)
    assert sorted(board.place_provinces) == places
    assert all(board.place_provinces[loc] == province_of(loc) for loc in places)
    for loc in [*places, *(name for name in NOT_NAMES if _NAME_RE.match(name))]:
        assert (loc in board.army_locations) == board.can_occupy(UnitType.ARMY, loc), loc
        assert (loc in board.fleet_positions) == board.can_occupy(UnitType.FLEET, loc), loc
    assert all(_NAME_RE.match(loc) for loc in places)


def test_a_text_may_end_in_one_newline() -> None:
    board = next(b for b in BOARDS if b.variant.slug == "standard")
    assert read("A PAR - BUR\n", board) == read("A PAR - BUR", board)
    assert read("A PAR - BUR\n\n", board)[0] is None
