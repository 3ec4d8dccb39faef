"""How the kinds name units in their reasons and notation: "The army in Paris", "an army", "A PAR"."""

from __future__ import annotations

from typing import TYPE_CHECKING

from dipserver.engine.types import PhaseType, Unit, UnitType, province_of

if TYPE_CHECKING:
    from dipserver.engine.board import Board
    from dipserver.engine.position import Position


def unit_phrase(board: Board, unit: Unit, the: str = "The") -> str:
    return f"{the} {kind_word(unit.type)} in {board.location_name(unit.location)}"


def kind_word(unit_type: UnitType) -> str:
    return "army" if unit_type is UnitType.ARMY else "fleet"


def a_unit(unit_type: UnitType) -> str:
    return "an army" if unit_type is UnitType.ARMY else "a fleet"


def unit_at(position: Position, loc: str) -> str:
    """``A PAR`` for the unit at ``loc`` (in a retreat phase the dislodged one), else the province."""
    if position.phase.type is PhaseType.RETREATS:
        entry = position.dislodged.get(province_of(loc))
        unit = entry.unit if entry else None
    else:
        unit = position.units.get(province_of(loc))
    return f"{unit.letters} {unit.location}" if unit else province_of(loc)  # "A/F NTH": an A/F
