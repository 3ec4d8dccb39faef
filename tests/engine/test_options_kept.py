"""The options the kinds keep on the board (``Offering.keep``) are those a phase would work out afresh: a
later phase on the same map that looks them up gets what it would have built."""

from __future__ import annotations

from dataclasses import replace

from dipserver.engine.board import Board
from dipserver.engine.options import PowerOptions, phase_options
from dipserver.engine.position import Position
from dipserver.engine.types import Unit, UnitType
from dipserver.engine.variant import Variant
from tests.engine.test_parse import MOVEMENT
from tests.engine.test_phase_options import CONVOYS

ARMY, FLEET = UnitType.ARMY, UnitType.FLEET


def _afresh(board: Board, position: Position) -> dict[str, PowerOptions]:
    board.offers.clear()
    return dict(phase_options(board, position))


def test_options_looked_up_after_other_phases_are_those_worked_out_afresh(
    standard: Variant, board: Board
) -> None:
    # Each position after the first meets tables filled by the ones before: the same units in other
    # company, fleets joined to others, an army that fleets carry in one and not in the next.
    without_channel = replace(CONVOYS, units={p: u for p, u in CONVOYS.units.items() if p != "ENG"})
    with_army = replace(CONVOYS, units={**CONVOYS.units, "PIC": Unit("FRANCE", ARMY, "PIC")})
    positions = [standard.start, MOVEMENT, CONVOYS, without_channel, with_army, CONVOYS]
    board.offers.clear()
    looked_up = [dict(phase_options(board, position)) for position in positions]
    assert [_afresh(board, position) for position in positions] == looked_up


def test_a_unit_of_another_kind_in_the_same_place_gets_options_of_its_own(board: Board) -> None:
    # The tables are keyed by the units' words: a fleet where an army stood before is not the army.
    army = replace(CONVOYS, units={**CONVOYS.units, "BEL": Unit("FRANCE", ARMY, "BEL")})
    fleet = replace(CONVOYS, units={**CONVOYS.units, "BEL": Unit("FRANCE", FLEET, "BEL")})
    board.offers.clear()
    phase_options(board, army)
    texts = {o.text for o in phase_options(board, fleet)["FRANCE"].units["BEL"]}
    assert "F BEL - NTH" in texts and "F BEL - RUH" not in texts
    assert {o.text for o in _afresh(board, fleet)["FRANCE"].units["BEL"]} == texts
