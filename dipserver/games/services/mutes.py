"""Muting a game: its players and game masters may stop hearing its news (mail and the inbox).

Who muted a game is kept on the game (``Game.muted_by``), which every announcement of it reads anyway:
the mail leaves them out (``notifications``), the inbox too (``notices``), and their webhooks still hear it
(each is an address its owner set up for a purpose, a bot or a chat, narrowed or removed on its own).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from dipserver.games.errors import GameError
from dipserver.games.models import Power
from dipserver.games.services.common import game_locked


@transaction.atomic
def game_mute(*, game_id: int, user: Any, muted: bool) -> bool:
    """Mute (``muted``) or unmute the game's news for ``user``; whether anything changed. Refused
    (``not_yours``) for someone who neither plays in the game nor runs it: it sends them no news. The
    game's row is locked (first in the lock order), so two players muting at once both stay muted."""
    game = game_locked(game_id)
    if not (
        Power.objects.filter(game=game, user_id=user.id).exists()
        or user.is_superuser
        or game.masters.filter(id=user.id).exists()
    ):
        raise GameError(f"You neither play in nor run {game.name}: it sends you no news.", code="not_yours")
    others = [u for u in game.muted_by if u != user.id]
    wanted = sorted([*others, user.id]) if muted else others
    if wanted == game.muted_by:
        return False
    game.muted_by = wanted
    game.save(update_fields=["muted_by"])
    return True
