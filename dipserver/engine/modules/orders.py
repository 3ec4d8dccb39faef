"""The rule modules' own orders, as plain values, and how a text reads as one.

- Supply lines: ``establish depot PAR``, ``depot PAR``, ``A PAR establish depot``, ``A PAR depot``
  (also ``found``/``build``; ``at``/``in`` allowed before the place).
- Snow Storm tokens: ``place blizzard MUN``, ``remove blizzard MUN`` (also ``place a blizzard on Munich``,
  ``remove the blizzard from Munich``).

Their kinds are ``kinds.py``'s; checking one against a game's modules is the modules' play
(``phase.parse_module_order``). Light: every process loads these values with their kinds.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from dipserver.engine.kinds.module_notation import DEPOT, read_notation

if TYPE_CHECKING:
    from dipserver.engine.board import Board


@dataclass(frozen=True, slots=True)
class EstablishDepot:
    """A module order given with the movement orders: the unit in ``province`` founds a depot there."""

    power: str
    province: str

    def __str__(self) -> str:
        return f"establish depot {self.province}"


@dataclass(frozen=True, slots=True)
class SnowStorm:
    """A Snow Storm token: ``place`` a blizzard on ``province``, or remove the one there (``place=False``)."""

    power: str
    province: str
    place: bool = True

    def __str__(self) -> str:
        return f"{'place' if self.place else 'remove'} blizzard {self.province}"


ModuleOrder = EstablishDepot | SnowStorm


def read_module_order(text: str, board: Board, power: str) -> ModuleOrder | None:
    """What ``text`` asks for if it is a module order (unchecked); ``None`` if it is not one at all."""
    found = read_notation(text, board)
    if found is None:
        return None
    what, province, placed = found
    return EstablishDepot(power, province) if what == DEPOT else SnowStorm(power, province, placed)
