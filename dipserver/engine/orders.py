"""Order values, as the parser produces them and the adjudicator consumes them.

An order names the ordered unit by its location (``unit``) as given in the position; the target of a
support or convoy is named by province or location. Parsing and validation live elsewhere
(``parse.py``); these are plain values, and ``OrderError`` is what a reader raises for a text it refuses.
The values of the retreat and adjustment phases are ``lateorders.py``'s, the Abstraction A/F rules' are
``ferryorders.py``'s.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, TypeAlias

if TYPE_CHECKING:
    from dipserver.engine.ferryorders import FerryOrder
    from dipserver.engine.lateorders import AdjustmentOrder, RetreatOrder

# Each dataclass has a docstring: without one, ``dataclass`` writes one from the class's signature as the
# module loads, which every start-up of the command line would pay.


class OrderError(ValueError):
    """An order that cannot be understood or is impossible; ``reason`` is meant for the player."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Hold:
    """The unit stays where it is."""

    unit: str


@dataclass(frozen=True, slots=True)
class Move:
    """The unit moves to ``dest`` (an army perhaps by convoy)."""

    unit: str
    dest: str  # location; a coast when the fleet must name one
    via_convoy: bool = False


@dataclass(frozen=True, slots=True)
class SupportHold:
    """The unit supports the unit in ``target`` where it stands."""

    unit: str
    target: str  # province of the supported unit


@dataclass(frozen=True, slots=True)
class SupportMove:
    """The unit supports the move from ``target`` to ``dest``."""

    unit: str
    target: str  # province the supported unit moves from
    dest: str  # province (or location, when a coast was named) it moves to


@dataclass(frozen=True, slots=True)
class Convoy:
    """The fleet carries the army in ``target`` to ``dest``."""

    unit: str  # the convoying fleet
    target: str  # province of the convoyed army
    dest: str  # province the army is carried to


# The rulebook's movement orders; the Abstraction A/F rules' (boarding, landing) are ``ferryorders.py``'s.
StandardOrder = Hold | Move | SupportHold | SupportMove | Convoy
# Every order value: the movement phase's, and the retreat and adjustment phases' in ``lateorders.py``.
# Types for annotations only (strings at run time), so that loading this module never loads those modules.
MovementOrder: TypeAlias = "StandardOrder | FerryOrder"
Order: TypeAlias = "MovementOrder | RetreatOrder | AdjustmentOrder"


class Outcome(StrEnum):
    """What became of one order."""

    SUCCESS = "success"
    BOUNCE = "bounce"  # a move (or retreat) that did not arrive
    CUT = "cut"  # a support that was not given
    DISLODGED = "dislodged"  # a hold or convoy whose unit was dislodged
    VOID = "void"  # legal, but nothing matched it (support or convoy of an order not given)
    NO_CONVOY = "no_convoy"  # a move needing a convoy that had no unbroken route
    INVALID = "invalid"  # illegal or impossible; ignored, the unit holds


@dataclass(frozen=True, slots=True)
class OrderResult:
    """One order's fate."""

    power: str
    order: Order
    outcome: Outcome
    reason: str = ""  # why, in words a player understands; empty on plain success
    dislodged: bool = False  # the ordered unit was dislodged this phase
