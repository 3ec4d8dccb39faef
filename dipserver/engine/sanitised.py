"""The movement phase's orders after step 2 (``movement.py``): one row per unit, and a row after theirs for
each army an A/F lands (``ferry.py``). The resolver reads its lists as an ``OrderTable``; the phase reads the
rest (the void orders, the moves' destinations as given) to report the results."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, final

from dipserver.engine.orders import Outcome
from dipserver.engine.resolver import HOLD
from dipserver.engine.types import Unit

if TYPE_CHECKING:
    from dipserver.engine.resolver.route import ConvoyRoute

UNSUPPORTED: Final[list[int]] = []  # (``Sanitised.supports``: never added to)


@final
class Sanitised:
    """The orders after step 2, one row per unit (``provs[i]`` is unit ``i``'s province), filled in as
    step 2 goes."""

    def __init__(self, provs: list[str], index: dict[str, int], at: list[Unit]) -> None:
        n = len(provs)
        self.provs = provs
        self.index = index  # province -> unit number
        self.at = at  # the units by number (the rows after theirs, A/F landings', have none)
        self.powers = [u.power for u in at]
        self.kind: list[int] = [HOLD] * n
        self.dest: list[str | None] = [None] * n
        self.dest_loc: list[str] = [""] * n  # a move's destination location (with its coast)
        self.route: list[ConvoyRoute | None] = [None] * n
        # Most units are not supported: they share one empty list, which nothing adds to (``_match`` gives a
        # unit a list of its own with each support), and are saved making and freeing a list each.
        self.supports: list[list[int]] = [UNSUPPORTED] * n
        self.void: dict[int, tuple[Outcome, str]] = {}  # unit -> the outcome and reason of its void order
        self.movers_to: dict[str, list[int]] = {}  # province -> the moves into it
        self.opponent: list[int] = [-1] * n  # a move's head-to-head opponent, or -1
        # Abstraction (5.6): the A/F's sea -> the row of the army it lands (rows after the units'); a Fast
        # Ferry's row -> the sea of the fleet its army stayed aboard, having not landed.
        self.landing: dict[str, int] = {}
        self.ferried: dict[int, str] = {}
        self.chained: dict[int, int] = {}  # a landing from the sea its A/F sails to: slot in results -> row
        self.carrier: dict[int, int] = {}  # such a landing's row -> the row of its A/F's sail
