"""The game is told when a seat changes hands: every player of the game, and the newcomer, find it in
their inbox (``notices``) once the hand-over commits. In an anonymous game in play the newcomer is not
named to the others."""

from __future__ import annotations

import functools

from django.db import transaction
from django.urls import reverse

from dipserver.games.models import Game, Power, Tenure
from dipserver.mail.unsubscribe import site_url
from dipserver.notices.events import Notice
from dipserver.notices.services import notifications_store

KIND = "seat_taken"


def seat_taken_tell(game: Game, seat: Power) -> None:
    """A ``games.endings`` seat hook: tell the game once the transaction commits."""
    transaction.on_commit(functools.partial(seat_taken_told, game_id=game.id, power_id=seat.id))


def seat_taken_told(*, game_id: int, power_id: int) -> int:
    """Store the news of the seat's latest hand-over for each player (once: keyed by the tenure)."""
    game = Game.objects.get(id=game_id)
    seat = Power.objects.select_related("user").get(id=power_id)
    tenure = Tenure.objects.filter(power=seat).order_by("-from_index", "-id").first()
    if tenure is None or seat.user is None:
        return 0
    power = seat.name.title()
    hidden = game.press == Game.Press.ANONYMOUS and game.status != Game.Status.FINISHED
    who = "A new player" if hidden else seat.user.username + (" (a bot)" if seat.user.is_bot else "")
    url = site_url(reverse("game", args=[game.id]))
    title = f"[{game.name}] {power} has a new player"
    notices = []
    for reader in Power.objects.filter(game=game, user__isnull=False).select_related("user"):
        assert reader.user is not None
        if reader.id == seat.id:
            text = f"You play {power} now: its units, and all the press it could read, are yours."
        else:
            text = f"{who} has taken over {power}."
        key = f"{KIND}:{tenure.id}:{reader.user.id}"
        notices.append(Notice(key, KIND, game.id, game.name, reader.user.id, title, text, url))
    return notifications_store(notices)
