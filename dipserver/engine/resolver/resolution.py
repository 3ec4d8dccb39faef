"""The state of one resolution: the table's rows at hand and each decision's value so far.

Every decision and strength (``decisions.py``, ``strengths.py``) reads the decisions it depends on the
same way: ``done[x]`` when it is settled, else ``look(r, x)``. ``look`` is what makes the pass: in the
*easy* pass it decides ``x`` without guessing and answers ``None`` (undecided) when that needs a guess; in
the guessing pass (``cycles.py``) it answers a guess or a decision that may depend on one, never ``None``.
So the three-valued rules are written once, and the two passes differ in nothing but ``look``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from dipserver.engine.resolver.table import HOLD, OrderTable

if TYPE_CHECKING:
    from dipserver.engine.resolver.route import ConvoyRoute

_NONE: frozenset[int] = frozenset()

Look = Callable[["Resolution", int], "bool | None"]


class Resolution:
    """One table being resolved: its rows, the decisions (``done``) and the pass's ``look``.

    ``done[i]`` is the decision of unit ``i``'s order — MOVE: it arrives; SUPPORT: it is given; CONVOY:
    the fleet is not dislodged, so it carries — ``None`` while open. ``busy`` marks the decisions the easy
    pass has begun (and, when they needed a guess, given up on). ``result``, ``guessing``, ``dep`` and
    ``paradox`` are the guessing pass's (DATC §5.F).
    """

    result: list[bool]
    guessing: list[bool]
    dep: list[int]

    __slots__ = (
        "busy",
        "dep",
        "dest",
        "done",
        "guessing",
        "kind",
        "look",
        "movers_to",
        "occupant",
        "opponent",
        "paradox",
        "power",
        "province",
        "result",
        "route",
        "supports",
    )

    def __init__(self, table: OrderTable, look: Look) -> None:
        # Lists and dicts as such: compiled, their lookups are C, a Sequence's or Mapping's method calls.
        province = table.province
        self.province: list[str] = province if isinstance(province, list) else list(province)
        self.power = table.power
        kind = self.kind = table.kind
        self.dest = table.dest
        self.route: list[ConvoyRoute | None] = table.route
        self.supports = table.supports
        self.occupant: dict[str, int] = table.occupant
        self.movers_to: dict[str, list[int]] = table.movers_to
        self.opponent = table.opponent
        # A decision's start: a HOLD decides nothing (False), the rest are open.
        self.done: list[bool | None] = [False if k == HOLD else None for k in kind]
        self.busy = [False] * len(kind)
        self.look = look
        self.paradox: set[int] | frozenset[int] = _NONE  # the guessing pass sets its own (and the rest)
