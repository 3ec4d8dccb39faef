"""Kruijswijk's resolver: the decisions of a movement phase, and nothing else.

The input is a table of *sanitised* orders (``table.py``), a convoyed army's routes among them
(``route.py``: ``ConvoyRoute``, loaded by what makes one). Its modules follow the paper's nouns: the
path decision and the attack, hold, defend and prevent strengths (``strengths.py``); the move, support
and dislodge decisions and the easy pass that settles them without guessing (``decisions.py``); the
guessing pass of DATC v3.0 §5.F and the backup rule for what it leaves (``cycles.py``); the state they
share (``resolution.py``). The two passes run the same decisions and differ only in how one decision
reads another (``Resolution.look``).

``resolve(table)`` is the public face. ``resolve(table, easy=False)`` skips the easy pass, leaving all to
the guessing pass: tests hold the two in agreement with it.
"""

from __future__ import annotations

from dipserver.engine.resolver.cycles import decide_cycles
from dipserver.engine.resolver.decisions import settle, settle_one
from dipserver.engine.resolver.resolution import Resolution
from dipserver.engine.resolver.strengths import path
from dipserver.engine.resolver.table import CONVOY, HOLD, MOVE, SUPPORT, OrderTable

__all__ = ["CONVOY", "HOLD", "MOVE", "SUPPORT", "Decisions", "OrderTable", "resolve"]

_NO_PARADOX: frozenset[int] = frozenset()


class Decisions:
    """The outcome of every decision, and which convoys the Szykman rule failed.

    A plain class (not a frozen dataclass): built once per phase, its fields read and never compared.
    """

    __slots__ = ("paradox", "path", "success")

    def __init__(self, success: list[bool], path: list[bool], paradox: frozenset[int]) -> None:
        # Lists, not any sequence: compiled, a list is indexed in C, a Sequence through a method call.
        self.success = success  # per unit: MOVE arrived / SUPPORT given / CONVOY carried; False for HOLD
        self.path = path  # per unit: a MOVE had its way open (by land, or an unbroken convoy)
        self.paradox = paradox  # convoys failed by the Szykman rule


def resolve(table: OrderTable, easy: bool = True) -> Decisions:
    """Decide every order of the table (``easy=False``: without the easy pass, for tests)."""
    r = Resolution(table, settle_one)
    if not easy or settle(r):
        decide_cycles(r)
    kind, route = table.kind, table.route
    way: list[bool] = [k == MOVE for k in kind]
    if any(route):  # some move goes by sea (a route is always true)
        for i, rt in enumerate(route):
            if rt is not None and way[i]:
                way[i] = path(r, i)  # type: ignore[assignment]  # every convoy decided: True or False
    paradox = frozenset(r.paradox) if r.paradox else _NO_PARADOX
    return Decisions(r.done, way, paradox)  # type: ignore[arg-type]
