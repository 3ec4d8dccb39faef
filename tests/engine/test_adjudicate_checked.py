"""``adjudicate(..., checked=True)``: orders the readers let through are judged exactly as with full checks.

The reader of a phase's texts (``ordersheet.read_sheet``: the board's readings, else the parser) checks
each order on its own for the board and the position; the adjudicator then skips those checks. Whatever
random orders are written, read and adjudicated both ways, every result, unit and retreat must be the same.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dipserver.engine.adjudicate import adjudicate
from dipserver.engine.board import board_for
from dipserver.engine.orders import Order
from dipserver.engine.ordersheet import read_sheet
from dipserver.engine.parse import format_order
from dipserver.engine.position import Position
from dipserver.engine.types import Phase, Unit, UnitType
from dipserver.engine.variant import load_variant
from tests.engine.test_properties import movement_orders, positions

STANDARD = load_variant("standard")
BOARD = board_for(STANDARD, STANDARD.map_state)


def _read(position: Position, texts: dict[str, list[str]]) -> dict[str, list[Order]]:
    return read_sheet(BOARD, position, texts).orders


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_reader_checked_orders_get_the_same_results_unchecked(data: st.DataObject) -> None:
    units = data.draw(positions(BOARD))
    position = Position(Phase.parse("F1901M"), units, {}, {})
    drawn = data.draw(movement_orders(BOARD, units))
    # Every order written by every power, so the reader also meets other powers' units.
    texts = {power: [format_order(o, position) for os in drawn.values() for o in os] for power in drawn}
    orders = _read(position, texts)
    full = adjudicate(BOARD, position, orders)
    trusted = adjudicate(BOARD, position, orders, checked=True)
    assert trusted == full


def test_a_support_the_supported_unit_cannot_follow_is_still_refused_when_checked() -> None:
    # The reader knows the supporter can reach Tuscany, not that the army in Vienna cannot (DATC 6.D.31).
    units = {"VEN": Unit("ITALY", UnitType.ARMY, "VEN"), "VIE": Unit("AUSTRIA", UnitType.ARMY, "VIE")}
    position = Position(Phase.parse("S1901M"), units, {}, {})
    orders = _read(position, {"ITALY": ["A VEN S A VIE - TUS"]})
    [result] = adjudicate(BOARD, position, orders, checked=True).results
    assert (result.outcome, result.reason) == ("invalid", "The army in Vienna cannot reach Tuscany")
