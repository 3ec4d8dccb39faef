"""Press: messages between powers, within what the game's press setting allows."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction

from dipserver.games import notifications
from dipserver.games.errors import GameError
from dipserver.games.models import Game, Message, Power, PressMark
from dipserver.games.selectors import channel_of, visible_messages
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
    notifications.notification_later("press_send", message_id=message.id)
    return message


@dataclass(frozen=True)
class ReadMark:
    channel: str  # "public", or the power names joined by commas, as the channel list gives them
    last_read: int  # the id of the last message read there


@transaction.atomic
def press_mark_read(*, game_id: int, user: Any, channel: str, up_to: int | None = None) -> ReadMark:
    """Mark ``user``'s press in ``channel`` read up to message ``up_to`` (by default the newest there);
    returns the channel as spelt everywhere and its marker, which never moves back (a late request from an
    old tab changes nothing)."""
    game = Game.objects.filter(id=game_id).first()
    if game is None:
        raise GameError(f"There is no game {game_id}")
    # The seat's row, locked: two marks of one power take turns (no key lock: press rows may point at it).
    user_id = getattr(user, "id", None)
    if user_id is None:  # an anonymous user must not match a vacant seat by ``user_id IS NULL``
        raise GameError("You are not playing in this game")
    seat = Power.objects.select_for_update(no_key=True).filter(game=game, user_id=user_id).first()
    if seat is None:
        raise GameError("You are not playing in this game")
    name = _channel_named(channel, seat)
    mine = [m.id for m in visible_messages(game=game, seat=seat) if channel_of(m, seat) == name]
    if up_to is None:
        up_to = mine[-1] if mine else 0
    elif up_to not in mine:
        raise GameError(f"Message {up_to} is not in your {name} press")
    mark, _ = PressMark.objects.get_or_create(power=seat, channel=name)
    if up_to > mark.last_read:
        mark.last_read = up_to
        mark.save(update_fields=["last_read", "updated_at"])
    return ReadMark(name, mark.last_read)


def _channel_named(channel: str, seat: Power) -> str:
    """``public``, or power names (any case, any order, commas between), as ``channel_of`` spells them."""
    name = channel.strip()
    if name.lower() == "public":
        return "public"
    names = sorted({n.strip().upper() for n in name.split(",") if n.strip()})
    if not names:
        raise GameError("Say which channel: 'public' or the powers you talk with")
    return ",".join(names)
