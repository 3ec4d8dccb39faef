"""Thin Celery tasks of the players app."""

from __future__ import annotations

from celery import shared_task

from dipserver.players.bot_turns import bots_play


@shared_task(name="dipserver.players.house_bots_play", trail=False)  # type: ignore[untyped-decorator]  # Celery ships no type hints
def house_bots_play(game_id: int) -> int:
    """The game's bot seats order for its open phase, through the API."""
    return bots_play(game_id=game_id)
