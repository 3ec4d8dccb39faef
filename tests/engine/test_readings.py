"""The reader's memo (``readings.py``) on every variant's start board: its answers are the grammar's.

A batch of positions meets thousands of order texts, and the server and the options the same texts again
and again: each board keeps what the grammar answered for them, beside the units it looked at. An answer
from the memo, an order or a refusal's reason, must be what the grammar (``parse.parse_in_full``) answers
for the units standing now; the common texts (holds, moves, supports, convoys) must be kept, or the memo
would save nothing; an answer that depends on more than units must never be kept.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import fields

import pytest

from dipserver.engine.board import Board, board_for
from dipserver.engine.dislodged import Dislodged
from dipserver.engine.kinds.reading import Reading
from dipserver.engine.kinds.registry import register, unregister
from dipserver.engine.orders import Move, OrderError
from dipserver.engine.parse import parse_in_full, parse_order
from dipserver.engine.position import Position
from dipserver.engine.readings import still_true
from dipserver.engine.types import Phase, Unit, UnitType, province_of
from dipserver.engine.variant import VARIANTS_DIR, VariantError, load_variant
from tests.engine.test_kinds import DigIn, DigInKind


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


def _answered(board: Board, text: str, position: Position) -> object:
    power = next(iter(board.variant.powers))
    try:
        return parse_order(text, board, position, power)
    except OrderError as exc:
        return exc.reason


def _kept(board: Board) -> int:
    return sum(len(answers) for answers in board.readings.values())


@pytest.mark.parametrize("board", BOARDS, ids=[b.variant.slug for b in BOARDS])
def test_every_answer_from_the_memo_is_the_grammars(board: Board) -> None:
    """Each text is answered for the unit it names and then for another unit there (the power's own of
    the other type, then another power's, then none): the memo answers as the grammar does each time."""
    rng = random.Random(3)
    first, other = list(board.variant.powers)[:2]
    texts = [c for text in _texts(board, rng) for c in (text, _broken(text, rng))]
    for text in texts[::3]:
        named = _standing(board, text)
        positions = [named, Position(SPRING, {}, {}, {})]
        for unit in named.units.values():
            flipped = UnitType.FLEET if unit.type is UnitType.ARMY else UnitType.ARMY
            for changed in (Unit(first, flipped, unit.province), Unit(other, unit.type, unit.location)):
                positions.insert(1, Position(SPRING, {unit.province: changed}, {}, {}))
        for position in [*positions, named]:
            assert _answered(board, text, position) == _parsed(board, text, position), (text, position)
    assert _kept(board) > 1_000


@pytest.mark.parametrize("board", BOARDS, ids=[b.variant.slug for b in BOARDS])
def test_every_hold_move_to_a_neighbour_support_and_convoy_is_kept(board: Board) -> None:
    kept = 0
    lands = sorted(p for p in board.provinces if board.is_land(p))
    units = _unit_texts(board)
    power = next(iter(board.variant.powers))
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
            position = _standing(board, text)
            order = parse_order(text, board, position, power)
            assert text in board.readings[(power, "M", _changes())], text
            assert parse_order(text, board, position, power) is order, text  # the kept answer
            kept += 1
    assert kept > 500


def _changes() -> int:
    from dipserver.engine.kinds.registry import changes

    return changes()


def test_moves_by_sea_are_read_as_moves_with_the_convoy_asked_for_as_written() -> None:
    board = next(b for b in BOARDS if b.variant.slug == "standard")
    london = Position(SPRING, {"LON": Unit("ENGLAND", UnitType.ARMY, "LON")}, {}, {})
    for text, via in (("A LON - NWY", False), ("A LON - NWY VIA", True), ("A LON - BEL VIA", True)):
        for _ in range(2):  # read, then answered from the memo
            assert parse_order(text, board, london, "ENGLAND") == Move("LON", text.split(" ")[3], via), text


def test_an_answer_that_depends_on_more_than_units_is_not_kept() -> None:
    """A retreat reads the dislodged units, a winter the centres: neither answer is kept."""
    board = next(b for b in BOARDS if b.variant.slug == "standard")
    army = Unit("FRANCE", UnitType.ARMY, "PAR")
    retreat = Position(Phase.parse("S1901R"), {}, {}, {"PAR": Dislodged(army, "BUR", ("PIC",))})
    winter = Position(Phase.parse("W1901A"), {}, {"PAR": "FRANCE"}, {})
    before = _kept(board)
    for text, position in (("A PAR R PIC", retreat), ("A PAR B", winter), ("BUILD A PAR", winter)):
        _answered(board, text, position)
        assert _kept(board) == before, text


class _KeptDigInKind(DigInKind):
    """Digging in, read from the units alone (and before the conversions, which read the position): its
    answers are kept."""

    rank = 5

    def read_text(self, reading: Reading, text: str) -> DigIn | None:
        if text != "A PAR digs in":
            return None
        unit = reading.unit_in("PAR")
        if unit is None or unit.power != reading.power:
            raise OrderError("There is no unit of yours in Paris")
        return DigIn(unit.location)


def test_the_answers_kept_are_those_of_the_kinds_registered_now() -> None:
    board = next(b for b in BOARDS if b.variant.slug == "standard")
    paris = Position(SPRING, {"PAR": Unit("FRANCE", UnitType.ARMY, "PAR")}, {}, {})
    kind = register(_KeptDigInKind())
    try:
        assert parse_order("A PAR digs in", board, paris, "FRANCE") == DigIn("PAR")
        assert "A PAR digs in" in board.readings[("FRANCE", "M", _changes())]
    finally:
        unregister(kind)
    with pytest.raises(OrderError, match="'digs' is not a place or an order word I know"):
        parse_order("A PAR digs in", board, paris, "FRANCE")


def test_the_memo_compares_every_field_of_a_unit() -> None:
    """``readings.still_true`` compares a unit's fields one by one: these, and no others."""
    assert [f.name for f in fields(Unit)] == ["power", "type", "location", "aboard"]
    army = Unit("FRANCE", UnitType.ARMY, "PAR")
    looked = (("PAR", army),)
    assert still_true(looked, {"PAR": Unit("FRANCE", UnitType.ARMY, "PAR")})
    for other in (
        Unit("GERMANY", UnitType.ARMY, "PAR"),
        Unit("FRANCE", UnitType.FLEET, "PAR"),
        Unit("FRANCE", UnitType.ARMY, "PAR", aboard=True),
    ):
        assert not still_true(looked, {"PAR": other}), other
    assert not still_true(looked, {})
    assert still_true((("PAR", None),), {}) and not still_true((("PAR", None),), {"PAR": army})
