"""Distances on the board, counted in moves between bordering provinces.

Used by the civil-disorder rule (2023 rulebook, DATC 4.D.8 and 6.J): a unit's distance is the number of
steps to the nearest supply centre its power owns, where armies and fleets alike may cross both land and
sea. Impassable and absent provinces are not crossed.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from dipserver.engine.board import Board


def distances_from(board: Board, sources: Iterable[str]) -> dict[str, int]:
    """Steps from the nearest of ``sources`` to every province reachable from them (sources are 0)."""
    dist = {p: 0 for p in sources if board.terrain(p).passable}
    queue = deque(dist)
    while queue:
        prov = queue.popleft()
        step = dist[prov] + 1
        for nxt in board.neighbours(prov):
            if nxt not in dist:
                dist[nxt] = step
                queue.append(nxt)
    return dist
