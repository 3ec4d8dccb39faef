"""Muting a game: its players and game masters may stop hearing its news (mail and the inbox).

What is muted is kept with the player's notification preferences (``accounts``); here only who may: a
player of the game or one of its masters. Webhooks are not muted: each is an address its owner set up
for a purpose (a bot, a chat), and is narrowed or removed on its own.
"""

from __future__ import annotations

from typing import Any

from dipserver.accounts.services import game_mute_set
from dipserver.games.errors import GameError
from dipserver.games.models import Game, Power


def game_mute(*, game_id: int, user: Any, muted: bool) -> bool:
    """Mute (``muted``) or unmute the game's news for ``user``; whether anything changed. Refused
    (``not_yours``) for someone who neither plays in the game nor runs it: it sends them no news."""
    game = Game.objects.filter(id=game_id).first()
    if game is None:
        raise GameError(f"There is no game {game_id}.", code="not_found")
    if not (
        Power.objects.filter(game=game, user_id=user.id).exists()
        or user.is_superuser
        or game.masters.filter(id=user.id).exists()
    ):
        raise GameError(f"You neither play in nor run {game.name}: it sends you no news.", code="not_yours")
    return game_mute_set(user_id=user.id, game_id=game.id, muted=muted)
