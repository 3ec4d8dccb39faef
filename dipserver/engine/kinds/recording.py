"""What a kind's result record says of its order, and what a kind draws of a record (``Kind.record``,
``Kind.drawing``): the helpers every kind shares.

A kind's ``record`` gives ``Described``: the record's kind, the ordered unit (``Held``, or ``None``), and
the locations ``from``, ``to`` and ``via`` (``records.py`` documents the fields and assembles the record).
A kind's ``drawing`` reads the record back, never the order: stored records are drawn years later.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from dipserver.engine.types import PhaseType, UnitType, province_of

if TYPE_CHECKING:
    from dipserver.engine.board import Board
    from dipserver.engine.position import Position

Record = dict[str, Any]


class Held:
    """A unit as a record names it: whose it is (to tell the ordered unit from another power's), its type
    and where it stands."""

    __slots__ = ("location", "power", "type")

    def __init__(self, power: str, unit_type: str, location: str) -> None:
        self.power, self.type, self.location = power, unit_type, location

    def to_json(self) -> Record:
        return {"type": self.type, "location": self.location}


# kind, the unit (None: none, or not on the board), from, to, via
Described = tuple[str, Held | None, str | None, str | None, Record | None]


def held_at(position: Position, location: str) -> Held | None:
    unit = position.units.get(province_of(location))
    return None if unit is None else Held(unit.power, unit.type.value, unit.location)


def dislodged_at(position: Position, location: str) -> Held | None:
    """In a retreat phase an order names the dislodged unit, not the one that took its place."""
    entry = position.dislodged.get(province_of(location))
    if position.phase.type is PhaseType.RETREATS and entry is not None:
        return Held(entry.unit.power, entry.unit.type.value, entry.unit.location)
    return held_at(position, location)


def via(position: Position, target: str | None, dest: str | None, *, convoy: bool = False) -> Record:
    """A record's ``via``: the unit at ``target`` (a support's or convoy's) and where it goes."""
    unit = held_at(position, target) if target is not None else None
    start = unit.location if unit is not None else target
    return {"convoy": convoy, "unit": None if unit is None else unit.to_json(), "from": start, "to": dest}


def needs_convoy(position: Position, board: Board | None, location: str, dest: str) -> bool:
    """An army's move to a province it does not border goes by sea (known only with the phase's board)."""
    unit = position.units.get(province_of(location))
    if board is None or unit is None or unit.type is not UnitType.ARMY:
        return False
    return province_of(dest) not in board.army_moves(province_of(location))


def place(record: Mapping[str, Any], field: str) -> str:
    """A location field of ``record`` as a drawing takes it: ``""`` for none."""
    return record.get(field) or ""


def via_place(record: Mapping[str, Any], field: str) -> str:
    """``via``'s ``from`` or ``to``: ``""`` for none."""
    return (record.get("via") or {}).get(field) or ""
