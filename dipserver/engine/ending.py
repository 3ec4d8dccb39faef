"""How a game ended, as a value: what ``victory.py`` judges once a game is over.

A module of its own so that a phase that ends no game, nearly every one, never defines these values:
``victory.py`` loads it the first time it finds an ending (``victory._ended``).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Result(StrEnum):
    WIN = "win"
    DRAW = "draw"
    NO_WINNER = "no_winner"


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: won, drawn or without a winner, by which powers, and why."""

    result: Result
    powers: tuple[str, ...]  # the winner, or the powers sharing the draw; empty for no winner
    reason: str  # in words a player understands
