"""Why a unit of a request cannot be where the request puts it, in words (``request.py`` refuses it)."""

from __future__ import annotations

from dipserver.engine.board import Board
from dipserver.engine.types import Terrain, Unit, UnitType


def cannot_stand(board: Board, unit: Unit) -> str:
    prov, name = unit.province, board.province_name(unit.province)
    terrain = board.terrain(prov)
    if not terrain.passable:
        return f"{name} is {terrain.value}: no unit can stand there"
    if unit.type is UnitType.ARMY:
        if terrain is Terrain.SEA:
            return f"an army cannot stand in {name}, a sea"
        return f"an army stands in a province, not on a coast: write {prov}"
    coasts = board.coasts(prov)
    if coasts and unit.location == prov:
        return f"say which coast of {name} the fleet is on: " + " or ".join(f"{prov}/{c}" for c in coasts)
    if coasts:
        return f"{name} has no {unit.location.partition('/')[2]} coast"
    return f"a fleet cannot stand in {name}: it is not on the sea"


def dislodged_by_own(board: Board, unit: Unit, standing: Unit) -> str:
    """Why a unit cannot be dislodged from where a unit of its own power stands (``validate`` says it too)."""
    name = board.province_name(unit.province)
    if standing == unit:
        return f'it stands in {name} too (in "units"): a dislodged unit has left the board until it retreats'
    return f"{standing} of the same power stands in {name}: a unit is dislodged only by another power's unit"
