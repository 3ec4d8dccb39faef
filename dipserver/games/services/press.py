"""Press: messages between powers, within what the game's press setting allows."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction

from dipserver.games import notifications
from dipserver.games.errors import GameError
from dipserver.games.models import Game, Message
from dipserver.games.services.common import game_locked, powers_locked, seat_of


@transaction.atomic
def message_send(*, game_id: int, user: Any, body: str, recipients: Sequence[str] = ()) -> Message:
    """Send press; no recipients means public press to every power. Emails go out after commit."""
    if not body.strip():
        raise GameError("A message needs some text")
    game = game_locked(game_id)
    if game.status not in (Game.Status.ACTIVE, Game.Status.PAUSED):
        raise GameError(f"{game.name} is not in play")
    if game.press == Game.Press.GUNBOAT:
        raise GameError(f"{game.name} is a gunboat game: no press")
    powers = powers_locked(game)
    seat = seat_of(powers, user)
    names = {p.name for p in powers}
    wanted = sorted({r.upper() for r in recipients})
    if wanted and game.press == Game.Press.PUBLIC:
        raise GameError(f"{game.name} allows public press only; send it to everyone")
    unknown = [r for r in wanted if r not in names or r == seat.name]
    if unknown:
        raise GameError(f"Cannot send press to {', '.join(unknown)}")
    phase_name = game.current_phase.name if game.current_phase is not None else ""
    message = Message.objects.create(
        game=game, phase_name=phase_name, sender=seat, recipients=wanted, body=body.strip()
    )
    transaction.on_commit(lambda: notifications.press_send(message_id=message.id))
    return message
