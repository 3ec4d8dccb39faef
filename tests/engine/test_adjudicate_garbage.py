"""Adjudicating a phase leaves nothing for the garbage collector.

A batch of thousands of phases (``adjudicate --jsonl``) spent a sixth of its time collecting reference
cycles each phase left behind (the resolver's nested functions, a recursive closure, bound methods kept on
the phase). Everything a phase builds must be freed by reference counting alone.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from dipserver.engine.adjudicate import adjudicate
from dipserver.engine.board import Board
from dipserver.engine.orders import Convoy, Move, Order, SupportMove
from dipserver.engine.position import Position
from dipserver.engine.types import Phase, Unit, UnitType


@pytest.fixture
def collector_off() -> Iterator[None]:
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def _position(units: list[tuple[str, str, str]]) -> Position:
    placed = {loc: Unit(power, UnitType(kind), loc) for power, kind, loc in units}
    return Position(Phase.parse("S1901M"), placed, {})


CASES: dict[str, tuple[list[tuple[str, str, str]], dict[str, list[Order]]]] = {
    # A convoy over two seas: the legality check searches the minimal chains of fleets.
    "two-fleet convoy": (
        [("ENGLAND", "A", "LON"), ("ENGLAND", "F", "ENG"), ("ENGLAND", "F", "MAO"), ("FRANCE", "A", "BRE")],
        {
            "ENGLAND": [Move("LON", "POR", True), Convoy("ENG", "LON", "POR"), Convoy("MAO", "LON", "POR")],
            "FRANCE": [Move("BRE", "ENG")],
        },
    ),
    # DATC 6.F.14: a convoy paradox, decided by the Szykman rule (the resolver's backup rule).
    "convoy paradox": (
        [("ENGLAND", "F", "LON"), ("ENGLAND", "F", "WAL"), ("FRANCE", "A", "BRE"), ("FRANCE", "F", "ENG")],
        {
            "ENGLAND": [SupportMove("LON", "WAL", "ENG"), Move("WAL", "ENG")],
            "FRANCE": [Move("BRE", "LON", True), Convoy("ENG", "BRE", "LON")],
        },
    ),
}


@pytest.mark.parametrize("case", CASES)
def test_a_movement_phase_leaves_no_reference_cycles(board: Board, collector_off: None, case: str) -> None:
    units, orders = CASES[case]
    result = adjudicate(board, _position(units), orders)
    assert result.results  # adjudicated for real
    assert gc.collect() == 0
