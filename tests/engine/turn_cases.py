"""What the one-phase tests of the mutating variants (test_turn_*.py) build their cases from: the map just
before a hook, a position written unit by unit, and the result of one order of a played phase.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dipserver.engine.board import MapState
from dipserver.engine.position import Position
from dipserver.engine.timeline import Hook, walk
from dipserver.engine.turn import Turn
from dipserver.engine.types import Phase, Unit, UnitType
from dipserver.engine.variant import Variant


def map_before(variant: Variant, year: int, hook: Hook, options: Mapping[str, Any] | None = None) -> MapState:
    """The map of a game just before ``hook`` of ``year`` (the timeline alone decides it)."""
    state = variant.map_state
    for y, h, step in walk(variant, options or {}):
        if (y, list(Hook).index(h)) >= (year, list(Hook).index(hook)):
            break
        state = step.map_state
    return state


def position(phase: str, *units: str, owners: Mapping[str, list[str]]) -> Position:
    """Units written ``"RUSSIA F BAR"``, owners by power."""
    placed = {}
    for spec in units:
        power, kind, loc = spec.split()
        unit = Unit(power, UnitType(kind), loc)
        placed[unit.province] = unit
    owned = {prov: power for power, provs in owners.items() for prov in provs}
    return Position(Phase.parse(phase), placed, owned)


def result(turn: Turn, text: str) -> dict[str, Any]:
    found = [r for r in turn.results if r["text"] == text]
    assert len(found) == 1, (text, turn.results)
    return found[0]
