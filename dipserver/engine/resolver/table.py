"""The order table the resolver decides: sanitised orders, one row per unit, and its derived indexes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from dipserver.engine.resolver.route import ConvoyRoute

# The kinds of a sanitised order (``OrderTable.kind``).
HOLD: Final = 0
MOVE: Final = 1
SUPPORT: Final = 2
CONVOY: Final = 3


@dataclass(slots=True)
class OrderTable:
    """Sanitised orders, one row per unit (``i`` is the unit number in every list).

    Illegal and non-matching orders are already holds (``movement.py`` saw to that).
    """

    province: Sequence[str]
    power: list[str]
    kind: list[int]  # HOLD, MOVE, SUPPORT or CONVOY
    dest: list[str | None]  # MOVE: target province; SUPPORT: the supported move's target, None for hold
    route: list[ConvoyRoute | None]  # MOVE by convoy: its possible routes; None when moving directly
    supports: list[list[int]]  # the matching SUPPORT orders given to each unit
    occupant: dict[str, int] = field(default_factory=dict)  # province -> unit number
    movers_to: dict[str, list[int]] = field(default_factory=dict)  # province -> MOVE orders into it
    opponent: list[int] = field(default_factory=list)  # head-to-head opponent of a MOVE, or -1

    @classmethod
    def build(
        cls,
        province: Sequence[str],
        power: list[str],
        kind: list[int],
        dest: list[str | None],
        route: list[ConvoyRoute | None],
        supports: list[list[int]],
        occupant: dict[str, int] | None = None,
    ) -> OrderTable:
        """Fill in the derived indexes (occupants, movers, head-to-head opponents)."""
        if occupant is None:
            occupant = {p: i for i, p in enumerate(province)}
        movers_to: dict[str, list[int]] = {}
        for i, k in enumerate(kind):
            if k == MOVE:
                movers_to.setdefault(dest[i], []).append(i)  # type: ignore[arg-type]
        opponent = [-1] * len(province)
        for i, k in enumerate(kind):
            if k != MOVE or route[i] is not None:
                continue
            j = occupant.get(dest[i], -1)  # type: ignore[arg-type]
            # Two units swapping by land meet on the border; a convoyed unit passes it by (DATC 4.A.7).
            if j >= 0 and kind[j] == MOVE and dest[j] == province[i] and route[j] is None:
                opponent[i] = j
        return cls(province, power, kind, dest, route, supports, occupant, movers_to, opponent)
