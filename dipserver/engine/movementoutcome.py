"""A movement phase adjudicated on its own, as one value: ``resolve_movement`` and its ``MovementOutcome``,
for the tests and tools that play a phase's moves without the phase pipeline. The pipeline
(``adjudicate.py``) takes ``movement.MovementPhase.run``'s three parts apart at once and never makes one,
so a request does not load this module (nor define its dataclass).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from dipserver.engine.movement import MovementPhase

if TYPE_CHECKING:
    from dipserver.engine.board import Board
    from dipserver.engine.dislodged import Dislodged
    from dipserver.engine.orders import Order
    from dipserver.engine.results import Results
    from dipserver.engine.types import Unit


@dataclass(frozen=True, slots=True)
class MovementOutcome:
    """What a movement phase leaves."""

    results: Results  # one per order given, in the order given
    units: dict[str, Unit]  # the units still on the board, keyed by province
    dislodged: dict[str, Dislodged]  # every dislodged unit with its retreat options (possibly none)


def resolve_movement(
    board: Board,
    units: Mapping[str, Unit],
    orders_by_power: Mapping[str, Iterable[Order]],
    *,
    checked: bool = False,
    abstraction: bool = False,
) -> MovementOutcome:
    """Adjudicate one movement phase on ``board`` for ``units`` (keyed by province).

    ``checked=True`` promises that every order came from ``parse.parse_order`` (or its front, the board's
    readings) for this board and these units: each names its own power's unit, and a
    support names a place the supporter could move to. Those checks are then skipped; everything that
    depends on other units (a supported unit's reach, convoy routes) is still checked.

    ``abstraction=True`` plays the Abstraction A/F rules (variant-rulings 5.6, ``ferry.py``): armies board
    before the moves, A/Fs land their armies during them, a convoy crosses one sea.
    """
    return MovementOutcome(*MovementPhase(board, units, checked, abstraction).run(orders_by_power))
